/* render.h — a graph view (the query verb "graph": nodes and edges labelled
 * by proof, docs/queries.md) drawn for people and tools.
 *
 *   dot      Graphviz, edge style per proof kind, a legend, optional
 *            clusters per source file
 *   graphml  GraphML for yEd, Gephi and networkx: proof, rule, premise,
 *            site as edge data, file and line as node data
 *   svg      a self-contained SVG drawn here (layers left to right), for
 *            the HTML report: no Graphviz needed to read it
 *
 * Library code: writes to the FILE it is given and reports nothing else. */
#ifndef FACET_REPORT_RENDER_H
#define FACET_REPORT_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

typedef struct report_view_options {
	bool cluster_file;         /* group functions by their source file */
	bool legend;               /* draw the legend of edge styles */
	const char *title;         /* graph label, NULL: none */
} report_view_options;

void report_view_dot(FILE *out, json_t *view, const report_view_options *o);
void report_view_graphml(FILE *out, json_t *view, const report_view_options *o);
void report_view_svg(FILE *out, json_t *view, const report_view_options *o);
/* The view in the named format: "dot", "graphml", else svg. */
void report_view_draw(FILE *out, json_t *view, const char *format, const report_view_options *o);

/* s with &, <, >, " and ' escaped for XML text and attributes. */
void report_xml_text(FILE *out, const char *s);

/* How edges of each proof kind are drawn, for legends elsewhere. */
typedef struct report_edge_style {
	const char *kind;          /* "direct", "premise-free", "premised", "agent", "call" */
	const char *color;         /* an SVG/DOT colour name or #rrggbb */
	const char *dot_style;     /* "solid", "dashed", "dotted" */
	const char *svg_dash;      /* stroke-dasharray, "" = solid */
	const char *meaning;       /* for the legend */
} report_edge_style;
const report_edge_style *report_edge_style_of(const char *kind);
extern const report_edge_style report_edge_styles[];   /* ends with kind NULL */

#endif
