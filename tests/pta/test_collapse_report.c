/* test_collapse_report.c — what `facet pts` and `facet stats --pta` report
 * about collapsed objects (issue 15.3, 16.3): the cause of each collapse and
 * the statement that caused it, on small programs compiled here with
 * clang-22 -g at -O0 and -O2. Expected answers come from reading the
 * programs: main reads a pointer of a heap array of structs at a variable
 * offset (t[argc].f alone steps by whole entries and would fold it), so the
 * array collapses by a variable index at a GEP in main, and the call through it
 * may reach the three functions stored there; the table `named` is only
 * ever indexed by constants and stays apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ingest.h"
#include "../lib/cprog.h"
#include "pta/andersen.h"
#include "pta/holders.h"
#include "pta/stats.h"

static char tmpdir[] = "/tmp/facet-test-collapse-XXXXXX";

static ir_program *compile(const char *source, const char *level)
{
	return cprog_from_source(tmpdir, source, level);
}

static const char src[] =
	"#include <stdlib.h>\n"
	"int a(int x) { return x + 1; }\n"
	"int b(int x) { return x + 2; }\n"
	"int c(int x) { return x + 3; }\n"
	"struct ops { int (*f)(int); int (*g)(int); };\n"
	"struct ops named[2] = {{a, b}, {c, a}};\n"
	"volatile size_t at;\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	(void)argv;\n"
	"	struct ops *t = malloc(4 * sizeof *t);\n"
	"	t[0].f = a; t[1].g = b; t[2].f = c;\n"
	"	return t[argc].f(argc) + named[1].g(argc) + (*(void **)((unsigned char *)t + at) != 0);\n"
	"}\n";

static void variable_index_names_its_gep(void **state)
{
	(void)state;
	const char *levels[] = {"-O0", "-O2"};
	for (int l = 0; l < 2; l++) {
		ir_program *p = compile(src, levels[l]);
		pta_result *r = pta_analyze(p, NULL);
		unsigned heap = PTA_NONE, table = PTA_NONE;
		for (unsigned o = 0; o < r->n_objects; o++) {
			if (r->objects[o].kind == OBJ_HEAP && heap == PTA_NONE)
				heap = o;
			if (r->objects[o].kind == OBJ_GLOBAL && strcmp(p->globals[r->objects[o].index]->name, "named") == 0)
				table = o;
		}
		if (heap == PTA_NONE || table == PTA_NONE)
			fail_msg("%s: no heap object or no global 'named'", levels[l]);
		assert_int_equal(pta_object_collapse_cause(r->solver, heap), PTA_COLLAPSE_INDEX);
		const ir_function *fn = NULL;
		const ir_stmt *st = pta_collapse_stmt(r, heap, &fn);
		if (!st || !fn)
			fail_msg("%s: the heap array's collapse names no statement", levels[l]);
		assert_string_equal(fn->name, "main");
		assert_int_equal(st->op, ST_GEP);
		assert_true(st->var_offset);
		assert_int_equal(pta_object_collapse_cause(r->solver, table), PTA_COLLAPSE_NONE);
		assert_null(pta_collapse_stmt(r, table, &fn));
		/* The collapsed location holds the functions stored into the array:
		 * a, b, c at both levels (the pointer read at an unknown byte offset keeps
		 * -O2 from dropping the store of b into .g). */
		const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, heap, 0));
		assert_int_equal(sbm_count(content), 3);
		assert_string_equal(pta_collapse_cause_name(PTA_COLLAPSE_INDEX), "a variable index");
		/* What holds the callee set of t[argc].f(argc): the heap array
		 * alone, holding every function of the set; the same with the
		 * collapsed objects listed once (explain --all) as without. */
		const ir_site *call = NULL;
		for (unsigned i = 0; i < p->n_sites; i++)
			if (p->sites[i].kind == SITE_INDIRECT && p->sites[i].loc.line == 13 && !call &&
			    sbm_count(pta_value_pts(r, p->sites[i].callee_value)) == 3u)
				call = &p->sites[i];
		if (!call)
			fail_msg("%s: no call through t[argc].f at line 12", levels[l]);
		pta_collapsed list;
		pta_collapsed_init(r, &list);
		for (int pass = 0; pass < 2; pass++) {
			pta_holder hs[2];
			unsigned n = pta_collapsed_holders(r, pass ? &list : NULL, pta_value_pts(r, call->callee_value), hs, 2);
			assert_int_equal(n, 1);
			assert_int_equal(hs[0].object, heap);
			assert_int_equal(hs[0].held, 3);
			assert_int_equal(hs[0].cause, PTA_COLLAPSE_INDEX);
			assert_non_null(hs[0].stmt);
			assert_int_equal(hs[0].stmt->op, ST_GEP);
			assert_string_equal(hs[0].fn->name, "main");
		}
		assert_int_equal(pta_collapsed_holders(r, &list, NULL, NULL, 0), 0);
		pta_collapsed_free(&list);
		pta_result_free(r);
		ir_program_free(p);
	}
}

/* What feeds wide sets (issue 16.3): a copy of a run-time length moves
 * its source's fields into each of its destination's, and
 * stats --pta lists such copies by the width of their sources. append's
 * memcpy is one (its source: the global hooks and the stack slot of main's
 * pointer, 2 locations; its destination: the buffer malloc gave, collapsed,
 * one location); keep's is another (a string into a global array: 1 and 1),
 * listed after it; the 16-byte copy into `saved` goes field by field and is
 * none. Skipping the copy (pta_options.skip_copies, a measuring knob)
 * leaves the call through the buffer with no target. */
static const char copy_src[] =
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"struct buf { char *data; size_t used; };\n"
	"struct hooks { void (*on)(void); void (*off)(void); };\n"
	"static void on(void) {}\n"
	"static void off(void) {}\n"
	"struct hooks hooks = {on, off}, saved;\n"
	"char name[64];\n"
	"__attribute__((noinline)) void keep(char *dst, const char *src, size_t n)\n"
	"{\n"
	"	memcpy(dst, src, n);\n"
	"}\n"
	"__attribute__((noinline)) void append(struct buf *b, const void *data, size_t n)\n"
	"{\n"
	"	memcpy(b->data + b->used, data, n);\n"
	"	b->used += n;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	struct buf b = {malloc(256), 0};\n"
	"	append(&b, &hooks, (size_t)argc * sizeof hooks);\n"
	"	append(&b, &argv, sizeof argv + (size_t)argc);\n"
	"	memcpy(&saved, &hooks, sizeof saved);\n"
	"	keep(name, \"hooks\", (size_t)argc);\n"
	"	((struct hooks *)b.data)->on();\n"
	"	return b.data[0];\n"
	"}\n";

static void copies_of_unknown_length_are_reported(void **state)
{
	(void)state;
	const char *levels[] = {"-O0", "-O2"};
	for (int l = 0; l < 2; l++) {
		ir_program *p = compile(copy_src, levels[l]);
		pta_result *r = pta_analyze(p, NULL);
		assert_int_equal(r->n_copies, 2);
		pta_program_stats st = pta_program_stats_of(p);
		pta_program_stats_add_pta(&st, p, r);
		assert_int_equal(st.copies, 2);
		assert_int_equal(st.n_widest_copies, 2);
		assert_string_equal(st.widest_copies[0].function, "append");   /* the wider source first */
		assert_int_equal(st.widest_copies[0].at.line, 15);
		assert_int_equal(st.widest_copies[0].src_size, 2);
		assert_int_equal(st.widest_copies[0].dst_size, 1);
		assert_string_equal(st.widest_copies[1].function, "keep");
		assert_int_equal(st.widest_copies[1].at.line, 11);
		assert_int_equal(st.widest_copies[1].src_size, 1);
		assert_int_equal(st.widest_copies[1].dst_size, 1);
		/* the copy brings the hooks into the buffer: its call reaches both */
		const ir_site *call = NULL;
		for (unsigned i = 0; i < p->n_sites; i++)
			if (p->sites[i].kind == SITE_INDIRECT && p->sites[i].caller == ir_find_function(p, "main"))
				call = &p->sites[i];
		if (!call)
			fail_msg("%s: no indirect call in main", levels[l]);
		assert_int_equal(r->n_site_targets[call->id], 2);
		/* the widest set names its function */
		assert_true(st.n_widest > 0);
		assert_non_null(st.widest_function[0]);
		/* measuring what the copy adds (pta_options.skip_copies): without
		 * it nothing brings the hooks into the buffer */
		pta_options o;
		pta_options_default(&o);
		unsigned skip = st.widest_copies[0].site;
		o.skip_copies = &skip;
		o.n_skip_copies = 1;
		pta_result *r2 = pta_analyze(p, &o);
		assert_int_equal(r2->n_copies, 1);
		assert_int_equal(r2->copies[0].site, st.widest_copies[1].site);
		assert_int_equal(r2->n_site_targets[call->id], 0);
		pta_result_free(r2);
		pta_result_free(r);
		ir_program_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(variable_index_names_its_gep),
		cmocka_unit_test(copies_of_unknown_length_are_reported),
	};
	return cprog_run_tests(tmpdir, tests);
}
