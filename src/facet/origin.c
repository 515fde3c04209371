/* origin.c — what the program declares about a value a store writes into a
 * function-pointer field: Add-Store's "established flow" (classify.c).
 *
 * Algorithm 1's form 1 takes every function in the stored value's
 * points-to set, and the points-to set of a data pointer can hold
 * functions (a collapsed object, an unmodelled library's memory, a helper
 * that returns what it was given). F keeps them all, so refutations stay
 * sound; but an *add* needs a flow the program establishes: the value is a
 * function constant, or something the source declares as a function
 * pointer, or at least nothing the source declares as data. The walk goes
 * back through copies, casts and phis to where the value is made. */
#include "facet/internal.h"

enum { ORIGIN_DEPTH = 12 };

static bool is_data_pointer(di_type *t)
{
	t = di_strip(t);
	if (!t || t->kind != DI_POINTER)
		return false;
	di_type *p = di_strip(t->base);
	return p && p->kind != DI_SUBROUTINE;   /* void * is anybody's */
}

/* A declared type's verdict: a function pointer (or a union holding one),
 * data, or nothing said. */
static value_origin of_type(di_type *t)
{
	if (sig_of_pointer(t))
		return ORIGIN_FN_TYPED;
	di_type *u = di_strip(t);
	for (unsigned i = 0; u && u->kind == DI_UNION && i < u->n_members; i++)
		if (sig_of_pointer(u->members[i].type))
			return ORIGIN_FN_TYPED;
	return is_data_pointer(t) ? ORIGIN_DATA : ORIGIN_UNKNOWN;
}

/* Merging the operands of a phi: any function-typed operand makes it one;
 * it is data only when every operand is. */
static value_origin merge(value_origin a, value_origin b, bool first)
{
	if (first)
		return b;
	if (a == ORIGIN_FUNCTION || a == ORIGIN_FN_TYPED || b == ORIGIN_FUNCTION || b == ORIGIN_FN_TYPED)
		return ORIGIN_FN_TYPED;
	return a == ORIGIN_DATA && b == ORIGIN_DATA ? ORIGIN_DATA : ORIGIN_UNKNOWN;
}

static value_origin of_call(facet_ctx *x, const ir_site *s)
{
	if (s->kind != SITE_DIRECT || !s->callee)
		return ORIGIN_UNKNOWN;
	const ir_function *f = s->callee;
	if (!f->defined && !f->intrinsic)
		return ORIGIN_DATA;   /* unmodelled code outside the module hands back no function we can vouch for */
	if (f->di_sig && f->di_sig->n_params > 0)
		return of_type(f->di_sig->params[0]);
	(void)x;
	return ORIGIN_UNKNOWN;
}

static value_origin origin(facet_ctx *x, unsigned v, int depth)
{
	const ir_program *p = x->prog;
	if (v >= p->n_values || depth > ORIGIN_DEPTH)
		return ORIGIN_UNKNOWN;
	if (x->ix.function_of_value[v])
		return ORIGIN_FUNCTION;
	/* A variable record on the value says what the source calls it. */
	value_origin said = ORIGIN_UNKNOWN;
	for (unsigned k = x->ix.value_binding[v]; k; k = x->ix.next_binding[k - 1]) {
		value_origin o = of_type(p->bindings[k - 1].var->type);
		if (o == ORIGIN_FN_TYPED)
			return o;
		if (o == ORIGIN_DATA)
			said = o;
	}
	if (said == ORIGIN_DATA)
		return said;
	unsigned n = x->ix.def_start[v + 1] - x->ix.def_start[v];
	if (n > 1) {
		value_origin m = ORIGIN_UNKNOWN;
		for (unsigned i = 0; i < n; i++) {
			const ir_stmt *d = &p->stmts[x->ix.defs[x->ix.def_start[v] + i]];
			m = merge(m, d->op == ST_COPY ? origin(x, d->src, depth + 1) : ORIGIN_UNKNOWN, i == 0);
		}
		return m;
	}
	if (n == 0)
		return ORIGIN_UNKNOWN;   /* an argument without a record, a constant we do not track */
	const ir_stmt *d = &p->stmts[x->ix.defs[x->ix.def_start[v]]];
	switch (d->op) {
	case ST_COPY:
		return origin(x, d->src, depth + 1);
	case ST_LOAD: {
		/* Loaded from a declared field, slot or variable: its declared type. */
		key_result k = dispatch_key(x, d->src, d->offset);
		return k.member_type ? of_type(k.member_type) : ORIGIN_UNKNOWN;
	}
	case ST_CALL:
		return of_call(x, &p->sites[d->site]);
	default:
		return ORIGIN_UNKNOWN;
	}
}

value_origin facet_value_origin(facet_ctx *x, unsigned v)
{
	return origin(x, v, 0);
}
