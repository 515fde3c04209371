/* graphs.h — a program's call graphs by name (cg/registry.h), each built
 * with whatever analyses it needs: points-to for andersen and r0, the
 * refinement for rulesonly, rplus and rpm, the C++ stage (cxx/cxx.h) for
 * cha, rta, vta and vslot. The analyses run once for all
 * the graphs asked of one set (facet score asks for five). */
#ifndef FACET_FACET_GRAPHS_H
#define FACET_FACET_GRAPHS_H

#include <stdbool.h>

#include "cg/graph.h"
#include "facet/facet.h"
#include "ir/model.h"
#include "util/error.h"

typedef struct facet_graph_options {
	unsigned tau;              /* abstention threshold for rplus/rpm; 0 = the default (2) */
	bool tau_set;              /* tau was given (so 0 means 0: never abstain) */
	facet_oracle *oracle;      /* the residual oracle for rpm (only R± adopts answers), NULL = none */
	void (*progress)(const char *phase);   /* told "points-to analysis", "refinement" before each; NULL: not */
} facet_graph_options;

typedef struct facet_graphs facet_graphs;

/* A set over p (which must outlive it); opt NULL: the defaults. */
facet_graphs *facet_graphs_new(const ir_program *p, const facet_graph_options *opt);
/* The named graph (the caller cg_free's it), or NULL with err set when the
 * name is unknown or the graph is not made from bitcode (source). */
cg_graph *facet_graphs_get(facet_graphs *s, const char *name, facet_error *err);
/* The refinement's note (why it could not apply) the first time it is
 * asked after a refinement gave one; NULL otherwise. */
const char *facet_graphs_note(facet_graphs *s);
void facet_graphs_free(facet_graphs *s);

#endif
