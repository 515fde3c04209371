/* internal.h — what the report's files share. Not a public header. */
#ifndef FACET_REPORT_INTERNAL_H
#define FACET_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "catalog/collapsed.h"
#include "report/render.h"
#include "report/report.h"

/* The page frame (html.c): doctype, inline style, header; footer and the
 * search box's script when search. */
void rp_page_start(FILE *out, const char *title, const char *program, bool index);
void rp_page_end(FILE *out, bool search);
/* v as a JSON data block the page's script reads by id. */
void rp_json_block(FILE *out, const char *id, json_t *v);
/* s escaped for HTML ("" for NULL). */
void rp_text(FILE *out, const char *s);

/* The distribution of targets per indirect site, per graph, as an inline
 * SVG bar chart (figure.c). counts[g][b]: sites of graph g in bucket b. */
#define RP_BUCKETS 8
extern const char *const rp_bucket_names[RP_BUCKETS];
unsigned rp_bucket_of(unsigned n_targets);
void rp_figure(FILE *out, const char *const *graph_names, unsigned n_graphs, unsigned counts[][RP_BUCKETS]);

/* The collapsed-objects section of the index page (collapsed.c). */
void rp_collapsed(FILE *out, const catalog_collapsed *cc);

/* One site's page (site.c): explain and graph of site in graph, drawn. */
struct query_session;
bool rp_site_page(struct query_session *qs, const char *graph, const char *program, unsigned site, FILE *out,
                  facet_error *err);

#endif
