/* dom.c — dominators by Cooper-Harvey-Kennedy (dom.h). */
#include "cg/dom.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* Reverse postorder of the nodes reachable from root (iterative DFS, so a
 * deep call chain cannot overflow the stack); returns their count, and
 * rpo_index[v] = position or CG_DOM_NONE. */
static unsigned reverse_postorder(unsigned n, const uint32_t *off, const uint32_t *succ, unsigned root,
                                  unsigned *order, unsigned *rpo_index)
{
	unsigned *stack = xmalloc((n + 1) * sizeof *stack), *next = xmalloc((n + 1) * sizeof *next);
	unsigned char *seen = xcalloc(n + 1, 1);
	unsigned sp = 0, post = 0;
	stack[sp++] = root;
	next[root] = off[root];
	seen[root] = 1;
	while (sp) {
		unsigned v = stack[sp - 1];
		if (next[v] < off[v + 1]) {
			unsigned w = succ[next[v]++];
			if (w < n && !seen[w]) {
				seen[w] = 1;
				next[w] = off[w];
				stack[sp++] = w;
			}
		} else {
			order[post++] = v;
			sp--;
		}
	}
	for (unsigned i = 0; i < n; i++)
		rpo_index[i] = CG_DOM_NONE;
	for (unsigned i = 0; i < post / 2; i++) {   /* postorder -> reverse postorder */
		unsigned t = order[i];
		order[i] = order[post - 1 - i];
		order[post - 1 - i] = t;
	}
	for (unsigned i = 0; i < post; i++)
		rpo_index[order[i]] = i;
	free(stack);
	free(next);
	free(seen);
	return post;
}

static unsigned intersect(const unsigned *idom, const unsigned *rpo, unsigned a, unsigned b)
{
	while (a != b) {
		while (rpo[a] > rpo[b])
			a = idom[a];
		while (rpo[b] > rpo[a])
			b = idom[b];
	}
	return a;
}

void cg_dominator_tree(unsigned n, const uint32_t *off, const uint32_t *succ, unsigned root, unsigned *idom)
{
	for (unsigned i = 0; i < n; i++)
		idom[i] = CG_DOM_NONE;
	if (root >= n)
		return;
	unsigned *order = xmalloc((n + 1) * sizeof *order), *rpo = xmalloc((n + 1) * sizeof *rpo);
	unsigned m = reverse_postorder(n, off, succ, root, order, rpo);
	/* Predecessors among the reachable nodes, as rows. */
	uint32_t *poff = xcalloc(n + 2, sizeof *poff);
	for (unsigned v = 0; v < n; v++)
		for (uint32_t k = off[v]; rpo[v] != CG_DOM_NONE && k < off[v + 1]; k++)
			if (succ[k] < n)
				poff[succ[k] + 1]++;
	for (unsigned v = 0; v < n; v++)
		poff[v + 1] += poff[v];
	uint32_t *pred = xmalloc((poff[n] + 1) * sizeof *pred), *fill = xmalloc((n + 1) * sizeof *fill);
	for (unsigned v = 0; v < n; v++)
		fill[v] = poff[v];
	for (unsigned v = 0; v < n; v++)
		for (uint32_t k = off[v]; rpo[v] != CG_DOM_NONE && k < off[v + 1]; k++)
			if (succ[k] < n)
				pred[fill[succ[k]]++] = v;
	idom[root] = root;
	for (int changed = 1; changed;) {
		changed = 0;
		for (unsigned i = 1; i < m; i++) {
			unsigned b = order[i], nd = CG_DOM_NONE;
			for (uint32_t k = poff[b]; k < poff[b + 1]; k++) {
				unsigned p = pred[k];
				if (idom[p] == CG_DOM_NONE)
					continue;
				nd = nd == CG_DOM_NONE ? p : intersect(idom, rpo, p, nd);
			}
			if (nd != CG_DOM_NONE && idom[b] != nd) {
				idom[b] = nd;
				changed = 1;
			}
		}
	}
	free(order);
	free(rpo);
	free(poff);
	free(pred);
	free(fill);
}

unsigned cg_dominators(unsigned n, const uint32_t *off, const uint32_t *succ, unsigned root, unsigned target,
                       unsigned *out)
{
	if (root >= n || target >= n)
		return 0;
	unsigned *idom = xmalloc((n + 1) * sizeof *idom);
	cg_dominator_tree(n, off, succ, root, idom);
	unsigned k = 0;
	if (idom[target] != CG_DOM_NONE) {
		for (unsigned v = target;; v = idom[v]) {
			out[k++] = v;
			if (v == root || k >= n)
				break;
		}
		for (unsigned i = 0; i < k / 2; i++) {   /* root first */
			unsigned t = out[i];
			out[i] = out[k - 1 - i];
			out[k - 1 - i] = t;
		}
	}
	free(idom);
	return k;
}
