/* graph.h — a call graph over the program model: targets per call site.
 *
 * Every graph facet derives (direct, andersen, r0, rplus, rpm) has this one
 * shape, so printers, queries and scoring work on any of them. */
#ifndef FACET_CG_GRAPH_H
#define FACET_CG_GRAPH_H

#include <stdbool.h>

#include "ir/model.h"

typedef struct cg_graph {
	const char *name;          /* "direct", "andersen", "r0", "rplus", "rpm" */
	const ir_program *prog;
	unsigned **targets;        /* per site id: function ids, ascending */
	unsigned *n_targets;
	/* Per site, NULL when no site is: the graph's evidence is incomplete
	 * there (facet source's type fallback, source.h), so the site counts as
	 * unresolved whatever targets it has. Owned. */
	unsigned char *open;
} cg_graph;

/* An empty graph over p (no site has a target). */
cg_graph *cg_new(const ir_program *p, const char *name);
/* Sets site's targets to a copy of ids[0..n-1] (sorted and deduplicated here). */
void cg_set_targets(cg_graph *g, unsigned site, const unsigned *ids, unsigned n);
void cg_free(cg_graph *g);
/* Site s has no target, or its targets are not the whole answer (open). */
static inline bool cg_site_unresolved(const cg_graph *g, unsigned s)
{
	return g->n_targets[s] == 0 || (g->open && g->open[s]);
}

/* The direct call graph: each direct site calls its callee; indirect and asm
 * sites have no target (LLVM sends them to its "external node"). */
cg_graph *cg_direct(const ir_program *p);

#endif
