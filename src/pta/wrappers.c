/* wrappers.c — find allocation wrappers; see wrappers.h for the rule. */
#include "pta/wrappers.h"
#include "pta/libmodel.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/ptrmap.h"
#include "util/xalloc.h"

enum { UNKNOWN = 0, VISITING, YES, NO };

typedef struct scan {
	const ir_program *p;
	const ir_function *f;
	const bool *wrapper;
	ptrmap state;            /* value id + 1 -> state */
	ptrmap allocas;          /* value id + 1 -> 1 for f's stack slots */
} scan;

static int get(scan *sc, unsigned v) { return (int)(uintptr_t)ptrmap_get(&sc->state, (void *)(uintptr_t)(v + 1)); }
static void set(scan *sc, unsigned v, int st) { ptrmap_put(&sc->state, (void *)(uintptr_t)(v + 1), (void *)(uintptr_t)st); }

static const ir_stmt *stmts(scan *sc, unsigned *n)
{
	*n = sc->f->n_stmts;
	return &sc->p->stmts[sc->f->first_stmt];
}

static bool allocates(scan *sc, const ir_site *s)
{
	if (s->kind != SITE_DIRECT || !s->callee)
		return false;
	if (s->callee->defined)
		return sc->wrapper[s->callee->id];
	const lib_model *m = lib_model_find(s->callee->name);
	for (unsigned e = 0; m && e < m->n_effects; e++)
		if (m->effects[e].kind == LIB_ALLOC && m->effects[e].a == LIB_RET)
			return true;
	return false;
}

static bool is_slot(scan *sc, unsigned v)
{
	return v != IR_NONE && ptrmap_get(&sc->allocas, (void *)(uintptr_t)(v + 1));
}

static bool qualifies(scan *sc, unsigned v);

/* A -O0 stack slot that only ever holds qualifying values at offset 0 and is
 * used for nothing but those stores and loads. */
static bool slot_qualifies(scan *sc, unsigned slot)
{
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *s = &st[i];
		if (s->op == ST_STORE && s->dst == slot) {
			if (s->offset != 0 || !qualifies(sc, s->src))
				return false;
		} else if (s->op == ST_LOAD && s->src == slot) {
			if (s->offset != 0)
				return false;
		} else if (s->op == ST_ALLOCA && s->dst == slot) {
			continue;
		} else if ((s->op == ST_COPY || s->op == ST_GEP || s->op == ST_STORE) && s->src == slot) {
			return false;
		} else if (s->op == ST_CALL) {
			const ir_site *site = &sc->p->sites[s->site];
			for (unsigned a = 0; a < site->n_args; a++)
				if (site->args[a] == slot)
					return false;
		}
	}
	return true;
}

static bool qualifies(scan *sc, unsigned v)
{
	if (v == IR_NONE)
		return false;
	int st0 = get(sc, v);
	if (st0 == YES || st0 == VISITING)
		return true;   /* optimistic on cycles (phi loops); a NO anywhere still fails */
	if (st0 == NO)
		return false;
	set(sc, v, VISITING);
	unsigned n, defs = 0;
	bool ok = true;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned i = 0; i < n && ok; i++) {
		const ir_stmt *s = &st[i];
		if (s->op == ST_CALL && sc->p->sites[s->site].result == v) {
			defs++;
			ok = allocates(sc, &sc->p->sites[s->site]);
		} else if (s->op == ST_COPY && s->dst == v) {
			defs++;
			ok = qualifies(sc, s->src);
		} else if (s->op == ST_LOAD && s->dst == v) {
			defs++;
			ok = is_slot(sc, s->src) && s->offset == 0 && slot_qualifies(sc, s->src);
		} else if ((s->op == ST_GEP || s->op == ST_ALLOCA) && s->dst == v) {
			ok = false;
		}
	}
	ok = ok && defs > 0;   /* arguments and untracked values have no defining statement */
	set(sc, v, ok ? YES : NO);
	return ok;
}

/* Everything that aliases the new object inside f: the qualifying values,
 * their copies and GEPs, the stack slots they are stored into and the values
 * reloaded from those slots (at -O0 `p->fire = f` writes through a reload of
 * p's slot, not through the value returned). */
typedef struct taint { ptrmap values, slots; } taint;

static bool has(ptrmap *m, unsigned v) { return v != IR_NONE && ptrmap_get(m, (void *)(uintptr_t)(v + 1)); }
static bool add(ptrmap *m, unsigned v)
{
	if (v == IR_NONE || has(m, v))
		return false;
	ptrmap_put(m, (void *)(uintptr_t)(v + 1), (void *)1);
	return true;
}

static void spread_taint(scan *sc, taint *t)
{
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned i = 0; i < sc->state.cap; i++)
		if (sc->state.slots[i].key && (uintptr_t)sc->state.slots[i].value == YES)
			add(&t->values, (unsigned)((uintptr_t)sc->state.slots[i].key - 1));
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned i = 0; i < n; i++) {
			const ir_stmt *s = &st[i];
			if ((s->op == ST_COPY || s->op == ST_GEP) && has(&t->values, s->src))
				changed |= add(&t->values, s->dst);
			else if (s->op == ST_STORE && has(&t->values, s->src) && is_slot(sc, s->dst))
				changed |= add(&t->slots, s->dst);
			else if (s->op == ST_LOAD && has(&t->slots, s->src))
				changed |= add(&t->values, s->dst);
		}
	}
}

/* Nothing reads or writes through the new object, and it leaks nowhere but
 * through the return value and calls of effect-free library functions. */
static bool uses_ok(scan *sc)
{
	taint t;
	ptrmap_init(&t.values);
	ptrmap_init(&t.slots);
	spread_taint(sc, &t);
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	bool ok = true;
	for (unsigned i = 0; i < n && ok; i++) {
		const ir_stmt *s = &st[i];
		switch (s->op) {
		case ST_STORE:
			if (has(&t.values, s->dst))
				ok = false;   /* writes into the new object */
			else if (has(&t.values, s->src))
				ok = has(&t.slots, s->dst) && s->offset == 0 && slot_qualifies(sc, s->dst);
			else if (has(&t.slots, s->src))
				ok = false;   /* the slot's address escapes */
			break;
		case ST_LOAD:
			if (has(&t.values, s->src) || (has(&t.slots, s->src) && s->offset != 0))
				ok = false;   /* reads the new object */
			break;
		case ST_GEP:
			if (has(&t.values, s->src) || has(&t.slots, s->src))
				ok = false;   /* a field address of it */
			break;
		case ST_COPY:
			if (has(&t.slots, s->src))
				ok = false;
			break;
		case ST_CALL: {
			const ir_site *site = &sc->p->sites[s->site];
			for (unsigned a = 0; a < site->n_args && ok; a++) {
				if (has(&t.slots, site->args[a]))
					ok = false;
				else if (has(&t.values, site->args[a])) {
					const lib_model *m = site->kind == SITE_DIRECT && site->callee && !site->callee->defined
					                         ? lib_model_find(site->callee->name) : NULL;
					ok = m && m->n_effects == 0;
				}
			}
			break;
		}
		default:
			break;
		}
	}
	ptrmap_free(&t.values);
	ptrmap_free(&t.slots);
	return ok;
}

static bool is_wrapper(const ir_program *p, const ir_function *f, const bool *wrapper)
{
	if (!f->defined || !f->returns_tracked || f->n_stmts == 0)
		return false;
	scan sc = {p, f, wrapper, {0}, {0}};
	ptrmap_init(&sc.state);
	ptrmap_init(&sc.allocas);
	unsigned n, rets = 0;
	bool ok = true;
	const ir_stmt *st = stmts(&sc, &n);
	for (unsigned i = 0; i < n; i++)   /* once, not per query: the checks ask often */
		if (st[i].op == ST_ALLOCA && st[i].dst != IR_NONE)
			ptrmap_put(&sc.allocas, (void *)(uintptr_t)(st[i].dst + 1), (void *)1);
	for (unsigned i = 0; i < n && ok; i++)
		if (st[i].op == ST_RET) {
			rets++;
			ok = qualifies(&sc, st[i].src);
		}
	ok = ok && rets > 0 && uses_ok(&sc);
	ptrmap_free(&sc.state);
	ptrmap_free(&sc.allocas);
	return ok;
}

bool *pta_find_wrappers(const ir_program *p)
{
	bool *wrapper = xcalloc(p->n_functions ? p->n_functions : 1, sizeof *wrapper);
	/* Wrappers of wrappers: iterate until no function changes. */
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned i = 0; i < p->n_functions; i++)
			if (!wrapper[i] && is_wrapper(p, p->functions[i], wrapper)) {
				wrapper[i] = true;
				changed = true;
			}
	}
	return wrapper;
}
