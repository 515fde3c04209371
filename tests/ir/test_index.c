/* test_index.c — the value-id lookups of ir/index.h on a real compiled
 * program (fixture.c at -O0 and -O2): every array agrees with the
 * statements, globals, functions and debug records it indexes, and the
 * facts read from fixture.c hold (at -O0 `ops` of dispatch() lives in a
 * stack slot a #dbg_declare names; at -O2 the parameter itself carries a
 * #dbg_value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/index.h"
#include "ir/ingest.h"
#include "../lib/cprog.h"

static const char *fixture;
static char tmpdir[] = "/tmp/facet-test-index-XXXXXX";

static ir_program *compile_and_ingest(const char *level)
{
	char bc[512];
	snprintf(bc, sizeof bc, "%s/fixture%s.bc", tmpdir, level);
	cprog_compile(fixture, bc, level);
	ingest_options opt = {.verify = true};
	return cprog_ingest(bc, &opt, NULL);
}

/* Every statement is filed under the value it defines, and only there. */
static void check_defs(const ir_program *p, const ir_index *ix)
{
	unsigned filed = 0;
	for (unsigned v = 0; v < p->n_values; v++) {
		assert_true(ix->def_start[v] <= ix->def_start[v + 1]);
		for (unsigned i = 0; i < ir_index_n_defs(p, ix, v); i++) {
			const ir_stmt *d = ir_index_def(p, ix, v, i);
			assert_int_equal(d->dst, v);
			assert_true(d->op != ST_STORE && d->op != ST_RET);
			filed++;
		}
	}
	unsigned want = 0, geps = 0;
	for (unsigned i = 0; i < p->n_stmts; i++) {
		const ir_stmt *st = &p->stmts[i];
		want += st->op != ST_STORE && st->op != ST_RET && st->dst < p->n_values;
		geps += st->op == ST_GEP && !st->var_offset && st->src < p->n_values;
	}
	assert_int_equal(filed, want);
	assert_int_equal(ix->gep_start[p->n_values], geps);
	for (unsigned v = 0; v < p->n_values; v++)
		for (unsigned i = ix->gep_start[v]; i < ix->gep_start[v + 1]; i++) {
			const ir_stmt *g = &p->stmts[ix->geps[i]];
			assert_int_equal(g->op, ST_GEP);
			assert_false(g->var_offset);
			assert_int_equal(g->src, v);
		}
	assert_int_equal(ir_index_n_defs(p, ix, p->n_values), 0);   /* out of range: none */
}

static void check_owners(const ir_program *p, const ir_index *ix)
{
	for (unsigned g = 0; g < p->n_globals; g++)
		assert_ptr_equal(ix->global_of_value[p->globals[g]->value], p->globals[g]);
	for (unsigned f = 0; f < p->n_functions; f++) {
		const ir_function *fn = p->functions[f];
		assert_ptr_equal(ix->function_of_value[fn->value], fn);
		for (unsigned i = 0; i < fn->n_stmts; i++)
			assert_int_equal(ix->stmt_function[fn->first_stmt + i], f);
	}
	for (unsigned i = 0; i < p->n_const_stmts; i++)
		assert_int_equal(ix->stmt_function[i], IR_NONE);
}

/* The binding chains hold exactly the #dbg_value records with an empty
 * expression on their value. */
static void check_bindings(const ir_program *p, const ir_index *ix)
{
	unsigned chained = 0, want = 0;
	for (unsigned v = 0; v < p->n_values; v++)
		for (unsigned k = ix->value_binding[v]; k; k = ix->next_binding[k - 1]) {
			const ir_dbg_binding *b = &p->bindings[k - 1];
			assert_int_equal(b->value, v);
			assert_true(b->empty_expr && !b->declare);
			chained++;
		}
	for (unsigned i = 0; i < p->n_bindings; i++) {
		const ir_dbg_binding *b = &p->bindings[i];
		want += b->var && b->var->type && b->value < p->n_values && b->empty_expr && !b->declare &&
		        !b->fragment;
		if (b->declare && b->empty_expr && b->var && b->var->type)
			assert_non_null(ix->slot_binding[b->value]);
	}
	assert_int_equal(chained, want);
}

static const ir_dbg_binding *ops_record(const ir_program *p, const ir_index *ix, bool slot)
{
	const ir_function *disp = ir_find_function(p, "dispatch");
	assert_non_null(disp);
	for (unsigned v = 0; v < p->n_values; v++) {
		const ir_dbg_binding *b = slot ? ix->slot_binding[v]
		                               : ix->value_binding[v] ? &p->bindings[ix->value_binding[v] - 1] : NULL;
		if (b && b->function == disp && strcmp(b->var->name, "ops") == 0)
			return b;
	}
	return NULL;
}

static void index_at(const char *level, bool slot)
{
	ir_program *p = compile_and_ingest(level);
	ir_index ix;
	ir_index_build(p, &ix);
	check_defs(p, &ix);
	check_owners(p, &ix);
	check_bindings(p, &ix);
	const ir_dbg_binding *b = ops_record(p, &ix, slot);
	assert_non_null(b);
	if (slot) {   /* the alloca the record names is defined by one ST_ALLOCA */
		assert_int_equal(ir_index_n_defs(p, &ix, b->value), 1);
		assert_int_equal(ir_index_def(p, &ix, b->value, 0)->op, ST_ALLOCA);
	} else {      /* the parameter itself: no statement defines it */
		assert_int_equal(ir_index_n_defs(p, &ix, b->value), 0);
	}
	ir_index_free(&ix);
	assert_null(ix.defs);
	ir_program_free(p);
}

static void index_O0(void **state) { (void)state; index_at("-O0", true); }
static void index_O2(void **state) { (void)state; index_at("-O2", false); }

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_index FIXTURE.c\n");
		return 2;
	}
	fixture = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_O0),
		cmocka_unit_test(index_O2),
	};
	return cprog_run_tests(tmpdir, tests);
}
