/* sections.h — kernel_sections: tables the linker builds from
 * section-placed variables, in the three ways an OS kernel does it.
 *
 *   HOOK(fn)        a pointer to fn in section "hooks", walked from the ELF
 *                   linker's __start_hooks to __stop_hooks;
 *   PARAM(str, fn)  a {name, handler} struct in section "params", walked
 *                   the same way;
 *   LEVEL_CALL(l, fn)  a 32-bit self-relative entry `.long fn - .` that
 *                   module-level asm places in section ".lvlcall<l>.init",
 *                   walked from the linker script's (sections.lds)
 *                   __lvlcall<l>_start symbols, each entry turned back into
 *                   a pointer by adding it to its own address. */
#ifndef KERNEL_SECTIONS_H
#define KERNEL_SECTIONS_H

typedef int (*hook_fn)(void);

struct param {
	const char *name;
	int (*handler)(const char *value);
};

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(x) #x
#define STR(x) STR_(x)

#define HOOK(fn) \
	__attribute__((used, section("hooks"))) static hook_fn CAT(hook_, fn) = fn

#define PARAM(str, fn) \
	__attribute__((used, section("params"))) static const struct param CAT(param_, fn) = {str, fn}

/* fn must have external linkage: the asm names it. The IR cannot see a
 * reference from asm, so, as a kernel's __ADDRESSABLE does, a pointer to fn
 * in a section nobody walks keeps it (and LLVM's address-taken flag). */
#define LEVEL_CALL(level, fn) \
	__attribute__((used, section(".discard.addressable"))) static void *CAT(addressable_, fn) = (void *)fn; \
	asm(".pushsection \".lvlcall" #level ".init\", \"a\"\n\t.long " STR(fn) " - .\n\t.popsection")

extern hook_fn __start_hooks[], __stop_hooks[];
extern const struct param __start_params[], __stop_params[];
extern const int __lvlcall0_start[], __lvlcall1_start[], __lvlcall_end[];

int run_hooks(void);
int apply_params(const char *value);
int run_levels(void);

#endif
