/* catalog_fixture.h — the contract tests' one way to make a catalog: C
 * source compiled and ingested (cprog.h), then facet build's pipeline
 * (catalog/build.h) writing DIR/NAME.facet. Include it after <cmocka.h>.
 * Header-only: the tests are separate executables. */
#ifndef FACET_TESTS_CATALOG_FIXTURE_H
#define FACET_TESTS_CATALOG_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/build.h"
#include "cprog.h"

/* A table of two operations, one indirect call through it: r0 gives the
 * call inc and dec (both stored in the table, both int (int)), never neg
 * (another type, its address taken too). */
static const char catalog_fixture_source[] =
	"struct ops { int (*run)(int); };\n"
	"static int inc(int x) { return x + 1; }\n"
	"static int dec(int x) { return x - 1; }\n"
	"static long neg(long x) { return -x; }\n"
	"struct ops table[2] = {{inc}, {dec}};\n"
	"long (*other)(long) = neg;\n"
	"int main(int argc, char **argv) { (void)argv; return table[argc & 1].run(argc) + (int)other(argc); }\n";

/* Writes the fixture's catalog to path (the program's bitcode beside it);
 * the program model is returned through *prog when prog is not NULL (the
 * caller frees it), else freed. */
static inline void catalog_fixture_write(const char *dir, const char *path, ir_program **prog)
{
	ir_program *p = cprog_from_source(dir, catalog_fixture_source, "-O0");
	char fingerprint[17] = "0123456789abcdef";
	catalog_build b = {.prog = p, .tau = 2, .oracle = "none", .fingerprint = fingerprint};
	double seconds_write;
	facet_error err = {0};
	if (!catalog_build_run(&b, NULL, path, NULL, &seconds_write, &err))
		fail_msg("catalog_build_run %s: %s", path, err.msg);
	if (prog)
		*prog = p;
	else
		ir_program_free(p);
}

/* A fresh temporary directory (malloc'd path). */
static inline char *catalog_fixture_dir(void)
{
	char *dir = strdup("/tmp/facet-contract-XXXXXX");
	if (!mkdtemp(dir))
		fail_msg("mkdtemp failed");
	return dir;
}

/* The setup every contract test shares: a fresh directory *dir and the
 * fixture's catalog written to path (DIR/fixture.facet), the program model
 * through *prog as catalog_fixture_write gives it. */
static inline void catalog_fixture_make(char **dir, char *path, size_t pathlen, ir_program **prog)
{
	*dir = catalog_fixture_dir();
	snprintf(path, pathlen, "%s/fixture.facet", *dir);
	catalog_fixture_write(*dir, path, prog);
}

/* Removes what catalog_fixture_make made and frees dir. */
static inline void catalog_fixture_remove(char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	(void)!system(cmd);
	free(dir);
}

#endif
