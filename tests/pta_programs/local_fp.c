/* local_fp.c — a tiny RPN calculator: the operator of each token is chosen
 * into a local function pointer and then called; the leftover stack is
 * folded with a second local, and the result shown through a third.
 *
 * Covers: a function pointer in a local; several locals of one type keep
 * their own sets (op never holds op_min, fold never holds op_add).
 *
 * Usage: local_fp [EXPR [max]]   (default: rpn_input; RPN_HEX=1 for hex) */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

typedef long (*binop_fn)(long a, long b);
typedef void (*show_fn)(long v);

static long op_add(long a, long b)
{
	OBSERVE_TARGET();
	return a + b;
}

static long op_sub(long a, long b)
{
	OBSERVE_TARGET();
	return a - b;
}

static long op_mul(long a, long b)
{
	OBSERVE_TARGET();
	return a * b;
}

static long op_min(long a, long b)
{
	OBSERVE_TARGET();
	return a < b ? a : b;
}

static long op_max(long a, long b)
{
	OBSERVE_TARGET();
	return a > b ? a : b;
}

static void show_plain(long v)
{
	OBSERVE_TARGET();
	printf("%ld\n", v);
}

static void show_hex(long v)
{
	OBSERVE_TARGET();
	printf("%#lx\n", v);
}

/* Not static, so the optimizer cannot fold the input into the code. */
char rpn_input[] = "3 4 + 2 * 7 - 5 9";

int main(int argc, char **argv)
{
	const char *p = argc > 1 ? argv[1] : rpn_input;
	long stack[32];
	int sp = 0;

	while (*p) {
		char *end;
		binop_fn op = NULL;

		if (*p == ' ') {
			p++;
			continue;
		}
		if (*p >= '0' && *p <= '9') {
			if (sp == 32)
				return 1;
			stack[sp++] = strtol(p, &end, 10);
			p = end;
			continue;
		}
		switch (*p++) {
		case '+': op = op_add; break;
		case '-': op = op_sub; break;
		case '*': op = op_mul; break;
		default: return 1;
		}
		if (sp < 2)
			return 1;
		long b = stack[--sp], a = stack[--sp];
		stack[sp++] = ICALL(op(a, b)); /* @r0: op_add op_mul op_sub */
	}
	if (sp == 0)
		return 1;

	binop_fn fold = argc > 2 ? op_max : op_min;
	long r = stack[0];
	for (int i = 1; i < sp; i++)
		r = ICALL(fold(r, stack[i])); /* @r0: op_max op_min */

	show_fn show = getenv("RPN_HEX") ? show_hex : show_plain;
	ICALL(show(r)); /* @r0: show_hex show_plain */
	return 0;
}
