/* tbuild.h — `facet trace build`: instrument bitcode and link it with the
 * trace runtime into a runnable executable.
 *
 * The runtime is C source (src/trace/runtime/facet_rt.c) compiled with the
 * user's clang together with the instrumented module, so it matches the
 * module's target and needs no prebuilt object. */
#ifndef FACET_TRACE_TBUILD_H
#define FACET_TRACE_TBUILD_H

#include <stdbool.h>

#include "ir/instrument.h"
#include "util/error.h"

typedef struct trace_build_options {
	const char *const *inputs;     /* .bc / .ll files, linked as ir_ingest links them */
	unsigned n_inputs;
	const char *output;            /* the executable to write */
	const char *cc;                /* compiler driver; NULL = "clang-22" */
	const char *opt_level;         /* e.g. "-O1" (NULL = "-O1") */
	const char *runtime;           /* runtime source; NULL = trace_runtime_path() */
	const char *keep_bc;           /* if set, the instrumented bitcode is also written here */
	const char *const *link_args;  /* passed to the compiler driver after everything else */
	unsigned n_link_args;
	bool verify;
} trace_build_options;

/* The runtime source: $FACET_TRACE_RUNTIME if set, else the one installed
 * beside this facet (PREFIX/bin/../share/facet/runtime/facet_rt.c, what
 * `cmake --install` puts there) when it exists, else
 * src/trace/runtime/facet_rt.c of the source tree facet was compiled from. */
const char *trace_runtime_path(void);

/* Splits `facet trace build`'s arguments argv[1..argc-1]: link arguments
 * (libraries, objects, -l, -L, -Wl,..., -pthread, -rdynamic, -static,
 * -no-pie, and everything after --) go to links (room for argc) and become
 * o->link_args; an -O level becomes o->opt_level; the rest (options, their
 * values, inputs) is packed in order into argv[1..], for the option parser.
 * Returns the new argc. */
int trace_build_split_args(int argc, char **argv, trace_build_options *o, const char **links);

/* Instruments, compiles and links. The compiler's own diagnostics go to the
 * inherited stderr; err names what failed. */
bool trace_build(const trace_build_options *opt, ir_instrument_stats *stats, facet_error *err);

#endif
