/* score.h — a call graph against observed edges: the columns of the Facet
 * paper's Tables 3 and 4 and the data of its Figure 6.
 *
 * Only observed sites are scored (sites with at least one observed target
 * that the program defines; unknown callees are counted apart). At an
 * observed site c with predicted set R and observed set G (G non-empty):
 *   P(c) = |R ∩ G| / |R|, and 0 when R is empty;
 *   R(c) = |R ∩ G| / |G|;
 *   F1(c) = 2 P R / (P + R), and 0 when P + R = 0.
 * Macro P, R, F1 are the plain means of P(c), R(c), F1(c) over the observed
 * sites (SEA's and KallGraph's per-site macro average). An empty prediction
 * thus scores 0 on all three: a site the graph leaves unresolved gets nothing
 * right. Mean targets is the mean |R| over the observed sites, empty ones
 * included as 0. Edges: recovered = Σ|R ∩ G|, spurious = Σ|R \ G| (R's edges
 * at observed sites that no run took), missed = Σ|G \ R|. */
#ifndef FACET_TRACE_SCORE_H
#define FACET_TRACE_SCORE_H

#include <stdint.h>

#include "trace/observed.h"
#include "util/error.h"

/* A graph as scoring sees it: per site id, its targets as linked function
 * names in strcmp order. Sites >= n_sites, or with targets[s] NULL and
 * n_targets[s] 0, have no target. */
typedef struct trace_graph {
	const char *label;
	unsigned n_sites;
	const char **const *targets;
	const unsigned *n_targets;
} trace_graph;

typedef struct trace_site_score {
	unsigned site;
	unsigned predicted, observed, recovered;
	double p, r, f1;
} trace_site_score;

typedef struct trace_score {
	unsigned sites;                /* observed sites scored */
	double precision, recall, f1;  /* macro, over sites */
	double mean_targets;
	unsigned empty;                /* observed sites with no predicted target */
	unsigned exactly_one;          /* ... with exactly one */
	uint64_t recovered, spurious, missed;
	unsigned *sizes;               /* sizes[k]: observed sites with k predicted targets */
	unsigned max_size;             /* sizes has max_size + 1 entries */
	trace_site_score *per_site;    /* sites entries, ascending site id */
} trace_score;

/* Scores g against o (finished). */
void trace_score_compute(const trace_observed *o, const trace_graph *g, trace_score *out);
void trace_score_free(trace_score *s);

#endif
