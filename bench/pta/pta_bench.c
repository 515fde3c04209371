/* pta_bench.c — the points-to solver on large synthetic constraint systems.
 *
 * Generates a system shaped like a whole C program after lowering, then
 * solves it and prints two lines of numbers. Same arguments, same system.
 *
 * Purely random graphs make every set hold every location; real C does not,
 * because values are typed: a `struct conn *` is loaded at struct conn's
 * pointer fields and stored where a struct conn * goes. So the generator
 * keeps a type for every value and only builds type-consistent flows, plus
 * the C habits that mix types and that points-to analysis pays for (the
 * fractions below are knobs; see the `types` comment for how far mixing
 * reaches):
 *   - struct types with pointer fields to other structs, function-pointer
 *     fields (ops tables in globals, filled by initializers), void * fields;
 *   - casts to and from void * (generic containers, callbacks' user data);
 *   - container_of (a field pointer moved back to its object's start);
 *   - byte buffers indexed by variables (gep_var: those objects collapse);
 *   - functions in modules: calls mostly stay in the module, some go to a
 *     library every module calls (context-insensitive merging of arguments);
 *   - indirect calls through ops-table fields, resolved on the fly by a
 *     pta_watch callback that binds arguments and the return value;
 *   - loop phis (copy cycles), recursion, allocation sites per call.
 *
 *   pta_bench [-n VARS] [-s SEED] [--share PCT] [--no-cd]
 *   pta_bench --replay TRACE [--no-cd]       (a real system: see replay())
 *
 * Peak memory: run under /usr/bin/time -v (the driver also prints
 * getrusage's maxrss). Build: see README.md. */
#include "pta/solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void)   /* xorshift64*: fast and good enough for shapes */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}
static unsigned rndn(unsigned n) { return n ? (unsigned)((rnd() >> 32) % n) : 0; }
static double rndf(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }
/* Skewed towards 0: a few types, library functions, globals are popular. */
static unsigned zipf(unsigned n, int k)
{
	double x = rndf();
	for (int e = 1; e < k; e++)
		x *= rndf();
	unsigned i = (unsigned)(x * n);
	return i < n ? i : n - 1;
}

/* ---- types ----
 *
 * A program is modules of ~40 functions. Each module has its own struct
 * types and function signatures; a shared part (the library: pools,
 * strings, lists) is used by every module. A module's values point mostly to
 * its own types, so, as in real programs, data mixes inside a module and
 * through the shared types, not across the whole program — the blob that
 * field-insensitive mixing makes stays the size of the shared part. */

#define SHARED_TYPES  80
#define MODULE_TYPES  30
#define SHARED_SIGS   40
#define MODULE_SIGS   10
#define FUNCS_PER_MODULE 40
/* How much code reaches outside its module, in percent: shared types and
 * signatures are picked SHARE_PCT% of the time, library functions called
 * SHARE_PCT/2%, other modules' globals SHARE_PCT/4%. */
static unsigned SHARE_PCT = 10;
#define MAXSLOTS 32
#define T_BUF 0                 /* char buffers: no pointer fields */

typedef struct ty {
	unsigned size, nslots;
	int slot[MAXSLOTS];   /* what the pointer at byte 8k points to (a type code), -1 for a scalar */
} ty;

typedef struct sig { unsigned nparams; int param[3]; int ret; } sig;

/* Type codes: 0 .. ntypes-1 structs (0 = byte buffer), T_VOID, then T_FN+s. */
static ty *types;
static sig *sigs;
static unsigned ntypes, nsigs, nmodules;
#define T_VOID ((int)ntypes)
#define T_FN   ((int)ntypes + 1)
static int is_struct(int t) { return t >= 0 && t < T_VOID; }
static int is_fn(int t) { return t >= T_FN; }

/* A struct type used by module m (m < 0: shared code uses shared types only). */
static int rand_type(int m)
{
	if (m < 0 || rndn(100) < SHARE_PCT)
		return 1 + (int)zipf(SHARED_TYPES, 2);
	return 1 + SHARED_TYPES + m * MODULE_TYPES + (int)zipf(MODULE_TYPES, 2);
}

static int module_of_type(int t)
{
	return t <= SHARED_TYPES ? -1 : (t - 1 - SHARED_TYPES) / MODULE_TYPES;
}

static unsigned rand_sig(int m)
{
	if (m < 0 || rndn(100) < SHARE_PCT)
		return zipf(SHARED_SIGS, 2);
	return SHARED_SIGS + (unsigned)m * MODULE_SIGS + zipf(MODULE_SIGS, 2);
}

static int rand_ptr_type(int m)   /* what a pointer field or parameter points to */
{
	unsigned r = rndn(100);
	if (r < 10)
		return T_VOID;
	if (r < 13)
		return T_BUF;
	return rand_type(m);
}

static void make_types(void)
{
	static const unsigned sizes[] = { 16, 24, 32, 32, 48, 64, 64, 96, 128, 256 };
	ntypes = 1 + SHARED_TYPES + nmodules * MODULE_TYPES;
	nsigs = SHARED_SIGS + nmodules * MODULE_SIGS;
	types = calloc(ntypes, sizeof *types);
	sigs = calloc(nsigs, sizeof *sigs);
	types[T_BUF].size = 64;
	types[T_BUF].nslots = 8;
	for (unsigned k = 0; k < 8; k++)
		types[T_BUF].slot[k] = -1;
	for (unsigned i = 0; i < nsigs; i++) {
		int m = i < SHARED_SIGS ? -1 : (int)((i - SHARED_SIGS) / MODULE_SIGS);
		sigs[i].nparams = 1 + rndn(3);
		for (unsigned p = 0; p < sigs[i].nparams; p++)
			sigs[i].param[p] = rand_ptr_type(m);
		sigs[i].ret = rndn(3) ? rand_ptr_type(m) : -1;
	}
	for (int t = 1; t < T_VOID; t++) {
		ty *x = &types[t];
		int m = module_of_type(t);
		x->size = sizes[rndn(sizeof sizes / sizeof sizes[0])];
		x->nslots = x->size / 8 < MAXSLOTS ? x->size / 8 : MAXSLOTS;
		for (unsigned k = 0; k < x->nslots; k++) {
			unsigned r = rndn(100);
			x->slot[k] = r < 45 ? -1 : r < 55 ? T_FN + (int)rand_sig(m) : rand_ptr_type(m);
		}
	}
}

/* ---- the program ---- */

typedef struct fn {
	unsigned obj, sig, param[3], ret;
} fn;

typedef struct site { unsigned sig, nargs, args[3], result; } site;

#define GLOBALS_PER_MODULE 12

typedef struct prog {
	pta_solver *s;
	fn *fns;
	unsigned nfns, lib_funcs;
	unsigned *fn_of_obj;      /* object id → function index + 1; 0 if not a function */
	unsigned fn_of_obj_cap;
	unsigned *by_sig;         /* functions grouped by signature */
	unsigned *sig_first;
	unsigned *gobj, *gptr, ng; /* globals, GLOBALS_PER_MODULE per module: object, a node holding &it */
	int *gtype;
	unsigned *pool;           /* per type, and void per module: a global pointer variable */
	site *sites;
	unsigned nsites, sites_cap;
	size_t bound, ignored;
} prog;

static void on_new(void *ctx, unsigned tag, unsigned loc)
{
	prog *p = ctx;
	unsigned obj = pta_loc_object(p->s, loc);
	site *c = &p->sites[tag];
	if (obj >= p->fn_of_obj_cap || !p->fn_of_obj[obj] || p->fns[p->fn_of_obj[obj] - 1].sig != c->sig) {
		p->ignored++;         /* not a function of the site's type: FLTA drops it */
		return;
	}
	fn *f = &p->fns[p->fn_of_obj[obj] - 1];
	for (unsigned i = 0; i < c->nargs; i++)
		pta_copy(p->s, f->param[i], c->args[i]);
	if (sigs[f->sig].ret >= 0)
		pta_copy(p->s, c->result, f->ret);
	p->bound++;
}

static unsigned new_object_sized(prog *p, uint64_t size)
{
	unsigned o = pta_object(p->s, size, 0);
	if (o >= p->fn_of_obj_cap) {
		unsigned cap = p->fn_of_obj_cap * 2;
		p->fn_of_obj = realloc(p->fn_of_obj, cap * sizeof *p->fn_of_obj);
		memset(p->fn_of_obj + p->fn_of_obj_cap, 0, (cap - p->fn_of_obj_cap) * sizeof *p->fn_of_obj);
		p->fn_of_obj_cap = cap;
	}
	return o;
}

static unsigned new_object(prog *p, int t)
{
	return new_object_sized(p, t == T_VOID ? 0 : types[t].size);
}

static unsigned fn_of_sig(prog *p, unsigned sg)
{
	unsigned n = p->sig_first[sg + 1] - p->sig_first[sg];
	return n ? p->by_sig[p->sig_first[sg] + zipf(n, 2)] : 0;
}

/* A global of module m (the library's, for m < 0), mostly; some code
 * reaches other modules' globals. */
static unsigned rand_global(prog *p, int m)
{
	if (rndn(100) < SHARE_PCT / 4)
		return rndn(p->ng);
	return (unsigned)(m < 0 ? 0 : m) * GLOBALS_PER_MODULE + zipf(GLOBALS_PER_MODULE, 2);
}

/* The global pointer variable of module m for values of type t: a
 * module's own types have one each; shared types and void get one per
 * module too (a module's `static struct list *cache`), not one program-wide
 * hub that every module reads and writes. */
#define POOLS_PER_MODULE (MODULE_TYPES + 8)
static unsigned pool_of(prog *p, int t, int m)
{
	unsigned mm = m < 0 ? 0 : (unsigned)m;
	if (module_of_type(t) == m && t != T_VOID && m >= 0)
		return p->pool[mm * POOLS_PER_MODULE + (unsigned)(t - 1 - SHARED_TYPES) % MODULE_TYPES];
	return p->pool[mm * POOLS_PER_MODULE + MODULE_TYPES + (unsigned)(t == T_VOID ? 0 : t) % 8];
}

/* Values of the function being generated: node, type, byte offset into the type. */
#define MAXVALS 256
typedef struct body {
	unsigned n, node[MAXVALS];
	int type[MAXVALS];
	unsigned off[MAXVALS];
	int module;
} body;

static void add_val(body *b, unsigned node, int type, unsigned off)
{
	if (b->n < MAXVALS) {
		b->node[b->n] = node;
		b->type[b->n] = type;
		b->off[b->n] = off;
		b->n++;
	}
}

/* An earlier value of type t at offset 0, recent ones first; -1 if none. */
static int find_val(const body *b, int t)
{
	int start = (int)b->n - 1 - (int)rndn(b->n < 6 ? b->n : 6);
	for (int i = start; i >= 0; i--)
		if (b->type[i] == t && b->off[i] == 0)
			return i;
	for (int i = (int)b->n - 1; i > start; i--)
		if (b->type[i] == t && b->off[i] == 0)
			return i;
	return -1;
}

/* A node holding a pointer of type t: an earlier value, a global pointer
 * variable's content, a global, or a fresh object. */
static unsigned value_of(prog *p, body *b, int t)
{
	int i = find_val(b, t);
	if (i >= 0 && rndn(8))
		return b->node[i];
	pta_solver *s = p->s;
	unsigned v = pta_node(s);
	if (!is_fn(t) && rndn(2)) {
		pta_load(s, v, pool_of(p, t, b->module), 0);
	} else if (is_fn(t)) {
		pta_addr(s, v, pta_field(s, p->fns[fn_of_sig(p, (unsigned)(t - T_FN))].obj, 0));
	} else if (t == T_VOID) {
		if (b->n && rndn(2))
			pta_copy(s, v, b->node[rndn(b->n)]);            /* a cast of anything */
		else
			pta_addr(s, v, pta_field(s, new_object(p, rand_type(b->module)), 0));
	} else if (rndn(3) == 0) {
		unsigned g = rand_global(p, b->module);
		if (p->gtype[g] == t)
			pta_copy(s, v, p->gptr[g]);
		else
			pta_addr(s, v, pta_field(s, new_object(p, t), 0));
	} else
		pta_addr(s, v, pta_field(s, new_object(p, t), 0)); /* stack or heap */
	add_val(b, v, t, 0);
	return v;
}

/* A value pointing into a struct with pointer fields; -1 if none. */
static int find_struct_val(const body *b)
{
	for (unsigned tries = 0; tries < 8 && b->n; tries++) {
		unsigned i = b->n - 1 - zipf(b->n, 2);
		if (is_struct(b->type[i]) && b->type[i] != T_BUF)
			return (int)i;
	}
	return -1;
}

static void gen_body(prog *p, unsigned fi, unsigned nvals, size_t *direct_calls)
{
	pta_solver *s = p->s;
	fn *f = &p->fns[fi];
	int module = fi < p->lib_funcs ? -1 : (int)(fi / FUNCS_PER_MODULE);
	body b = { .module = module };
	const sig *sg = &sigs[f->sig];
	for (unsigned i = 0; i < sg->nparams; i++)
		add_val(&b, f->param[i], sg->param[i], 0);
	for (unsigned step = 0; step < nvals; step++) {
		unsigned r = rndn(1000);
		int si = find_struct_val(&b);
		if (r < 80 || si < 0) {                               /* &local, &global, malloc */
			int t = rand_type(module);
			unsigned v = pta_node(s);
			if (r < 20) {
				unsigned g = rand_global(p, module);
				pta_copy(s, v, p->gptr[g]);
				t = p->gtype[g];
			} else
				pta_addr(s, v, pta_field(s, new_object(p, t), 0));
			add_val(&b, v, t, 0);
		} else if (r < 280) {                                  /* copy / phi */
			unsigned i = b.n - 1 - zipf(b.n, 2);
			unsigned v = pta_node(s);
			pta_copy(s, v, b.node[i]);
			int j = find_val(&b, b.type[i]);
			if (rndn(5) == 0 && j >= 0 && b.off[i] == 0)
				pta_copy(s, v, b.node[j]);
			add_val(&b, v, b.type[i], b.off[i]);
		} else if (r < 400) {                                  /* &p->field (an embedded struct or array) */
			const ty *t = &types[b.type[si]];
			unsigned k = rndn(t->nslots), v = pta_node(s);
			pta_gep(s, v, b.node[si], (int64_t)(8 * k) - (int64_t)b.off[si]);
			add_val(&b, v, b.type[si], 8 * k);
		} else if (r < 420) {                                  /* container_of */
			int i = -1;
			for (int k = (int)b.n - 1; k >= 0 && i < 0; k--)
				if (b.off[k])
					i = k;
			if (i < 0)
				continue;
			unsigned v = pta_node(s);
			pta_gep(s, v, b.node[i], -(int64_t)b.off[i]);
			add_val(&b, v, b.type[i], 0);
		} else if (r < 640) {                                  /* v = p->field */
			const ty *t = &types[b.type[si]];
			unsigned k = b.off[si] / 8 + rndn(t->nslots - b.off[si] / 8);
			if (t->slot[k] < 0)
				continue;
			unsigned v = pta_node(s);
			pta_load(s, v, b.node[si], (int64_t)(8 * k) - (int64_t)b.off[si]);
			add_val(&b, v, t->slot[k], 0);
		} else if (r < 790) {                                  /* p->field = w */
			const ty *t = &types[b.type[si]];
			unsigned k = b.off[si] / 8 + rndn(t->nslots - b.off[si] / 8);
			if (t->slot[k] < 0)
				continue;
			unsigned w = value_of(p, &b, t->slot[k]);
			pta_store(s, b.node[si], w, (int64_t)(8 * k) - (int64_t)b.off[si]);
			if (!is_fn(t->slot[k]) && rndn(8) == 0)
				pta_store(s, pool_of(p, t->slot[k], module), w, 0);  /* and into the global variable */
		} else if (r < 810) {                                  /* (void *)x and back */
			unsigned i = b.n - 1 - zipf(b.n, 2), v = pta_node(s);
			pta_copy(s, v, b.node[i]);
			if (b.type[i] == T_VOID)
				add_val(&b, v, rand_type(module), 0);
			else
				add_val(&b, v, T_VOID, 0);
		} else if (r < 815) {                                  /* &buf[i] */
			unsigned buf = value_of(p, &b, T_BUF), v = pta_node(s);
			pta_gep_var(s, v, buf);
			add_val(&b, v, T_BUF, 0);
		} else if (r < 970) {                                  /* v = g(args) */
			unsigned callee = rndn(100) >= SHARE_PCT / 2 && module >= 0
			                      ? (unsigned)module * FUNCS_PER_MODULE + rndn(FUNCS_PER_MODULE)
			                      : zipf(p->lib_funcs, 2);
			fn *g = &p->fns[callee % p->nfns];
			const sig *gs = &sigs[g->sig];
			for (unsigned a = 0; a < gs->nparams; a++)
				pta_copy(s, g->param[a], value_of(p, &b, gs->param[a]));
			if (gs->ret >= 0) {
				unsigned v = pta_node(s);
				pta_copy(s, v, g->ret);
				add_val(&b, v, gs->ret, 0);
			}
			(*direct_calls)++;
		} else {                                               /* v = (*fp)(args) */
			const ty *t = &types[b.type[si]];
			int k = -1;
			for (unsigned j = b.off[si] / 8; j < t->nslots && k < 0; j++)
				if (is_fn(t->slot[j]))
					k = (int)j;
			unsigned fp = pta_node(s), sgi;
			if (k >= 0) {                                      /* obj->ops->fn style */
				pta_load(s, fp, b.node[si], (int64_t)(8 * (unsigned)k) - (int64_t)b.off[si]);
				sgi = (unsigned)(t->slot[k] - T_FN);
			} else {                                           /* a callback pointer */
				sgi = rand_sig(module);
				pta_copy(s, fp, value_of(p, &b, T_FN + (int)sgi));
			}
			if (p->nsites == p->sites_cap) {
				p->sites_cap *= 2;
				p->sites = realloc(p->sites, p->sites_cap * sizeof *p->sites);
			}
			const sig *cs = &sigs[sgi];
			site *c = &p->sites[p->nsites];
			c->sig = sgi;
			c->nargs = cs->nparams;
			for (unsigned a = 0; a < cs->nparams; a++)
				c->args[a] = value_of(p, &b, cs->param[a]);
			c->result = pta_node(s);
			if (cs->ret >= 0)
				add_val(&b, c->result, cs->ret, 0);
			pta_watch(s, fp, p->nsites++);
		}
		/* loop back edges: a later value flows into an earlier phi of its type */
		if (rndn(30) == 0 && b.n > 2) {
			unsigned last = b.n - 1;
			for (int i = (int)last - 1; i >= 0 && i + 16 > (int)last; i--)
				if (b.type[i] == b.type[last] && b.off[i] == b.off[last]) {
					pta_copy(s, b.node[i], b.node[last]);
					break;
				}
		}
	}
	if (sg->ret >= 0)
		pta_copy(s, f->ret, value_of(p, &b, sg->ret));
}

static double clock_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void print_stats(pta_solver *s, double build, double solve, double solve_cpu)
{
	pta_stats st;
	pta_get_stats(s, &st);
	unsigned nonempty = 0, vars = 0;
	size_t maxpts = 0, var_entries = 0;
	for (unsigned v = 0; v < pta_num_vars(s); v++) {
		size_t c = sbm_count(pta_pts(s, v));
		vars++;
		nonempty += c != 0;
		var_entries += c;
		if (c > maxpts)
			maxpts = c;
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("vars=%u locations=%u objects=%u constraints=%zu (addr %zu copy %zu load %zu store %zu gep %zu "
	       "gep_var %zu) watches=%zu\n",
	       vars, st.locations, st.objects, st.constraints, st.addr, st.copy, st.load, st.store, st.gep,
	       st.gep_var, st.watches);
	printf("build=%.2fs solve=%.2fs solve_cpu=%.2fs iterations=%zu edges=%zu cycles=%u merged=%u "
	       "searches=%u pwc_geps=%u collapsed=%u pts_entries=%zu nonempty_vars=%u avg_var_pts=%.1f "
	       "max_pts=%zu set_MiB=%.1f maxrss_MiB=%.1f\n",
	       build, solve, solve_cpu, st.iterations, st.edges, st.cycles, st.merged, st.cycle_searches,
	       st.pwc_geps, st.collapsed_objects, st.pts_entries, nonempty,
	       nonempty ? (double)var_entries / nonempty : 0.0, maxpts, (double)st.set_bytes / 1048576.0,
	       (double)ru.ru_maxrss / 1024.0);
}

/* Replays a trace written by pta_trace (a facet built with
 * -DFACET_PTA_TRACE_ENV writes one when FACET_PTA_TRACE names a file). The
 * constraints that on_new callbacks added are in the trace, so the replay
 * has no callbacks: it adds everything in order and solves where the
 * original did (X) and at the end. Only the last solve is timed in
 * `solve`; earlier ones count in `build`.
 *
 * Variable and object ids are the caller's to create, so they match the
 * trace. Location ids need not: the solver makes locations while solving,
 * and the replay solves at other moments than the original, so a location's
 * trace id is mapped through the F line that handed it to the caller. */
typedef struct idmap { unsigned *to; size_t cap; } idmap;

static void map_put(idmap *m, unsigned from, unsigned to)
{
	size_t i = from & ~PTA_LOC_BIT;
	if (i >= m->cap) {
		size_t cap = m->cap ? m->cap : 4096;
		while (cap <= i)
			cap *= 2;
		m->to = realloc(m->to, cap * sizeof *m->to);
		memset(m->to + m->cap, 0xff, (cap - m->cap) * sizeof *m->to);
		m->cap = cap;
	}
	m->to[i] = to;
}

/* A node id of the trace as this replay's id; 0 if it is a location never
 * handed out by an F line. */
static int map_node(const idmap *m, unsigned *id)
{
	if (!(*id & PTA_LOC_BIT))
		return 1;
	size_t i = *id & ~PTA_LOC_BIT;
	if (i >= m->cap || m->to[i] == PTA_NONE)
		return 0;
	*id = m->to[i];
	return 1;
}

static int replay(const char *path, int cd)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	double t0 = clock_s(CLOCK_MONOTONIC);
	pta_solver *s = pta_new(NULL, NULL);
	pta_set_cycle_detection(s, cd);
	idmap locs = {0};
	char line[256];
	unsigned a, b, c, id;
	long long off;
	unsigned long long size;
	size_t lineno = 0;
	unsigned nranges = 0;   /* Y lines so far: the ids a Z line may name */
	while (fgets(line, sizeof line, f)) {
		lineno++;
		int ok = 1;
		switch (line[0]) {
		case 'N': ok = sscanf(line + 1, "%u", &id) == 1 && pta_node(s) == id; break;
		case 'O': ok = sscanf(line + 1, "%llu %u %u", &size, &a, &id) == 3 && pta_object(s, size, a) == id; break;
		case 'E':
			ok = sscanf(line + 1, "%u %llu", &a, &size) == 2;
			if (ok)
				pta_object_elements(s, a, size);
			break;
		case 'Y': {
			unsigned long long st, el, ct;
			ok = sscanf(line + 1, "%llu %llu %llu %u %u %u", &st, &el, &ct, &a, &b, &id) == 6 &&
			     (b == 0 || (a != PTA_NONE && a < id && b <= id - a)) && id == nranges &&
			     pta_array_range(s, st, el, ct, a, b) == id;
			nranges += ok;
			break;
		}
		case 'Z': {
			unsigned n;
			ok = sscanf(line + 1, "%u %u %u", &a, &b, &n) == 3 && a < pta_num_objects(s) &&
			     (n == 0 || (b < nranges && n <= nranges - b));
			if (ok)
				pta_object_arrays(s, a, b, n);
			break;
		}
		case 'F':
			ok = sscanf(line + 1, "%u %lld %u", &a, &off, &id) == 3;
			if (ok)
				map_put(&locs, id, pta_field(s, a, off));
			break;
		case 'A': case 'C': case 'V': case 'W':
			ok = sscanf(line + 1, "%u %u", &a, &b) == 2 && map_node(&locs, &a) &&
			     (line[0] == 'W' || map_node(&locs, &b));
			if (!ok)
				break;
			if (line[0] == 'A')
				pta_addr(s, a, b);
			else if (line[0] == 'C')
				pta_copy(s, a, b);
			else if (line[0] == 'V')
				pta_gep_stride(s, a, b, sscanf(line + 1, "%*u %*u %llu", &size) == 1 ? size : 0);
			else if (sscanf(line + 1, "%*u %*u %u", &c) == 1 && c == 1)
				pta_watch_targets(s, a, b);
			else
				pta_watch(s, a, b);
			break;
		case 'R':
		case 'Q':
			ok = sscanf(line + 1, "%u %u", &a, &b) == 2 && map_node(&locs, &a) && map_node(&locs, &b);
			if (ok)
				(line[0] == 'R' ? pta_load_all : pta_store_all)(s, a, b);
			break;
		case 'U':
			ok = sscanf(line + 1, "%u %u", &a, &b) == 2 && map_node(&locs, &a);
			if (ok)
				pta_unwatch(s, a, b);
			break;
		case 'T': {
			unsigned long long st;
			ok = sscanf(line + 1, "%u %u %llu %lld", &a, &b, &st, &off) == 4 && map_node(&locs, &a) &&
			     map_node(&locs, &b);
			if (ok)
				pta_gep_stride_at(s, a, b, st, off);
			break;
		}
		case 'L': case 'S': case 'G':
			ok = sscanf(line + 1, "%u %u %lld", &a, &b, &off) == 3 && map_node(&locs, &a) && map_node(&locs, &b);
			if (!ok)
				break;
			if (line[0] == 'L')
				pta_load(s, a, b, off);
			else if (line[0] == 'S')
				pta_store(s, a, b, off);
			else
				pta_gep(s, a, b, off);
			break;
		case 'X': pta_solve(s); break;
		case 'D': break;   /* the command line decides */
		default: ok = 0;
		}
		if (!ok) {
			fprintf(stderr, "%s:%zu: bad trace line, or an id unlike the trace's "
			        "(a trace from a solver that numbers nodes differently?)\n", path, lineno);
			fclose(f);
			free(locs.to);
			pta_free(s);
			return 1;
		}
	}
	fclose(f);
	free(locs.to);
	double t1 = clock_s(CLOCK_MONOTONIC), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	pta_solve(s);
	double t2 = clock_s(CLOCK_MONOTONIC), c2 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	printf("replay=%s cd=%d\n", path, cd);
	print_stats(s, t1 - t0, t2 - t1, c2 - c1);
	pta_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned nvars = 200000, seed = 1;
	int cd = 1;
	const char *trace = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--replay") && i + 1 < argc)
			trace = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			nvars = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seed = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--share") && i + 1 < argc)
			SHARE_PCT = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--no-cd"))
			cd = 0;
		else {
			fprintf(stderr, "usage: %s [-n VARS] [-s SEED] [--share PCT] [--no-cd] [--replay TRACE]\n", argv[0]);
			return 2;
		}
	}
	if (trace)
		return replay(trace, cd);
	rng ^= (uint64_t)seed * 0x9e3779b97f4a7c15ULL;
	unsigned per_fn = 50;                    /* steps per function, on average; a step makes ~2 variables */
	unsigned nfns = nvars / (per_fn / 2) + 1;
	nmodules = nfns / FUNCS_PER_MODULE + 1;
	make_types();

	double t0 = clock_s(CLOCK_MONOTONIC);
	prog p = {0};
	pta_solver *s = p.s = pta_new(on_new, &p);
	pta_set_cycle_detection(s, cd);
	p.nfns = nmodules * FUNCS_PER_MODULE;
	p.lib_funcs = FUNCS_PER_MODULE;          /* module 0 is the library: shared types only */
	p.fns = calloc(p.nfns, sizeof *p.fns);
	p.fn_of_obj_cap = 1024;
	p.fn_of_obj = calloc(p.fn_of_obj_cap, sizeof *p.fn_of_obj);
	p.sites_cap = 1024;
	p.sites = malloc(p.sites_cap * sizeof *p.sites);

	/* Functions: an object each, parameters, a return node; grouped by signature. */
	unsigned *count = calloc(nsigs + 1, sizeof *count);
	for (unsigned f = 0; f < p.nfns; f++) {
		fn *x = &p.fns[f];
		x->obj = new_object_sized(&p, 1);
		p.fn_of_obj[x->obj] = f + 1;
		x->sig = rand_sig(f < p.lib_funcs ? -1 : (int)(f / FUNCS_PER_MODULE));
		for (unsigned i = 0; i < sigs[x->sig].nparams; i++)
			x->param[i] = pta_node(s);
		x->ret = pta_node(s);
		count[x->sig]++;
	}
	p.by_sig = malloc(p.nfns * sizeof *p.by_sig);
	p.sig_first = calloc(nsigs + 1, sizeof *p.sig_first);
	for (unsigned i = 0; i < nsigs; i++)
		p.sig_first[i + 1] = p.sig_first[i] + count[i];
	memset(count, 0, (nsigs + 1) * sizeof *count);
	for (unsigned f = 0; f < p.nfns; f++)
		p.by_sig[p.sig_first[p.fns[f].sig] + count[p.fns[f].sig]++] = f;
	free(count);

	/* Global pointer variables: one per struct type, one void * per module;
	 * each starts out pointing to one global object. */
	p.pool = malloc(nmodules * POOLS_PER_MODULE * sizeof *p.pool);
	for (unsigned i = 0; i < nmodules * POOLS_PER_MODULE; i++) {
		unsigned o = new_object_sized(&p, 8);
		p.pool[i] = pta_node(s);
		pta_addr(s, p.pool[i], pta_field(s, o, 0));
		unsigned init = pta_node(s);
		int m = (int)(i / POOLS_PER_MODULE), k = (int)(i % POOLS_PER_MODULE);
		int t = k < MODULE_TYPES && m > 0 ? 1 + SHARED_TYPES + m * MODULE_TYPES + k : rand_type(m ? m : -1);
		pta_addr(s, init, pta_field(s, new_object(&p, t), 0));
		pta_store(s, p.pool[i], init, 0);
	}

	/* Globals, with static initializers: ops tables point to functions of the
	 * field's signature, pointer fields to other globals of the field's type. */
	p.ng = nmodules * GLOBALS_PER_MODULE;
	p.gobj = malloc(p.ng * sizeof *p.gobj);
	p.gptr = malloc(p.ng * sizeof *p.gptr);
	p.gtype = malloc(p.ng * sizeof *p.gtype);
	for (unsigned g = 0; g < p.ng; g++) {
		int m = g < GLOBALS_PER_MODULE ? -1 : (int)(g / GLOBALS_PER_MODULE);
		int t = rndn(50) == 0 ? T_VOID : rand_type(m);     /* T_VOID: an extern of unknown size */
		p.gtype[g] = t;
		p.gobj[g] = new_object(&p, t);
		p.gptr[g] = pta_node(s);
		pta_addr(s, p.gptr[g], pta_field(s, p.gobj[g], 0));
	}
	for (unsigned g = 0; g < p.ng; g++) {
		if (p.gtype[g] == T_VOID)
			continue;
		const ty *t = &types[p.gtype[g]];
		int m = g < GLOBALS_PER_MODULE ? -1 : (int)(g / GLOBALS_PER_MODULE);
		for (unsigned k = 0; k < t->nslots; k++) {
			if (t->slot[k] < 0 || rndn(2))
				continue;
			unsigned v = pta_node(s);
			if (is_fn(t->slot[k]))
				pta_addr(s, v, pta_field(s, p.fns[fn_of_sig(&p, (unsigned)(t->slot[k] - T_FN))].obj, 0));
			else {
				unsigned h = rand_global(&p, m);
				if (p.gtype[h] != t->slot[k])
					continue;
				pta_copy(s, v, p.gptr[h]);
			}
			pta_store(s, p.gptr[g], v, 8 * k);
		}
	}

	size_t direct_calls = 0;
	for (unsigned f = 0; f < p.nfns && pta_num_vars(s) < nvars; f++)
		gen_body(&p, f, per_fn / 2 + rndn(per_fn), &direct_calls);

	double t1 = clock_s(CLOCK_MONOTONIC), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	pta_solve(s);
	double t2 = clock_s(CLOCK_MONOTONIC), c2 = clock_s(CLOCK_PROCESS_CPUTIME_ID);

	printf("seed=%u share=%u%% cd=%d direct_calls=%zu indirect_sites=%u bound=%zu ignored=%zu\n", seed, SHARE_PCT, cd, direct_calls,
	       p.nsites, p.bound, p.ignored);
	print_stats(s, t1 - t0, t2 - t1, c2 - c1);
	pta_free(s);
	free(p.fns);
	free(p.fn_of_obj);
	free(p.by_sig);
	free(p.sig_first);
	free(p.pool);
	free(types);
	free(sigs);
	free(p.sites);
	free(p.gobj);
	free(p.gptr);
	free(p.gtype);
	return 0;
}
