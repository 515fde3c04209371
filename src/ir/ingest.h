/* ingest.h — read LLVM bitcode or textual IR into facet's program model.
 *
 * The only door from LLVM into facet: parse each file (.bc or .ll), link them
 * into one module, verify it, lower it into an ir_program (model.h), and drop
 * the module. */
#ifndef FACET_IR_INGEST_H
#define FACET_IR_INGEST_H

#include "ir/model.h"
#include "util/error.h"

typedef struct ingest_options {
	bool verify;               /* run LLVM's verifier on the linked module (default on) */
	bool sites_only;           /* functions, call sites and their locations only: no
	                              pointer statements, call operands, debug-info types or
	                              variable bindings (what the direct call graph needs) */
	void (*progress)(void *arg, const char *phase);   /* told "verifying the module", "lowering the
	                              module" as each starts (reading is the caller's first); NULL: not */
	void *progress_arg;
} ingest_options;

/* Warnings that do not stop the analysis (a module without debug info). */
typedef struct ingest_warnings {
	char **msgs;
	unsigned n;
} ingest_warnings;

/* Reads and links paths[0..n-1]. Returns NULL and fills err on failure (the
 * message names the file and the problem). Warnings, if non-NULL, receives
 * heap strings the caller frees with ingest_warnings_free. */
ir_program *ir_ingest(const char *const *paths, unsigned n, const ingest_options *opt,
                      ingest_warnings *warnings, facet_error *err);
void ingest_warnings_free(ingest_warnings *w);

#endif
