/* block.c — function-pointer slots in memory no type describes (issue
 * 15.5): a plugin system that packs every hook's handler list into one
 * allocation and reaches a list by byte arithmetic,
 * (hook_fn *)((char *)block + offsetof(struct hooks, on_read) * N).
 * No debug record types the block, so dispatch.c finds no field, and the
 * points-to analysis collapses the block (a walk along a list is a
 * pointer increment in a loop): every handler of the type meets at every
 * call.
 *
 * An address is walked back to a root pointer (a load, a call's return, a
 * parameter) whose points-to set names exactly one heap object. The walk
 * sums constant offsets and notes a walk along a list: p = p + c in a
 * loop, through a phi or a private slot. A GEP by a variable makes the
 * offset unknown (a byte offset chosen at run time: which list is not
 * known). A list starts at the constant offset before a walk, and the
 * lists of an object are the starts of all walks into it, on the load
 * side and the store side; an access at a constant offset belongs to the
 * list that starts at or before it (the premise: a walk stays inside its
 * list, π_proj like every field's). Keys are `OBJECT@START[]` for a list
 * and `OBJECT@K` for an offset no walk covers.
 *
 * Only objects a call site dispatches through get keys (block objects);
 * their F must see every write: a store at an unknown offset, or one that
 * a typed path keys elsewhere, goes into every key of the object
 * (block_store_fields), and assign.c adds what the object holds by no
 * keyed store (a copy, a library call) to every key as well. */
#include "facet/internal.h"

#include <stdio.h>
#include <string.h>

#include "pta/solver.h"
#include "util/intmap.h"

enum { BLOCK_DEPTH = 12, BLOCK_STEP_CAP = 16, BLOCK_BUDGET = 256 };

/* Where an address points inside one heap object. */
typedef struct block_addr {
	bool ok;                   /* one heap object */
	bool known;                /* the offset is known (no GEP by a variable) */
	bool walk;                 /* a walk along a list lies between head and the address */
	unsigned obj;              /* solver object id */
	int64_t head;              /* bytes from the object's start to the list, or to the slot */
	const char *why;           /* !ok */
} block_addr;

typedef struct block_obj {
	unsigned obj;
	bool dispatched;           /* a call site loads its callee from it */
	VEC(int64_t) starts;       /* list starts, ascending after block_collect */
	VEC(unsigned) fields;      /* the fields keyed in it (after dispatch_sites and stores) */
	sbitmap held;              /* what its locations hold (dispatched ones) */
	const char *name;
} block_obj;

struct facet_blocks {
	VEC(block_obj) objs;
	intmap by_obj;             /* solver object id -> index + 1 */
	sbitmap locs;              /* the locations of dispatched block objects */
};

static block_addr fail(const char *why)
{
	block_addr r = {0};
	r.why = why;
	return r;
}

static unsigned n_defs(const facet_ctx *x, unsigned v)
{
	return ir_index_n_defs(x->prog, &x->ix, v);
}

static const ir_stmt *def(const facet_ctx *x, unsigned v, unsigned i)
{
	return ir_index_def(x->prog, &x->ix, v, i);
}

static bool has_slot_stores(const facet_ctx *x, unsigned slot)
{
	return slot < x->prog->n_values && x->slot_store_start[slot + 1] > x->slot_store_start[slot];
}

/* The one heap object v points to, or why not. */
static block_addr root(facet_ctx *x, unsigned v)
{
	const sbitmap *pts = v != IR_NONE ? pta_value_pts(x->pta, v) : NULL;
	if (!pts)
		return fail("the base pointer is not tracked");
	unsigned loc, obj = PTA_NONE;
	SBM_FOREACH(pts, loc) {
		unsigned o = pta_loc_object(x->pta->solver, loc);
		if (o == PTA_NONE || o >= x->pta->n_objects)
			continue;
		if (obj != PTA_NONE && o != obj)
			return fail("the base pointer may point to several objects");
		obj = o;
	}
	if (obj == PTA_NONE || x->pta->objects[obj].kind != OBJ_HEAP)
		return fail("the base pointer does not point to one allocated block");
	block_addr r = {.ok = true, .known = true, .obj = obj};
	return r;
}

/* u steps `target` along a list: it is target (a phi) or a load of slot
 * `target` (is_slot), plus positive constant GEPs and copies. */
static bool steps(const facet_ctx *x, unsigned u, unsigned target, bool is_slot)
{
	bool stepped = false;
	for (int guard = 0; guard < BLOCK_STEP_CAP && u != IR_NONE; guard++) {
		if (!is_slot && u == target)
			return stepped;
		if (n_defs(x, u) != 1)
			return false;
		const ir_stmt *d = def(x, u, 0);
		if (is_slot && d->op == ST_LOAD && d->src == target && d->offset == 0 && !d->var_offset)
			return stepped;
		if (d->op == ST_GEP && !d->var_offset && d->offset > 0)
			stepped = true;
		else if (d->op != ST_COPY)
			return false;
		u = d->src;
	}
	return false;
}

static block_addr resolve(facet_ctx *x, unsigned v, unsigned depth, unsigned *budget);

/* The values merged at v (a phi's operands, or a private slot's stored
 * values): the ones that step v mark a walk; the others must agree. */
static block_addr merge(facet_ctx *x, unsigned v, bool is_slot, unsigned depth, unsigned *budget)
{
	block_addr agreed = {0};
	bool walk = false;
	unsigned n = is_slot ? x->slot_store_start[v + 1] - x->slot_store_start[v] : n_defs(x, v);
	for (unsigned i = 0; i < n; i++) {
		unsigned u;
		if (is_slot) {
			u = x->prog->stmts[x->slot_stores[x->slot_store_start[v] + i]].src;
		} else {
			const ir_stmt *d = def(x, v, i);
			if (d->op != ST_COPY)
				return fail("the base merges values that are not pointers");
			u = d->src;
		}
		if (u == IR_NONE)
			continue;   /* NULL: no address */
		if (steps(x, u, v, is_slot)) {
			walk = true;
			continue;
		}
		block_addr r = resolve(x, u, depth + 1, budget);
		if (!r.ok)
			return r;
		if (agreed.ok && (agreed.obj != r.obj || agreed.head != r.head))
			return fail("the base merges pointers to different places");
		if (agreed.ok)
			r.known &= agreed.known, r.walk |= agreed.walk;
		agreed = r;
	}
	if (!agreed.ok)
		return fail("the base only steps itself");
	agreed.walk |= walk;
	return agreed;
}

/* Where value v points, walking back through GEPs, copies, phis and the
 * private slots of unoptimised code. */
static block_addr resolve(facet_ctx *x, unsigned v, unsigned depth, unsigned *budget)
{
	if (depth > BLOCK_DEPTH || v == IR_NONE || *budget == 0)
		return fail("the base's definitions are too deep");
	--*budget;   /* phis of phis: a bounded walk, not an exponential one */
	unsigned n = v < x->prog->n_values ? n_defs(x, v) : 0;
	if (n > 1)
		return merge(x, v, false, depth, budget);
	const ir_stmt *d = n ? def(x, v, 0) : NULL;
	if (d && d->op == ST_GEP) {
		block_addr r = resolve(x, d->src, depth + 1, budget);
		if (d->var_offset)
			r.known = false;
		else if (!r.walk)
			r.head += d->offset;   /* after a walk: a slot inside the list */
		return r;
	}
	if (d && d->op == ST_COPY)
		return resolve(x, d->src, depth + 1, budget);
	if (d && d->op == ST_LOAD && d->offset == 0 && !d->var_offset && has_slot_stores(x, d->src))
		return merge(x, d->src, true, depth, budget);
	return root(x, v);
}

static block_obj *object(facet_blocks *b, unsigned obj)
{
	uint64_t i;
	return intmap_get(&b->by_obj, obj, &i) ? &b->objs.items[i - 1] : NULL;
}

static block_obj *object_add(facet_ctx *x, unsigned obj)
{
	facet_blocks *b = x->blocks;
	block_obj *o = object(b, obj);
	if (o)
		return o;
	block_obj n = {.obj = obj};
	const pta_obj_info *info = &x->pta->objects[obj];
	const ir_site *s = &x->prog->sites[info->index];
	bool via = info->context != IR_NONE;
	n.name = arena_printf(x->arena, "heap:%s:%u%s%s%s", s->loc.file ? s->loc.file : ir_function_label(s->caller),
	                      s->loc.line, via ? "(via " : "", via ? ir_function_label(x->prog->functions[info->context]) : "",
	                      via ? ")" : "");
	VEC_PUSH(&b->objs, n);
	intmap_put(&b->by_obj, obj, b->objs.len);
	return &b->objs.items[b->objs.len - 1];
}

/* The address a callee value v is loaded from: through copies to one load,
 * or the loads of a phi, which must all resolve alike. */
static block_addr address(facet_ctx *x, unsigned a)
{
	unsigned budget = BLOCK_BUDGET;
	return resolve(x, a, 0, &budget);
}

static block_addr callee_addr(facet_ctx *x, unsigned v)
{
	for (int guard = 0; guard < BLOCK_STEP_CAP && v != IR_NONE && v < x->prog->n_values; guard++) {
		unsigned n = n_defs(x, v);
		const ir_stmt *d = n ? def(x, v, 0) : NULL;
		if (n == 1 && d->op == ST_COPY) {
			v = d->src;
			continue;
		}
		if (n == 1 && d->op == ST_LOAD) {
			block_addr r = address(x, d->src);
			if (r.ok && r.known && !r.walk)
				r.head += d->offset;
			return r;
		}
		if (n < 2)
			return fail("the callee is not loaded from memory");
		block_addr agreed = {0};
		for (unsigned i = 0; i < n; i++) {
			const ir_stmt *di = def(x, v, i);
			const ir_stmt *l = di->op == ST_COPY && n_defs(x, di->src) == 1 ? def(x, di->src, 0) : NULL;
			if (!l || l->op != ST_LOAD)
				return fail("the callee merges values not all loaded");
			block_addr r = address(x, l->src);
			if (r.ok && r.known && !r.walk)
				r.head += l->offset;
			if (!r.ok)
				return r;
			if (agreed.ok && agreed.obj != r.obj)
				return fail("the callee merges loads from different objects");
			if (agreed.ok) {
				/* the first load of a list and the loads of the walk along it */
				if (r.walk == agreed.walk && r.head != agreed.head)
					return fail("the callee merges loads from different places");
				r.known &= agreed.known;
				if (agreed.walk)
					r.walk = true, r.head = agreed.head;
				else if (r.walk && r.head > agreed.head)
					return fail("the callee merges loads from different places");
			}
			agreed = r;
		}
		return agreed;
	}
	return fail("the callee is not loaded from memory");
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static void note_start(facet_ctx *x, const block_addr *r, bool dispatched)
{
	if (!r->ok)
		return;
	block_obj *o = object_add(x, r->obj);
	o->dispatched |= dispatched;
	if (r->known && r->walk)
		VEC_PUSH(&o->starts, r->head);
}

void block_collect(facet_ctx *x)
{
	x->blocks = xcalloc(1, sizeof *x->blocks);
	facet_blocks *b = x->blocks;
	intmap_init(&b->by_obj);
	const ir_program *p = x->prog;
	if (!p->has_debug_info)
		return;
	for (unsigned i = 0; i < x->res->n_sites; i++) {
		block_addr r = callee_addr(x, p->sites[x->res->sites[i].site].callee_value);
		note_start(x, &r, true);
	}
	/* The store side's walks (stores of functions): only into objects a
	 * site reads. */
	pta_solver *sv = x->pta->solver;
	sbitmap fn_locs = {0};
	for (unsigned o = 0; o < x->pta->n_objects && b->objs.len; o++)
		if (x->pta->objects[o].kind == OBJ_FUNCTION)
			sbm_set(&fn_locs, pta_canon(sv, pta_field(sv, o, 0)));
	for (unsigned i = p->n_const_stmts; i < p->n_stmts && b->objs.len; i++) {
		const ir_stmt *st = &p->stmts[i];
		if (st->op != ST_STORE)
			continue;
		const sbitmap *pts = pta_value_pts(x->pta, st->src);
		if (!pts || !sbm_intersects(pts, &fn_locs))
			continue;
		block_addr r = address(x, st->dst);
		if (r.ok && object(b, r.obj))
			note_start(x, &r, false);
	}
	sbm_free(&fn_locs);
	for (size_t i = 0; i < b->objs.len; i++) {
		block_obj *o = &b->objs.items[i];
		if (o->starts.len)
			qsort(o->starts.items, o->starts.len, sizeof *o->starts.items, cmp_i64);
	}
	unsigned nl = pta_num_locations(sv);
	for (unsigned l = 0; l < nl && b->objs.len; l++) {
		unsigned loc = PTA_LOC_BIT | l;
		block_obj *o = object(b, pta_loc_object(sv, loc));
		if (!o || !o->dispatched)
			continue;
		sbm_set(&b->locs, pta_canon(sv, loc));
		const sbitmap *c = pta_pts(sv, pta_canon(sv, loc));
		if (c)
			sbm_union(&o->held, c);
	}
}

void block_free(facet_ctx *x)
{
	facet_blocks *b = x->blocks;
	if (!b)
		return;
	for (size_t i = 0; i < b->objs.len; i++) {
		VEC_FREE(&b->objs.items[i].starts);
		VEC_FREE(&b->objs.items[i].fields);
		sbm_free(&b->objs.items[i].held);
	}
	VEC_FREE(&b->objs);
	intmap_free(&b->by_obj);
	sbm_free(&b->locs);
	free(b);
	x->blocks = NULL;
}

/* "+0, +32, +64" */
static const char *starts_text(facet_ctx *x, const block_obj *o)
{
	char buf[160];
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < o->starts.len && n < sizeof buf - 32; i++) {
		if (i && o->starts.items[i] == o->starts.items[i - 1])
			continue;
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s+%lld", n ? ", " : "", (long long)o->starts.items[i]);
	}
	return arena_strdup(x->arena, n ? buf : "none");
}

/* The key of a resolved address in a block object; registers the field
 * (a site's key), or with `existing` only finds it (a store's: a key no
 * site reads needs no F). */
static key_result key_of(facet_ctx *x, block_obj *o, const block_addr *r, bool existing, unsigned *field)
{
	key_result k = {0};
	if (!r->known) {
		k.why = arena_printf(x->arena,
		                     "a byte offset computed at run time into the untyped block %s: which of its lists "
		                     "(at %s) is not known",
		                     o->name, starts_text(x, o));
		return k;
	}
	int64_t start = r->head;
	bool list = r->walk;
	for (size_t i = 0; !list && i < o->starts.len && o->starts.items[i] <= r->head; i++)
		start = o->starts.items[i], list = true;
	k.ok = true;
	k.kind = FIELD_STRUCT;
	k.record_name = o->name;
	k.offset = (uint64_t)start;
	k.member = arena_printf(x->arena, list ? "list@%lld" : "@%lld", (long long)start);
	k.whole_array = list;
	k.untyped = true;
	k.step = STEP_DIRECT;
	k.base_type = "untyped block";
	const char *key = arena_printf(x->arena, "%s@%llu%s", k.record_name, (unsigned long long)k.offset,
	                               list ? "[]" : "");
	uintptr_t hit = (uintptr_t)strmap_get(&x->field_by_key, key);
	if (existing && !hit) {
		*field = IR_NONE;
		return k;
	}
	unsigned f = hit ? (unsigned)hit - 1 : facet_field_for(x, &k);
	bool seen = false;
	for (size_t i = 0; i < o->fields.len && !seen; i++)
		seen = o->fields.items[i] == f;
	if (!seen)
		VEC_PUSH(&o->fields, f);
	*field = f;
	return k;
}

key_result block_site_key(facet_ctx *x, const ir_site *s)
{
	key_result k = {0};
	block_addr r = callee_addr(x, s->callee_value);
	block_obj *o = r.ok ? object(x->blocks, r.obj) : NULL;
	if (!o)
		return k;   /* not a block: the site keeps dispatch.c's reason */
	unsigned field;
	return key_of(x, o, &r, false, &field);
}

size_t block_store_fields(facet_ctx *x, unsigned addr, int64_t off, uvec *out)
{
	facet_blocks *b = x->blocks;
	VEC_CLEAR(out);
	const sbitmap *pts = addr != IR_NONE ? pta_value_pts(x->pta, addr) : NULL;
	if (!b || !pts || !sbm_intersects(pts, &b->locs))
		return 0;
	block_addr r = address(x, addr);
	block_obj *o = r.ok ? object(b, r.obj) : NULL;
	if (o && o->dispatched && r.known) {
		if (!r.walk)
			r.head += off;
		unsigned field;
		key_of(x, o, &r, true, &field);
		if (field != IR_NONE)
			VEC_PUSH(out, field);
		return out->len;
	}
	/* An unknown offset, or a path that does not resolve: any key of any
	 * block object the address may point into. */
	sbitmap only = {0};
	sbm_copy(&only, pts);
	sbm_intersect(&only, &b->locs);
	unsigned loc;
	SBM_FOREACH(&only, loc) {
		block_obj *m = object(b, pta_loc_object(x->pta->solver, loc));
		for (size_t i = 0; m && i < m->fields.len; i++)
			VEC_PUSH(out, m->fields.items[i]);
	}
	sbm_free(&only);
	return out->len;
}

size_t block_objects(const facet_ctx *x)
{
	return x->blocks ? x->blocks->objs.len : 0;
}

const sbitmap *block_object_at(facet_ctx *x, size_t i, uvec *fields)
{
	const block_obj *o = &x->blocks->objs.items[i];
	VEC_CLEAR(fields);
	for (size_t j = 0; j < o->fields.len; j++)
		VEC_PUSH(fields, o->fields.items[j]);
	return o->dispatched && o->fields.len > 0 ? &o->held : NULL;
}
