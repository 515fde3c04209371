/* mutual.c — mutual recursion: a recursive-descent evaluator for integer
 * expressions (expr -> term -> factor -> expr) and the classic even/odd pair.
 *
 * Usage: mutual [EXPR...]   (default: a few fixed expressions)
 * Grammar: expr = term {('+'|'-') term}; term = factor {('*'|'/') factor};
 *          factor = NUMBER | '-' factor | '(' expr ')'. */
#include <stdio.h>
#include <stdlib.h>

struct parser {
	const char *p;
	int error;
};

static long parse_expr(struct parser *ps);

static void skip_blanks(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static long parse_factor(struct parser *ps)
{
	skip_blanks(ps); /* @call(O0) skip_blanks */
	if (*ps->p == '-') {
		ps->p++;
		return -parse_factor(ps); /* @call parse_factor */
	}
	if (*ps->p == '(') {
		ps->p++;
		long v = parse_expr(ps); /* @call parse_expr */
		skip_blanks(ps); /* @call(O0) skip_blanks */
		if (*ps->p == ')')
			ps->p++;
		else
			ps->error = 1;
		return v;
	}
	if (*ps->p < '0' || *ps->p > '9') {
		ps->error = 1;
		return 0;
	}
	long v = 0;
	while (*ps->p >= '0' && *ps->p <= '9')
		v = v * 10 + (*ps->p++ - '0');
	return v;
}

static long parse_term(struct parser *ps)
{
	long v = parse_factor(ps); /* @call parse_factor */
	for (;;) {
		skip_blanks(ps); /* @call(O0) skip_blanks */
		char op = *ps->p;
		if (op != '*' && op != '/')
			return v;
		ps->p++;
		long rhs = parse_factor(ps); /* @call parse_factor */
		if (op == '*')
			v *= rhs;
		else if (rhs != 0)
			v /= rhs;
		else
			ps->error = 1;
	}
}

static long parse_expr(struct parser *ps)
{
	long v = parse_term(ps); /* @inline-call parse_term */
	for (;;) {
		skip_blanks(ps); /* @call(O0) skip_blanks */
		char op = *ps->p;
		if (op != '+' && op != '-')
			return v;
		ps->p++;
		long rhs = parse_term(ps); /* @inline-call parse_term */
		v = op == '+' ? v + rhs : v - rhs;
	}
}

static int is_odd(unsigned long n);

static int is_even(unsigned long n)
{
	return n == 0 ? 1 : is_odd(n - 1); /* @call(O0) is_odd */
}

static int is_odd(unsigned long n)
{
	return n == 0 ? 0 : is_even(n - 1); /* @call(O0) is_even */
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {"1 + 2 * 3", "(1 + 2) * 3", "-(4 - 10) / 2", "2 * (3 + (4 - 1)) * 5"};
	int n = argc > 1 ? argc - 1 : (int)(sizeof defaults / sizeof *defaults);
	const char *const *exprs = argc > 1 ? (const char *const *)argv + 1 : defaults;
	int failed = 0;

	for (int i = 0; i < n; i++) {
		struct parser ps = {exprs[i], 0};
		long v = parse_expr(&ps); /* @call parse_expr */
		if (ps.error || *ps.p != '\0') {
			fprintf(stderr, "mutual: cannot parse '%s'\n", exprs[i]); /* @call fprintf */
			failed = 1;
			continue;
		}
		unsigned long mag = (unsigned long)(v < 0 ? -v : v);
		printf("%s = %ld (%s)\n", exprs[i], v, is_even(mag) ? "even" : "odd"); /* @call printf @call(O0) is_even */
	}
	return failed;
}
