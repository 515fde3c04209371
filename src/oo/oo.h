/* oo.h — the lab's call-graph constructions (Lesson 20.1 §2).
 *
 * Each algorithm reads a type-correct oo_program and returns a call graph
 * (graph.h) that the caller frees. Those that can explain themselves fill an
 * oo_table with the lesson's trace when `trace` is non-NULL:
 *   CHA  Algorithm 20.1.5, FIFO worklist        — one row per site of each popped body
 *   RTA  Algorithm 20.1.6, worklist (default) or round-robin — one row per round
 *   XTA  Definition 20.1.7 / Algorithm 20.1.8   — the sets S_b and S_g after each round
 *   VTA  Definition 20.1.9 / Algorithm 20.1.10  — the sets V(n) that changed per round
 *   PTA  Definition 20.1.11, one abstract object per `new` site, on the fly
 *   DYN  the collecting interpreter: every execution, both branches of every choose
 * The round-robin solvers visit, in textual order, the bodies that were
 * reachable when the round started, exactly as §3's tables do. */
#ifndef FACET_OO_OO_H
#define FACET_OO_OO_H

#include "oo/graph.h"
#include "oo/program.h"
#include "oo/table.h"
#include "util/error.h"

typedef enum oo_algo { OO_CHA, OO_RTA, OO_XTA, OO_VTA, OO_PTA, OO_DYN, OO_NALGO } oo_algo;

typedef struct oo_options {
	int rta_rounds;          /* RTA by rounds (as the lesson writes it) instead of the worklist */
	long dyn_max_states;     /* budget of the collecting interpreter; 0 means OO_DYN_MAX_STATES */
} oo_options;

enum { OO_DYN_MAX_STATES = 2000000 };

const char *oo_algo_name(int algo);            /* "cha", ... "dyn" */
int         oo_algo_parse(const char *name);   /* an oo_algo, or -1 */

/* Runs one algorithm (opt may be NULL). With trace != NULL, *trace gets the
 * algorithm's table (RTA then runs by rounds). Only DYN can fail: when the
 * program's state space exceeds the budget. */
int oo_analyze(const oo_program *p, oo_algo algo, const oo_options *opt, oo_graph **out, oo_table **trace,
               facet_error *err);

oo_graph *oo_cha(const oo_program *p, oo_table **trace);
oo_graph *oo_rta(const oo_program *p);                               /* worklist, O(S·|C|·h) */
oo_graph *oo_rta_rounds(const oo_program *p, oo_table **trace);      /* Algorithm 20.1.6 as written */
oo_graph *oo_xta(const oo_program *p, oo_table **trace);
oo_graph *oo_vta(const oo_program *p, oo_table **trace);
oo_graph *oo_pta(const oo_program *p, oo_table **trace);
int       oo_dyn(const oo_program *p, long max_states, oo_graph **out, oo_table **trace, facet_error *err);

#endif
