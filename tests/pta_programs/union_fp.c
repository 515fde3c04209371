/* union_fp.c — a processing pipeline of steps, each a tagged union of
 * three kinds of callback: unary int -> int, binary (int, int) -> int, and
 * a sink int -> void.
 *
 * Covers: function pointers through a union.  The members of the union
 * share one location, so Andersen's set at each of the three sites is all
 * six callbacks of the pipeline; the type filter leaves each site the two
 * of its kind: i32 (i32), i32 (i32, i32) and void (i32) differ in IR. */
#include <stdio.h>
#include "observe.h"

enum step_kind { UNARY, BINARY, SINK };

struct step {
	enum step_kind kind;
	union {
		int (*unary)(int v);
		int (*binary)(int v, int operand);
		void (*sink)(int v);
	} fn;
	int operand;
};

static int negate(int v)
{
	OBSERVE_TARGET();
	return -v;
}

static int twice(int v)
{
	OBSERVE_TARGET();
	return 2 * v;
}

static int add(int v, int operand)
{
	OBSERVE_TARGET();
	return v + operand;
}

static int maxof(int v, int operand)
{
	OBSERVE_TARGET();
	return v > operand ? v : operand;
}

static void print_val(int v)
{
	OBSERVE_TARGET();
	printf("%d\n", v);
}

static long recorded;

static void record_val(int v)
{
	OBSERVE_TARGET();
	recorded += v;
}

struct step pipeline[] = {
	{UNARY, {.unary = twice}, 0},
	{BINARY, {.binary = add}, 5},
	{SINK, {.sink = record_val}, 0},
	{UNARY, {.unary = negate}, 0},
	{BINARY, {.binary = maxof}, -100},
	{SINK, {.sink = print_val}, 0},
};

int main(void)
{
	int v = 20;

	for (size_t i = 0; i < sizeof pipeline / sizeof pipeline[0]; i++) {
		const struct step *s = &pipeline[i];
		switch (s->kind) {
		case UNARY:
			v = ICALL(s->fn.unary(v)); /* @r0: negate twice @andersen: add maxof negate print_val record_val twice */
			break;
		case BINARY:
			v = ICALL(s->fn.binary(v, s->operand)); /* @r0: add maxof @andersen: add maxof negate print_val record_val twice */
			break;
		case SINK:
			ICALL(s->fn.sink(v)); /* @r0: print_val record_val @andersen: add maxof negate print_val record_val twice */
			break;
		}
	}
	printf("recorded %ld\n", recorded);
	return 0;
}
