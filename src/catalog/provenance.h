/* provenance.h — what a catalog keeps of a refinement's provenance, read
 * back: R0 and every decision (site, function, fact, outcome, rule), so the
 * refined graphs can be derived again under another τ without the bitcode
 * (§3.5; facet_derive). */
#ifndef FACET_CATALOG_PROVENANCE_H
#define FACET_CATALOG_PROVENANCE_H

#include <stdbool.h>
#include <stdio.h>

#include "catalog/catalog.h"
#include "facet/facet.h"

typedef struct catalog_provenance {
	/* A program model with only n_sites and n_functions: all that cg_new and
	 * facet_derive read of one; the catalog has no bitcode to read more. */
	ir_program shell;
	char **names;              /* function id -> linked name */
	bool *indirect;            /* site id -> an indirect call */
	cg_graph *r0;
	facet_decision *decisions;
	unsigned n_decisions;
	cg_graph *stored;          /* graph `graph` as the catalog stores it (to check a derivation) */
} catalog_provenance;

/* Reads c's provenance and its stored graph `graph` (a cg_graph_id). False +
 * err naming what could not be read or is not a row facet writes; free pv
 * either way. */
bool catalog_provenance_read(catalog *c, int graph, catalog_provenance *pv, facet_error *err);
void catalog_provenance_free(catalog_provenance *pv);

/* How many indirect sites g (derived from pv) gives other targets than the
 * stored graph; the first max_first of them go to first[]. */
unsigned catalog_provenance_differences(const catalog_provenance *pv, const cg_graph *g, unsigned *first,
                                        unsigned max_first);
/* g's indirect sites with their targets' names: one "site N -> a b" line
 * each, or as json {graph, tau, sites: [{id, targets}]} (`facet rederive`). */
void catalog_provenance_print(FILE *out, const catalog_provenance *pv, const cg_graph *g, const char *graph,
                              unsigned tau, bool json);

#endif
