/* test_sections.c — ir/sections.h: the module-asm reader and the bound
 * rules on a real compiled program (a C unit with functions f, g and
 * globals placed in sections), then hostile asm text: every input is read
 * without a crash, and what is not understood is counted, never guessed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/sections.h"
#include "../lib/cprog.h"

static char tmpdir[] = "/tmp/facet-test-sections-XXXXXX";

/* f and g are defined; tramp only declared (an asm body); __start_hooks,
 * __stop_hooks, __lvl0_start, __lvl_end and tbl/tbl_end only declared;
 * hook_f and hook_g sit in section "hooks", plain in none. */
static const char program[] =
	"typedef int (*fn)(void);\n"
	"int f(void) { return 1; }\n"
	"int g(void) { return 2; }\n"
	"int tramp(void);\n"
	"__attribute__((used, section(\"hooks\"))) fn hook_f = f;\n"
	"__attribute__((used, section(\"hooks\"))) fn hook_g = g;\n"
	"fn plain = f;\n"
	"extern fn __start_hooks[], __stop_hooks[];\n"
	"extern int __lvl0_start[], __lvl_end[], tbl[], tbl_end[];\n"
	"__attribute__((used)) void *refs[] = {__start_hooks, __stop_hooks, __lvl0_start, __lvl_end, tbl, tbl_end};\n"
	"int use(void) { return tramp(); }\n";

static ir_program *program_model(void)
{
	return cprog_from_source(tmpdir, program, "-O0");
}

static void reset_asm(ir_program *p)
{
	p->asm_entries = NULL;
	p->n_asm_entries = 0;
	memset(&p->module_asm, 0, sizeof p->module_asm);
}

static void asm_entries_read(void **state)
{
	(void)state;
	ir_program *p = program_model();
	static const char text[] =
		".pushsection \".lvl0.init\", \"a\"\n"
		"\t.long f - .\n"
		"x1: .long g-. ; .quad g\n"       /* a label, `;`-separated statements */
		".popsection\n"
		".section .data.tbl,\"aw\"\n"
		".8byte (f) + 8, plain\n"          /* parentheses and an addend; a global */
		".previous\n"
		"tramp:\n\tjmp f   # a comment naming g\n"
		".long f * 2, unknown_sym, 12\n";  /* not understood; no module symbol; a number */
	ir_sections_parse_asm(p, text, sizeof text - 1);
	assert_int_equal(p->n_asm_entries, 5);
	assert_string_equal(p->asm_entries[0].section, ".lvl0.init");
	assert_ptr_equal(p->asm_entries[0].function, ir_find_function(p, "f"));
	assert_true(p->asm_entries[0].relative);
	assert_ptr_equal(p->asm_entries[1].function, ir_find_function(p, "g"));
	assert_true(p->asm_entries[1].relative);
	assert_false(p->asm_entries[2].relative);
	assert_string_equal(p->asm_entries[3].section, ".data.tbl");
	assert_ptr_equal(p->asm_entries[3].function, ir_find_function(p, "f"));
	assert_false(p->asm_entries[3].relative);
	assert_ptr_equal(p->asm_entries[4].global, ir_find_global(p, "plain"));
	assert_int_equal(p->module_asm.entries, 5);
	assert_int_equal(p->module_asm.unparsed, 1);
	assert_int_equal(p->module_asm.function_labels, 1);   /* tramp: */
	assert_true(ir_find_function(p, "tramp")->trampoline);  /* jmp f */
	assert_ptr_equal(ir_find_function(p, "tramp")->tramp_initial, ir_find_function(p, "f"));
	/* Back to the default section after .previous: the last statements are in .text. */
	ir_program_free(p);
}

static void bounds_found(void **state)
{
	(void)state;
	ir_program *p = program_model();
	static const char text[] = ".section .lvl0.init,\"a\"\n.long f - .\n.section .lvl1.init\n.long g - .\n"
	                           ".section .tbl.x\n.quad g\n";
	ir_sections_parse_asm(p, text, sizeof text - 1);
	ir_sections_bind(p);
	ir_global *start = ir_find_global(p, "__start_hooks"), *lvl0 = ir_find_global(p, "__lvl0_start");
	ir_global *lvl_end = ir_find_global(p, "__lvl_end"), *tbl = ir_find_global(p, "tbl");
	ir_section_bound *b = p->bound_of_global[start->id];
	assert_non_null(b);
	assert_false(b->by_stem);
	assert_int_equal(b->n_members, 2);
	assert_int_equal(b->n_entries, 0);
	assert_non_null(p->bound_of_global[ir_find_global(p, "__stop_hooks")->id]);
	b = p->bound_of_global[lvl0->id];
	assert_non_null(b);
	assert_true(b->by_stem);
	assert_int_equal(b->n_entries, 1);   /* .lvl0.init only */
	assert_ptr_equal(b->entries[0]->function, ir_find_function(p, "f"));
	assert_int_equal(p->bound_of_global[lvl_end->id]->n_entries, 2);   /* stem "lvl": both levels */
	/* tbl has no suffix, but tbl_end is declared: stem "tbl" bounds .tbl.x. */
	assert_non_null(p->bound_of_global[tbl->id]);
	assert_int_equal(p->bound_of_global[tbl->id]->n_entries, 1);
	assert_int_equal(p->n_bounds, 6);
	/* Defined globals never bound anything. */
	assert_null(p->bound_of_global[ir_find_global(p, "plain")->id]);
	ir_program_free(p);
}

static void bound_rules(void **state)
{
	(void)state;
	bool stem;
	assert_true(ir_section_bounds("__start_hooks", "hooks", false, &stem) && !stem);
	assert_false(ir_section_bounds("__start_hooks", "hooks2", false, &stem));
	assert_true(ir_section_bounds("__initcall6_start", ".initcall6s.init", false, &stem) && stem);
	assert_false(ir_section_bounds("__initcall6_start", ".initcall7.init", false, &stem));
	assert_true(ir_section_bounds("__setup_start", ".init.setup", false, &stem));
	assert_false(ir_section_bounds("_end", ".end", false, &stem));        /* empty stem */
	assert_false(ir_section_bounds("__ab_start", ".ab.x", false, &stem)); /* stem under 3 characters */
	assert_false(ir_section_bounds("jiffies", ".jiffies", false, &stem)); /* no suffix, no sibling */
	assert_true(ir_section_bounds("jiffies", ".jiffies", true, &stem));
}

static void reset_trampoline(ir_program *p)
{
	reset_asm(p);
	ir_function *t = ir_find_function(p, "tramp");
	t->trampoline = false;
	t->tramp_initial = NULL;
}

/* Reads text as the module asm; the trampoline's initial function's name
 * ("" for none) when tramp became one, NULL when not. */
static const char *trampoline_of(ir_program *p, const char *text)
{
	reset_trampoline(p);
	ir_sections_parse_asm(p, text, strlen(text));
	ir_function *t = ir_find_function(p, "tramp");
	if (!t->trampoline)
		return NULL;
	assert_int_equal(p->module_asm.trampolines, 1);
	return t->tramp_initial ? t->tramp_initial->name : "";
}

/* The trampoline forms (sections.h), the kernel's own first (an annotation
 * pushed in between, the rel32 jmp as bytes, a ud2 after), and what is not
 * one; then the call in use() becomes an indirect site. */
static void trampolines_read(void **state)
{
	(void)state;
	ir_program *p = program_model();
	assert_string_equal(trampoline_of(p, ".pushsection .static_call.text, \"ax\"\n.align 4\n.globl tramp\ntramp:\n"
	                                     "986: \n\t.pushsection .discard.noendbr\n\t.long 986b\n\t.popsection\n"
	                                     "\t.byte 0xe9; .long g - (. + 4)\n.byte 0x0f, 0xb9, 0xcc\n"
	                                     ".type tramp, @function\n.popsection\n"),
	                    "g");
	assert_int_equal(p->module_asm.unparsed, 0);   /* the jmp's operand is the body's, not data */
	assert_string_equal(trampoline_of(p, ".text\ntramp:\n\tret; int3; nop; nop; nop\n"), "");
	assert_string_equal(trampoline_of(p, "tramp: jmp f\n"), "f");
	assert_string_equal(trampoline_of(p, "tramp: jmp elsewhere\n"), "");   /* not a module function */
	assert_string_equal(trampoline_of(p, "tramp:\n.byte 0xE9\n.4byte  f-( . +4 )\n"), "f");
	static const char *const not_one[] = {
		"tramp: jmp *%rax\n",                     /* an indirect jump: a retpoline-style body */
		"tramp: mov %rdi, %rax\njmp f\n",          /* another instruction first */
		"tramp: jmp f + 4\n",
		"tramp: retq $8\n",
		"tramp: .byte 0x0f, 0x0b\n",
		"tramp: .byte 0xe9\n.long f - (. + 5)\n",
		"tramp: .byte 0xe9\n.long f - (. + 4) + 1\n",
		"tramp: .byte 0xe9\n.long f - (. + 4\n",
		"tramp: .byte 0xe9\n.long - (. + 4)\n",
		"tramp: .byte 0xe9\nnop\n",
		"tramp: .byte 0xe9",                        /* the text ends */
		"tramp:",
		"f: jmp g\n",                              /* f is defined: its body is the IR's */
		".pushsection x\ntramp:\n.popsection\njmp f\n",   /* the jmp is in another section */
	};
	for (size_t i = 0; i < sizeof not_one / sizeof *not_one; i++) {
		const char *got = trampoline_of(p, not_one[i]);
		if (got)
			fail_msg("not a trampoline, yet read as one (to '%s'): %s", got, not_one[i]);
	}
	assert_string_equal(trampoline_of(p, "tramp: jmp f\n"), "f");
	ir_site *call = NULL;
	for (unsigned i = 0; i < p->n_sites; i++)
		if (p->sites[i].kind == SITE_DIRECT && p->sites[i].callee == ir_find_function(p, "tramp"))
			call = &p->sites[i];
	assert_non_null(call);
	ir_sections_trampoline_calls(p);
	assert_int_equal(call->kind, SITE_INDIRECT);
	assert_ptr_equal(call->trampoline, ir_find_function(p, "tramp"));
	assert_null(call->callee);
	assert_int_equal(p->module_asm.trampoline_calls, 1);
	ir_program_free(p);
}

/* Hostile text: unterminated quotes and sections, unbalanced pops, deep
 * pushes, empty directives, NUL bytes inside the length, a huge line. */
static void hostile_asm(void **state)
{
	(void)state;
	ir_program *p = program_model();
	static const char *const texts[] = {
		".section \"unterminated\n.long f - .\n",
		".popsection\n.popsection\n.previous\n.long g\n",
		".long\n.quad ,,,\n.long (\n.long f -\n.long - .\n.long f - . - .\n.long f + + 1\n",
		":::\n.section\n.pushsection\n.section \"\"\n.long f\n",
		"f:g:.long f;;;;\n#.long f\n\"#\".long g",
		"tramp:\n.byte\n.byte 0xe9,\n.long\n",
		"tramp: .byte 0xe9\n.long f - (\n",
		"tramp: .byte 0xe9\n.long f - ( . + 99999999999999999999999 )\n",
		"tramp: jmp\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		reset_asm(p);
		ir_sections_parse_asm(p, texts[i], strlen(texts[i]));
	}
	reset_asm(p);
	char deep[64 * 200 + 64];
	size_t n = 0;
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(deep + n, sizeof deep - n, ".pushsection s%d\n", i);
	n += (size_t)snprintf(deep + n, sizeof deep - n, ".long f - .\n");
	ir_sections_parse_asm(p, deep, n);
	assert_int_equal(p->n_asm_entries, 1);
	reset_asm(p);
	static const char with_nul[] = ".long f\0.long g\n";
	ir_sections_parse_asm(p, with_nul, sizeof with_nul - 1);   /* reads up to the NUL */
	assert_int_equal(p->n_asm_entries, 1);
	reset_asm(p);
	size_t big = 1 << 20;
	char *huge = malloc(big + 16);
	assert_non_null(huge);
	memset(huge, 'x', big);
	memcpy(huge + big, ".long f\n", 9);
	ir_sections_parse_asm(p, huge, big + 8);
	free(huge);
	ir_sections_parse_asm(p, NULL, 0);
	ir_sections_bind(p);
	ir_program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(asm_entries_read),
		cmocka_unit_test(bounds_found),
		cmocka_unit_test(bound_rules),
		cmocka_unit_test(trampolines_read),
		cmocka_unit_test(hostile_asm),
	};
	return cprog_run_tests(tmpdir, tests);
}
