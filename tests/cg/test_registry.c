/* test_registry.c — the graph registry's contract (cg/registry.h): ids are
 * the catalog's bit positions and never move, every name parses back to its
 * id, the message list names every graph in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cg/registry.h"

static void ids_are_stable(void **state)
{
	(void)state;
	/* Catalogs written by earlier builds store these positions. */
	static const char *const names[] = {"direct", "andersen", "r0", "rulesonly", "rplus", "rpm", "source",
	                                    "cha", "rta", "vta", "vslot"};
	assert_int_equal(CG_N_GRAPHS, 11);
	for (int i = 0; i < CG_N_GRAPHS; i++) {
		assert_string_equal(cg_graph_name(i), names[i]);
		assert_int_equal(cg_graph_info_of((cg_graph_id)i)->id, i);
	}
}

static void names_parse_back(void **state)
{
	(void)state;
	for (int i = 0; i < CG_N_GRAPHS; i++)
		assert_int_equal(cg_graph_parse(cg_graph_name(i)), i);
	assert_int_equal(cg_graph_parse("RPM"), -1);
	assert_int_equal(cg_graph_parse(""), -1);
	assert_int_equal(cg_graph_parse("rp"), -1);
	assert_int_equal(cg_graph_parse(NULL), -1);
	assert_string_equal(cg_graph_name(-1), "?");
	assert_string_equal(cg_graph_name(CG_N_GRAPHS), "?");
}

static void list_is_the_table(void **state)
{
	(void)state;
	char joined[256] = "";
	for (int i = 0; i < CG_N_GRAPHS; i++)
		snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? ", " : "", cg_graph_name(i));
	assert_string_equal(cg_graph_list(), joined);
	joined[0] = 0;
	for (int i = 0; i < CG_N_GRAPHS; i++)
		snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? " " : "", cg_graph_name(i));
	assert_string_equal(cg_graph_names(), joined);
}

static void only_direct_and_source_skip_the_points_to(void **state)
{
	(void)state;
	for (int i = 0; i < CG_N_GRAPHS; i++) {
		const cg_graph_info *g = cg_graph_info_of((cg_graph_id)i);
		/* cha and rta read the class hierarchy, not the points-to solution */
		assert_int_equal(g->needs_pta, i != CG_DIRECT && i != CG_SOURCE && i != CG_CHA && i != CG_RTA);
		assert_int_equal(g->needs_model, i != CG_DIRECT && i != CG_SOURCE);
		assert_int_equal(g->refined, i >= CG_RULESONLY && i <= CG_RPM);
		assert_int_equal(g->from_source, i == CG_SOURCE);
		assert_true(g->description && g->description[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ids_are_stable),
		cmocka_unit_test(names_parse_back),
		cmocka_unit_test(list_is_the_table),
		cmocka_unit_test(only_direct_and_source_skip_the_points_to),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
