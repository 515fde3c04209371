/* observe.h — run-time ground truth for the R0 suite (tests/r0/): which
 * function each indirect call of a test program actually reaches.
 *
 * Write every indirect call as ICALL(call), on ONE source line: the site is
 * recorded as __FILE__:__LINE__, and the checker matches that against the
 * line of the call's debug location.  Start every function that can be the
 * target of an indirect call with OBSERVE_TARGET(): it takes the site the
 * calling thread observed last and appends "FILE:LINE -> FUNC" to the file
 * named by $FACET_OBSERVED (nothing when it is unset).  Each edge is written
 * once, when first seen, so the record is complete however the program ends
 * (atexit handlers, signal handlers and threads included).
 *
 * The site is consumed by the first target that sees it, so a target that
 * libc calls (a qsort comparator, a signal handler, a thread's start
 * routine) records nothing.  Hence: never call an OBSERVE_TARGET function
 * inside the argument list of an ICALL, and never make a function without
 * OBSERVE_TARGET() the target of an ICALL.
 *
 * The state is shared by all translation units of a program (weak
 * definitions), so a call in one file reaching a callback defined in
 * another is recorded.  The last site is per thread; the edge table is
 * guarded by a mutex.  None of this involves a function pointer, so it adds
 * nothing to any points-to set the tests look at.
 */
#ifndef OBSERVE_H
#define OBSERVE_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBSERVE_MAX 256

struct observe_edge {
	const char *file;
	int line;
	const char *func;
};

__attribute__((weak)) _Thread_local const char *observe_last_file;
__attribute__((weak)) _Thread_local int observe_last_line;
__attribute__((weak)) pthread_mutex_t observe_mutex = PTHREAD_MUTEX_INITIALIZER;
__attribute__((weak)) struct observe_edge observe_edges[OBSERVE_MAX];
__attribute__((weak)) int observe_nedges;

static inline void observe_site(const char *file, int line)
{
	observe_last_file = file;
	observe_last_line = line;
}

static inline void observe_target(const char *func)
{
	const char *file = observe_last_file;
	int line = observe_last_line, seen = 0;

	if (!file)
		return;
	observe_last_file = NULL;
	pthread_mutex_lock(&observe_mutex);
	for (int i = 0; i < observe_nedges && !seen; i++)
		seen = observe_edges[i].line == line &&
		       strcmp(observe_edges[i].file, file) == 0 &&
		       strcmp(observe_edges[i].func, func) == 0;
	if (!seen) {
		const char *path = getenv("FACET_OBSERVED");
		FILE *out = path ? fopen(path, "a") : NULL;
		if (observe_nedges < OBSERVE_MAX) /* past it: write repeats */
			observe_edges[observe_nedges++] = (struct observe_edge){file, line, func};
		if (out) {
			fprintf(out, "%s:%d -> %s\n", file, line, func);
			fclose(out);
		}
	}
	pthread_mutex_unlock(&observe_mutex);
}

#define OBSERVE_TARGET() observe_target(__func__)
#define ICALL(call) (observe_site(__FILE__, __LINE__), call)

#endif
