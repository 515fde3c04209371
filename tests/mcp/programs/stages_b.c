/* stages_b.c — the second `static int step`; stages_a.c says what the
 * tests expect of the pair. */
#include "stages.h"

int b_leaf(int x)
{
	return x - 3;
}

static int step(int x)
{
	return b_leaf(x) - 1;
}

int b_run(int x)
{
	return step(x);
}

const struct stage b_stage = {"b", step};
