/* test_graph.c — the contract of cg/graph.h on a program model built by
 * hand: a new graph has no target anywhere; cg_set_targets keeps a sorted,
 * deduplicated copy and replaces what the site had (n = 0 clears it);
 * cg_direct gives each direct site its callee and indirect and asm sites
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cg/graph.h"

/* Functions f0..f2; site 0 direct to f2, site 1 indirect, site 2 asm, site
 * 3 a direct call of f0. */
static ir_function fns[3];
static ir_function *fn_list[3] = {&fns[0], &fns[1], &fns[2]};
static ir_site sites[4];
static ir_program prog;

static int setup(void **state)
{
	(void)state;
	memset(fns, 0, sizeof fns);
	memset(sites, 0, sizeof sites);
	memset(&prog, 0, sizeof prog);
	for (unsigned i = 0; i < 3; i++)
		fns[i].id = i;
	static const site_kind kinds[4] = {SITE_DIRECT, SITE_INDIRECT, SITE_ASM, SITE_DIRECT};
	ir_function *callees[4] = {&fns[2], NULL, NULL, &fns[0]};
	for (unsigned i = 0; i < 4; i++) {
		sites[i].id = i;
		sites[i].kind = kinds[i];
		sites[i].callee = callees[i];
	}
	prog.functions = fn_list;
	prog.n_functions = 3;
	prog.sites = sites;
	prog.n_sites = 4;
	return 0;
}

static void new_graph_is_empty(void **state)
{
	(void)state;
	cg_graph *g = cg_new(&prog, "x");
	assert_string_equal(g->name, "x");
	assert_ptr_equal(g->prog, &prog);
	for (unsigned s = 0; s < 4; s++) {
		assert_int_equal(g->n_targets[s], 0);
		assert_null(g->targets[s]);
	}
	cg_free(g);
}

static void set_targets_sorts_dedups_copies(void **state)
{
	(void)state;
	cg_graph *g = cg_new(&prog, "x");
	unsigned ids[] = {2, 0, 2, 1, 0};
	cg_set_targets(g, 1, ids, 5);
	ids[0] = 7;   /* the graph holds its own copy */
	assert_int_equal(g->n_targets[1], 3);
	assert_int_equal(g->targets[1][0], 0);
	assert_int_equal(g->targets[1][1], 1);
	assert_int_equal(g->targets[1][2], 2);
	unsigned one = 1;
	cg_set_targets(g, 1, &one, 1);   /* replaces */
	assert_int_equal(g->n_targets[1], 1);
	assert_int_equal(g->targets[1][0], 1);
	cg_set_targets(g, 1, NULL, 0);   /* clears */
	assert_int_equal(g->n_targets[1], 0);
	assert_null(g->targets[1]);
	cg_free(g);
	cg_free(NULL);   /* a no-op */
}

static void direct_graph(void **state)
{
	(void)state;
	cg_graph *g = cg_direct(&prog);
	assert_string_equal(g->name, "direct");
	assert_int_equal(g->n_targets[0], 1);
	assert_int_equal(g->targets[0][0], 2);
	assert_int_equal(g->n_targets[1], 0);   /* indirect: no target */
	assert_int_equal(g->n_targets[2], 0);   /* asm: no target */
	assert_int_equal(g->n_targets[3], 1);
	assert_int_equal(g->targets[3][0], 0);
	cg_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(new_graph_is_empty, setup),
		cmocka_unit_test_setup(set_targets_sorts_dedups_copies, setup),
		cmocka_unit_test_setup(direct_graph, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
