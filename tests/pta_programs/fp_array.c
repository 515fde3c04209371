/* fp_array.c — a stack-machine interpreter: each opcode indexes a constant
 * dispatch table of handlers; tracing hooks live in a second table that is
 * indexed only by constants.
 *
 * Covers: an array of function pointers indexed by a variable (the site
 * gets every element); constant indexes into an array that is never
 * indexed by a variable (one element each); a constant index into the
 * variably indexed dispatch table (see the comment at that site).
 *
 * Every handler, hook and the error path have the same IR type, void (ptr).
 *
 * Usage: fp_array   (runs vm_program) */
#include <stdio.h>
#include "observe.h"

enum { OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_PRINT, OP_HALT, NOPS };

struct vm {
	long stack[16];
	int sp;
	const int *pc;
	int running;
	long steps;
};

typedef void (*op_fn)(struct vm *vm);

static void op_push(struct vm *vm)
{
	OBSERVE_TARGET();
	vm->stack[vm->sp++] = *vm->pc++;
}

static void op_add(struct vm *vm)
{
	OBSERVE_TARGET();
	vm->sp--;
	vm->stack[vm->sp - 1] += vm->stack[vm->sp];
}

static void op_mul(struct vm *vm)
{
	OBSERVE_TARGET();
	vm->sp--;
	vm->stack[vm->sp - 1] *= vm->stack[vm->sp];
}

static void op_dup(struct vm *vm)
{
	OBSERVE_TARGET();
	vm->stack[vm->sp] = vm->stack[vm->sp - 1];
	vm->sp++;
}

static void op_print(struct vm *vm)
{
	OBSERVE_TARGET();
	printf("%ld\n", vm->stack[vm->sp - 1]);
}

static void op_halt(struct vm *vm)
{
	OBSERVE_TARGET();
	vm->running = 0;
}

static void trace_begin(struct vm *vm)
{
	OBSERVE_TARGET();
	vm->steps = 0;
}

static void trace_end(struct vm *vm)
{
	OBSERVE_TARGET();
	printf("%ld steps\n", vm->steps);
}

static const op_fn dispatch[NOPS] = {
	[OP_PUSH] = op_push, [OP_ADD] = op_add, [OP_MUL] = op_mul,
	[OP_DUP] = op_dup, [OP_PRINT] = op_print, [OP_HALT] = op_halt,
};

static const op_fn trace_hooks[2] = {trace_begin, trace_end};

int vm_program[] = {OP_PUSH, 6, OP_PUSH, 7, OP_MUL, OP_DUP, OP_ADD, OP_PRINT, OP_PUSH, 99};

int main(void)
{
	struct vm vm = {.pc = vm_program, .running = 1};
	const int *end = vm_program + sizeof vm_program / sizeof vm_program[0];

	ICALL(trace_hooks[0](&vm)); /* @r0: trace_begin */
	while (vm.running && vm.pc < end) {
		int op = *vm.pc++;
		if (op < 0 || op >= NOPS)
			break;
		ICALL(dispatch[op](&vm)); /* @r0: op_add op_dup op_halt op_mul op_print op_push */
		vm.steps++;
	}
	/* The program has no OP_HALT: stop the machine as OP_HALT would.  A
	 * constant index into a table that is also indexed by a variable: an
	 * analysis that keeps the elements apart answers {op_halt}, one that
	 * collapses the whole table (DESIGN: "a variable index collapses to the
	 * whole object") answers all six; both are right. */
	if (vm.running)
		ICALL(dispatch[OP_HALT](&vm)); /* @r0-superset-of-observed @r0-within: op_add op_dup op_halt op_mul op_print op_push */
	ICALL(trace_hooks[1](&vm)); /* @r0: trace_end */
	return 0;
}
