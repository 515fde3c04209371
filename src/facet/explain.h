/* explain.h — why a call site has its targets, as data: the one explain
 * model of a refinement result (`facet explain`; docs/formats.md, "facet
 * explain"). Per indirect site: its dispatched field and how it was found,
 * R0's and the symbolic result's sizes, the collapsed points-to objects
 * holding part of the callee's set (what collapsed each, where), every
 * candidate target with its
 * membership in r0, rulesonly, rplus and rpm (and, at a C++ virtual call,
 * cha, rta, vta and vslot) and each decision's warrant (vslot's too), and
 * the residual questions. */
#ifndef FACET_FACET_EXPLAIN_H
#define FACET_FACET_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "facet/facet.h"

/* The one explain model. `facet explain` fills it from a refinement result
 * and the query verbs explain and indirect-targets from a catalog; both
 * render it with the functions below, so its keys are one contract
 * (docs/formats.md, "facet explain", explain_version 2; docs/queries.md). */
#define FACET_EXPLAIN_VERSION 2

/* A decision about (site, function) as a warrant: {fact, outcome, rule,
 * premise, source, evidence, graph} (premise and evidence NULL when none). */
typedef struct facet_xwarrant {
	const char *fact, *outcome, *rule, *premise, *source, *evidence;
	const char *graph;         /* whose decision: "rpm" (the refinement's, also when NULL) or "vslot" */
} facet_xwarrant;

/* How a site dispatches: {status, step, depth, field (field_symbol),
 * field_name, signature, reason, base_type, n_r0, n_sym, abstains,
 * runtime_code, callee_type, callee_variable}; every string NULL when it
 * does not apply. */
typedef struct facet_xdispatch {
	const char *status, *step;
	long long depth;
	const char *field, *field_name, *signature;   /* the field's key as shown (facet_field_shown), member name, signature */
	const char *reason, *base_type;
	long long n_r0, n_sym;                        /* |R0| and the symbolic result's size */
	bool abstains;
	bool runtime_code;                            /* the callee may be code loaded at run time (dlsym) */
	const char *callee_type, *callee_variable;
	const char *field_symbol;                     /* the key itself (a global's linked name), NULL when it is field */
} facet_xdispatch;

json_t *facet_xwarrant_json(const facet_xwarrant *w);
json_t *facet_xdispatch_json(const facet_xdispatch *d);
/* A function named in an answer: o[key] is the name people read (a C++
 * function's demangled name, ir_function_label's rule) and, when the linked
 * name differs (a mangled C++ symbol), the linked name beside it, as
 * "symbol" beside "name" and as "KEY_symbol" beside any other key
 * ("caller_symbol"). C functions carry no symbol: their name is it. */
void facet_xname_set(json_t *o, const char *key, const char *shown, const char *linked);
/* A candidate target: {name, symbol (facet_xname_set), in_graphs: the names
 * of the graphs in bits (bit 1 << cg_graph_id, registry order), warrants}
 * (warrants is stolen).
 * At a site that is not a virtual call (virtual_site false) the C++ graphs
 * (cha, rta, vta, vslot) are left out of in_graphs: they hold other graphs'
 * targets there, not their own (the site's "virtual" is null). */
json_t *facet_xtarget_json(const char *name, const char *linked, unsigned bits, bool virtual_site, json_t *warrants);
/* The site's "virtual": {class (null: not known), slot (null: any, a
 * member-function pointer)}; NULL cls and slot < 0 for any. */
json_t *facet_xvirtual_json(const char *cls, long long slot);
/* A residual question: {id, kind, candidates (names; stolen), answered}. */
json_t *facet_xquestion_json(long long id, const char *kind, json_t *candidates, bool answered);

/* Which sites: every indirect one, the one with id site, or those whose
 * location is FILE:LINE (file matching the end of the recorded path at a
 * path boundary: http/ngx_http.c:211). */
typedef struct facet_explain_select {
	bool all;
	bool by_site;
	unsigned site;
	const char *file;          /* NULL: no location selection */
	unsigned line;
} facet_explain_select;

/* The selected sites of r as a JSON array of site objects, in site order
 * (the caller json_decref's): the query layer's site object (id, caller,
 * kind, file, line, column, call_type, inlined_at), dispatch, field (the
 * recovered field in full, or null), targets (every function andersen, when
 * given, or a derived graph holds or a decision names) and questions. */
json_t *facet_explain_sites(const facet_result *r, const cg_graph *andersen, const facet_explain_select *sel);

/* `facet explain --format json`'s answer: {explain_version, tau, note,
 * sites, oracle} (sites and oracle are stolen). */
json_t *facet_explain_answer(const facet_result *r, json_t *sites, json_t *oracle);

/* One site object of facet_explain_sites as text: its field, collapsed
 * objects, sizes, the targets a derived graph holds with their warrants,
 * and the residual questions. */
void facet_explain_print_text(FILE *out, json_t *site);

/* True when l is FILE:LINE in the sense above. */
bool facet_loc_matches(const ir_loc *l, const char *file, unsigned line);

#endif
