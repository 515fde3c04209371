/* flow.c — VTA (Definition 20.1.9, Algorithm 20.1.10) and the points-to call
 * graph (Definition 20.1.11), one solver for both.
 *
 * Both propagate "tokens" along the type propagation graph: one node per
 * variable (each local, each method's this, each global), an edge y → x per
 * copy x = y, and, on the fly, a token entering the receiver of c: x.m()
 * adds the target t = lookup(cls(token), m) to T(c) and R and flows into
 * this_t. VTA's tokens are classes; points-to's are allocation sites (one
 * abstract object per `new`), each with its class. VTA is exactly the
 * points-to analysis with every site of a class merged into one object
 * (§1 of the lesson). The lab language has no fields, parameters or returns,
 * so nothing in the constraints depends on which object of a class a token
 * is: the two least solutions agree after mapping objects to classes, and
 * PTA's graph equals VTA's on every program. The property test checks that. */
#include "oo/oo.h"
#include "oo/set.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct flow {
	const oo_program *p;
	oo_graph *g;
	int ntok, twords;
	int *tok_cls;                /* class of each token */
	const char **tok_name;       /* for the trace */
	uint64_t *V;                 /* nvars rows of twords */
	int per_site;                /* PTA: tokens are allocation sites */
} flow;

static uint64_t *V(flow *f, int var) { return f->V + (size_t)var * f->twords; }

static int step(flow *f, const oo_stmt *s)
{
	const oo_program *p = f->p;
	int changed = 0;
	switch (s->op) {
	case OO_NEW:
		changed |= oo_set_add(V(f, s->dst), f->per_site ? s->alloc : s->cls);
		break;
	case OO_COPY:
		changed |= oo_set_union(V(f, s->dst), V(f, s->src), NULL, f->twords);
		break;
	case OO_CALL:
		changed |= oo_graph_reach(f->g, s->callee);
		break;
	case OO_VCALL: {
		const oo_site *c = &p->sites[s->site];
		const uint64_t *recv = V(f, c->recv);
		for (int w = 0; w < f->twords; w++)
			for (uint64_t bits = recv[w]; bits; bits &= bits - 1) {
				int tok = w * 64 + __builtin_ctzll(bits);
				int t = oo_lookup(p, f->tok_cls[tok], c->meth);
				f->g->work++;
				if (t < 0)
					continue;
				changed |= oo_graph_add(f->g, s->site, t);
				changed |= oo_graph_reach(f->g, t);
				changed |= oo_set_add(V(f, p->bodies[t].this_var), tok);
			}
		break;
	}
	case OO_CHOOSE:
	case OO_JUMP:
		break;
	}
	return changed;
}

static const char *var_name(arena *a, const oo_program *p, int v)
{
	const oo_var *x = &p->vars[v];
	return x->body < 0 ? arena_printf(a, "@%s", x->name) : arena_printf(a, "%s.%s", p->bodies[x->body].name, x->name);
}

/* "{Circle, Square}" for VTA; objects in allocation order for PTA. */
static const char *fmt_tokens(arena *a, const flow *f, const uint64_t *set)
{
	if (!f->per_site)
		return oo_fmt_classes(a, f->p, set);
	oo_buf b = {0};
	oo_buf_printf(&b, "{");
	for (int t = oo_set_next(set, 0, f->ntok); t >= 0; t = oo_set_next(set, t + 1, f->ntok))
		oo_buf_printf(&b, "%s%s", b.len > 1 ? ", " : "", f->tok_name[t]);
	oo_buf_printf(&b, "}");
	const char *s = arena_strdup(a, oo_buf_str(&b));
	oo_buf_free(&b);
	return s;
}

static oo_graph *solve(const oo_program *p, int per_site, oo_table **trace)
{
	flow f = {0};
	f.p = p;
	f.per_site = per_site;
	f.g = oo_graph_new(p, per_site ? OO_PTA : OO_VTA);
	f.ntok = per_site ? p->nallocs : p->nclasses;
	f.twords = oo_set_words(f.ntok);
	f.tok_cls = ARENA_ARRAY(&f.g->a, int, f.ntok + 1);
	f.tok_name = ARENA_ARRAY(&f.g->a, const char *, f.ntok + 1);
	for (int b = 0; b < p->nbodies; b++)
		for (int pc = 0; pc < p->bodies[b].ncode; pc++) {
			const oo_stmt *s = &p->bodies[b].code[pc];
			if (s->op == OO_NEW && per_site) {
				f.tok_cls[s->alloc] = s->cls;
				f.tok_name[s->alloc] = arena_printf(&f.g->a, "%s@%d:%d", p->classes[s->cls].name, s->line, s->col);
			}
		}
	if (!per_site)
		for (int c = 0; c < p->nclasses; c++)
			f.tok_cls[c] = c;
	size_t vwords = (size_t)p->nvars * f.twords;
	f.V = xcalloc(vwords + 1, sizeof(uint64_t));
	uint64_t *before = trace ? xmalloc(sizeof(uint64_t) * (vwords + 1)) : NULL;
	unsigned char *visit = xmalloc((size_t)p->nbodies + 1);
	oo_table *t = NULL;
	if (trace) {
		static const char *const head[] = {"round", "bodies visited", "sets that grew (value after the round)"};
		t = *trace = oo_table_new(per_site ? "Points-to rounds, one object per new (Definition 20.1.11)"
		                                   : "VTA rounds (Algorithm 20.1.10)",
		                          3, head);
	}
	oo_graph_reach(f.g, p->main_body);
	int changed;
	do {
		changed = 0;
		f.g->rounds++;
		memcpy(visit, f.g->reach, (size_t)p->nbodies);
		if (before)
			memcpy(before, f.V, sizeof(uint64_t) * vwords);
		for (int b = 0; b < p->nbodies; b++) {
			if (!visit[b])
				continue;
			for (int pc = 0; pc < p->bodies[b].ncode; pc++) {
				f.g->work++;
				changed |= step(&f, &p->bodies[b].code[pc]);
			}
		}
		if (t) {
			oo_buf visited = {0}, grew = {0};
			for (int b = 0; b < p->nbodies; b++)
				if (visit[b])
					oo_buf_printf(&visited, "%s%s", visited.len ? ", " : "", p->bodies[b].name);
			for (int v = 0; v < p->nvars; v++)
				if (!oo_set_subset(V(&f, v), before + (size_t)v * f.twords, f.twords))
					oo_buf_printf(&grew, "%s%s(%s) = %s", grew.len ? "; " : "", per_site ? "pts" : "V",
					              var_name(&t->a, p, v), fmt_tokens(&t->a, &f, V(&f, v)));
			const char *row[] = {arena_printf(&t->a, "%d", f.g->rounds), oo_buf_str(&visited),
			                     grew.len ? oo_buf_str(&grew) : changed ? "(targets and R only)" : "none: fixed point"};
			oo_table_add(t, row);
			oo_buf_free(&visited);
			oo_buf_free(&grew);
		}
	} while (changed);
	free(f.V);
	free(before);
	free(visit);
	return f.g;
}

oo_graph *oo_vta(const oo_program *p, oo_table **trace) { return solve(p, 0, trace); }
oo_graph *oo_pta(const oo_program *p, oo_table **trace) { return solve(p, 1, trace); }
