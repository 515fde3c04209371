/* static_call.h — static_call: the kernel's macros for x86-64 without
 * inline patching (include/linux/static_call.h, arch/x86/include/asm/
 * static_call.h, Linux 6.12), written again for this test.
 *
 * DEFINE_STATIC_CALL(name, func) defines a key __SCK__name holding func and
 * a trampoline __SCT__name in module asm whose body is a rel32 jmp to func,
 * written as bytes (`.byte 0xe9; .long func - (. + 4)`);
 * DEFINE_STATIC_CALL_NULL's trampoline is `ret` until a function is patched
 * in. static_call(name)(args) calls the trampoline directly: the IR has a
 * direct call to a function it only declares. static_call_update(name, f)
 * calls __static_call_update(&key, &trampoline, f) (static_call.c), which
 * rewrites the trampoline's first five bytes into a jmp to f, as the
 * kernel's text patching does. */
#ifndef STATIC_CALL_TEST_H
#define STATIC_CALL_TEST_H

struct static_call_key {
	void *func;
	unsigned long type;
};

#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)

#define STATIC_CALL_KEY(name) __SCK__##name
#define STATIC_CALL_TRAMP(name) __SCT__##name
#define STATIC_CALL_TRAMP_STR(name) __stringify(STATIC_CALL_TRAMP(name))
#define STATIC_CALL_TRAMP_ADDR(name) &STATIC_CALL_TRAMP(name)

#define DECLARE_STATIC_CALL(name, func)                                                            \
	extern struct static_call_key STATIC_CALL_KEY(name);                                       \
	extern __typeof__(func) STATIC_CALL_TRAMP(name)

/* The annotation block (a local label recorded in .discard.noendbr) and the
 * trailing ud2 are the kernel's; the reader must see past them. */
#define __ARCH_DEFINE_STATIC_CALL_TRAMP(name, insns)                                               \
	__asm__(".pushsection .static_call.text, \"ax\"\n"                                         \
	        ".align 4\n"                                                                       \
	        ".globl " STATIC_CALL_TRAMP_STR(name) "\n" STATIC_CALL_TRAMP_STR(name) ":\n"       \
	        "986: \n"                                                                          \
	        "\t.pushsection .discard.noendbr\n"                                                \
	        "\t.long 986b\n"                                                                   \
	        "\t.popsection\n"                                                                  \
	        "\t" insns "\n"                                                                    \
	        ".byte 0x0f, 0xb9, 0xcc\n"                                                         \
	        ".type " STATIC_CALL_TRAMP_STR(name) ", @function\n"                               \
	        ".size " STATIC_CALL_TRAMP_STR(name) ", . - " STATIC_CALL_TRAMP_STR(name) " \n"    \
	        ".popsection\n")

#define ARCH_DEFINE_STATIC_CALL_TRAMP(name, func)                                                  \
	__ARCH_DEFINE_STATIC_CALL_TRAMP(name, ".byte 0xe9; .long " #func " - (. + 4)")
#define ARCH_DEFINE_STATIC_CALL_NULL_TRAMP(name)                                                   \
	__ARCH_DEFINE_STATIC_CALL_TRAMP(name, "ret; int3; nop; nop; nop")

#define DEFINE_STATIC_CALL(name, _func)                                                            \
	DECLARE_STATIC_CALL(name, _func);                                                          \
	struct static_call_key STATIC_CALL_KEY(name) = {.func = _func, .type = 1};                 \
	ARCH_DEFINE_STATIC_CALL_TRAMP(name, _func)

#define DEFINE_STATIC_CALL_NULL(name, _func)                                                       \
	DECLARE_STATIC_CALL(name, _func);                                                          \
	struct static_call_key STATIC_CALL_KEY(name) = {.func = 0, .type = 1};                     \
	ARCH_DEFINE_STATIC_CALL_NULL_TRAMP(name)

#define static_call(name) (&STATIC_CALL_TRAMP(name))

#define static_call_update(name, func)                                                             \
	({                                                                                         \
		__typeof__(&STATIC_CALL_TRAMP(name)) __F = (func);                                 \
		__static_call_update(&STATIC_CALL_KEY(name), STATIC_CALL_TRAMP_ADDR(name), __F);   \
	})

void __static_call_update(struct static_call_key *key, void *tramp, void *func);

#endif
