/* test_opt.c — the option parser's contract (util/args.h, through
 * cli/opt.h's cli_parse): values in both spellings, flags, repeated options,
 * included tables, "--" and positionals packed in order, and the one message
 * format on every refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opt.h"

typedef struct inner {
	const char *model;
	bool quiet;
} inner;

typedef struct opts {
	const char *graph, *out;
	bool all;
	args_list traces;
	inner in;
} opts;

static const args_opt inner_table[] = {
	ARGS_OPT_VALUE("--model", inner, model),
	ARGS_OPT_FLAG("--quiet", inner, quiet),
	ARGS_OPT_END,
};

static const args_opt table[] = {
	ARGS_OPT_VALUE("--graph", opts, graph),
	ARGS_OPT_VALUE("-o", opts, out),
	ARGS_OPT_FLAG("--all", opts, all),
	ARGS_OPT_LIST("--trace", opts, traces),
	ARGS_OPT_TABLE(inner_table, opts, in),
	ARGS_OPT_END,
};

/* Runs cli_parse on a copy of args with stderr captured into err. */
static bool parse(opts *o, char **argv, int argc, int *n, char *err, size_t errlen)
{
	fflush(stderr);
	int saved = dup(2);
	FILE *tmp = tmpfile();
	dup2(fileno(tmp), 2);
	bool ok = cli_parse("t", table, o, argc, argv, n);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t got = fread(err, 1, errlen - 1, tmp);
	err[got] = 0;
	fclose(tmp);
	return ok;
}

static void values_flags_lists_and_positionals(void **state)
{
	(void)state;
	char *argv[] = {"t", "a.bc", "--graph", "rpm", "--trace=x", "-o", "out", "--all", "--trace", "y",
	                "--model=m", "--quiet", "b.bc", "--", "--all", "-", NULL};
	opts o = {0};
	int n = -1;
	char err[256];
	assert_true(parse(&o, argv, 16, &n, err, sizeof err));
	assert_string_equal(err, "");
	assert_string_equal(o.graph, "rpm");
	assert_string_equal(o.out, "out");
	assert_true(o.all);
	assert_int_equal(o.traces.n, 2);
	assert_string_equal(o.traces.v[0], "x");
	assert_string_equal(o.traces.v[1], "y");
	assert_string_equal(o.in.model, "m");
	assert_true(o.in.quiet);
	/* positionals in order, "--" ending the options, "-" positional */
	assert_int_equal(n, 4);
	assert_string_equal(argv[1], "a.bc");
	assert_string_equal(argv[2], "b.bc");
	assert_string_equal(argv[3], "--all");
	assert_string_equal(argv[4], "-");
	args_list_free(&o.traces);
}

/* A one-letter option's value may be joined to it, as a compiler's -DNAME=V
 * or -Idir; a long option's may not, and a flag takes nothing joined. */
static void one_letter_values_join(void **state)
{
	(void)state;
	char *argv[] = {"t", "-oout.facet", "--trace", "x", "a.c", NULL};
	opts o = {0};
	int n = -1;
	char err[256];
	assert_true(parse(&o, argv, 5, &n, err, sizeof err));
	assert_string_equal(o.out, "out.facet");
	assert_int_equal(n, 1);
	assert_string_equal(argv[1], "a.c");
	args_list_free(&o.traces);

	char *eq[] = {"t", "-o=x.facet", NULL}, *sep[] = {"t", "-o", "-DX", NULL};
	opts p = {0};
	assert_true(parse(&p, eq, 2, &n, err, sizeof err));
	assert_string_equal(p.out, "x.facet");   /* the "=" spelling is kept */
	opts q = {0};
	assert_true(parse(&q, sep, 3, &n, err, sizeof err));
	assert_string_equal(q.out, "-DX");   /* a separate value is taken as it is */
	assert_int_equal(n, 0);

	char *lng[] = {"t", "--graphrpm", NULL}, *flag[] = {"t", "--allx", NULL};
	opts r = {0};
	assert_false(parse(&r, lng, 2, &n, err, sizeof err));
	assert_string_equal(err, "facet t: error: unknown option '--graphrpm' (see --help)\n");
	assert_false(parse(&r, flag, 2, &n, err, sizeof err));
	assert_string_equal(err, "facet t: error: unknown option '--allx' (see --help)\n");
}

static void refusals_name_the_option(void **state)
{
	(void)state;
	struct {
		char *args[4];
		int argc;
		const char *msg;
	} cases[] = {
		{{"t", "--bogus"}, 2, "facet t: error: unknown option '--bogus' (see --help)\n"},
		{{"t", "--graph"}, 2, "facet t: error: option --graph needs a value\n"},
		{{"t", "--all=1"}, 2, "facet t: error: unknown option '--all=1' (see --help)\n"},
		{{"t", "--graphs", "x"}, 3, "facet t: error: unknown option '--graphs' (see --help)\n"},
		{{"t", "--mode", "x"}, 3, "facet t: error: unknown option '--mode' (see --help)\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		opts o = {0};
		int n;
		char err[256];
		assert_false(parse(&o, cases[i].args, cases[i].argc, &n, err, sizeof err));
		assert_string_equal(err, cases[i].msg);
		args_list_free(&o.traces);
	}
}

static void help_stops_at_double_dash(void **state)
{
	(void)state;
	char *a[] = {"t", "x", "-h"}, *b[] = {"t", "--help"}, *c[] = {"t", "--", "-h"}, *d[] = {"t", "-hx"};
	assert_true(args_wants_help(3, a));
	assert_true(args_wants_help(2, b));
	assert_false(args_wants_help(3, c));
	assert_false(args_wants_help(2, d));
}

static void numbers_and_choices(void **state)
{
	(void)state;
	unsigned long v = 7;
	assert_true(cli_uint("t", "--n", "0", 0, 10, &v) && v == 0);
	assert_true(cli_uint("t", "--n", "10", 0, 10, &v) && v == 10);
	const char *bad[] = {"11", "-1", "+1", "", "1x", " 1", "99999999999999999999999"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_false(cli_uint("t", "--n", bad[i], 0, 10, &v));
	assert_true(cli_choice("t", "format", "json", "text\0json\0"));
	assert_false(cli_choice("t", "format", "xml", "text\0json\0"));
	assert_false(cli_choice("t", "format", "", "text\0json\0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_flags_lists_and_positionals),
		cmocka_unit_test(one_letter_values_join),
		cmocka_unit_test(refusals_name_the_option),
		cmocka_unit_test(help_stops_at_double_dash),
		cmocka_unit_test(numbers_and_choices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
