/* graph.h — a call graph over the program model: targets per call site.
 *
 * Every graph facet derives (direct, andersen, r0, rplus, rpm) has this one
 * shape, so printers, queries and scoring work on any of them. */
#ifndef FACET_CG_GRAPH_H
#define FACET_CG_GRAPH_H

#include "ir/model.h"

typedef struct cg_graph {
	const char *name;          /* "direct", "andersen", "r0", "rplus", "rpm" */
	const ir_program *prog;
	unsigned **targets;        /* per site id: function ids, ascending */
	unsigned *n_targets;
} cg_graph;

/* An empty graph over p (no site has a target). */
cg_graph *cg_new(const ir_program *p, const char *name);
/* Sets site's targets to a copy of ids[0..n-1] (sorted and deduplicated here). */
void cg_set_targets(cg_graph *g, unsigned site, const unsigned *ids, unsigned n);
void cg_free(cg_graph *g);

/* The direct call graph: each direct site calls its callee; indirect and asm
 * sites have no target (LLVM sends them to its "external node"). */
cg_graph *cg_direct(const ir_program *p);

#endif
