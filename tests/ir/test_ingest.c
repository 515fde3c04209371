/* test_ingest.c — ingest and the debug-info reader on a real compiled program.
 *
 * fixture.c is compiled by clang-22 -g at -O0 and -O2 here; every expected
 * value below comes from reading fixture.c (struct layouts on x86-64). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cg/graph.h"
#include "ir/guard.h"
#include "ir/ingest.h"
#include "../lib/cprog.h"

static const char *fixture;
static char tmpdir[] = "/tmp/facet-test-ingest-XXXXXX";

static ir_program *compile_and_ingest(const char *level)
{
	char bc[512];
	snprintf(bc, sizeof bc, "%s/fixture%s.bc", tmpdir, level);
	cprog_compile(fixture, bc, level);
	ingest_warnings w = {0};
	ingest_options opt = {.verify = true};
	ir_program *p = cprog_ingest(bc, &opt, &w);
	assert_int_equal(w.n, 0);
	return p;
}

/* True when loc names the fixture: clang may record the path relative to its
 * compilation directory, so join the two before comparing. */
static void assert_fixture_file(const ir_loc *loc)
{
	char full[1024];
	assert_non_null(loc->file);
	if (loc->file[0] == '/' || !loc->dir)
		snprintf(full, sizeof full, "%s", loc->file);
	else
		snprintf(full, sizeof full, "%s/%s", loc->dir, loc->file);
	char *a = realpath(full, NULL), *b = realpath(fixture, NULL);
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static ir_function *fn(ir_program *p, const char *name)
{
	ir_function *f = ir_find_function(p, name);
	if (!f)
		fail_msg("function %s not in the model", name);
	return f;
}

static const ir_init_slot *slot_at(const ir_global *g, uint64_t offset)
{
	for (unsigned i = 0; i < g->n_slots; i++)
		if (g->slots[i].offset == offset)
			return &g->slots[i];
	fail_msg("global %s has no initializer slot at offset %llu", g->name, (unsigned long long)offset);
	return NULL;
}

static const di_member *member(const di_type *t, const char *name)
{
	for (unsigned i = 0; i < t->n_members; i++)
		if ((name == NULL && t->members[i].name == NULL) ||
		    (name && t->members[i].name && strcmp(t->members[i].name, name) == 0))
			return &t->members[i];
	fail_msg("type %s has no member %s", t->name ? t->name : "(anonymous)", name ? name : "(anonymous)");
	return NULL;
}

static const ir_site *site_at_line(ir_program *p, const char *caller, unsigned line, site_kind kind)
{
	ir_function *f = fn(p, caller);
	for (unsigned i = 0; i < f->n_sites; i++) {
		const ir_site *s = &p->sites[f->first_site + i];
		if (s->loc.line == line && s->kind == kind)
			return s;
	}
	fail_msg("no %s site in %s at line %u", site_kind_name(kind), caller, line);
	return NULL;
}

/* Facts that hold at every optimisation level. */
static void check_common(ir_program *p)
{
	assert_true(p->has_debug_info);
	assert_int_equal(p->pointer_size, 8);

	/* Functions: linkage, definition, address taken (stored in initializers). */
	assert_true(ir_linkage_is_local(fn(p, "on_a")->linkage));
	assert_true(fn(p, "on_a")->address_taken);
	assert_true(fn(p, "on_b")->address_taken);
	assert_true(fn(p, "base_init")->address_taken);
	assert_false(fn(p, "main")->address_taken);
	assert_true(fn(p, "main")->defined);
	assert_false(fn(p, "malloc")->defined);
	assert_fixture_file(&fn(p, "on_a")->loc);
	assert_int_equal(fn(p, "on_a")->loc.line, 27);
	assert_int_equal(fn(p, "dispatch")->loc.line, 36);

	/* main's declared signature: int (int, char **). */
	di_type *sig = fn(p, "main")->di_sig;
	assert_non_null(sig);
	assert_int_equal(sig->kind, DI_SUBROUTINE);
	assert_int_equal(sig->n_params, 3);
	assert_string_equal(sig->params[0]->name, "int");
	assert_string_equal(sig->params[1]->name, "int");
	assert_int_equal(di_strip(sig->params[2])->kind, DI_POINTER);

	/* ops_table: anon_ops[2], each {int kind; handler_fn on_event;} = 16 bytes. */
	ir_global *ops = ir_find_global(p, "ops_table");
	assert_non_null(ops);
	assert_int_equal(ops->size, 32);
	assert_int_equal(ops->n_slots, 2);
	assert_ptr_equal(slot_at(ops, 8)->function, fn(p, "on_a"));
	assert_ptr_equal(slot_at(ops, 24)->function, fn(p, "on_b"));
	assert_non_null(ops->var);
	di_type *arr = di_strip(ops->var->type);
	assert_int_equal(arr->kind, DI_ARRAY);
	assert_int_equal(arr->n_dims, 1);
	assert_int_equal(arr->dims[0], 2);
	assert_int_equal(arr->base->kind, DI_TYPEDEF);
	assert_string_equal(arr->base->name, "anon_ops");
	di_type *anon = di_strip(arr->base);         /* the anonymous struct behind the typedef */
	assert_int_equal(anon->kind, DI_STRUCT);
	assert_null(anon->name);
	assert_int_equal(anon->size_bits, 128);
	assert_int_equal(member(anon, "on_event")->offset_bits, 64);
	assert_true(di_is_function_pointer(member(anon, "on_event")->type));
	assert_false(di_is_function_pointer(member(anon, "kind")->type));

	/* proto: struct derived {struct base pub; char tag[12]; union {...} u; struct derived *next;} */
	ir_global *proto = ir_find_global(p, "proto");
	assert_non_null(proto);
	assert_int_equal(proto->size, 48);
	assert_ptr_equal(slot_at(proto, 0)->function, fn(p, "base_init"));
	assert_ptr_equal(slot_at(proto, 32)->function, fn(p, "on_a"));
	di_type *derived = di_strip(proto->var->type);
	assert_string_equal(derived->name, "derived");
	assert_int_equal(derived->size_bits, 384);
	const di_member *pub = member(derived, "pub");
	assert_int_equal(pub->offset_bits, 0);
	assert_string_equal(di_strip(pub->type)->name, "base");
	assert_true(di_is_function_pointer(member(di_strip(pub->type), "init")->type));
	assert_int_equal(member(derived, "tag")->offset_bits, 128);
	assert_int_equal(di_strip(member(derived, "tag")->type)->kind, DI_ARRAY);
	const di_member *u = member(derived, "u");
	assert_int_equal(u->offset_bits, 256);
	di_type *uni = di_strip(u->type);
	assert_int_equal(uni->kind, DI_UNION);
	assert_null(uni->name);
	assert_true(di_is_function_pointer(member(uni, "as_int")->type));
	assert_true(di_is_function_pointer(member(uni, "as_void")->type));
	assert_int_equal(member(derived, "next")->offset_bits, 320);
	/* The self-reference closes the cycle on the same node. */
	assert_ptr_equal(di_strip(di_strip(member(derived, "next")->type)->base), derived);

	ir_global *gh = ir_find_global(p, "global_handler");
	assert_ptr_equal(slot_at(gh, 0)->function, fn(p, "on_b"));

	/* Call sites. */
	const ir_site *s = site_at_line(p, "main", 48, SITE_INDIRECT);
	assert_int_equal(s->loc.col, 2);
	assert_string_equal(s->call_type, "void (ptr)");
	site_at_line(p, "main", 50, SITE_ASM);
	for (unsigned i = 0; i < p->n_sites; i++)
		assert_int_equal(p->sites[i].id, i);
}

static void ingest_O0(void **state)
{
	(void)state;
	ir_program *p = compile_and_ingest("-O0");
	check_common(p);
	assert_false(fn(p, "unused_static")->address_taken);
	const ir_site *s = site_at_line(p, "dispatch", 38, SITE_INDIRECT);
	assert_int_equal(s->loc.col, 9);
	assert_int_equal(s->n_inlined, 0);
	assert_string_equal(s->call_type, "i32 (ptr, i32)");
	/* The same type as data: the analyses compare these, never the text. */
	const ir_fn_type *ct = s->call_fn_type;
	assert_ptr_equal(ct->text, s->call_type);
	assert_string_equal(ct->ret, "i32");
	assert_int_equal(ct->n_params, 2);
	assert_string_equal(ct->params[0], "ptr");
	assert_string_equal(ct->params[1], "i32");
	assert_false(ct->vararg);
	assert_true(ct->mentions_pointer);
	assert_ptr_equal(fn(p, "dispatch")->fn_type->text, fn(p, "dispatch")->ir_type);
	site_at_line(p, "main", 49, SITE_INDIRECT);   /* global_handler(0, 3) */
	const ir_site *d = site_at_line(p, "main", 49, SITE_DIRECT);
	assert_ptr_equal(d->callee, fn(p, "dispatch"));

	/* At -O0 `ops` lives in a stack slot: #dbg_declare, empty expression, parameter 1. */
	ir_function *disp = fn(p, "dispatch");
	bool found = false;
	for (unsigned i = 0; i < p->n_bindings; i++) {
		const ir_dbg_binding *b = &p->bindings[i];
		if (b->function != disp || strcmp(b->var->name, "ops") != 0)
			continue;
		found = true;
		assert_true(b->declare);
		assert_true(b->empty_expr);
		assert_int_equal(b->var->arg, 1);
		di_type *t = di_strip(b->var->type);
		assert_int_equal(t->kind, DI_POINTER);
		assert_string_equal(t->base->name, "anon_ops");
	}
	assert_true(found);

	cg_graph *g = cg_direct(p);
	assert_int_equal(g->n_targets[d->id], 1);
	assert_int_equal(g->targets[d->id][0], fn(p, "dispatch")->id);
	assert_int_equal(g->n_targets[s->id], 0);
	cg_free(g);
	ir_program_free(p);
}

static void ingest_O2(void **state)
{
	(void)state;
	ir_program *p = compile_and_ingest("-O2");
	check_common(p);
	/* dispatch is inlined into main: its indirect call appears in main with
	 * the chain pointing at main's line 49. */
	ir_function *m = fn(p, "main");
	bool inlined = false;
	for (unsigned i = 0; i < m->n_sites; i++) {
		const ir_site *s = &p->sites[m->first_site + i];
		if (s->kind == SITE_INDIRECT && s->loc.line == 38) {
			inlined = true;
			assert_int_equal(s->n_inlined, 1);
			assert_string_equal(s->inlined_at[0].function, "main");
			assert_int_equal(s->inlined_at[0].loc.line, 49);
			assert_fixture_file(&s->inlined_at[0].loc);
		}
	}
	assert_true(inlined);

	/* At -O2 the parameter is bound by #dbg_value on the argument itself. */
	ir_function *disp = fn(p, "dispatch");
	bool found = false;
	for (unsigned i = 0; i < p->n_bindings; i++) {
		const ir_dbg_binding *b = &p->bindings[i];
		if (b->function == disp && strcmp(b->var->name, "ops") == 0 && b->value == disp->first_arg) {
			found = true;
			assert_false(b->declare);
			assert_true(b->empty_expr);
		}
	}
	assert_true(found);
	ir_program_free(p);
}

static void ingest_bad_inputs(void **state)
{
	(void)state;
	char path[512];
	facet_error err = {0};
	snprintf(path, sizeof path, "%s/garbage.bc", tmpdir);
	FILE *f = fopen(path, "w");
	fputs("this is not bitcode\n", f);
	fclose(f);
	const char *paths[] = {path};
	assert_null(ir_ingest(paths, 1, NULL, NULL, &err));
	assert_non_null(strstr(err.msg, path));

	error_clear(&err);
	const char *missing[] = {"/nonexistent/x.bc"};
	assert_null(ir_ingest(missing, 1, NULL, NULL, &err));
	assert_non_null(strstr(err.msg, "/nonexistent/x.bc"));

	error_clear(&err);
	assert_null(ir_ingest(paths, 0, NULL, NULL, &err));
	assert_true(err.set);

	/* IR that does not verify, without the "Debug Info Version" flag: LLVM's
	 * reader does not verify it (with the current flag it does, and a
	 * failure there ends the process: tests/hostile checks that), so
	 * facet's own verifier must run and refuse it. */
	snprintf(path, sizeof path, "%s/bad.ll", tmpdir);
	f = fopen(path, "w");
	fputs("define i32 @f() {\nentry:\n  %a = add i32 %b, 1\n  %b = add i32 1, 1\n  ret i32 %a\n}\n", f);
	fclose(f);
	ingest_options verify = {.verify = true};
	error_clear(&err);
	assert_null(ir_ingest(paths, 1, &verify, NULL, &err));
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "invalid module"));
}

/* A reader that loops (LLVM 22's metadata loader does on some corrupt
 * modules) is stopped by the guard's CPU budget: here a loop standing for
 * the reader, under a budget of a fraction of a second plus nothing per
 * MiB, in the isolated child guard_run_child gives; the message names the
 * file and says the reader did not finish. A guard that ends in time
 * leaves nothing armed: the same child spins a while after guard_end. */
static volatile unsigned long spin_sink;

static void spin(double seconds)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			spin_sink += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

static bool loops_under_guard(void *arg, facet_error *err)
{
	(void)err;
	guard_set_cpu_budget(0.3, 0);
	guard_begin((const char *)arg, "not valid LLVM bitcode or IR");
	spin(30);   /* the budget stops it long before */
	guard_end();
	return true;
}

static bool ends_in_time(void *arg, facet_error *err)
{
	(void)err;
	guard_set_cpu_budget(0.3, 0);
	guard_begin((const char *)arg, "not valid LLVM bitcode or IR");
	guard_end();
	spin(0.6);   /* past the budget, with no guard up */
	return true;
}

static void guard_stops_a_loop(void **state)
{
	(void)state;
	facet_error err = {0};
	assert_false(guard_run_child(loops_under_guard, "/tmp/looping.bc", "/tmp/looping.bc", &err));
	assert_non_null(strstr(err.msg, "/tmp/looping.bc"));
	assert_non_null(strstr(err.msg, "did not finish"));
	error_clear(&err);
	assert_true(guard_run_child(ends_in_time, "/tmp/looping.bc", "/tmp/looping.bc", &err));
	assert_false(err.set);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_ingest FIXTURE.c\n");
		return 2;
	}
	fixture = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ingest_O0),
		cmocka_unit_test(ingest_O2),
		cmocka_unit_test(ingest_bad_inputs),
		cmocka_unit_test(guard_stops_a_loop),
	};
	return cprog_run_tests(tmpdir, tests);
}
