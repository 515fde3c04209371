/* graph.c — call-graph sets and the precision order; see graph.h. */
#include "oo/graph.h"
#include "oo/set.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <string.h>

oo_graph *oo_graph_new(const oo_program *p, int algo)
{
	oo_graph *g = xcalloc(1, sizeof *g);
	arena_init(&g->a);
	g->algo = algo;
	g->p = p;
	g->reach = arena_alloc(&g->a, (size_t)p->nbodies + 1);
	g->targets = ARENA_ARRAY(&g->a, oo_tset, p->nsites + 1);
	return g;
}

void oo_graph_free(oo_graph *g)
{
	if (!g)
		return;
	arena_free(&g->a);
	free(g);
}

int oo_graph_reach(oo_graph *g, int body)
{
	if (g->reach[body])
		return 0;
	g->reach[body] = 1;
	return 1;
}

int oo_graph_has(const oo_graph *g, int site, int body)
{
	const oo_tset *t = &g->targets[site];
	if (t->bits)
		return oo_set_has(t->bits, body);
	for (int i = 0; i < t->n; i++)
		if (t->items[i] == body)
			return 1;
	return 0;
}

int oo_graph_add(oo_graph *g, int site, int body)
{
	if (oo_graph_has(g, site, body))
		return 0;
	oo_tset *t = &g->targets[site];
	if (t->n == t->cap) {
		/* arena arrays cannot grow in place; doubling bounds the waste by the
		 * final size */
		int cap = t->cap ? 2 * t->cap : 4;
		int *items = ARENA_ARRAY(&g->a, int, cap);
		if (t->n)
			memcpy(items, t->items, sizeof(int) * (size_t)t->n);
		t->items = items;
		t->cap = cap;
	}
	t->items[t->n++] = body;
	if (t->bits) {
		oo_set_add(t->bits, body);
	} else if (t->n > OO_TSET_SMALL) {
		t->bits = ARENA_ARRAY(&g->a, uint64_t, g->p->bwords);
		for (int i = 0; i < t->n; i++)
			oo_set_add(t->bits, t->items[i]);
	}
	g->edges++;
	return 1;
}

int oo_graph_sorted(const oo_graph *g, int site, int *out)
{
	int n;
	const int *items = oo_graph_targets(g, site, &n);
	if (n)
		memcpy(out, items, sizeof(int) * (size_t)n);
	oo_sort_by_name(g->p, out, n);
	return n;
}

int oo_graph_nreach(const oo_graph *g)
{
	int n = 0;
	for (int b = 0; b < g->p->nbodies; b++)
		n += g->reach[b] != 0;
	return n;
}

int oo_graph_leq(const oo_graph *a, const oo_graph *b, const char *an, const char *bn, char *why, size_t n)
{
	const oo_program *p = a->p;
	for (int x = 0; x < p->nbodies; x++)
		if (a->reach[x] && !b->reach[x]) {
			if (why)
				snprintf(why, n, "%s reachable in %s, not in %s", p->bodies[x].name, an, bn);
			return 0;
		}
	for (int c = 0; c < p->nsites; c++) {
		int k;
		const int *items = oo_graph_targets(a, c, &k);
		for (int i = 0; i < k; i++)
			if (!oo_graph_has(b, c, items[i])) {
				if (why)
					snprintf(why, n, "%s: %s in %s, not in %s", p->sites[c].label, p->bodies[items[i]].name, an, bn);
				return 0;
			}
	}
	return 1;
}
