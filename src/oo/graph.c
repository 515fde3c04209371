/* graph.c — call-graph sets and the precision order; see graph.h. */
#include "oo/graph.h"
#include "oo/set.h"
#include "util/xalloc.h"

#include <stdio.h>

oo_graph *oo_graph_new(const oo_program *p, int algo)
{
	oo_graph *g = xcalloc(1, sizeof *g);
	arena_init(&g->a);
	g->algo = algo;
	g->p = p;
	g->reach = arena_alloc(&g->a, (size_t)p->nbodies + 1);
	g->targets = ARENA_ARRAY(&g->a, uint64_t, (size_t)p->nsites * (size_t)p->bwords + 1);
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

int oo_graph_add(oo_graph *g, int site, int body)
{
	return oo_set_add(g->targets + (size_t)site * (size_t)g->p->bwords, body);
}

int oo_graph_has(const oo_graph *g, int site, int body)
{
	return oo_set_has(oo_graph_row(g, site), body);
}

int oo_graph_count(const oo_graph *g, int site)
{
	return oo_set_count(oo_graph_row(g, site), g->p->bwords);
}

int oo_graph_nreach(const oo_graph *g)
{
	int n = 0;
	for (int b = 0; b < g->p->nbodies; b++)
		n += g->reach[b] != 0;
	return n;
}

void oo_graph_finish(oo_graph *g)
{
	g->edges = 0;
	for (int c = 0; c < g->p->nsites; c++)
		g->edges += oo_graph_count(g, c);
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
		const uint64_t *ra = oo_graph_row(a, c), *rb = oo_graph_row(b, c);
		if (oo_set_subset(ra, rb, p->bwords))
			continue;
		if (why)
			for (int x = 0; x < p->nbodies; x++)
				if (oo_set_has(ra, x) && !oo_set_has(rb, x)) {
					snprintf(why, n, "%s: %s in %s, not in %s", p->sites[c].label, p->bodies[x].name, an, bn);
					break;
				}
		return 0;
	}
	return 1;
}
