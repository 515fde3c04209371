/* dom.h — dominators of a small directed graph from one root: the nodes
 * every path from the root to a node passes through (seed 002's "fix
 * points": one fix on such a node covers every path).
 *
 * The graph is compressed rows: node v's successors are
 * succ[offsets[v] .. offsets[v+1]-1]. The algorithm is Cooper, Harvey and
 * Kennedy's iterative one over a reverse postorder ("A Simple, Fast
 * Dominance Algorithm", 2001): near-linear on the call graphs' slices. */
#ifndef FACET_CG_DOM_H
#define FACET_CG_DOM_H

#include <stdint.h>

#define CG_DOM_NONE 0xffffffffu

/* idom[v] for every node (root: itself; unreachable from root: CG_DOM_NONE). */
void cg_dominator_tree(unsigned n, const uint32_t *offsets, const uint32_t *succ, unsigned root, unsigned *idom);
/* The dominators of target, root first and target last, into out (room
 * for n); returns their count, 0 when target is unreachable from root. */
unsigned cg_dominators(unsigned n, const uint32_t *offsets, const uint32_t *succ, unsigned root, unsigned target,
                       unsigned *out);

#endif
