/* capture.h — `facet capture`: run a build with every compile and link observed.
 *
 * capture_run makes DIR (default .facet-capture) with DIR/bin holding the
 * wrapper (capture/wrap.h) under every compiler name the build may use,
 * puts DIR/bin first on PATH and the wrapper in CC/CXX when they are set,
 * runs COMMAND, and joins the records into DIR/manifest.json whatever
 * COMMAND's outcome (what was captured before a failure is kept). With
 * an exec hook (capture/bin/preload.c, on LD_PRELOAD), a compiler or linker
 * named by absolute path (/usr/bin/gcc in a Makefile) is observed too;
 * ASan's check that its runtime comes first among the loaded libraries is
 * turned off in ASAN_OPTIONS then (the build's sanitized tests would stop
 * at it), nothing else changes. Several
 * captures into one DIR add up (`./configure` then `make`); a DIR made for
 * another directory's build is refused. */
#ifndef FACET_CAPTURE_CAPTURE_H
#define FACET_CAPTURE_CAPTURE_H

#include <stdbool.h>

#include "util/error.h"

typedef struct capture_run_options {
	const char *dir;           /* the capture directory */
	char **argv;               /* COMMAND and its arguments, NULL-terminated */
	const char *wrapper;       /* the facet-cc executable */
	const char *exec_hook;     /* facet-exec.so, or NULL: compilers named by path are not seen */
} capture_run_options;

/* Runs the command; *status is its exit status (128+N when killed by signal
 * N). False with err when the capture itself could not be set up (the
 * wrapper missing, the directory not made) or the manifest not written (the
 * command's status is still set when it ran; 127 when it did not). */
bool capture_run(const capture_run_options *opt, int *status, facet_error *err);

/* facet-cc beside this executable (FACET_CAPTURE_WRAPPER overrides); malloc'd. */
char *capture_wrapper_path(void);
/* facet-exec.so beside this executable, else in ../lib/facet (installed;
 * FACET_CAPTURE_EXEC_HOOK overrides, empty: none); malloc'd, NULL when
 * neither exists (compilers named by path are then not seen). */
char *capture_exec_hook_path(void);

#endif
