/* vgraph.c — cha, rta, vta and vslot (cxx.h): one reachability engine, the
 * graph choosing the targets of each site. */
#include "cxx/cxx.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbitmap.h"
#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef VEC(unsigned) uvec;

typedef enum mode { M_CHA, M_RTA, M_VTA, M_VSLOT } mode;

typedef struct engine {
	const ir_program *p;
	mode m;
	const pta_result *pta;     /* vta, vslot */
	const cg_graph *other;     /* the targets of non-virtual indirect sites: r0 (vta), rpm (vslot) */
	unsigned **subs, *n_subs;  /* class -> its subclasses (itself included) */
	bool *reach, *inst;
	unsigned *work, n_work;
	unsigned *direct_calls;    /* function -> how many direct sites call it */
	bool *in_some_slot;        /* function -> some vtable slot holds it */
	unsigned *taken, n_taken;  /* functions whose address is taken outside vtables */
	unsigned *buf;             /* 2 * n_functions scratch for targets */
	bool *mark;                /* n_functions scratch */
	strmap by_key;             /* class key -> id + 1 */
	/* vslot's reasons (cxx_vslot_reasons), NULL when not wanted */
	cxx_slot_reasons *why;
	unsigned *wit_point, *wit_slot;   /* function -> the address point and slot lookup found it at */
	unsigned *rcls, n_rcls;    /* the classes object_targets read from the receiver's objects */
	bool *rcls_mark;           /* n_classes */
	unsigned *vtable_class;    /* vta, vslot: global id -> the class whose vtable group it is + 1, else 0 */
	/* object_targets' memo (vta, vslot): a site's targets are asked for
	 * several times (solve, the graph, the reasons) and receiver sets of
	 * hundreds of locations recur, so each location's class is read once,
	 * and within one call each (class, offset) is looked up once. */
	struct loc_class { unsigned cls; int64_t off; uint8_t state; } *loc_memo;   /* by location index; state
	                              0: not read, 1: class cls at off, 2: no class, 3: class by name only */
	unsigned *cls_stamp;       /* class -> the call (stamp) that last looked it up */
	int64_t *cls_off;          /* class -> the offset it was looked up at in that call */
	unsigned stamp;
	/* vptr_targets' memo (vta): per location the (class, offset) pairs its
	 * vptr gives, most derived only, kept in vp_cls/vp_off */
	struct vptr_list { unsigned first, n; bool done; } *vptr_memo;
	uvec vp_cls;
	VEC(int64_t) vp_off;
	unsigned *vp_mark, vp_stamp;   /* class -> the read that found it */
} engine;

/* ---- the hierarchy ----------------------------------------------------------------------- */

static void ancestors(const ir_program *p, unsigned c, unsigned d, unsigned *seen, uvec *lists,
                      int depth)
{
	if (seen[d] == c + 1 || depth > 64)
		return;
	seen[d] = c + 1;
	VEC_PUSH(&lists[d], c);
	for (unsigned i = 0; i < p->classes[d]->n_bases; i++)
		ancestors(p, c, p->classes[d]->bases[i].cls, seen, lists, depth + 1);
}

static void build_subs(engine *E)
{
	const ir_program *p = E->p;
	unsigned n = p->n_classes;
	uvec *lists = xcalloc(n ? n : 1, sizeof *lists);
	unsigned *seen = xcalloc(n ? n : 1, sizeof *seen);
	for (unsigned c = 0; c < n; c++)
		ancestors(p, c, c, seen, lists, 0);
	E->subs = xcalloc(n ? n : 1, sizeof *E->subs);
	E->n_subs = xcalloc(n ? n : 1, sizeof *E->n_subs);
	for (unsigned c = 0; c < n; c++) {
		E->subs[c] = lists[c].items;
		E->n_subs[c] = (unsigned)lists[c].len;
	}
	free(lists);
	free(seen);
}

static bool compat_has(const ir_vpoint *vp, unsigned d)
{
	for (unsigned i = 0; i < vp->n_compat; i++)
		if (vp->compat[i] == d)
			return true;
	return false;
}

/* lookup(c, slot) as a pointer to class d (IR_NONE: any point) sees it,
 * from the point at subobject offset off (INT64_MIN: any offset); adds the
 * functions to out (deduplicated by mark). */
static unsigned lookup(engine *E, unsigned c, unsigned d, int64_t off, const ir_vcall *vc, unsigned *out,
                       unsigned n)
{
	const ir_program *p = E->p;
	const ir_class *k = p->classes[c];
	unsigned slot = (unsigned)(vc->slot_offset / (int64_t)p->pointer_size);
	if (vc->slot_offset % (int64_t)p->pointer_size)
		return n;
	for (unsigned i = 0; i < k->n_points; i++) {
		const ir_vpoint *vp = &p->vpoints[k->first_point + i];
		if (d != IR_NONE ? !compat_has(vp, d) : off != INT64_MIN && vp->offset_to_top != -off)
			continue;
		unsigned lo = vc->any_slot ? 0 : slot, hi = vc->any_slot ? vp->n_slots : slot + 1;
		for (unsigned j = lo; j < hi && j < vp->n_slots; j++) {
			const ir_function *f = vp->slots[j];
			if (!f || ((d == IR_NONE || vc->any_slot) && !pta_type_fits(&p->sites[vc->site], f)))
				continue;
			if (!E->mark[f->id]) {
				E->mark[f->id] = true;
				out[n++] = f->id;
				if (E->wit_point) {
					E->wit_point[f->id] = k->first_point + i;
					E->wit_slot[f->id] = j;
				}
			}
		}
	}
	return n;
}

static unsigned finish(engine *E, unsigned *out, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		E->mark[out[i]] = false;
	return n;
}

static unsigned cha_targets(engine *E, const ir_vcall *vc, unsigned *out, bool instantiated_only)
{
	const ir_program *p = E->p;
	unsigned n = 0;
	if (vc->cls == IR_NONE) {
		for (unsigned c = 0; c < p->n_classes; c++)
			if (!instantiated_only || E->inst[c])
				n = lookup(E, c, IR_NONE, INT64_MIN, vc, out, n);
	} else {
		for (unsigned i = 0; i < E->n_subs[vc->cls]; i++) {
			unsigned c = E->subs[vc->cls][i];
			if (!instantiated_only || E->inst[c])
				n = lookup(E, c, vc->cls, INT64_MIN, vc, out, n);
		}
	}
	return finish(E, out, n);
}

/* ---- points-to objects and their classes --------------------------------------------------- */

static const ir_class_use *alloc_entry(const ir_program *p, unsigned value)
{
	unsigned lo = 0, hi = p->n_alloc_classes;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (p->alloc_classes[mid].key < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n_alloc_classes && p->alloc_classes[lo].key == value ? &p->alloc_classes[lo] : NULL;
}

static const ir_class_use *object_entry(const engine *E, unsigned obj)
{
	const ir_program *p = E->p;
	const pta_obj_info *o = &E->pta->objects[obj];
	switch (o->kind) {
	case OBJ_STACK: return alloc_entry(p, o->index);
	case OBJ_GLOBAL: return o->index < p->n_globals ? alloc_entry(p, p->globals[o->index]->value) : NULL;
	case OBJ_HEAP: return o->index < p->n_sites ? alloc_entry(p, p->sites[o->index].value) : NULL;
	default: return NULL;
	}
}

static unsigned class_of_type(const engine *E, const di_type *t)
{
	t = di_strip((di_type *)t);
	uintptr_t c = t && t->identifier ? (uintptr_t)strmap_get(&E->by_key, t->identifier) : 0;
	return c ? (unsigned)(c - 1) : IR_NONE;
}

/* The complete object of a class that byte off of an object of type t lies
 * in (a field, an array element, t itself; base subobjects stay part of the
 * object that holds them): its class, and off made relative to it. */
static unsigned complete_at(const engine *E, const di_type *t, int64_t *off, int depth)
{
	t = di_strip((di_type *)t);
	if (!t || depth > 16 || *off < 0)
		return IR_NONE;
	if (t->kind == DI_ARRAY && t->base) {
		const di_type *el = di_strip(t->base);
		int64_t es = el ? (int64_t)(el->size_bits / 8) : 0;
		if (es <= 0)
			return IR_NONE;
		*off %= es;
		return complete_at(E, el, off, depth + 1);
	}
	unsigned here = class_of_type(E, t);
	for (unsigned i = 0; i < t->n_members; i++) {
		const di_member *m = &t->members[i];
		const di_type *mt = di_strip(m->type);
		int64_t mo = (int64_t)(m->offset_bits / 8), ms = mt ? (int64_t)(mt->size_bits / 8) : 0;
		if (m->base || m->bitfield || !mt || *off < mo || *off >= mo + ms)
			continue;
		int64_t rel = *off - mo;
		unsigned inner = complete_at(E, mt, &rel, depth + 1);
		if (inner != IR_NONE) {
			*off = rel;
			return inner;
		}
	}
	return here;
}

/* The class of the complete object that location (obj, *off) lies in, *off
 * made relative to it; IR_NONE when it cannot be read. *by_name is set when
 * only the allocation's IR struct name gave it: llvm-link names isomorphic
 * classes alike (one "struct.A" for A and B of one layout), so vta may guess
 * with it but vslot's Prune-Class may not rest on it. */
static unsigned object_class(const engine *E, unsigned obj, int64_t *off, bool *by_name)
{
	const ir_class_use *u = object_entry(E, obj);
	*by_name = false;
	if (!u)
		return IR_NONE;
	if (u->type) {
		int64_t rel = *off;
		unsigned c = complete_at(E, u->type, &rel, 0);
		if (c != IR_NONE) {
			*off = rel;
			return c;
		}
	}
	*by_name = u->by_ir_name;
	return u->cls;
}

/* `this` of a method that only vtables reach holds only objects of classes
 * whose vtables hold the method (lookup(C, m) = t, the lesson's rule 3). */
static bool this_excludes(const engine *E, const ir_vcall *vc, unsigned c)
{
	const ir_program *p = E->p;
	const ir_function *t = p->sites[vc->site].caller;
	if (!vc->receiver_this || !t->vtable_only || E->direct_calls[t->id] || !E->in_some_slot[t->id])
		return false;
	const ir_class *k = p->classes[c];
	for (unsigned i = 0; i < k->n_points; i++) {
		const ir_vpoint *vp = &p->vpoints[k->first_point + i];
		for (unsigned s = 0; s < vp->n_slots; s++)
			if (vp->slots[s] == t)
				return false;
	}
	return true;
}

/* The classes of an object no type names (placement new into raw storage: a
 * char buffer, std::aligned_storage), read from the vtables stored at the
 * receiver's location loc: the vptr its constructors write. Each stored
 * address point gives (class, the subobject's offset); a vtable group the
 * points-to analysis collapsed gives its class at any of its points.
 * Flow-insensitively the location holds every vtable a constructor stores
 * there, the bases' too (Env's constructor stores Env's before PosixEnv's
 * overwrites it), so a class from which another one found there derives is
 * left out: the object is of the most derived class. vslot rests no pruning
 * on this (a base constructed alone into the same storage would be hidden):
 * it keeps cha's. vptr_read finds those (class, offset) pairs of loc once,
 * each once (the content of a location is fixed once the analysis is done);
 * vptr_targets looks them up for the site. */
static void vptr_read(engine *E, unsigned loc, struct vptr_list *m)
{
	const ir_program *p = E->p;
	const pta_solver *s = E->pta->solver;
	uvec found = {0};          /* the classes, and beside each its subobject offset (INT64_MIN: any) */
	VEC(int64_t) offs = {0};
	unsigned l, mark = ++E->vp_stamp;
	SBM_FOREACH(pta_pts(s, loc), l) {
		unsigned obj = pta_loc_object(s, l);
		const pta_obj_info *o = obj != PTA_NONE ? &E->pta->objects[obj] : NULL;
		unsigned c = o && o->kind == OBJ_GLOBAL && o->index < p->n_globals ? E->vtable_class[o->index] : 0;
		if (!c--)
			continue;
		const ir_class *k = p->classes[c];
		bool any = pta_object_collapsed(s, obj);
		for (unsigned i = 0; i < k->n_points; i++) {
			const ir_vpoint *vp = &p->vpoints[k->first_point + i];
			if (any || (int64_t)vp->offset == pta_loc_offset(s, l)) {
				VEC_PUSH(&found, c);
				VEC_PUSH(&offs, any ? INT64_MIN : -vp->offset_to_top);
				E->vp_mark[c] = mark;
				if (any)
					break;
			}
		}
	}
	m->first = (unsigned)E->vp_cls.len;
	for (size_t i = 0; i < found.len; i++) {
		unsigned c = found.items[i];
		bool keep = true;   /* no other class found here derives from c, and not kept already */
		for (unsigned k = 0; k < E->n_subs[c] && keep; k++)
			keep = E->subs[c][k] == c || E->vp_mark[E->subs[c][k]] != mark;
		for (size_t j = m->first; j < E->vp_cls.len && keep; j++)
			keep = E->vp_cls.items[j] != c || E->vp_off.items[j] != offs.items[i];
		if (keep) {
			VEC_PUSH(&E->vp_cls, c);
			VEC_PUSH(&E->vp_off, offs.items[i]);
		}
	}
	m->n = (unsigned)(E->vp_cls.len - m->first);
	m->done = true;
	VEC_FREE(&found);
	VEC_FREE(&offs);
}

static unsigned vptr_targets(engine *E, const ir_vcall *vc, unsigned loc, unsigned *out, unsigned n, bool *unknown)
{
	*unknown = true;
	if (E->m != M_VTA || !E->vtable_class)
		return n;
	if (!E->vptr_memo) {
		unsigned nl = pta_num_locations(E->pta->solver);
		E->vptr_memo = xcalloc(nl ? nl : 1, sizeof *E->vptr_memo);
		E->vp_mark = xcalloc(E->p->n_classes + 1, sizeof *E->vp_mark);
	}
	struct vptr_list *m = &E->vptr_memo[loc & ~PTA_LOC_BIT];
	if (!m->done)
		vptr_read(E, loc, m);
	for (unsigned i = 0; i < m->n; i++) {
		unsigned c = E->vp_cls.items[m->first + i];
		if (!this_excludes(E, vc, c))
			n = lookup(E, c, vc->cls, E->vp_off.items[m->first + i], vc, out, n);
	}
	return n;
}

/* The class of location loc's complete object and loc's offset in it
 * (object_class), read once per location. */
static const struct loc_class *loc_class(engine *E, unsigned loc)
{
	const pta_solver *s = E->pta->solver;
	if (!E->loc_memo) {
		unsigned nl = pta_num_locations(s);
		E->loc_memo = xcalloc(nl ? nl : 1, sizeof *E->loc_memo);
		E->cls_stamp = xcalloc(E->p->n_classes + 1, sizeof *E->cls_stamp);
		E->cls_off = xcalloc(E->p->n_classes + 1, sizeof *E->cls_off);
	}
	struct loc_class *m = &E->loc_memo[loc & ~PTA_LOC_BIT];
	if (m->state)
		return m;
	unsigned obj = pta_loc_object(s, loc);
	int64_t off = pta_loc_offset(s, loc);
	bool by_name = false;
	unsigned c = obj != PTA_NONE ? object_class(E, obj, &off, &by_name) : IR_NONE;
	m->cls = c;
	m->off = off;
	m->state = c == IR_NONE ? 2 : by_name ? 3 : 1;
	return m;
}

/* The targets the receiver's objects give (vta), or, with *unknown set when
 * some object has no class we can read, the caller keeps cha's (vslot). */
static unsigned object_targets(engine *E, const ir_vcall *vc, unsigned *out, bool *unknown)
{
	const pta_solver *s = E->pta->solver;
	const sbitmap *pts = vc->receiver != IR_NONE ? pta_value_pts(E->pta, vc->receiver) : NULL;
	*unknown = !pts || sbm_empty(pts);
	unsigned n = 0, loc;
	if (pts && ++E->stamp == 0) {   /* the stamps wrapped: forget them */
		memset(E->cls_stamp, 0, (E->p->n_classes + 1) * sizeof *E->cls_stamp);
		E->stamp = 1;
	}
	if (pts)
		SBM_FOREACH(pts, loc) {
			const struct loc_class *m = loc_class(E, loc);
			unsigned c = m->cls;
			int64_t off = m->off;
			if (c == IR_NONE) {
				n = pta_loc_object(s, loc) != PTA_NONE ? vptr_targets(E, vc, loc, out, n, unknown) : n;
				*unknown = true;
				continue;
			}
			if (m->state == 3 && E->m == M_VSLOT)   /* no evidence to prune on: vslot keeps cha's */
				*unknown = true;
			if (E->cls_stamp[c] == E->stamp && E->cls_off[c] == off)
				continue;   /* looked up at this offset already: the same targets */
			E->cls_stamp[c] = E->stamp;
			E->cls_off[c] = off;
			if (this_excludes(E, vc, c))
				continue;
			if (E->rcls && !E->rcls_mark[c]) {
				E->rcls_mark[c] = true;
				E->rcls[E->n_rcls++] = c;
			}
			unsigned before = n;
			n = lookup(E, c, vc->cls, off, vc, out, n);
			/* a class with no vtable in the module: its objects cannot be read */
			if (n == before && E->p->classes[c]->n_points == 0)
				*unknown = true;
		}
	return finish(E, out, n);
}

/* ---- the engine ---------------------------------------------------------------------------- */

static void reach(engine *E, unsigned f)
{
	if (!E->reach[f] && E->p->functions[f]->defined) {
		E->reach[f] = true;
		E->work[E->n_work++] = f;
	} else {
		E->reach[f] = true;
	}
}

static unsigned indirect_targets(engine *E, const ir_site *s, unsigned *out)
{
	const ir_program *p = E->p;
	unsigned n = 0;
	if (s->through_alias && !E->other) {   /* cha, rta: a call through an alias names its function */
		out[0] = s->through_alias->id;
		return 1;
	}
	if (E->other) {
		unsigned n_other = E->other->n_targets[s->id];
		if (n_other)
			memcpy(out, E->other->targets[s->id], n_other * sizeof *out);
		return n_other;
	}
	for (unsigned i = 0; i < E->n_taken; i++)
		if (pta_type_fits(s, p->functions[E->taken[i]]))
			out[n++] = E->taken[i];
	return n;
}

static unsigned indirect_targets(engine *E, const ir_site *s, unsigned *out);

static unsigned dispatch_targets(engine *E, const ir_vcall *vc, unsigned *out)
{
	if (vc->structor != IR_NONE)   /* the constructor's or destructor's own class */
		return finish(E, out, lookup(E, vc->structor, vc->cls, vc->cls == IR_NONE ? 0 : INT64_MIN, vc, out, 0));
	switch (E->m) {
	case M_CHA: return cha_targets(E, vc, out, false);
	case M_RTA: return cha_targets(E, vc, out, true);
	case M_VTA: {
		bool unknown;
		return object_targets(E, vc, out, &unknown);
	}
	case M_VSLOT: {
		bool unknown;
		unsigned n = object_targets(E, vc, out, &unknown);
		return unknown ? cha_targets(E, vc, out, false) : n;
	}
	}
	return 0;
}

/* ---- vslot's reasons ------------------------------------------------------------------------ */

static void add_reason(engine *E, unsigned site, unsigned f, bool refuted, const char *evidence)
{
	cxx_slot_reasons *w = E->why;
	if (w->n == w->cap)
		w->items = xrealloc(w->items, (w->cap = w->cap ? 2 * w->cap : 64) * sizeof *w->items);
	w->items[w->n++] = (cxx_slot_reason){site, f, refuted, evidence};
}

/* "Circle, Square": the receiver's object classes, at most a few named. */
static const char *class_list(engine *E)
{
	char buf[512];
	size_t len = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < E->n_rcls && len < sizeof buf - 64; i++) {
		if (i == 6) {
			len += (size_t)snprintf(buf + len, sizeof buf - len, " and %u more", E->n_rcls - i);
			break;
		}
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%.100s", i ? ", " : "", E->p->classes[E->rcls[i]]->name);
	}
	return arena_strdup(&E->why->arena, buf);
}

/* The witness of f (lookup found it at address point wit_point[f], slot wit_slot[f]). */
static const char *witness_text(engine *E, const ir_vcall *vc, unsigned f)
{
	const ir_program *p = E->p;
	const ir_vpoint *vp = &p->vpoints[E->wit_point[f]];
	const ir_class *k = p->classes[vp->cls];
	unsigned long long at = vp->offset + (unsigned long long)E->wit_slot[f] * p->pointer_size;
	const char *why = vc->structor != IR_NONE ? "the receiver is `this` in a constructor or destructor of that class"
	                  : vc->cls == IR_NONE ? "the receiver's static class is not known: any class's vtable"
	                  : vc->any_slot ? "a member-function pointer: any slot of a class of the receiver's type"
	                                 : NULL;
	return why ? arena_printf(&E->why->arena, "slot %u of %s's vtable (byte %llu of its group); %s", E->wit_slot[f],
	                          k->name, at, why)
	           : vp->cls == vc->cls
	                 ? arena_printf(&E->why->arena, "slot %u of %s's vtable (byte %llu of its group); %s is the "
	                                "receiver's static class", E->wit_slot[f], k->name, at, k->name)
	                 : arena_printf(&E->why->arena, "slot %u of %s's vtable (byte %llu of its group); %s derives "
	                                "from %s, the receiver's static class", E->wit_slot[f], k->name, at, k->name,
	                                p->classes[vc->cls]->name);
}

/* The reasons for site vc: cha's targets, each with its witness; those the
 * receiver's objects exclude (vslot drops them) refuted by their classes. */
static void slot_reasons(engine *E, const ir_vcall *vc)
{
	unsigned nf = E->p->n_functions, *cha = E->buf, *kept = E->buf + nf;
	bool unknown = true;
	unsigned n_kept = 0;
	E->n_rcls = 0;
	if (vc->structor == IR_NONE) {
		E->rcls = xmalloc((E->p->n_classes + 1) * sizeof *E->rcls);
		n_kept = object_targets(E, vc, kept, &unknown);
		for (unsigned i = 0; i < E->n_rcls; i++)
			E->rcls_mark[E->rcls[i]] = false;
	}
	const char *classes = E->rcls && !unknown ? class_list(E) : NULL;
	E->m = M_CHA;   /* after object_targets: its lookups overwrite the witnesses */
	unsigned n_cha = dispatch_targets(E, vc, cha);
	E->m = M_VSLOT;
	for (unsigned i = 0; !unknown && i < n_kept; i++)
		E->mark[kept[i]] = true;
	for (unsigned i = 0; i < n_cha; i++) {
		unsigned f = cha[i];
		add_reason(E, vc->site, f, false, witness_text(E, vc, f));
		if (!unknown && !E->mark[f])
			add_reason(E, vc->site, f, true,
			           arena_printf(&E->why->arena, "the receiver points to objects of %s only (their "
			                        "allocation sites' classes), whose vtables do not place it there",
			                        classes && *classes ? classes : "no class"));
	}
	for (unsigned i = 0; !unknown && i < n_kept; i++)
		E->mark[kept[i]] = false;
	free(E->rcls);
	E->rcls = NULL;
}

static unsigned virtual_targets(engine *E, const ir_vcall *vc, unsigned *out)
{
	unsigned n = dispatch_targets(E, vc, out);
	if (!vc->mixed)
		return n;
	/* and the member-function pointer's non-virtual branch (duplicates: cg_set_targets drops them) */
	return n + indirect_targets(E, &E->p->sites[vc->site], out + n);
}

/* The targets of site s (its graph's rule); direct sites their callee. */
static unsigned site_targets(engine *E, const ir_site *s, unsigned *out)
{
	if (s->kind == SITE_DIRECT) {
		out[0] = s->callee->id;
		return 1;
	}
	if (s->kind != SITE_INDIRECT)
		return 0;
	return s->vcall != IR_NONE ? virtual_targets(E, &E->p->vcalls[s->vcall], out) : indirect_targets(E, s, out);
}

static bool instantiate(engine *E, unsigned key)
{
	const ir_program *p = E->p;
	bool grew = false;
	for (unsigned i = 0; i < p->n_instantiations; i++)   /* sorted: a binary search would do; lists are short */
		if (p->instantiations[i].key == key && !E->inst[p->instantiations[i].cls])
			grew = E->inst[p->instantiations[i].cls] = true;
	return grew;
}

static void roots(engine *E)
{
	const ir_program *p = E->p;
	const ir_function *main_fn = ir_find_function(p, "main");
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		bool root = main_fn && main_fn->defined ? f == main_fn : !ir_linkage_is_local(f->linkage);
		if (root || (f->address_taken && !f->vtable_only))
			reach(E, i);
	}
	const char *tables[] = {"llvm.global_ctors", "llvm.global_dtors"};
	for (unsigned t = 0; t < 2; t++) {
		const ir_global *g = ir_find_global(p, tables[t]);
		for (unsigned i = 0; g && i < g->n_slots; i++)
			if (g->slots[i].kind == SLOT_FUNCTION)
				reach(E, g->slots[i].function->id);
	}
}

static void solve(engine *E)
{
	const ir_program *p = E->p;
	roots(E);
	if (E->m == M_RTA)
		instantiate(E, IR_NONE);
	bool again = true;
	while (again) {
		while (E->n_work) {
			const ir_function *f = p->functions[E->work[--E->n_work]];
			if (E->m == M_RTA)
				instantiate(E, f->id);
			for (unsigned i = 0; i < f->n_sites; i++) {
				const ir_site *s = &p->sites[f->first_site + i];
				unsigned n = site_targets(E, s, E->buf);
				for (unsigned k = 0; k < n; k++)
					reach(E, E->buf[k]);
				for (unsigned k = 0; k < s->n_callbacks; k++)
					reach(E, s->callbacks[k]->id);
			}
		}
		/* RTA: classes instantiated later widen the virtual sites seen before. */
		again = false;
		for (unsigned v = 0; E->m == M_RTA && v < p->n_vcalls; v++) {
			const ir_site *s = &p->sites[p->vcalls[v].site];
			if (!E->reach[s->caller->id])
				continue;
			unsigned n = site_targets(E, s, E->buf);
			for (unsigned k = 0; k < n; k++)
				if (!E->reach[E->buf[k]]) {
					reach(E, E->buf[k]);
					again = true;
				}
		}
	}
}

static void engine_init(engine *E, const ir_program *p, mode m)
{
	memset(E, 0, sizeof *E);
	E->p = p;
	E->m = m;
	unsigned nf = p->n_functions ? p->n_functions : 1;
	build_subs(E);
	E->reach = xcalloc(nf, sizeof *E->reach);
	E->inst = xcalloc(p->n_classes ? p->n_classes : 1, sizeof *E->inst);
	E->work = xcalloc(nf, sizeof *E->work);
	E->direct_calls = xcalloc(nf, sizeof *E->direct_calls);
	E->in_some_slot = xcalloc(nf, sizeof *E->in_some_slot);
	E->buf = xcalloc(2 * (size_t)nf, sizeof *E->buf);
	strmap_init(&E->by_key);
	for (unsigned c = 0; c < p->n_classes; c++)
		strmap_put(&E->by_key, p->classes[c]->key, (void *)(uintptr_t)(c + 1));
	E->mark = xcalloc(nf, sizeof *E->mark);
	E->taken = xcalloc(nf, sizeof *E->taken);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (f->address_taken && !f->vtable_only && !f->intrinsic)
			E->taken[E->n_taken++] = i;
	}
	for (unsigned i = 0; i < p->n_sites; i++)
		if (p->sites[i].kind == SITE_DIRECT)
			E->direct_calls[p->sites[i].callee->id]++;
	for (unsigned i = 0; i < p->n_vpoints; i++)
		for (unsigned s = 0; s < p->vpoints[i].n_slots; s++)
			if (p->vpoints[i].slots[s])
				E->in_some_slot[p->vpoints[i].slots[s]->id] = true;
}

static cg_graph *engine_graph(engine *E, const char *name)
{
	const ir_program *p = E->p;
	solve(E);
	cg_graph *g = cg_new(p, name);
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind != SITE_DIRECT && !E->reach[s->caller->id])
			continue;
		unsigned n = site_targets(E, s, E->buf);
		cg_set_targets(g, i, E->buf, n);
		if (E->why && s->kind == SITE_INDIRECT && s->vcall != IR_NONE)
			slot_reasons(E, &p->vcalls[s->vcall]);
	}
	free(E->loc_memo);
	free(E->vptr_memo);
	free(E->vp_mark);
	VEC_FREE(&E->vp_cls);
	VEC_FREE(&E->vp_off);
	free(E->cls_stamp);
	free(E->cls_off);
	free(E->wit_point);
	free(E->wit_slot);
	free(E->rcls_mark);
	free(E->taken);
	strmap_free(&E->by_key);
	for (unsigned c = 0; c < p->n_classes; c++)
		free(E->subs[c]);
	free(E->subs);
	free(E->n_subs);
	free(E->reach);
	free(E->inst);
	free(E->work);
	free(E->direct_calls);
	free(E->in_some_slot);
	free(E->buf);
	free(E->mark);
	return g;
}

cg_graph *cxx_cha(const ir_program *p)
{
	engine E;
	engine_init(&E, p, M_CHA);
	return engine_graph(&E, "cha");
}

cg_graph *cxx_rta(const ir_program *p)
{
	engine E;
	engine_init(&E, p, M_RTA);
	return engine_graph(&E, "rta");
}

cg_graph *cxx_vta(const pta_result *pta, const cg_graph *r0)
{
	engine E;
	const ir_program *p = pta->prog;
	engine_init(&E, p, M_VTA);
	E.pta = pta;
	E.other = r0;
	E.vtable_class = xcalloc(p->n_globals ? p->n_globals : 1, sizeof *E.vtable_class);
	for (unsigned c = 0; c < p->n_classes; c++)
		if (p->classes[c]->vtable && p->classes[c]->vtable->id < p->n_globals)
			E.vtable_class[p->classes[c]->vtable->id] = c + 1;
	cg_graph *g = engine_graph(&E, "vta");
	free(E.vtable_class);
	return g;
}

cg_graph *cxx_vslot(const pta_result *pta, const cg_graph *rpm)
{
	engine E;
	engine_init(&E, pta->prog, M_VSLOT);
	E.pta = pta;
	E.other = rpm;
	return engine_graph(&E, "vslot");
}

cg_graph *cxx_vslot_reasons(const pta_result *pta, const cg_graph *rpm, cxx_slot_reasons *why)
{
	const ir_program *p = pta->prog;
	memset(why, 0, sizeof *why);
	arena_init(&why->arena);
	engine E;
	engine_init(&E, p, M_VSLOT);
	E.pta = pta;
	E.other = rpm;
	E.why = why;
	unsigned nf = p->n_functions ? p->n_functions : 1;
	E.wit_point = xcalloc(nf, sizeof *E.wit_point);
	E.wit_slot = xcalloc(nf, sizeof *E.wit_slot);
	E.rcls_mark = xcalloc(p->n_classes + 1, sizeof *E.rcls_mark);
	return engine_graph(&E, "vslot");
}

void cxx_slot_reasons_free(cxx_slot_reasons *why)
{
	free(why->items);
	arena_free(&why->arena);
	memset(why, 0, sizeof *why);
}

bool cxx_is_virtual_graph(int id)
{
	return id >= CG_CHA && id <= CG_VSLOT;
}

cg_graph *cxx_graph(int id, const ir_program *p, const pta_result *pta, const cg_graph *r0, const cg_graph *rpm)
{
	switch (id) {
	case CG_CHA: return cxx_cha(p);
	case CG_RTA: return cxx_rta(p);
	case CG_VTA: return pta && r0 ? cxx_vta(pta, r0) : NULL;
	case CG_VSLOT: return pta && rpm ? cxx_vslot(pta, rpm) : NULL;
	default: return NULL;
	}
}
