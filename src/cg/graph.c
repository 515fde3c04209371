/* graph.c — per-site target sets; see graph.h. */
#include "cg/graph.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

cg_graph *cg_new(const ir_program *p, const char *name)
{
	cg_graph *g = xcalloc(1, sizeof *g);
	g->name = name;
	g->prog = p;
	g->targets = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *g->targets);
	g->n_targets = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *g->n_targets);
	return g;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

void cg_set_targets(cg_graph *g, unsigned site, const unsigned *ids, unsigned n)
{
	free(g->targets[site]);
	g->targets[site] = NULL;
	g->n_targets[site] = 0;
	if (!n)
		return;
	unsigned *copy = xmalloc(n * sizeof *copy);
	memcpy(copy, ids, n * sizeof *copy);
	qsort(copy, n, sizeof *copy, cmp_unsigned);
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		if (k == 0 || copy[k - 1] != copy[i])
			copy[k++] = copy[i];
	g->targets[site] = copy;
	g->n_targets[site] = k;
}

void cg_free(cg_graph *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < g->prog->n_sites; i++)
		free(g->targets[i]);
	free(g->targets);
	free(g->n_targets);
	free(g->open);
	free(g);
}

cg_graph *cg_direct(const ir_program *p)
{
	cg_graph *g = cg_new(p, "direct");
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind == SITE_DIRECT && s->callee)
			cg_set_targets(g, i, &s->callee->id, 1);
	}
	return g;
}
