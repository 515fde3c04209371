/* test_util.c — arena, vec, strmap, error, arith. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/arith.h"
#include "util/error.h"
#include "util/sort.h"
#include "util/strmap.h"
#include "util/vec.h"

static void arena_aligns_and_zeroes(void **state)
{
	(void)state;
	arena a;
	arena_init(&a);
	for (int i = 1; i < 5000; i++) {
		unsigned char *p = arena_alloc(&a, (size_t)i % 97 + 1);
		assert_int_equal((uintptr_t)p % 16, 0);
		for (int k = 0; k < i % 97 + 1; k++)
			assert_int_equal(p[k], 0);
		memset(p, 0xab, (size_t)i % 97 + 1);
	}
	void *big = arena_alloc(&a, 40u << 20);   /* larger than any block */
	assert_non_null(big);
	char *s = arena_printf(&a, "%s:%d", "a.c", 12);
	assert_string_equal(s, "a.c:12");
	assert_null(arena_strdup(&a, NULL));
	assert_string_equal(arena_strndup(&a, "hello", 3), "hel");
	arena_free(&a);
	assert_null(a.head);
}

static void vec_grows(void **state)
{
	(void)state;
	VEC(int) v = {0};
	for (int i = 0; i < 1000; i++)
		VEC_PUSH(&v, i * 3);
	assert_int_equal(v.len, 1000);
	assert_int_equal(v.items[999], 2997);
	assert_int_equal(VEC_POP(&v), 2997);
	assert_int_equal(VEC_LAST(&v), 2994);
	VEC_FREE(&v);
	assert_null(v.items);
}

static void strmap_put_get_replace(void **state)
{
	(void)state;
	strmap m;
	strmap_init(&m);
	assert_null(strmap_get(&m, "x"));
	char keys[2000][16];
	for (int i = 0; i < 2000; i++) {
		snprintf(keys[i], sizeof keys[i], "k%d", i);
		strmap_put(&m, keys[i], (void *)(intptr_t)(i + 1));
	}
	assert_int_equal(m.len, 2000);
	for (int i = 0; i < 2000; i++)
		assert_int_equal((intptr_t)strmap_get(&m, keys[i]), i + 1);
	strmap_put(&m, keys[5], (void *)(intptr_t)77);
	assert_int_equal(m.len, 2000);
	assert_int_equal((intptr_t)strmap_get(&m, "k5"), 77);
	assert_false(strmap_has(&m, "nope"));
	strmap_free(&m);
}

static void error_keeps_first_message(void **state)
{
	(void)state;
	facet_error e = {0};
	error_set(&e, "%s: bad", "a.bc");
	error_set(&e, "second");
	assert_true(e.set);
	assert_string_equal(e.msg, "a.bc: bad");
	error_clear(&e);
	assert_false(e.set);
}

static void gcd_folds_strides(void **state)
{
	(void)state;
	assert_int_equal(u64_gcd(0, 24), 24);   /* a fold may start from 0 */
	assert_int_equal(u64_gcd(24, 0), 24);
	assert_int_equal(u64_gcd(24, 16), 8);
	assert_int_equal(u64_gcd(16, 24), 8);
	assert_int_equal(u64_gcd(7, 13), 1);
	assert_int_equal(u64_gcd(u64_gcd(48, 32), 40), 8);
	assert_true(u64_gcd(UINT64_MAX, UINT64_MAX - 1) == 1);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* u32_sort against qsort: small (insertion) and large (radix) arrays, keys
 * that share high bytes (location ids: one bit set in all), duplicates,
 * sorted and reversed input. */
static void u32_sort_matches_qsort(void **state)
{
	(void)state;
	enum { MAX = 5000 };
	static uint32_t a[MAX], b[MAX], tmp[MAX];
	uint64_t x = 88172645463325252ULL;
	const size_t sizes[] = {0, 1, 2, 47, 48, 49, 300, MAX};
	for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
		for (int kind = 0; kind < 5; kind++) {
			size_t n = sizes[si];
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				uint32_t r = (uint32_t)x;
				a[i] = kind == 0 ? r : kind == 1 ? (0x80000000u | (r & 0xfffff)) : kind == 2 ? r % 7
				     : kind == 3 ? (uint32_t)i * 3 : (uint32_t)(n - i);
			}
			memcpy(b, a, n * sizeof *a);
			qsort(b, n, sizeof *b, cmp_u32);
			u32_sort(a, n, tmp);
			for (size_t i = 0; i < n; i++)
				assert_int_equal(a[i], b[i]);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arena_aligns_and_zeroes),
		cmocka_unit_test(vec_grows),
		cmocka_unit_test(strmap_put_get_replace),
		cmocka_unit_test(error_keeps_first_message),
		cmocka_unit_test(gcd_folds_strides),
		cmocka_unit_test(u32_sort_matches_qsort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
