/* facet.h — the refinement of the Facet paper (§3): which field each indirect
 * call dispatches through, which functions the program stores there, and the
 * decisions, with their warrants, that turn R0 into R+ and R±.
 *
 * The stages run once, in the paper's order (§3.5): recover disp(c) at every
 * indirect site and init/F for every function-pointer field (dispatch.c,
 * assign.c); propose and classify facts by the six rules of Figure 4
 * (classify.c); find the abstaining sites; ask the oracle the residual
 * questions (oracle.h); record every decision. The two refined graphs are
 * then derived from the recorded decisions and R0 alone (derive.c), so a
 * saved provenance can be re-derived under another τ without re-running
 * anything.
 *
 * Everything here is owned by the facet_result and freed with it. Ids are
 * the program model's: site ids, function ids. */
#ifndef FACET_FACET_FACET_H
#define FACET_FACET_FACET_H

#include <stdbool.h>
#include <stdint.h>

#include "cg/graph.h"
#include "cg/registry.h"
#include "ir/model.h"
#include "pta/andersen.h"

typedef struct facet_oracle facet_oracle;   /* oracle.h */

/* ---- the load side: the dispatched field of a site (§3.2.1) ---------------- */

typedef enum disp_status {
	DISP_FIELD,          /* a field S.m of a struct */
	DISP_GLOBAL,         /* a plain global function pointer */
	DISP_ARRAY,          /* a constant-indexed global array of function pointers */
	DISP_UNRECOVERED,    /* not loaded from memory, or no step found the base's type; see reason */
	DISP_NAMED,          /* not a pointer call: the call names its callee through a mismatched or
	                        unprototyped declaration (LLVM counts it indirect; R0 resolves it),
	                        or names a patchable trampoline (ir_site.trampoline; R0 resolves it) */
} disp_status;

/* How the base pointer's type was found: the paper's steps ❶ ❷ ❸, then
 * facet's fourth, tried last: the optimiser rebased the address on a pointer
 * with no type (p = pool + 40) while a sibling derived from the same pointer
 * (q = pool + 32) is typed; the address is then q + 8 (dispatch.c). */
typedef enum disp_step { STEP_NONE, STEP_DIRECT, STEP_CHAINED, STEP_TYPED, STEP_REBASED } disp_step;

typedef enum field_kind { FIELD_STRUCT, FIELD_GLOBAL, FIELD_ARRAY } field_kind;

/* How a function came into a field (Algorithm 1's forms). */
typedef enum assign_form { FORM_INIT, FORM_STORE, FORM_COPY } assign_form;

typedef struct facet_assign {
	unsigned function;         /* function id */
	assign_form form;
	const char *global;        /* FORM_INIT: the initialised global */
	uint64_t slot;             /* FORM_INIT: byte offset of the slot in the global */
	ir_loc loc;                /* FORM_INIT: the global's declaration; else the store or copy */
	const char *in_function;   /* FORM_STORE/FORM_COPY: the function holding the store or copy */
	const char *via;           /* FORM_STORE of a va_arg read: the variadic function whose `...` the
	                              function was passed through (varargs.c), else NULL */
	bool constant;             /* a syntactic scan sees it: an initializer, or a store of a function constant */
	/* The flow into the field is established: an initializer, a copy, or a
	 * store of a value the program does not declare as data (origin.c).
	 * Only established places support Add-Store; every place counts for F. */
	bool established;
} facet_assign;

/* A field key: S.m, a global function pointer, or a global array. Fields of
 * structs are keyed by the struct's name and the member's byte offset
 * (`record@offset`), so the same struct seen by several compile units is one
 * key. */
typedef struct facet_field {
	unsigned id;
	field_kind kind;
	const char *record;        /* struct name (a typedef name for an anonymous struct), or the global
	                              as people read it (ir_global_label: "A::hook") */
	uint64_t offset;           /* bytes; 0 for globals */
	const char *name;          /* member name ("u" for a union member, "@16" when unnamed), or the
	                              global as people read it */
	const char *key;           /* "record@offset" or the global's linked name: unique; "record@offset[]"
	                              for a whole array reached by a variable index */
	/* An element of an array of function pointers inside a struct (keyed
	 * alone when the index is a constant), or the whole array (whole_array:
	 * a variable index). An element's F includes what variable-index writes
	 * store into the array, and the whole array's F every element's. */
	uint64_t array_start, array_bytes;   /* 0 bytes: not in such an array */
	bool whole_array;
	/* A slot of an untyped heap block (facet/block.c): record names the
	 * allocation, offset the list (whole_array) or the slot. */
	bool untyped;
	bool function_pointer;     /* declared as a function pointer (or a union holding one) */
	di_type *sig;              /* declared subroutine type, NULL when unknown */
	const char *sig_text;      /* "void *(ngx_conf_t *)", "?" when unknown */
	facet_assign *assigns;     /* F with its evidence: one entry per (function, form, place) */
	unsigned n_assigns;
	unsigned *init;            /* init(S.m): function ids, ascending */
	unsigned n_init;
	unsigned *F;               /* F(S.m): function ids, ascending (init ⊆ F) */
	unsigned n_F;
	/* The rejected assignments: functions an initializer or a store writes
	 * into the field whose signature is incompatible with the field's, so
	 * left out of F (copies are not listed: a copy through an untyped
	 * pointer moves every slot of its source). One place each (the first
	 * seen); kept so people and agents see what the signature filter
	 * removed. */
	facet_assign *rejected;
	unsigned n_rejected;
	unsigned n_sites;          /* indirect sites dispatching through it */
	/* A write the program makes into the field that brings no function (a
	 * store of a value that holds none, a field copy that moved none, a
	 * NULL slot of a method table's initializer; function IR_NONE): with
	 * F empty, Prune-Store trusts F (classify.c), as it does a non-empty
	 * one. NULL when no write was seen: the field may be written as
	 * another type or by code outside the program. */
	const facet_assign *empty_write;
} facet_field;

/* The key as people read it: a struct field's key is made of debug-info
 * names already; a C++ global's field (FIELD_GLOBAL, FIELD_ARRAY) is keyed
 * by the global's linked name (_ZN1A4hookE: stable, unique) and shown as
 * its record, the label (A::hook). Outputs show this and, where it differs,
 * the key beside it as KEY_symbol (facet_xname_set). */
const char *facet_field_shown(const facet_field *f);

typedef struct facet_site {
	unsigned site;             /* site id */
	disp_status status;
	disp_step step;
	unsigned depth;            /* STEP_CHAINED: pointers from the resolved receiver */
	unsigned field;            /* field id, or IR_NONE */
	int64_t offset;            /* byte offset of the callee load from its base */
	const char *reason;        /* DISP_UNRECOVERED: why, for people */
	const char *base_type;     /* the struct or variable type found for the base, or NULL */
	/* DISP_UNRECOVERED: the callee's declared type when a variable or
	 * parameter of function-pointer type holds it (a subroutine type; NULL
	 * when nothing declares it), and that variable's name. Prune-Sig then
	 * checks R0's targets against it, as it does against a field's. */
	di_type *callee_sig;
	const char *callee_var;
	/* classification summary */
	unsigned n_r0;             /* |R0(c)| */
	unsigned n_sym;            /* |R0(c) \ Psym(c)|: the symbolic result */
	bool abstains;             /* 0 < n_sym <= tau */
	bool runtime_code;         /* the callee may be code loaded at run time (a dlsym result), which no
	                              graph of the module holds (pta_site_calls_runtime_code) */
} facet_site;

/* ---- decisions and warrants (§3.3, §3.5) ------------------------------------- */

typedef enum fact_kind { FACT_ADD, FACT_PRUNE } fact_kind;
typedef enum fact_outcome { OUTCOME_SUPPORTED, OUTCOME_REJECTED, OUTCOME_RESIDUAL } fact_outcome;
typedef enum facet_rule {
	RULE_NONE,            /* residual: no rule classifies the fact */
	RULE_ADD_WITNESS,     /* f ∈ init(S.m)                          premise-free */
	RULE_ADD_STORE,       /* f ∈ F(S.m) \ init(S.m)                 π_bind */
	RULE_PRUNE_STORE,     /* F(S.m) ≠ ∅ ∧ f ∉ F(S.m)                π_proj */
	RULE_ADD_UNSTORED,    /* the same, rejecting an add              π_proj */
	RULE_PRUNE_SIG,       /* sig(f) ≁ sig(S.m)                       π_sig */
	RULE_ADD_SIG,         /* the same, rejecting an add              π_sig */
	RULE_ADD_TYPE,        /* f does not fit the call's IR type under R0's filter
	                         (pta_type_fits), rejecting an add       π_sig */
	/* facet's: sig(f) ≁ sig(S.m) (or the callee's declared type), but where
	 * f's address is taken the program casts it to a type compatible with
	 * it (cast.c) */
	RULE_KEEP_CAST,       /* the prune Prune-Sig proposes, rejected   π_cast */
	RULE_ADD_CAST,        /* f ∈ F(S.m) by such a cast: add supported π_cast */
	/* vslot's, at C++ virtual sites (facet/vslot.h; Add-Witness there: f is
	 * in the slot of the vtable of a class C ⪯ the receiver's static class) */
	RULE_PRUNE_CLASS,     /* every class of the receiver's points-to objects
	                         places another function in the slot     π_class */
	/* facet source's (source/source.h), at a site whose evidence is
	 * incomplete: f's address is taken and its type fits the call's */
	RULE_TYPE_FALLBACK,   /* add supported                           π_open */
} facet_rule;
#define FACET_N_RULES (RULE_TYPE_FALLBACK + 1)
/* π_cast: the program calls a function cast to another function-pointer
 * type through that type (a deliberate conversion, not a stray one). */
/* π_class: an object's dynamic class is the one its allocation site
 * constructs (no placement new over it, no cast to an unrelated class). */
/* π_open: what the site's location holds is not all named in the code (the
 * evidence says why), so any function whose address is taken may be there. */
typedef enum facet_premise {
	PREMISE_TRUE, PREMISE_BIND, PREMISE_PROJ, PREMISE_SIG, PREMISE_CAST, PREMISE_CLASS, PREMISE_OPEN, PREMISE_NONE
} facet_premise;
typedef enum fact_source { SOURCE_SYMBOLIC, SOURCE_ORACLE } fact_source;

/* One decision of the provenance: a fact ⟨c, f, add|prune⟩ and its outcome;
 * a supported or rejected one carries its warrant ⟨rule, evidence, premise⟩. */
typedef struct facet_decision {
	unsigned site, function;
	fact_kind fact;
	fact_outcome outcome;
	facet_rule rule;
	facet_premise premise;
	fact_source source;
	const char *evidence;      /* what the rule checked, for people ("init ngx_http_map_module_ctx+48") */
} facet_decision;

/* ---- residual questions (§3.4.1) ---------------------------------------------- */

typedef enum question_kind { QUESTION_COMPLETION, QUESTION_DISAMBIGUATION } question_kind;
typedef struct facet_question {
	question_kind kind;
	unsigned site;
	unsigned field;            /* context, IR_NONE when unrecovered */
	unsigned *candidates;      /* function ids, ascending */
	unsigned n_candidates;
	bool answered;             /* the oracle gave a usable answer */
} facet_question;

/* ---- the run ---------------------------------------------------------------------- */

typedef struct facet_options {
	unsigned tau;              /* abstention threshold, default 2 */
	facet_oracle *oracle;      /* NULL = the `none` backend */
} facet_options;
void facet_options_default(facet_options *o);

typedef struct facet_result {
	const ir_program *prog;
	const pta_result *pta;     /* the points-to result refined (it outlives the result) */
	facet_options options;
	bool has_debug_info;       /* false: nothing recovered, R± = R0 (the note says why) */
	const char *note;          /* NULL, or why the refinement could not apply */
	facet_site *sites;         /* one per indirect site, ascending site id */
	unsigned n_sites;
	unsigned *site_index;      /* site id -> index in sites[], IR_NONE for non-indirect */
	facet_field *fields;       /* every function-pointer field with a site or an assignment */
	unsigned n_fields;
	facet_decision *decisions; /* the provenance, by site then function */
	unsigned n_decisions;
	facet_question *questions;
	unsigned n_questions;
	cg_graph *r0;              /* R0, owned */
	double seconds;            /* refinement only (not the points-to analysis) */
	arena arena;
} facet_result;

/* Runs the refinement over a points-to result (which must outlive it). */
facet_result *facet_refine(const pta_result *pta, const facet_options *opt);
void facet_result_free(facet_result *r);


/* Derives graph kind (CG_R0, CG_RULESONLY, CG_RPLUS or CG_RPM: the graphs
 * derivable from the provenance) from R0 and the decisions alone, under
 * threshold tau. */
cg_graph *facet_derive(const ir_program *p, const cg_graph *r0, const facet_decision *d, unsigned n,
                       unsigned tau, cg_graph_id kind);
/* The same over a result, with its own tau. */
cg_graph *facet_graph(const facet_result *r, cg_graph_id kind);

const char *disp_status_name(disp_status s);   /* "field", "global", "array", "unrecovered", "named" */
const char *disp_step_name(disp_step s);       /* "direct", "chained", "typed", "rebased", "" */
const char *facet_rule_name(facet_rule r);     /* "Add-Witness", ..., "Type-Fallback", "residual" */
const char *facet_premise_name(facet_premise p); /* "true", "pi_bind", "pi_proj", "pi_sig", "pi_cast", "pi_class", "pi_open", "" */
const char *fact_kind_name(fact_kind k);       /* "add", "prune" */
const char *fact_outcome_name(fact_outcome o); /* "supported", "rejected", "residual" */
const char *assign_form_name(assign_form f);   /* "init", "store", "copy" */

#endif
