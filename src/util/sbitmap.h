/* sbitmap.h — sparse bitmap set of unsigned ints (like GCC's/LLVM's SparseBitVector).
 *
 * Points-to sets are sparse subsets of a large universe (every location of a
 * program) and the solver spends its time uniting them, so a set is a sorted
 * array of elements, each holding a base index and 128 bits. An array rather
 * than LLVM's linked list: one allocation per set instead of one per element,
 * 24 bytes per element instead of 40, and merges that are sequential scans
 * (with galloping search when one side is much smaller). Inserting in the
 * middle moves the tail, which costs less than chasing list pointers at the
 * sizes points-to sets have.
 *
 * A zeroed struct is an empty set (`sbitmap s = {0};` equals sbm_init).
 * Invariant: elements are strictly ascending by idx and none is all-zero. */
#ifndef FACET_UTIL_SBITMAP_H
#define FACET_UTIL_SBITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SBM_BITS 128u   /* bits per element; idx = value / SBM_BITS */

typedef struct sbm_elem {
	uint32_t idx;       /* value / 128 */
	uint32_t pad_;      /* always 0, so elements compare and hash as bytes */
	uint64_t w[2];      /* bit b of the element is value idx*128 + b */
} sbm_elem;

typedef struct sbitmap {
	sbm_elem *elems;
	uint32_t len, cap;
} sbitmap;

void     sbm_init(sbitmap *s);
void     sbm_free(sbitmap *s);                                   /* back to empty, memory released */
void     sbm_clear(sbitmap *s);                                  /* empty, memory kept */
bool     sbm_set(sbitmap *s, unsigned i);                        /* true if i was absent */
bool     sbm_test(const sbitmap *s, unsigned i);
bool     sbm_reset(sbitmap *s, unsigned i);                      /* true if i was present */
bool     sbm_union(sbitmap *dst, const sbitmap *src);            /* dst ∪= src; true if dst grew */
/* dst ∪= src, and added ∪= (what dst gained); returns how many elements dst
 * gained (0: unchanged). The step of difference propagation: added is the
 * receiver's pending delta. added may be dst; it must not be src. */
size_t   sbm_union_track(sbitmap *dst, const sbitmap *src, sbitmap *added);
void     sbm_diff(sbitmap *c, const sbitmap *a, const sbitmap *b); /* c = a \ b; c may alias a, not b */
bool     sbm_intersect(sbitmap *dst, const sbitmap *src);        /* dst ∩= src; true if dst shrank */
bool     sbm_subtract(sbitmap *dst, const sbitmap *src);         /* dst \= src; true if dst shrank */
bool     sbm_intersects(const sbitmap *a, const sbitmap *b);     /* a ∩ b non-empty */
bool     sbm_subset(const sbitmap *a, const sbitmap *b);         /* a ⊆ b */
bool     sbm_equal(const sbitmap *a, const sbitmap *b);
size_t   sbm_count(const sbitmap *s);
void     sbm_copy(sbitmap *dst, const sbitmap *src);             /* dst = src */
void     sbm_swap(sbitmap *a, sbitmap *b);
uint64_t sbm_hash(const sbitmap *s);                             /* equal sets hash equal */
/* sbm_hash(s), from h = the hash s had when it held old_len elements and
 * none of added's bits (added ⊆ s: what a union gained, as
 * sbm_union_track gives it). Costs added's elements, not s's. */
uint64_t sbm_hash_update(uint64_t h, uint32_t old_len, const sbitmap *s, const sbitmap *added);
size_t   sbm_bytes(const sbitmap *s);                            /* heap bytes held, for stats */

static inline bool sbm_empty(const sbitmap *s) { return s->len == 0; }

/* Ascending iteration. The set must not change while an iterator is live
 * (iterate over a copy if the loop body may add to it):
 *
 *   unsigned v;
 *   SBM_FOREACH(&set, v) use(v);
 */
typedef struct sbm_iter {
	const sbm_elem *e, *end;
	unsigned word;      /* 0 or 1: the word of *e being drained */
	uint64_t bits;      /* bits of that word not yet returned */
} sbm_iter;

static inline sbm_iter sbm_iter_begin(const sbitmap *s)
{
	sbm_iter it = { s->elems, s->elems + s->len, 0, s->len ? s->elems[0].w[0] : 0 };
	return it;
}

/* Stores the next element in *out; false when the set is exhausted. */
static inline bool sbm_iter_next(sbm_iter *it, unsigned *out)
{
	while (!it->bits) {
		if (it->e == it->end)
			return false;
		if (it->word == 0) {
			it->word = 1;
			it->bits = it->e->w[1];
		} else if (++it->e != it->end) {
			it->word = 0;
			it->bits = it->e->w[0];
		}
	}
	unsigned b = (unsigned)__builtin_ctzll(it->bits);
	it->bits &= it->bits - 1;
	*out = it->e->idx * SBM_BITS + it->word * 64u + b;
	return true;
}

#define SBM_FOREACH(set, v) \
	for (sbm_iter sbm_it_##v = sbm_iter_begin(set); sbm_iter_next(&sbm_it_##v, &(v));)

#endif
