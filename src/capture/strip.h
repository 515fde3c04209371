/* strip.h — what a link keeps: exported symbols, roots, dead-symbol stripping.
 *
 * A native link without --gc-sections keeps every function of every object
 * it used; the LTO link that bench/corpus.sh's reference modules come from
 * (lld's preopt module) keeps only what is live from the symbols the link
 * must preserve. Those roots are: main and the entry symbol (-e ENTRY,
 * else ld's _start) for an executable; every symbol the
 * output exports in its .dynsym (-rdynamic, the symbols its shared libraries
 * reference, a shared library's API after its version script and
 * visibility); every symbol that a linked input without bitcode (assembly, a
 * prebuilt object) references. capture_strip removes the rest
 * with opt-22 in two runs: internalize to the roots + globaldce finds the
 * live set; internalize to the live set + globaldce then drops the dead
 * while every live symbol keeps the linkage the link gave it (as in the
 * preopt module, which is taken before LTO internalizes), so facts that
 * depend on linkage (callers outside the module, print-callgraph's external
 * node) stay those of the link. Not roots, so not kept: symbols that only a
 * system static library outside the build references back (flex's libfl
 * and yylex), and -u SYMBOL or -e ENTRY naming a symbol nothing uses. */
#ifndef FACET_CAPTURE_STRIP_H
#define FACET_CAPTURE_STRIP_H

#include <stdbool.h>

#include "capture/manifest.h"
#include "util/error.h"
#include "util/vec.h"

typedef VEC(char *) capture_names;

/* The symbols the ELF executable or shared library at `path` defines in its
 * .dynsym (appended to *out). False with err naming the file when it cannot
 * be read, is not ELF, or its content no longer has hash `hash` (NULL: not
 * checked). */
bool capture_exports(const char *path, const char *hash, capture_names *out, facet_error *err);

/* p's roots (above), appended to *out. False with err when something they
 * are read from (the program, an input without bitcode) cannot be read, or
 * when p was linked with a linker script (its KEEPs are not modelled). */
bool capture_program_roots(const capture_manifest *m, const capture_program *p, capture_names *out,
                           facet_error *err);

/* Only the symbols p's inputs without bitcode reference, appended to *out. */
bool capture_input_roots(const capture_program *p, capture_names *out, facet_error *err);

/* opt-22 (path `opt`) on `in`: every defined symbol not in `keep` made
 * internal, then with `dce` everything not live from what stays external
 * removed; the result written to `out`, local value names dropped. */
bool capture_internalize(const char *opt, const char *in, const char *out, const capture_names *keep, bool dce,
                         facet_error *err);

/* Dead-symbol stripping of `in` into `out` (both may not be the same file),
 * keeping the linkage of what stays; `bindir` holds opt and llvm-nm. */
bool capture_strip(const char *bindir, const char *in, const char *out, const capture_names *roots,
                   facet_error *err);

void capture_names_free(capture_names *n);

#endif
