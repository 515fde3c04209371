/* set.h — dense bitsets over a small fixed universe (classes, bodies, tokens).
 *
 * The lab's sets are subsets of the classes, the bodies or the allocation
 * sites of one program, so a row of 64-bit words is both the smallest and the
 * fastest representation. A set is a `uint64_t *` of oo_set_words(n) words,
 * usually carved out of an arena; every mutator returns whether it added
 * something, which is what the fixed-point loops need ("changed ← true").
 * (util/sbitmap.h is the sparse bitmap of the points-to sets; the lab's
 * sets are small and dense, so a flat word array serves them better.) */
#ifndef FACET_OO_SET_H
#define FACET_OO_SET_H

#include <stdint.h>

static inline int oo_set_words(int n) { return (n + 63) / 64; }

static inline int oo_set_has(const uint64_t *s, int i)
{
	return (int)(s[i >> 6] >> (i & 63) & 1);
}

/* Adds i; 1 if it was absent. */
static inline int oo_set_add(uint64_t *s, int i)
{
	uint64_t bit = (uint64_t)1 << (i & 63);
	if (s[i >> 6] & bit)
		return 0;
	s[i >> 6] |= bit;
	return 1;
}

/* dst ∪= src ∩ mask (mask may be NULL); 1 if dst grew. */
static inline int oo_set_union(uint64_t *dst, const uint64_t *src, const uint64_t *mask, int words)
{
	uint64_t grew = 0;
	for (int w = 0; w < words; w++) {
		uint64_t add = src[w] & (mask ? mask[w] : ~(uint64_t)0) & ~dst[w];
		dst[w] |= add;
		grew |= add;
	}
	return grew != 0;
}

/* dst ∪= src ∩ [lo, hi); 1 if dst grew. (Filters by sub(D), a class range.) */
static inline int oo_set_union_range(uint64_t *dst, const uint64_t *src, int lo, int hi)
{
	if (lo >= hi)
		return 0;
	uint64_t grew = 0;
	int wlo = lo >> 6, whi = (hi - 1) >> 6;
	for (int w = wlo; w <= whi; w++) {
		uint64_t mask = ~(uint64_t)0;
		if (w == wlo)
			mask &= ~(uint64_t)0 << (lo & 63);
		if (w == whi && (hi & 63))
			mask &= ~(uint64_t)0 >> (64 - (hi & 63));
		uint64_t add = src[w] & mask & ~dst[w];
		dst[w] |= add;
		grew |= add;
	}
	return grew != 0;
}

static inline int oo_set_count(const uint64_t *s, int words)
{
	int n = 0;
	for (int w = 0; w < words; w++)
		n += __builtin_popcountll(s[w]);
	return n;
}

/* a ⊆ b */
static inline int oo_set_subset(const uint64_t *a, const uint64_t *b, int words)
{
	for (int w = 0; w < words; w++)
		if (a[w] & ~b[w])
			return 0;
	return 1;
}

/* Next member ≥ i, or -1: for (int i = oo_set_next(s, 0, n); i >= 0; i = oo_set_next(s, i + 1, n)) */
static inline int oo_set_next(const uint64_t *s, int i, int n)
{
	if (i >= n)
		return -1;
	int w = i >> 6;
	uint64_t bits = s[w] & (~(uint64_t)0 << (i & 63));
	int words = oo_set_words(n);
	while (!bits) {
		if (++w >= words)
			return -1;
		bits = s[w];
	}
	int r = w * 64 + __builtin_ctzll(bits);
	return r < n ? r : -1;
}

#endif
