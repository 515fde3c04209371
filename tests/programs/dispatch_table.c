/* dispatch_table.c — a function table: a reverse-Polish calculator whose
 * operators are looked up in a constant array of function pointers.
 *
 * Usage: dispatch_table [TOKEN...]   (default: "3 4 + 5 *" and friends)
 * Tokens are integers or one of + - * / % ^. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long (*binop)(long, long);

static long op_add(long a, long b) /* @address-taken */
{
	return a + b;
}

static long op_sub(long a, long b) /* @address-taken */
{
	return a - b;
}

static long op_mul(long a, long b) /* @address-taken */
{
	return a * b;
}

static long op_div(long a, long b) /* @address-taken */
{
	return b != 0 ? a / b : 0;
}

static long op_mod(long a, long b) /* @address-taken */
{
	return b != 0 ? a % b : 0;
}

long op_pow(long a, long b) /* @address-taken */
{
	long r = 1;
	while (b-- > 0)
		r *= a;
	return r;
}

static const char op_chars[] = "+-*/%^";
static const binop op_table[] = {op_add, op_sub, op_mul, op_div, op_mod, op_pow};

static int op_index(const char *tok)
{
	if (tok[0] == '\0' || tok[1] != '\0')
		return -1;
	const char *hit = strchr(op_chars, tok[0]); /* @call(O0) strchr @call(O2) memchr=strchr */
	return hit ? (int)(hit - op_chars) : -1;
}

static int eval(int ntok, char **toks, long *out)
{
	long stack[32];
	int sp = 0;

	for (int i = 0; i < ntok; i++) {
		int op = op_index(toks[i]); /* @inline-call op_index */
		if (op < 0) {
			if (sp == 32)
				return -1;
			stack[sp++] = strtol(toks[i], NULL, 10); /* @call strtol */
			continue;
		}
		if (sp < 2)
			return -1;
		long b = stack[--sp], a = stack[--sp];
		stack[sp++] = op_table[op](a, b); /* @icall op_table[op] */
	}
	if (sp != 1)
		return -1;
	*out = stack[0];
	return 0;
}

int main(int argc, char **argv)
{
	static char *demo[] = {"3", "4", "+", "5", "*", "2", "^", "11", "%"};
	int ntok = argc > 1 ? argc - 1 : (int)(sizeof demo / sizeof *demo);
	char **toks = argc > 1 ? argv + 1 : demo;
	long v;

	if (eval(ntok, toks, &v) != 0) { /* @inline-call eval */
		fputs("dispatch_table: malformed expression\n", stderr); /* @call(O0) fputs @call(O2) fwrite=fputs */
		return 1;
	}
	printf("%ld\n", v); /* @call printf */
	return 0;
}
