/* wrappers.h — allocation wrappers: functions that return fresh heap memory.
 *
 * `static void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }`
 * hands every caller its own object; treating each call of it as an
 * allocation site keeps those objects apart, as the analysis does for
 * malloc itself. A function qualifies when every value it returns comes
 * (through copies, phis and -O0 stack slots) from an allocator or another
 * wrapper, and it neither reads nor writes through that pointer nor lets it
 * escape other than by returning it (calls to library functions without
 * pointer effects, such as memset and free, are allowed). A function that
 * initialises fields of the new object is not a wrapper: its stores must be
 * seen on the one object they write.
 *
 * Through pointers. A value may also come from an indirect call
 * (`return pool->v->malloc(pool, n)`): whether that allocates depends on the
 * call's targets, known only while solving, so such a function is a wrapper
 * on condition. Its sources (the calls whose results it returns) say what
 * each of its call sites receives: per allocating target a fresh object,
 * per other target what the inner call returns (andersen.c). */
#ifndef FACET_PTA_WRAPPERS_H
#define FACET_PTA_WRAPPERS_H

#include <stdbool.h>

#include "ir/model.h"

typedef struct pta_wrappers {
	bool *is_wrapper;          /* by function id */
	unsigned **sources;        /* by function id: ids of the call sites whose results it returns */
	unsigned *n_sources;
	unsigned n_functions;
	unsigned n_wrappers;
	unsigned n_via_pointer;    /* wrappers with an indirect call among their sources */
} pta_wrappers;

pta_wrappers *pta_find_wrappers(const ir_program *p);
/* Which parameter of f value v is (directly, or at -O0 a load of a stack
 * slot that only ever holds that parameter); -1 when none. */
int pta_param_of(const ir_program *p, const ir_function *f, unsigned v);
void pta_wrappers_free(pta_wrappers *w);

#endif
