/* test_overlay_api.c — the contract of overlay/overlay.h on the fixture's
 * catalog (tests/lib/catalog_fixture.h), straight through the overlay's
 * own interface: a batch is applied whole or not at all (a refusal names
 * the record's index and changes nothing); an edge attaches only to a site
 * the record's graph leaves unresolved (main's table call has no target in
 * direct, and inc and dec in r0); records are pending until saved; save
 * and load round-trip the edges; a file recorded against another
 * fingerprint is refused and leaves the overlay as it was; parse_lines
 * skips blank and '#' lines and names the line of a bad one. */
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
#include "overlay/overlay.h"

static char *dir, path[512];
static catalog *cat;

static int setup(void **state)
{
	(void)state;
	catalog_fixture_make(&dir, path, sizeof path, NULL);
	facet_error err = {0};
	cat = catalog_open(path, &err);
	if (!cat)
		fail_msg("catalog_open: %s", err.msg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_close(cat);
	catalog_fixture_remove(dir);
	return 0;
}

#define ADD(site, to) \
	"{\"op\":\"add\",\"site\":" #site ",\"to\":\"" to "\",\"confidence\":\"high\"," \
	"\"provenance\":[\"fixture.c:5: struct ops table[2] = {{inc}, {dec}};\"]}"

static bool apply(overlay *o, const char *records, int graph, facet_error *err)
{
	json_t *r = json_loads(records, 0, NULL);
	assert_non_null(r);
	bool ok = overlay_apply(o, r, graph, err);
	json_decref(r);
	return ok;
}

static void batches_whole_or_not_at_all(void **state)
{
	(void)state;
	overlay *o = overlay_new(cat);
	facet_error err = {0};
	assert_false(overlay_pending(o));
	assert_true(apply(o, "[" ADD(0, "inc") "]", CG_DIRECT, &err));
	assert_int_equal(overlay_n_edges(o), 1);
	assert_true(overlay_pending(o));
	const overlay_edge *e = overlay_edge_at(o, 0);
	assert_false(e->via_field);
	assert_int_equal(e->site, 0);
	assert_string_equal(e->to_symbol, "inc");
	assert_int_equal(e->confidence, CONF_HIGH);
	/* the second record names no function: the first is not applied either */
	facet_error e2 = {0};
	assert_false(apply(o, "[" ADD(0, "dec") "," ADD(0, "no_such_function") "]", CG_DIRECT, &e2));
	assert_non_null(strstr(e2.msg, "record 1"));
	assert_int_equal(overlay_n_edges(o), 1);
	/* r0 resolves the table's call: no edge attaches there */
	facet_error e3 = {0};
	assert_false(apply(o, "[" ADD(0, "dec") "]", CG_R0, &e3));
	assert_non_null(strstr(e3.msg, "record 0"));
	assert_int_equal(overlay_n_edges(o), 1);
	overlay_free(o);
}

static void save_and_load(void **state)
{
	(void)state;
	char ov[600];
	snprintf(ov, sizeof ov, "%s/fixture.facet.overlay", dir);
	overlay *o = overlay_new(cat);
	facet_error err = {0};
	assert_true(apply(o, "[" ADD(0, "inc") "," ADD(0, "dec") "]", CG_DIRECT, &err));
	assert_true(overlay_save(o, ov, &err));
	assert_false(overlay_pending(o));
	overlay *back = overlay_new(cat);
	assert_true(overlay_load(back, ov, &err));
	assert_int_equal(overlay_n_edges(back), 2);
	assert_int_equal(overlay_n_records(back), overlay_n_records(o));
	assert_false(overlay_pending(back));
	/* another build's overlay: its first line names another fingerprint */
	FILE *f = fopen(ov, "w");
	assert_non_null(f);
	fputs("{\"facet_overlay\":1,\"catalog_fingerprint\":\"ffffffffffffffff\",\"catalog\":\"x.facet\"}\n", f);
	fclose(f);
	facet_error e2 = {0};
	assert_false(overlay_load(back, ov, &e2));
	assert_non_null(strstr(e2.msg, "ffffffffffffffff"));
	assert_non_null(strstr(e2.msg, "0123456789abcdef"));
	assert_int_equal(overlay_n_edges(back), 2);   /* unchanged */
	overlay_free(back);
	overlay_free(o);
}

static void parse_lines(void **state)
{
	(void)state;
	static const char text[] = "\n# a comment\n" ADD(0, "inc") "\n\n" ADD(0, "dec") "\n";
	facet_error err = {0};
	json_t *r = overlay_parse_lines(text, sizeof text - 1, &err);
	assert_non_null(r);
	assert_int_equal(json_array_size(r), 2);
	json_decref(r);
	static const char bad[] = ADD(0, "inc") "\n{not json\n";
	facet_error e2 = {0};
	assert_null(overlay_parse_lines(bad, sizeof bad - 1, &e2));
	assert_non_null(strstr(e2.msg, "line 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batches_whole_or_not_at_all),
		cmocka_unit_test(save_and_load),
		cmocka_unit_test(parse_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
