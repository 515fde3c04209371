/* heap_array.c — a table of commands built in malloc'd memory and walked
 * by a variable index, each entry with two callbacks of one type (do and
 * undo). The heap object has no declared type, but the index steps by
 * whole entries (sizeof(struct cmd), 16 bytes): the object folds to one
 * entry whose two fields stay apart, as a global or stack array does, so
 * cmds[i].run holds the three run callbacks and cmds[i].undo the three undo
 * ones, not all six. The stores at constant indexes (cmds[0], cmds[1],
 * cmds[2]) land on the same two fields once the table folds. */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

typedef int (*op)(int x);

struct cmd {
	op run;
	op undo;
};

static int inc(int x)
{
	OBSERVE_TARGET();
	return x + 1;
}

static int dec(int x)
{
	OBSERVE_TARGET();
	return x - 1;
}

static int dbl(int x)
{
	OBSERVE_TARGET();
	return x * 2;
}

static int half(int x)
{
	OBSERVE_TARGET();
	return x / 2;
}

static int neg(int x)
{
	OBSERVE_TARGET();
	return -x;
}

static int same(int x)
{
	OBSERVE_TARGET();
	return x;
}

static volatile int count = 3;

int main(void)
{
	int n = count;
	struct cmd *cmds = (struct cmd *)malloc((size_t)n * sizeof *cmds);
	if (!cmds)
		return 1;
	cmds[0].run = inc, cmds[0].undo = dec;
	cmds[1].run = dbl, cmds[1].undo = half;
	cmds[2].run = neg, cmds[2].undo = same;
	int x = 5;
	for (int i = 0; i < n; i++)
		x = ICALL(cmds[i].run(x)); /* @r0: inc dbl neg */
	for (int i = n - 1; i >= 0; i--)
		x = ICALL(cmds[i].undo(x)); /* @r0: dec half same */
	free(cmds);
	printf("x %d\n", x);
	return 0;
}
