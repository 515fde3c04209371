/* print.h — call graph output formats.
 *
 *   llvm  the text of `opt -passes=print-callgraph` (LLVM's CallGraph,
 *         Algorithm 20.1.3 of the lesson), with stable fake addresses
 *         instead of pointers; only meaningful for the direct graph
 *   json  the public contract of DESIGN.md ("graph", "functions", "sites")
 *   dot   Graphviz: one edge per (caller, target), unresolved indirect
 *         sites drawn to a dashed "unresolved" node */
#ifndef FACET_CG_PRINT_H
#define FACET_CG_PRINT_H

#include <stdio.h>

#include "cg/graph.h"

void cg_print_text(FILE *out, const cg_graph *g);
void cg_print_llvm(FILE *out, const ir_program *p);
void cg_print_json(FILE *out, const cg_graph *g);
void cg_print_dot(FILE *out, const cg_graph *g);

#endif
