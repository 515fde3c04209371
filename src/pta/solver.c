/* solver.c — worklist Andersen solver: difference propagation, lazy cycle
 * detection, lazily created field locations.
 *
 * The constraint graph. Every node has a points-to set `pts`, a set of copy
 * successors `succ` (an edge a→b means pts(a) ⊆ pts(b)) and a list of complex
 * constraints that read its points-to set (load and gep with it as source,
 * store with it as destination). Loads and stores become copy edges once the
 * locations they go through are known.
 *
 * Difference propagation (Pearce, Kelly, Hankin, "Online cycle detection and
 * difference propagation for pointer analysis", SCAM 2003): each node also
 * keeps `delta`, the part of pts not yet pushed along its edges and through
 * its complex constraints. Processing a node pushes only the delta, so a
 * location crosses each edge once, not once per change of its source.
 *
 * Lazy cycle detection (Hardekopf & Lin, "The Ant and the Grasshopper: fast
 * and accurate pointer analysis for millions of lines of code", PLDI 2007,
 * §4.2): when propagating along n→z leaves pts(n) == pts(z), the edge may lie
 * on a cycle; the first time that happens for an edge, Tarjan's algorithm
 * runs from z and every strongly connected component it finds is merged into
 * one node (union-find), since all nodes of a copy cycle have the same
 * points-to set. Chosen over wave propagation (Pereira & Berlin, CGO 2009)
 * because it fits a worklist driven by on-the-fly call-graph callbacks, which
 * add constraints at arbitrary moments, and keeps one delta set per node
 * rather than a second full "previous" set.
 *
 * Identity versus content. Union-find merges nodes' *contents* (pts, edges,
 * constraints); it never changes which location an id in a points-to set
 * names, since two locations with equal contents are still two locations.
 * Collapsing an object does change identity: its fields become one location.
 * Points-to sets may then hold stale ids of that object's other fields; every
 * use maps them (canon), and pta_solve rewrites them once at the end. That
 * keeps collapse O(fields of the object) instead of a scan of all sets.
 *
 * Positive-weight cycles. `p = p + 8` in a loop is a cycle of value flow
 * through a gep: taken literally it walks the object one offset at a time,
 * creating a location per step, until it leaves the object. Pearce, Kelly,
 * Hankin ("Efficient field-sensitive pointer analysis for C", PASTE 2004 /
 * TOPLAS 2007, §4) collapse what flows around such a cycle; so does this
 * solver: a gep with a non-zero offset that lies on a cycle of the flow graph
 * (copy edges, those that loads and stores resolved to, and geps) acts as
 * pta_gep_var. Cycles are looked for over the whole graph before solving and
 * at every fixpoint (which decides the answer), and during solving whenever a
 * gep shifts a location it created itself (which saves the walk).
 *
 * Determinism: the result is the least fixpoint of a monotone system (more
 * locations only cause more collapses, more edges and more cycles, and each
 * of those only adds locations), so worklist order, insertion order and the
 * choice of union-find representatives change the work done, never the
 * answer. A gep found on a cycle stays on one as edges are added, so finding
 * it early never changes the answer either. */
#include "pta/solver.h"
#include "util/ptrmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(void *) >= 8, "ptrmap keys pack two 32-bit ids");

#define NIL PTA_NONE

typedef struct pnode {
	sbitmap pts;        /* at a representative: its points-to set */
	sbitmap delta;      /* ⊆ pts: not yet pushed through edges, constraints, watches */
	sbitmap succ;       /* copy successors; ids may be stale, map with find */
	uint32_t parent;    /* union-find; itself when representative */
	uint32_t obj;       /* object of a location, NIL for a variable */
	uint32_t off;       /* byte offset of a location */
	uint32_t next_field;/* next location of the same object */
	uint32_t cx;        /* head of the complex-constraint list */
	uint32_t cx_tail;
	uint32_t watch;     /* head of the watch list */
	uint32_t npts;      /* |pts|, kept so the cycle test compares sets only when sizes match */
	uint32_t creator;   /* location: the gep that first made it, NIL if none */
	uint8_t  queued;    /* on the worklist */
	uint8_t  rank;      /* union by rank */
} pnode;

/* CX_GEP_PWC: a gep found on a cycle; applies as gep_var, and stays an edge
 * of the flow graph, so that which geps are on cycles depends only on the
 * final graph, never on the order they were found in. */
enum { CX_LOAD, CX_STORE, CX_GEP, CX_GEP_VAR, CX_GEP_PWC };

typedef struct pcx {
	int64_t  off;
	uint32_t other;     /* load, gep: destination; store: source */
	uint32_t next;
	uint8_t  kind;
	uint8_t  tries;     /* gep: cycle searches it triggered (bounded) */
} pcx;

typedef struct pwatch {
	sbitmap  reported;  /* locations already given to on_new under this watch */
	unsigned tag;
	uint32_t next;
} pwatch;

typedef struct pobj {
	uint64_t size;
	unsigned flags;
	uint32_t fields;    /* head of its locations' list */
	uint32_t base;      /* location at offset 0, NIL until made */
	uint8_t  collapsed;
} pobj;

typedef struct report { unsigned tag, loc; } report;

typedef struct frame { uint32_t v, cx; sbm_iter it; } frame;   /* cx: next of v's geps to follow */
typedef struct fix { uint32_t c, owner; } fix;                 /* a gep found on a cycle */

struct pta_solver {
	VEC(pnode) nodes;
	VEC(pobj) objs;
	VEC(pcx) cxs;
	VEC(pwatch) watches;
	ptrmap fields;          /* (object, offset) → location + 1 */
	ptrmap checked;         /* LCD: edges (n, z) already tested */
	sbitmap stale;          /* fields of collapsed objects other than the offset-0 one */

	uint32_t *ring;         /* worklist: FIFO ring of node ids */
	size_t ring_cap, head, count;

	VEC(report) pending;    /* reports waiting to be handed to on_new */
	VEC(uint32_t) cands;    /* LCD: roots to search from after the current node */
	VEC(fix) pwc_cands;     /* geps that shifted their own output: cycle search roots */
	VEC(fix) fixes;         /* geps found on cycles, turned into gep_var after the search */

	/* Tarjan's SCC state, kept between runs; `stamp` tells this run's visits
	 * apart, `comp` numbers components across all runs. */
	uint32_t *num, *low, *visit, *comp;
	size_t tarjan_cap;
	uint32_t stamp, counter, comps;
	VEC(frame) frames;
	VEC(uint32_t) tstack;
	VEC(uint32_t) members;

	FILE *trace;            /* every API call, one line each (pta_trace) */

	sbitmap scratch;        /* reused delta buffer of the node being processed */
	uint32_t cur;           /* node being processed, NIL outside process() */
	const sbitmap *cur_delta; /* its detached delta: not yet done, though not in delta */

	pta_on_new on_new;
	void *ctx;
	int cycle_detection;
	int solving;
	pta_stats st;
};

#define TRACE(s, ...) do { if ((s)->trace) fprintf((s)->trace, __VA_ARGS__); } while (0)

/* ---- union-find ---- */

static uint32_t find(pta_solver *s, uint32_t n)
{
	pnode *v = s->nodes.items;
	while (v[n].parent != n) {
		v[n].parent = v[v[n].parent].parent;   /* path halving */
		n = v[n].parent;
	}
	return n;
}

static uint32_t find_const(const pta_solver *s, uint32_t n)
{
	while (s->nodes.items[n].parent != n)
		n = s->nodes.items[n].parent;
	return n;
}

/* ---- nodes, objects, locations ---- */

static uint32_t new_node(pta_solver *s, uint32_t obj, uint32_t off)
{
	assert(s->nodes.len < NIL);
	uint32_t id = (uint32_t)s->nodes.len;
	pnode n = { .parent = id, .obj = obj, .off = off, .next_field = NIL,
	            .cx = NIL, .cx_tail = NIL, .watch = NIL, .creator = NIL };
	VEC_PUSH(&s->nodes, n);
	return id;
}

static void push(pta_solver *s, uint32_t n)
{
	if (s->nodes.items[n].queued)
		return;
	s->nodes.items[n].queued = 1;
	if (s->count == s->ring_cap) {
		size_t cap = s->ring_cap ? s->ring_cap * 2 : 1024;
		uint32_t *r = xmalloc(cap * sizeof *r);
		for (size_t i = 0; i < s->count; i++)
			r[i] = s->ring[(s->head + i) % s->ring_cap];
		free(s->ring);
		s->ring = r;
		s->ring_cap = cap;
		s->head = 0;
	}
	s->ring[(s->head + s->count++) % s->ring_cap] = n;
}

static void *field_key(uint32_t obj, uint32_t off)
{
	return (void *)(uintptr_t)(((uint64_t)obj + 1) << 32 | off);
}

/* The location (obj, off) for an in-range offset of an uncollapsed object, or
 * its one location once collapsed; made on first use. */
static uint32_t field(pta_solver *s, uint32_t obj, uint32_t off)
{
	pobj *o = &s->objs.items[obj];
	if (o->collapsed || off == 0) {
		if (o->base != NIL)
			return o->base;
		off = 0;
	} else {
		void *v = ptrmap_get(&s->fields, field_key(obj, off));
		if (v)
			return (uint32_t)((uintptr_t)v - 1);
	}
	uint32_t loc = new_node(s, obj, off);
	o = &s->objs.items[obj];
	s->nodes.items[loc].next_field = o->fields;
	o->fields = loc;
	if (off == 0)
		o->base = loc;
	else
		ptrmap_put(&s->fields, field_key(obj, off), (void *)(uintptr_t)(loc + 1));
	s->st.locations++;
	return loc;
}

static uint32_t canon(const pta_solver *s, uint32_t loc)
{
	uint32_t obj = s->nodes.items[loc].obj;
	if (obj != NIL && s->objs.items[obj].collapsed)
		return s->objs.items[obj].base;
	return loc;
}

static void merge(pta_solver *s, uint32_t a, uint32_t b);

/* All fields of obj become its offset-0 location: contents merge, and the
 * other field ids turn stale (canon maps them). */
static uint32_t collapse(pta_solver *s, uint32_t obj)
{
	uint32_t base = field(s, obj, 0);
	pobj *o = &s->objs.items[obj];
	if (o->collapsed)
		return base;
	o->collapsed = 1;
	s->st.collapsed_objects++;
	for (uint32_t f = o->fields; f != NIL; f = s->nodes.items[f].next_field) {
		if (f == base)
			continue;
		sbm_set(&s->stale, f);
		uint32_t a = find(s, base), b = find(s, f);
		if (a != b)
			merge(s, a, b);
	}
	return base;
}

/* The location at byte offset d from location loc, collapsing its object if
 * that leaves the object (see "Collapse" in solver.h). */
static uint32_t shift(pta_solver *s, uint32_t loc, int64_t d)
{
	uint32_t obj = s->nodes.items[loc].obj;
	assert(obj != NIL);
	pobj *o = &s->objs.items[obj];
	if (o->collapsed)
		return field(s, obj, 0);
	if (d == 0)
		return loc;
	int64_t k = (int64_t)s->nodes.items[loc].off + d;
	if (k < 0 || (uint64_t)k >= o->size)
		return collapse(s, obj);
	return field(s, obj, (uint32_t)k);
}

/* ---- graph updates ---- */

static void add_loc(pta_solver *s, uint32_t dst, uint32_t loc)
{
	dst = find(s, dst);
	pnode *d = &s->nodes.items[dst];
	if (sbm_set(&d->pts, loc)) {
		d->npts++;
		sbm_set(&d->delta, loc);
		push(s, dst);
	}
}

/* Edge a→b. A new edge carries all of pts(a): what a has already pushed
 * elsewhere has not reached b. */
static void add_edge(pta_solver *s, uint32_t a, uint32_t b)
{
	a = find(s, a);
	b = find(s, b);
	if (a == b)
		return;
	if (!sbm_set(&s->nodes.items[a].succ, b))
		return;
	s->st.edges++;
	pnode *na = &s->nodes.items[a], *nb = &s->nodes.items[b];
	size_t added = sbm_union_track(&nb->pts, &na->pts, &nb->delta);
	if (added) {
		nb->npts += (uint32_t)added;
		push(s, b);
	}
}

static void queue_report(pta_solver *s, uint32_t w, uint32_t loc)
{
	loc = canon(s, loc);
	if (sbm_set(&s->watches.items[w].reported, loc)) {
		report r = { s->watches.items[w].tag, loc };
		VEC_PUSH(&s->pending, r);
	}
}

/* Applies complex constraint c of node owner to every location in set (a
 * set the caller owns: applying may add to any node's points-to set). */
static void apply_cx(pta_solver *s, uint32_t c, uint32_t owner, const sbitmap *set)
{
	pcx x = s->cxs.items[c];
	unsigned l;
	SBM_FOREACH(set, l) {
		switch (x.kind) {
		case CX_LOAD:
			add_edge(s, shift(s, l, x.off), x.other);
			break;
		case CX_STORE:
			add_edge(s, x.other, shift(s, l, x.off));
			break;
		case CX_GEP: {
			size_t before = s->nodes.len;
			uint32_t t = shift(s, l, x.off);
			if (t >= before)
				s->nodes.items[t].creator = c;
			/* Shifting what this gep made itself: it is probably on a cycle. */
			if (s->nodes.items[l].creator == c && s->cxs.items[c].tries < 3) {
				s->cxs.items[c].tries++;
				fix f = { c, owner };
				VEC_PUSH(&s->pwc_cands, f);
			}
			add_loc(s, x.other, t);
			break;
		}
		case CX_GEP_VAR:
		case CX_GEP_PWC:
			add_loc(s, x.other, collapse(s, s->nodes.items[l].obj));
			break;
		}
	}
}

/* Links the complex-constraint list starting at c after n's list. */
static void append_cx(pta_solver *s, uint32_t n, uint32_t c, uint32_t tail)
{
	pnode *v = &s->nodes.items[n];
	if (v->cx == NIL)
		v->cx = c;
	else
		s->cxs.items[v->cx_tail].next = c;
	v->cx_tail = tail;
}

/* Merges representative b into representative a (or a into b, by rank).
 * The survivor must redo what either side has not done: a location that only
 * one of them had processed is still new to the other's edges, constraints
 * and watches, so the new delta is pts \ (done(a) ∩ done(b)). */
static void merge(pta_solver *s, uint32_t a, uint32_t b)
{
	pnode *v = s->nodes.items;
	if (v[a].rank < v[b].rank) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	if (v[a].rank == v[b].rank)
		v[a].rank++;
	v[b].parent = a;
	s->st.merged++;

	sbitmap common = {0}, done_b = {0};
	sbm_diff(&common, &v[a].pts, &v[a].delta);
	sbm_diff(&done_b, &v[b].pts, &v[b].delta);
	/* A collapse inside process() can merge away the node being processed;
	 * its detached delta is not done. (If that node survives instead,
	 * process() goes on pushing the delta through the joined lists.) */
	if (b == s->cur)
		sbm_subtract(&done_b, s->cur_delta);
	sbm_intersect(&common, &done_b);
	sbm_union(&v[a].pts, &v[b].pts);
	v[a].npts = (uint32_t)sbm_count(&v[a].pts);
	sbm_diff(&v[a].delta, &v[a].pts, &common);
	sbm_free(&common);
	sbm_free(&done_b);

	sbm_union(&v[a].succ, &v[b].succ);
	sbm_reset(&v[a].succ, a);
	sbm_reset(&v[a].succ, b);
	sbm_free(&v[b].pts);
	sbm_free(&v[b].delta);
	sbm_free(&v[b].succ);

	if (v[b].cx != NIL)
		append_cx(s, a, v[b].cx, v[b].cx_tail);
	v[b].cx = v[b].cx_tail = NIL;
	if (v[b].watch != NIL) {
		uint32_t w = v[b].watch;
		while (s->watches.items[w].next != NIL)
			w = s->watches.items[w].next;
		s->watches.items[w].next = v[a].watch;
		v[a].watch = v[b].watch;
		v[b].watch = NIL;
	}
	if (!sbm_empty(&v[a].delta))
		push(s, a);
}

/* ---- cycle detection ---- */

static void tarjan_reserve(pta_solver *s)
{
	if (s->tarjan_cap >= s->nodes.len)
		return;
	size_t cap = s->tarjan_cap ? s->tarjan_cap : 1024;
	while (cap < s->nodes.len)
		cap *= 2;
	s->num = xrealloc(s->num, cap * sizeof *s->num);
	s->low = xrealloc(s->low, cap * sizeof *s->low);
	s->visit = xrealloc(s->visit, cap * sizeof *s->visit);
	s->comp = xrealloc(s->comp, cap * sizeof *s->comp);
	memset(s->visit + s->tarjan_cap, 0, (cap - s->tarjan_cap) * sizeof *s->visit);
	memset(s->comp + s->tarjan_cap, 0, (cap - s->tarjan_cap) * sizeof *s->comp);
	s->tarjan_cap = cap;
}

/* Starts a search: a new stamp makes every node unvisited. */
static void new_search(pta_solver *s)
{
	tarjan_reserve(s);
	if (++s->stamp == 0) {   /* wrapped: old stamps could look current */
		memset(s->visit, 0, s->tarjan_cap * sizeof *s->visit);
		s->stamp = 1;
	}
	s->counter = 0;
}

#define DONE 0xffffffffu   /* num of a node whose component is finished */

static void tarjan_visit(pta_solver *s, uint32_t v, int flow)
{
	s->visit[v] = s->stamp;
	s->num[v] = s->low[v] = ++s->counter;
	VEC_PUSH(&s->tstack, v);
	frame f = { v, flow ? s->nodes.items[v].cx : NIL, sbm_iter_begin(&s->nodes.items[v].succ) };
	VEC_PUSH(&s->frames, f);
}

/* A finished component (in s->members). Over the flow graph, a gep between
 * two of its nodes (or from one to itself) is on a positive-weight cycle:
 * record it, and merge nothing — nodes joined by a gep differ. Otherwise all
 * its edges are copies and its nodes have equal sets: merge them. */
static void finish_component(pta_solver *s, int flow)
{
	uint32_t *m = s->members.items, n = (uint32_t)s->members.len;
	if (flow) {
		uint32_t id = ++s->comps;
		if (!id) {   /* wrapped: stale numbers could match */
			memset(s->comp, 0, s->tarjan_cap * sizeof *s->comp);
			id = s->comps = 1;
		}
		for (uint32_t i = 0; i < n; i++)
			s->comp[m[i]] = id;
		int pwc = 0;
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t c = s->nodes.items[m[i]].cx; c != NIL; c = s->cxs.items[c].next) {
				const pcx *x = &s->cxs.items[c];
				if ((x->kind != CX_GEP && x->kind != CX_GEP_PWC) || s->comp[find(s, x->other)] != id)
					continue;
				pwc = 1;
				if (x->kind == CX_GEP) {
					fix f = { c, m[i] };
					VEC_PUSH(&s->fixes, f);
				}
			}
		if (pwc)
			return;
	}
	if (n < 2 || !s->cycle_detection)
		return;
	s->st.cycles++;
	uint32_t rep = m[0];
	for (uint32_t i = 1; i < n; i++) {
		uint32_t a = find(s, rep), b = find(s, m[i]);
		if (a != b)
			merge(s, a, b);
		rep = find(s, a);
	}
}

/* Tarjan's SCC algorithm from root, iterative (graphs have copy chains far
 * deeper than the C stack), over copy edges, and over geps too when `flow`.
 * Components are handled as they finish; a component is merged only once all
 * its members' frames are popped, so no live iterator walks a set that the
 * merge changes. The caller calls new_search first; one search may be
 * started from several roots. */
static void tarjan(pta_solver *s, uint32_t root, int flow)
{
	if (s->visit[root] == s->stamp)
		return;
	tarjan_visit(s, root, flow);
	while (s->frames.len) {
		frame *f = &VEC_LAST(&s->frames);
		uint32_t v = f->v, w = NIL;
		unsigned x;
		if (sbm_iter_next(&f->it, &x))
			w = find(s, x);
		else
			while (f->cx != NIL) {
				const pcx *c = &s->cxs.items[f->cx];
				f->cx = c->next;
				if (c->kind == CX_GEP || c->kind == CX_GEP_PWC) {
					w = find(s, c->other);
					break;
				}
			}
		if (w != NIL) {
			if (w == v)
				continue;
			if (s->visit[w] != s->stamp)
				tarjan_visit(s, w, flow);
			else if (s->num[w] != DONE && s->num[w] < s->low[v])
				s->low[v] = s->num[w];
			continue;
		}
		s->frames.len--;
		if (s->frames.len) {
			uint32_t p = VEC_LAST(&s->frames).v;
			if (s->low[v] < s->low[p])
				s->low[p] = s->low[v];
		}
		if (s->low[v] != s->num[v])
			continue;
		VEC_CLEAR(&s->members);
		for (;;) {
			uint32_t y = VEC_POP(&s->tstack);
			s->num[y] = DONE;
			VEC_PUSH(&s->members, y);
			if (y == v)
				break;
		}
		finish_component(s, flow);
	}
}

/* Turns the geps found on cycles into CX_GEP_PWC, applied to all their
 * source already holds. Returns how many changed. */
static size_t apply_fixes(pta_solver *s)
{
	size_t n = 0;
	sbitmap set = {0};
	for (size_t i = 0; i < s->fixes.len; i++) {
		fix f = s->fixes.items[i];
		if (s->cxs.items[f.c].kind != CX_GEP)
			continue;
		s->cxs.items[f.c].kind = CX_GEP_PWC;
		s->st.pwc_geps++;
		n++;
		sbm_copy(&set, &s->nodes.items[find(s, f.owner)].pts);
		apply_cx(s, f.c, f.owner, &set);
	}
	sbm_free(&set);
	VEC_CLEAR(&s->fixes);
	return n;
}

/* The whole flow graph: merges copy cycles, finds every gep on a cycle. */
static size_t flow_pass(pta_solver *s)
{
	new_search(s);
	s->st.cycle_searches++;
	for (uint32_t n = 0; n < s->nodes.len; n++)
		if (s->nodes.items[n].parent == n)
			tarjan(s, n, 1);
	return apply_fixes(s);
}

/* ---- the worklist loop ---- */

static void process(pta_solver *s, uint32_t n)
{
	pnode *v = &s->nodes.items[n];
	if (v->parent != n || sbm_empty(&v->delta))
		return;
	s->st.iterations++;
	/* Detach the delta: everything below may add to pts(n) again. */
	sbitmap d = s->scratch;
	sbm_clear(&d);
	sbm_swap(&d, &v->delta);
	s->cur = n;
	s->cur_delta = &d;

	/* Following the list after a merge is fine: the list n's joined. */
	for (uint32_t c = s->nodes.items[n].cx; c != NIL; c = s->cxs.items[c].next)
		apply_cx(s, c, n, &d);
	s->cur = NIL;
	s->cur_delta = NULL;
	if (s->nodes.items[n].parent != n) {
		/* A collapse merged n away; the survivor's delta includes d (see merge). */
		s->scratch = d;
		goto searches;
	}
	for (uint32_t w = s->nodes.items[n].watch; w != NIL; w = s->watches.items[w].next) {
		unsigned l;
		SBM_FOREACH(&d, l) queue_report(s, w, l);
	}
	unsigned m;
	SBM_FOREACH(&s->nodes.items[n].succ, m) {
		uint32_t r = find(s, m);
		if (r == n)
			continue;
		pnode *src = &s->nodes.items[n], *dst = &s->nodes.items[r];
		size_t added = sbm_union_track(&dst->pts, &d, &dst->delta);
		if (added) {
			dst->npts += (uint32_t)added;
			push(s, r);
		}
		/* Lazy cycle detection's trigger, sizes first: equal sets are rare
		 * and comparing large ones on every propagation would dominate. */
		if (s->cycle_detection && dst->npts == src->npts && sbm_equal(&dst->pts, &src->pts)) {
			void *key = (void *)(uintptr_t)(((uint64_t)n + 1) << 32 | r);
			if (!ptrmap_get(&s->checked, key)) {
				ptrmap_put(&s->checked, key, (void *)1);
				VEC_PUSH(&s->cands, r);
			}
		}
	}
	s->scratch = d;
searches:
	for (size_t i = 0; i < s->cands.len; i++) {
		new_search(s);
		s->st.cycle_searches++;
		tarjan(s, find(s, s->cands.items[i]), 0);
	}
	VEC_CLEAR(&s->cands);
	/* Geps that shifted their own output: look for the cycle they are on. */
	for (size_t i = 0; i < s->pwc_cands.len; i++) {
		fix f = s->pwc_cands.items[i];
		if (s->cxs.items[f.c].kind != CX_GEP)
			continue;
		new_search(s);
		s->st.cycle_searches++;
		tarjan(s, find(s, f.owner), 1);
	}
	VEC_CLEAR(&s->pwc_cands);
	apply_fixes(s);
}

/* Points-to sets may still name fields of objects that collapsed while
 * solving; replace them by the collapsed location, once, at the end. */
static void canonicalize(pta_solver *s)
{
	if (sbm_empty(&s->stale))
		return;
	sbitmap hit = {0};
	for (uint32_t n = 0; n < s->nodes.len; n++) {
		pnode *v = &s->nodes.items[n];
		if (v->parent != n || !sbm_intersects(&v->pts, &s->stale))
			continue;
		sbm_copy(&hit, &v->pts);
		sbm_intersect(&hit, &s->stale);
		sbm_subtract(&v->pts, &s->stale);
		unsigned l;
		SBM_FOREACH(&hit, l) sbm_set(&v->pts, canon(s, l));
		v->npts = (uint32_t)sbm_count(&v->pts);
	}
	sbm_free(&hit);
}

/* Runs the worklist dry, handing reports to on_new as they come. */
static void drain(pta_solver *s)
{
	size_t delivered = 0;
	for (;;) {
		/* Reports first: a callback's new constraints join the same fixpoint. */
		while (delivered < s->pending.len) {
			report r = s->pending.items[delivered++];
			if (s->on_new)
				s->on_new(s->ctx, r.tag, r.loc);
		}
		VEC_CLEAR(&s->pending);
		delivered = 0;
		if (!s->count)
			break;
		uint32_t n = s->ring[s->head];
		s->head = (s->head + 1) % s->ring_cap;
		s->count--;
		s->nodes.items[n].queued = 0;
		process(s, n);
	}
}

void pta_solve(pta_solver *s)
{
	if (s->trace)
		fprintf(s->trace, "X\n");
	s->solving = 1;
	/* Before solving, the static graph's copy cycles and positive-weight
	 * cycles (most are loops over a pointer); at each fixpoint, the whole
	 * graph again: a gep on a cycle found only now changes the answer. */
	flow_pass(s);
	do
		drain(s);
	while (flow_pass(s));
	canonicalize(s);
	s->solving = 0;
}

/* ---- public constructors ---- */

pta_solver *pta_new(pta_on_new on_new, void *ctx)
{
	pta_solver *s = xcalloc(1, sizeof *s);
	ptrmap_init(&s->fields);
	ptrmap_init(&s->checked);
	s->on_new = on_new;
	s->ctx = ctx;
	s->cycle_detection = 1;
	s->cur = NIL;
#ifdef FACET_PTA_TRACE_ENV
	/* Debug builds only (-DFACET_PTA_TRACE_ENV): trace every solver to the
	 * file $FACET_PTA_TRACE names, for replay by bench/pta/pta_bench. */
	const char *path = getenv("FACET_PTA_TRACE");
	if (path)
		s->trace = fopen(path, "w");
#endif
	return s;
}

void pta_free(pta_solver *s)
{
	if (!s)
		return;
#ifdef FACET_PTA_TRACE_ENV
	if (s->trace && getenv("FACET_PTA_TRACE"))
		fclose(s->trace);
#endif
	for (size_t i = 0; i < s->nodes.len; i++) {
		sbm_free(&s->nodes.items[i].pts);
		sbm_free(&s->nodes.items[i].delta);
		sbm_free(&s->nodes.items[i].succ);
	}
	for (size_t i = 0; i < s->watches.len; i++)
		sbm_free(&s->watches.items[i].reported);
	VEC_FREE(&s->nodes);
	VEC_FREE(&s->objs);
	VEC_FREE(&s->cxs);
	VEC_FREE(&s->watches);
	VEC_FREE(&s->pending);
	VEC_FREE(&s->cands);
	VEC_FREE(&s->frames);
	VEC_FREE(&s->tstack);
	VEC_FREE(&s->members);
	VEC_FREE(&s->pwc_cands);
	VEC_FREE(&s->fixes);
	ptrmap_free(&s->fields);
	ptrmap_free(&s->checked);
	sbm_free(&s->stale);
	sbm_free(&s->scratch);
	free(s->ring);
	free(s->num);
	free(s->low);
	free(s->visit);
	free(s->comp);
	free(s);
}

void pta_trace(pta_solver *s, FILE *out)
{
	s->trace = out;
}

void pta_set_cycle_detection(pta_solver *s, int on)
{
	TRACE(s, "D %d\n", on != 0);
	s->cycle_detection = on != 0;
}

unsigned pta_node(pta_solver *s)
{
	TRACE(s, "N\n");
	return new_node(s, NIL, 0);
}

unsigned pta_object(pta_solver *s, uint64_t size_bytes, unsigned flags)
{
	TRACE(s, "O %" PRIu64 " %u\n", size_bytes, flags);
	assert(s->objs.len < NIL);
	pobj o = { .size = size_bytes, .flags = flags, .fields = NIL, .base = NIL };
	VEC_PUSH(&s->objs, o);
	uint32_t id = (uint32_t)(s->objs.len - 1);
	/* Unknown size, asked for, or too large for 32-bit offsets: one location. */
	if (size_bytes == 0 || size_bytes > UINT32_MAX || (flags & PTA_OBJ_COLLAPSED))
		collapse(s, id);
	return id;
}

unsigned pta_field(pta_solver *s, unsigned obj, int64_t offset)
{
	TRACE(s, "F %u %" PRId64 "\n", obj, offset);
	assert(obj < s->objs.len);
	pobj *o = &s->objs.items[obj];
	if (o->collapsed)
		return field(s, obj, 0);
	if (offset < 0 || (uint64_t)offset >= o->size)
		return collapse(s, obj);
	return field(s, obj, (uint32_t)offset);
}

static void check_node(const pta_solver *s, unsigned n)
{
	(void)s;
	(void)n;
	assert(n < s->nodes.len);
}

void pta_addr(pta_solver *s, unsigned dst, unsigned loc)
{
	check_node(s, dst);
	check_node(s, loc);
	assert(s->nodes.items[loc].obj != NIL);
	TRACE(s, "A %u %u\n", dst, loc);
	s->st.addr++;
	add_loc(s, dst, canon(s, loc));
}

void pta_copy(pta_solver *s, unsigned dst, unsigned src)
{
	check_node(s, dst);
	check_node(s, src);
	TRACE(s, "C %u %u\n", dst, src);
	s->st.copy++;
	add_edge(s, src, dst);
}

/* A complex constraint added to node n applies at once to what n has already
 * processed (pts \ delta); the delta reaches it when n is next processed. */
static void add_cx(pta_solver *s, uint8_t kind, unsigned n, unsigned other, int64_t off)
{
	check_node(s, n);
	check_node(s, other);
	uint32_t c = (uint32_t)s->cxs.len;
	pcx x = { .off = off, .other = other, .next = NIL, .kind = kind };
	VEC_PUSH(&s->cxs, x);
	n = find(s, n);
	append_cx(s, n, c, c);
	pnode *v = &s->nodes.items[n];
	if (sbm_empty(&v->pts))
		return;
	sbitmap done = {0};
	sbm_diff(&done, &v->pts, &v->delta);
	apply_cx(s, c, n, &done);
	sbm_free(&done);
}

void pta_load(pta_solver *s, unsigned dst, unsigned src, int64_t off)
{
	TRACE(s, "L %u %u %" PRId64 "\n", dst, src, off);
	s->st.load++;
	add_cx(s, CX_LOAD, src, dst, off);
}

void pta_store(pta_solver *s, unsigned dst, unsigned src, int64_t off)
{
	TRACE(s, "S %u %u %" PRId64 "\n", dst, src, off);
	s->st.store++;
	add_cx(s, CX_STORE, dst, src, off);
}

void pta_gep(pta_solver *s, unsigned dst, unsigned src, int64_t off)
{
	TRACE(s, "G %u %u %" PRId64 "\n", dst, src, off);
	s->st.gep++;
	if (off == 0)              /* (o,k) + 0 = (o,k): a copy, and cheaper as one */
		add_edge(s, src, dst);
	else
		add_cx(s, CX_GEP, src, dst, off);
}

void pta_gep_var(pta_solver *s, unsigned dst, unsigned src)
{
	TRACE(s, "V %u %u\n", dst, src);
	s->st.gep_var++;
	add_cx(s, CX_GEP_VAR, src, dst, 0);
}

void pta_watch(pta_solver *s, unsigned node, unsigned tag)
{
	check_node(s, node);
	TRACE(s, "W %u %u\n", node, tag);
	uint32_t w = (uint32_t)s->watches.len;
	pwatch x = { .tag = tag };
	VEC_PUSH(&s->watches, x);
	uint32_t n = find(s, node);
	pnode *v = &s->nodes.items[n];
	s->watches.items[w].next = v->watch;
	v->watch = w;
	/* What n already processed is reported now; its delta when processed. */
	sbitmap done = {0};
	sbm_diff(&done, &v->pts, &v->delta);
	unsigned l;
	SBM_FOREACH(&done, l) queue_report(s, w, l);
	sbm_free(&done);
}

/* ---- queries ---- */

const sbitmap *pta_pts(const pta_solver *s, unsigned node)
{
	check_node(s, node);
	return &s->nodes.items[find_const(s, node)].pts;
}

unsigned pta_loc_object(const pta_solver *s, unsigned node)
{
	check_node(s, node);
	return s->nodes.items[node].obj;
}

int64_t pta_loc_offset(const pta_solver *s, unsigned loc)
{
	check_node(s, loc);
	return s->nodes.items[loc].off;
}

unsigned pta_canon(const pta_solver *s, unsigned loc)
{
	check_node(s, loc);
	return canon(s, loc);
}

int pta_object_collapsed(const pta_solver *s, unsigned obj)
{
	assert(obj < s->objs.len);
	return s->objs.items[obj].collapsed;
}

uint64_t pta_object_size(const pta_solver *s, unsigned obj)
{
	assert(obj < s->objs.len);
	return s->objs.items[obj].size;
}

unsigned pta_object_flags(const pta_solver *s, unsigned obj)
{
	assert(obj < s->objs.len);
	return s->objs.items[obj].flags;
}

unsigned pta_num_nodes(const pta_solver *s) { return (unsigned)s->nodes.len; }
unsigned pta_num_objects(const pta_solver *s) { return (unsigned)s->objs.len; }

void pta_get_stats(const pta_solver *s, pta_stats *out)
{
	*out = s->st;
	out->nodes = (unsigned)s->nodes.len;
	out->objects = (unsigned)s->objs.len;
	out->constraints = s->st.addr + s->st.copy + s->st.load + s->st.store + s->st.gep + s->st.gep_var;
	out->watches = s->watches.len;
	out->pts_entries = 0;
	out->set_bytes = 0;
	for (size_t i = 0; i < s->nodes.len; i++) {
		const pnode *v = &s->nodes.items[i];
		if (v->parent == i)
			out->pts_entries += sbm_count(&v->pts);
		out->set_bytes += sbm_bytes(&v->pts) + sbm_bytes(&v->delta) + sbm_bytes(&v->succ);
	}
	for (size_t i = 0; i < s->watches.len; i++)
		out->set_bytes += sbm_bytes(&s->watches.items[i].reported);
}
