/* receivers.h — calls whose callee and some arguments are read from one
 * object: C's objects with methods and callbacks with their context.
 *
 *   pool->v->free(pool, mem)        the callee is read from the argument itself
 *   (*pp)->v->unref(pp)             ... through three loads
 *   cinfo->err->error_exit(cinfo)   ... through the error manager
 *   io->callback(io->context)       the callee and the argument from one struct
 *
 * In each, the value passed and the value the callee is read from are one
 * value: the call's real target sits in that value's own chain of loads,
 * so a target f needs only the arguments read from objects whose chain
 * holds f, not every object the argument may point to (andersen.c binds
 * them so). "One value": one SSA value, or (at -O0) two loads of a stack
 * slot that is stored once and whose address goes nowhere else — every
 * load of it reads the one value stored. Only loads and constant GEPs make
 * a chain (an integer or a cast in between could move the pointer in ways
 * the chain would not see). */
#ifndef FACET_PTA_RECEIVERS_H
#define FACET_PTA_RECEIVERS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/index.h"
#include "ir/model.h"

#define PTA_CHAIN_LOADS 4
#define PTA_PAIRED_ARGS 4

/* From a base pointer: n loads, load k at offset off[k] from the pointer
 * the previous one gave, then tail bytes added. */
typedef struct pta_chain {
	unsigned n;
	int64_t off[PTA_CHAIN_LOADS];
	int64_t tail;
} pta_chain;

typedef struct pta_paired {
	unsigned base;                     /* the value (id) the callee and the arguments are read from */
	pta_chain callee;                  /* n >= 1, tail 0 */
	unsigned n_args;                   /* >= 1 */
	unsigned arg[PTA_PAIRED_ARGS];     /* argument positions */
	pta_chain chain[PTA_PAIRED_ARGS];  /* each one's chain from base (n 0: base + tail itself) */
} pta_paired;

/* Whether indirect site s (in function s->caller) reads its callee and some
 * of its arguments from one base; the nearest such base to the callee. */
bool pta_paired_call(const ir_program *p, const ir_index *ix, const ir_site *s, pta_paired *out);

#endif
