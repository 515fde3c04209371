/* cha.c — class hierarchy analysis, Algorithm 20.1.5 (Dean, Grove & Chambers).
 *
 * T(c) for c: x.m() is every lookup(C, m) with C ∈ sub(decl(x)): the static
 * type alone bounds the targets, so each site is resolved once, when its body
 * is popped. The worklist is FIFO and a site's new targets are pushed in name
 * order, which is the order of the step table in §3 (steps 2–5 pop
 * Circle.area, Cube.area, Shape.area, Square.area). */
#include "oo/oo.h"
#include "util/xalloc.h"

#include <stdlib.h>

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
	int *order = xmalloc(sizeof(int) * ((size_t)nb + 1));
	int *pushed = xmalloc(sizeof(int) * ((size_t)nb + 1));
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
			int n;
			const char *what;
			if (s->op == OO_CALL) {
				order[0] = s->callee;
				n = 1;
				what = t ? arena_printf(&t->a, "call %s", p->bodies[s->callee].name) : NULL;
			} else if (s->op == OO_VCALL) {
				const oo_site *c = &p->sites[s->site];
				int d = p->vars[c->recv].type;
				for (int C = d; C < p->classes[d].sub_end; C++) {
					int m = oo_lookup(p, C, c->meth);
					if (m >= 0)
						oo_graph_add(g, s->site, m);
					g->work++;
				}
				n = oo_graph_sorted(g, s->site, order);
				what = c->label;
			} else {
				continue;
			}
			int npushed = 0;
			for (int i = 0; i < n; i++)
				if (oo_graph_reach(g, order[i]))
					queue[tail++] = pushed[npushed++] = order[i];
			if (t) {
				const char *row[] = {arena_printf(&t->a, "%d", step), body->name, what,
				                     oo_fmt_bodies(&t->a, p, order, n),
				                     npushed ? oo_fmt_bodies(&t->a, p, pushed, npushed) : "—"};
				oo_table_add(t, row);
			}
			rows++;
		}
		if (t && rows == 0) {
			const char *row[] = {arena_printf(&t->a, "%d", step), body->name, "—", "—", "—"};
			oo_table_add(t, row);
		}
	}
	free(queue);
	free(order);
	free(pushed);
	return g;
}
