/* main.c — kernel_idioms: the ops tables' dispatch (fs.h), and what else
 * kernel C does that user programs rarely do:
 *   - __attribute__((alias)): a pointer taken through an alias, and a call
 *     naming the alias (LLVM calls it indirect; its one target is the
 *     aliasee);
 *   - inline asm with a pointer operand, and asm goto (the analyses cannot
 *     see into them: facet stats counts them; the calls after them are
 *     resolved as usual);
 *   - a per-CPU-like variable: placed in section ".data..percpu",
 *     reached at run time by adding a CPU's offset to its address, and
 *     read through the %gs segment (a pointer in address space 256);
 *   - a static_call-like trampoline: module asm defines the function
 *     `greet_tramp` as `jmp greet_plain`; the IR only declares it and calls
 *     it directly, and facet makes that call an indirect site whose target
 *     is where the jump goes (static_call/ has the kernel's own form, with
 *     patching). */
#include <stdio.h>
#include "../observe.h"
#include "fs.h"

static long vfs_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	long r;
	ICALL(r = f->f_op->unlocked_ioctl(f, cmd, arg)); /* @r0: ext_ioctl pipe_ioctl */
	return r;
}

static long vfs_compat_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	long r;
	ICALL(r = f->f_op->compat_ioctl(f, cmd, arg)); /* @r0: ext_compat_ioctl tty_compat_ioctl */
	return r;
}

static int vfs_open(struct file *f)
{
	int r;
	ICALL(r = f->f_op->open(f)); /* @r0: ext_open tty_open */
	return r;
}

int real_handler(int x)
{
	OBSERVE_TARGET();
	return x * 2;
}
int alias_handler(int x) __attribute__((alias("real_handler")));

/* Inline asm the analyses cannot see into: a pointer operand, and an asm
 * goto that jumps to its label. noinline: each stays one site. */
__attribute__((noinline)) static int asm_barrier(int *p)
{
	asm volatile("" : : "r"(p) : "memory");
	return *p;
}

__attribute__((noinline)) static int asm_jump(int x)
{
	asm goto("jmp %l[taken]" : : : : taken);
	return x;
taken:
	return x + 1;
}

struct cpu_hook {
	int (*fn)(int x);
};
static unsigned long cpu_offset[2];   /* one copy here: every CPU's offset is 0 */
__attribute__((section(".data..percpu"))) static struct cpu_hook cpu_hook = {real_handler};
#define PER_CPU_PTR(var, cpu) ((__typeof__(var))((char *)(var) + cpu_offset[cpu]))
/* this_cpu_read through the %gs segment (address space 256), as x86 kernels
 * read per-CPU data; a Linux process's %gs base is 0, so it reads cpu_hook. */
#define THIS_CPU_FN(var) (((struct cpu_hook __seg_gs *)(unsigned long)&(var))->fn)

/* A static_call trampoline: greet_tramp jumps to greet_plain. */
int greet_plain(int x);
int greet_tramp(int x);
asm(".pushsection .text\n.globl greet_tramp\ngreet_tramp:\n\tjmp greet_plain\n.popsection");
__attribute__((used)) int greet_plain(int x)
{
	OBSERVE_TARGET();
	return x + 100;
}

int main(void)
{
	struct file files[3] = {{&ext_fops, 3}, {&pipe_fops, 4}, {&tty_fops, 5}};
	long sum = 0;
	pipe_setup();
	sum += vfs_ioctl(&files[0], 1, 2) + vfs_ioctl(&files[1], 1, 2);
	sum += vfs_compat_ioctl(&files[0], 1, 2) + vfs_compat_ioctl(&files[2], 1, 2);
	sum += vfs_open(&files[0]) + vfs_open(&files[2]);
	int (*h)(int) = alias_handler;
	ICALL(sum += h(1)); /* @r0: real_handler */
	ICALL(sum += alias_handler(2)); /* @r0: real_handler */
	int v = 7;
	sum += asm_barrier(&v) + asm_jump(1);
	for (int cpu = 0; cpu < 2; cpu++)
		ICALL(sum += PER_CPU_PTR(&cpu_hook, cpu)->fn(cpu)); /* @r0: real_handler */
	int (*fn)(int) = THIS_CPU_FN(cpu_hook);
	ICALL(sum += fn(3)); /* @r0: real_handler */
	ICALL(sum += greet_tramp(1)); /* @r0: greet_plain */
	printf("%ld\n", sum);
	return 0;
}
