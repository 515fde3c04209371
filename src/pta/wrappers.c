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
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned i = 0; i < n; i++)
		if (st[i].op == ST_ALLOCA && st[i].dst == v)
			return true;
	return false;
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

/* Nothing reads, writes or leaks through a qualifying value but returns,
 * copies into qualifying values, stores into qualifying slots and calls of
 * effect-free library functions. */
static bool uses_ok(scan *sc)
{
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *s = &st[i];
		bool src_q = s->src != IR_NONE && get(sc, s->src) == YES;
		switch (s->op) {
		case ST_STORE:
			if (get(sc, s->dst) == YES && !is_slot(sc, s->dst))
				return false;   /* writes into the new object */
			if (src_q && !(is_slot(sc, s->dst) && get(sc, s->dst) != NO && slot_qualifies(sc, s->dst)))
				return false;   /* escapes into memory */
			break;
		case ST_LOAD: case ST_GEP:
			if (src_q && !is_slot(sc, s->src))
				return false;
			break;
		case ST_COPY:
			if (src_q && get(sc, s->dst) != YES)
				return false;
			break;
		case ST_CALL: {
			const ir_site *site = &sc->p->sites[s->site];
			for (unsigned a = 0; a < site->n_args; a++) {
				if (site->args[a] == IR_NONE || get(sc, site->args[a]) != YES)
					continue;
				const lib_model *m = site->kind == SITE_DIRECT && site->callee && !site->callee->defined
				                         ? lib_model_find(site->callee->name) : NULL;
				if (!m || m->n_effects != 0)
					return false;
			}
			break;
		}
		default:
			break;
		}
	}
	return true;
}

static bool is_wrapper(const ir_program *p, const ir_function *f, const bool *wrapper)
{
	if (!f->defined || !f->returns_tracked || f->n_stmts == 0)
		return false;
	scan sc = {p, f, wrapper, {0}};
	ptrmap_init(&sc.state);
	unsigned n, rets = 0;
	bool ok = true;
	const ir_stmt *st = stmts(&sc, &n);
	for (unsigned i = 0; i < n && ok; i++)
		if (st[i].op == ST_RET) {
			rets++;
			ok = qualifies(&sc, st[i].src);
		}
	ok = ok && rets > 0 && uses_ok(&sc);
	ptrmap_free(&sc.state);
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
