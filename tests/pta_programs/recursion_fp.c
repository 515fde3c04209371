/* recursion_fp.c — an expression tree whose nodes carry their evaluator:
 * eval_add and friends evaluate their operands by calling the operands'
 * evaluators, so evaluation recurses through a function pointer.  Tree
 * metrics recurse through a global function pointer (metric) that is set
 * to one of two measures.
 *
 * Covers: recursion through a function pointer.  All evaluators and both
 * measures have one IR type, i64 (ptr); the evaluator sites get exactly the
 * four functions stored into nodes by mk(), the metric sites exactly the
 * two measures. */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

struct expr {
	long (*eval)(const struct expr *e);
	long value;
	const struct expr *lhs, *rhs;
};

static long (*metric)(const struct expr *e);

static long eval_num(const struct expr *e)
{
	OBSERVE_TARGET();
	return e->value;
}

static long eval_add(const struct expr *e)
{
	OBSERVE_TARGET();
	long a = ICALL(e->lhs->eval(e->lhs)); /* @r0: eval_add eval_mul eval_neg eval_num */
	long b = ICALL(e->rhs->eval(e->rhs)); /* @r0: eval_add eval_mul eval_neg eval_num */
	return a + b;
}

static long eval_mul(const struct expr *e)
{
	OBSERVE_TARGET();
	long a = ICALL(e->lhs->eval(e->lhs)); /* @r0: eval_add eval_mul eval_neg eval_num */
	long b = ICALL(e->rhs->eval(e->rhs)); /* @r0: eval_add eval_mul eval_neg eval_num */
	return a * b;
}

static long eval_neg(const struct expr *e)
{
	OBSERVE_TARGET();
	return -ICALL(e->lhs->eval(e->lhs)); /* @r0: eval_add eval_mul eval_neg eval_num */
}

static long expr_size(const struct expr *e)
{
	OBSERVE_TARGET();
	long n = 1;
	if (e->lhs)
		n += ICALL(metric(e->lhs)); /* @r0: expr_depth expr_size */
	if (e->rhs)
		n += ICALL(metric(e->rhs)); /* @r0: expr_depth expr_size */
	return n;
}

static long expr_depth(const struct expr *e)
{
	OBSERVE_TARGET();
	long l = e->lhs ? ICALL(metric(e->lhs)) : 0; /* @r0: expr_depth expr_size */
	long r = e->rhs ? ICALL(metric(e->rhs)) : 0; /* @r0: expr_depth expr_size */
	return 1 + (l > r ? l : r);
}

static struct expr *mk(long (*eval)(const struct expr *), long value, const struct expr *lhs,
                       const struct expr *rhs)
{
	struct expr *e = malloc(sizeof *e);
	if (!e)
		abort();
	e->eval = eval;
	e->value = value;
	e->lhs = lhs;
	e->rhs = rhs;
	return e;
}

int main(void)
{
	/* -((2 + 3) * 4) + 7 */
	struct expr *sum = mk(eval_add, 0, mk(eval_num, 2, NULL, NULL), mk(eval_num, 3, NULL, NULL));
	struct expr *prod = mk(eval_mul, 0, sum, mk(eval_num, 4, NULL, NULL));
	struct expr *root = mk(eval_add, 0, mk(eval_neg, 0, prod, NULL), mk(eval_num, 7, NULL, NULL));

	long v = ICALL(root->eval(root)); /* @r0: eval_add eval_mul eval_neg eval_num */
	metric = expr_size;
	long size = ICALL(metric(root)); /* @r0: expr_depth expr_size */
	metric = expr_depth;
	long depth = ICALL(metric(root)); /* @r0: expr_depth expr_size */
	printf("%ld (%ld nodes, depth %ld)\n", v, size, depth);
	return 0;
}
