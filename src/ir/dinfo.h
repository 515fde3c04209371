/* dinfo.h — read LLVM debug-info metadata into the model's di_* structs.
 *
 * Internal to src/ir (it speaks LLVM C API types). LLVM 22's C getters such as
 * LLVMDITypeGetName and LLVMDITypeGetOffsetInBits are unsafe on nodes that
 * lack the field, so this module reads every node the same careful way: it
 * checks the node's metadata kind, then reads operands by their documented
 * index (DebugInfoMetadata.h of LLVM 22) through LLVMGetMDNodeOperands, and
 * calls a C getter only on a node of the exact kind that getter is for. */
#ifndef FACET_IR_DINFO_H
#define FACET_IR_DINFO_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "ir/model.h"
#include "util/ptrmap.h"
#include "util/strmap.h"
#include "util/vec.h"

typedef struct dinfo_reader {
	LLVMContextRef ctx;
	ir_program *prog;
	ptrmap types;              /* LLVMMetadataRef -> di_type* */
	ptrmap vars;               /* LLVMMetadataRef -> di_variable* */
	ptrmap empty_exprs;        /* LLVMMetadataRef -> (void*)1 empty, (void*)2 not */
	VEC(di_type *) all;        /* in creation order; becomes prog->types */
	strmap class_keys;         /* scoped name -> class key (dinfo_name_classes) */
} dinfo_reader;

void dinfo_init(dinfo_reader *r, LLVMContextRef ctx, ir_program *prog);
/* Moves the types read into prog->types and frees the reader's maps. */
void dinfo_finish(dinfo_reader *r);

/* The classes of the module by name (names[i] -> keys[i]; interned strings
 * that outlive the reader): every struct type without an ODR identifier
 * whose scoped_name is names[i], read so far or later, gets keys[i] as its
 * identifier. clang leaves out the identifier of many C++ classes (those
 * defined in a .cc file, those in an anonymous namespace). */
void dinfo_name_classes(dinfo_reader *r, const char *const *names, const char *const *keys, unsigned n);

/* A DIType node (basic, derived, composite, subroutine) as a di_type; NULL for
 * NULL (void) or a node that is not a type. */
di_type *dinfo_type(dinfo_reader *r, LLVMMetadataRef md);
/* A DILocalVariable or DIGlobalVariable; NULL for anything else. */
di_variable *dinfo_variable(dinfo_reader *r, LLVMMetadataRef md);
/* True when the DIExpression has no operations. */
bool dinfo_expr_is_empty(dinfo_reader *r, LLVMMetadataRef expr);
/* True when the expression is DW_OP_LLVM_fragment(offset, size) alone. */
bool dinfo_expr_fragment(dinfo_reader *r, LLVMMetadataRef expr, uint64_t *offset_bits, uint64_t *size_bits);
/* True when the expression is a constant offset alone, `DW_OP_constu N,
 * DW_OP_minus` or `DW_OP_plus_uconst N` then DW_OP_stack_value: the variable
 * is the value + *bytes (container_of, `c = (T *)((char *)q - 16)`, kept at
 * -O2 as a record on q). */
bool dinfo_expr_offset(dinfo_reader *r, LLVMMetadataRef expr, int64_t *bytes);

/* Position of a DILocation (file from its scope). */
ir_loc dinfo_location(dinfo_reader *r, LLVMMetadataRef loc);
/* The DISubprogram enclosing a local scope (lexical blocks walked up); NULL if none. */
LLVMMetadataRef dinfo_subprogram_of(dinfo_reader *r, LLVMMetadataRef scope);
/* Name, position and (when sig is not NULL) subroutine type of a DISubprogram. */
void dinfo_subprogram(dinfo_reader *r, LLVMMetadataRef sp, const char **name, ir_loc *loc,
                      di_type **sig);

#endif
