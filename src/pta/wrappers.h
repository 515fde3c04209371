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
 * seen on the one object they write. */
#ifndef FACET_PTA_WRAPPERS_H
#define FACET_PTA_WRAPPERS_H

#include <stdbool.h>

#include "ir/model.h"

/* A malloc'd array of flags by function id; the caller frees it. */
bool *pta_find_wrappers(const ir_program *p);

#endif
