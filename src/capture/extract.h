/* extract.h — one program's whole-program module from a capture.
 *
 * Runs the pre-link optimizer the build left to it (capture/prelink.h) on
 * the units the program's native link used, then links their bitcode, in link
 * order, with llvm-link (LLVM 22): its IR linker keeps `static` symbols of
 * different units apart (renaming on collision) and resolves weak, common
 * and COMDAT definitions as the native linker does. With with_shared, each
 * shared library of the build that the program links is linked alone, its
 * unexported symbols made internal, and merged under the program with
 * dynamic-linker interposition (the program's definition wins over a
 * library's, an earlier library's over a later one's). Then, unless
 * keep_dead, what the link's LTO would drop is stripped (capture/strip.h).
 * The output is written to FILE.tmp.PID and renamed: never half-written. */
#ifndef FACET_CAPTURE_EXTRACT_H
#define FACET_CAPTURE_EXTRACT_H

#include <stdbool.h>

#include "capture/manifest.h"
#include "util/error.h"
#include "util/vec.h"

typedef struct capture_extract_options {
	bool allow_missing;        /* link what has bitcode when units have none */
	bool with_shared;          /* merge the build's own shared libraries the program links */
	bool keep_dead;            /* no dead-symbol stripping: every function of every linked unit */
	const char *llvm_link;     /* NULL: LLVM 22's, from the build configuration */
} capture_extract_options;

typedef VEC(char *) capture_messages;

/* The program named by `name`: its path (as linked, or any path whose file
 * has the same content: an installed copy), else a unique basename. NULL
 * with err listing the candidates otherwise. */
const capture_program *capture_find_program(const capture_manifest *m, const char *name, facet_error *err);

/* Writes p's module to `out`. Warnings (units without debug info, units
 * linked without bitcode under allow_missing) are appended to *warnings. */
bool capture_extract(const capture_manifest *m, const capture_program *p, const capture_extract_options *opt,
                     const char *out, capture_messages *warnings, facet_error *err);

/* LLVM 22's tool directory (FACET_CAPTURE_LLVM_BINDIR overrides it). */
const char *capture_llvm_bindir(void);

void capture_messages_free(capture_messages *w);

/* `facet capture extract DIR PROGRAM` whole (named.c): the capture at dir
 * loaded, the program named found, its module written to out. */
bool capture_extract_named(const char *dir, const char *program, const capture_extract_options *opt,
                           const char *out, capture_messages *warnings, facet_error *err);
/* The same into a new temporary file under $TMPDIR (or /tmp), its malloc'd
 * path returned (the caller unlinks and frees it); NULL with err. */
char *capture_extract_temp(const char *dir, const char *program, capture_messages *warnings, facet_error *err);

#endif
