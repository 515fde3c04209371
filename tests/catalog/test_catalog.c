/* test_catalog.c — the contract of catalog/catalog.h and catalog/build.h:
 * catalog_build_run writes a catalog that catalog_open reads back with the
 * meta it was given (fingerprint, tau, oracle), every graph the pipeline
 * builds, the refinement and its default graph rpm, and the program's
 * functions; a file that is not a catalog, a missing one, and a catalog of
 * another schema version are refused naming the file; the default path of
 * a catalog (catalog_default_path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog_fixture.h"

static char *dir, path[512];
static ir_program *prog;

static int setup(void **state)
{
	(void)state;
	catalog_fixture_make(&dir, path, sizeof path, &prog);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_program_free(prog);
	catalog_fixture_remove(dir);
	return 0;
}

static void reads_back(void **state)
{
	(void)state;
	facet_error err = {0};
	catalog *c = catalog_open(path, &err);
	assert_non_null(c);
	assert_string_equal(catalog_path(c), path);
	assert_string_equal(catalog_fingerprint_of(c), "0123456789abcdef");
	assert_string_equal(catalog_meta(c, "format"), "facet-catalog");
	assert_string_equal(catalog_meta(c, "tau"), "2");
	assert_string_equal(catalog_meta(c, "oracle"), "none");
	assert_null(catalog_meta(c, "no such key"));
	char version[16];
	snprintf(version, sizeof version, "%d", CATALOG_SCHEMA_VERSION);
	assert_string_equal(catalog_meta(c, "schema_version"), version);
	/* build.h's pipeline: every graph but source (facet source's alone) */
	for (int g = 0; g < CG_N_GRAPHS; g++)
		assert_true(catalog_has_graph(c, g) == (g != CG_SOURCE));
	assert_true(catalog_has_refinement(c));
	assert_string_equal(catalog_default_graph(c), "rpm");
	/* the program model: one row per function, by id */
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(catalog_db(c), "SELECT count(*) FROM functions", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), (int)prog->n_functions);
	sqlite3_finalize(st);
	catalog_close(c);
}

static void refuses_what_is_not_one(void **state)
{
	(void)state;
	char other[600];
	snprintf(other, sizeof other, "%s/text.facet", dir);
	FILE *f = fopen(other, "w");
	assert_non_null(f);
	fputs("not a catalog\n", f);
	fclose(f);
	facet_error err = {0};
	assert_null(catalog_open(other, &err));
	assert_non_null(strstr(err.msg, other));
	snprintf(other, sizeof other, "%s/missing.facet", dir);
	facet_error err2 = {0};
	assert_null(catalog_open(other, &err2));
	assert_non_null(strstr(err2.msg, other));
}

static void refuses_another_schema(void **state)
{
	(void)state;
	char copy[600], cmd[1400];
	snprintf(copy, sizeof copy, "%s/old.facet", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
	assert_int_equal(system(cmd), 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(copy, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE meta SET value='1' WHERE key='schema_version'", NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	facet_error err = {0};
	assert_null(catalog_open(copy, &err));
	assert_non_null(strstr(err.msg, copy));
}

/* The name a catalog gets when -o is not given: facet build's beside its
 * input, facet source's in the current directory. */
static void default_paths(void **state)
{
	(void)state;
	const struct {
		const char *input, *exts;
		bool here;
		const char *want;
	} cases[] = {
		{"dir/prog.bc", ".bc\0.ll\0", false, "dir/prog.facet"},
		{"prog.ll", ".bc\0.ll\0", false, "prog.facet"},
		{"a.o", ".bc\0.ll\0", false, "a.o.facet"},
		{"d.x/prog", ".bc\0.ll\0", false, "d.x/prog.facet"},
		{".bc", ".bc\0.ll\0", false, ".facet"},
		{"src/", ".c\0.h\0", true, "src.facet"},
		{"a/b.c", ".c\0.h\0", true, "b.facet"},
		{"x.h", ".c\0.h\0", true, "x.facet"},
		{".c", ".c\0.h\0", true, ".c.facet"},
		{".", ".c\0.h\0", true, "source.facet"},
		{"../", ".c\0.h\0", true, "source.facet"},
		{"/", ".c\0.h\0", true, "source.facet"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *got = catalog_default_path(cases[i].input, cases[i].exts, cases[i].here);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_back),
		cmocka_unit_test(refuses_what_is_not_one),
		cmocka_unit_test(refuses_another_schema),
		cmocka_unit_test(default_paths),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
