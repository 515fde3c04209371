/* print.h — text and JSON renderings of call graphs and tables.
 *
 * The JSON shape of a graph is a public contract (DESIGN.md):
 *   {"algo": "rta", "reachable": [...], "sites": [{"label": "s1", "body": "main",
 *    "targets": ["Circle.area", "Square.area"]}], "edges": 12}
 * with sites in program order, targets sorted by name, reachable bodies in
 * program order; "file", "rounds" and "trace" are extensions. */
#ifndef FACET_OO_PRINT_H
#define FACET_OO_PRINT_H

#include <stdio.h>

#include "oo/graph.h"
#include "oo/table.h"

void oo_print_graph(FILE *out, const oo_graph *g);                               /* per site, then R */
void oo_print_graph_json(FILE *out, const oo_graph *g, const oo_table *trace);   /* one line; trace may be NULL */
void oo_print_table(FILE *out, const oo_table *t);                               /* aligned columns */
void oo_print_table_json(FILE *out, const oo_table *t);                          /* {"title","columns","rows"} */

#endif
