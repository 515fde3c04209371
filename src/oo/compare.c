/* compare.c — see compare.h. */
#include "oo/compare.h"

#include <stdbool.h>

void oo_compare_init(oo_compare *c)
{
	*c = (oo_compare){0};
	const char *head[2 + OO_NALGO] = {"file", "site"};
	for (int a = 0; a < OO_NALGO; a++)
		head[2 + a] = oo_algo_name(a);
	c->t = oo_table_new("Targets per site, edges and reachable bodies", 2 + OO_NALGO, head);
}

static void totals_row(oo_compare *c, const char *label, const char *what, const long *v)
{
	oo_table *t = c->t;
	const char *row[2 + OO_NALGO] = {label, what};
	for (int a = 0; a < OO_NALGO; a++)
		row[2 + a] = arena_printf(&t->a, "%ld", v[a]);
	oo_table_add(t, row);
}

void oo_compare_add(oo_compare *c, const char *label, oo_graph *const g[OO_NALGO])
{
	const oo_program *p = g[OO_CHA]->p;
	oo_table *t = c->t;
	long edges[OO_NALGO], reach[OO_NALGO];
	for (int s = 0; s < p->nsites; s++) {
		if (!g[OO_CHA]->reach[p->sites[s].body])
			continue;
		const char *row[2 + OO_NALGO] = {label, p->sites[s].label};
		for (int a = 0; a < OO_NALGO; a++)
			row[2 + a] = arena_printf(&t->a, "%d", oo_graph_count(g[a], s));
		oo_table_add(t, row);
	}
	for (int a = 0; a < OO_NALGO; a++) {
		edges[a] = g[a]->edges;
		reach[a] = oo_graph_nreach(g[a]);
		c->edges[a] += edges[a];
		c->reach[a] += reach[a];
	}
	totals_row(c, label, "edges", edges);
	totals_row(c, label, "reachable", reach);
	c->files++;
}

void oo_compare_finish(oo_compare *c)
{
	if (c->files > 1) {
		totals_row(c, "all files", "edges", c->edges);
		totals_row(c, "all files", "reachable", c->reach);
	}
}

void oo_compare_free(oo_compare *c)
{
	oo_table_free(c->t);
	c->t = NULL;
}

oo_table *oo_compare_files(const char *const *files, unsigned n, const oo_options *opt, facet_error *err)
{
	oo_compare cmp;
	oo_compare_init(&cmp);
	bool ok = true;
	for (unsigned f = 0; f < n && ok; f++) {
		oo_program *p;
		if (oo_parse_file(files[f], &p, err)) {
			ok = false;
			break;
		}
		oo_graph *g[OO_NALGO] = {0};
		for (int a = 0; a < OO_NALGO && ok; a++)
			ok = oo_analyze(p, (oo_algo)a, opt, &g[a], NULL, err) == 0;
		if (ok)
			oo_compare_add(&cmp, files[f], g);
		for (int a = 0; a < OO_NALGO; a++)
			oo_graph_free(g[a]);
		oo_program_free(p);
	}
	oo_table *t = NULL;
	if (ok) {
		oo_compare_finish(&cmp);
		t = cmp.t;
		cmp.t = NULL;
	}
	oo_compare_free(&cmp);
	return t;
}
