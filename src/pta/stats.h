/* stats.h — what a program is made of (facet stats): functions, call sites,
 * address-taken functions, structs with function-pointer members, globals
 * holding functions, debug info; and, after the points-to analysis, its
 * size, time by phase, collapsed objects by cause, the widest sets and the
 * Facet paper's Table 2 columns for andersen and r0. */
#ifndef FACET_PTA_STATS_H
#define FACET_PTA_STATS_H

#include <stdbool.h>
#include <stdio.h>

#include "pta/andersen.h"

#define PTA_STATS_WIDEST 5

typedef struct pta_program_stats {
	unsigned defined, declared, intrinsics, address_taken;
	unsigned sites, direct, indirect, asm_sites, sites_with_loc;
	unsigned named;            /* of the indirect: calls naming their callee through a mismatched declaration */
	unsigned fp_structs;       /* distinct struct/union types with a function-pointer member */
	unsigned globals, globals_with_fn_slots;
	bool debug_info;
	size_t model_bytes;        /* the program model's arena (bytes handed out) */
	/* What the analyses cannot see into or only approximate (issue 17.2):
	 * asm goto sites, asm sites with pointer operands, global aliases (read
	 * through to their aliasees), instructions not lowered (va_arg), module
	 * asm, and the section arrays found (sections.h). */
	unsigned asm_goto, asm_pointer_sites, aliases, unlowered_insts;
	/* Calls an asm's text makes (ir/asmcall.h): sites made, direct and
	 * indirect (through an operand), and `call`s whose target is not read. */
	unsigned asm_calls_direct, asm_calls_indirect, asm_calls_unread;
	ir_module_asm module_asm;
	unsigned section_bounds, section_bounds_by_stem, section_members, section_entries;
	/* With --pta: section members read from their initializers only, and
	 * relative asm entries followed as call targets. */
	unsigned section_members_static, relative_entries;
	/* With --pta: the Facet paper's Table 2 columns and the solver's counts. */
	bool pta;
	double pta_seconds;
	unsigned andersen_targets, r0_targets, andersen_empty, r0_empty;
	unsigned wrappers, unmodelled;
	unsigned wrappers_via_pointer, wrappers_carving, clones, clones_refused;
	/* Symbol lookups (dlsym; andersen.h, "symbols"): all, with a constant
	 * name, of those found in the module, with a computed name that may search
	 * the program itself; and the indirect sites whose callee may be code
	 * loaded at run time, which no graph of the module holds. */
	unsigned symbol_lookups, symbol_named, symbol_found, symbol_any, runtime_sites;
	pta_stats solver;
	/* Why sets are wide: the widest value sets, and how much of each is
	 * collapsed objects' one location (issue 16.3). */
	unsigned n_widest, widest[PTA_STATS_WIDEST], widest_size[PTA_STATS_WIDEST], widest_collapsed[PTA_STATS_WIDEST];
	const char *widest_function[PTA_STATS_WIDEST];   /* the function whose value it is; NULL: a global's */
	/* What feeds them: the sites of copies of unknown length (pta_copy_site),
	 * and those whose source sets are widest, one per site. */
	unsigned copies, n_widest_copies;
	struct pta_copy_stat {
		unsigned site;
		const char *function;  /* the function the copy is in */
		ir_loc at;             /* where in it (outside what was inlined into it; line 0 when unknown) */
		unsigned src_size, dst_size;
	} widest_copies[PTA_STATS_WIDEST];
} pta_program_stats;

/* The collapse causes' names, as stats prints them: size, index, offset, cycle. */
extern const char *const pta_collapse_cause_names[PTA_COLLAPSE_CAUSES];

/* The counts over p alone. */
pta_program_stats pta_program_stats_of(const ir_program *p);
/* Adds the points-to analysis r of p. */
void pta_program_stats_add_pta(pta_program_stats *st, const ir_program *p, const pta_result *r);
/* The text facet stats prints. */
void pta_program_stats_print(FILE *out, const ir_program *p, const pta_program_stats *st);
/* part / whole, 0 when whole is 0. */
/* The counts as one line of JSON (docs/formats.md, "facet stats"); key, when
 * not NULL, adds one more member whose value is the JSON text value. */
void pta_program_stats_print_json(FILE *out, const pta_program_stats *st, const char *key, const char *value);
double pta_share(unsigned part, unsigned whole);

#endif
