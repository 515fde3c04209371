/* internal.h — what the query module's files share. Not a public header. */
#ifndef FACET_QUERY_INTERNAL_H
#define FACET_QUERY_INTERNAL_H

#include <stdbool.h>

#include <jansson.h>

#include "catalog/catalog.h"
#include "overlay/overlay.h"
#include "query/query.h"
#include "util/strmap.h"
#include "util/vec.h"

struct query_session {
	catalog *cat;
	sqlite3 *db;
	overlay *ov;
	char *overlay_path;        /* where save_overlay writes by default */
	char *overlay_error;       /* why the default overlay did not load, or NULL */
	unsigned n_functions;
	unsigned n_sites;
	unsigned char *intrinsic;  /* per function id: an LLVM intrinsic (left out of answers) */
	strmap stmts;              /* SQL text -> prepared statement, reused across calls */
	char **names;              /* function names people read by id (CATALOG_FN_SHOWN), loaded on first use */
	char **symbols;            /* their linked names where they differ (C++), else NULL */
	catalog_adjacency *adj[CG_N_GRAPHS];   /* each graph's arrays, read on first use */
	query_module_writer write_module;   /* slice's emit_module; NULL: refused */
	facet_error damage;        /* the first failed statement or damaged row of this call */
	struct q_collapsed *collapsed;   /* the collapsed-object tables, read on first use (proof.c) */
};

/* An agent edge as walks use it: the overlay edge e covers site at caller. */
typedef struct agent_step {
	unsigned site, caller, target;
	const overlay_edge *edge;
} agent_step;
typedef VEC(agent_step) agent_vec;

/* One call's context: the arguments, the graph and the overlay options. */
typedef struct qctx {
	query_session *s;
	json_t *args;
	facet_error *err;
	int graph;                 /* catalog graph index */
	unsigned bit;              /* 1 << graph */
	const char *graph_name;
	const catalog_adjacency *adj;   /* the graph's edges (verbs that read edges) */
	bool include_overlay;
	overlay_confidence min_conf;
	agent_vec agents;          /* live agent edges at sites unresolved in the graph (when included) */
	unsigned *unres_caller, *unres_site;   /* the graph's unresolved indirect sites, by caller */
	size_t n_unres;
	bool unres_loaded;
	/* Direct sites whose name several units define (graph source: no one
	 * callee, an edge to each): loaded with the unresolved ones, counted
	 * by q_unresolved_sites, reported by q_uncertainty. */
	unsigned *amb_caller, *amb_site;
	size_t n_amb;
	unsigned n_ambiguous_seen;
	json_t *ambiguous_ids;
	/* Indirect sites with Type-Fallback targets (graph source: evidence
	 * incomplete, so unresolved though they have targets), ascending; the
	 * unresolved sites counted so far that are among them. */
	unsigned *fb_site;
	size_t n_fb;
	bool fb_loaded;
	unsigned n_fallback_seen;
	json_t *fallback_ids;
	unsigned max_depth, max_fanout;   /* walks' bounds (0: none): past them, "unknown" */
	char loc_file[4096];       /* q_file_line's FILE when given as "location" */
} qctx;

/* A cached prepared statement, reset and unbound; NULL (and the call
 * fails, see q_damaged) when it does not prepare. */
sqlite3_stmt *q_stmt(query_session *s, const char *sql);
/* sqlite3_step: true on a row; false at the end, and on an error, which
 * fails the call: no loop takes an error for the last row. */
bool q_step(query_session *s, sqlite3_stmt *st);
/* Records why the current call cannot be answered (the first reason
 * wins): query_call then returns NULL with "PATH: damaged catalog: WHY"
 * instead of an answer that may be short. */
void q_damaged(query_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Arguments. */
const char *q_str(qctx *q, const char *key);                 /* NULL when absent */
bool q_int(qctx *q, const char *key, long long *out, bool required);
bool q_bool(qctx *q, const char *key);
/* The function an argument names: exact linked name, or a bare identifier
 * naming one definition (else err lists the candidates). */
bool q_function(qctx *q, const char *key, unsigned *id);
/* Up to three function names closest to name, as "'a', 'b'" in buf ("" when
 * none is close): the "did you mean" of an unknown name (suggest.c). */
void q_suggest(qctx *q, const char *name, char *buf, size_t size);
/* FILE and LINE from "file"+"line", or "location" "FILE:LINE". */
bool q_file_line(qctx *q, const char **file, long long *line);

/* JSON of catalog rows. */
json_t *q_fn_json(qctx *q, unsigned id);        /* {id, name, symbol?, source_name, module_id, file, line, defined, linkage} */
const char *q_fn_name(qctx *q, unsigned id);    /* the name people read; owned by the session */
const char *q_fn_symbol(qctx *q, unsigned id);  /* the linked name when it differs (C++), else NULL */
/* o[key] = function id's name and its symbol beside it (facet_xname_set). */
void q_fn_name_set(qctx *q, json_t *o, const char *key, unsigned id);
json_t *q_site_json(qctx *q, unsigned id);      /* {id, caller, kind, file, line, column, inlined_at} */

/* Graph and overlay edges out of / into a function, from q->adj: out in
 * (site, target) order, in in site order, agent edges last. */
typedef struct q_edge { unsigned site, other; const overlay_edge *agent; } q_edge;
typedef VEC(q_edge) q_edge_vec;
void q_out_edges(qctx *q, unsigned fn, bool with_agents, q_edge_vec *out);
void q_in_edges(qctx *q, unsigned fn, bool with_agents, q_edge_vec *out);
/* True for an LLVM intrinsic (left out of answers). */
bool q_intrinsic(const qctx *q, unsigned fn);
/* Unresolved indirect sites of fn in the graph; covered ones (an agent edge
 * applies) counted apart when the overlay is included. */
void q_unresolved_sites(qctx *q, unsigned fn, json_t *ids, unsigned *n, unsigned *covered);

/* Fills q->agents: live overlay edges (not refuted, >= min_conf) at the
 * indirect sites q's graph leaves unresolved. */
void q_build_agents(qctx *q);

/* The "uncertainty" object every answer carries; extra keys are added by the verb. */
json_t *q_uncertainty(qctx *q, unsigned n_unresolved, json_t *unresolved_ids);
/* Counts an unresolved site of the answer in uncertainty.type_fallback_sites
 * when the type fallback gave it targets. */
void q_note_fallback(qctx *q, unsigned site);
json_t *q_agent_json(const overlay_edge *e);    /* {key, confidence, provenance, verdict} */

/* Proof labels (proof.c): how an edge of an answer is known. */
typedef struct q_collapsed q_collapsed;
void q_collapsed_free(q_collapsed *c);
typedef enum q_proof_kind { PROOF_DIRECT, PROOF_PREMISE_FREE, PROOF_PREMISED, PROOF_AGENT, PROOF_N_KINDS } q_proof_kind;
const char *q_proof_kind_name(q_proof_kind k);
/* {kind, graphs, rule?, premise?, evidence?, source?, confidence?} of the edge
 * site -> target in q's graph (agent: the overlay edge, else NULL); *kind
 * set when kind is not NULL. */
json_t *q_proof_json(qctx *q, unsigned site, unsigned target, const overlay_edge *agent, q_proof_kind *kind);
/* A path's or an edge list's summary: counts per kind and the premises. */
typedef struct q_proof_summary {
	unsigned n[PROOF_N_KINDS];
	json_t *premises;          /* [{site, rule, premise}] of the premised steps */
} q_proof_summary;
void q_proof_summary_init(q_proof_summary *sum);
void q_proof_summary_add(q_proof_summary *sum, q_proof_kind k, json_t *proof, unsigned site);
/* "proven" (every step direct or premise-free), "premised" or "agent". */
const char *q_proof_summary_label(const q_proof_summary *sum);
/* {label, steps: {direct, premise-free, premised, agent}, premises}; takes sum's premises. */
json_t *q_proof_summary_json(q_proof_summary *sum);

/* Cuts the list at path (query_verb_info.list) of answer by the call's
 * "limit" and "offset" and sets "page" beside it (page.c); false + err on
 * a bad limit or offset. */
bool q_page(qctx *q, const char *path, json_t *answer);

/* The verbs (verbs.c, walk.c, overlay_verbs.c). */
json_t *qv_defs(qctx *q);
json_t *qv_at(qctx *q);
json_t *qv_callers(qctx *q);
json_t *qv_callees(qctx *q);
json_t *qv_uses(qctx *q);
json_t *qv_externals(qctx *q);
json_t *qv_indirect_targets(qctx *q);
json_t *qv_explain(qctx *q);
json_t *qv_resolution_candidates(qctx *q);
json_t *qv_inventory(qctx *q);
json_t *qv_reach(qctx *q);
json_t *qv_closure(qctx *q);
json_t *qv_slice(qctx *q);
json_t *qv_graph(qctx *q);
json_t *qv_dominators(qctx *q);
json_t *qv_record_edges(qctx *q);
json_t *qv_list_overlay(qctx *q);
json_t *qv_save_overlay(qctx *q);
json_t *qv_load_overlay(qctx *q);

#endif
