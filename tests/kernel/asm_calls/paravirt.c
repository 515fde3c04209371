/* paravirt.c — calls the kernel makes from inline asm text (issue 17.2),
 * written as arch/x86/include/asm/paravirt_types.h, alternative.h and
 * nospec-branch.h write them (x86-64, AT&T syntax). check_asm_calls.py
 * reads the expected targets from this text:
 *
 *   - PVOP_VCALLn(FIELD, ...): `call *%[paravirt_opptr]` with the operand
 *     "m" (pv_ops.FIELD), a call through the function pointer that field
 *     holds: its targets are the functions stored into pv_ops.FIELD (the
 *     initializer and the kvm_setup assignments) and no other field's, though
 *     flush_tlb_multi and flush_tlb_one share a type. The replacement text
 *     `call BUG_func` (ALT_CALL_INSTR) is a direct call of its own.
 *   - PVOP_CALL1 returns the op's result through rax.
 *   - alternative_call(OLD, NEW, ...): `call %c[old]` and `call %c[new]`
 *     with "i" function operands: both are direct targets.
 *   - CALL_NOSPEC(fp): `call *%[thunk_target]` with "r" (fp): the targets
 *     of fp (the handlers table); its retpoline replacement names the thunk
 *     through the operand's register (`__x86_indirect_thunk_%V[...]`), a form
 *     not read: counted, once per use.
 *   - RAW_CALL_RAX: `call *%%rax`, a literal register: counted.
 * The program is compiled, never run: its asm calls C functions without
 * the kernel's calling discipline (no red zone, callee-clobber lists). */
#include <stdio.h>

struct pv_cpu_ops {
	void (*io_delay)(void);
};
struct pv_mmu_ops {
	void (*flush_tlb_multi)(const void *cpus, const void *info);
	void (*flush_tlb_one)(const void *cpus, const void *info);
	void (*exit_mmap)(void *mm);
	unsigned long (*read_cr2)(unsigned long x);
};
struct paravirt_patch_template {
	struct pv_cpu_ops cpu;
	struct pv_mmu_ops mmu;
};

void BUG_func(void)
{
	puts("BUG_func");
}

void native_io_delay(void) { puts("native_io_delay"); }
void native_flush_tlb_multi(const void *c, const void *i) { printf("native_flush_tlb_multi %p %p\n", c, i); }
void kvm_flush_tlb_multi(const void *c, const void *i) { printf("kvm_flush_tlb_multi %p %p\n", c, i); }
void native_flush_tlb_one(const void *c, const void *i) { printf("native_flush_tlb_one %p %p\n", c, i); }
void native_exit_mmap(void *mm) { printf("native_exit_mmap %p\n", mm); }
unsigned long native_read_cr2(unsigned long x) { return x + 1; }
unsigned long kvm_read_cr2(unsigned long x) { return x + 2; }

struct paravirt_patch_template pv_ops = {
	.cpu.io_delay = native_io_delay,
	.mmu.flush_tlb_multi = native_flush_tlb_multi,
	.mmu.flush_tlb_one = native_flush_tlb_one,
	.mmu.exit_mmap = native_exit_mmap,
	.mmu.read_cr2 = native_read_cr2,
};

__attribute__((noinline)) void kvm_setup(void)
{
	pv_ops.mmu.flush_tlb_multi = kvm_flush_tlb_multi;
	pv_ops.mmu.read_cr2 = kvm_read_cr2;
}

#define ALT_CALL_INSTR "call BUG_func"
#define PARAVIRT_CALL "call *%[paravirt_opptr];"
#define ALTERNATIVE(old, new)                                                                      \
	"# ALT: oldinstr\n771:\n\t" old "\n772:\n"                                                 \
	".pushsection .altinstr_replacement, \"ax\"\n"                                             \
	"# ALT: replacement\n774:\n\t" new "\n775:\n.popsection\n"
#define PVOP_CLOBBERS "memory", "cc", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"

#define PVOP_VCALL0(op)                                                                            \
	asm volatile(ALTERNATIVE(PARAVIRT_CALL, ALT_CALL_INSTR) : : [paravirt_opptr] "m"(pv_ops.op)  \
	             : PVOP_CLOBBERS)
#define PVOP_VCALL1(op, a1)                                                                        \
	({                                                                                         \
		unsigned long __edi = (unsigned long)(a1);                                         \
		asm volatile(ALTERNATIVE(PARAVIRT_CALL, ALT_CALL_INSTR)                            \
		             : "+D"(__edi) : [paravirt_opptr] "m"(pv_ops.op)                      \
		             : "memory", "cc", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11"); \
	})
#define PVOP_VCALL2(op, a1, a2)                                                                    \
	({                                                                                         \
		unsigned long __edi = (unsigned long)(a1), __esi = (unsigned long)(a2);            \
		asm volatile(ALTERNATIVE(PARAVIRT_CALL, ALT_CALL_INSTR)                            \
		             : "+D"(__edi), "+S"(__esi) : [paravirt_opptr] "m"(pv_ops.op)         \
		             : "memory", "cc", "rax", "rcx", "rdx", "r8", "r9", "r10", "r11");     \
	})
#define PVOP_CALL1(op, a1)                                                                         \
	({                                                                                         \
		unsigned long __eax, __edi = (unsigned long)(a1);                                  \
		asm volatile(ALTERNATIVE(PARAVIRT_CALL, ALT_CALL_INSTR)                            \
		             : "=a"(__eax), "+D"(__edi) : [paravirt_opptr] "m"(pv_ops.op)         \
		             : "memory", "cc", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11");     \
		__eax;                                                                             \
	})

#define alternative_call(oldfunc, newfunc, output, input...)                                      \
	asm volatile(ALTERNATIVE("call %c[old]", "call %c[new]")                                   \
	             : output : [old] "i"(oldfunc), [new] "i"(newfunc), ##input                    \
	             : "memory", "cc", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11")

#define CALL_NOSPEC(fp)                                                                            \
	asm volatile(ALTERNATIVE("call *%[thunk_target]", "call __x86_indirect_thunk_%V[thunk_target]") \
	             : : [thunk_target] "r"(fp) : PVOP_CLOBBERS)

#define RAW_CALL_RAX(fp)                                                                           \
	asm volatile("call *%%rax" : : "a"(fp) : "memory", "cc", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11")

void clear_page_orig(void *page) { printf("clear_page_orig %p\n", page); }
void clear_page_rep(void *page) { printf("clear_page_rep %p\n", page); }
void copy_page_erms(void *page) { printf("copy_page_erms %p\n", page); }

void handler_a(void) { puts("handler_a"); }
void handler_b(void) { puts("handler_b"); }
void (*const handlers[])(void) = {handler_a, handler_b};

__attribute__((noinline)) void io_delay(void)
{
	PVOP_VCALL0(cpu.io_delay);
}

__attribute__((noinline)) void flush_tlb(const void *cpus, const void *info)
{
	PVOP_VCALL2(mmu.flush_tlb_multi, cpus, info);
}

__attribute__((noinline)) void exit_mmap(void *mm)
{
	PVOP_VCALL1(mmu.exit_mmap, mm);
}

__attribute__((noinline)) unsigned long read_cr2(unsigned long x)
{
	return PVOP_CALL1(mmu.read_cr2, x);
}

__attribute__((noinline)) void clear_page(void *page)
{
	alternative_call(clear_page_orig, clear_page_rep, "+D"(page));
}

__attribute__((noinline)) void run_handler(int i)
{
	CALL_NOSPEC(handlers[i & 1]);
}

__attribute__((noinline)) void raw_call(int i)
{
	RAW_CALL_RAX(handlers[i & 1]);
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		kvm_setup();
	io_delay();
	flush_tlb(&argc, argv);
	exit_mmap(argv);
	clear_page(argv);
	run_handler(argc);
	raw_call(argc);
	return (int)read_cr2((unsigned long)argc);
}
