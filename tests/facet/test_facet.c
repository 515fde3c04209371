/* test_facet.c — the refinement's pure parts on hand-built inputs:
 * signature compatibility and type equality (sig.h), and the derivation of
 * R+, R± and Rules-only from a provenance (facet_derive), which must follow
 * the paper's formulas exactly — abstention, precedence of warranted
 * decisions, rejected adds that only withhold — in any decision order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "facet/facet.h"
#include "facet/sig.h"

/* ---- signatures ------------------------------------------------------------------ */

static di_type t_int = {.kind = DI_BASIC, .name = "int", .size_bits = 32};
static di_type t_long = {.kind = DI_BASIC, .name = "long", .size_bits = 64};
static di_type t_item = {.kind = DI_STRUCT, .name = "item", .size_bits = 32};
static di_type t_other = {.kind = DI_STRUCT, .name = "other", .size_bits = 64};
static di_type t_anon = {.kind = DI_STRUCT, .name = NULL, .size_bits = 64};
static di_type t_item_t = {.kind = DI_TYPEDEF, .name = "item_t", .base = &t_item};
static di_type t_const_item = {.kind = DI_CONST, .base = &t_item};
static di_type t_p_item = {.kind = DI_POINTER, .base = &t_item, .size_bits = 64};
static di_type t_p_const_item = {.kind = DI_POINTER, .base = &t_const_item, .size_bits = 64};
static di_type t_p_item_t = {.kind = DI_POINTER, .base = &t_item_t, .size_bits = 64};
static di_type t_p_other = {.kind = DI_POINTER, .base = &t_other, .size_bits = 64};
static di_type t_void_p = {.kind = DI_POINTER, .base = NULL, .size_bits = 64};
static di_type t_const_void = {.kind = DI_CONST, .base = NULL};
static di_type t_const_void_p = {.kind = DI_POINTER, .base = &t_const_void, .size_bits = 64};
static di_type t_conf_t = {.kind = DI_TYPEDEF, .name = "conf_t", .base = &t_anon};
static di_type t_p_conf_t = {.kind = DI_POINTER, .base = &t_conf_t, .size_bits = 64};

static di_type *fn(di_type *ret, di_type *a, di_type *b, unsigned nparams, di_type **store)
{
	static di_type pool[32];
	static unsigned used;
	di_type *t = &pool[used++ % 32];
	memset(t, 0, sizeof *t);
	t->kind = DI_SUBROUTINE;
	store[0] = ret;
	store[1] = a;
	store[2] = b;
	t->params = store;
	t->n_params = nparams + 1;
	return t;
}

static void test_sig_compatible(void **state)
{
	(void)state;
	di_type *s1[3], *s2[3], *s3[3], *s4[3], *s5[3], *s6[3], *s7[3];
	di_type *field = fn(&t_int, &t_p_item, &t_p_item, 2, s1);
	di_type *same = fn(&t_int, &t_p_item_t, &t_p_const_item, 2, s2);    /* typedef and const: equal */
	di_type *generic = fn(&t_int, &t_const_void_p, &t_void_p, 2, s3);    /* void * is compatible */
	di_type *other = fn(&t_int, &t_p_other, &t_p_other, 2, s4);          /* concrete mismatch */
	di_type *ret = fn(&t_long, &t_p_item, &t_p_item, 2, s5);             /* return type differs */
	di_type *arity = fn(&t_int, &t_p_item, NULL, 1, s6);                 /* arity differs */
	di_type *vararg = fn(&t_int, &t_p_item, NULL, 2, s7);                /* (item *, ...) */
	assert_true(sig_compatible(same, field));
	assert_true(sig_compatible(generic, field));
	assert_false(sig_compatible(other, field));
	assert_false(sig_compatible(ret, field));
	assert_false(sig_compatible(arity, field));
	assert_false(sig_compatible(vararg, field));
	assert_true(sig_compatible(NULL, field));   /* unknown: no evidence */
	assert_true(sig_compatible(field, NULL));
	sig_cache c;
	sig_cache_init(&c);
	for (int round = 0; round < 2; round++) {   /* cold, then from the cache */
		assert_true(sig_compatible_cached(&c, same, field));
		assert_false(sig_compatible_cached(&c, other, field));
		assert_true(sig_compatible_cached(&c, generic, field));
	}
	sig_cache_free(&c);
}

/* `T ()` (unprototyped: the debug info spells it {T, null}) fits a list of
 * any length whose types survive the default argument promotions and that
 * ends in no `...` (C11 6.7.6.3p15). */
static void test_sig_unprototyped(void **state)
{
	(void)state;
	static di_type t_float = {.kind = DI_BASIC, .name = "float", .size_bits = 32};
	static di_type t_short = {.kind = DI_BASIC, .name = "short", .size_bits = 16};
	static di_type t_double = {.kind = DI_BASIC, .name = "double", .size_bits = 64};
	static di_type t_small_enum = {.kind = DI_ENUM, .name = "small", .size_bits = 8};
	di_type *s1[3], *s2[3], *s3[3], *s4[3], *s5[3], *s6[3], *s7[3], *s8[3], *s9[3];
	di_type *field = fn(&t_int, NULL, NULL, 1, s1);                  /* int () */
	di_type *one = fn(&t_int, &t_p_item, NULL, 1, s2);               /* int (item *) */
	di_type *two = fn(&t_int, &t_long, &t_double, 2, s3);            /* int (long, double) */
	di_type *fl = fn(&t_int, &t_float, NULL, 1, s4);                 /* int (float): promoted to double */
	di_type *sh = fn(&t_int, &t_p_item, &t_short, 2, s5);            /* int (item *, short) */
	di_type *en = fn(&t_int, &t_small_enum, NULL, 1, s6);            /* a packed enum: promoted */
	di_type *va = fn(&t_int, &t_p_item, NULL, 2, s7);                /* int (item *, ...) */
	di_type *ret = fn(&t_long, &t_p_item, NULL, 1, s8);              /* long (item *) */
	di_type *knr = fn(&t_int, NULL, NULL, 1, s9);                    /* another int () */
	assert_true(sig_compatible(one, field));
	assert_true(sig_compatible(two, field));
	assert_false(sig_compatible(fl, field));
	assert_false(sig_compatible(sh, field));
	assert_false(sig_compatible(en, field));
	assert_false(sig_compatible(va, field));
	assert_false(sig_compatible(ret, field));
	assert_true(sig_compatible(knr, field));
	assert_true(sig_compatible(field, two));    /* an unprototyped function, a prototyped field */
	assert_false(sig_compatible(field, sh));
}

static void test_type_equal(void **state)
{
	(void)state;
	assert_true(sig_type_equal(&t_p_item, &t_p_item_t));
	assert_true(sig_type_equal(&t_p_item, &t_p_const_item));
	assert_false(sig_type_equal(&t_p_item, &t_p_other));
	assert_false(sig_type_equal(&t_int, &t_long));
	assert_false(sig_type_equal(&t_p_item, &t_void_p));
	/* An anonymous struct takes its typedef's name. */
	assert_false(sig_type_equal(&t_p_conf_t, &t_p_item));
	assert_true(sig_type_equal(&t_p_conf_t, &t_p_conf_t));
	char buf[64];
	di_type *s[3];
	assert_string_equal(sig_text(fn(&t_void_p, &t_p_conf_t, NULL, 1, s), buf, sizeof buf), "void *(conf_t *)");
	assert_string_equal(sig_text(&t_p_const_item, buf, sizeof buf), "const struct item *");
	assert_string_equal(sig_text(&t_p_const_item, buf, 8), "cons...");
}

/* ---- derivation ------------------------------------------------------------------- */

enum { F0, F1, F2, F3, F4, NF };
enum { SITE_WIDE, SITE_NARROW, SITE_EMPTY, SITE_PRECEDENCE, NSITES };

static ir_program prog = {.n_sites = NSITES, .n_functions = NF};

static facet_decision dec(unsigned site, unsigned f, fact_kind k, fact_outcome o, facet_rule r)
{
	facet_decision d = {.site = site, .function = f, .fact = k, .outcome = o, .rule = r};
	d.premise = r == RULE_ADD_WITNESS ? PREMISE_TRUE : r == RULE_ADD_STORE ? PREMISE_BIND
	            : r == RULE_PRUNE_STORE || r == RULE_ADD_UNSTORED ? PREMISE_PROJ
	            : r == RULE_PRUNE_SIG || r == RULE_ADD_SIG ? PREMISE_SIG : PREMISE_NONE;
	return d;
}

static void expect(const cg_graph *g, unsigned site, const unsigned *want, unsigned n)
{
	assert_int_equal(g->n_targets[site], n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(g->targets[site][i], want[i]);
}

static cg_graph *r0_graph(void)
{
	cg_graph *r0 = cg_new(&prog, "r0");
	unsigned wide[] = {F0, F1, F2, F3}, narrow[] = {F0, F1, F2}, prec[] = {F0, F1, F2, F3};
	cg_set_targets(r0, SITE_WIDE, wide, 4);
	cg_set_targets(r0, SITE_NARROW, narrow, 3);
	cg_set_targets(r0, SITE_PRECEDENCE, prec, 4);
	return r0;
}

/* The provenance, in site order:
 *  WIDE: F2, F3 refuted; F0 witnessed by an initializer, F4 by a store, F1
 *        left alone; R0 \ Psym = {F0, F1}: 2 targets, abstains at τ = 2.
 *  NARROW: F0, F1 refuted by Prune-Sig; one symbolic target (F2): abstains;
 *        a residual add of F4 is not adopted.
 *  EMPTY: R0 empty; F3 witnessed (Add-Witness), F4 by a store, F1's add
 *        rejected by Add-Sig, F2 a residual add.
 *  PRECEDENCE: F0 witnessed, and an oracle's residual prune of F0 (void:
 *        the warrant wins) and of F3 (adopted); a rejected add of F1 keeps it. */
static facet_decision decisions[] = {
	{.site = SITE_WIDE}, {.site = SITE_WIDE}, {.site = SITE_WIDE}, {.site = SITE_WIDE},
	{.site = SITE_NARROW}, {.site = SITE_NARROW}, {.site = SITE_NARROW},
	{.site = SITE_EMPTY}, {.site = SITE_EMPTY}, {.site = SITE_EMPTY}, {.site = SITE_EMPTY},
	{.site = SITE_PRECEDENCE}, {.site = SITE_PRECEDENCE}, {.site = SITE_PRECEDENCE}, {.site = SITE_PRECEDENCE},
};

static void fill(void)
{
	unsigned i = 0;
	decisions[i++] = dec(SITE_WIDE, F2, FACT_PRUNE, OUTCOME_SUPPORTED, RULE_PRUNE_STORE);
	decisions[i++] = dec(SITE_WIDE, F3, FACT_PRUNE, OUTCOME_SUPPORTED, RULE_PRUNE_STORE);
	decisions[i++] = dec(SITE_WIDE, F0, FACT_ADD, OUTCOME_SUPPORTED, RULE_ADD_WITNESS);
	decisions[i++] = dec(SITE_WIDE, F4, FACT_ADD, OUTCOME_SUPPORTED, RULE_ADD_STORE);
	decisions[i++] = dec(SITE_NARROW, F0, FACT_PRUNE, OUTCOME_SUPPORTED, RULE_PRUNE_SIG);
	decisions[i++] = dec(SITE_NARROW, F1, FACT_PRUNE, OUTCOME_SUPPORTED, RULE_PRUNE_SIG);
	decisions[i++] = dec(SITE_NARROW, F4, FACT_ADD, OUTCOME_RESIDUAL, RULE_NONE);
	decisions[i++] = dec(SITE_EMPTY, F3, FACT_ADD, OUTCOME_SUPPORTED, RULE_ADD_WITNESS);
	decisions[i++] = dec(SITE_EMPTY, F4, FACT_ADD, OUTCOME_SUPPORTED, RULE_ADD_STORE);
	decisions[i++] = dec(SITE_EMPTY, F1, FACT_ADD, OUTCOME_REJECTED, RULE_ADD_SIG);
	decisions[i++] = dec(SITE_EMPTY, F2, FACT_ADD, OUTCOME_RESIDUAL, RULE_NONE);
	decisions[i++] = dec(SITE_PRECEDENCE, F0, FACT_ADD, OUTCOME_SUPPORTED, RULE_ADD_WITNESS);
	decisions[i++] = dec(SITE_PRECEDENCE, F0, FACT_PRUNE, OUTCOME_RESIDUAL, RULE_NONE);
	decisions[i++] = dec(SITE_PRECEDENCE, F3, FACT_PRUNE, OUTCOME_RESIDUAL, RULE_NONE);
	decisions[i++] = dec(SITE_PRECEDENCE, F1, FACT_ADD, OUTCOME_REJECTED, RULE_ADD_UNSTORED);
}

static void check_tau2(const cg_graph *r0, const facet_decision *d, unsigned n)
{
	cg_graph *rplus = facet_derive(&prog, r0, d, n, 2, CG_RPLUS);
	cg_graph *rpm = facet_derive(&prog, r0, d, n, 2, CG_RPM);
	cg_graph *rules = facet_derive(&prog, r0, d, n, 2, CG_RULESONLY);
	/* WIDE abstains: R+ = R0, R± = R0 \ Psym. */
	expect(rplus, SITE_WIDE, (unsigned[]){F0, F1, F2, F3}, 4);
	expect(rpm, SITE_WIDE, (unsigned[]){F0, F1}, 2);
	expect(rules, SITE_WIDE, (unsigned[]){F0, F1}, 2);
	/* NARROW abstains: no residual add. */
	expect(rpm, SITE_NARROW, (unsigned[]){F2}, 1);
	expect(rplus, SITE_NARROW, (unsigned[]){F0, F1, F2}, 3);
	/* EMPTY: R+ takes the premise-free witness only; R± every supported and
	 * residual add; the rejected add stays out. */
	expect(rplus, SITE_EMPTY, (unsigned[]){F3}, 1);
	expect(rpm, SITE_EMPTY, (unsigned[]){F2, F3, F4}, 3);
	expect(rules, SITE_EMPTY, NULL, 0);
	/* PRECEDENCE: |R0 \ Psym| = 4 > τ: the residual prune of F3 is adopted,
	 * the one of witnessed F0 is void; F1's rejected add does not remove it. */
	expect(rpm, SITE_PRECEDENCE, (unsigned[]){F0, F1, F2}, 3);
	expect(rplus, SITE_PRECEDENCE, (unsigned[]){F0, F1, F2, F3}, 4);
	cg_free(rplus);
	cg_free(rpm);
	cg_free(rules);
}

static void test_derive(void **state)
{
	(void)state;
	fill();
	cg_graph *r0 = r0_graph();
	unsigned n = sizeof decisions / sizeof *decisions;
	check_tau2(r0, decisions, n);

	/* τ = 0 never abstains: WIDE gains F4 (store) in R±, F0 is already there. */
	cg_graph *rpm0 = facet_derive(&prog, r0, decisions, n, 0, CG_RPM);
	expect(rpm0, SITE_WIDE, (unsigned[]){F0, F1, F4}, 3);
	expect(rpm0, SITE_NARROW, (unsigned[]){F2, F4}, 2);
	cg_free(rpm0);

	/* The same provenance in reverse order derives the same graphs. */
	facet_decision reversed[sizeof decisions / sizeof *decisions];
	for (unsigned i = 0; i < n; i++)
		reversed[i] = decisions[n - 1 - i];
	check_tau2(r0, reversed, n);

	/* No decisions: every graph is R0. */
	cg_graph *same = facet_derive(&prog, r0, NULL, 0, 2, CG_RPM);
	for (unsigned s = 0; s < NSITES; s++) {
		assert_int_equal(same->n_targets[s], r0->n_targets[s]);
		if (r0->n_targets[s])
			assert_memory_equal(same->targets[s], r0->targets[s], r0->n_targets[s] * sizeof(unsigned));
	}
	cg_free(same);
	cg_free(r0);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(facet_rule_name(RULE_ADD_WITNESS), "Add-Witness");
	assert_string_equal(facet_rule_name(RULE_PRUNE_SIG), "Prune-Sig");
	assert_string_equal(facet_rule_name(RULE_ADD_TYPE), "Add-Type");
	assert_string_equal(facet_rule_name(RULE_KEEP_CAST), "Keep-Cast");
	assert_string_equal(facet_rule_name(RULE_ADD_CAST), "Add-Cast");
	assert_string_equal(facet_premise_name(PREMISE_CAST), "pi_cast");
	assert_string_equal(facet_rule_name(FACET_N_RULES), "?");
	assert_string_equal(facet_rule_name(RULE_NONE), "residual");
	assert_string_equal(facet_premise_name(PREMISE_PROJ), "pi_proj");
	assert_string_equal(disp_status_name(DISP_UNRECOVERED), "unrecovered");
	assert_string_equal(disp_step_name(STEP_REBASED), "rebased");
	assert_string_equal(fact_outcome_name(OUTCOME_REJECTED), "rejected");
	assert_string_equal(assign_form_name(FORM_COPY), "copy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sig_compatible),
		cmocka_unit_test(test_sig_unprototyped),
		cmocka_unit_test(test_type_equal),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
