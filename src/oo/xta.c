/* xta.c — XTA, Definition 20.1.7 and Algorithm 20.1.8 (Tip & Palsberg).
 *
 * One set S_b of classes per body and S_g per global, instead of RTA's single
 * Inst: a class created in one part of the program reaches another only
 * through a global or as a receiver. The rules, for a statement of b ∈ R:
 *   1  x = new C        C ∈ S_b, and C ∈ S_x when x is a global
 *   2  g = x            S_b ∩ sub(decl(g)) ⊆ S_g
 *      x = g            S_g ∩ sub(decl(x)) ⊆ S_b   (also a global receiver g.m())
 *      g = h            S_h ∩ sub(decl(g)) ⊆ S_g   (both globals: the copy skips b)
 *   3  c: x.m()         C ∈ S_b ∩ sub(decl(x)), t = lookup(C, m):
 *                       t ∈ T(c), t ∈ R, C ∈ S_t  (the receiver flows into this)
 *   4  call f           f ∈ R
 * Copies between two locals of b need no rule: they share S_b. Rounds visit
 * the bodies reachable at the round's start in textual order, as RTA's do
 * ("same round order as RTA"), so the trace reproduces §3's XTA table. */
#include "oo/oo.h"
#include "oo/set.h"
#include "util/vec.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct xta {
	const oo_program *p;
	oo_graph *g;
	uint64_t *sets;              /* nbodies + nglobals rows of cwords */
} xta;

static uint64_t *S_body(xta *x, int b) { return x->sets + (size_t)b * x->p->cwords; }
static uint64_t *S_global(xta *x, int v) { return x->sets + ((size_t)x->p->nbodies + v) * x->p->cwords; }

static int step(xta *x, int b, const oo_stmt *s)
{
	const oo_program *p = x->p;
	int changed = 0;
	uint64_t *Sb = S_body(x, b);
	switch (s->op) {
	case OO_NEW:
		changed |= oo_set_add(Sb, s->cls);
		if (oo_is_global(p, s->dst))
			changed |= oo_set_add(S_global(x, s->dst), s->cls);
		break;
	case OO_COPY: {
		int gd = oo_is_global(p, s->dst), gs = oo_is_global(p, s->src);
		int lo = p->vars[s->dst].type, hi = p->classes[lo].sub_end;   /* sub(decl(dst)) */
		if (gd && gs)
			changed |= oo_set_union_range(S_global(x, s->dst), S_global(x, s->src), lo, hi);
		else if (gd)
			changed |= oo_set_union_range(S_global(x, s->dst), Sb, lo, hi);
		else if (gs)
			changed |= oo_set_union_range(Sb, S_global(x, s->src), lo, hi);
		break;
	}
	case OO_VCALL: {
		const oo_site *c = &p->sites[s->site];
		int lo = p->vars[c->recv].type, hi = p->classes[lo].sub_end;   /* sub(decl(x)) */
		if (oo_is_global(p, c->recv))
			changed |= oo_set_union_range(Sb, S_global(x, c->recv), lo, hi);
		for (int C = oo_set_next(Sb, lo, hi); C >= 0; C = oo_set_next(Sb, C + 1, hi)) {
			int t = oo_lookup(p, C, c->meth);
			x->g->work++;
			if (t < 0)
				continue;
			changed |= oo_graph_add(x->g, s->site, t);
			changed |= oo_graph_reach(x->g, t);
			changed |= oo_set_add(S_body(x, t), C);
		}
		break;
	}
	case OO_CALL:
		changed |= oo_graph_reach(x->g, s->callee);
		break;
	case OO_CHOOSE:
	case OO_JUMP:
		break;
	}
	return changed;
}

/* The table of §3: columns main, the globals, then the other bodies in the
 * order they became reachable (by round, then by name); "—" while a body is
 * unreachable, "{}" for a reachable body with an empty set. */
static void build_trace(xta *x, oo_table **trace, int rounds, const uint64_t *snaps, const unsigned char *reach_snaps,
                        const int *reach_round, const unsigned char *changed)
{
	const oo_program *p = x->p;
	int nb = p->nbodies, ng = p->nglobals, rows = nb + ng;
	int *cols = xmalloc(sizeof(int) * ((size_t)rows + 1));   /* >= 0 body, < 0: global -(v+1) */
	int n = 0;
	cols[n++] = p->main_body;
	for (int v = 0; v < ng; v++)
		cols[n++] = -(v + 1);
	for (int r = 1; r <= rounds; r++)
		for (int i = 0; i < nb; i++) {
			int b = p->by_name[i];
			if (b != p->main_body && reach_round[b] == r)
				cols[n++] = b;
		}
	const char **head = xmalloc(sizeof(char *) * ((size_t)n + 1));
	const char **row = xmalloc(sizeof(char *) * ((size_t)n + 1));
	arena names;
	arena_init(&names);
	head[0] = "round";
	for (int i = 0; i < n; i++)
		head[i + 1] = cols[i] >= 0 ? arena_printf(&names, "S_%s", p->bodies[cols[i]].name)
		                           : arena_printf(&names, "@%s", p->vars[-cols[i] - 1].name);
	oo_table *t = oo_table_new("XTA sets after each round (Algorithm 20.1.8)", n + 1, head);
	arena_free(&names);
	for (int r = 1; r <= rounds; r++) {
		const uint64_t *snap = snaps + (size_t)(r - 1) * rows * p->cwords;
		const unsigned char *rs = reach_snaps + (size_t)(r - 1) * nb;
		row[0] = arena_printf(&t->a, "%d", r);
		for (int i = 0; i < n; i++) {
			int c = cols[i];
			if (!changed[r - 1])
				row[i + 1] = i == 0 ? "(no change)" : "";
			else if (c >= 0 && !rs[c])
				row[i + 1] = "—";
			else
				row[i + 1] = oo_fmt_classes(&t->a, p, snap + (size_t)(c >= 0 ? c : nb - c - 1) * p->cwords);
		}
		oo_table_add(t, row);
	}
	free(cols);
	free(head);
	free(row);
	*trace = t;
}

oo_graph *oo_xta(const oo_program *p, oo_table **trace)
{
	xta x = {p, oo_graph_new(p, OO_XTA), NULL};
	int nb = p->nbodies, rows = nb + p->nglobals;
	size_t setwords = (size_t)rows * p->cwords;
	x.sets = xcalloc(setwords + 1, sizeof(uint64_t));
	unsigned char *visit = xmalloc((size_t)nb + 1);
	int *reach_round = xcalloc((size_t)nb + 1, sizeof(int));
	VEC(uint64_t) snaps = {0};
	VEC(unsigned char) reach_snaps = {0};
	VEC(unsigned char) changes = {0};
	oo_graph_reach(x.g, p->main_body);
	int changed;
	do {
		changed = 0;
		x.g->rounds++;
		memcpy(visit, x.g->reach, (size_t)nb);
		for (int b = 0; b < nb; b++) {
			if (!visit[b])
				continue;
			for (int pc = 0; pc < p->bodies[b].ncode; pc++) {
				x.g->work++;
				changed |= step(&x, b, &p->bodies[b].code[pc]);
			}
		}
		for (int b = 0; b < nb; b++)
			if (x.g->reach[b] && !reach_round[b] && b != p->main_body)
				reach_round[b] = x.g->rounds;
		if (trace) {
			VEC_RESERVE(&snaps, snaps.len + setwords);
			memcpy(snaps.items + snaps.len, x.sets, setwords * sizeof(uint64_t));
			snaps.len += setwords;
			VEC_RESERVE(&reach_snaps, reach_snaps.len + (size_t)nb);
			memcpy(reach_snaps.items + reach_snaps.len, x.g->reach, (size_t)nb);
			reach_snaps.len += (size_t)nb;
			VEC_PUSH(&changes, (unsigned char)changed);
		}
	} while (changed);
	if (trace)
		build_trace(&x, trace, x.g->rounds, snaps.items, reach_snaps.items, reach_round, changes.items);
	VEC_FREE(&snaps);
	VEC_FREE(&reach_snaps);
	VEC_FREE(&changes);
	free(x.sets);
	free(visit);
	free(reach_round);
	return x.g;
}
