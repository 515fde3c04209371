/* vec.h — growable arrays as macros over a {items, len, cap} struct.
 *
 *   VEC(int) ids = {0};  VEC_PUSH(&ids, 7);  ids.items[0];  VEC_FREE(&ids);
 *
 * Macros rather than void* so element access stays typed. */
#ifndef FACET_UTIL_VEC_H
#define FACET_UTIL_VEC_H

#include "util/xalloc.h"

#define VEC(T) struct { T *items; size_t len, cap; }

#define VEC_RESERVE(v, n) do { \
	if ((n) > (v)->cap) { \
		size_t vec_cap_ = (v)->cap ? (v)->cap : 8; \
		while (vec_cap_ < (n)) vec_cap_ *= 2; \
		(v)->items = xrealloc((v)->items, vec_cap_ * sizeof *(v)->items); \
		(v)->cap = vec_cap_; \
	} \
} while (0)

#define VEC_PUSH(v, x) do { \
	VEC_RESERVE((v), (v)->len + 1); \
	(v)->items[(v)->len++] = (x); \
} while (0)

#define VEC_POP(v)   ((v)->items[--(v)->len])
#define VEC_LAST(v)  ((v)->items[(v)->len - 1])
#define VEC_CLEAR(v) ((v)->len = 0)
#define VEC_FREE(v)  do { free((v)->items); (v)->items = NULL; (v)->len = (v)->cap = 0; } while (0)

#endif
