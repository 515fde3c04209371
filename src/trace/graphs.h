/* graphs.h — the graphs scoring compares: per site, the target names a
 * facet graph or a call-graph JSON file (docs/formats.md, from facet or
 * another tool) gives, owned; and the check that a trace belongs to the
 * program it is scored on. */
#ifndef FACET_TRACE_GRAPHS_H
#define FACET_TRACE_GRAPHS_H

#include <stdbool.h>

#include "cg/graph.h"
#include "facet/graphs.h"
#include "trace/observed.h"
#include "trace/score.h"
#include "util/error.h"

typedef struct trace_scored {
	char *label;
	trace_graph g;             /* the view trace_score_compute reads */
	const char ***targets;
	unsigned *n_targets;
	char **strings;            /* names owned (graph files) */
	size_t n_strings;
	trace_score s;             /* filled by the caller's trace_score_compute */
} trace_scored;

/* The names of g's targets at o's observed sites (the only ones scored). */
void trace_scored_from_cg(trace_scored *sc, const char *label, const cg_graph *g, const trace_observed *o);
/* Reads a call graph in facet's JSON format. False + err naming the file and
 * the problem (not JSON, no sites array, a bad id, a site listed twice, a
 * target that is no string, another program than the traced one).
 * indirect receives the number of sites of kind "indirect"; unchecked is set
 * when the file does not list the whole program, so its fingerprint could
 * not be compared with the trace's. sc is to be freed either way. */
bool trace_scored_read_json(trace_scored *sc, const char *path, const trace_observed *o, unsigned *indirect,
                            bool *unchecked, facet_error *err);
void trace_scored_free(trace_scored *sc);

/* True when o was traced from p (named prog in messages): the trace's
 * fingerprint matches p's, every observed site is an indirect call of p and
 * every observed callee a function of p (trace_observed_check_program).
 * False + err otherwise. */
bool trace_observed_matches(const trace_observed *o, const ir_program *p, const char *prog, facet_error *err);

/* True when one of the named graphs (registry names, all known) needs the
 * whole program model, not only its call sites (ingest_options.sites_only). */
bool trace_graphs_need_model(const char *const *graphs, unsigned n);
/* The named graphs of p, built by one facet_graphs set (opt), as scored
 * graphs in gs[*ng...] against o: p must be the traced program
 * (trace_observed_matches; prog names it in messages). *indirect gets p's
 * number of indirect sites; *note a malloc'd copy of the refinement's note
 * when it gave one (NULL otherwise). False + err naming the problem. */
bool trace_scored_from_program(trace_scored *gs, unsigned *ng, const char *const *graphs, unsigned n,
                               const ir_program *p, const char *prog, const trace_observed *o,
                               const facet_graph_options *opt, long *indirect, char **note, facet_error *err);

#endif
