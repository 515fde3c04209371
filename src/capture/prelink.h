/* prelink.h — the LTO pre-link optimizer, run by extract instead of the build.
 *
 * The build's bitcode compile (capture/wrap.h) stops after clang's front
 * end (-Xclang -disable-llvm-passes): the optimizer was 69% of that
 * compile's time, and the build waited for it. The unit record keeps the
 * command that finishes the job (`prelink_arguments`: clang-22 with the
 * unit's own flags, its -O level among them). Run on the front end's
 * bitcode as `-x ir`, clang builds the very pipeline the one-step compile
 * would have run (lto-pre-link at that level, with the tuning the flags
 * ask for: -fno-unroll-loops, sanitizers, -mllvm options), so the result is
 * the one-step compile's IR; only local value names differ (clang keeps
 * them for IR input; extract's opt run drops them).
 *
 * Results are cached in DIR/prelink/KEY.bc, KEY the SHA-256 of the input
 * bitcode's hash, the command, its directory and the clang binary (path,
 * size, modification time): a second extract runs nothing. Each result is
 * written to a temporary file and renamed, so the cache holds only whole
 * files. Units run in parallel, one per online core. */
#ifndef FACET_CAPTURE_PRELINK_H
#define FACET_CAPTURE_PRELINK_H

#include <stdbool.h>
#include <stddef.h>

#include "capture/manifest.h"
#include "util/error.h"

/* For each of the n units (indexes into m->units, each with bitcode), the
 * bitcode file to link, malloc'd into paths[i]: the unit's own when it has
 * no prelink_arguments (a capture made before them, whose bitcode is
 * optimized already), else its optimized bitcode, from the cache or made
 * now. *ran counts the units optimized now. False with err naming the
 * unit's source and clang's first error when a run fails; every child is
 * waited for before returning, and paths[] is freed and zeroed then. */
bool capture_prelink(const capture_manifest *m, const int *units, size_t n, char **paths, size_t *ran,
                     facet_error *err);

#endif
