/* wrap.h — the compiler wrapper that `facet capture` puts first on PATH
 * (as cc, gcc, clang, c++, g++, clang++ and the versioned and triplet names
 * found on PATH, and as the linkers ld, ld.lld... found there) and in CC/CXX
 * (as facet-env-cc / facet-env-cxx).
 *
 * It runs the real compiler with the original arguments, untouched, and its
 * exit status is the wrapper's: the native build is the build. A compile
 * (-c) also compiles each C/C++ source again with clang-22 into bitcode
 * (-flto -g, the command's own -O, defines and include paths; flags clang
 * rejects dropped and listed), keyed by the SHA-256 of the native object; a
 * link (a driver's, or the linker's own command line) records which inputs
 * the native linker used (capture/resolve.h).
 * Everything goes to DIR/records and DIR/bc; the wrapper never writes to
 * the build's stdout or stderr (configure scripts read compiler stderr). */
#ifndef FACET_CAPTURE_WRAP_H
#define FACET_CAPTURE_WRAP_H

#include <stdbool.h>

#include "capture/args.h"

/* Environment the wrapper reads (set by capture_run):
 *   FACET_CAPTURE_DIR       the capture directory (absolute); unset: plain pass-through
 *   FACET_CAPTURE_BIN       DIR/bin, removed from PATH before the real compiler runs
 *   FACET_CAPTURE_ROOT      the directory capture ran in
 *   FACET_CAPTURE_CLANG, FACET_CAPTURE_CLANGXX, FACET_CAPTURE_NM   LLVM 22 tools (absolute)
 *   FACET_CAPTURE_REAL_CC, FACET_CAPTURE_REAL_CXX   the original $CC/$CXX
 *   FACET_CAPTURE_EXEC      set by the exec hook: the compiler's own path (the
 *                           wrapper runs that file; removed from its environment)
 * and sets FACET_CAPTURE_ACTIVE for the real tool it runs, so that neither
 * the wrapper nor the exec hook observes what that tool runs in turn. */
int capture_wrap(int argc, char **argv);

/* A configure-time probe, run natively with nothing recorded: every source
 * and the output named conftest* (autoconf's fixed names, deleted by
 * configure right after the check), or a compile or link in CMake's
 * try_compile directories (CMakeFiles/CMakeScratch/, CMakeFiles/CMakeTmp/).
 * Their products never reach a program, and their bitcode compiles were
 * most of a configure run's capture cost. */
bool capture_is_probe(const capture_cmd *cmd, const char *cwd);

#endif
