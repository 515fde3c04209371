/* dispatch.c — dispatched-field recovery from debug layouts (§3.2.1).
 *
 * An address is walked back through its chain of address computations
 * (GEPs, summing constant byte offsets) to a base pointer; the type of what
 * the base points to is found by the paper's three steps, in order:
 *   ❶ direct: a debug record binds the base itself (a #dbg_value with an
 *     empty expression — a record with a non-empty expression describes a
 *     location derived from the base, not the base), or the base is a stack
 *     slot with a #dbg_declare, or a global with its debug variable;
 *   ❷ chained: the base was loaded from a field of a receiver resolved by
 *     the same steps; the field's recorded type names the pointee (depth
 *     cap 4, counting loads from the resolved receiver);
 *   ❸ typed access: a GEP of unoptimised IR names a struct, or a local
 *     struct's slot has no #dbg_declare and its alloca names one; the name is
 *     looked up in the debug info.
 * The field at the offset is then found in the layout (locate), descending
 * into embedded structs, stopping at a union (one location), keying a plain
 * global function pointer or a global array of them on the variable.
 *
 * The same resolution keys the store side (assign.c), so a site and the
 * writes into the field it loads from meet on one key. */
#include "facet/internal.h"

#include <stdio.h>
#include <string.h>

#include "facet/sig.h"

enum { CHAIN_CAP = 4, WALK_CAP = 64 };

/* ---- context -------------------------------------------------------------------- */

static bool is_record(const di_type *t)
{
	return t && (t->kind == DI_STRUCT || t->kind == DI_UNION);
}

/* A pointer's type is the most useful when it names a struct. */
static int binding_rank(const ir_dbg_binding *b)
{
	di_type *t = di_strip(b->var->type);
	if (!t || t->kind != DI_POINTER)
		return 0;
	di_type *p = di_strip(t->base);
	return is_record(p) ? 3 : p ? 2 : 1;
}

static void index_records(facet_ctx *x)
{
	const ir_program *p = x->prog;
	strmap_init(&x->record_by_name);
	ptrmap_init(&x->typedef_of_record);
	for (unsigned i = 0; i < p->n_types; i++) {
		di_type *t = p->types[i];
		if (is_record(t) && t->name && !t->forward_decl && t->n_members > 0 &&
		    !strmap_has(&x->record_by_name, t->name))
			strmap_put(&x->record_by_name, t->name, t);
	}
	for (unsigned i = 0; i < p->n_types; i++) {
		di_type *t = p->types[i];
		if (t->kind != DI_TYPEDEF || !t->name)
			continue;
		di_type *r = di_strip(t->base);
		if (!is_record(r) || r->n_members == 0)
			continue;
		if (!r->name && !ptrmap_get(&x->typedef_of_record, r))
			ptrmap_put(&x->typedef_of_record, r, (void *)t->name);
		if (!strmap_has(&x->record_by_name, t->name))
			strmap_put(&x->record_by_name, t->name, r);
	}
}

enum { SLOT_NONE, SLOT_PRIVATE, SLOT_ESCAPED };

static void escape(unsigned char *state, unsigned nv, unsigned v)
{
	if (v < nv && state[v])
		state[v] = SLOT_ESCAPED;
}

typedef struct slot_states {
	const unsigned char *state;   /* per value: SLOT_NONE, SLOT_PRIVATE, SLOT_ESCAPED */
	unsigned n;
} slot_states;

/* The stores into a private slot. */
static unsigned slot_store_key(const ir_stmt *st, const void *aux)
{
	const slot_states *ss = aux;
	return st->op == ST_STORE && st->dst < ss->n && ss->state[st->dst] == SLOT_PRIVATE ? st->dst : IR_NONE;
}

/* The stores into each private slot: an alloca whose address is used only
 * by whole-slot loads and stores (not stored, passed, offset or merged), so
 * those stores are all that can be loaded from it. A callee loaded from one
 * (`h = p->cb; h(x)` at -O0, a volatile local at -O2) is keyed by what was
 * stored there (value_key). */
static void index_slots(facet_ctx *x)
{
	const ir_program *p = x->prog;
	unsigned nv = p->n_values;
	unsigned char *state = xcalloc(nv + 1, 1);
	for (unsigned i = 0; i < p->n_stmts; i++)
		if (p->stmts[i].op == ST_ALLOCA && p->stmts[i].dst < nv)
			state[p->stmts[i].dst] = SLOT_PRIVATE;
	for (unsigned i = 0; i < p->n_stmts; i++) {
		const ir_stmt *st = &p->stmts[i];
		switch (st->op) {
		case ST_STORE:
			escape(state, nv, st->src);
			if (st->offset != 0 || st->var_offset)
				escape(state, nv, st->dst);
			break;
		case ST_LOAD:
			if (st->offset != 0 || st->var_offset)
				escape(state, nv, st->src);
			break;
		case ST_COPY: case ST_GEP: case ST_RET:
			escape(state, nv, st->src);
			break;
		case ST_CALL: {
			const ir_site *s = &p->sites[st->site];
			if (s->kind == SITE_DIRECT && s->callee && strncmp(s->callee->name, "llvm.lifetime.", 14) == 0)
				break;   /* marks the slot live or dead: neither reads nor writes it */
			for (unsigned a = 0; a < s->n_args; a++)
				escape(state, nv, s->args[a]);
			escape(state, nv, s->callee_value);
			break;
		}
		case ST_ALLOCA:
			break;
		}
	}
	slot_states states = {state, nv};
	ir_csr_build(p, slot_store_key, &states, &x->slot_store_start, &x->slot_stores);
	free(state);
}

void dispatch_init(facet_ctx *x)
{
	ir_index_build(x->prog, &x->ix);
	index_records(x);
	index_slots(x);
}

void dispatch_free(facet_ctx *x)
{
	free(x->slot_store_start);
	free(x->slot_stores);
	ir_index_free(&x->ix);
	strmap_free(&x->record_by_name);
	ptrmap_free(&x->typedef_of_record);
}

const char *dispatch_record_name(facet_ctx *x, di_type *record)
{
	if (record->name)
		return record->name;
	const char *td = ptrmap_get(&x->typedef_of_record, record);
	if (td)
		return td;
	return arena_printf(x->arena, "<anonymous %s:%u>", record->loc.file ? record->loc.file : "?", record->loc.line);
}

/* A struct known here only by a declaration: its definition from another unit. */
static di_type *complete(facet_ctx *x, di_type *t)
{
	t = di_strip(t);
	if (is_record(t) && (t->forward_decl || t->n_members == 0) && t->name) {
		di_type *def = strmap_get(&x->record_by_name, t->name);
		if (def)
			return def;
	}
	return t;
}

/* ---- the layout: which member holds byte k --------------------------------------- */

typedef struct place {
	di_type *record;           /* the named struct/union keyed on; NULL: the object is no record */
	uint64_t offset;           /* of the member in record */
	const char *member;        /* path from record: "create_loc_conf", "u", "pub._upsample" */
	di_type *type;             /* the member's declared type */
	bool array;                /* the member is an array of function pointers: offset is the element's */
	uint64_t array_start;      /* array: the member's offset in record */
	uint64_t array_bytes;      /* array: its size */
	const char *array_member;  /* array: the member's path without an index */
	bool in_array;             /* the byte lies in an array member (of any element type) */
} place;

static const di_member *member_at(const di_type *t, uint64_t k)
{
	const di_member *hit = NULL;
	for (unsigned i = 0; i < t->n_members; i++) {
		const di_member *m = &t->members[i];
		if (m->bitfield)
			continue;
		uint64_t mo = m->offset_bits / 8, ms = m->size_bits / 8;
		if (!ms && m->type)
			ms = di_strip(m->type) ? di_strip(m->type)->size_bits / 8 : 0;
		if (mo <= k && (k < mo + ms || (!ms && k == mo)))
			hit = m;   /* the last one: a zero-sized member shares its offset */
	}
	return hit;
}

static const char *join(facet_ctx *x, const char *path, const char *name)
{
	if (!path || !*path)
		return name;
	return arena_printf(x->arena, "%s.%s", path, name);
}

static di_type *element_of(facet_ctx *x, di_type *array)
{
	di_type *e = array;
	while (e && e->kind == DI_ARRAY)
		e = complete(x, e->base);
	return e;
}

/* The member of an object of type t holding byte k. Returns false when the
 * layout has nothing there. */
static bool locate(facet_ctx *x, di_type *type, int64_t k, place *out)
{
	di_type *t = complete(x, type);
	memset(out, 0, sizeof *out);
	out->type = type;
	if (k < 0)
		return false;
	di_type *record = NULL;
	uint64_t rec_off = 0;     /* where t starts within record */
	const char *path = "";
	for (int guard = 0; guard < WALK_CAP; guard++) {
		if (!t)
			return false;
		if (t->kind == DI_ARRAY) {
			di_type *e = element_of(x, t);
			uint64_t es = e ? e->size_bits / 8 : 0;
			if (!es)
				return false;
			k %= (int64_t)es;
			t = e;
			continue;
		}
		if (t->kind == DI_UNION) {   /* one location, whichever member */
			if (!record) {
				out->record = t;
				out->member = "(union)";
			} else {
				out->record = record;
				out->member = *path ? path : arena_printf(x->arena, "@%llu", (unsigned long long)rec_off);
			}
			out->offset = rec_off;
			out->type = t;
			return true;
		}
		if (t->kind != DI_STRUCT) {   /* a scalar: the object itself when k == 0 */
			if (record || k != 0)
				return record != NULL;
			out->type = type;
			return true;
		}
		if (!record || t->name || ptrmap_get(&x->typedef_of_record, t)) {
			record = t;   /* a named struct: key on it from here */
			rec_off = 0;
			path = "";
		}
		const di_member *m = member_at(t, (uint64_t)k);
		if (!m)
			return false;
		uint64_t mo = m->offset_bits / 8;
		di_type *mt = complete(x, m->type);
		const char *name = m->name ? m->name : NULL;
		if (mt && (mt->kind == DI_STRUCT)) {
			/* Descend into an embedded struct (§3.2.1): a named one becomes the
			 * key, an anonymous one keeps the enclosing record. */
			rec_off += mo;
			if (name)
				path = join(x, path, name);
			k -= (int64_t)mo;
			t = mt;
			continue;
		}
		if (mt && mt->kind == DI_UNION) {
			out->record = record;
			out->offset = rec_off + mo;
			out->member = name ? join(x, path, name) : *path ? path
			              : arena_printf(x->arena, "@%llu", (unsigned long long)(rec_off + mo));
			out->type = m->type;
			return true;
		}
		if (mt && mt->kind == DI_ARRAY) {
			di_type *e = element_of(x, mt);
			if (e && e->kind == DI_STRUCT) {
				uint64_t es = e->size_bits / 8;
				if (!es)
					return false;
				rec_off += mo;
				if (name)
					path = join(x, path, arena_printf(x->arena, "%s[]", name));
				k = (k - (int64_t)mo) % (int64_t)es;
				t = e;
				out->in_array = true;
				continue;
			}
			/* An array of function pointers (enc->scanners[state]): each
			 * element is its own key when the index is known; dispatch_key
			 * keys a variable index on the whole array. */
			uint64_t es = e ? e->size_bits / 8 : 0, idx = es ? (uint64_t)(k - (int64_t)mo) / es : 0;
			out->array = out->in_array = true;
			out->record = record;
			out->array_start = rec_off + mo;
			out->array_bytes = mt->size_bits / 8;
			out->array_member = join(x, path, name ? name : "?");
			out->offset = out->array_start + idx * es;
			out->member = arena_printf(x->arena, "%s[%llu]", out->array_member, (unsigned long long)idx);
			out->type = mt->base;   /* the element type, as declared */
			return true;
		}
		out->record = record;
		out->offset = rec_off + mo;
		out->member = join(x, path, name ? name : arena_printf(x->arena, "@%llu", (unsigned long long)(rec_off + mo)));
		out->type = m->type;
		return true;
	}
	return false;
}

/* ---- field keys ------------------------------------------------------------------ */

static key_result key_in(facet_ctx *x, di_type *type, int64_t offset, ir_global *g, bool var_index);

key_result dispatch_key_in(facet_ctx *x, di_type *type, int64_t offset, ir_global *g)
{
	return key_in(x, type, offset, g, false);
}

/* var_index: the address crossed a variable index, so an element of an
 * array of function pointers is not known: the key is the whole array. */
static key_result key_in(facet_ctx *x, di_type *type, int64_t offset, ir_global *g, bool var_index)
{
	key_result r = {0};
	di_type *t = complete(x, type);
	if (g && t) {
		di_type *leaf = t->kind == DI_ARRAY ? element_of(x, t) : NULL;
		if (sig_of_pointer(t) && offset == 0) {
			r.ok = true;
			r.kind = FIELD_GLOBAL;
			r.record_name = g->name;          /* the key: the linked name */
			r.member = ir_global_label(g);    /* as people read it (facet_field_shown) */
			r.member_type = type;
			return r;
		}
		if (leaf && sig_of_pointer(leaf)) {
			r.ok = true;
			r.kind = FIELD_ARRAY;
			r.record_name = g->name;
			r.member = ir_global_label(g);
			r.member_type = leaf;
			return r;
		}
	}
	place pl;
	if (!locate(x, type, offset, &pl)) {
		r.why = arena_printf(x->arena, "no member at byte %lld of the base's type", (long long)offset);
		return r;
	}
	if (!pl.record) {
		r.member_type = pl.type;
		if (g)
			r.why = "a global that is neither a struct nor a function pointer";
		else if (sig_of_pointer(pl.type))
			r.why = "the base points to a function pointer (a variable or a dynamic array of them), not into a struct";
		else
			r.why = "the base's type is not a struct";
		return r;
	}
	r.ok = true;
	r.kind = FIELD_STRUCT;
	r.record = pl.record;
	r.record_name = dispatch_record_name(x, pl.record);
	r.offset = pl.offset;
	r.member = pl.member;
	r.member_type = pl.type;
	if (pl.array) {
		r.array_start = pl.array_start;
		r.array_bytes = pl.array_bytes;
		r.whole_array = var_index;
		if (var_index) {
			r.offset = pl.array_start;
			r.member = arena_printf(x->arena, "%s[]", pl.array_member);
		}
	}
	return r;
}

/* ---- walking addresses back to their base ----------------------------------------------- */

static unsigned n_defs(const facet_ctx *x, unsigned v)
{
	return ir_index_n_defs(x->prog, &x->ix, v);
}

static const ir_stmt *def(const facet_ctx *x, unsigned v, unsigned i)
{
	return ir_index_def(x->prog, &x->ix, v, i);
}

/* The pointee of a declared pointer type, or NULL (void, not a pointer). */
static di_type *pointee(facet_ctx *x, di_type *ptr)
{
	di_type *t = di_strip(ptr);
	if (!t || t->kind != DI_POINTER)
		return NULL;
	return complete(x, t->base) ? t->base : NULL;
}

/* Byte k lies inside an object of type t (of unknown size: assume so). A
 * pointer with several records may be bound to the wrong one — the pool an
 * allocator carves objects from is also the first object carved — and the
 * offset then falls outside it. */
static bool fits(facet_ctx *x, di_type *t, int64_t k, bool var_index)
{
	t = complete(x, t);
	if (!t || var_index || t->kind == DI_ARRAY || t->size_bits == 0)
		return t != NULL;
	return k >= 0 && k < (int64_t)(t->size_bits / 8);
}

static object_ref fail(object_ref r, const char *why)
{
	r.ok = false;
	r.why = why;
	return r;
}

/* True when `from` is derived from `target` by copies and constant GEPs: a
 * phi operand that steps the phi itself (p = p + 1 in a loop over an array)
 * says nothing about what the phi points to. */
static bool derived_from(const facet_ctx *x, unsigned from, unsigned target)
{
	/* Depth-first through copies, phis and constant GEPs, a few dozen values. */
	unsigned stack[WALK_CAP], seen[WALK_CAP];
	unsigned n = 0, n_seen = 0;
	stack[n++] = from;
	while (n > 0) {
		unsigned v = stack[--n];
		if (v == target)
			return true;
		bool visited = false;
		for (unsigned i = 0; i < n_seen && !visited; i++)
			visited = seen[i] == v;
		if (visited || v == IR_NONE || n_seen == WALK_CAP)
			continue;
		seen[n_seen++] = v;
		for (unsigned i = 0; i < n_defs(x, v) && n < WALK_CAP; i++) {
			const ir_stmt *d = def(x, v, i);
			if (d->op == ST_GEP || d->op == ST_COPY)
				stack[n++] = d->src;
		}
	}
	return false;
}

/* A thread-local global is reached through llvm.threadlocal.address(@g)
 * (this thread's copy): the address is g's, with g's debug type. Without
 * this the walk stopped at the call, and a later step could label the
 * global with whatever a sibling address was typed as. */
static bool thread_local_address(const facet_ctx *x, const ir_stmt *d, unsigned *v)
{
	const ir_site *cs = &x->prog->sites[d->site];
	if (cs->kind != SITE_DIRECT || !cs->callee || !cs->callee->intrinsic || cs->n_args < 1 ||
	    strncmp(cs->callee->name, "llvm.threadlocal.address", 24) != 0 || cs->args[0] == IR_NONE)
		return false;
	*v = cs->args[0];
	return true;
}

/* The walk from an address back to its base (§3.2.1): what it has crossed
 * so far. Each resolution step below reads it; dispatch_object drives them
 * in the paper's order, first success wins. */
typedef struct walk {
	object_ref r;              /* offset and variable indexes crossed */
	unsigned a;                /* the address the walk started from */
	unsigned v;                /* where the walk stands */
	unsigned depth;            /* recursion depth (chains, phis, siblings) */
	const char *typed;         /* the struct a typed GEP or alloca named, or NULL */
	int64_t typed_off;         /* the offset into it */
	const char *why;           /* why the steps tried so far failed */
} walk;

static object_ref resolved(object_ref r, di_type *type, disp_step step)
{
	r.ok = true;
	r.type = type;
	r.step = step;
	return r;
}

/* ❶ direct, at value v: a global with its debug variable, a declared stack
 * slot, a #dbg_value record, a fragment record of a split-up local struct,
 * a record of a pointer kept as v + a constant, or the declared return type
 * of the function whose call made v. */
static bool step_direct(facet_ctx *x, walk *w, object_ref *out)
{
	unsigned v = w->v;
	ir_global *g = v < x->prog->n_values ? x->ix.global_of_value[v] : NULL;
	if (g) {
		if (!g->var || !g->var->type) {
			*out = fail(w->r, "a global without debug info");
			return true;
		}
		*out = resolved(w->r, g->var->type, STEP_DIRECT);
		out->offset += (int64_t)(g->var_offset_bits / 8);   /* a piece of a split global */
		out->global = g;
		return true;
	}
	const ir_dbg_binding *slot = v < x->prog->n_values ? x->ix.slot_binding[v] : NULL;
	if (slot) {
		*out = resolved(w->r, slot->var->type, STEP_DIRECT);
		return true;
	}
	di_type *bound = NULL;
	int best = 0;
	for (unsigned k = v < x->prog->n_values ? x->ix.value_binding[v] : 0; k; k = x->ix.next_binding[k - 1]) {
		const ir_dbg_binding *b = &x->prog->bindings[k - 1];
		di_type *t = pointee(x, b->var->type);
		if (t && binding_rank(b) > best && fits(x, t, w->r.offset, w->r.var_index)) {
			bound = t;
			best = binding_rank(b);
		}
	}
	if (bound) {
		*out = resolved(w->r, bound, STEP_DIRECT);
		return true;
	}
	/* An optimised local struct split into its fields keeps a record per
	 * field: "this value is bits [o, o+n) of variable V". The value then
	 * has the type of V's member there. Only the fragment operation is
	 * accepted: it names a part of the variable, not an offset from it. */
	const ir_dbg_binding *fb = v < x->prog->n_values ? x->ix.fragment_binding[v] : NULL;
	if (fb && fb->fragment_offset_bits % 8 == 0) {
		place pl;
		if (locate(x, fb->var->type, (int64_t)(fb->fragment_offset_bits / 8), &pl) &&
		    pointee(x, pl.type) && fits(x, pointee(x, pl.type), w->r.offset, w->r.var_index)) {
			*out = resolved(w->r, pointee(x, pl.type), STEP_DIRECT);
			return true;
		}
	}
	/* A pointer the optimiser kept only as an offset from v: `c =
	 * queue_data(q, struct conn, queue)` becomes a record "c is q - 16" on
	 * q (container_of, its result never materialised). v + k is then *c
	 * at k - (-16); the record's variable types the memory. */
	const ir_dbg_binding *ob = ir_index_offset_binding(x->prog, &x->ix, v);
	if (ob && !w->r.var_index) {
		di_type *t = pointee(x, ob->var->type);
		object_ref at = w->r;
		at.offset -= ob->offset_bytes;
		if (t && fits(x, t, at.offset, false)) {
			*out = resolved(at, t, STEP_DIRECT);
			return true;
		}
	}
	return false;
}

/* The pointer a direct call returns has the type its callee declares
 * (list *listCreate(void)): the debug info binds it as surely as a variable
 * record would. */
static bool step_call_return(facet_ctx *x, walk *w, const ir_stmt *d, object_ref *out)
{
	const ir_site *cs = &x->prog->sites[d->site];
	di_type *sig = cs->kind == SITE_DIRECT && cs->callee ? cs->callee->di_sig : NULL;
	di_type *t = sig && sig->n_params > 0 ? pointee(x, sig->params[0]) : NULL;
	if (!t || !fits(x, t, w->r.offset, w->r.var_index))
		return false;
	*out = resolved(w->r, t, STEP_DIRECT);
	return true;
}

/* Walks back through constant and variable GEPs, copies and thread-local
 * addresses, trying the direct step at each value; stops where the value
 * has no single definition of those kinds. True when resolved (out set). */
static bool walk_back(facet_ctx *x, walk *w, object_ref *out)
{
	for (int guard = 0; guard < WALK_CAP && w->v != IR_NONE; guard++) {
		if (step_direct(x, w, out))
			return true;
		if (n_defs(x, w->v) != 1)
			return false;
		const ir_stmt *d = def(x, w->v, 0);
		if (d->op == ST_GEP) {
			if (d->gep_record) {
				w->typed = d->gep_record;
				w->typed_off = w->r.offset + (d->var_offset ? 0 : d->offset);
			}
			if (d->var_offset) {
				if (!w->r.var_index) {
					w->r.var_tail = w->r.offset;
					w->r.var_typed = d->gep_record != NULL;
				}
				w->r.var_index = true;
				w->r.n_var++;
			} else {
				w->r.offset += d->offset;
			}
			w->v = d->src;
			continue;
		}
		if (d->op == ST_COPY) {
			w->v = d->src;
			continue;
		}
		if (d->op == ST_ALLOCA && d->gep_record) {
			/* A local struct whose slot no #dbg_declare names (optimised
			 * code tracks assignments instead): the allocated IR type
			 * names the struct, a typed access like a GEP's. */
			w->typed = d->gep_record;
			w->typed_off = w->r.offset;
			return false;
		}
		if (d->op == ST_CALL && thread_local_address(x, d, &w->v))
			continue;   /* the thread-local global itself */
		if (d->op == ST_CALL)
			return step_call_return(x, w, d, out);
		return false;
	}
	return false;
}

static bool var_key_offset(facet_ctx *x, const object_ref *o, di_type *t, int64_t *k);

/* A variable index over memory a `T **` points to (`path[i]->manager`):
 * the index picks a pointer, the element is the pointer itself. */
static bool pointer_element(facet_ctx *x, const object_ref *o, int64_t *k)
{
	di_type *t = complete(x, o->type);
	if (o->n_var != 1 || o->offset != o->var_tail || !t || t->kind != DI_POINTER || t->size_bits < 8)
		return false;
	*k = o->var_tail % (int64_t)(t->size_bits / 8);
	return *k == 0;
}

/* ❷ chained: the base is loaded from a field of a receiver, whose declared
 * type names the pointee (cinfo->master->prepare). A receiver reached by
 * a variable index is an element's field where the index picks an element
 * (c[i].read->handler: the `read` of a connection), as a key is, or the
 * element itself in an array of pointers (path[i]->manager). */
static bool step_chained(facet_ctx *x, walk *w, object_ref *out)
{
	const ir_stmt *d = def(x, w->v, 0);
	if (w->depth >= CHAIN_CAP) {
		w->why = "the chain of receivers is deeper than 4";
		return false;
	}
	object_ref sub = dispatch_object(x, d->src, d->offset, w->depth + 1);
	place pl;
	int64_t k = sub.offset;
	bool element = sub.ok && sub.var_index &&
	               (var_key_offset(x, &sub, complete(x, sub.type), &k) || pointer_element(x, &sub, &k));
	if (sub.ok && (!sub.var_index || element) && locate(x, sub.type, k, &pl)) {
		di_type *p = pointee(x, pl.type);
		if (p && fits(x, p, w->r.offset, w->r.var_index)) {
			/* At -O0 the base is loaded from the declared stack slot of a
			 * pointer variable: that is the direct step, not a chain. */
			bool slot_hop = !pl.record && !element && sub.step == STEP_DIRECT && !sub.global && sub.depth == 0;
			*out = resolved(w->r, p, slot_hop ? STEP_DIRECT : STEP_CHAINED);
			out->depth = slot_hop ? 0 : sub.depth + 1;
			return true;
		}
		w->why = "the receiver's field is not a typed pointer";
	} else if (!sub.ok) {
		w->why = sub.why;
	}
	return false;
}

/* The innermost struct (or array element) of an object of type t holding
 * byte *k, with *k made relative to it: `&env->fixed` (Env at 8) and
 * `env->dyn` (Slot at 0) both point at a Slot. */
static di_type *innermost(facet_ctx *x, di_type *t, int64_t *k)
{
	for (int guard = 0; guard < 32; guard++) {
		t = complete(x, t);
		if (!t || *k < 0)
			return t;
		if (t->kind == DI_ARRAY) {
			di_type *e = element_of(x, t);
			if (!e || e->size_bits < 8)
				return t;
			*k %= (int64_t)(e->size_bits / 8);
			t = e;
			continue;
		}
		const di_member *m = t->kind == DI_STRUCT ? member_at(t, (uint64_t)*k) : NULL;
		di_type *mt = m ? complete(x, m->type) : NULL;
		if (!mt || (mt->kind != DI_STRUCT && mt->kind != DI_ARRAY))
			return t;
		*k -= (int64_t)(m->offset_bits / 8);
		t = mt;
	}
	return t;
}

/* Two resolutions name the same memory: one type and offset, or the same
 * innermost struct at the same offset in it. */
static bool same_place(facet_ctx *x, const object_ref *a, const object_ref *b)
{
	if (di_strip(a->type) == di_strip(b->type) && a->offset == b->offset)
		return true;
	int64_t ka = a->offset, kb = b->offset;
	di_type *ta = innermost(x, a->type, &ka), *tb = innermost(x, b->type, &kb);
	return ta && ta == tb && ka == kb;
}

/* A phi or select of pointers: accepted when every resolved operand agrees
 * on one type and offset, or on the innermost struct there (a pointer to
 * a fixed array member or to a dynamic one, both of one element type:
 * keyed by the element, the debug info's type, not by the struct name a
 * typed GEP carries, which the IR linker picks among isomorphic ones). */
static bool step_phi(facet_ctx *x, walk *w, object_ref *out)
{
	unsigned v = w->v;
	object_ref agreed = {0};
	bool conflict = false;
	for (unsigned i = 0; i < n_defs(x, v) && !conflict; i++) {
		const ir_stmt *d = def(x, v, i);
		if (d->op != ST_COPY || derived_from(x, d->src, v))
			continue;
		object_ref sub = dispatch_object(x, d->src, w->r.offset, w->depth + 1);
		if (!sub.ok)
			continue;
		if (agreed.ok && !same_place(x, &agreed, &sub)) {
			conflict = true;
		} else if (agreed.ok && (di_strip(agreed.type) != di_strip(sub.type) || agreed.offset != sub.offset)) {
			int64_t k = sub.offset;
			agreed.type = innermost(x, sub.type, &k);   /* the element both point into */
			agreed.offset = k;
			agreed.global = NULL;
		} else if (!agreed.ok) {
			agreed = sub;
		}
	}
	if (agreed.ok && !conflict) {
		if (w->r.var_index) {   /* the variable part lies between the phi and the address */
			agreed.var_tail = agreed.var_index ? agreed.var_tail : w->r.var_tail;
			agreed.var_typed |= w->r.var_typed;
			agreed.n_var += w->r.n_var;
			agreed.var_index = true;
		}
		*out = agreed;
		return true;
	}
	w->why = conflict ? "the base merges pointers to different types or offsets" : w->why;
	return false;
}

/* ❸ typed access: unoptimised IR names the struct in the GEP (or alloca). */
static bool step_typed(facet_ctx *x, walk *w, object_ref *out)
{
	di_type *rec = strmap_get(&x->record_by_name, w->typed);
	if (!rec) {
		w->why = "the typed access names a struct the debug info does not define";
		return false;
	}
	*out = resolved(w->r, rec, STEP_TYPED);
	out->offset = w->typed_off;
	out->var_index = false;
	return true;
}

/* Rebased (facet's fourth step): the base has no type, but a sibling
 * address derived from it by a constant offset c <= k is typed — the
 * optimiser rewrote q + (k - c) as base + k. The nearest sibling wins.
 * c and k may be negative: a struct found from the link it embeds
 * (container_of: `ev = (struct event *)((char *)q - offsetof(struct
 * event, queue)); ev->handler(ev)` keeps ev as a record on q - 24 and
 * loads q - 16; tests/facet/programs/container_of.c). */
static bool step_rebased(facet_ctx *x, walk *w, object_ref *out)
{
	unsigned v = w->v;
	object_ref best = {0};
	int64_t best_c = INT64_MIN;
	for (unsigned i = x->ix.gep_start[v]; i < x->ix.gep_start[v + 1]; i++) {
		const ir_stmt *g = &x->prog->stmts[x->ix.geps[i]];
		if (g->offset > w->r.offset || g->offset <= best_c || g->dst == w->a)
			continue;
		object_ref sib = dispatch_object(x, g->dst, w->r.offset - g->offset, CHAIN_CAP);
		di_type *t = sib.ok ? complete(x, sib.type) : NULL;
		if (sib.ok && !sib.var_index && t && sib.offset < (int64_t)(t->size_bits / 8)) {
			best = sib;
			best_c = g->offset;
		}
	}
	if (!best.ok)
		return false;
	*out = best;
	out->step = STEP_REBASED;
	return true;
}

object_ref dispatch_object(facet_ctx *x, unsigned a, int64_t off, unsigned depth)
{
	walk w = {.a = a, .v = a, .depth = depth, .why = "no debug record names the base pointer"};
	w.r.offset = off;
	if (depth > 2 * CHAIN_CAP)   /* phis of loops lead back here: give up, don't loop */
		return fail(w.r, "the base's definitions form a cycle");
	object_ref out;
	if (walk_back(x, &w, &out))
		return out;
	bool has_value = w.v != IR_NONE;
	if (has_value && n_defs(x, w.v) == 1 && def(x, w.v, 0)->op == ST_LOAD) {
		if (step_chained(x, &w, &out))
			return out;
	} else if (has_value && n_defs(x, w.v) > 1) {
		if (step_phi(x, &w, &out))
			return out;
	}
	if (w.typed && step_typed(x, &w, &out))
		return out;
	if (has_value && w.v < x->prog->n_values && !w.r.var_index && depth < CHAIN_CAP && step_rebased(x, &w, &out))
		return out;
	return fail(w.r, w.why);
}

/* An address with a variable index: base + head + i + tail. The index
 * picks an element of an array, and the key is the element's field:
 *   - head = 0 into an array object (a global table), or into a struct by a
 *     GEP typed with that struct (p[i].m): the field at tail in an element;
 *   - head > 0 landing in an array member of the struct (s->methods[i]):
 *     that member, or for an array of structs the field at tail in one.
 * Anything else — an untyped variable offset into a struct, two variable
 * offsets — says nothing about the field (the optimiser merges stores into
 * different fields as base + phi(24, 104)); *k receives the offset to key. */
static bool var_key_offset(facet_ctx *x, const object_ref *o, di_type *t, int64_t *k)
{
	if (o->n_var != 1 || !t)
		return false;
	int64_t head = o->offset - o->var_tail, tail = o->var_tail;
	if (head == 0 && t->kind == DI_ARRAY) {
		*k = tail;
		return true;
	}
	if (head == 0 && t->kind == DI_STRUCT && o->var_typed && t->size_bits >= 8) {
		*k = tail % (int64_t)(t->size_bits / 8);
		return true;
	}
	place pl;
	if (t->kind == DI_STRUCT && head > 0 && locate(x, t, head, &pl) && pl.in_array) {
		*k = head + tail;
		return true;
	}
	return false;
}

key_result dispatch_key(facet_ctx *x, unsigned a, int64_t off)
{
	object_ref o = dispatch_object(x, a, off, 0);
	key_result r = {0};
	if (!o.ok) {
		r.why = o.why;
		return r;
	}
	di_type *t = complete(x, o.type);
	int64_t k = o.offset;
	if (o.var_index && !var_key_offset(x, &o, t, &k)) {
		r.why = o.n_var > 1 ? "several variable offsets into the base object"
		                    : "a variable offset into a struct that no array member explains";
		if (t && t->kind == DI_STRUCT) {
			r.any_field = true;   /* somewhere in this struct: assign.c */
			r.record = t;
		}
		return r;
	}
	r = key_in(x, o.type, k, o.global, o.var_index);
	r.step = o.step;
	r.depth = o.depth;
	char buf[256];
	r.base_type = arena_strdup(x->arena, sig_text(o.type, buf, sizeof buf));
	if (r.ok && r.kind == FIELD_GLOBAL && o.var_index)
		r.kind = FIELD_ARRAY;
	return r;
}

/* ---- the load side: disp(c) for every indirect site ------------------------------------ */

static key_result value_key(facet_ctx *x, unsigned v, unsigned hops);

/* A callee loaded from a private slot: the key every store into the slot
 * agrees on (stores of untracked values — NULL — put no function there). */
static key_result slot_key(facet_ctx *x, unsigned slot, unsigned hops, key_result r)
{
	if (hops >= CHAIN_CAP || slot >= x->prog->n_values)
		return r;
	unsigned first = x->slot_store_start[slot], end = x->slot_store_start[slot + 1];
	key_result agreed = {0};
	for (unsigned i = first; i < end; i++) {
		const ir_stmt *st = &x->prog->stmts[x->slot_stores[i]];
		if (st->src == IR_NONE)
			continue;
		key_result k = value_key(x, st->src, hops + 1);
		if (!k.ok || (agreed.ok && (agreed.kind != k.kind || agreed.offset != k.offset ||
		                            strcmp(agreed.record_name, k.record_name) != 0)))
			return r;
		agreed = k;
	}
	return agreed.ok ? agreed : r;
}

/* The site's callee, keyed by the loads it comes from. */
static key_result site_key(facet_ctx *x, const ir_site *s)
{
	return value_key(x, s->callee_value, 0);
}

/* The loads a value comes from (through copies): one, or all the operands
 * of a phi that are loads of the same key; a load from a private slot is
 * followed to the stores into it (hops counts those). */
static key_result value_key(facet_ctx *x, unsigned v, unsigned hops)
{
	key_result r = {0};
	for (int guard = 0; guard < WALK_CAP; guard++) {
		if (v == IR_NONE) {
			r.why = "the callee is not tracked";
			return r;
		}
		unsigned n = n_defs(x, v);
		if (n == 0) {
			r.why = x->ix.function_of_value[v] ? "the call names the function through a mismatched prototype"
			        : x->ix.global_of_value[v] ? "the callee is a global's address"
			                                : "the callee is a parameter, not loaded from memory";
			return r;
		}
		const ir_stmt *d = def(x, v, 0);
		if (n == 1 && d->op == ST_COPY) {
			v = d->src;
			continue;
		}
		if (n == 1 && d->op == ST_LOAD) {
			key_result k = dispatch_key(x, d->src, d->offset);
			if (!k.ok && d->offset == 0 && !d->var_offset && d->src < x->prog->n_values &&
			    x->slot_store_start[d->src + 1] > x->slot_store_start[d->src])
				return slot_key(x, d->src, hops, k);
			return k;
		}
		if (n == 1 && d->op == ST_CALL) {
			r.why = "the callee is returned by a call";
			return r;
		}
		/* Several definitions (a phi): all must be loads of one key. */
		key_result agreed = {0};
		for (unsigned i = 0; i < n; i++) {
			const ir_stmt *di = def(x, v, i);
			key_result k = {0};
			if (di->op == ST_LOAD)
				k = dispatch_key(x, di->src, di->offset);
			else if (di->op == ST_COPY && n_defs(x, di->src) == 1 && def(x, di->src, 0)->op == ST_LOAD)
				k = dispatch_key(x, def(x, di->src, 0)->src, def(x, di->src, 0)->offset);
			if (!k.ok) {
				r.why = "the callee merges values not all loaded from one field";
				return r;
			}
			if (agreed.ok && (agreed.kind != k.kind || agreed.offset != k.offset ||
			                  strcmp(agreed.record_name, k.record_name) != 0)) {
				r.why = "the callee merges loads from different fields";
				return r;
			}
			agreed = k;
		}
		return agreed;
	}
	r.why = "the callee's definition chain is too long";
	return r;
}

/* The declared type of a callee no field key explains: a variable or
 * parameter of function-pointer type the callee value is bound to, or the
 * local slot it is loaded from (lcode = *(ngx_http_script_len_code_pt *) ip;
 * volatile lua_CFunction cf = p->closef). NULL when nothing declares it. */
static di_type *callee_type(facet_ctx *x, const ir_site *s, const char **var)
{
	unsigned v = s->callee_value;
	for (int guard = 0; guard < WALK_CAP && v != IR_NONE && v < x->prog->n_values; guard++) {
		for (unsigned k = x->ix.value_binding[v]; k; k = x->ix.next_binding[k - 1]) {
			const ir_dbg_binding *b = &x->prog->bindings[k - 1];
			di_type *sig = sig_of_pointer(b->var->type);
			if (sig) {
				*var = b->var->name;
				return sig;
			}
		}
		if (n_defs(x, v) != 1)
			return NULL;
		const ir_stmt *d = def(x, v, 0);
		if (d->op == ST_COPY) {
			v = d->src;
			continue;
		}
		if (d->op == ST_LOAD && d->offset == 0 && d->src < x->prog->n_values && x->ix.slot_binding[d->src]) {
			const ir_dbg_binding *slot = x->ix.slot_binding[d->src];
			di_type *sig = sig_of_pointer(slot->var->type);
			if (sig)
				*var = slot->var->name;
			return sig;
		}
		return NULL;
	}
	return NULL;
}

/* A type whose lowering into IR parameters is not one for one: a struct,
 * union or complex number passed or returned by value is split, coerced or
 * passed through memory. */
static bool lowered_unevenly(di_type *t)
{
	t = di_strip(t);
	return t && (t->kind == DI_STRUCT || t->kind == DI_UNION ||
	             (t->kind == DI_BASIC && t->name && strstr(t->name, "complex")));
}

/* A key found only by an IR struct name (the typed step) must be able to
 * make the call. Linking merges the isomorphic struct types of different
 * units under one name (LLVM's IR mover reuses a destination struct of the
 * same body), so a GEP may name another unit's struct of the same layout
 * (tcl: the frame-info fields read as the builtin table's). The field's
 * declared type cannot make the call when its parameter count or its
 * void-ness differs from the call's IR type — decided only where lowering
 * is one parameter for one (no struct, union or complex by value) and the
 * type declares its list (not unprototyped, generic or variadic). */
static bool typed_key_fits_call(const key_result *k, const ir_site *s)
{
	di_type *sig = sig_of_pointer(k->member_type);
	const ir_fn_type *call = s->call_fn_type;
	if (k->step != STEP_TYPED || !sig || sig->n_params < 1 || !call || call->vararg || s->asm_call)
		return true;   /* an asm's call has the asm's IR type, not the callee's */
	if (sig->n_params == 1 && !sig->params[0])
		return true;   /* void (void): also C's generic function pointer */
	if (!sig->params[sig->n_params - 1] && sig->n_params > 1)
		return true;   /* unprototyped or variadic */
	for (unsigned i = 0; i < sig->n_params; i++)
		if (lowered_unevenly(sig->params[i]))
			return true;
	bool returns_void = di_strip(sig->params[0]) == NULL;
	return sig->n_params - 1 == call->n_params && returns_void == (strcmp(call->ret, "void") == 0);
}

void dispatch_sites(facet_ctx *x)
{
	facet_result *res = x->res;
	for (unsigned i = 0; i < res->n_sites; i++) {
		facet_site *fs = &res->sites[i];
		const ir_site *s = &x->prog->sites[fs->site];
		fs->field = IR_NONE;
		if (!x->prog->has_debug_info) {
			fs->status = DISP_UNRECOVERED;
			fs->reason = "the program has no debug info";
			continue;
		}
		if (s->trampoline) {
			fs->status = DISP_NAMED;
			fs->reason = "the call names a trampoline that code patching redirects (static_call); R0 has "
			             "its initial and patched-in functions";
			continue;
		}
		if (s->callee_value < x->prog->n_values && x->ix.function_of_value[s->callee_value]) {
			/* `f(...)` through a declaration whose type differs from f's
			 * (an unprototyped `int f();`, a prototype in another unit):
			 * LLVM calls it indirect, but the callee is named; R0 has it. */
			fs->status = DISP_NAMED;
			fs->reason = "the call names the function through a mismatched or unprototyped declaration";
			continue;
		}
		key_result k = site_key(x, s);
		if (k.ok && !typed_key_fits_call(&k, s)) {
			k.ok = false;
			k.why = arena_printf(x->arena, "the struct the IR names (%s) declares %s there, which cannot make "
			                     "the call (linking merges structs of one layout under one name)",
			                     k.record_name ? k.record_name : "?", k.member ? k.member : "the field");
		}
		if (!k.ok) {
			/* No type names the memory: an untyped heap block's slot, or
			 * why not when the block is known (block.c). */
			key_result b = block_site_key(x, s);
			if (b.ok || b.why)
				k = b.ok ? b : (key_result){.why = b.why, .base_type = k.base_type};
		}
		if (!k.ok) {
			fs->status = DISP_UNRECOVERED;
			fs->reason = k.why ? k.why : "unknown";
			fs->base_type = k.base_type;
			fs->callee_sig = callee_type(x, s, &fs->callee_var);
			continue;
		}
		fs->status = k.kind == FIELD_STRUCT ? DISP_FIELD : k.kind == FIELD_GLOBAL ? DISP_GLOBAL : DISP_ARRAY;
		fs->step = k.step;
		fs->depth = k.depth;
		fs->offset = (int64_t)k.offset;
		fs->base_type = k.base_type;
		fs->field = facet_field_for(x, &k);
	}
}
