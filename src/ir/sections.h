/* sections.h — the arrays a linker builds from section-placed data.
 *
 * C code puts variables in a named section (__attribute__((section("S"))),
 * or module-level asm `.pushsection S; .long fn - .`), and walks them from
 * symbols the linker defines at the section's ends: `__start_S`/`__stop_S`
 * (ELF linkers, for sections named like C identifiers) or a linker script's
 * `__S_start = .; *(S) __S_end = .;`. The IR only declares those symbols;
 * this module finds which sections each one bounds, so the points-to
 * analysis can give a walk from it every entry placed there.
 *
 * Exact names (`__start_S`, `__stop_S`) bound exactly S. Linker-script
 * symbols are matched by their stem, since the script is not an input: the
 * name without leading underscores and a trailing _start, _end, _begin or
 * _stop (or, for X when X_end or X_stop is also declared, X itself) bounds
 * every section one of whose dot-separated name components begins with the
 * stem (`__initcall6_start` bounds `.initcall6.init` and `.initcall6s.init`,
 * `__setup_start` bounds `.init.setup`). That over-approximates (a walk
 * from the start of level 6 to the start of level 7 is given levels 6 and
 * 6s whole; `__init_begin` gets every `.init.*` section): sound for the
 * walks, and each match is marked by_stem so stats can count it. */
#ifndef FACET_IR_SECTIONS_H
#define FACET_IR_SECTIONS_H

#include <stddef.h>

#include "ir/model.h"

/* Reads module-level asm (GNU as syntax, the text LLVM keeps as `module
 * asm`) into p->asm_entries and p->module_asm: the current section is
 * tracked through .section/.pushsection/.popsection/.previous/.text/.data/
 * .bss, and each .long/.int/.4byte/.quad/.8byte operand that is `SYM`,
 * `SYM + N`, or either minus `.` becomes an entry when SYM names a function
 * or global of p. Anything else naming a module symbol in a data directive
 * is counted as unparsed. Any text is accepted (never fails). */
void ir_sections_parse_asm(ir_program *p, const char *text, size_t len);

/* The same pass also reads trampolines: a label defining a function the
 * IR only declares, whose first instruction in the label's section is
 * `jmp SYM`, `.byte 0xe9` then `.long SYM - (. + 4)` (a rel32 jmp written as
 * bytes, as the kernel's static_call does), or `ret` (a trampoline that does
 * nothing until patched). Such a function gets ir_function.trampoline (and
 * tramp_initial = SYM when SYM is a function of p); a `jmp *...` or any
 * other instruction first is an asm body, no trampoline. */

/* Makes every direct call to a trampoline an indirect site (ir_site.
 * trampoline): code patching changes where it goes, so its targets are a
 * points-to question (pta/andersen.h). Call after p->sites is filled. */
void ir_sections_trampoline_calls(ir_program *p);

/* Fills p->bounds and p->bound_of_global from the globals' sections and the
 * asm entries. Call once, after ir_sections_parse_asm. */
void ir_sections_bind(ir_program *p);

/* The stem rule above, alone (for tests): true when the symbol `name`
 * bounds section `section`; *by_stem tells which rule matched. `sibling_end`
 * says whether name_end or name_stop is also a declared symbol. */
bool ir_section_bounds(const char *name, const char *section, bool sibling_end, bool *by_stem);

#endif
