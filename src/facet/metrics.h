/* metrics.h — what the reconstruction recovered, as numbers: the columns
 * of the Facet paper's Table 1 (dispatched fields by kind, unrecovered
 * sites by reason, assignment pairs and the share a syntactic scan would
 * miss) and Table 2 (mean targets per indirect site under andersen, r0,
 * rulesonly, rplus and rpm), with the analyses' times. `facet fields`
 * prints it; the keys are docs/formats.md's "facet fields". */
#ifndef FACET_FACET_METRICS_H
#define FACET_FACET_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "facet/facet.h"

/* The report of r (refined from pta, which took pta_seconds) as a JSON
 * object; with list, every field too ("field_list"). */
json_t *facet_fields_report(const facet_result *r, const pta_result *pta, double pta_seconds, bool list);

/* The report (with its "oracle" accounting when an object) as `facet
 * fields` prints it for people. */
void facet_fields_print_text(FILE *out, json_t *report);

/* `facet stats --refine`'s counts: {seconds, fields, decisions, questions,
 * questions_answered}; and them as its one line of text. */
json_t *facet_refine_stats_json(const facet_result *r);
void facet_refine_stats_print(FILE *out, json_t *stats);

#endif
