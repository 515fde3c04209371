/* lowering.h — state shared by the two halves of ingest (internal to src/ir):
 * ingest.c (modules, functions, globals, call sites, debug info) and
 * lower.c (pointer statements for the points-to analysis). */
#ifndef FACET_IR_LOWERING_H
#define FACET_IR_LOWERING_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "ir/dinfo.h"
#include "ir/ingest.h"
#include "ir/model.h"
#include "util/ptrmap.h"
#include "util/vec.h"

typedef struct lowering {
	ir_program *prog;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMTargetDataRef layout;
	dinfo_reader di;
	ptrmap value_ids;          /* LLVMValueRef -> (void*)(id + 1) */
	ptrmap type_strings;       /* LLVMTypeRef -> interned printed type */
	ptrmap fn_types;           /* LLVMTypeRef of a function type -> its ir_fn_type */
	ptrmap functions;          /* LLVMValueRef -> ir_function* */
	ptrmap globals;            /* LLVMValueRef -> ir_global* */
	unsigned callback_kind, dbg_kind;
	unsigned nocallback_attr;
	VEC(ir_site) sites;
	VEC(ir_dbg_binding) bindings;
	VEC(ir_stmt) stmts;        /* the current function's statements */
	VEC(ir_stmt) const_stmts;  /* statements defining constant-expression values */
	ptrmap arrays;             /* LLVMTypeRef -> its ir_arrays, (void*)1 when none */
	ptrmap tracked;            /* LLVMTypeRef -> (void*)1 tracked, (void*)2 not */
	bool sites_only;           /* ingest_options.sites_only */
	bool keep_site_insts;      /* record site_insts (the trace instrumentation asks) */
	VEC(LLVMValueRef) site_insts;   /* call instruction per site id */
	bool x86_64;               /* the target's asm text is read for calls (asmcall.h) */
	unsigned call_first_site;  /* the current call's first site: an asm's calls follow its own */
} lowering;

/* Value ids: a fresh one for v, or v's (IR_NONE when it has none). */
unsigned lower_new_value(lowering *L, LLVMValueRef v);
unsigned lower_value_id(lowering *L, LLVMValueRef v);
/* The interned printed form of an IR type. */
const char *lower_type_string(lowering *L, LLVMTypeRef ty);
/* The record of a function type (one per distinct type). */
const ir_fn_type *lower_fn_type(lowering *L, LLVMTypeRef fty);
/* call, invoke or callbr */
bool lower_is_call(LLVMValueRef inst);
/* The callee when the call is direct by LLVM's rule, else NULL. */
LLVMValueRef lower_direct_callee(LLVMValueRef call);

/* ingest.c: parse and link the inputs as ir_ingest does (verified unless
 * opt->verify is false); NULL and err set on failure. */
LLVMModuleRef lower_link_inputs(LLVMContextRef ctx, const char *const *paths, unsigned n,
                                const ingest_options *opt, ingest_warnings *warnings, facet_error *err);
/* ingest.c: lower a linked module, which stays alive; with site_insts non-NULL,
 * also a malloc'd array of each site's call instruction, indexed by site id. */
ir_program *lower_linked_module(LLVMContextRef ctx, LLVMModuleRef mod, const char *const *paths, unsigned n,
                                const ingest_options *opt, LLVMValueRef **site_insts);

/* lower.c: the byte offset a GEP (instruction or constant expression) adds
 * to its base, from the data layout; false when an index is not constant. */
bool lower_gep_offset(lowering *L, LLVMValueRef gep, int64_t *out);
/* ty an array (of arrays...): the bytes of its innermost element; else 0. */
uint64_t lower_array_elem(lowering *L, LLVMTypeRef ty);
/* lower.c: the arrays in ty's layout (model.h's ir_arrays), memoised; NULL when none. */
const ir_arrays *lower_arrays(lowering *L, LLVMTypeRef ty);
/* lower.c: can a value of this type hold an address? */
bool lower_tracked_type(lowering *L, LLVMTypeRef ty);
/* lower.c: the value id an operand stands for, synthesising constant
 * expressions (their statements go to L->const_stmts); IR_NONE if untracked. */
unsigned lower_operand(lowering *L, LLVMValueRef v);
/* lower.c: append the statements of one instruction to L->stmts. */
void lower_instruction(lowering *L, LLVMValueRef inst);

/* cxx.c: each function's and global's demangled name (ir_function.demangled,
 * ir_global.demangled). */
void cxx_demangle_functions(ir_program *p);
/* cxx.c: C++ classes, vtable address points, allocation classes and
 * instantiations (model.h); then cxx_vcalls. Needs the lowered program. */
void cxx_lower(lowering *L);
/* vcall.c: the virtual call sites with their receivers' static classes, the
 * classes each function instantiates, and ir_function.vtable_only. */
void cxx_vcalls(lowering *L, const strmap *class_by_key, const strmap *class_by_name);

#endif
