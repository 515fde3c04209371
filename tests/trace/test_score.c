/* test_score.c — the contract of trace/observed.h and trace/score.h: files
 * of one program merge with counts summed, a file of another program or a
 * malformed one is refused naming the file and line, and the scores are
 * score.h's formulas (P, R, F1 per observed site, their plain means, empty
 * predictions scoring 0, edges recovered / spurious / missed). The numbers
 * below are worked by hand from the traces and graphs written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/observed.h"
#include "trace/score.h"

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/facet-test-score-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

#define HEADER "facet-trace 1 key=00000000000000ab sites=4 functions=5 pid=1 dropped=0\n"

/* Site 0 observed {add, sub} (add twice over two files), site 1 {neg},
 * site 2 only an unknown callee, site 3 nothing. */
static void read_two(trace_observed *o)
{
	char *a = write_temp(HEADER "0 add 3\n1 neg 1\n2 ? 4\n");
	char *b = write_temp(HEADER "0 add 2\n0 sub 1\n");
	facet_error err = {0};
	assert_true(trace_observed_read(o, a, &err));
	assert_true(trace_observed_read(o, b, &err));
	assert_true(trace_observed_finish(o, &err));
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}

static void files_merge(void **state)
{
	(void)state;
	trace_observed o = {0};
	read_two(&o);
	assert_true(o.have_key);
	assert_int_equal(o.key, 0xab);
	assert_int_equal(o.blocks, 2);
	assert_int_equal(o.n_edges, 3);   /* (0,add) merged, (0,sub), (1,neg) */
	assert_int_equal(o.edges[0].site, 0);
	assert_string_equal(o.edges[0].name, "add");
	assert_int_equal(o.edges[0].count, 5);
	assert_string_equal(o.edges[1].name, "sub");
	assert_int_equal(o.hits, 7);
	assert_int_equal(o.unknown_hits, 4);
	assert_int_equal(o.unknown_sites, 1);
	assert_int_equal(o.n_obs_sites, 2);   /* sites 0 and 1: the unknown-only site is not observed */
	trace_observed_free(&o);
}

static void other_program_refused(void **state)
{
	(void)state;
	char *a = write_temp(HEADER "0 add 1\n");
	char *b = write_temp("facet-trace 1 key=00000000000000cd sites=4 functions=5 pid=2 dropped=0\n0 add 1\n");
	trace_observed o = {0};
	facet_error err = {0};
	assert_true(trace_observed_read(&o, a, &err));
	assert_false(trace_observed_read(&o, b, &err));
	assert_non_null(strstr(err.msg, b));
	assert_non_null(strstr(err.msg, "another program"));
	trace_observed_free(&o);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}

static void malformed_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"0 add 1\n",                                   /* an edge before any header */
		HEADER "9 add 1\n",                            /* site out of range */
		HEADER "0 add 0\n",                            /* a zero count */
		"facet-trace 2 key=ab sites=1 functions=1 pid=1 dropped=0\n",   /* another version */
		"hello\n",                                     /* not a trace */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *p = write_temp(bad[i]);
		trace_observed o = {0};
		facet_error err = {0};
		assert_false(trace_observed_read(&o, p, &err));
		assert_non_null(strstr(err.msg, p));   /* names the file */
		trace_observed_free(&o);
		unlink(p);
		free(p);
	}
}

static void scores_by_the_formulas(void **state)
{
	(void)state;
	trace_observed o = {0};
	read_two(&o);
	/* Site 0 predicts {add, mul} (G = {add, sub}): P 1/2, R 1/2, F1 1/2.
	 * Site 1 predicts nothing (G = {neg}): 0, 0, 0. Sites 2, 3: not observed. */
	const char *s0[] = {"add", "mul"};
	const char *s2[] = {"zzz"};
	const char **const targets[] = {s0, NULL, s2, NULL};
	const unsigned n_targets[] = {2, 0, 1, 0};
	trace_graph g = {"g", 4, targets, n_targets};
	trace_score s;
	trace_score_compute(&o, &g, &s);
	assert_int_equal(s.sites, 2);
	assert_true(s.precision == 0.25 && s.recall == 0.25 && s.f1 == 0.25);
	assert_true(s.mean_targets == 1.0);   /* (2 + 0) / 2 */
	assert_int_equal(s.empty, 1);
	assert_int_equal(s.exactly_one, 0);
	assert_int_equal(s.recovered, 1);     /* add */
	assert_int_equal(s.spurious, 1);      /* mul */
	assert_int_equal(s.missed, 2);        /* sub, neg */
	assert_int_equal(s.max_size, 2);
	assert_int_equal(s.sizes[0], 1);
	assert_int_equal(s.sizes[2], 1);
	assert_int_equal(s.per_site[0].site, 0);
	assert_int_equal(s.per_site[0].recovered, 1);
	assert_int_equal(s.per_site[1].site, 1);
	assert_int_equal(s.per_site[1].predicted, 0);
	trace_score_free(&s);
	trace_observed_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(files_merge),
		cmocka_unit_test(other_program_refused),
		cmocka_unit_test(malformed_refused),
		cmocka_unit_test(scores_by_the_formulas),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
