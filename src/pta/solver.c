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
#include "pta/pset.h"
#include "util/arith.h"
#include "util/clock.h"
#include "util/ptrmap.h"
#include "util/sort.h"
#include "util/vec.h"
#include "util/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(void *) >= 8, "ptrmap keys pack two 32-bit ids");

#define NIL PTA_NONE
#define LOC_BIT PTA_LOC_BIT

/* A wide set of successors: its dense part as a plain bitmap of the ids
 * [64 base, 64 (base + nwords)), the others sparse; see succ_add. */
typedef struct flatsucc {
	uint32_t base, nwords, count;   /* count: members in w */
	sbitmap rest;                   /* the members outside w's range */
	uint64_t w[];
} flatsucc;

typedef struct pnode {
	/* Sets are hash-consed (pset.h): nodes with equal sets share one, and
	 * propagating between them is an id compare. */
	uint32_t pts;       /* at a representative: its points-to set */
	uint32_t done;      /* ⊆ pts: the part pushed through edges, constraints, watches */
	union {             /* copy successors; ids may be stale, map with find */
		sbitmap set;    /* ... as a sparse bitmap, or */
		flatsucc *flat; /* when succ_flat, as a plain one */
	} succ;
	uint32_t next_field;/* next location of the same object */
	uint32_t cx;        /* head of the complex-constraint list */
	uint32_t cx_tail;
	uint32_t watch;     /* head of the watch list */
	uint8_t  queued;    /* on the worklist */
	uint8_t  cx_sorted; /* cx list in sort_cx's order */
	uint8_t  rank;      /* union by rank */
	uint8_t  succ_flat; /* succ is flat */
} pnode;
_Static_assert(sizeof(pnode) == 48, "a node record stays 48 bytes");

/* CX_GEP_PWC: a gep found on a cycle; applies as gep_var, and stays an edge
 * of the flow graph, so that which geps are on cycles depends only on the
 * final graph, never on the order they were found in. */
/* CX_GEP_AT: pta_gep_stride_at; off packs the stride (low 32 bits) and the
 * offset (high 32, signed). */
/* CX_LOAD_ALL, CX_STORE_ALL: pta_load_all, pta_store_all; their spans on
 * objects (pspan) keep them applying to the fields the objects gain later. */
enum { CX_LOAD, CX_STORE, CX_GEP, CX_GEP_VAR, CX_GEP_PWC, CX_GEP_AT, CX_LOAD_ALL, CX_STORE_ALL };

typedef struct pcx {
	int64_t  off;
	uint32_t other;     /* load, gep: destination; store: source */
	uint32_t next;
	uint8_t  kind;
	uint8_t  tries;     /* gep: cycle searches it triggered (bounded) */
	uint32_t origin;    /* the caller's tag when it was added (pta_set_origin) */
} pcx;

typedef struct pwatch {
	sbitmap  reported;  /* locations already given to on_new under this watch */
	unsigned tag;
	uint32_t next;
	uint8_t  targets;   /* pta_watch_targets: only locations in targetset */
} pwatch;

typedef struct pobj {
	uint64_t size;
	unsigned flags;
	uint32_t fields;    /* head of its locations' list */
	uint32_t base;      /* location at offset 0, NIL until made */
	uint8_t  collapsed;
	uint8_t  cause;     /* why it collapsed: PTA_COLLAPSE_* */
	uint8_t  holds;     /* read-only: some location of it holds something (pta_addr) */
	uint8_t  dropped;   /* PTA_OBJ_BOUNDED: an offset left it and named nothing (see shift) */
	uint32_t drops;     /* while not collapsed: head of its drop records, NIL none */
	uint32_t origin;    /* origin of what collapsed it */
	uint32_t arr;       /* an array's element bytes (pta_object_elements), 0 none */
	uint32_t elem;      /* arr once folded (see fold): offsets count mod elem; 0 before */
	uint32_t arrays, n_arrays; /* its member arrays: ranges (pta_object_arrays), NIL and 0 none */
	uint32_t spans;     /* head of the spans of CX_LOAD_ALL/CX_STORE_ALL on it, NIL none */
} pobj;

/* A pta_load_all or pta_store_all constraint c that reached the object
 * from offset `from`: every field of it at or past `from` (any field, once
 * it is an array of folded elements) has an edge to c's destination (a
 * load) or from c's source (a store), those made later too. */
typedef struct pspan { uint32_t c, from, next; } pspan;

typedef struct prange {   /* a member array (pta_array_range) */
	uint64_t start, elem, count;
	uint32_t inner, n_inner;
} prange;

typedef struct report { unsigned tag, loc; } report;
typedef struct pdrop { uint32_t c, next; } pdrop;   /* constraint c dropped an offset of the object */
typedef struct redo { uint32_t c, loc; } redo;      /* apply c to loc, the one location its object collapsed to */
typedef struct qent { uint32_t round, rank, seq, node; } qent;   /* a worklist entry */
/* What compute_cx and shift read of every location of every delta, kept
 * dense and apart from the (much larger) nodes: one cache line serves four
 * locations, and the object's record is read only on the slow path. */
enum {
	LS_CODE = 1,        /* a location of a function's code */
	LS_SELF = 2,        /* shift() gives the location itself: the one location of code or of a collapsed object */
	LS_READONLY = 4,    /* a location of read-only memory: stores skip it */
};
typedef struct locinfo {
	uint32_t obj, off;
	uint32_t creator;   /* the gep that first made it, NIL if none */
	uint32_t state;     /* LS_* */
} locinfo;

/* Ascending iteration over a node's successors, either form. */
typedef struct succ_iter {
	sbm_iter set;       /* the sparse form, or the flat form's rest */
	const uint64_t *w;  /* the flat form's words */
	uint32_t i, n, base;
	uint64_t bits;      /* of word i, not yet returned */
	uint32_t held;      /* the rest's first id above the words, once read */
	uint8_t  phase;     /* 0: the rest below the words, 1: the words, 2: the (rest of the) sparse set */
	uint8_t  have_held;
} succ_iter;

typedef struct frame { uint32_t v, cx; succ_iter it; } frame;   /* cx: next of v's geps to follow */
typedef struct fix { uint32_t c, owner; } fix;                 /* a gep found on a cycle */

struct pta_solver {
	pset_store *ps;         /* every node's pts and done */
	VEC(pnode) vars;        /* pointer variables: ids 0, 1, ... */
	VEC(pnode) locs;        /* locations: ids LOC_BIT | 0, 1, ... */
	/* Kept apart from the nodes, small and dense: find() and shift() touch
	 * them for every element of every delta. */
	VEC(uint32_t) vpar, lpar;  /* union-find parents; a representative is its own */
	VEC(locinfo) linfo;        /* (object, offset) of each location */
	VEC(pobj) objs;
	VEC(prange) ranges;     /* member arrays, shared by the objects of one type */
	VEC(pcx) cxs;
	VEC(pwatch) watches;
	ptrmap fields;          /* (object, offset) → location + 1 */
	ptrmap checked;         /* LCD: edges (n, z) already tested */
	sbitmap stale;          /* fields of collapsed objects other than the offset-0 one */
	/* Offsets that left a PTA_OBJ_BOUNDED object (see shift): which
	 * constraints dropped some of an object's locations, so that if it
	 * collapses later they get its one location, as every offset then
	 * names it. */
	VEC(pdrop) drops;
	ptrmap dropped;         /* (object, constraint) pairs recorded in drops */
	VEC(uint32_t) lastdrops;/* objects the last compute_cx dropped from: its result's reuse drops them too */
	VEC(redo) redos;        /* constraints to apply to locations that collapses made */
	VEC(pspan) spans;       /* pta_load_all's and pta_store_all's, by object (pobj.spans) */
	ptrmap span_of;         /* (object, constraint) → its record + 1 */
	sbitmap redoset;        /* scratch: one location */

	/* Worklist: a binary heap, sources of the flow graph first (see push). */
	VEC(qent) heap;
	uint32_t seq;           /* push order, for ties */
	uint32_t round, cur_rank; /* the sweep and rank of the node taken last */
	size_t misordered;      /* edges added since the last numbering against its order */
	size_t since_ranked;    /* nodes processed since then */
	size_t count;           /* == heap.len */

	VEC(report) pending;    /* reports waiting to be handed to on_new */
	VEC(uint32_t) cands;    /* LCD: roots to search from, in the next batch */
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

	sbitmap acc;            /* compute_cx's locations, gathered before they are merged */
	sbitmap rest, more;     /* compute_cx's locations that are not LS_SELF, and what they give */
	VEC(uint32_t) outs;     /* what they give, as it comes */
	sbitmap selfset;        /* every LS_SELF location */
	sbitmap roset;          /* every location of read-only memory */
	sbitmap roempty;        /* those of read-only objects that hold nothing: loads skip them too */
	/* The LS_SELF locations a load (memload) or a store (memstore) touches:
	 * selfset less code, less roempty or roset. Kept as those change. */
	sbitmap memload, memstore;
	sbitmap targetset;      /* every location of code or of PTA_OBJ_NAMES_CODE: what pta_watch_targets reports */
	sbitmap tdelta;         /* process(): the delta ∩ targetset */
	VEC(uint32_t) targets;  /* compute_cx's memory nodes, distinct */
	uint32_t *mark, mark_epoch; /* which nodes are in targets */
	size_t mark_cap;
	VEC(uint32_t) sortbuf;  /* scratch of sort_cx and acc_add_outs (never live at once) */
	uint32_t cur;           /* node being processed, NIL outside process() */
	uint32_t cur_done;      /* its done set before this round: its delta is not done yet */
	int cur_absorbed;       /* a merge gave it another node's successors, which lack cur_done */

	uint32_t origin;        /* tag of the constraints added now (pta_set_origin) */
	uint32_t cur_origin;    /* origin of what is being applied: collapses record it */
	pta_on_new on_new;
	void *ctx;
	int cycle_detection;
	pta_stats st;
};

/* Variables and locations live in two arrays and two id ranges, so that
 * location ids — the elements of every points-to set — are dense: a set of
 * a few thousand locations is then tens of bitmap elements, not hundreds. */
static inline pnode *N(const pta_solver *s, uint32_t id)
{
	return id & LOC_BIT ? &s->locs.items[id & ~LOC_BIT] : &s->vars.items[id];
}

static inline uint32_t *PAR(const pta_solver *s, uint32_t id)
{
	return id & LOC_BIT ? &s->lpar.items[id & ~LOC_BIT] : &s->vpar.items[id];
}

/* Object of a location, NIL for a variable. */
static inline uint32_t LOBJ(const pta_solver *s, uint32_t id)
{
	return id & LOC_BIT ? s->linfo.items[id & ~LOC_BIT].obj : NIL;
}

/* Index of a node in the cycle-search arrays: variables even, locations odd. */
static inline size_t DI(uint32_t id)
{
	return id & LOC_BIT ? ((size_t)(id & ~LOC_BIT) << 1 | 1) : (size_t)id << 1;
}

/* All nodes, for whole-graph passes: i in [0, nnodes) → id. */
static size_t nnodes(const pta_solver *s) { return s->vars.len + s->locs.len; }
static uint32_t nth_node(const pta_solver *s, size_t i)
{
	return i < s->vars.len ? (uint32_t)i : LOC_BIT | (uint32_t)(i - s->vars.len);
}

static size_t node_slots(const pta_solver *s)   /* bound on DI() + 1 */
{
	return 2 * (s->vars.len > s->locs.len ? s->vars.len : s->locs.len) + 2;
}

#define TRACE(s, ...) do { if ((s)->trace) fprintf((s)->trace, __VA_ARGS__); } while (0)

/* ---- union-find ---- */

static uint32_t find(pta_solver *s, uint32_t n)
{
	for (;;) {
		uint32_t *p = PAR(s, n);
		if (*p == n)
			return n;
		uint32_t gp = *PAR(s, *p);
		*p = gp;                                /* path halving */
		n = gp;
	}
}

static uint32_t find_const(const pta_solver *s, uint32_t n)
{
	while (*PAR(s, n) != n)
		n = *PAR(s, n);
	return n;
}

/* ---- nodes, objects, locations ---- */

static uint32_t new_node(pta_solver *s, uint32_t obj, uint32_t off)
{
	uint32_t id = obj == NIL ? (uint32_t)s->vars.len : LOC_BIT | (uint32_t)s->locs.len;
	assert(obj == NIL ? s->vars.len < LOC_BIT : s->locs.len < LOC_BIT - 1);
	pnode n = { .next_field = NIL, .cx = NIL, .cx_tail = NIL, .watch = NIL };
	if (obj == NIL) {
		VEC_PUSH(&s->vars, n);
		VEC_PUSH(&s->vpar, id);
	} else {
		VEC_PUSH(&s->locs, n);
		VEC_PUSH(&s->lpar, id);
		unsigned code = s->objs.items[obj].flags & PTA_OBJ_CODE ? LS_CODE : 0;
		unsigned ro = s->objs.items[obj].flags & PTA_OBJ_READONLY ? LS_READONLY : 0;
		locinfo li = { obj, off, NIL, code | ro | (code && off == 0 ? LS_SELF : 0) };
		VEC_PUSH(&s->linfo, li);
		if (ro)
			sbm_set(&s->roset, id);
		if (ro && !s->objs.items[obj].holds)
			sbm_set(&s->roempty, id);
		if (code || (s->objs.items[obj].flags & PTA_OBJ_NAMES_CODE))
			sbm_set(&s->targetset, id);
		if (li.state & LS_SELF)
			sbm_set(&s->selfset, id);
	}
	return id;
}

/* Worklist order: sweeps in topological order of the flow graph. Ranks come
 * from the last whole-graph search (Tarjan finishes components sinks first,
 * so a higher number is further upstream); nodes made since rank 0. A node
 * pushed while a node of higher rank is processed (downstream of it) joins
 * the current sweep, any other waits for the next one, where ties go in push
 * order. With the FIFO queue this replaces, a wave moved one edge per round:
 * on a chain of calls at -O0 where every node also receives a location of its
 * own, each node was processed once per location upstream of it, one location
 * at a time, each inserted at the front of its set — cubic
 * (bench/gen-pathological.py --chain: 4000 functions 44 s, now 0.7 s). A plain
 * priority queue without sweeps took a node on an unmerged cycle again before
 * anything downstream of it, doubling lua's solve. Order changes the work,
 * never the answer. */
static uint32_t rank_of(const pta_solver *s, uint32_t n)
{
	size_t i = DI(n);
	return i < s->tarjan_cap ? s->comp[i] : 0;
}

static int q_before(const qent *a, const qent *b)
{
	if (a->round != b->round)
		return a->round < b->round;
	return a->rank != b->rank ? a->rank > b->rank : a->seq < b->seq;
}

static void push(pta_solver *s, uint32_t n)
{
	if (N(s, n)->queued)
		return;
	N(s, n)->queued = 1;
	uint32_t rank = rank_of(s, n);
	qent e = { rank < s->cur_rank ? s->round : s->round + 1, rank, s->seq++, n };
	VEC_PUSH(&s->heap, e);
	size_t i = s->heap.len - 1;
	qent *h = s->heap.items;
	while (i > 0 && q_before(&e, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = e;
	s->count = s->heap.len;
}

static void sift_down(qent *h, size_t n, size_t i, qent e)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && q_before(&h[c + 1], &h[c]))
			c++;
		if (!q_before(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

/* After a new numbering: every queued node takes its new rank. */
static void rekey(pta_solver *s)
{
	qent *h = s->heap.items;
	size_t n = s->heap.len;
	for (size_t i = 0; i < n; i++)
		h[i].rank = rank_of(s, h[i].node);
	for (size_t i = n / 2; i-- > 0;)
		sift_down(h, n, i, h[i]);
}

static uint32_t pop(pta_solver *s)
{
	qent top = s->heap.items[0], last = s->heap.items[--s->heap.len];
	s->round = top.round;
	s->cur_rank = top.rank;
	if (s->heap.len)
		sift_down(s->heap.items, s->heap.len, 0, last);
	s->count = s->heap.len;
	return top.node;
}

static void add_edge(pta_solver *s, uint32_t a, uint32_t b);

/* The edge span sp gives location loc: to a load's destination, from a
 * store's source. */
static void span_edge(pta_solver *s, uint32_t sp, uint32_t loc)
{
	const pcx *x = &s->cxs.items[s->spans.items[sp].c];
	if (x->kind == CX_LOAD_ALL)
		add_edge(s, loc, x->other);
	else
		add_edge(s, x->other, loc);
}

/* The key of a pair of ids in a ptrmap (never NULL: a is offset by one). */
static void *pair_key(uint32_t a, uint32_t b)
{
	return (void *)(uintptr_t)(((uint64_t)a + 1) << 32 | b);
}

static void *field_key(uint32_t obj, uint32_t off)
{
	return pair_key(obj, off);
}

/* The location (obj, off) for an in-range offset of an uncollapsed object, or
 * its one location once collapsed; made on first use. */
static uint32_t field(pta_solver *s, uint32_t obj, uint32_t off)
{
	pobj *o = &s->objs.items[obj];
	if (o->elem)
		off %= o->elem;   /* every element is the one element */
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
	N(s, loc)->next_field = o->fields;
	o->fields = loc;
	if (off == 0)
		o->base = loc;
	else
		ptrmap_put(&s->fields, field_key(obj, off), (void *)(uintptr_t)(loc + 1));
	s->st.locations++;
	for (uint32_t sp = o->spans; sp != NIL; sp = s->spans.items[sp].next)
		if (o->elem || off >= s->spans.items[sp].from)
			span_edge(s, sp, loc);
	return loc;
}

static uint32_t canon(const pta_solver *s, uint32_t loc)
{
	uint32_t obj = LOBJ(s, loc);
	if (obj == NIL)
		return loc;
	const pobj *o = &s->objs.items[obj];
	if (o->collapsed)
		return o->base;
	uint32_t off = s->linfo.items[loc & ~LOC_BIT].off;
	if (o->elem && off >= o->elem) {   /* folded: the field of the one element */
		off %= o->elem;
		if (off == 0)
			return o->base;
		void *v = ptrmap_get(&s->fields, field_key(obj, off));
		assert(v);
		return (uint32_t)((uintptr_t)v - 1);
	}
	return loc;
}

/* The widest element a stride may name in memory of no known layout. */
#define HEAP_ELEM_MAX (1u << 20)

static void merge(pta_solver *s, uint32_t a, uint32_t b);

/* All fields of obj become its offset-0 location: contents merge, and the
 * other field ids turn stale (canon maps them). */
static uint32_t collapse(pta_solver *s, uint32_t obj, unsigned cause)
{
	uint32_t base = field(s, obj, 0);
	pobj *o = &s->objs.items[obj];
	if (o->collapsed || (o->flags & PTA_OBJ_CODE))   /* code has one location and no fields */
		return base;
	o->collapsed = 1;
	s->linfo.items[base & ~LOC_BIT].state |= LS_SELF;
	sbm_set(&s->selfset, base);
	if (!sbm_test(&s->roempty, base))
		sbm_set(&s->memload, base);
	if (!sbm_test(&s->roset, base))
		sbm_set(&s->memstore, base);
	o->cause = (uint8_t)cause;
	o->origin = s->cur_origin;
	s->st.collapsed_objects++;
	s->st.collapsed_by[cause]++;
	/* Constraints that dropped an offset of it now give its one location
	 * (applied by drain: collapse runs inside compute_cx's loops). */
	for (uint32_t d = o->drops; d != NIL; d = s->drops.items[d].next) {
		redo r = { s->drops.items[d].c, base };
		VEC_PUSH(&s->redos, r);
	}
	o->drops = NIL;
	for (uint32_t f = o->fields; f != NIL; f = N(s, f)->next_field) {
		if (f == base)
			continue;
		sbm_set(&s->stale, f);
		uint32_t a = find(s, base), b = find(s, f);
		if (a != b)
			merge(s, a, b);
	}
	/* Its one location is every field now, those before a span's start
	 * and those still to be made too. */
	for (uint32_t sp = s->objs.items[obj].spans; sp != NIL; sp = s->spans.items[sp].next)
		span_edge(s, sp, base);
	return base;
}

/* An array reached by whole elements (a variable index or a cycle's gep of
 * that stride): from now on every element is the one element, its fields at
 * offsets mod the element size; the fields made so far merge into those. */
static void fold(pta_solver *s, uint32_t obj)
{
	pobj *o = &s->objs.items[obj];
	if (o->elem == o->arr || o->collapsed)   /* folded already, or (memory by stride) to a wider element */
		return;
	o->elem = o->arr;
	for (uint32_t f = s->objs.items[obj].fields; f != NIL; f = N(s, f)->next_field) {
		uint32_t off = s->linfo.items[f & ~LOC_BIT].off;
		if (off < s->objs.items[obj].elem)
			continue;
		uint32_t t = field(s, obj, off);   /* reduced mod elem; made if new (ahead of f in the list) */
		sbm_set(&s->stale, f);
		uint32_t a = find(s, t), b = find(s, f);
		if (a != b)
			merge(s, a, b);
	}
	/* An element's field below a span's start stands for the same field
	 * of the elements past it now. */
	for (uint32_t sp = s->objs.items[obj].spans; sp != NIL; sp = s->spans.items[sp].next)
		for (uint32_t f = s->objs.items[obj].fields; f != NIL; f = N(s, f)->next_field)
			if (s->linfo.items[f & ~LOC_BIT].off < s->objs.items[obj].elem)
				span_edge(s, sp, f);
}

/* Constraint c dropped an offset of object obj (see shift). */
static void note_drop(pta_solver *s, uint32_t obj, uint32_t c)
{
	pobj *o = &s->objs.items[obj];
	o->dropped = 1;
	void *key = pair_key(obj, c);
	if (ptrmap_get(&s->dropped, key))
		return;
	ptrmap_put(&s->dropped, key, (void *)1);
	pdrop d = { c, o->drops };
	VEC_PUSH(&s->drops, d);
	o->drops = (uint32_t)(s->drops.len - 1);
}

/* While compute_cx runs: c dropped an offset of obj; its result's reuse
 * (process: the next constraint of the same class and offset) drops it too. */
static void drop_in_compute(pta_solver *s, uint32_t obj, uint32_t c)
{
	note_drop(s, obj, c);
	if (!s->lastdrops.len || VEC_LAST(&s->lastdrops) != obj)
		VEC_PUSH(&s->lastdrops, obj);
}

/* A constraint whose result is the one the constraint before it computed
 * (process: same class and offset) dropped what that one dropped. */
static void reuse_drops(pta_solver *s, uint32_t c)
{
	for (size_t i = 0; i < s->lastdrops.len; i++)
		note_drop(s, s->lastdrops.items[i], c);
}

/* The location at byte offset d from location loc, collapsing its object if
 * that leaves the object (see "Collapse" in solver.h) — or, for a
 * PTA_OBJ_BOUNDED object, NIL: a pointer past one past the end or before the
 * start names nothing of it, and neither does an access (a load or a store,
 * `access`) at one past the end; constraint c is recorded, so that a later
 * collapse of the object gives c its one location. A pointer to one past
 * the end of such an object is the location at offset size. */
static uint32_t shift(pta_solver *s, uint32_t loc, int64_t d, uint32_t c, int access)
{
	assert(loc & LOC_BIT);
	const locinfo *li = &s->linfo.items[loc & ~LOC_BIT];
	if (li->state & LS_SELF)
		return loc;
	uint32_t obj = li->obj;
	pobj *o = &s->objs.items[obj];
	if (o->collapsed || (o->flags & PTA_OBJ_CODE))
		return field(s, obj, 0);
	if (d == 0 && (!access || li->off < o->size))   /* an access at one past the end: below */
		return loc;
	int64_t k = (int64_t)li->off + d;   /* li is stale once field() adds a location */
	if (o->elem) {   /* within an array: the same field of another element, or another field */
		int64_t e = (int64_t)o->elem;
		return field(s, obj, (uint32_t)(((k % e) + e) % e));
	}
	if ((k < 0 || (uint64_t)k >= o->size) && o->arr && d % (int64_t)o->arr == 0) {
		/* Whole elements past an end of an array (`v++` up to one past the
		 * last): the loop walks every element, not outside the array. */
		fold(s, obj);
		int64_t e = (int64_t)o->arr;
		return field(s, obj, (uint32_t)(((k % e) + e) % e));
	}
	if (k < 0 || (uint64_t)k >= o->size) {
		if (!(o->flags & PTA_OBJ_BOUNDED) || o->arr)
			return collapse(s, obj, PTA_COLLAPSE_OFFSET);
		/* One past the end is a pointer C allows, and a step back from
		 * it is inside again: a location of its own, which no load or
		 * store touches. -O2 forms it where container_of's step back and
		 * a field's step forward fold into one gep from a member. */
		if ((uint64_t)k == o->size && !access)
			return field(s, obj, (uint32_t)k);
		drop_in_compute(s, obj, c);
		return NIL;
	}
	return field(s, obj, (uint32_t)k);
}

/* ---- copy successors ---- */

/* A node's successors are the copy edges out of it. Most nodes have a few,
 * kept in a sparse bitmap. A memory node that many loads read has one per
 * load, dense among the variables' ids (dovecot: 173 nodes with over 256
 * elements, the widest 66,685 successors in 1,289; 16.5 million edges asked
 * for, 9.4 million new): in a sparse bitmap each lookup is a search of some
 * 770 elements and each new element moves half of them. Such a set keeps
 * its dense part — the variables or the locations, whichever has more
 * elements — as a plain bitmap of the id range it spans, once that is no
 * larger (the range covers at most 3/2 of the part's elements of 128 ids:
 * 16 bytes of bits for every 24-byte element) and averages a member per 64
 * ids; a lookup there is one word. The range grows while that average
 * holds; other ids (and the other part) stay in a sparse bitmap beside it,
 * never inside the range. */
#define SUCC_FLAT_MIN 32u   /* elements of a part before it is judged, and how often */

static flatsucc *flat_new(uint32_t base, uint32_t nwords)
{
	flatsucc *f = xcalloc(1, sizeof *f + (size_t)nwords * sizeof f->w[0]);
	f->base = base;
	f->nwords = nwords;
	return f;
}

static uint32_t elem_count(const sbm_elem *e)
{
	return (uint32_t)(__builtin_popcountll(e->w[0]) + __builtin_popcountll(e->w[1]));
}

/* Whether the elements [i, j) of a sparse set make a dense part; if so, v
 * takes the flat form with them in the bitmap. */
static bool try_flat(pnode *v, uint32_t i, uint32_t j)
{
	const sbitmap *set = &v->succ.set;
	uint64_t n = j - i;
	if (n < SUCC_FLAT_MIN)
		return false;
	uint64_t range = set->elems[j - 1].idx - set->elems[i].idx + 1;
	if (2 * range > 3 * n)
		return false;
	uint64_t count = 0;
	for (uint32_t k = i; k < j; k++)
		count += elem_count(&set->elems[k]);
	if (2 * range > count)
		return false;
	uint32_t lo = set->elems[i].idx;
	flatsucc *f = flat_new(lo * 2, (uint32_t)range * 2);
	f->count = (uint32_t)count;
	for (uint32_t k = 0; k < set->len; k++) {
		const sbm_elem *e = &set->elems[k];
		if (k < i || k >= j) {
			for (int h = 0; h < 2; h++)
				for (uint64_t bits = e->w[h]; bits; bits &= bits - 1)
					sbm_set(&f->rest, e->idx * SBM_BITS + 64u * (unsigned)h + (unsigned)__builtin_ctzll(bits));
			continue;
		}
		f->w[(e->idx - lo) * 2] = e->w[0];
		f->w[(e->idx - lo) * 2 + 1] = e->w[1];
	}
	sbm_free(&v->succ.set);
	v->succ.flat = f;
	v->succ_flat = 1;
	return true;
}

/* A sparse set that gained its 32nth, 64th, ... element: its variables'
 * elements, then its locations', are judged. */
static void judge_flat(pnode *v)
{
	const sbitmap *set = &v->succ.set;
	uint32_t split = 0;   /* first element of a location */
	while (split < set->len && set->elems[split].idx < LOC_BIT / SBM_BITS)
		split++;
	if (split >= set->len - split)
		try_flat(v, 0, split);
	else
		try_flat(v, split, set->len);
}

/* Whether the flat set can grow to words [lo, hi) and still average a
 * member per word (counting the one being added). */
static bool flat_fits(const flatsucc *f, uint64_t lo, uint64_t hi)
{
	return hi - lo <= (uint64_t)f->count + 1 && hi <= UINT32_MAX / 64;
}

/* Widens the flat part to cover word wi, with a quarter more room where
 * it fits; ids of the rest that fall inside join the bitmap. */
static void flat_widen(pnode *v, uint32_t wi)
{
	flatsucc *f = v->succ.flat;
	uint64_t lo = wi < f->base ? wi : f->base, hi = wi < f->base ? (uint64_t)f->base + f->nwords : (uint64_t)wi + 1;
	uint64_t room = (uint64_t)f->count + 1 - (hi - lo), slack = f->nwords / 4 + 1;
	if (slack > room)
		slack = room;
	if (wi < f->base)
		lo = lo > slack ? lo - slack : 0;
	else if (hi + slack <= UINT32_MAX / 64)
		hi += slack;
	flatsucc *g = flat_new((uint32_t)lo, (uint32_t)(hi - lo));
	memcpy(&g->w[f->base - lo], f->w, (size_t)f->nwords * sizeof f->w[0]);
	g->count = f->count;
	unsigned m;
	SBM_FOREACH(&f->rest, m) {
		if (m / 64 >= lo && m / 64 < hi) {
			g->w[m / 64 - lo] |= 1ull << (m % 64);
			g->count++;
		} else
			sbm_set(&g->rest, m);
	}
	sbm_free(&f->rest);
	free(f);
	v->succ.flat = g;
}

/* Adds b to v's successors; false if it was there. */
static bool succ_add(pnode *v, uint32_t b)
{
	if (!v->succ_flat) {
		sbitmap *set = &v->succ.set;
		uint32_t len = set->len;
		if (!sbm_set(set, b))
			return false;
		if (set->len != len && set->len % SUCC_FLAT_MIN == 0)
			judge_flat(v);
		return true;
	}
	flatsucc *f = v->succ.flat;
	uint32_t wi = b / 64;
	if (wi < f->base || wi - f->base >= f->nwords) {
		if (sbm_test(&f->rest, b))
			return false;
		uint64_t lo = wi < f->base ? wi : f->base;
		uint64_t hi = wi < f->base ? (uint64_t)f->base + f->nwords : (uint64_t)wi + 1;
		if (!flat_fits(f, lo, hi))
			return sbm_set(&f->rest, b);
		flat_widen(v, wi);
		f = v->succ.flat;
	}
	uint64_t *w = &f->w[wi - f->base], bit = 1ull << (b % 64);
	if (*w & bit)
		return false;
	*w |= bit;
	f->count++;
	return true;
}

static void succ_del(pnode *v, uint32_t b)
{
	if (!v->succ_flat) {
		sbm_reset(&v->succ.set, b);
		return;
	}
	flatsucc *f = v->succ.flat;
	uint32_t wi = b / 64;
	if (wi < f->base || wi - f->base >= f->nwords)
		sbm_reset(&f->rest, b);
	else if (f->w[wi - f->base] & 1ull << (b % 64)) {
		f->w[wi - f->base] &= ~(1ull << (b % 64));
		f->count--;
	}
}

static void succ_free(pnode *v)
{
	if (v->succ_flat) {
		sbm_free(&v->succ.flat->rest);
		free(v->succ.flat);
	} else
		sbm_free(&v->succ.set);
	v->succ.set = (sbitmap){0};
	v->succ_flat = 0;
}

static size_t succ_bytes(const pnode *v)
{
	const flatsucc *f = v->succ.flat;
	return v->succ_flat ? sizeof *f + (size_t)f->nwords * sizeof f->w[0] + sbm_bytes(&f->rest)
	                    : sbm_bytes(&v->succ.set);
}

/* Ascending, either form: in the flat form the rest's ids below the
 * bitmap's range, the bitmap, then the rest's ids above it. */
static succ_iter succ_begin(const pnode *v)
{
	succ_iter it = {0};
	if (!v->succ_flat) {
		it.set = sbm_iter_begin(&v->succ.set);
		it.phase = 2;
		return it;
	}
	const flatsucc *f = v->succ.flat;
	it.set = sbm_iter_begin(&f->rest);
	it.w = f->w;
	it.n = f->nwords;
	it.base = f->base;
	it.i = 0;
	it.bits = f->nwords ? f->w[0] : 0;
	return it;
}

static inline bool succ_next(succ_iter *it, unsigned *out)
{
	if (it->phase == 0) {   /* the rest, below the bitmap */
		unsigned x;
		if (sbm_iter_next(&it->set, &x)) {
			if (x / 64 < it->base) {
				*out = x;
				return true;
			}
			it->held = x;   /* the first above it: after the bitmap */
			it->have_held = 1;
		}
		it->phase = 1;
	}
	if (it->phase == 1) {   /* the bitmap */
		while (!it->bits) {
			if (++it->i >= it->n)
				break;
			it->bits = it->w[it->i];
		}
		if (it->bits) {
			*out = (it->base + it->i) * 64u + (unsigned)__builtin_ctzll(it->bits);
			it->bits &= it->bits - 1;
			return true;
		}
		it->phase = 2;
		if (it->have_held) {
			it->have_held = 0;
			*out = it->held;
			return true;
		}
	}
	return sbm_iter_next(&it->set, out);
}

/* A's successors ∪= B's (the merge of B into A, both representatives); B's
 * freed. A flat set takes the other's ids. */
static void succ_join(pnode *A, pnode *B)
{
	if (B->succ_flat && !A->succ_flat) {
		pnode t = *A;
		A->succ = B->succ;
		A->succ_flat = 1;
		B->succ = t.succ;
		B->succ_flat = 0;
	}
	if (!A->succ_flat)
		sbm_union(&A->succ.set, &B->succ.set);
	else {
		succ_iter it = succ_begin(B);
		unsigned m;
		while (succ_next(&it, &m))
			succ_add(A, m);
	}
	succ_free(B);
}

/* ---- graph updates ---- */

static void add_loc(pta_solver *s, uint32_t dst, uint32_t loc)
{
	dst = find(s, dst);
	if (pset_add(s->ps, &N(s, dst)->pts, loc))
		push(s, dst);
}

/* Edge a→b. A new edge carries all of pts(a): what a has already pushed
 * elsewhere has not reached b. */
static void add_edge(pta_solver *s, uint32_t a, uint32_t b)
{
	a = find(s, a);
	b = find(s, b);
	if (a == b)
		return;
	if (!succ_add(N(s, a), b))
		return;
	s->st.edges++;
	s->misordered += rank_of(s, a) <= rank_of(s, b);
	if (pset_join(s->ps, &N(s, b)->pts, N(s, a)->pts, NULL))
		push(s, b);
}

static void queue_report(pta_solver *s, uint32_t w, uint32_t loc)
{
	loc = canon(s, loc);
	if (sbm_set(&s->watches.items[w].reported, loc)) {
		report r = { s->watches.items[w].tag, loc };
		VEC_PUSH(&s->pending, r);
	}
}

/* What a complex constraint computes from a set of locations depends only
 * on its class and offset, so constraints of one node that share both (a
 * node often has several loads at one offset) compute it once. */
/* Collapsing constraints sort first: a load or gep of the same node then
 * meets the collapsed object, instead of making field nodes the collapse
 * merges away at once. */
enum { CLASS_COLLAPSE, CLASS_MEM, CLASS_GEP };

static int cx_class(uint8_t kind)
{
	return kind == CX_LOAD || kind == CX_STORE || kind == CX_LOAD_ALL || kind == CX_STORE_ALL ? CLASS_MEM
	     : kind == CX_GEP ? CLASS_GEP : CLASS_COLLAPSE;
}

static int cx_same_result(const pcx *a, const pcx *b)
{
	int ca = cx_class(a->kind);
	if (a->kind >= CX_LOAD_ALL || b->kind >= CX_LOAD_ALL)   /* its spans are its own */
		return 0;
	/* A collapsing one's offset (a stride, a cycle's gep) decides whether an
	 * array folds instead (fold), its kind the cause recorded. */
	return ca == cx_class(b->kind) && a->off == b->off && (ca != CLASS_COLLAPSE || a->kind == b->kind);
}

/* A store after a load of the same offset: the load's memory nodes less
 * those of read-only memory (never merged with writable nodes: nothing
 * flows into them). */
static void drop_readonly(pta_solver *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->targets.len; i++) {
		uint32_t t = s->targets.items[i];
		if (!(t & LOC_BIT) || !(s->linfo.items[t & ~LOC_BIT].state & LS_READONLY))
			s->targets.items[k++] = t;
	}
	s->targets.len = k;
}

/* Marks node id in the current epoch; 1 if it was not marked yet. */
static int mark_once(pta_solver *s, uint32_t id)
{
	size_t i = DI(id);
	if (i >= s->mark_cap) {
		size_t cap = s->mark_cap ? s->mark_cap : 1024;
		while (cap <= i)
			cap *= 2;
		s->mark = xrealloc(s->mark, cap * sizeof *s->mark);
		memset(s->mark + s->mark_cap, 0, (cap - s->mark_cap) * sizeof *s->mark);
		s->mark_cap = cap;
	}
	if (s->mark[i] == s->mark_epoch)
		return 0;
	s->mark[i] = s->mark_epoch;
	return 1;
}

static void new_marks(pta_solver *s)
{
	if (++s->mark_epoch == 0) {   /* wrapped: old marks could look current */
		memset(s->mark, 0, s->mark_cap * sizeof *s->mark);
		s->mark_epoch = 1;
	}
}

/* Splits set into s->rest, the locations that need the per-location work,
 * and s->acc, those every offset and index maps to themselves (LS_SELF:
 * the one location of a collapsed object or of code). In wide sets nearly
 * every location is of a collapsed object, and this part is a few word
 * operations per 128 locations instead of a lookup per location. */
static void split_self(pta_solver *s, const sbitmap *set)
{
	sbm_copy(&s->acc, set);
	sbm_intersect(&s->acc, &s->selfset);
	sbm_diff(&s->rest, set, &s->selfset);
}

/* s->acc ∪= the locations in s->outs (emptied). Sorted first: inserting
 * them in the order they come moves the tail of the set for each one. */
static void acc_add_outs(pta_solver *s)
{
	uint32_t *v = s->outs.items;
	size_t n = s->outs.len;
	if (!n)
		return;
	size_t i = 1;
	while (i < n && v[i - 1] <= v[i])
		i++;
	if (i < n) {
		VEC_RESERVE(&s->sortbuf, n);
		u32_sort(v, n, s->sortbuf.items);
	}
	sbm_clear(&s->more);
	for (i = 0; i < n; i++)
		sbm_set(&s->more, v[i]);
	VEC_CLEAR(&s->outs);
	sbm_union(&s->acc, &s->more);
}

/* CLASS_MEM: the memory nodes of the locations of set, each once, in s->targets
 * (a store's: of writable memory only). */
static void compute_mem(pta_solver *s, uint32_t c, const pcx *x, const sbitmap *set)
{
	unsigned l, t;
	/* A function's code holds no pointers a C program could store or load. */
	uint32_t skip = LS_CODE | (x->kind == CX_STORE ? LS_READONLY : 0);
	VEC_CLEAR(&s->targets);
	new_marks(s);
	/* The LS_SELF part, taken before the loop below collapses anything:
	 * set ∩ selfset less code and the read-only memory this kind skips. */
	sbm_copy(&s->acc, set);
	sbm_intersect(&s->acc, x->kind == CX_STORE ? &s->memstore : &s->memload);
	sbm_diff(&s->rest, set, &s->selfset);
	/* Read-only memory holds its initializer only, so a load from an
	 * object that holds nothing (a string literal) reads nothing: no edge. */
	SBM_FOREACH(&s->rest, l) {
		const locinfo *li = &s->linfo.items[l & ~LOC_BIT];
		if ((li->state & skip) || ((li->state & LS_READONLY) && !s->objs.items[li->obj].holds))
			continue;
		t = shift(s, l, x->off, c, 1);
		if (t == NIL)
			continue;
		t = find(s, t);
		if (mark_once(s, t))
			VEC_PUSH(&s->targets, t);
	}
	SBM_FOREACH(&s->acc, l) {   /* collapsed objects: shift gives l */
		t = find(s, l);
		if (mark_once(s, t))
			VEC_PUSH(&s->targets, t);
	}
}

/* The fields of obj at or past byte `from`, each node once, join s->targets. */
static void add_fields_from(pta_solver *s, uint32_t obj, uint32_t from, uint32_t below)
{
	const pobj *o = &s->objs.items[obj];
	for (uint32_t f = o->fields; f != NIL; f = N(s, f)->next_field) {
		uint32_t off = s->linfo.items[f & ~LOC_BIT].off;
		if (!o->elem && (off < from || off >= below || off >= o->size))
			continue;   /* before the start, or (bounded) one past the end */
		uint32_t t = find(s, f);
		if (mark_once(s, t))
			VEC_PUSH(&s->targets, t);
	}
}

/* CX_LOAD_ALL, CX_STORE_ALL: every field of each object from the location
 * on, in s->targets (a store's: of writable memory only); the object keeps
 * a span of c for the fields it gains. */
static void compute_all(pta_solver *s, uint32_t c, const sbitmap *set)
{
	unsigned l;
	int store = s->cxs.items[c].kind == CX_STORE_ALL;
	VEC_CLEAR(&s->targets);
	new_marks(s);
	sbm_copy(&s->acc, set);
	sbm_intersect(&s->acc, store ? &s->memstore : &s->memload);
	sbm_diff(&s->rest, set, &s->selfset);
	SBM_FOREACH(&s->acc, l) {   /* one location of a collapsed object */
		uint32_t t = find(s, l);
		if (mark_once(s, t))
			VEC_PUSH(&s->targets, t);
	}
	SBM_FOREACH(&s->rest, l) {
		const locinfo *li = &s->linfo.items[l & ~LOC_BIT];
		uint32_t obj = li->obj, from = li->off;
		const pobj *o = &s->objs.items[obj];
		if ((li->state & LS_CODE) || ((li->state & LS_READONLY) && (store || !o->holds)))
			continue;
		if (o->collapsed) {   /* a stale field */
			uint32_t t = find(s, o->base);
			if (mark_once(s, t))
				VEC_PUSH(&s->targets, t);
			continue;
		}
		void *key = pair_key(obj, c);
		uintptr_t r = (uintptr_t)ptrmap_get(&s->span_of, key);
		if (r) {   /* a span already: only what lies below its start is new */
			pspan *sp = &s->spans.items[r - 1];
			if (sp->from <= from)
				continue;
			uint32_t below = sp->from;
			sp->from = from;
			add_fields_from(s, obj, from, below);
			continue;
		}
		pspan sp = { c, from, o->spans };
		VEC_PUSH(&s->spans, sp);
		s->objs.items[obj].spans = (uint32_t)(s->spans.len - 1);
		ptrmap_put(&s->span_of, key, (void *)(uintptr_t)s->spans.len);
		add_fields_from(s, obj, from, UINT32_MAX);
	}
}

/* CLASS_GEP: the locations x's offset gives, in s->acc. */
static void compute_gep(pta_solver *s, uint32_t c, uint32_t owner, const pcx *x, const sbitmap *set)
{
	unsigned l, t;
	split_self(s, set);
	SBM_FOREACH(&s->rest, l) {
		size_t before = s->locs.len;
		t = shift(s, l, x->off, c, 0);
		if (t == NIL)
			continue;
		if ((t & ~LOC_BIT) >= before)
			s->linfo.items[t & ~LOC_BIT].creator = c;
		/* Shifting what this gep made itself: it is probably on a cycle. */
		if (s->linfo.items[l & ~LOC_BIT].creator == c && s->cxs.items[c].tries < 3) {
			s->cxs.items[c].tries++;
			fix f = { c, owner };
			VEC_PUSH(&s->pwc_cands, f);
		}
		VEC_PUSH(&s->outs, t);
	}
	acc_add_outs(s);
}

/* The member array of l's object that a variable index of stride bytes
 * from l stays in (see pta_gep_stride): its bytes [*lo, *hi); 0 if none. */
static int member_array(const pta_solver *s, uint32_t obj, uint64_t k, uint64_t stride, uint64_t *lo, uint64_t *hi)
{
	const pobj *o = &s->objs.items[obj];
	uint64_t base = 0;
	uint32_t r = o->arrays, n = o->n_arrays;
	for (uint32_t i = 0; i < n; i++) {
		const prange *a = &s->ranges.items[r + i];
		uint64_t from = base + a->start, ext = a->elem * a->count;
		if (k < from || k - from >= ext)
			continue;
		if (stride % a->elem == 0 && stride < ext) {
			*lo = from;
			*hi = from + ext;
			return 1;
		}
		/* Not by whole elements of this array: an array inside its element. */
		base = from + (k - from) / a->elem * a->elem;
		r = a->inner;
		n = a->n_inner;
		i = (uint32_t)-1;
	}
	return 0;
}

#define MEMBER_PLACES_MAX 64   /* places a variable index enumerates; past it the object collapses */

/* A variable index of stride bytes from (obj, k) that stays in one of obj's
 * member arrays: every element's field at k's place, shifted by `by`, joins
 * s->outs. 0 (nothing done) when no member array holds it. */
static int in_member_array(pta_solver *s, uint32_t c, uint32_t obj, int64_t k, uint64_t stride, int64_t by)
{
	uint64_t lo, hi;
	if (k < 0 || !member_array(s, obj, (uint64_t)k, stride, &lo, &hi) || (hi - lo) / stride > MEMBER_PLACES_MAX)
		return 0;
	for (uint64_t q = lo + ((uint64_t)k - lo) % stride; q < hi; q += stride) {
		uint32_t t = field(s, obj, (uint32_t)q);
		if (by)
			t = shift(s, t, by, c, 0);
		if (t != NIL)
			VEC_PUSH(&s->outs, t);
	}
	return 1;
}

/* CLASS_COLLAPSE: what a variable index or a cycle's gep gives, in s->acc. */
static void compute_index(pta_solver *s, uint32_t c, const pcx *x, const sbitmap *set)
{
	unsigned l;
	int64_t stride = x->off, by = 0;
	if (x->kind == CX_GEP_AT) {
		stride = (int64_t)(uint32_t)x->off;
		by = (int32_t)(uint32_t)((uint64_t)x->off >> 32);
	}
	split_self(s, set);
	SBM_FOREACH(&s->rest, l) {
		/* A whole number of elements of an array (a variable index of
		 * that stride, a pointer stepping by it in a loop) lands on
		 * the same field of some element: the field itself. */
		uint32_t obj = LOBJ(s, l);
		pobj *o = &s->objs.items[obj];
		int64_t k = s->linfo.items[l & ~LOC_BIT].off;
		/* pta_gep_stride_at: the member array the address reaches. */
		if (by && o->n_arrays && !o->collapsed && in_member_array(s, c, obj, k + by, (uint64_t)stride, 0))
			continue;
		/* Typed heap memory: a member array before the element by stride. */
		if ((o->flags & PTA_OBJ_ELEMENTS_BY_STRIDE) && o->n_arrays && !o->collapsed && stride &&
		    in_member_array(s, c, obj, k, (uint64_t)(stride < 0 ? -stride : stride), by))
			continue;
		/* The strides name the element: their gcd, whatever order they
		 * come in (a narrower one folds the object again). One of a
		 * pointer or less holds one field: the object collapses (and
		 * is reported so). Code has one location: it takes no element. */
		if (!o->collapsed && (o->flags & (PTA_OBJ_ELEMENTS_BY_STRIDE | PTA_OBJ_CODE)) == PTA_OBJ_ELEMENTS_BY_STRIDE &&
		    stride > 8) {
			uint64_t g = o->arr ? u64_gcd(o->arr, (uint64_t)stride) : (uint64_t)stride;
			if (g > 8 && g < HEAP_ELEM_MAX)
				o->arr = (uint32_t)g;
		}
		uint32_t e = o->arr;
		if (e && !o->collapsed && stride && stride % e == 0) {
			fold(s, obj);
			uint32_t ct = canon(s, l);
			if (by)
				ct = shift(s, ct, by, c, 0);
			if (ct != NIL)
				VEC_PUSH(&s->outs, ct);
			continue;
		}
		if (o->n_arrays && !o->collapsed && stride &&
		    in_member_array(s, c, obj, k, (uint64_t)(stride < 0 ? -stride : stride), by))
			continue;
		VEC_PUSH(&s->outs, collapse(s, obj, x->kind == CX_GEP_PWC ? PTA_COLLAPSE_CYCLE : PTA_COLLAPSE_INDEX));
	}
	acc_add_outs(s);
}

/* The result of constraint c (of node owner) on every location in set:
 * for loads and stores the distinct nodes holding the memory they touch (in
 * s->targets), for geps the locations they give (in s->acc). The set is one
 * the caller owns: computing may collapse objects and so merge nodes. */
static void compute_cx(pta_solver *s, uint32_t c, uint32_t owner, const sbitmap *set)
{
	pcx x = s->cxs.items[c];
	s->cur_origin = x.origin;
	VEC_CLEAR(&s->lastdrops);
	switch (cx_class(x.kind)) {
	case CLASS_MEM:
		if (x.kind == CX_LOAD_ALL || x.kind == CX_STORE_ALL)
			compute_all(s, c, set);
		else
			compute_mem(s, c, &x, set);
		return;
	case CLASS_GEP:
		compute_gep(s, c, owner, &x, set);
		return;
	default:
		compute_index(s, c, &x, set);
		return;
	}
}

/* Adds what compute_cx gathered to constraint c's other end: edges from or to
 * the memory nodes, or the locations into the destination's set. */
static void emit_cx(pta_solver *s, uint32_t c)
{
	pcx x = s->cxs.items[c];
	if (cx_class(x.kind) == CLASS_MEM) {
		for (size_t i = 0; i < s->targets.len; i++) {
			if (x.kind == CX_LOAD || x.kind == CX_LOAD_ALL)
				add_edge(s, s->targets.items[i], x.other);
			else
				add_edge(s, x.other, s->targets.items[i]);
		}
		return;
	}
	uint32_t dst = find(s, x.other);
	if (pset_join_bits(s->ps, &N(s, dst)->pts, &s->acc))
		push(s, dst);
}

/* Applies constraint c of node owner to every location in set. */
static void apply_cx(pta_solver *s, uint32_t c, uint32_t owner, const sbitmap *set)
{
	compute_cx(s, c, owner, set);
	emit_cx(s, c);
}

/* The same for a stored set: a reference keeps its elements alive while
 * applying may collapse, merge and drop the nodes that held it, and a copy
 * of its header stays put when the store's table moves. */
static void apply_held(pta_solver *s, uint32_t c, uint32_t owner, uint32_t set)
{
	if (set == PSET_EMPTY)
		return;
	pset_ref(s->ps, set);
	sbitmap bits = *pset_bits(s->ps, set);
	apply_cx(s, c, owner, &bits);
	pset_unref(s->ps, set);
}

static int cmp_cx(const void *a, const void *b, void *ctx)
{
	const pcx *x = &((const pcx *)ctx)[*(const uint32_t *)a], *y = &((const pcx *)ctx)[*(const uint32_t *)b];
	int cx = cx_class(x->kind), cy = cx_class(y->kind);
	if (cx != cy)
		return cx - cy;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (cx != CLASS_GEP && x->kind != y->kind)   /* loads apart from stores (read-only memory) */
		return x->kind < y->kind ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;   /* stable: by id */
}

/* Orders n's constraint list by (class, offset), so equal results are adjacent. */
static void sort_cx(pta_solver *s, uint32_t n)
{
	pnode *v = N(s, n);
	v->cx_sorted = 1;
	VEC_CLEAR(&s->sortbuf);
	for (uint32_t c = v->cx; c != NIL; c = s->cxs.items[c].next)
		VEC_PUSH(&s->sortbuf, c);
	if (s->sortbuf.len < 2)
		return;
	qsort_r(s->sortbuf.items, s->sortbuf.len, sizeof *s->sortbuf.items, cmp_cx, s->cxs.items);
	for (size_t i = 0; i + 1 < s->sortbuf.len; i++)
		s->cxs.items[s->sortbuf.items[i]].next = s->sortbuf.items[i + 1];
	v->cx = s->sortbuf.items[0];
	v->cx_tail = VEC_LAST(&s->sortbuf);
	s->cxs.items[v->cx_tail].next = NIL;
}

/* Links the complex-constraint list starting at c after n's list. */
static void append_cx(pta_solver *s, uint32_t n, uint32_t c, uint32_t tail)
{
	pnode *v = N(s, n);
	if (v->cx == NIL)
		v->cx = c;
	else
		s->cxs.items[v->cx_tail].next = c;
	v->cx_tail = tail;
	v->cx_sorted = 0;
}

/* Merges representative b into representative a (or a into b, by rank).
 * The survivor must redo what either side has not done: a location that only
 * one of them had processed is still new to the other's edges, constraints
 * and watches, so its done set is done(a) ∩ done(b). */
static void merge(pta_solver *s, uint32_t a, uint32_t b)
{
	if (N(s, a)->rank < N(s, b)->rank) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	pnode *A = N(s, a), *B = N(s, b);
	if (A->rank == B->rank)
		A->rank++;
	*PAR(s, b) = a;
	s->st.merged++;

	/* A collapse inside process() can merge away the node being processed;
	 * the delta it is pushing is not done. (If that node survives instead,
	 * process() goes on pushing the delta through the joined lists.) */
	uint32_t common = pset_intersect(s->ps, A->done, b == s->cur ? s->cur_done : B->done);
	s->cur_absorbed |= a == s->cur;
	pset_join(s->ps, &A->pts, B->pts, NULL);
	pset_unref(s->ps, A->done);
	A->done = common;
	pset_unref(s->ps, B->pts);
	pset_unref(s->ps, B->done);
	B->pts = B->done = PSET_EMPTY;

	succ_join(A, B);
	succ_del(A, a);
	succ_del(A, b);

	if (B->cx != NIL)
		append_cx(s, a, B->cx, B->cx_tail);
	B->cx = B->cx_tail = NIL;
	if (B->watch != NIL) {
		uint32_t w = B->watch;
		while (s->watches.items[w].next != NIL)
			w = s->watches.items[w].next;
		s->watches.items[w].next = A->watch;
		A->watch = B->watch;
		B->watch = NIL;
	}
	if (A->done != A->pts)
		push(s, a);
}

/* ---- cycle detection ---- */

static void tarjan_reserve(pta_solver *s)
{
	size_t need = node_slots(s);
	if (s->tarjan_cap >= need)
		return;
	size_t cap = s->tarjan_cap ? s->tarjan_cap : 1024;
	while (cap < need)
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
	s->visit[DI(v)] = s->stamp;
	s->num[DI(v)] = s->low[DI(v)] = ++s->counter;
	VEC_PUSH(&s->tstack, v);
	frame f = { v, flow ? N(s, v)->cx : NIL, succ_begin(N(s, v)) };
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
			s->comp[DI(m[i])] = id;
		int pwc = 0;
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t c = N(s, m[i])->cx; c != NIL; c = s->cxs.items[c].next) {
				const pcx *x = &s->cxs.items[c];
				if ((x->kind != CX_GEP && x->kind != CX_GEP_PWC) || s->comp[DI(find(s, x->other))] != id)
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
	if (s->visit[DI(root)] == s->stamp)
		return;
	tarjan_visit(s, root, flow);
	while (s->frames.len) {
		frame *f = &VEC_LAST(&s->frames);
		uint32_t v = f->v, w = NIL;
		unsigned x;
		if (succ_next(&f->it, &x))
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
			if (s->visit[DI(w)] != s->stamp)
				tarjan_visit(s, w, flow);
			else if (s->num[DI(w)] != DONE && s->num[DI(w)] < s->low[DI(v)])
				s->low[DI(v)] = s->num[DI(w)];
			continue;
		}
		s->frames.len--;
		if (s->frames.len) {
			uint32_t p = VEC_LAST(&s->frames).v;
			if (s->low[DI(v)] < s->low[DI(p)])
				s->low[DI(p)] = s->low[DI(v)];
		}
		if (s->low[DI(v)] != s->num[DI(v)])
			continue;
		VEC_CLEAR(&s->members);
		for (;;) {
			uint32_t y = VEC_POP(&s->tstack);
			s->num[DI(y)] = DONE;
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
	for (size_t i = 0; i < s->fixes.len; i++) {
		fix f = s->fixes.items[i];
		if (s->cxs.items[f.c].kind != CX_GEP)
			continue;
		s->cxs.items[f.c].kind = CX_GEP_PWC;
		s->st.pwc_geps++;
		n++;
		apply_held(s, f.c, f.owner, N(s, find(s, f.owner))->pts);
	}
	VEC_CLEAR(&s->fixes);
	return n;
}

/* The whole flow graph: merges copy cycles, finds every gep on a cycle. */
static size_t flow_pass_timed(pta_solver *s);

static size_t flow_pass(pta_solver *s)
{
	double t0 = clock_seconds();
	size_t n = flow_pass_timed(s);
	s->st.seconds_flow += clock_seconds() - t0;
	return n;
}

static size_t flow_pass_timed(pta_solver *s)
{
	s->misordered = s->since_ranked = 0;
	new_search(s);
	s->st.cycle_searches++;
	for (size_t i = 0; i < nnodes(s); i++) {
		uint32_t n = nth_node(s, i);
		if (*PAR(s, n) == n)
			tarjan(s, n, 1);
	}
	return apply_fixes(s);
}

/* ---- the worklist loop ---- */

static void process(pta_solver *s, uint32_t n)
{
	pnode *v = N(s, n);
	if (*PAR(s, n) != n || v->pts == v->done)
		return;
	s->st.iterations++;
	s->since_ranked++;
	/* The delta is what pts(n) gained since n was last processed; from now
	 * on all of pts is done, and what is added below waits for the next
	 * round. Held by reference: merges below may drop the node's. */
	uint32_t all = v->pts, old = v->done;
	uint32_t delta = pset_diff(s->ps, all, old);
	pset_ref(s->ps, all);
	pset_ref(s->ps, all);
	v->done = all;                 /* old's reference passes to cur_done */
	sbitmap d = *pset_bits(s->ps, delta);
	s->cur = n;
	s->cur_done = old;
	s->cur_absorbed = 0;

	/* Following the list after a merge is fine: the list n's joined. */
	if (!N(s, n)->cx_sorted)
		sort_cx(s, n);
	uint32_t prev = NIL;
	for (uint32_t c = N(s, n)->cx; c != NIL; c = s->cxs.items[c].next) {
		/* A load after a store recomputes: the store's dropped read-only memory. */
		uint8_t pk = prev == NIL ? CX_LOAD : s->cxs.items[prev].kind, ck = s->cxs.items[c].kind;
		if (prev == NIL || !cx_same_result(&s->cxs.items[prev], &s->cxs.items[c]) ||
		    (pk == CX_STORE && ck == CX_LOAD))
			compute_cx(s, c, n, &d);
		else {
			reuse_drops(s, c);
			if (pk == CX_LOAD && ck == CX_STORE)
				drop_readonly(s);
		}
		emit_cx(s, c);
		prev = c;
	}
	s->cur = NIL;
	if (*PAR(s, n) != n)   /* a collapse merged n away; the survivor redoes d (see merge) */
		goto searches;
	/* A watch of call targets sees only code (and memory naming code): in
	 * wide sets that is a few locations of thousands, found by word
	 * operations, where a report per location cost a lookup and a sorted
	 * insertion each. */
	int have_tdelta = 0;
	for (uint32_t w = N(s, n)->watch; w != NIL; w = s->watches.items[w].next) {
		unsigned l;
		if (!s->watches.items[w].targets) {
			SBM_FOREACH(&d, l) queue_report(s, w, l);
			continue;
		}
		if (!have_tdelta) {
			sbm_copy(&s->tdelta, &d);
			sbm_intersect(&s->tdelta, &s->targetset);
			have_tdelta = 1;
		}
		SBM_FOREACH(&s->tdelta, l) queue_report(s, w, l);
	}
	unsigned m;
	for (succ_iter it = succ_begin(N(s, n)); succ_next(&it, &m);) {
		uint32_t r = find(s, m);
		if (r == n)
			continue;
		/* Every successor already holds old (n pushed it, or the edge came
		 * with all of pts), so merging d in place gives pts ∪ all; not so
		 * the successors of a node a collapse merged into n, which take
		 * all of it (collapse_into_processing in tests/pta/test_solver.c). */
		pnode *dst = N(s, r);
		if (pset_join(s->ps, &dst->pts, all, s->cur_absorbed ? NULL : &d))
			push(s, r);
		/* Lazy cycle detection's trigger: equal sets (an id compare), then
		 * the pairs already tested. An edge that is not on a cycle keeps
		 * equal sets at both ends for ever (a -O0 stack slot and the load
		 * of it), so each pair is tested once. */
		if (s->cycle_detection && dst->pts == N(s, n)->pts) {
			void *key = pair_key(n, r);
			if (!ptrmap_get(&s->checked, key)) {
				ptrmap_put(&s->checked, key, (void *)1);
				VEC_PUSH(&s->cands, r);
			}
		}
	}
searches:
	pset_unref(s->ps, all);
	pset_unref(s->ps, delta);
	pset_unref(s->ps, old);
	s->cur_done = PSET_EMPTY;
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
	/* Shared sets are rewritten once: old id + 1 → new id + 1. The old ones
	 * stay referenced until the end, so no id in the map is reused. */
	ptrmap seen;
	ptrmap_init(&seen);
	VEC(uint32_t) held = {0};
	sbitmap hit = {0};
	for (size_t i = 0; i < nnodes(s); i++) {
		uint32_t n = nth_node(s, i);
		pnode *v = N(s, n);
		if (*PAR(s, n) != n || v->pts == PSET_EMPTY)
			continue;
		uint32_t old = v->pts, now;
		void *got = ptrmap_get(&seen, (void *)(uintptr_t)(old + 1));
		if (got) {
			now = (uint32_t)((uintptr_t)got - 1);
			pset_ref(s->ps, now);
		} else if (!sbm_intersects(pset_bits(s->ps, old), &s->stale)) {
			continue;
		} else {
			sbitmap set = {0};
			sbm_copy(&set, pset_bits(s->ps, old));
			sbm_copy(&hit, &set);
			sbm_intersect(&hit, &s->stale);
			sbm_subtract(&set, &s->stale);
			unsigned l;
			SBM_FOREACH(&hit, l) sbm_set(&set, canon(s, l));
			now = pset_intern(s->ps, &set);
			ptrmap_put(&seen, (void *)(uintptr_t)(old + 1), (void *)(uintptr_t)(now + 1));
			VEC_PUSH(&held, old);   /* v's reference, kept till the end */
			pset_ref(s->ps, old);
		}
		pset_unref(s->ps, v->done);
		pset_unref(s->ps, old);
		v->pts = now;
		v->done = now;   /* at a fixpoint everything is done */
		pset_ref(s->ps, now);
	}
	for (size_t i = 0; i < held.len; i++)
		pset_unref(s->ps, held.items[i]);
	VEC_FREE(&held);
	ptrmap_free(&seen);
	sbm_free(&hit);
}

/* Runs the worklist dry, handing reports to on_new as they come. */
/* Lazy cycle detection's searches, batched: one Tarjan pass from all the
 * candidate roots gathered so far visits each node once, where a search per
 * root (as Hardekopf & Lin describe it) walks the same region again for every
 * root — in large programs most of the solver's time, in cache misses. The
 * price is that a cycle is merged later. On nginx and redis traces and the
 * synthetic bench, batches of 1024-4096 cost least; searching only when the
 * worklist is empty is 20x slower (unmerged cycles multiply edges). */
#define LCD_BATCH 2048

static void lazy_searches(pta_solver *s)
{
	if (!s->cands.len)
		return;
	double t0 = clock_seconds();
	new_search(s);
	s->st.cycle_searches++;
	for (size_t i = 0; i < s->cands.len; i++)
		tarjan(s, find(s, s->cands.items[i]), 0);
	VEC_CLEAR(&s->cands);
	s->st.seconds_lcd += clock_seconds() - t0;
}

/* What collapses owe the constraints that had dropped offsets of the
 * collapsed objects (see shift): each applied to the one location. */
static void apply_redos(pta_solver *s)
{
	for (size_t i = 0; i < s->redos.len; i++) {
		redo r = s->redos.items[i];
		sbm_clear(&s->redoset);
		sbm_set(&s->redoset, r.loc);
		apply_cx(s, r.c, NIL, &s->redoset);   /* owner: only for a gep's own locations, which r.loc is not */
	}
	VEC_CLEAR(&s->redos);
}

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
		if (s->redos.len) {
			apply_redos(s);
			continue;
		}
		if (s->cands.len >= LCD_BATCH || (s->cands.len && (!s->count || s->heap.items[0].round != s->round)))
			lazy_searches(s);
		if (!s->count)
			break;
		/* Loads and stores turn into copy edges as they resolve, and calls
		 * are bound on the fly, so the numbering made before solving knows
		 * little of the graph that carries most of the flow; one edge
		 * against the order on a chain is enough to move a wave one step per
		 * round again. Number the graph again (a whole-graph pass, the one
		 * each fixpoint runs) when edges went against the order since the
		 * last numbering and the nodes processed since then outnumber the
		 * graph's nodes and edges: the passes cost at most what the
		 * processing did. */
		if (s->misordered >= 64 && s->since_ranked >= nnodes(s) + s->st.edges) {
			flow_pass(s);
			rekey(s);
			continue;
		}
		uint32_t n = pop(s);
		N(s, n)->queued = 0;
		process(s, n);
	}
}

void pta_solve(pta_solver *s)
{
	if (s->trace)
		fprintf(s->trace, "X\n");
	/* Before solving, the static graph's copy cycles and positive-weight
	 * cycles (most are loops over a pointer); at each fixpoint, the whole
	 * graph again: a gep on a cycle found only now changes the answer. */
	double t0 = clock_seconds();
	flow_pass(s);
	do
		drain(s);
	while (flow_pass(s));
	canonicalize(s);
	s->st.seconds_solve += clock_seconds() - t0;
}

/* ---- public constructors ---- */

pta_solver *pta_new(pta_on_new on_new, void *ctx)
{
	pta_solver *s = xcalloc(1, sizeof *s);
	s->ps = pset_new();
	ptrmap_init(&s->fields);
	ptrmap_init(&s->checked);
	ptrmap_init(&s->dropped);
	ptrmap_init(&s->span_of);
	s->on_new = on_new;
	s->ctx = ctx;
	s->cycle_detection = 1;
	s->cur = NIL;
	s->origin = s->cur_origin = NIL;
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
	for (size_t i = 0; i < nnodes(s); i++)
		succ_free(N(s, nth_node(s, i)));
	pset_free(s->ps);
	for (size_t i = 0; i < s->watches.len; i++)
		sbm_free(&s->watches.items[i].reported);
	VEC_FREE(&s->vars);
	VEC_FREE(&s->locs);
	VEC_FREE(&s->vpar);
	VEC_FREE(&s->lpar);
	VEC_FREE(&s->linfo);
	VEC_FREE(&s->objs);
	VEC_FREE(&s->ranges);
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
	ptrmap_free(&s->dropped);
	VEC_FREE(&s->drops);
	VEC_FREE(&s->lastdrops);
	VEC_FREE(&s->redos);
	VEC_FREE(&s->spans);
	ptrmap_free(&s->span_of);
	sbm_free(&s->redoset);
	sbm_free(&s->stale);
	sbm_free(&s->acc);
	sbm_free(&s->rest);
	sbm_free(&s->more);
	VEC_FREE(&s->outs);
	sbm_free(&s->selfset);
	sbm_free(&s->roset);
	sbm_free(&s->roempty);
	sbm_free(&s->memload);
	sbm_free(&s->memstore);
	sbm_free(&s->targetset);
	sbm_free(&s->tdelta);
	VEC_FREE(&s->targets);
	VEC_FREE(&s->sortbuf);
	free(s->mark);
	VEC_FREE(&s->heap);
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
	uint32_t id = new_node(s, NIL, 0);
	TRACE(s, "N %u\n", id);
	return id;
}

void pta_set_origin(pta_solver *s, unsigned origin)
{
	s->origin = origin;
}

unsigned pta_object_collapse_origin(const pta_solver *s, unsigned obj)
{
	assert(obj < s->objs.len);
	return s->objs.items[obj].collapsed ? s->objs.items[obj].origin : PTA_NONE;
}

unsigned pta_object(pta_solver *s, uint64_t size_bytes, unsigned flags)
{
	s->cur_origin = s->origin;
	assert(s->objs.len < NIL);
	pobj o = { .size = size_bytes, .flags = flags, .fields = NIL, .base = NIL, .arrays = NIL, .drops = NIL,
	           .spans = NIL };
	VEC_PUSH(&s->objs, o);
	uint32_t id = (uint32_t)(s->objs.len - 1);
	TRACE(s, "O %" PRIu64 " %u %u\n", size_bytes, flags, id);
	/* Unknown size, asked for, or too large for 32-bit offsets: one location. */
	if (size_bytes == 0 || size_bytes > UINT32_MAX || (flags & PTA_OBJ_COLLAPSED))
		collapse(s, id, PTA_COLLAPSE_SIZE);
	return id;
}

void pta_object_elements(pta_solver *s, unsigned obj, uint64_t elem)
{
	assert(obj < s->objs.len);
	pobj *o = &s->objs.items[obj];
	TRACE(s, "E %u %" PRIu64 "\n", obj, elem);
	/* Code has one location: nothing of it folds (and so its one location
	 * is LS_SELF under any index, see split_self). */
	if (!o->collapsed && !(o->flags & PTA_OBJ_CODE) && elem > 0 && elem < o->size && o->size % elem == 0)
		o->arr = (uint32_t)elem;
}

unsigned pta_array_range(pta_solver *s, uint64_t start, uint64_t elem, uint64_t count, unsigned inner,
                         unsigned n_inner)
{
	assert(n_inner == 0 || (inner != NIL && inner + n_inner <= s->ranges.len));
	assert(s->ranges.len < NIL);
	prange r = { .start = start, .elem = elem, .count = count, .inner = n_inner ? inner : NIL, .n_inner = n_inner };
	VEC_PUSH(&s->ranges, r);
	unsigned id = (unsigned)(s->ranges.len - 1);
	TRACE(s, "Y %" PRIu64 " %" PRIu64 " %" PRIu64 " %u %u %u\n", start, elem, count, inner, n_inner, id);
	return id;
}

void pta_object_arrays(pta_solver *s, unsigned obj, unsigned first, unsigned n)
{
	assert(obj < s->objs.len && (n == 0 || first + n <= s->ranges.len));
	TRACE(s, "Z %u %u %u\n", obj, first, n);
	if (s->objs.items[obj].flags & PTA_OBJ_CODE)   /* one location: see pta_object_elements */
		return;
	s->objs.items[obj].arrays = n ? first : NIL;
	s->objs.items[obj].n_arrays = n;
}

unsigned pta_field(pta_solver *s, unsigned obj, int64_t offset)
{
	assert(obj < s->objs.len);
	s->cur_origin = s->origin;
	pobj *o = &s->objs.items[obj];
	uint32_t loc;
	if (o->collapsed)
		loc = field(s, obj, 0);
	else if (o->elem && offset >= 0 && (uint64_t)offset < o->size)
		loc = field(s, obj, (uint32_t)(offset % o->elem));
	else if ((o->flags & PTA_OBJ_BOUNDED) && !o->arr && offset >= 0 && (uint64_t)offset == o->size)
		loc = field(s, obj, (uint32_t)offset);   /* one past the end (see shift) */
	else if (offset < 0 || (uint64_t)offset >= o->size)
		loc = collapse(s, obj, PTA_COLLAPSE_OFFSET);
	else
		loc = field(s, obj, (uint32_t)offset);
	TRACE(s, "F %u %" PRId64 " %u\n", obj, offset, loc);
	return loc;
}

static void check_node(const pta_solver *s, unsigned n)
{
	(void)s;
	(void)n;
	assert(n & LOC_BIT ? (n & ~LOC_BIT) < s->locs.len : n < s->vars.len);
}

void pta_addr(pta_solver *s, unsigned dst, unsigned loc)
{
	check_node(s, dst);
	check_node(s, loc);
	assert(LOBJ(s, loc) != NIL);
	TRACE(s, "A %u %u\n", dst, loc);
	s->st.addr++;
	if ((dst & LOC_BIT) && (s->linfo.items[dst & ~LOC_BIT].state & LS_READONLY)) {
		pobj *o = &s->objs.items[LOBJ(s, dst)];   /* an initializer: it holds something now */
		o->holds = 1;
		for (uint32_t f = o->fields; f != NIL; f = N(s, f)->next_field)
			if (sbm_reset(&s->roempty, f) && (s->linfo.items[f & ~LOC_BIT].state & (LS_SELF | LS_CODE)) == LS_SELF)
				sbm_set(&s->memload, f);
	}
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
	pcx x = { .off = off, .other = other, .next = NIL, .kind = kind, .origin = s->origin };
	VEC_PUSH(&s->cxs, x);
	n = find(s, n);
	append_cx(s, n, c, c);
	apply_held(s, c, n, N(s, n)->done);
}

void pta_load(pta_solver *s, unsigned dst, unsigned src, int64_t off)
{
	TRACE(s, "L %u %u %" PRId64 "\n", dst, src, off);
	s->st.load++;
	add_cx(s, CX_LOAD, src, dst, off);
}

void pta_load_all(pta_solver *s, unsigned dst, unsigned src)
{
	TRACE(s, "R %u %u\n", dst, src);
	s->st.load++;
	add_cx(s, CX_LOAD_ALL, src, dst, 0);
}

void pta_store_all(pta_solver *s, unsigned dst, unsigned src)
{
	TRACE(s, "Q %u %u\n", dst, src);
	s->st.store++;
	add_cx(s, CX_STORE_ALL, dst, src, 0);
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
	pta_gep_stride(s, dst, src, 0);
}

void pta_gep_stride(pta_solver *s, unsigned dst, unsigned src, uint64_t stride)
{
	if (stride > INT64_MAX)
		stride = 0;
	if (stride)
		TRACE(s, "V %u %u %" PRIu64 "\n", dst, src, stride);
	else
		TRACE(s, "V %u %u\n", dst, src);
	s->st.gep_var++;
	add_cx(s, CX_GEP_VAR, src, dst, (int64_t)stride);   /* off: the stride, 0 unknown */
}

void pta_gep_stride_at(pta_solver *s, unsigned dst, unsigned src, uint64_t stride, int64_t off)
{
	if (!off || !stride || stride > INT32_MAX || off < INT32_MIN || off > INT32_MAX) {
		/* Not packable: the index where it is, then the offset. */
		unsigned mid = pta_node(s);
		pta_gep_stride(s, mid, src, stride);
		pta_gep(s, dst, mid, off);
		return;
	}
	TRACE(s, "T %u %u %" PRIu64 " %" PRId64 "\n", dst, src, stride, off);
	s->st.gep_var++;
	add_cx(s, CX_GEP_AT, src, dst, (int64_t)((uint64_t)(uint32_t)(int32_t)off << 32 | stride));
}

static void add_watch(pta_solver *s, unsigned node, unsigned tag, int targets)
{
	check_node(s, node);
	TRACE(s, targets ? "W %u %u 1\n" : "W %u %u\n", node, tag);
	uint32_t w = (uint32_t)s->watches.len;
	pwatch x = { .tag = tag, .targets = (uint8_t)targets };
	VEC_PUSH(&s->watches, x);
	uint32_t n = find(s, node);
	pnode *v = N(s, n);
	s->watches.items[w].next = v->watch;
	v->watch = w;
	/* What n already processed is reported now; its delta when processed. */
	sbitmap done = {0};
	sbm_copy(&done, pset_bits(s->ps, v->done));
	if (targets)
		sbm_intersect(&done, &s->targetset);
	unsigned l;
	SBM_FOREACH(&done, l) queue_report(s, w, l);
	sbm_free(&done);
}

void pta_watch(pta_solver *s, unsigned node, unsigned tag)
{
	add_watch(s, node, tag, 0);
}

void pta_watch_targets(pta_solver *s, unsigned node, unsigned tag)
{
	add_watch(s, node, tag, 1);
}

void pta_unwatch(pta_solver *s, unsigned node, unsigned tag)
{
	check_node(s, node);
	TRACE(s, "U %u %u\n", node, tag);
	pnode *v = N(s, find(s, node));
	for (uint32_t *p = &v->watch; *p != NIL; p = &s->watches.items[*p].next) {
		pwatch *w = &s->watches.items[*p];
		if (w->tag != tag)
			continue;
		*p = w->next;
		w->next = NIL;
		sbm_free(&w->reported);
		return;
	}
}

/* ---- queries ---- */

const sbitmap *pta_pts(const pta_solver *s, unsigned node)
{
	check_node(s, node);
	return pset_bits(s->ps, N(s, find_const(s, node))->pts);
}

unsigned pta_loc_object(const pta_solver *s, unsigned node)
{
	check_node(s, node);
	return LOBJ(s, node);
}

int64_t pta_loc_offset(const pta_solver *s, unsigned loc)
{
	check_node(s, loc);
	assert(loc & LOC_BIT);
	return s->linfo.items[loc & ~LOC_BIT].off;
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

unsigned pta_object_collapse_cause(const pta_solver *s, unsigned obj)
{
	assert(obj < s->objs.len);
	return s->objs.items[obj].collapsed ? s->objs.items[obj].cause : PTA_COLLAPSE_NONE;
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

unsigned pta_num_vars(const pta_solver *s) { return (unsigned)s->vars.len; }
unsigned pta_num_locations(const pta_solver *s) { return (unsigned)s->locs.len; }
unsigned pta_num_objects(const pta_solver *s) { return (unsigned)s->objs.len; }

unsigned pta_offset_dropped(const pta_solver *s)
{
	unsigned n = 0;
	for (size_t i = 0; i < s->objs.len; i++)
		n += s->objs.items[i].dropped && !s->objs.items[i].collapsed;
	return n;
}

void pta_get_stats(const pta_solver *s, pta_stats *out)
{
	*out = s->st;
	out->nodes = (unsigned)nnodes(s);
	out->objects = (unsigned)s->objs.len;
	out->constraints = s->st.addr + s->st.copy + s->st.load + s->st.store + s->st.gep + s->st.gep_var;
	out->watches = s->watches.len;
	out->pts_entries = 0;
	out->pts_bytes = out->delta_bytes = out->succ_bytes = out->reported_bytes = 0;
	for (size_t i = 0; i < nnodes(s); i++) {
		uint32_t n = nth_node(s, i);
		const pnode *v = N(s, n);
		if (*PAR(s, n) == n)
			out->pts_entries += pset_count(s->ps, v->pts);
		out->succ_bytes += succ_bytes(v);
	}
	/* Each distinct set once, with the store's tables. No delta is stored: a
	 * node's delta is a difference of two stored sets, made while it is
	 * processed, so delta_bytes stays 0. */
	pset_stats ps;
	pset_get_stats(s->ps, &ps);
	out->pts_bytes = ps.bytes;
	out->distinct_sets = ps.live;
	for (size_t i = 0; i < s->watches.len; i++)
		out->reported_bytes += sbm_bytes(&s->watches.items[i].reported);
	out->locset_bytes = sbm_bytes(&s->stale) + sbm_bytes(&s->acc) + sbm_bytes(&s->rest) + sbm_bytes(&s->more) +
	                    sbm_bytes(&s->selfset) + sbm_bytes(&s->roset) +
	                    sbm_bytes(&s->roempty) + sbm_bytes(&s->targetset) + sbm_bytes(&s->tdelta) +
	                    sbm_bytes(&s->memload) + sbm_bytes(&s->memstore);
	out->set_bytes = out->pts_bytes + out->delta_bytes + out->succ_bytes + out->reported_bytes + out->locset_bytes;
	out->node_bytes = (s->vars.cap + s->locs.cap) * sizeof(pnode) + (s->vpar.cap + s->lpar.cap) * sizeof(uint32_t) +
	                  s->linfo.cap * sizeof(locinfo);
	out->cx_bytes = s->cxs.cap * sizeof(pcx) + s->watches.cap * sizeof(pwatch);
	out->map_bytes = (s->fields.map.cap + s->checked.map.cap + s->dropped.map.cap + s->span_of.map.cap) *
	                     sizeof(intmap_slot) +
	                 s->objs.cap * sizeof(pobj) + s->drops.cap * sizeof(pdrop) + s->spans.cap * sizeof(pspan);
	out->offset_dropped = pta_offset_dropped(s);
}
