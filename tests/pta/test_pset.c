/* test_pset.c — hash-consed sets against plain sbitmaps.
 *
 * A set of slots (as the solver's nodes hold them) is driven by random
 * joins, differences, intersections and drops; after every step each slot's
 * set must equal its sbitmap reference, equal sets must have equal ids, and
 * the store must hold exactly the distinct sets the slots reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pta/pset.h"

static uint32_t rng = 12345;
static unsigned next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* Values in a few clusters, so that random sets meet and equal sets recur. */
static unsigned value(void)
{
	static const unsigned base[] = { 0, 120, 5000, 1u << 31 };
	return base[next_rand() % 4] + next_rand() % 24;
}

static uint32_t from_bits(pset_store *ps, const sbitmap *b)
{
	sbitmap c = {0};
	sbm_copy(&c, b);
	return pset_intern(ps, &c);
}

static void empty_and_interning(void **state)
{
	(void)state;
	pset_store *ps = pset_new();
	sbitmap a = {0}, b = {0};
	assert_int_equal(pset_intern(ps, &a), PSET_EMPTY);
	sbm_set(&a, 3);
	sbm_set(&a, 900);
	sbm_set(&b, 900);
	sbm_set(&b, 3);
	uint32_t x = from_bits(ps, &a), y = from_bits(ps, &b);
	assert_int_not_equal(x, PSET_EMPTY);
	assert_int_equal(x, y);                      /* equal sets, one id */
	assert_int_equal(pset_count(ps, x), 2);
	assert_true(sbm_equal(pset_bits(ps, x), &a));
	pset_stats st;
	pset_get_stats(ps, &st);
	assert_int_equal(st.live, 1);
	pset_unref(ps, x);
	pset_get_stats(ps, &st);
	assert_int_equal(st.live, 1);                 /* y still holds it */
	pset_unref(ps, y);
	pset_get_stats(ps, &st);
	assert_int_equal(st.live, 0);
	sbm_free(&a);
	sbm_free(&b);
	pset_free(ps);
}

/* A shared set is never changed by a join into another slot holding it. */
static void join_copies_shared_sets(void **state)
{
	(void)state;
	pset_store *ps = pset_new();
	uint32_t s1 = PSET_EMPTY, s2 = PSET_EMPTY, one = PSET_EMPTY;
	assert_int_equal(pset_add(ps, &s1, 7), 1);
	assert_int_equal(pset_add(ps, &s1, 7), 0);
	assert_int_equal(pset_join(ps, &s2, s1, NULL), 1);
	assert_int_equal(s1, s2);                    /* s2 shares s1's set */
	assert_int_equal(pset_add(ps, &s2, 8), 1);
	assert_int_not_equal(s1, s2);
	assert_int_equal(pset_count(ps, s1), 1);
	assert_int_equal(pset_count(ps, s2), 2);
	assert_int_equal(pset_add(ps, &one, 8), 1);
	assert_int_equal(pset_join(ps, &s1, one, NULL), 1);
	assert_int_equal(s1, s2);                    /* in place, then found equal to s2 */
	uint32_t d = pset_diff(ps, s2, one);
	assert_int_equal(pset_count(ps, d), 1);
	assert_true(sbm_test(pset_bits(ps, d), 7));
	uint32_t d2 = pset_diff(ps, s2, one);         /* memoised: the same id */
	assert_int_equal(d, d2);
	uint32_t i = pset_intersect(ps, s2, one);
	assert_int_equal(i, one);
	for (uint32_t *p = (uint32_t[]){ s1, s2, one, d, d2, i }, k = 0; k < 6; k++)
		pset_unref(ps, p[k]);
	pset_stats st;
	pset_get_stats(ps, &st);
	assert_int_equal(st.live, 0);
	pset_free(ps);
}

#define SLOTS 24

static void check_slots(pset_store *ps, const uint32_t *slot, const sbitmap *ref)
{
	size_t distinct = 0;
	for (int i = 0; i < SLOTS; i++) {
		assert_true(sbm_equal(pset_bits(ps, slot[i]), &ref[i]));
		assert_int_equal(pset_count(ps, slot[i]), sbm_count(&ref[i]));
		int first = slot[i] != PSET_EMPTY;
		for (int j = 0; j < SLOTS; j++) {
			assert_int_equal(slot[i] == slot[j], sbm_equal(&ref[i], &ref[j]));
			if (j < i && slot[j] == slot[i])
				first = 0;
		}
		distinct += (size_t)first;
	}
	pset_stats st;
	pset_get_stats(ps, &st);
	assert_int_equal(st.live, distinct);
}

static void random_against_reference(void **state)
{
	(void)state;
	pset_store *ps = pset_new();
	uint32_t slot[SLOTS] = {0};
	sbitmap ref[SLOTS] = {{0}};
	for (int step = 0; step < 40000; step++) {
		int a = (int)(next_rand() % SLOTS), b = (int)(next_rand() % SLOTS);
		switch (next_rand() % 8) {
		case 0: case 1: {                      /* add one value */
			unsigned v = value();
			size_t n = pset_add(ps, &slot[a], v);
			assert_int_equal(n, sbm_set(&ref[a], v) ? 1 : 0);
			break;
		}
		case 2: case 3: {                      /* a ∪= b */
			size_t before = sbm_count(&ref[a]);
			size_t n = pset_join(ps, &slot[a], slot[b], NULL);
			sbm_union(&ref[a], &ref[b]);
			assert_int_equal(n, sbm_count(&ref[a]) - before);
			break;
		}
		case 4: {                              /* a ∪= b with b \ a as the hint */
			sbitmap hint = {0};
			sbm_diff(&hint, &ref[b], &ref[a]);
			size_t before = sbm_count(&ref[a]);
			size_t n = pset_join(ps, &slot[a], slot[b], &hint);
			sbm_union(&ref[a], &ref[b]);
			assert_int_equal(n, sbm_count(&ref[a]) - before);
			sbm_free(&hint);
			break;
		}
		case 5: {                              /* a = b \ a, a = b ∩ a */
			int diff = next_rand() % 2;
			uint32_t r = diff ? pset_diff(ps, slot[b], slot[a]) : pset_intersect(ps, slot[b], slot[a]);
			sbitmap c = {0};
			if (diff)
				sbm_diff(&c, &ref[b], &ref[a]);
			else {
				sbm_copy(&c, &ref[b]);
				sbm_intersect(&c, &ref[a]);
			}
			assert_true(sbm_equal(pset_bits(ps, r), &c));
			pset_unref(ps, slot[a]);
			slot[a] = r;
			sbm_free(&ref[a]);
			ref[a] = c;
			break;
		}
		case 6: {                              /* a ∪= bits */
			sbitmap bits = {0};
			for (int k = 0; k < 5; k++)
				sbm_set(&bits, value());
			pset_join_bits(ps, &slot[a], &bits);
			sbm_union(&ref[a], &bits);
			sbm_free(&bits);
			break;
		}
		default:                               /* drop a, or share b */
			pset_unref(ps, slot[a]);
			slot[a] = PSET_EMPTY;
			sbm_clear(&ref[a]);
			if (next_rand() % 2) {
				pset_ref(ps, slot[b]);
				slot[a] = slot[b];
				sbm_copy(&ref[a], &ref[b]);
			}
		}
		check_slots(ps, slot, ref);
	}
	for (int i = 0; i < SLOTS; i++) {
		pset_unref(ps, slot[i]);
		sbm_free(&ref[i]);
	}
	pset_stats st;
	pset_get_stats(ps, &st);
	assert_int_equal(st.live, 0);
	assert_true(st.hits > 0);
	assert_true(st.shared > 0);
	pset_free(ps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_and_interning),
		cmocka_unit_test(join_copies_shared_sets),
		cmocka_unit_test(random_against_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
