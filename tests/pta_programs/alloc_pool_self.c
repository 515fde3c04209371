/* alloc_pool_self.c — a memory manager whose pool carves objects out of
 * blocks it allocates itself, reached through a method table filled at run
 * time (an image codec's `cinfo->mem->alloc_small`): no initializer puts
 * pool_alloc into any slot, so only its shape says it is an allocator.
 *   - pool_alloc walks the pool's list of blocks for one with room, mallocs
 *     a new block (through get_block, a malloc wrapper) when none has any,
 *     and returns (char *)(block + 1) + block->used: a pointer carved out of
 *     a block it may have just allocated, and it copies no memory. Each of
 *     its call sites gets an object of its own, so each job's set is the
 *     one callback stored into it.
 *   - table_push also carves (t->data + t->used) and allocates a new block
 *     when the table is full, but it copies the old contents into it
 *     (memcpy): a growing table, not a pool. What is stored through its
 *     result is read back through table_at, so it must not be an allocator:
 *     the two callbacks pushed are both read at the one call through the
 *     table.
 * Both levels give the same sets: at -O0 the block comes to the carved
 * pointer through stack slots, at -O2 through a phi. */
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

static void chirp(struct job *j)
{
	OBSERVE_TARGET();
	total += 4 * j->n;
}

static void zap(struct job *j)
{
	OBSERVE_TARGET();
	total += 5 * j->n;
}

struct block {
	struct block *next;
	size_t used, left;
};

struct mem_mgr {
	void *(*alloc)(struct mem_mgr *m, size_t size);
	struct block *list;
};

__attribute__((noinline)) static void *get_block(size_t size)
{
	void *p = malloc(size);
	if (!p)
		abort();
	return p;
}

static void *pool_alloc(struct mem_mgr *m, size_t size)
{
	OBSERVE_TARGET();
	size = (size + 15) & ~(size_t)15;
	struct block *prev = NULL, *b = m->list;
	while (b && b->left < size) {
		prev = b;
		b = b->next;
	}
	if (!b) {
		b = (struct block *)get_block(sizeof *b + size + 256);
		b->next = NULL;
		b->used = 0;
		b->left = size + 256;
		if (prev)
			prev->next = b;
		else
			m->list = b;
	}
	void *mem = (char *)(b + 1) + b->used;
	b->used += size;
	b->left -= size;
	return mem;
}

/* A table of callbacks that grows by copying into a new block. */
typedef void (*run_fn)(struct job *j);

struct table {
	unsigned char *data;
	size_t used, cap;
};

__attribute__((noinline)) static void *table_push(struct table *t, size_t size)
{
	if (t->used + size > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		unsigned char *data = (unsigned char *)get_block(cap);
		if (t->used)
			memcpy(data, t->data, t->used);
		free(t->data);
		t->data = data;
		t->cap = cap;
	}
	void *slot = t->data + t->used;
	t->used += size;
	return slot;
}

__attribute__((noinline)) static run_fn table_at(struct table *t, size_t i)
{
	run_fn r;
	memcpy(&r, t->data + i * sizeof r, sizeof r);
	return r;
}

/* Read back through volatile, so -O2 cannot see which function the method
 * table holds and devirtualize the calls. */
static struct mem_mgr *volatile mgr_slot;

static void jinit_mem(void)
{
	struct mem_mgr *m = (struct mem_mgr *)get_block(sizeof *m);
	m->alloc = pool_alloc;   /* filled at run time, as the codec does */
	m->list = NULL;
	mgr_slot = m;
}

int main(void)
{
	jinit_mem();
	struct job *a = (struct job *)ICALL(mgr_slot->alloc(mgr_slot, sizeof *a)); /* @r0: pool_alloc */
	a->n = 1, a->run = beep;
	struct job *b = (struct job *)ICALL(mgr_slot->alloc(mgr_slot, sizeof *b)); /* @r0: pool_alloc */
	b->n = 2, b->run = tick;
	struct job *c = (struct job *)ICALL(mgr_slot->alloc(mgr_slot, sizeof *c)); /* @r0: pool_alloc */
	c->n = 3, c->run = tock;
	ICALL(a->run(a)); /* @r0: beep */
	ICALL(b->run(b)); /* @r0: tick */
	ICALL(c->run(c)); /* @r0: tock */

	struct table t = {NULL, 0, 0};
	*(run_fn *)table_push(&t, sizeof(run_fn)) = chirp;
	*(run_fn *)table_push(&t, sizeof(run_fn)) = zap;
	struct job j = {9, NULL};
	for (size_t i = 0; i < 2; i++) {
		run_fn r = table_at(&t, i);
		ICALL(r(&j)); /* @r0: chirp zap */
	}
	free(t.data);
	printf("total %d\n", total);
	return 0;
}
