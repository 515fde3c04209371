/* static_call.c — static_call: the patcher, in its own unit as the kernel's
 * kernel/static_call_inline.c is (so no unit's optimiser inlines it into
 * the updates). It rewrites the trampoline's first five bytes: a rel32 jmp
 * to func, or back to `ret; int3; nop; nop; nop` for NULL. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "static_call.h"

void __static_call_update(struct static_call_key *key, void *tramp, void *func)
{
	key->func = func;
	unsigned char insn[5] = {0xc3, 0xcc, 0x90, 0x90, 0x90};
	if (func) {
		int32_t rel = (int32_t)((intptr_t)func - ((intptr_t)tramp + 5));
		insn[0] = 0xe9;
		memcpy(insn + 1, &rel, sizeof rel);
	}
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)tramp & ~(page - 1);
	size_t len = (uintptr_t)tramp + sizeof insn - start;
	if (mprotect((void *)start, len, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
		return;
	memcpy(tramp, insn, sizeof insn);
	mprotect((void *)start, len, PROT_READ | PROT_EXEC);
}
