/* wrappers.h — allocation wrappers: functions that return fresh heap memory.
 *
 * `static void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }`
 * hands every caller its own object; treating each call of it as an
 * allocation site keeps those objects apart, as the analysis does for
 * malloc itself. A function qualifies when every value it returns comes
 * (through copies, phis and -O0 stack slots) from an allocator or another
 * wrapper, and it neither reads nor writes through that pointer nor lets it
 * escape other than by returning it (calls to library functions without
 * pointer effects, such as memset and free, are allowed). A function that
 * initialises fields of the new object is not a wrapper: its stores must be
 * seen on the one object they write.
 *
 * Through pointers. A value may also come from an indirect call
 * (`return pool->v->malloc(pool, n)`): whether that allocates depends on the
 * call's targets, known only while solving, so such a function is a wrapper
 * on condition. Its sources (the calls whose results it returns) say what
 * each of its call sites receives: per allocating target a fresh object,
 * per other target what the inner call returns (andersen.c).
 *
 * Sub-allocators. A pool that carves objects out of blocks it allocated
 * (`return BLOCK_DATA(pool->block) + (size - left)`) returns no allocator's
 * result, and an accessor (`return t->data + i * t->elem`) has the same
 * shape; what tells them apart is the role. A function that an initializer
 * puts into a method table's slot (a global's IR type and byte offset) where
 * another initializer puts an allocator or a wrapper (`{pool_system_malloc,
 * ...}` beside `{pool_block_malloc, ...}`) is an allocator by role, and so is
 * a direct callee whose result such a function returns. One of these whose
 * returned values are carved (geps, one with a variable offset, of a block's
 * address that is not a stack slot) and that neither reads nor writes them is a wrapper that
 * carves: each of its call sites gets a fresh object. The policy assumes what
 * pools do: the carved bytes are used only through the pointer returned, not
 * read back through the block (the block itself keeps its own object, with
 * only the pool's bookkeeping in it). Roles come from initializers only; a
 * slot filled by a store at run time gives none. Without a role, a function
 * carves as a pool when the block is, on some path, an allocation it made
 * itself (`if (!b) b = get_block(n); return (char *)(b + 1) + b->used;`,
 * an image codec's alloc_small) and it copies no memory: a growing table
 * that moves its contents into the new block (memcpy, realloc) is no pool. */
#ifndef FACET_PTA_WRAPPERS_H
#define FACET_PTA_WRAPPERS_H

#include <stdbool.h>

#include "ir/model.h"

typedef struct pta_wrappers {
	bool *is_wrapper;          /* by function id */
	bool *carves;              /* by function id: a wrapper some of whose returns are carved (a fresh object) */
	unsigned **sources;        /* by function id: ids of the call sites whose results it returns */
	unsigned *n_sources;
	unsigned n_functions;
	unsigned n_wrappers;
	unsigned n_via_pointer;    /* wrappers with an indirect call among their sources */
	unsigned n_carving;        /* sub-allocators: wrappers that carve */
} pta_wrappers;

pta_wrappers *pta_find_wrappers(const ir_program *p);
/* Which parameter of f value v is (directly, or at -O0 a load of a stack
 * slot that only ever holds that parameter); -1 when none. */
int pta_param_of(const ir_program *p, const ir_function *f, unsigned v);
void pta_wrappers_free(pta_wrappers *w);

#endif
