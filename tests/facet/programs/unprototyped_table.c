/* A table of builtins whose field is unprototyped (`void (*fn)()`, valid C
 * before C23; shells and interpreters keep their builtins so) holds
 * functions of one to five parameters; the interpreter casts the field to
 * the arity it needs at each call, or calls it unprototyped. C's rule
 * (C11 6.7.6.3p15): `T ()` is compatible with every function returning T
 * whose parameter list ends in no `...` and whose every parameter type
 * survives the default argument promotions — so nothing is keyed by arity,
 * and a function taking a char or a float (cast into the table) is not
 * compatible: an unprototyped call promotes its argument to int or double. */
#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
#include <stdio.h>

struct builtin {
	const char *name;
	void (*fn)();
	int nargs;
};

static void b_print(const char *s) { puts(s); }
static void b_add(int a, int b) { printf("%d\n", a + b); }
static void b_range(int lo, int hi, long step)
{
	for (long i = lo; i < hi; i += step)
		printf("%ld\n", i);
}
static void b_five(int a, int b, int c, int d, int e) { printf("%d\n", a + b + c + d + e); }
static void b_flag(char c) { printf("%c\n", c); }
static void b_scale(float f) { printf("%f\n", (double)f); }

static const struct builtin builtins[] = {
	{"print", b_print, 1},
	{"add", b_add, 2},
	{"range", b_range, 3},
	{"five", b_five, 5},
	{"flag", (void (*)())b_flag, 1},
	{"scale", (void (*)())b_scale, 1},
};

__attribute__((noinline)) static void run(const struct builtin *b, int x, const char *s)
{
	switch (b->nargs) {
	case 2:
		((void (*)(int, int))b->fn)(x, x); /* SITE two */
		break;
	case 3:
		((void (*)(int, int, long))b->fn)(0, x, 1L); /* SITE three */
		break;
	case 5:
		((void (*)(int, int, int, int, int))b->fn)(x, x, x, x, x); /* SITE five */
		break;
	default:
		b->fn(s); /* SITE unproto */
	}
}

int main(int argc, char **argv)
{
	for (unsigned i = 0; i < sizeof builtins / sizeof *builtins; i++)
		run(&builtins[i], argc, argv[0]);
	return 0;
}

/* The casts key nothing by arity: each cast call's R0 is the one function
 * of its IR type. The unprototyped call `b->fn(s)` (IR type void (ptr, ...))
 * fits every one-parameter void function in R0's filter. b_flag and b_scale
 * are not compatible with `void ()` (char and float do not survive the
 * promotions; tests/facet/test_facet.c checks that rule), but the table casts
 * each to `void (*)()` where it takes its address: the program means them
 * for the field, so they stay in F (Add-Cast, and Keep-Cast rejects the
 * prune Prune-Sig would make) — and at run time `b->fn(s)` does call them
 * (nargs 1). At tau 0 the adds from F that do not take one argument are
 * rejected by Add-Type.
 // EXPECT two field: builtin.fn
 // EXPECT two r0: b_add
 // EXPECT two rpm: b_add
 // EXPECT three r0: b_range
 // EXPECT three rpm: b_range
 // EXPECT five r0: b_five
 // EXPECT five rpm: b_five
 // EXPECT unproto field: builtin.fn
 // EXPECT unproto r0: b_flag b_print b_scale
 // EXPECT unproto rulesonly: b_flag b_print b_scale
 // EXPECT unproto rpm: b_flag b_print b_scale
 // EXPECT unproto rejected: -
 // EXPECT unproto decision b_flag: add supported Add-Cast pi_cast
 // EXPECT unproto decision b_flag: prune rejected Keep-Cast pi_cast
 // EXPECT unproto decision b_scale: add supported Add-Cast pi_cast
 // EXPECT unproto decision b_print: add supported Add-Witness true
 // EXPECT@tau=0 unproto decision b_add: add rejected Add-Type pi_sig
 // EXPECT@tau=0 unproto rpm: b_flag b_print b_scale
 */
