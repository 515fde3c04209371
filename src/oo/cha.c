/* cha.c — class hierarchy analysis, Algorithm 20.1.5 (Dean, Grove & Chambers).
 *
 * T(c) for c: x.m() is every lookup(C, m) with C ∈ sub(decl(x)): the static
 * type alone bounds the targets, so each site is resolved once, when its body
 * is popped. The worklist is FIFO and a site's new targets are pushed in name
 * order, which is the order of the step table in §3 (steps 2–5 pop
 * Circle.area, Cube.area, Shape.area, Square.area). */
#include "oo/oo.h"
#include "oo/set.h"
#include "util/xalloc.h"

#include <stdlib.h>

/* Members of `set` in name order, into out[]; returns how many. */
static int members_by_name(const oo_program *p, const int *rank, const uint64_t *set, int *out)
{
	int n = 0;
	for (int b = oo_set_next(set, 0, p->nbodies); b >= 0; b = oo_set_next(set, b + 1, p->nbodies))
		out[n++] = b;
	/* insertion sort by rank: target sets are short except in P_n, where
	 * they arrive almost sorted */
	for (int i = 1; i < n; i++) {
		int x = out[i], j = i;
		while (j > 0 && rank[out[j - 1]] > rank[x]) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = x;
	}
	return n;
}

oo_graph *oo_cha(const oo_program *p, oo_table **trace)
{
	oo_graph *g = oo_graph_new(p, OO_CHA);
	oo_table *t = NULL;
	if (trace) {
		static const char *const head[] = {"step", "body popped (FIFO)", "site", "targets", "newly reachable, pushed"};
		t = *trace = oo_table_new("CHA worklist (Algorithm 20.1.5)", 5, head);
	}
	int nb = p->nbodies;
	int *queue = xmalloc(sizeof(int) * ((size_t)nb + 1));
	int *rank = xmalloc(sizeof(int) * ((size_t)nb + 1));
	int *order = xmalloc(sizeof(int) * ((size_t)nb + 1));
	uint64_t *newset = xcalloc((size_t)p->bwords + 1, sizeof(uint64_t));
	uint64_t *one = xcalloc((size_t)p->bwords + 1, sizeof(uint64_t));
	for (int i = 0; i < nb; i++)
		rank[p->by_name[i]] = i;
	int head = 0, tail = 0, step = 0;
	oo_graph_reach(g, p->main_body);
	queue[tail++] = p->main_body;
	while (head < tail) {
		int b = queue[head++];
		const oo_body *body = &p->bodies[b];
		int rows = 0;
		step++;
		for (int pc = 0; pc < body->ncode; pc++) {
			const oo_stmt *s = &body->code[pc];
			const uint64_t *targets;
			const char *what;
			if (s->op == OO_CALL) {
				oo_set_add(one, s->callee);
				targets = one;
				what = t ? arena_printf(&t->a, "call %s", p->bodies[s->callee].name) : NULL;
			} else if (s->op == OO_VCALL) {
				const oo_site *c = &p->sites[s->site];
				const uint64_t *sub = oo_sub_row(p, p->vars[c->recv].type);
				for (int C = oo_set_next(sub, 0, p->nclasses); C >= 0; C = oo_set_next(sub, C + 1, p->nclasses)) {
					int m = oo_lookup(p, C, c->meth);
					if (m >= 0)
						oo_graph_add(g, s->site, m);
					g->work++;
				}
				targets = oo_graph_row(g, s->site);
				what = c->label;
			} else {
				continue;
			}
			int n = members_by_name(p, rank, targets, order);
			for (int i = 0; i < n; i++)
				if (oo_graph_reach(g, order[i])) {
					queue[tail++] = order[i];
					oo_set_add(newset, order[i]);
				}
			if (t) {
				const char *pushed = oo_fmt_bodies(&t->a, p, newset);
				const char *row[] = {arena_printf(&t->a, "%d", step), body->name, what,
				                     oo_fmt_bodies(&t->a, p, targets), *pushed ? pushed : "—"};
				oo_table_add(t, row);
			}
			rows++;
			for (int i = 0; i < n; i++) {
				newset[order[i] >> 6] = 0;
				one[order[i] >> 6] = 0;
			}
		}
		if (t && rows == 0) {
			const char *row[] = {arena_printf(&t->a, "%d", step), body->name, "—", "—", "—"};
			oo_table_add(t, row);
		}
	}
	free(queue);
	free(rank);
	free(order);
	free(newset);
	free(one);
	oo_graph_finish(g);
	return g;
}
