/* jumps.c — non-local exits: a key=number list parser that reports errors
 * with longjmp back to a setjmp in its caller, and _Noreturn helpers that
 * end the program.
 *
 * Usage: jumps [LIST]   (LIST like "a=1,b=2"; default: a good and a bad list) */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

struct parse_ctx {
	jmp_buf on_error;
	const char *msg;
	const char *at;
};

static _Noreturn void parse_fail(struct parse_ctx *ctx, const char *msg, const char *at)
{
	ctx->msg = msg;
	ctx->at = at;
	longjmp(ctx->on_error, 1); /* @call longjmp */
}

_Noreturn void die(const char *msg)
{
	fprintf(stderr, "jumps: %s\n", msg); /* @call fprintf */
	exit(2); /* @call exit */
}

static long parse_number(struct parse_ctx *ctx, const char **pp)
{
	const char *p = *pp;
	long v = 0;
	if (*p < '0' || *p > '9')
		parse_fail(ctx, "expected a digit", p); /* @call parse_fail */
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	*pp = p;
	return v;
}

static long parse_list(struct parse_ctx *ctx, const char *s)
{
	long total = 0;
	while (*s) {
		if (*s < 'a' || *s > 'z')
			parse_fail(ctx, "expected a key", s); /* @call parse_fail */
		s++;
		if (*s++ != '=')
			parse_fail(ctx, "expected '='", s - 1); /* @call parse_fail */
		total += parse_number(ctx, &s); /* @inline-call parse_number */
		if (*s == ',')
			s++;
		else if (*s)
			parse_fail(ctx, "expected ','", s); /* @call parse_fail */
	}
	return total;
}

static int try_parse(const char *s, long *out)
{
	struct parse_ctx ctx;
	if (setjmp(ctx.on_error) != 0) { /* @call _setjmp=setjmp */
		fprintf(stderr, "'%s': %s at offset %d\n", s, ctx.msg, (int)(ctx.at - s)); /* @call fprintf */
		return -1;
	}
	*out = parse_list(&ctx, s); /* @inline-call parse_list */
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {"a=1,b=22,c=333", "a=1,b=x"};
	long total;
	int failures = 0;

	if (argc > 2)
		die("at most one list"); /* @call die */
	for (int i = 0; i < (argc > 1 ? 1 : 2); i++) {
		const char *s = argc > 1 ? argv[1] : defaults[i];
		if (try_parse(s, &total) == 0) /* @call try_parse */
			printf("%s -> %ld\n", s, total); /* @call printf */
		else
			failures++;
	}
	if (failures > 1)
		abort(); /* @call abort */
	return failures;
}
