/* dyn.c — the dynamic call graph Dyn (Definition 20.1.1) from a collecting
 * interpreter that runs both branches of every choose.
 *
 * Dyn is the set of edges some execution takes, and executions are finite
 * runs from main; recursion makes them unboundedly deep, so running every
 * path by forking would not terminate. It is not needed: objects have no
 * fields and no identity the language can observe, so a value is just "null"
 * or a class, and a call passes nothing but the receiver and the globals.
 * A body's behaviour therefore depends only on its context (body, class of
 * this, globals at entry), and its effect on the caller only on the globals
 * at exit. The interpreter tabulates exactly that (the functional approach to
 * interprocedural analysis, Sharir & Pnueli): it explores the reachable
 * states (context, pc, locals, globals) of each context, records the globals
 * each context can exit with, and resumes every caller waiting on a context
 * with each of them. The result is exact, not an approximation: an edge is
 * found iff some finite execution takes it. A call on a null receiver, or one
 * whose class does not understand the method, ends that execution.
 *
 * The state space is finite but exponential in the number of variables;
 * `max_states` bounds the work and is reported as an error when exceeded. */
#include "oo/oo.h"
#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct exitg { const int *G; struct exitg *next; } exitg;
typedef struct waiter { int ctx, pc; const int *L; struct waiter *next; } waiter;
typedef struct dctx { int body; exitg *exits; waiter *waiters; } dctx;
typedef struct item { int ctx, pc; const int *L, *G; } item;

typedef struct dyn {
	const oo_program *p;
	oo_graph *g;
	arena a;                     /* value arrays, keys, lists */
	strmap seen, ctx_of, exit_seen;
	VEC(dctx) ctxs;
	VEC(item) work;
	int *slot;                   /* var -> index in its frame (locals) or in G (globals) */
	int *nloc;                   /* frame size per body */
	char *key;
	size_t klen, kcap;
	long states, max;
} dyn;

/* Keys are strings for strmap: small values are one byte in '!'..'z',
 * others "~<decimal>;", arrays end with '|' — never a NUL. kput keeps 16
 * bytes of room, enough for one more value and the separator. */
static void kput(dyn *d, int v)
{
	if (d->klen + 16 > d->kcap) {
		d->kcap = d->kcap ? d->kcap * 2 : 256;
		d->key = xrealloc(d->key, d->kcap);
	}
	if (v >= 0 && v < 90) {
		d->key[d->klen++] = (char)(v + 33);
	} else {
		char tmp[16];
		int n = 0;
		unsigned u = (unsigned)v;
		do
			tmp[n++] = (char)('0' + u % 10);
		while ((u /= 10) && n < 15);
		d->key[d->klen++] = '~';
		while (n)
			d->key[d->klen++] = tmp[--n];
		d->key[d->klen++] = ';';
	}
	d->key[d->klen] = 0;
}

static void kstart(dyn *d)
{
	d->klen = 0;
	kput(d, 0);          /* makes sure the buffer exists */
	d->klen = 0;
}

static void kvals(dyn *d, const int *v, int n)
{
	for (int i = 0; i < n; i++)
		kput(d, v[i]);
	d->key[d->klen++] = '|';   /* outside both value forms */
	d->key[d->klen] = 0;
}

/* Inserts the current key into m; 1 if it was new. */
static int kinsert(dyn *d, strmap *m, void *value)
{
	if (strmap_has(m, d->key))
		return 0;
	strmap_put(m, arena_strndup(&d->a, d->key, d->klen), value);
	return 1;
}

static void push_state(dyn *d, int ctx, int pc, const int *L, const int *G)
{
	if (d->states > d->max)
		return;
	int b = d->ctxs.items[ctx].body;
	kstart(d);
	kput(d, ctx);
	kput(d, pc);
	kvals(d, L, d->nloc[b]);
	kvals(d, G, d->p->nglobals);
	if (!kinsert(d, &d->seen, (void *)1))
		return;
	d->states++;
	item it = {ctx, pc, L, G};
	VEC_PUSH(&d->work, it);
}

/* The context (body, this = cls, globals G); created with its entry state. */
static int get_ctx(dyn *d, int body, int cls, const int *G)
{
	kstart(d);
	kput(d, body);
	kput(d, cls + 1);
	kvals(d, G, d->p->nglobals);
	int c = (int)(intptr_t)strmap_get(&d->ctx_of, d->key) - 1;
	if (c >= 0)
		return c;
	c = (int)d->ctxs.len;
	kinsert(d, &d->ctx_of, (void *)(intptr_t)(c + 1));
	dctx x = {body, NULL, NULL};
	VEC_PUSH(&d->ctxs, x);
	oo_graph_reach(d->g, body);
	int *L = ARENA_ARRAY(&d->a, int, d->nloc[body] + 1);
	int self = d->p->bodies[body].this_var;
	if (self >= 0)
		L[d->slot[self]] = cls + 1;
	push_state(d, c, 0, L, G);
	return c;
}

static void add_exit(dyn *d, int ctx, const int *G)
{
	kstart(d);
	kput(d, ctx);
	kvals(d, G, d->p->nglobals);
	if (!kinsert(d, &d->exit_seen, (void *)1))
		return;
	exitg *e = ARENA_NEW(&d->a, exitg);
	e->G = G;
	e->next = d->ctxs.items[ctx].exits;
	d->ctxs.items[ctx].exits = e;
	for (waiter *w = d->ctxs.items[ctx].waiters; w; w = w->next)
		push_state(d, w->ctx, w->pc + 1, w->L, G);
}

/* A call from (ctx, pc, L, G) into body with this = cls (-1 for a func). */
static void call(dyn *d, int ctx, int pc, const int *L, const int *G, int body, int cls)
{
	int callee = get_ctx(d, body, cls, G);
	waiter *w = ARENA_NEW(&d->a, waiter);
	*w = (waiter){ctx, pc, L, d->ctxs.items[callee].waiters};
	d->ctxs.items[callee].waiters = w;
	for (exitg *e = d->ctxs.items[callee].exits; e; e = e->next)
		push_state(d, ctx, pc + 1, L, e->G);
}

static int value(const dyn *d, const int *L, const int *G, int var)
{
	return oo_is_global(d->p, var) ? G[d->slot[var]] : L[d->slot[var]];
}

/* Writes v into var: a fresh copy of whichever array holds it. */
static void assign(dyn *d, const item *it, int var, int v, const int **L, const int **G)
{
	const oo_program *p = d->p;
	*L = it->L;
	*G = it->G;
	if (oo_is_global(p, var)) {
		int *ng = arena_memdup(&d->a, it->G, sizeof(int) * (size_t)(p->nglobals + 1));
		ng[d->slot[var]] = v;
		*G = ng;
	} else {
		int n = d->nloc[d->ctxs.items[it->ctx].body];
		int *nl = arena_memdup(&d->a, it->L, sizeof(int) * (size_t)(n + 1));
		nl[d->slot[var]] = v;
		*L = nl;
	}
}

static void run(dyn *d, const item *it)
{
	const oo_program *p = d->p;
	const oo_body *b = &p->bodies[d->ctxs.items[it->ctx].body];
	d->g->work++;
	if (it->pc == b->ncode) {
		add_exit(d, it->ctx, it->G);
		return;
	}
	const oo_stmt *s = &b->code[it->pc];
	const int *L, *G;
	switch (s->op) {
	case OO_NEW:
		assign(d, it, s->dst, s->cls + 1, &L, &G);
		push_state(d, it->ctx, it->pc + 1, L, G);
		break;
	case OO_COPY:
		assign(d, it, s->dst, value(d, it->L, it->G, s->src), &L, &G);
		push_state(d, it->ctx, it->pc + 1, L, G);
		break;
	case OO_VCALL: {
		const oo_site *c = &p->sites[s->site];
		int v = value(d, it->L, it->G, c->recv);
		if (v == 0)
			return;              /* null receiver: this execution stops here */
		int t = oo_lookup(p, v - 1, c->meth);
		if (t < 0)
			return;              /* message not understood: stops too */
		oo_graph_add(d->g, s->site, t);
		call(d, it->ctx, it->pc, it->L, it->G, t, v - 1);
		break;
	}
	case OO_CALL:
		call(d, it->ctx, it->pc, it->L, it->G, s->callee, -1);
		break;
	case OO_CHOOSE:
		for (int k = 0; k < s->nbranch; k++)
			push_state(d, it->ctx, s->branch[k], it->L, it->G);
		break;
	case OO_JUMP:
		push_state(d, it->ctx, s->next, it->L, it->G);
		break;
	}
}

int oo_dyn(const oo_program *p, long max_states, oo_graph **out, oo_table **trace, facet_error *err)
{
	dyn d = {0};
	d.p = p;
	d.g = oo_graph_new(p, OO_DYN);
	d.max = max_states > 0 ? max_states : OO_DYN_MAX_STATES;
	arena_init(&d.a);
	strmap_init(&d.seen);
	strmap_init(&d.ctx_of);
	strmap_init(&d.exit_seen);
	d.slot = xcalloc((size_t)p->nvars + 1, sizeof(int));
	d.nloc = xcalloc((size_t)p->nbodies + 1, sizeof(int));
	for (int v = 0; v < p->nvars; v++)
		d.slot[v] = p->vars[v].body < 0 ? v : d.nloc[p->vars[v].body]++;
	const int *G0 = ARENA_ARRAY(&d.a, int, p->nglobals + 1);
	get_ctx(&d, p->main_body, -1, G0);
	while (d.work.len > 0 && d.states <= d.max) {
		item it = VEC_POP(&d.work);
		run(&d, &it);
	}
	int rc = 0;
	if (d.states > d.max) {
		error_set(err, "%s: dynamic exploration stopped after %ld states (the budget); the program has too many "
		          "combinations of variable values to run every execution", p->file, d.max);
		oo_graph_free(d.g);
		d.g = NULL;
		rc = -1;
	} else {
		if (trace) {
			static const char *const head[] = {"contexts (body, this, globals at entry)", "states explored", "edges taken"};
			oo_table *t = *trace = oo_table_new("Collecting interpreter (every execution)", 3, head);
			const char *row[] = {arena_printf(&t->a, "%zu", d.ctxs.len), arena_printf(&t->a, "%ld", d.states),
			                     arena_printf(&t->a, "%ld", d.g->edges)};
			oo_table_add(t, row);
		}
	}
	*out = d.g;
	strmap_free(&d.seen);
	strmap_free(&d.ctx_of);
	strmap_free(&d.exit_seen);
	VEC_FREE(&d.ctxs);
	VEC_FREE(&d.work);
	free(d.slot);
	free(d.nloc);
	free(d.key);
	arena_free(&d.a);
	return rc;
}
