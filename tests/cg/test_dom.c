/* test_dom.c — cg_dominators against brute force (a property test): on
 * random small graphs, every simple path from the root to each target is
 * enumerated, and the dominators must be exactly the nodes on all of them
 * (each path contains a simple path, so simple paths are enough). Plus
 * hand-made cases: a diamond, a cycle, self loops, unreachable nodes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/dom.h"

#define MAXN 9

typedef struct graph {
	unsigned n;
	uint32_t off[MAXN + 1];
	uint32_t succ[MAXN * MAXN];
} graph;

static void from_matrix(graph *g, unsigned n, const unsigned char adj[MAXN][MAXN])
{
	g->n = n;
	unsigned k = 0;
	for (unsigned v = 0; v < n; v++) {
		g->off[v] = k;
		for (unsigned w = 0; w < n; w++)
			if (adj[v][w])
				g->succ[k++] = w;
	}
	g->off[n] = k;
}

/* Intersects, over every simple path root -> target, the set of nodes on it. */
static void paths(const graph *g, unsigned v, unsigned target, unsigned on_path, unsigned *all, int *found)
{
	on_path |= 1u << v;
	if (v == target) {
		*all = *found ? (*all & on_path) : on_path;
		*found = 1;
		return;
	}
	for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++)
		if (!(on_path & (1u << g->succ[k])))
			paths(g, g->succ[k], target, on_path, all, found);
}

static void check_against_brute_force(const graph *g, unsigned root)
{
	for (unsigned t = 0; t < g->n; t++) {
		unsigned all = 0, out[MAXN];
		int found = 0;
		paths(g, root, t, 0, &all, &found);
		unsigned k = cg_dominators(g->n, g->off, g->succ, root, t, out);
		if (!found) {
			assert_int_equal(k, 0);
			continue;
		}
		unsigned got = 0;
		for (unsigned i = 0; i < k; i++)
			got |= 1u << out[i];
		if (got != all)
			fprintf(stderr, "graph n=%u root %u target %u: dominators %#x, brute force %#x\n", g->n, root, t,
			        got, all);
		assert_int_equal(got, all);
		assert_int_equal(out[0], root);
		assert_int_equal(out[k - 1], t);
		/* in dominance order: each one dominates the next, so every
		 * path meets them in this order; check with the next's set */
		for (unsigned i = 1; i < k; i++) {
			unsigned sub = 0;
			int f2 = 0;
			paths(g, root, out[i], 0, &sub, &f2);
			assert_true(f2 && (sub & (1u << out[i - 1])));
		}
	}
}

static void random_graphs(void **state)
{
	(void)state;
	srand(18);
	for (int round = 0; round < 3000; round++) {
		unsigned n = 1 + (unsigned)(rand() % MAXN);
		unsigned char adj[MAXN][MAXN] = {{0}};
		int density = 10 + rand() % 50;   /* percent */
		for (unsigned v = 0; v < n; v++)
			for (unsigned w = 0; w < n; w++)
				adj[v][w] = (rand() % 100) < density;
		graph g;
		from_matrix(&g, n, adj);
		check_against_brute_force(&g, (unsigned)(rand() % (int)n));
	}
}

static void hand_made(void **state)
{
	(void)state;
	/* 0 -> 1 -> {2, 3} -> 4 -> 5, 4 -> 4, 6 unreachable, 5 -> 1 (a cycle) */
	unsigned char adj[MAXN][MAXN] = {{0}};
	adj[0][1] = adj[1][2] = adj[1][3] = adj[2][4] = adj[3][4] = adj[4][5] = adj[4][4] = adj[5][1] = 1;
	graph g;
	from_matrix(&g, 7, adj);
	unsigned out[MAXN];
	unsigned k = cg_dominators(g.n, g.off, g.succ, 0, 5, out);
	assert_int_equal(k, 4);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 1);
	assert_int_equal(out[2], 4);
	assert_int_equal(out[3], 5);
	assert_int_equal(cg_dominators(g.n, g.off, g.succ, 0, 6, out), 0);
	assert_int_equal(cg_dominators(g.n, g.off, g.succ, 0, 0, out), 1);
	assert_int_equal(cg_dominators(g.n, g.off, g.succ, 9, 0, out), 0);   /* out of range */
	check_against_brute_force(&g, 0);
	check_against_brute_force(&g, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hand_made),
		cmocka_unit_test(random_graphs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
