/* test_sbitmap.c — sbitmap against a plain byte-array reference.
 *
 * Values are drawn from a fixed pool (dense small numbers, a cluster at an
 * element boundary, numbers near 2^31 and near UINT_MAX), so the reference is
 * a byte per pool slot and ascending pool order is ascending value order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/sbitmap.h"

/* ---- value pool and reference sets ---- */

#define POOL 1400
static unsigned pool[POOL];
static int npool;

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

static void make_pool(void)
{
	npool = 0;
	for (unsigned v = 0; v < 1000; v++)
		pool[npool++] = v;
	for (unsigned v = 127 * 128 - 40; v < 127 * 128 + 200; v++)  /* straddles elements */
		pool[npool++] = v;
	for (unsigned v = 0; v < 80; v++)
		pool[npool++] = (1u << 31) - 40 + v * 3;
	for (unsigned v = 0; v < 80; v++)
		pool[npool++] = UINT_MAX - 79 + v;                      /* ends at UINT_MAX */
	qsort(pool, (size_t)npool, sizeof pool[0], cmp_unsigned);
	for (int i = 1; i < npool; i++)
		assert_true(pool[i - 1] < pool[i]);
}

typedef struct ref { unsigned char has[POOL]; } ref;

static uint64_t rng_state;
static uint64_t rnd(void)   /* splitmix64: seedable, same on every platform */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd() % n); }

/* Pool slots are drawn with a bias so sets are sometimes sparse, sometimes dense. */
static int pick(void)
{
	switch (rndn(4)) {
	case 0: return (int)rndn(64);
	case 1: return (int)rndn((unsigned)npool);
	default: return (int)(1000 + rndn((unsigned)npool - 1000));
	}
}

static void check_same(const sbitmap *s, const ref *r, unsigned seed, int step)
{
	size_t n = 0;
	int k = 0;
	unsigned v;
	SBM_FOREACH(s, v) {
		while (k < npool && !r->has[k])
			k++;
		if (k == npool || pool[k] != v)
			fail_msg("seed %u step %d: iteration gave %u, reference expects %s%u", seed, step, v,
			         k == npool ? "end " : "", k == npool ? 0 : pool[k]);
		k++;
		n++;
	}
	while (k < npool && !r->has[k])
		k++;
	if (k != npool)
		fail_msg("seed %u step %d: iteration ended before %u", seed, step, pool[k]);
	if (sbm_count(s) != n)
		fail_msg("seed %u step %d: count %zu, iteration %zu", seed, step, sbm_count(s), n);
	assert_int_equal(sbm_empty(s), n == 0);
	for (uint32_t i = 0; i < s->len; i++) {
		assert_true(s->elems[i].w[0] | s->elems[i].w[1]);        /* no zero elements */
		assert_int_equal(s->elems[i].pad_, 0);
		if (i)
			assert_true(s->elems[i - 1].idx < s->elems[i].idx);  /* strictly ascending */
	}
}

/* ---- random operations ---- */

#define NSETS 6

static void random_ops(unsigned seed, int steps)
{
	rng_state = seed;
	sbitmap s[NSETS];
	static ref r[NSETS];
	for (int i = 0; i < NSETS; i++) {
		sbm_init(&s[i]);
		memset(&r[i], 0, sizeof r[i]);
	}
	for (int step = 0; step < steps; step++) {
		int a = (int)rndn(NSETS), b = (int)rndn(NSETS), c = (int)rndn(NSETS);
		int p = pick();
		unsigned op = rndn(16);
		switch (op) {
		case 0: case 1: case 2: case 3: {             /* set, a few at a time */
			for (int t = (int)rndn(20); t >= 0; t--, p = pick()) {
				bool added = sbm_set(&s[a], pool[p]);
				if (added != !r[a].has[p])
					fail_msg("seed %u step %d: set(%u) returned %d", seed, step, pool[p], added);
				r[a].has[p] = 1;
			}
			break;
		}
		case 4: {                                     /* reset */
			bool had = sbm_reset(&s[a], pool[p]);
			if (had != r[a].has[p])
				fail_msg("seed %u step %d: reset(%u) returned %d", seed, step, pool[p], had);
			r[a].has[p] = 0;
			break;
		}
		case 5: {                                     /* test */
			for (int t = 0; t < 30; t++, p = pick())
				if (sbm_test(&s[a], pool[p]) != r[a].has[p])
					fail_msg("seed %u step %d: test(%u) wrong", seed, step, pool[p]);
			break;
		}
		case 6: case 7: {                             /* union */
			bool grew = false;
			for (int k = 0; k < npool; k++)
				if (r[b].has[k] && !r[a].has[k])
					grew = true, r[a].has[k] = 1;
			if (sbm_union(&s[a], &s[b]) != grew)
				fail_msg("seed %u step %d: union returned %d", seed, step, !grew);
			break;
		}
		case 8: case 9: {                             /* union_track: a ∪= b, c ∪= gain */
			if (c == b && a != b)   /* added may be dst (then it is a plain union), never src */
				c = a;
			else if (c == b)
				c = (b + 1) % NSETS;
			if (rndn(3) == 0 && c != a) {   /* often an empty receiver: the in-place path */
				sbm_clear(&s[c]);
				memset(&r[c], 0, sizeof r[c]);
			}
			size_t grew = 0;
			for (int k = 0; k < npool; k++)
				if (r[b].has[k] && !r[a].has[k])
					grew++, r[a].has[k] = 1, r[c].has[k] = 1;
			size_t got = sbm_union_track(&s[a], &s[b], &s[c]);
			if (got != grew)
				fail_msg("seed %u step %d: union_track returned %zu, expected %zu", seed, step, got, grew);
			check_same(&s[c], &r[c], seed, step);
			break;
		}
		case 10: {                                    /* diff c = a \ b (c may be a) */
			if (c == b && c != a)
				c = a;
			if (a == b) {
				memset(&r[c], 0, sizeof r[c]);
			} else {
				ref t;
				for (int k = 0; k < npool; k++)
					t.has[k] = r[a].has[k] && !r[b].has[k];
				r[c] = t;
			}
			sbm_diff(&s[c], &s[a], &s[b]);
			break;
		}
		case 11: {                                    /* intersect / subtract */
			bool shrank = false;
			int sub = (int)rndn(2);
			for (int k = 0; k < npool; k++)
				if (r[a].has[k] && (sub ? r[b].has[k] : !r[b].has[k]))
					shrank = true, r[a].has[k] = 0;
			bool got = sub ? sbm_subtract(&s[a], &s[b]) : sbm_intersect(&s[a], &s[b]);
			if (got != shrank)
				fail_msg("seed %u step %d: %s returned %d", seed, step, sub ? "subtract" : "intersect", got);
			break;
		}
		case 12: {                                    /* predicates and hash */
			bool inter = false, sub = true, eq = true;
			for (int k = 0; k < npool; k++) {
				inter |= r[a].has[k] && r[b].has[k];
				sub &= !r[a].has[k] || r[b].has[k];
				eq &= r[a].has[k] == r[b].has[k];
			}
			if (sbm_intersects(&s[a], &s[b]) != inter || sbm_subset(&s[a], &s[b]) != sub ||
			    sbm_equal(&s[a], &s[b]) != eq)
				fail_msg("seed %u step %d: predicates wrong (inter %d sub %d eq %d)", seed, step, inter, sub, eq);
			if (eq)
				assert_true(sbm_hash(&s[a]) == sbm_hash(&s[b]));
			break;
		}
		case 13: {                                    /* copy */
			sbm_copy(&s[a], &s[b]);
			r[a] = r[b];
			assert_true(sbm_equal(&s[a], &s[b]));
			break;
		}
		case 14: {                                    /* clear or free, rarely; otherwise swap */
			if (rndn(4) == 0) {
				if (rndn(2))
					sbm_clear(&s[a]);
				else
					sbm_free(&s[a]);
				memset(&r[a], 0, sizeof r[a]);
			} else {
				sbm_swap(&s[a], &s[b]);
				ref t = r[a];
				r[a] = r[b];
				r[b] = t;
			}
			break;
		}
		case 15: {                                    /* remove a run, to make sets thin again */
			for (int t = (int)rndn(40); t >= 0; t--, p = pick()) {
				sbm_reset(&s[a], pool[p]);
				r[a].has[p] = 0;
			}
			break;
		}
		}
		check_same(&s[a], &r[a], seed, step);
		if (step % 64 == 0)
			for (int i = 0; i < NSETS; i++)
				check_same(&s[i], &r[i], seed, step);
	}
	for (int i = 0; i < NSETS; i++) {
		check_same(&s[i], &r[i], seed, steps);
		sbm_free(&s[i]);
	}
}

static void random_against_reference(void **state)
{
	(void)state;
	make_pool();
	for (unsigned seed = 1; seed <= 12; seed++)
		random_ops(seed, 4000);
}

/* ---- edge cases ---- */

static void empty_sets(void **state)
{
	(void)state;
	sbitmap a = {0}, b, c = {0};
	sbm_init(&b);
	assert_true(sbm_empty(&a));
	assert_int_equal(sbm_count(&a), 0);
	assert_false(sbm_test(&a, 0));
	assert_false(sbm_reset(&a, 5));
	assert_false(sbm_union(&a, &b));
	assert_false(sbm_union_track(&a, &b, &c));
	assert_true(sbm_equal(&a, &b));
	assert_true(sbm_subset(&a, &b));
	assert_false(sbm_intersects(&a, &b));
	assert_false(sbm_intersect(&a, &b));
	assert_true(sbm_hash(&a) == sbm_hash(&b));
	sbm_diff(&c, &a, &b);
	assert_true(sbm_empty(&c));
	unsigned v, n = 0;
	SBM_FOREACH(&a, v) n++;
	assert_int_equal(n, 0);
	sbm_set(&b, 3);
	assert_true(sbm_subset(&a, &b));
	assert_false(sbm_subset(&b, &a));
	assert_true(sbm_union(&a, &b));    /* into an empty set: a copy */
	assert_true(sbm_equal(&a, &b));
	sbm_free(&a);
	sbm_free(&b);
	sbm_free(&c);
}

static void extreme_indices(void **state)
{
	(void)state;
	sbitmap s = {0};
	unsigned want[] = { 0, 1, 63, 64, 127, 128, 255, 256, 1u << 31, UINT_MAX - 128, UINT_MAX - 1, UINT_MAX };
	size_t n = sizeof want / sizeof want[0];
	for (size_t i = n; i-- > 0;)                    /* descending: every insert at the front */
		assert_true(sbm_set(&s, want[i]));
	assert_false(sbm_set(&s, UINT_MAX));
	assert_int_equal(sbm_count(&s), n);
	size_t k = 0;
	unsigned v;
	SBM_FOREACH(&s, v) {
		assert_true(k < n);
		assert_int_equal(v, want[k]);
		k++;
	}
	assert_int_equal(k, n);
	assert_true(sbm_test(&s, 0));
	assert_true(sbm_test(&s, UINT_MAX));
	assert_false(sbm_test(&s, UINT_MAX - 2));
	assert_true(sbm_reset(&s, UINT_MAX));
	assert_true(sbm_reset(&s, UINT_MAX - 1));
	assert_true(sbm_reset(&s, UINT_MAX - 128));
	assert_int_equal(sbm_count(&s), n - 3);
	assert_false(sbm_test(&s, UINT_MAX));
	sbm_free(&s);
}

static void union_track_reports_gain(void **state)
{
	(void)state;
	sbitmap dst = {0}, src = {0}, gain = {0};
	for (unsigned i = 0; i < 1000; i += 3)
		sbm_set(&dst, i);
	for (unsigned i = 0; i < 3000; i += 2)          /* larger than the stack buffer */
		sbm_set(&src, i);
	size_t expect = 0;
	for (unsigned i = 0; i < 3000; i += 2)
		expect += i >= 1000 || i % 3 != 0;
	sbitmap copy = {0}, empty_gain = {0};
	sbm_copy(&copy, &dst);
	assert_int_equal(sbm_union_track(&copy, &src, &empty_gain), expect);  /* gain written in place */
	assert_int_equal(sbm_count(&empty_gain), expect);
	sbm_free(&copy);
	sbm_free(&empty_gain);
	sbm_set(&gain, 5000);
	assert_int_equal(sbm_union_track(&dst, &src, &gain), expect);
	unsigned v;
	size_t n = 0;
	SBM_FOREACH(&gain, v) {
		if (v == 5000)
			continue;
		assert_true(v % 2 == 0 && (v >= 1000 || v % 3 != 0));
		n++;
	}
	assert_int_equal(n, expect);
	assert_false(sbm_union_track(&dst, &src, &gain));  /* nothing new the second time */
	assert_true(sbm_subset(&src, &dst));
	sbm_free(&dst);
	sbm_free(&src);
	sbm_free(&gain);
}

/* The hash a union's gain updates is the hash of the whole set: elements
 * gained, elements that grew, at the front, the back and between. */
static void hash_update_follows_union(void **state)
{
	(void)state;
	uint64_t x = 12345;
	for (int round = 0; round < 200; round++) {
		sbitmap dst = {0}, src = {0}, gain = {0};
		int n = round % 7 == 0 ? 0 : 1 + round % 50;
		for (int i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			sbm_set(&dst, (unsigned)(x >> 33) % 20000);
		}
		for (int i = 0; i < 1 + round % 30; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			sbm_set(&src, (unsigned)(x >> 33) % (round % 2 ? 20000 : 300));
		}
		uint64_t h = sbm_hash(&dst);
		uint32_t len = dst.len;
		sbm_union_track(&dst, &src, &gain);
		assert_true(sbm_hash_update(h, len, &dst, &gain) == sbm_hash(&dst));
		sbm_free(&dst);
		sbm_free(&src);
		sbm_free(&gain);
	}
}

static void hash_tells_sets_apart(void **state)
{
	(void)state;
	/* Not a guarantee, but single-bit differences must not collide here. */
	sbitmap a = {0}, b = {0};
	for (unsigned i = 0; i < 200; i++)
		sbm_set(&a, i * 7);
	sbm_copy(&b, &a);
	uint64_t h = sbm_hash(&a);
	assert_true(h == sbm_hash(&b));
	for (unsigned i = 0; i < 1400; i++) {
		bool had = sbm_test(&b, i);
		if (had)
			sbm_reset(&b, i);
		else
			sbm_set(&b, i);
		assert_true(sbm_hash(&b) != h);
		if (had)
			sbm_set(&b, i);
		else
			sbm_reset(&b, i);
	}
	assert_true(sbm_hash(&b) == h);
	sbm_free(&a);
	sbm_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_sets),
		cmocka_unit_test(extreme_indices),
		cmocka_unit_test(union_track_reports_gain),
		cmocka_unit_test(hash_tells_sets_apart),
		cmocka_unit_test(hash_update_follows_union),
		cmocka_unit_test(random_against_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
