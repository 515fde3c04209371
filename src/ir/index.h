/* index.h — lookups over a program model by value id, built once: which
 * statements define a value, which constant GEPs are based on it, which
 * global or function a value is the address of, the debug records binding
 * it, and the function each statement belongs to. The refinement's walks
 * (src/facet) read these; they hold no analysis policy.
 *
 * CSR layout: the statements filed under value v are
 * items[start[v]] .. items[start[v + 1] - 1], in program order. Every array
 * is indexed by value id (n_values + 1 entries), statement index or binding
 * index; ir_index_free releases them. */
#ifndef FACET_IR_INDEX_H
#define FACET_IR_INDEX_H

#include "ir/model.h"
#include "util/intmap.h"

typedef struct ir_index {
	unsigned *def_start, *defs;        /* value -> the statements defining it (stores and returns define none) */
	unsigned *gep_start, *geps;        /* value -> the constant GEPs based on it */
	unsigned *stmt_function;           /* statement -> its function id, IR_NONE for constant expressions */
	ir_global **global_of_value;       /* value -> the global it is the address of, or NULL */
	const ir_function **function_of_value;   /* value -> the function it is the address of, or NULL */
	/* value -> first #dbg_value with an empty expression on it, + 1 (0: none);
	 * next_binding chains the others on the same value, latest first */
	unsigned *value_binding, *next_binding;
	const ir_dbg_binding **slot_binding;     /* value -> the first #dbg_declare of it with an empty expression */
	const ir_dbg_binding **fragment_binding; /* value -> the first #dbg_value binding it to a variable's fragment */
	intmap offset_binding;   /* value -> 1 + the first #dbg_value binding a variable to it + a constant
	                            (ir_index_offset_binding; rare, so a map, not an array per value) */
} ir_index;

/* A statement's key for ir_csr_build: a value id, or IR_NONE (not filed). */
typedef unsigned (*ir_stmt_key)(const ir_stmt *st, const void *aux);
/* Files every statement under key(st) (see CSR layout); the caller frees both arrays. */
void ir_csr_build(const ir_program *p, ir_stmt_key key, const void *aux, unsigned **start, unsigned **items);

void ir_index_build(const ir_program *p, ir_index *ix);
/* The first #dbg_value record saying a variable is value v + a constant, or NULL. */
const ir_dbg_binding *ir_index_offset_binding(const ir_program *p, const ir_index *ix, unsigned v);
void ir_index_free(ir_index *ix);

/* How many statements define v, and the i-th (i < ir_index_n_defs). */
unsigned ir_index_n_defs(const ir_program *p, const ir_index *ix, unsigned v);
const ir_stmt *ir_index_def(const ir_program *p, const ir_index *ix, unsigned v, unsigned i);

#endif
