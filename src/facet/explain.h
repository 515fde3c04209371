/* explain.h — why a call site has its targets, as data: the one explain
 * model of a refinement result (`facet explain`; docs/formats.md, "facet
 * explain"). Per indirect site: its dispatched field and how it was found,
 * R0's and the symbolic result's sizes, the collapsed points-to objects
 * holding part of the callee's set (what collapsed each, where), every
 * candidate target with its
 * membership in r0, rulesonly, rplus and rpm and each decision's warrant,
 * and the residual questions. */
#ifndef FACET_FACET_EXPLAIN_H
#define FACET_FACET_EXPLAIN_H

#include <stdbool.h>

#include <jansson.h>

#include "facet/facet.h"

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
 * (the caller json_decref's). */
json_t *facet_explain_sites(const facet_result *r, const facet_explain_select *sel);

/* True when l is FILE:LINE in the sense above. */
bool facet_loc_matches(const ir_loc *l, const char *file, unsigned line);

#endif
