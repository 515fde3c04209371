/* receivers.c — calls whose callee and some arguments are read from one
 * object (receivers.h). Pure reading of the program model: which value,
 * which loads; andersen.c does the binding. */
#include "pta/receivers.h"

#include <string.h>

/* Values visited walking back from a value: itself first. */
#define WALK_STEPS 12

typedef struct cand {
	unsigned value;
	uint64_t key;      /* the value, or the single-store slot a load of it reads (bit 32 set) */
	pta_chain chain;   /* from this value to the walk's start */
} cand;

static const ir_stmt *only_def(const ir_program *p, const ir_index *ix, unsigned v)
{
	return v != IR_NONE && ir_index_n_defs(p, ix, v) == 1 ? ir_index_def(p, ix, v, 0) : NULL;
}

/* A stack slot of f stored once, at offset 0, and otherwise only loaded
 * from: every load of it reads the one value stored. */
static bool single_store_slot(const ir_program *p, const ir_index *ix, const ir_function *f, unsigned slot)
{
	const ir_stmt *a = only_def(p, ix, slot);
	if (!a || a->op != ST_ALLOCA)
		return false;
	unsigned stores = 0;
	for (unsigned k = 0; k < f->n_stmts; k++) {
		const ir_stmt *st = &p->stmts[f->first_stmt + k];
		if (st->op == ST_CALL) {
			const ir_site *c = &p->sites[st->site];
			for (unsigned i = 0; i < c->n_args; i++)
				if (c->args[i] == slot)
					return false;
			if (c->callee_value == slot)
				return false;
		} else if (st->op == ST_STORE && st->dst == slot && st->offset == 0 && st->src != slot)
			stores++;
		else if (st->op != ST_LOAD && st->op != ST_ALLOCA && (st->src == slot || st->dst == slot))
			return false;
	}
	return stores == 1;
}

static uint64_t value_key(const ir_program *p, const ir_index *ix, const ir_function *f, unsigned v)
{
	const ir_stmt *d = only_def(p, ix, v);
	if (d && d->op == ST_LOAD && d->offset == 0 && d->src != IR_NONE && single_store_slot(p, ix, f, d->src))
		return 1ull << 32 | d->src;
	return v;
}

/* Walks back from v through single definitions by loads and constant GEPs;
 * out[i]: the i-th value met and its chain to v. Returns how many. */
static unsigned walk(const ir_program *p, const ir_index *ix, const ir_function *f, unsigned v, cand *out)
{
	int64_t off[PTA_CHAIN_LOADS], tail = 0;
	unsigned n = 0, k = 0;
	while (k < WALK_STEPS && v != IR_NONE) {
		cand *c = &out[k++];
		c->value = v;
		c->key = value_key(p, ix, f, v);
		c->chain = (pta_chain){.n = n, .tail = tail};
		for (unsigned i = 0; i < n; i++)
			c->chain.off[i] = off[n - 1 - i];
		const ir_stmt *d = only_def(p, ix, v);
		if (!d || d->src == IR_NONE)
			break;
		if (d->op == ST_LOAD && n < PTA_CHAIN_LOADS)
			off[n++] = d->offset;
		else if (d->op == ST_GEP && !d->var_offset && n)
			off[n - 1] += d->offset;
		else if (d->op == ST_GEP && !d->var_offset)
			tail += d->offset;
		else
			break;
		v = d->src;
	}
	return k;
}

bool pta_paired_call(const ir_program *p, const ir_index *ix, const ir_site *s, pta_paired *out)
{
	const ir_function *f = s->caller;
	if (!f || s->kind != SITE_INDIRECT || s->callee_value == IR_NONE)
		return false;
	cand callee[WALK_STEPS], arg[WALK_STEPS];
	unsigned nc = walk(p, ix, f, s->callee_value, callee);
	memset(out, 0, sizeof *out);
	/* The nearest base first: the object the callee is a field of. */
	for (unsigned b = 1; b < nc && !out->n_args; b++) {
		if (callee[b].chain.n == 0 || callee[b].chain.tail)
			continue;
		for (unsigned i = 0; i < s->n_args && out->n_args < PTA_PAIRED_ARGS; i++) {
			unsigned na = s->args[i] == IR_NONE ? 0 : walk(p, ix, f, s->args[i], arg);
			for (unsigned j = 0; j < na; j++)
				if (arg[j].key == callee[b].key) {
					out->arg[out->n_args] = i;
					out->chain[out->n_args++] = arg[j].chain;
					break;
				}
		}
		out->base = callee[b].value;
		out->callee = callee[b].chain;
	}
	return out->n_args > 0;
}
