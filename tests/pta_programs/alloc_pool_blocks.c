/* alloc_pool_blocks.c — sub-allocators: memory pools that carve objects out
 * of blocks they malloc'd themselves, behind a pool method table (a mail
 * server's alloconly and data-stack pools).
 *   - pool_system_malloc: a calloc wrapper (an allocator by the wrapper rule);
 *   - pool_block_malloc: returns block data + (size - left) of the block the
 *     pool holds and moves `left`: a pointer carved out of a block. It sits in
 *     the method-table slot where pool_system_malloc sits, so it is an
 *     allocator by its role;
 *   - pool_stack_malloc, in the same slot, returns what stack_alloc (a
 *     direct callee) returns, which is what block_next carves out of the
 *     block it is given: three levels, the inner two known as allocators
 *     only through their caller's role.
 * p_malloc (pool->v->malloc(pool, size)) is called at six places, two per
 * pool; every object gets its own callback, so every set is exactly the one
 * stored into its own object, if each call of p_malloc is an allocation site
 * of its own, whichever pool it reaches. A fourth pool, pool_debug_malloc,
 * writes a header into its block and returns a pointer past it: no
 * allocator, so its two objects (g, h) are its one malloc call's; that one
 * target of p_malloc is not an allocator must not merge the others'. At -O0
 * p_malloc is one function whose pool may be any of the four (context
 * insensitivity), so each of a..h may also be the debug pool's one object,
 * which then receives every callback stored through any of them: all eight
 * everywhere. At -O2 p_malloc is inlined into each call, whose pool is the
 * one its pools[] element holds, and the sets are exact.
 *
 * What must not be taken for an allocator: table_at returns a pointer into a
 * table's data at a variable offset, the same shape as pool_block_malloc's,
 * but is in no allocator's slot; the callbacks copied into the table with
 * memcpy are read back through it (a fresh object per call of table_at would
 * lose them). table_push also moves a cursor of the table it returns a
 * pointer into, like a pool, and what is stored through its result is read
 * through table_at: it must not be an allocator either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

struct job {
	int n;
	void (*run)(struct job *j);
};

static int total;

static void beep(struct job *j)
{
	OBSERVE_TARGET();
	total += j->n;
}

static void tick(struct job *j)
{
	OBSERVE_TARGET();
	total += 2 * j->n;
}

static void tock(struct job *j)
{
	OBSERVE_TARGET();
	total += 3 * j->n;
}

static void ring(struct job *j)
{
	OBSERVE_TARGET();
	total += 4 * j->n;
}

static void buzz(struct job *j)
{
	OBSERVE_TARGET();
	total += 5 * j->n;
}

static void hum(struct job *j)
{
	OBSERVE_TARGET();
	total += 6 * j->n;
}

static void chirp(struct job *j)
{
	OBSERVE_TARGET();
	total += 7 * j->n;
}

static void zap(struct job *j)
{
	OBSERVE_TARGET();
	total += 8 * j->n;
}

static void purr(struct job *j)
{
	OBSERVE_TARGET();
	total += 9 * j->n;
}

static void clank(struct job *j)
{
	OBSERVE_TARGET();
	total += 10 * j->n;
}

struct pool;
struct pool_vfuncs {
	void *(*malloc)(struct pool *pool, size_t size);
	void (*free)(struct pool *pool, void *mem);
};

struct pool {
	const struct pool_vfuncs *v;
	int refs;
};

/* The system pool: calloc and free. */
static void *pool_system_malloc(struct pool *pool, size_t size)
{
	OBSERVE_TARGET();
	(void)pool;
	void *mem = calloc(1, size);
	if (!mem)
		abort();
	return mem;
}

static void pool_system_free(struct pool *pool, void *mem)
{
	OBSERVE_TARGET();
	(void)pool;
	free(mem);
}

/* The block pool: objects carved from blocks, freed all at once. */
struct block {
	struct block *prev;
	size_t size, left;
};

#define BLOCK_DATA(b) ((unsigned char *)(b) + sizeof(struct block))

struct block_pool {
	struct pool pool;     /* first: the pool's address is the block pool's */
	struct block *block;
};

static void block_alloc(struct block_pool *bp, size_t size)
{
	struct block *b = malloc(sizeof *b + size);
	if (!b)
		abort();
	b->prev = bp->block;
	b->size = b->left = size;
	bp->block = b;
}

static void *pool_block_malloc(struct pool *pool, size_t size)
{
	OBSERVE_TARGET();
	struct block_pool *bp = (struct block_pool *)pool;
	size = (size + 15) & ~(size_t)15;
	if (bp->block->left < size)
		block_alloc(bp, size > 4096 ? size : 4096);
	void *mem = BLOCK_DATA(bp->block) + (bp->block->size - bp->block->left);
	bp->block->left -= size;
	return mem;
}

static void pool_block_free(struct pool *pool, void *mem)
{
	OBSERVE_TARGET();
	(void)pool;
	(void)mem;
}

static const struct pool_vfuncs system_vfuncs = {pool_system_malloc, pool_system_free};
static const struct pool_vfuncs block_vfuncs = {pool_block_malloc, pool_block_free};

/* The stack pool: a global block, allocated from by a direct callee, which
 * asks a helper where the block's free space starts (kept out of line, so
 * that -O2 has the three levels too). */
static struct block *stack_block;

__attribute__((noinline)) static void *block_next(struct block *b)
{
	return BLOCK_DATA(b) + (b->size - b->left);
}

static void *stack_alloc(size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!stack_block || stack_block->left < size) {
		struct block *b = malloc(sizeof *b + 4096 + size);
		if (!b)
			abort();
		b->prev = stack_block;
		b->size = b->left = 4096 + size;
		stack_block = b;
	}
	unsigned char *ret = block_next(stack_block);
	stack_block->left -= size;
	return ret;
}

static void *pool_stack_malloc(struct pool *pool, size_t size)
{
	OBSERVE_TARGET();
	(void)pool;
	void *mem = stack_alloc(size);
	memset(mem, 0, size);
	return mem;
}

static const struct pool_vfuncs stack_vfuncs = {pool_stack_malloc, pool_block_free};

/* A pool that is no allocator by any rule: it writes a header into the
 * memory it returns a pointer past. Its two objects are one (its malloc
 * call), but that must not merge the other pools' objects reached through
 * the same call of p_malloc. */
struct header {
	size_t size;
	size_t magic;
};

static void *pool_debug_malloc(struct pool *pool, size_t size)
{
	OBSERVE_TARGET();
	(void)pool;
	struct header *h = malloc(sizeof *h + size);
	if (!h)
		abort();
	h->size = size;
	h->magic = 0x600d;
	return h + 1;
}

static const struct pool_vfuncs debug_vfuncs = {pool_debug_malloc, pool_block_free};

static inline void *p_malloc(struct pool *pool, size_t size)
{
	return ICALL(pool->v->malloc(pool, size)); /* @r0: pool_system_malloc pool_block_malloc pool_stack_malloc pool_debug_malloc */
}

/* A table of callbacks with a cursor: neither function is an allocator. */
struct table {
	unsigned char *data;
	size_t used, cap, elem;
};

static void *table_at(struct table *t, size_t i)
{
	return t->data + i * t->elem;
}

static void *table_push(struct table *t)
{
	void *slot = t->data + t->used;
	t->used += t->elem;
	return slot;
}

typedef void (*run_fn)(struct job *j);

/* Read back through volatile, so -O2 cannot see which pool each call gets
 * and devirtualize it. */
static struct pool *volatile pools[4];

int main(void)
{
	struct pool system_pool = {&system_vfuncs, 1};
	struct block_pool bpool = {{&block_vfuncs, 1}, NULL};
	block_alloc(&bpool, 4096);
	struct pool spool = {&stack_vfuncs, 1};
	struct pool dpool = {&debug_vfuncs, 1};
	pools[0] = &system_pool, pools[1] = &bpool.pool, pools[2] = &spool, pools[3] = &dpool;

	struct job *a = p_malloc(pools[0], sizeof *a);
	a->n = 1, a->run = beep;
	struct job *b = p_malloc(pools[0], sizeof *b);
	b->n = 2, b->run = tick;
	struct job *c = p_malloc(pools[1], sizeof *c);
	c->n = 3, c->run = tock;
	struct job *d = p_malloc(pools[1], sizeof *d);
	d->n = 4, d->run = ring;
	struct job *e = p_malloc(pools[2], sizeof *e);
	e->n = 5, e->run = buzz;
	struct job *f = p_malloc(pools[2], sizeof *f);
	f->n = 6, f->run = hum;
	ICALL(a->run(a)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): beep */
	ICALL(b->run(b)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): tick */
	ICALL(c->run(c)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): tock */
	ICALL(d->run(d)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): ring */
	ICALL(e->run(e)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): buzz */
	ICALL(f->run(f)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): hum */
	struct job *g = p_malloc(pools[3], sizeof *g);
	g->n = 7, g->run = purr;
	struct job *h = p_malloc(pools[3], sizeof *h);
	h->n = 8, h->run = clank;
	ICALL(g->run(g)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): purr clank */
	ICALL(h->run(h)); /* @r0(O0): beep tick tock ring buzz hum purr clank @r0(O2): purr clank */

	/* The table: two callbacks copied in, one stored through table_push. */
	struct table t = {malloc(4 * sizeof(run_fn)), 0, 4 * sizeof(run_fn), sizeof(run_fn)};
	if (!t.data)
		abort();
	run_fn first = chirp;
	memcpy(table_push(&t), &first, sizeof first);
	*(run_fn *)table_push(&t) = zap;
	struct job j = {9, NULL};
	for (size_t i = 0; i < 2; i++) {
		run_fn r;
		memcpy(&r, table_at(&t, i), sizeof r);
		ICALL(r(&j)); /* @r0: chirp zap */
	}
	free(t.data);

	free(a), free(b);
	printf("total %d\n", total);
	return 0;
}
