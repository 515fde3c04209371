/* wrappers.c — find allocation wrappers; see wrappers.h for the rule. */
#include "pta/wrappers.h"
#include "pta/libmodel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/intmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

enum { UNKNOWN = 0, VISITING, YES, NO };

typedef VEC(unsigned) site_list;

typedef struct scan {
	const ir_program *p;
	const ir_function *f;
	const bool *wrapper;
	bool *role;              /* by function id: may carve (see wrappers.h); grown here */
	bool role_grew;          /* out: a callee was given the role */
	bool carves;             /* out: a returned value is carved from a block */
	int copies;              /* f copies memory (see copies_memory): 0 not known yet, 1 no, 2 yes */
	intmap state;            /* value id -> state (absent: 0) */
	intmap allocas;          /* value id -> 1 for f's stack slots */
	intmap bases;            /* block_base: values already seen in this search */
} scan;

static int get(scan *sc, unsigned v) { return (int)intmap_get_or(&sc->state, v, 0); }
static void set(scan *sc, unsigned v, int st) { intmap_put(&sc->state, v, (uint64_t)st); }

static const ir_stmt *stmts(scan *sc, unsigned *n)
{
	*n = sc->f->n_stmts;
	return &sc->p->stmts[sc->f->first_stmt];
}

/* An allocator, a wrapper, or an indirect call (a wrapper on condition of its
 * targets, decided while solving; see wrappers.h). */
static bool allocates(scan *sc, const ir_site *s)
{
	if (s->kind == SITE_INDIRECT)
		return s->callee_value != IR_NONE;
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
	return v != IR_NONE && intmap_get(&sc->allocas, v, NULL);
}

static bool qualifies(scan *sc, unsigned v);

/* A library function that copies memory (memcpy, memmove, realloc). */
static bool lib_copies(const ir_function *g)
{
	const lib_model *m = g->defined ? NULL : lib_model_find(g->name);
	for (unsigned e = 0; m && e < m->n_effects; e++)
		if (m->effects[e].kind == LIB_COPY_MEM)
			return true;
	return false;
}

/* f, or a wrapper it calls (two levels down), calls a library function that
 * copies memory. */
static bool calls_copier(const ir_program *p, const ir_function *f, const bool *wrapper, int depth)
{
	for (unsigned i = 0; i < f->n_stmts; i++) {
		const ir_stmt *s = &p->stmts[f->first_stmt + i];
		const ir_site *site = s->op == ST_CALL ? &p->sites[s->site] : NULL;
		if (!site || site->kind != SITE_DIRECT || !site->callee)
			continue;
		if (lib_copies(site->callee))
			return true;
		if (site->callee->defined && wrapper[site->callee->id] && depth < 2 &&
		    calls_copier(p, site->callee, wrapper, depth + 1))
			return true;
	}
	return false;
}

/* Whether f copies memory: a growing table moves its contents into the new
 * block (memcpy, realloc) and is no pool, whose blocks are never copied. */
static bool copies_memory(scan *sc)
{
	if (!sc->copies)
		sc->copies = calls_copier(sc->p, sc->f, sc->wrapper, 0) ? 2 : 1;
	return sc->copies == 2;
}

/* -O0: load d reloads a stack slot of f into which some store puts the
 * result of an allocation made by f, possibly through copies, geps and
 * other slots (`hdr = get_small(n); ... data = (char *)hdr;`). Only where a
 * block may come from is asked, not what else the slot holds. */
static bool fresh_in_slot(scan *sc, const ir_stmt *d, int depth)
{
	if (d->offset != 0 || !is_slot(sc, d->src) || depth > 4)
		return false;
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned k = 0; k < n; k++) {
		if (st[k].op != ST_STORE || st[k].dst != d->src || st[k].offset != 0)
			continue;
		unsigned v = st[k].src;
		for (int hops = 0; v != IR_NONE && hops < 8; hops++) {
			unsigned next = IR_NONE;
			for (unsigned i = 0; i < n && next == IR_NONE; i++) {
				const ir_stmt *e = &st[i];
				if (e->op == ST_CALL && sc->p->sites[e->site].result == v) {
					if (allocates(sc, &sc->p->sites[e->site]))
						return true;
					break;
				}
				if (e->dst != v)
					continue;
				if (e->op == ST_COPY || e->op == ST_GEP)
					next = e->src;
				else if (e->op == ST_LOAD && fresh_in_slot(sc, e, depth + 1))
					return true;
			}
			v = next;
		}
	}
	return false;
}

/* u is a block's address: not a stack slot of f, and every definition of it
 * (a phi has several) that is a gep or a copy is of a block's address too;
 * *var is set when a gep on the way has a variable offset, *fresh when a
 * definition is an allocation made by f (a call of an allocator or a
 * wrapper). Where the block came from (read from the pool, just allocated,
 * a parameter) does not matter when f has the role; without it, a block
 * that f allocates itself on some path says f is a pool (see wrappers.h). */
static bool block_base(scan *sc, unsigned u, int depth, bool *var, bool *fresh)
{
	if (u == IR_NONE || depth > 16 || is_slot(sc, u))
		return false;
	/* Seen: in progress (a phi cycle) or found good; a bad one ended the
	 * search already. Each value once, however many paths reach it. */
	if (intmap_get(&sc->bases, u, NULL))
		return true;
	intmap_put(&sc->bases, u, 1);
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *d = &st[i];
		if (d->op == ST_CALL && sc->p->sites[d->site].result == u) {
			*fresh |= allocates(sc, &sc->p->sites[d->site]);
			continue;
		}
		if (d->op == ST_LOAD && d->dst == u && !*fresh)
			*fresh = fresh_in_slot(sc, d, 0);
		if (d->dst != u || (d->op != ST_GEP && d->op != ST_COPY))
			continue;
		*var |= d->op == ST_GEP && d->var_offset;
		if (!block_base(sc, d->src, depth + 1, var, fresh))
			return false;
	}
	return true;
}

/* gep is a pointer carved out of a block: a chain of geps, one at least with
 * a variable offset, from a block's address: `BLOCK_DATA(pool->block) +
 * (size - left)`; by an allocator by role, or by a pool that allocates the
 * block itself on some path and copies no memory. */
static bool carved(scan *sc, const ir_stmt *gep)
{
	bool var = gep->var_offset, fresh = false;
	intmap_free(&sc->bases);
	intmap_init(&sc->bases);
	if (!block_base(sc, gep->src, 0, &var, &fresh) || !var)
		return false;
	return sc->role[sc->f->id] || (fresh && !copies_memory(sc));
}

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
			const ir_site *site = &sc->p->sites[s->site];
			ok = allocates(sc, site);
			/* An allocator by role returning what a direct callee returns:
			 * the callee may carve too (the next round decides). */
			if (!ok && sc->role[sc->f->id] && site->kind == SITE_DIRECT && site->callee &&
			    site->callee->defined && !sc->role[site->callee->id]) {
				sc->role[site->callee->id] = true;
				sc->role_grew = true;
			}
		} else if (s->op == ST_GEP && s->dst == v && carved(sc, s)) {
			defs++;
			sc->carves = true;
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
typedef struct taint { intmap values, slots; } taint;

static bool has(intmap *m, unsigned v) { return v != IR_NONE && intmap_get(m, v, NULL); }
static bool add(intmap *m, unsigned v)
{
	if (v == IR_NONE || has(m, v))
		return false;
	intmap_put(m, v, 1);
	return true;
}

static void spread_taint(scan *sc, taint *t)
{
	unsigned n;
	const ir_stmt *st = stmts(sc, &n);
	uint64_t key, v;
	for (size_t it = 0; intmap_next(&sc->state, &it, &key, &v);)
		if (v == YES)
			add(&t->values, (unsigned)key);
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
	intmap_init(&t.values);
	intmap_init(&t.slots);
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
	intmap_free(&t.values);
	intmap_free(&t.slots);
	return ok;
}

/* Whether f is a wrapper; if so and `sources` is given, the call sites whose
 * results it returns go there and *carves says whether it carves. */
static bool is_wrapper(const ir_program *p, const ir_function *f, const bool *wrapper, bool *role,
                       bool *role_grew, site_list *sources, bool *carves)
{
	if (!f->defined || !f->returns_tracked || f->n_stmts == 0)
		return false;
	scan sc = {p, f, wrapper, role, false, false, 0, {0}, {0}, {0}};
	intmap_init(&sc.state);
	intmap_init(&sc.allocas);
	intmap_init(&sc.bases);
	unsigned n, rets = 0;
	bool ok = true;
	const ir_stmt *st = stmts(&sc, &n);
	for (unsigned i = 0; i < n; i++)   /* once, not per query: the checks ask often */
		if (st[i].op == ST_ALLOCA && st[i].dst != IR_NONE)
			intmap_put(&sc.allocas, st[i].dst, 1);
	for (unsigned i = 0; i < n && ok; i++)
		if (st[i].op == ST_RET) {
			rets++;
			ok = qualifies(&sc, st[i].src);
		}
	ok = ok && rets > 0 && uses_ok(&sc);
	for (unsigned i = 0; ok && sources && i < n; i++)
		if (st[i].op == ST_CALL) {
			const ir_site *s = &p->sites[st[i].site];
			if (s->result != IR_NONE && get(&sc, s->result) == YES)
				VEC_PUSH(sources, s->id);
		}
	if (carves)
		*carves = ok && sc.carves;
	if (role_grew)
		*role_grew |= sc.role_grew;
	intmap_free(&sc.state);
	intmap_free(&sc.allocas);
	intmap_free(&sc.bases);
	return ok;
}

static bool lib_allocator(const ir_function *f)
{
	const lib_model *m = f->defined ? NULL : lib_model_find(f->name);
	for (unsigned e = 0; m && e < m->n_effects; e++)
		if (m->effects[e].kind == LIB_ALLOC && m->effects[e].a == LIB_RET)
			return true;
	return false;
}

typedef struct slot_key { const char *type; uint64_t offset; } slot_key;

/* The method-table slot that byte `offset` of global g is: its debug type's
 * struct name and the offset in one element (an array of tables repeats
 * the slots), else its IR type (the IR linker merges structurally equal
 * struct types, so two tables of eight pointers share one). False for a
 * piece of a split variable. */
static bool slot_of(const ir_global *g, uint64_t offset, slot_key *out)
{
	if (g->var_fragment)
		return false;
	di_type *t = g->var ? di_strip(g->var->type) : NULL;
	if (t && t->kind == DI_ARRAY)
		t = di_strip(t->base);
	if (t && (t->kind == DI_STRUCT || t->kind == DI_UNION) && t->name && t->size_bits >= 8) {
		out->type = t->name;
		out->offset = offset % (t->size_bits / 8);
		return true;
	}
	if (g->var)
		return false;   /* debug info that names no struct: no table */
	out->type = g->ir_type;
	out->offset = offset;
	return out->type != NULL;
}

static bool same_slot(slot_key a, slot_key b)
{
	return a.offset == b.offset && (a.type == b.type || (a.type && b.type && !strcmp(a.type, b.type)));
}

/* Allocators by role: a method table's slot (the IR type of a global, a byte
 * offset) that some initializer fills with an allocator (a library one or a
 * wrapper) is an allocator's slot, and every defined function any
 * initializer puts there may carve. Returns whether a function got the role. */
static bool grant_roles(const ir_program *p, const bool *wrapper, bool *role)
{
	VEC(slot_key) keys = {0};
	for (unsigned g = 0; g < p->n_globals; g++) {
		const ir_global *gl = p->globals[g];
		for (unsigned k = 0; k < gl->n_slots; k++) {
			const ir_function *f = gl->slots[k].function;
			if (gl->slots[k].kind != SLOT_FUNCTION || !f || !(f->defined ? wrapper[f->id] : lib_allocator(f)))
				continue;
			slot_key key;
			if (!slot_of(gl, gl->slots[k].offset, &key))
				continue;
			bool seen = false;
			for (size_t i = 0; i < keys.len && !seen; i++)
				seen = same_slot(keys.items[i], key);
			if (!seen)
				VEC_PUSH(&keys, key);
		}
	}
	bool grew = false;
	for (unsigned g = 0; keys.len && g < p->n_globals; g++) {
		const ir_global *gl = p->globals[g];
		for (unsigned k = 0; k < gl->n_slots; k++) {
			const ir_function *f = gl->slots[k].function;
			slot_key key;
			if (gl->slots[k].kind != SLOT_FUNCTION || !f || !f->defined || role[f->id] ||
			    !slot_of(gl, gl->slots[k].offset, &key))
				continue;
			for (size_t i = 0; i < keys.len; i++)
				if (same_slot(keys.items[i], key)) {
					role[f->id] = grew = true;
					break;
				}
		}
	}
	VEC_FREE(&keys);
	return grew;
}

pta_wrappers *pta_find_wrappers(const ir_program *p)
{
	pta_wrappers *w = xcalloc(1, sizeof *w);
	unsigned nf = p->n_functions ? p->n_functions : 1;
	w->is_wrapper = xcalloc(nf, sizeof *w->is_wrapper);
	w->carves = xcalloc(nf, sizeof *w->carves);
	w->sources = xcalloc(nf, sizeof *w->sources);
	w->n_sources = xcalloc(nf, sizeof *w->n_sources);
	w->n_functions = p->n_functions;
	bool *role = xcalloc(nf, sizeof *role);
	/* Wrappers of wrappers, and the roles they give: iterate until no
	 * function changes. */
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned i = 0; i < p->n_functions; i++)
			if (!w->is_wrapper[i] && is_wrapper(p, p->functions[i], w->is_wrapper, role, &changed, NULL, NULL)) {
				w->is_wrapper[i] = true;
				changed = true;
			}
		changed |= grant_roles(p, w->is_wrapper, role);
	}
	for (unsigned i = 0; i < p->n_functions; i++) {
		if (!w->is_wrapper[i])
			continue;
		site_list src = {0};
		is_wrapper(p, p->functions[i], w->is_wrapper, role, NULL, &src, &w->carves[i]);
		w->sources[i] = src.items;
		w->n_sources[i] = (unsigned)src.len;
		w->n_wrappers++;
		w->n_carving += w->carves[i];
		bool via = false;
		for (size_t k = 0; k < src.len; k++)
			via |= p->sites[src.items[k]].kind == SITE_INDIRECT;
		w->n_via_pointer += via;
	}
	free(role);
	return w;
}

void pta_wrappers_free(pta_wrappers *w)
{
	if (!w)
		return;
	free(w->is_wrapper);
	free(w->carves);
	free(w->n_sources);
	for (unsigned i = 0; i < w->n_functions; i++)
		free(w->sources[i]);
	free(w->sources);
	free(w);
}

static int param_index(const ir_function *f, unsigned v)
{
	return v != IR_NONE && v >= f->first_arg && v < f->first_arg + f->n_args ? (int)(v - f->first_arg) : -1;
}

int pta_param_of(const ir_program *p, const ir_function *f, unsigned v)
{
	int j = param_index(f, v);
	if (j >= 0 || v == IR_NONE || !f->defined)
		return j;
	const ir_stmt *st = &p->stmts[f->first_stmt];
	unsigned slot = IR_NONE;
	for (unsigned i = 0; i < f->n_stmts && slot == IR_NONE; i++)
		if (st[i].op == ST_LOAD && st[i].dst == v && st[i].offset == 0)
			slot = st[i].src;
	if (slot == IR_NONE)
		return -1;
	int found = -1;
	for (unsigned i = 0; i < f->n_stmts; i++) {
		const ir_stmt *s = &st[i];
		if (s->op == ST_ALLOCA && s->dst == slot)
			continue;
		if (s->op == ST_LOAD && s->src == slot && s->offset == 0)
			continue;
		if (s->op == ST_STORE && s->dst == slot && s->offset == 0) {
			int k = param_index(f, s->src);
			if (k < 0 || (found >= 0 && k != found))
				return -1;
			found = k;
			continue;
		}
		if ((s->op == ST_STORE || s->op == ST_COPY || s->op == ST_GEP) && s->src == slot)
			return -1;   /* the slot's address escapes */
		if (s->op == ST_CALL)
			for (unsigned a = 0; a < p->sites[s->site].n_args; a++)
				if (p->sites[s->site].args[a] == slot)
					return -1;
	}
	return found;
}
