/* andersen.h — Andersen's points-to analysis of a program model, and the
 * call graphs it gives: `andersen` (every function the callee pointer may
 * hold) and R0 (those whose IR function type fits the call's, pta_type_fits:
 * equal function-type records, a call naming its callee through a
 * mismatched declaration, or an unprototyped call passing exactly a
 * non-variadic function's parameters — the FLTA filter the Facet paper
 * applies, §3.2; docs/pta.md's R0 row).
 *
 * Constraint extraction (andersen.c) turns ir_stmt statements, global
 * initializers and library models (libmodel.h) into solver constraints
 * (solver.h); indirect calls are bound on the fly, as targets arrive.
 * Policies, each documented where it is implemented:
 *   objects    one per alloca, global, function, heap allocation site (an
 *              allocation wrapper — a defined function that returns what an
 *              allocator or another wrapper returned — is an allocation site
 *              at each of its call sites), and one per library function that
 *              returns library-owned memory;
 *   fields     (object, byte offset); a variable index collapses the object,
 *              unless nothing reads or writes a pointer through the address
 *              it makes (bytes and ints, memset, strlen: find_read), which
 *              then needs no constraint;
 *   ints       pointer-sized integers carry addresses (ptrtoint/inttoptr);
 *   varargs    (only with pta_options.varargs, off by default) one collapsed
 *              object per variadic defined function holds every
 *              function address (a function, or a select/phi/cast of them) any
 *              call passes through its `...`; va_start makes the
 *              va_list (collapsed) point to it and va_copy copies the list, so
 *              each va_arg of the function, and of every function the va_list
 *              reaches (vprintf-like v* functions), reads any of them;
 *   externals  an unmodelled declared function returns library-owned memory
 *              (one collapsed object per function) and is counted;
 *   symbols    a lookup by name (dlsym) returns code loaded at run time (one
 *              object, pta_result.runtime_code: no function of the module)
 *              and, from the module, the externally visible function or
 *              global its constant name names, or, with a name computed at
 *              run time, every externally visible one when the handle may be
 *              the program's own (RTLD_DEFAULT, dlopen(NULL)); a handle from
 *              dlopen(FILE) finds only what FILE defines, which the module
 *              does not hold. Lookups are counted;
 *   entries    every function's statements are analysed, whether or not
 *              main reaches it; in a program without main the pointer
 *              parameters of externally visible functions point into one
 *              "outside" object that also receives what they return;
 *   binding    an indirect call binds arguments and return value only for
 *              targets whose IR function type equals the call's (on-the-fly
 *              FLTA): a function the type filter drops from R0 cannot make R0
 *              wider through its parameters. Unfiltered binding made Andersen
 *              sets several times wider on nginx and sqlite and the solve 5-10x
 *              slower (bench/RESULTS.md); `bind_all` restores it. A call
 *              whose callee and some arguments are read from one base
 *              (`p->v->free(p, m)`, `t->cb(t->ctx)`: receivers.h) binds
 *              those arguments per base location: a target gets what the
 *              argument's chain gives from the base locations whose callee
 *              chain holds it (up to 32 base locations a site, none of a
 *              collapsed object; else whole);
 *   readonly   a defined constant global (C's const) is read-only memory:
 *              stores do not write it (solver.h, PTA_OBJ_READONLY). */
#ifndef FACET_PTA_ANDERSEN_H
#define FACET_PTA_ANDERSEN_H

#include <stdbool.h>
#include <stdint.h>

#include "cg/graph.h"
#include "ir/model.h"
#include "pta/solver.h"

typedef struct pta_options {
	bool cycle_detection;      /* default true */
	bool wrappers;             /* allocation wrappers as allocation sites; default true */
	bool bind_all;             /* bind parameters of every function reaching an indirect call; by
	                              default only those whose IR type equals the call's (see below) */
	bool varargs;              /* function addresses passed through `...` reach va_arg (see below);
	                              default false: on sqlite it made R± 9x wider (4.4 -> 34.9 targets
	                              per traced site, F1 0.634 -> 0.294) — the functions meet every
	                              other va_arg read, whose pointers are then dereferenced as data.
	                              PARTIAL (issue 15.4): not used until that is solved */
	/* Copies of unknown length at these sites (pta_copy_site.site) move
	 * nothing: UNSOUND, only to measure what each copy adds to the sets
	 * (bench/pta/copy_impact.c); default none. */
	const unsigned *skip_copies;
	unsigned n_skip_copies;
	/* Only the statements of these functions (by function id), and of
	 * those only these statements (by statement index), are extracted;
	 * global initializers always are. UNSOUND, only to find which
	 * statements make a program's sets mix (bench/pta/mix_core.c);
	 * default NULL: all. */
	const bool *keep_functions;
	const bool *keep_stmts;
	void (*progress)(void *arg, const char *phase);   /* told "points-to analysis: solving" when the
	                              constraints are extracted; NULL (default): not */
	void *progress_arg;
} pta_options;

void pta_options_default(pta_options *o);

/* What an abstract object stands for. */
typedef enum pta_obj_kind { OBJ_FUNCTION, OBJ_GLOBAL, OBJ_STACK, OBJ_HEAP, OBJ_LIBRARY, OBJ_VARARGS } pta_obj_kind;
typedef struct pta_obj_info {
	pta_obj_kind kind;
	unsigned index;            /* function id (function, varargs), global id, value id (stack), site id (heap,
	                              library) */
	unsigned context;          /* heap via a wrapper: the site that called the wrapper, else IR_NONE */
} pta_obj_info;

/* A memory copy of unknown length at a site (memcpy with a run-time or
 * large length, realloc's move, va_copy): it sends every location of its
 * source's objects into every location of its destination's, so one whose
 * source set is wide spreads it (facet stats --pta reports the widest). */
typedef struct pta_copy_site {
	unsigned site;
	unsigned dst, src;         /* solver nodes of the destination and source pointers */
} pta_copy_site;

typedef struct pta_result {
	const ir_program *prog;
	pta_solver *solver;
	unsigned *value_node;      /* value id -> solver node, PTA_NONE when never used */
	uint8_t *read_through;     /* value id -> 0 when nothing reads or writes a pointer through it, so
	                              its set was not computed (andersen.c: find_read) */
	pta_obj_info *objects;     /* by solver object id */
	unsigned n_objects;
	unsigned **site_targets;   /* per site: function ids the callee operand may hold, discovery order */
	unsigned *n_site_targets;
	const char **unmodelled;   /* declared functions called but not in the library model */
	unsigned n_unmodelled;
	unsigned n_wrappers;       /* functions treated as allocation wrappers */
	unsigned n_wrappers_via_pointer; /* of which some return what an indirect call returns */
	unsigned n_wrappers_carving;     /* of which sub-allocators: some returns are carved from a block (wrappers.h) */
	unsigned n_clones;         /* wrapper call sites given a fresh object of their own */
	unsigned n_clones_refused; /* indirect sources bound uncloned: the clone budget was spent */
	unsigned n_section_members_static;  /* section members too large to copy: read from initializers only */
	unsigned n_relative_entries;        /* relative asm entries naming functions, targets of calls into bounds */
	unsigned n_offset_dropped; /* globals and stack slots that an offset left, dropped from its result
	                              instead of collapsing them (solver.h, PTA_OBJ_BOUNDED) */
	/* Symbol lookups (dlsym): their sites, how many have a constant name and
	 * how many of those the module defines, how many may search the program
	 * itself with a computed name; and the object standing for code loaded
	 * at run time that each returns (PTA_NONE when the program makes none):
	 * an indirect call whose callee set holds it may call outside the module. */
	unsigned *symbol_sites;
	unsigned n_symbol_sites, n_symbol_named, n_symbol_found, n_symbol_any;
	unsigned runtime_code;
	pta_copy_site *copies;     /* copies of unknown length, in extraction order */
	unsigned n_copies;
	double seconds;            /* extraction + solving */
} pta_result;

pta_result *pta_analyze(const ir_program *p, const pta_options *opt);
void pta_result_free(pta_result *r);

/* Points-to set of a value (NULL when the analysis never saw it). */
const sbitmap *pta_value_pts(const pta_result *r, unsigned value);
/* The object standing for global g (its fields: pta_field), PTA_NONE when
 * the analysis made none for it. */
unsigned pta_global_object(const pta_result *r, const ir_global *g);
/* Whether value's set was computed: false for an address nothing reads or
 * writes a pointer through (only compared, hashed, zeroed or freed), whose
 * set is left empty because no constraint needs it. */
bool pta_value_modelled(const pta_result *r, unsigned value);
/* "name+offset" for a location: functions and globals by name, stack slots as
 * stack:FUNC:%value, heap sites as heap:FILE:LINE, library memory as lib:NAME.
 * shown: the names people read (ir_function_label, ir_global_label: "vtable
 * for Circle*+0"), else the linked names ("_ZTV6Circle*+0"); the same for C. */
char *pta_loc_name(const pta_result *r, unsigned loc, bool shown);   /* caller frees */

/* R0's type filter (FLTA, §3.2): f's IR function type equals the call's;
 * also a call that names f itself through a mismatched prototype, and a
 * call through an unprototyped pointer (`i32 (i64, ...)` passing exactly
 * f's parameters, f not varargs, the same return type). The refinement's
 * adds go through the same test. */
bool pta_type_fits(const ir_site *s, const ir_function *f);

/* Whether the callee of indirect site `site` may be code loaded at run time
 * (what a symbol lookup returns), which no call graph of the module holds. */
bool pta_site_calls_runtime_code(const pta_result *r, unsigned site);

/* Why object obj collapsed, in words (PTA_COLLAPSE_* from pta_object_collapse_cause). */
const char *pta_collapse_cause_name(unsigned cause);
/* The statement whose constraint collapsed obj and (through fn) its function;
 * NULL when none is known (made collapsed, or by a call bound while solving). */
const ir_stmt *pta_collapse_stmt(const pta_result *r, unsigned obj, const ir_function **fn);

/* The `andersen` graph (unfiltered) or R0 (type-filtered); direct sites keep
 * their callee. */
cg_graph *pta_callgraph(const pta_result *r, bool type_filter);

#endif
