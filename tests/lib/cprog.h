/* cprog.h — the unit tests' one way to turn C into a program model: compile
 * with clang-22 -g at a given level to bitcode, then ingest it. Include it
 * after <cmocka.h> (failures are cmocka failures, naming the command or the
 * ingest error). Header-only: the tests are separate executables. */
#ifndef FACET_TESTS_CPROG_H
#define FACET_TESTS_CPROG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ingest.h"

/* Compiles c_path to bc_path with `clang-22 -g LEVEL -w -c -emit-llvm`. */
static inline void cprog_compile(const char *c_path, const char *bc_path, const char *level)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "clang-22 -g %s -w -c -emit-llvm '%s' -o '%s'", level, c_path, bc_path);
	if (system(cmd) != 0)
		fail_msg("could not compile %s with: %s", c_path, cmd);
}

/* Ingests one bitcode file (opt and w as ir_ingest takes them). */
static inline ir_program *cprog_ingest(const char *bc_path, const ingest_options *opt, ingest_warnings *w)
{
	const char *paths[] = {bc_path};
	facet_error err = {0};
	ir_program *p = ir_ingest(paths, 1, opt, w, &err);
	if (!p)
		fail_msg("ingest of %s failed: %s", bc_path, err.msg);
	return p;
}

/* Writes source to DIR/pN.c (N counts up per process), compiles and
 * ingests it with default options. */
static inline ir_program *cprog_from_source(const char *dir, const char *source, const char *level)
{
	static int seq;
	char c[512], bc[512];
	snprintf(c, sizeof c, "%s/p%d.c", dir, seq);
	snprintf(bc, sizeof bc, "%s/p%d.bc", dir, seq++);
	FILE *f = fopen(c, "w");
	assert_non_null(f);
	fputs(source, f);
	fclose(f);
	cprog_compile(c, bc, level);
	return cprog_ingest(bc, NULL, NULL);
}

/* Runs a cmocka group in a scratch directory: tmpdir (a "...XXXXXX"
 * template the tests write into) is made first and removed after, whatever
 * the tests did. A directory that cannot be made or removed fails the run. */
static inline int cprog_run_in_tmpdir(char *tmpdir, const char *group, const struct CMUnitTest *tests,
                                      size_t n_tests)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	int rc = _cmocka_run_group_tests(group, tests, n_tests, NULL, NULL);
	char cmd[600];
	if (strchr(tmpdir, '\'') || snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir) >= (int)sizeof cmd ||
	    system(cmd) != 0) {
		fprintf(stderr, "could not remove %s\n", tmpdir);
		return rc ? rc : 1;
	}
	return rc;
}
#define cprog_run_tests(tmpdir, tests) \
	cprog_run_in_tmpdir((tmpdir), #tests, (tests), sizeof(tests) / sizeof((tests)[0]))

#endif
