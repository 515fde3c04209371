/* test_query.c — the contract of query/query.h on the fixture's catalog
 * (tests/lib/catalog_fixture.h): every answer carries answer_version
 * QUERY_ANSWER_VERSION and the graph it used; callees lists main's two
 * indirect sites with the targets the program stores (table: inc and dec;
 * other: neg); reach answers from the graph (main reaches neg, inc reaches
 * nothing); a list takes limit/offset and says its page; an unknown verb, a
 * missing argument and an unknown function are errors, not short answers;
 * the verb registry finds every verb by both its names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_fixture.h"
#include "query/query.h"

static char *dir, path[512];
static query_session *q;

static int setup(void **state)
{
	(void)state;
	catalog_fixture_make(&dir, path, sizeof path, NULL);
	facet_error err = {0};
	q = query_open(path, &err);
	if (!q)
		fail_msg("query_open: %s", err.msg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	query_close(q);
	catalog_fixture_remove(dir);
	return 0;
}

/* query_call with args given as JSON text; NULL + *err on failure. */
static json_t *call(const char *verb, const char *args, facet_error *err)
{
	json_t *a = json_loads(args, 0, NULL);
	assert_non_null(a);
	json_t *r = query_call(q, verb, a, err);
	json_decref(a);
	return r;
}

static json_t *ok(const char *verb, const char *args)
{
	facet_error err = {0};
	json_t *r = call(verb, args, &err);
	if (!r)
		fail_msg("%s %s: %s", verb, args, err.msg);
	assert_int_equal(json_integer_value(json_object_get(r, "answer_version")), QUERY_ANSWER_VERSION);
	return r;
}

static bool has_string(json_t *array, const char *s)
{
	size_t i;
	json_t *v;
	json_array_foreach(array, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return true;
	return false;
}

static void callees_from_the_program(void **state)
{
	(void)state;
	json_t *r = ok("callees", "{\"name\": \"main\", \"graph\": \"r0\"}");
	assert_string_equal(json_string_value(json_object_get(r, "graph")), "r0");
	json_t *sites = json_object_get(r, "sites");
	assert_int_equal(json_array_size(sites), 2);
	json_t *table = json_array_get(sites, 0), *other = json_array_get(sites, 1);
	assert_string_equal(json_string_value(json_object_get(table, "kind")), "indirect");
	json_t *t = json_object_get(table, "targets");
	assert_int_equal(json_array_size(t), 2);
	assert_true(has_string(t, "inc") && has_string(t, "dec") && !has_string(t, "neg"));
	t = json_object_get(other, "targets");
	assert_int_equal(json_array_size(t), 1);
	assert_true(has_string(t, "neg"));
	json_decref(r);
}

static void reach_from_the_graph(void **state)
{
	(void)state;
	json_t *r = ok("reach", "{\"from\": \"main\", \"to\": \"neg\", \"graph\": \"r0\"}");
	assert_true(json_is_true(json_object_get(r, "reachable")));
	json_decref(r);
	r = ok("reach", "{\"from\": \"inc\", \"to\": \"main\"}");
	assert_true(json_is_false(json_object_get(r, "reachable")));
	assert_string_equal(json_string_value(json_object_get(r, "graph")), "rpm");   /* the default */
	json_decref(r);
}

static void lists_are_paged(void **state)
{
	(void)state;
	json_t *r = ok("callees", "{\"name\": \"main\", \"limit\": 1, \"offset\": 1}");
	json_t *sites = json_object_get(r, "sites"), *page = json_object_get(r, "page");
	assert_int_equal(json_array_size(sites), 1);
	assert_int_equal(json_integer_value(json_object_get(page, "total")), 2);
	assert_int_equal(json_integer_value(json_object_get(page, "returned")), 1);
	assert_int_equal(json_integer_value(json_object_get(page, "offset")), 1);
	assert_true(has_string(json_object_get(json_array_get(sites, 0), "targets"), "neg"));
	json_decref(r);
}

static void errors_are_errors(void **state)
{
	(void)state;
	static const char *const bad[][2] = {
		{"no_such_verb", "{}"},
		{"callees", "{}"},                          /* name missing */
		{"callees", "{\"name\": \"no_such_function\"}"},
		{"callees", "{\"name\": \"main\", \"graph\": \"no_such_graph\"}"},
		{"explain", "{\"site\": 99}"},              /* no such site */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		facet_error err = {0};
		json_t *r = call(bad[i][0], bad[i][1], &err);
		if (r)
			fail_msg("%s %s answered", bad[i][0], bad[i][1]);
		assert_true(err.msg[0] != 0);
	}
}

static void registry_names(void **state)
{
	(void)state;
	unsigned n = 0;
	for (const query_verb_info *v = query_verb_table; v->name; v++, n++) {
		assert_ptr_equal(query_verb_find(v->name), v);
		assert_ptr_equal(query_verb_find_cli(v->cli, v->group), v);
		assert_true(query_verb_n_args(v) <= 2);
	}
	assert_true(n > 10);
	assert_null(query_verb_find("no_such_verb"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callees_from_the_program),
		cmocka_unit_test(reach_from_the_graph),
		cmocka_unit_test(lists_are_paged),
		cmocka_unit_test(errors_are_errors),
		cmocka_unit_test(registry_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
