/* test_asmcall.c — ir/asmcall.h: the calls inline asm text makes, on the
 * forms the kernel writes (templates and constraints as clang-22 leaves
 * them in the IR), then hostile text: malformed constraints and operand
 * numbers past them are refused, never guessed, and nothing crashes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ir/asmcall.h"

static bool read_text(const char *t, const char *c, asm_calls *out)
{
	return asm_calls_read(t, strlen(t), c, strlen(c), out);
}

/* paravirt: `call *$5` through the "*m" operand 5, which is call argument 0
 * (outputs 0..4 are direct); the replacement's `call BUG_func` by name;
 * inputs in {di} and {si} are the callee's first two arguments. */
static void paravirt_call(void **state)
{
	(void)state;
	asm_calls ac;
	const char *t = "# ALT: oldinstr\n771:\n\t999:\n\t.pushsection .discard.retpoline_safe\n\t.long 999b\n"
	                "\t.popsection\n\tcall *$5;\n772:\n.pushsection .altinstr_replacement, \"ax\"\n"
	                "# ALT: replacement\n774:\n\tcall BUG_func\n775:\n.popsection\n";
	const char *c = "={di},={si},={dx},={cx},={rsp},*m,{di},{si},{rsp},~{memory},~{cc},~{rax},~{dirflag}";
	assert_true(read_text(t, c, &ac));
	assert_int_equal(ac.n_calls, 2);
	assert_int_equal(ac.calls[0].form, ASM_CALL_MEMORY);
	assert_int_equal(ac.calls[0].arg, 0);
	assert_false(ac.calls[0].jump);
	assert_int_equal(ac.calls[1].form, ASM_CALL_SYMBOL);
	assert_int_equal(ac.calls[1].name_len, strlen("BUG_func"));
	assert_memory_equal(ac.calls[1].name, "BUG_func", strlen("BUG_func"));
	assert_int_equal(ac.abi_arg[0], 1);
	assert_int_equal(ac.abi_arg[1], 2);
	assert_int_equal(ac.abi_arg[2], -1);
	assert_false(ac.returns);
	assert_int_equal(ac.unread, 0);
}

/* alternative_call: two "i" operands, `${1:c}` and `${2:c}`; the output in
 * rax is the result, the tied input 3 ("0") sits in rax too. */
static void alternative_call(void **state)
{
	(void)state;
	asm_calls ac;
	assert_true(read_text("771:\n\tcall ${1:c}\n772:\n.pushsection .altinstr_replacement\n\tcall ${2:c}\n",
	                      "={ax},i,i,0,{di},~{memory}", &ac));
	assert_int_equal(ac.n_calls, 2);
	assert_int_equal(ac.calls[0].form, ASM_CALL_VALUE);
	assert_int_equal(ac.calls[0].arg, 0);
	assert_int_equal(ac.calls[1].form, ASM_CALL_VALUE);
	assert_int_equal(ac.calls[1].arg, 1);
	assert_true(ac.returns);
	assert_int_equal(ac.abi_arg[0], 3);
}

/* A register operand, with `notrack` and `callq`; a jmp tail call through
 * an operand; jmps to local labels and asm goto labels are no calls; a
 * literal register and a thunk named through an operand are counted. */
static void other_forms(void **state)
{
	(void)state;
	asm_calls ac;
	assert_true(read_text("notrack callq *$0\n\tjmp 1f\n\tjmp ${1:l}\n1:\tjmpq *$0\n",
	                      "r,!i,~{memory}", &ac));
	assert_int_equal(ac.n_calls, 2);
	assert_int_equal(ac.calls[0].form, ASM_CALL_VALUE);
	assert_false(ac.calls[0].jump);
	assert_true(ac.calls[1].jump);
	assert_int_equal(ac.unread, 0);
	assert_true(read_text("call *%rax; call __x86_indirect_thunk_${0:V}; call *${0}+8; lcall $$1, $$2",
	                      "r", &ac));
	assert_int_equal(ac.n_calls, 0);
	assert_int_equal(ac.unread, 3);
	/* `call fn@PLT`, a comment after the name, `$$` (a literal dollar) */
	assert_true(read_text("call fn@PLT # why\n\tmovq $$1, %rax", "", &ac));
	assert_int_equal(ac.n_calls, 1);
	assert_int_equal(ac.calls[0].name_len, 2);
}

/* Hostile text: an operand past the constraints, a tie to a later operand,
 * an unterminated register or reference, more calls than ASM_CALLS_MAX,
 * empty and NUL-free buffers read only within their length. */
static void hostile(void **state)
{
	(void)state;
	asm_calls ac;
	assert_false(read_text("call *$3", "r,r", &ac));
	assert_int_equal(ac.n_calls, 0);
	assert_false(read_text("call *$0", "r,1,r", &ac));
	assert_false(read_text("call *$0", "{di", &ac));
	assert_false(read_text("call *$99999999999999999999", "r", &ac));
	assert_true(read_text("call *${0", "r", &ac));
	assert_int_equal(ac.unread, 1);
	assert_true(read_text("", "", &ac));
	assert_int_equal(ac.n_calls, 0);
	assert_true(read_text(",,,", ",,~,=", &ac));
	char many[1024] = "";
	for (int i = 0; i < ASM_CALLS_MAX + 3; i++)
		strcat(many, "call f\n");
	assert_true(read_text(many, "", &ac));
	assert_int_equal(ac.n_calls, ASM_CALLS_MAX);
	assert_int_equal(ac.unread, 3);
	const char cut[] = {'c', 'a', 'l', 'l', ' ', '*', '$'};   /* no NUL: ends inside a reference */
	assert_true(asm_calls_read(cut, sizeof cut, "r", 1, &ac));
	assert_int_equal(ac.n_calls, 0);
	char cons[600] = "";
	for (int i = 0; i < 200; i++)
		strcat(cons, "r,");
	assert_false(read_text("nop", cons, &ac));   /* more operands than the reader holds */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paravirt_call),
		cmocka_unit_test(alternative_call),
		cmocka_unit_test(other_forms),
		cmocka_unit_test(hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
