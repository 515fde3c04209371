/* asmcall.h — the calls an x86-64 inline asm statement's text makes.
 *
 * C code calls functions from inline asm where the call must be patchable:
 * the kernel's paravirt ops (`call *%[paravirt_opptr]` with the operand
 * `"m" (pv_ops.mmu.flush_tlb_multi)`: a call through the function pointer
 * that memory holds), its alternatives (`call %c[old]` / `call %c[new]`
 * with `"i"` function operands: both may run), and plain `call NAME`
 * (a replacement's placeholder). LLVM keeps such a statement as one call
 * of an inline asm value; this module reads its template (AT&T syntax,
 * LLVM's `$N` / `${N:mod}` operand references) and constraint string and
 * says which calls it makes and through which operand, so ingest can add a
 * call site for each (model.h, ir_site.asm_call).
 *
 * Read: `call`/`callq` (and `jmp`/`jmpq`, a tail call, when its target is
 * an operand or a named function) whose whole operand is `*OP` (the
 * operand's value is the target; memory operands are loaded from), `OP`
 * (an immediate or register operand: its value) or `NAME`. Anything else
 * after a `call` (a literal register, `*(%rax)`, `thunk_${N:V}`) is
 * counted as not read. The x86-64 argument registers an input operand is
 * placed in give the call's arguments, an output in rax its result. */
#ifndef FACET_IR_ASMCALL_H
#define FACET_IR_ASMCALL_H

#include <stdbool.h>
#include <stddef.h>

#define ASM_CALLS_MAX 8
#define ASM_ABI_ARGS 6   /* rdi, rsi, rdx, rcx, r8, r9 */

typedef enum asm_call_form {
	ASM_CALL_VALUE,    /* the operand's value is the target (`call %c[fn]`, `call *%[reg]`) */
	ASM_CALL_MEMORY,   /* the target is loaded from the memory operand (`call *%[mem]`) */
	ASM_CALL_SYMBOL,   /* a name in the text (`call fn`) */
} asm_call_form;

typedef struct asm_call {
	asm_call_form form;
	bool jump;                 /* jmp: a tail call */
	unsigned arg;              /* VALUE, MEMORY: the call argument the operand is */
	const char *name;          /* SYMBOL: the name, in the template (not terminated) */
	size_t name_len;
} asm_call;

typedef struct asm_calls {
	asm_call calls[ASM_CALLS_MAX];
	unsigned n_calls;
	unsigned unread;           /* `call`s whose target none of the forms above reads */
	int abi_arg[ASM_ABI_ARGS]; /* the call argument placed in each argument register, -1 for none */
	bool returns;              /* an output operand is in rax */
} asm_calls;

/* Reads template tmpl (tlen bytes) with constraint string cons (clen
 * bytes) into out. False when the constraints are malformed or the
 * template names an operand they do not have: then out says nothing. */
bool asm_calls_read(const char *tmpl, size_t tlen, const char *cons, size_t clen, asm_calls *out);

#endif
