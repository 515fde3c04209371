/* graph.h — a call graph over a .oo program (Definition 20.1.2).
 *
 * G = (R, T): the reachable bodies R and, per virtual call site c, the set
 * T(c) of bodies it may invoke. Every algorithm of the lab fills one; the
 * precision order ⊑ and the edge count |G| = Σ_c |T(c)| are defined here
 * once, so the property test and the comparison table agree on them. Like §3,
 * edges count virtual sites only: a direct `call f` has exactly one target in
 * every graph and only makes f reachable.
 *
 * Most sites have a handful of targets, a few (CHA on P_n) have hundreds, so
 * T(c) is an array in insertion order, plus a bitmap over the bodies once it
 * outgrows a linear scan: memory stays O(edges) instead of O(sites × bodies),
 * which matters for the complexity benchmark. */
#ifndef FACET_OO_GRAPH_H
#define FACET_OO_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "oo/program.h"
#include "util/arena.h"

typedef struct oo_tset {
	int n, cap;
	int *items;                /* the targets, in the order they were added */
	uint64_t *bits;            /* membership, once n > OO_TSET_SMALL */
} oo_tset;

enum { OO_TSET_SMALL = 16 };

typedef struct oo_graph {
	int algo;                  /* an oo_algo (oo.h) */
	const oo_program *p;       /* borrowed; must outlive the graph */
	unsigned char *reach;      /* reach[b] != 0 iff b ∈ R */
	oo_tset *targets;          /* T(c) per site */
	long edges;                /* |G|, kept up to date by oo_graph_add */
	int rounds;                /* rounds of a round-robin solver, 0 otherwise */
	long work;                 /* statement or state visits, for the benchmark */
	arena a;
} oo_graph;

oo_graph *oo_graph_new(const oo_program *p, int algo);
void      oo_graph_free(oo_graph *g);

int  oo_graph_reach(oo_graph *g, int body);              /* adds body to R; 1 if new */
int  oo_graph_add(oo_graph *g, int site, int body);      /* adds body to T(site); 1 if new */

int  oo_graph_has(const oo_graph *g, int site, int body);
static inline int oo_graph_count(const oo_graph *g, int site) { return g->targets[site].n; }
/* T(site) in insertion order; *n gets its size. */
static inline const int *oo_graph_targets(const oo_graph *g, int site, int *n)
{
	*n = g->targets[site].n;
	return g->targets[site].items;
}
/* T(site) sorted by body name into out[] (room for oo_graph_count); returns the count. */
int oo_graph_sorted(const oo_graph *g, int site, int *out);
int oo_graph_nreach(const oo_graph *g);                 /* |R| */

/* a ⊑ b (Definition 20.1.2). When it fails and why != NULL, writes the first
 * difference, e.g. "s4: Circle.area in vta, not in xta". */
int oo_graph_leq(const oo_graph *a, const oo_graph *b, const char *an, const char *bn, char *why, size_t n);

#endif
