/* test_libmodel.c — the library model table: lookup, ordering, effects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "pta/libmodel.h"

static void rows_are_sorted(void **state)
{
	(void)state;
	unsigned n;
	const lib_model *rows = lib_model_exact_rows(&n);
	assert_true(n > 100);
	for (unsigned i = 1; i < n; i++)
		if (strcmp(rows[i - 1].name, rows[i].name) >= 0)
			fail_msg("library model rows out of order: '%s' before '%s'", rows[i - 1].name, rows[i].name);
	unsigned k;
	const char *const *names = lib_model_no_effect_names(&k);
	assert_true(k > 100);
	for (unsigned i = 1; i < k; i++)
		if (strcmp(names[i - 1], names[i]) >= 0)
			fail_msg("no-effect names out of order: '%s' before '%s'", names[i - 1], names[i]);
	for (unsigned i = 0; i < k; i++) {
		for (unsigned j = 0; j < n; j++)
			if (strcmp(names[i], rows[j].name) == 0)
				fail_msg("'%s' is both a model row and a no-effect name", names[i]);
		const lib_model *m = lib_model_find(names[i]);
		assert_non_null(m);
		assert_int_equal(m->n_effects, 0);
	}
}

static const lib_effect *effect(const lib_model *m, lib_effect_kind kind)
{
	for (unsigned i = 0; i < m->n_effects; i++)
		if (m->effects[i].kind == kind)
			return &m->effects[i];
	return NULL;
}

static void lookups(void **state)
{
	(void)state;
	const lib_model *m = lib_model_find("malloc");
	assert_non_null(m);
	assert_int_equal(effect(m, LIB_ALLOC)->a, LIB_RET);

	m = lib_model_find("memcpy");
	assert_int_equal(effect(m, LIB_COPY_MEM)->a, 0);
	assert_int_equal(effect(m, LIB_COPY_MEM)->b, 1);
	assert_int_equal(effect(m, LIB_ALIAS)->b, 0);

	/* bsearch returns some element of its base and calls the comparator with
	 * the key and an element: both "somewhere in". */
	m = lib_model_find("bsearch");
	assert_true(effect(m, LIB_ALIAS)->anywhere);
	assert_int_equal(effect(m, LIB_ALIAS)->b, 1);
	const lib_effect *cb = effect(m, LIB_CALLBACK);
	assert_int_equal(cb->a, 4);
	assert_int_equal(cb->cb_args[0], 0);
	assert_int_equal(cb->cb_args[1], 1);

	m = lib_model_find("pthread_create");
	assert_int_equal(effect(m, LIB_CALLBACK)->a, 2);
	assert_int_equal(effect(m, LIB_CALLBACK)->cb_args[0], 3);

	/* Intrinsic families by prefix; other intrinsics are known and inert. */
	assert_non_null(effect(lib_model_find("llvm.memcpy.p0.p0.i64"), LIB_COPY_MEM));
	assert_non_null(effect(lib_model_find("llvm.memmove.p0.p0.i64"), LIB_COPY_MEM));
	m = lib_model_find("llvm.lifetime.start.p0");
	assert_non_null(m);
	assert_int_equal(m->n_effects, 0);

	/* Inert libc functions are known; an application symbol is not. */
	assert_int_equal(lib_model_find("strlen")->n_effects, 0);
	assert_null(lib_model_find("ngx_http_block"));
	assert_null(lib_model_find(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_sorted),
		cmocka_unit_test(lookups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
