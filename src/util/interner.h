/* interner.h — interning lists of u32 words: equal lists get one id.
 *
 * Distinct lists get dense ids 0, 1, ... in the order first seen, and list
 * id's words stay readable by id. The catalog interns each site's
 * (target, graphs) list with it: a program's thousands of sites share a
 * few dozen distinct lists (catalog/edges.c). */
#ifndef FACET_UTIL_INTERNER_H
#define FACET_UTIL_INTERNER_H

#include <stddef.h>
#include <stdint.h>

#include "util/vec.h"

typedef struct u32_interner {
	VEC(uint32_t) words;       /* every list's words, back to back */
	VEC(uint32_t) offsets;     /* list id's words: words[offsets[id] .. offsets[id+1]) */
	uint32_t *slots;           /* open addressing: id + 1, 0 empty */
	size_t cap;                /* power of two, at least twice the ids */
} u32_interner;

void u32_interner_init(u32_interner *in);
void u32_interner_free(u32_interner *in);
/* The id of w[0..n) (an empty list included), a new one if never seen. */
uint32_t u32_intern(u32_interner *in, const uint32_t *w, size_t n);
/* How many distinct lists, and the words of list id (n of them). */
size_t u32_interner_count(const u32_interner *in);
const uint32_t *u32_interner_list(const u32_interner *in, uint32_t id, size_t *n);

#endif
