/* alloc_pointers.c — objects allocated through function pointers, each idiom
 * of a library that lets its user choose the allocator:
 *   - a memory-handling suite passed in a struct (an XML parser's
 *     malloc/free pair), reached through the wrapper suite_alloc;
 *   - a global allocator pointer (xmlMalloc-style), through g_new;
 *   - a pool method table, pool->v->malloc(pool, size), behind the inline
 *     wrapper p_malloc, whose system pool's malloc is itself a wrapper of
 *     calloc: two levels of wrapping;
 *   - an allocator callback (lua_Alloc-style: realloc, or free for size 0)
 *     behind mem_alloc and mem_grow, whose reallocation keeps the content;
 *   - a pool manager reached through a struct (cinfo->mem->alloc_small).
 * Each wrapper is called at two places and each object gets its own
 * callback, so every site's set is exactly the one stored into its object:
 * the objects stay apart only if each call of a wrapper through a pointer is
 * an allocation site of its own. mem_grow's reallocation copies only the block it is given: g2 holds
 * g's callback, and h, allocated through the same callback, does not. */
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

static void clang_(struct job *j)
{
	OBSERVE_TARGET();
	total += 8 * j->n;
}

static void whirr(struct job *j)
{
	OBSERVE_TARGET();
	total += 9 * j->n;
}

static void zap(struct job *j)
{
	OBSERVE_TARGET();
	total += 10 * j->n;
}

/* The allocators a library is handed (observed; each a wrapper of libc's). */
static void *user_malloc(size_t n)
{
	OBSERVE_TARGET();
	return malloc(n);
}

static void user_free(void *p)
{
	OBSERVE_TARGET();
	free(p);
}

static void *tracked_malloc(size_t n)
{
	OBSERVE_TARGET();
	return malloc(n);
}

/* 1. A memory-handling suite passed in a struct. */
struct mem_suite {
	void *(*alloc)(size_t n);
	void (*release)(void *p);
};

struct parser {
	struct mem_suite mem;
	int depth;
};

static void *suite_alloc(struct parser *p, size_t n)
{
	return ICALL(p->mem.alloc(n)); /* @r0: user_malloc */
}

/* 2. A global allocator pointer. */
void *(*g_malloc)(size_t n) = tracked_malloc;

static void *g_new(size_t n)
{
	return ICALL(g_malloc(n)); /* @r0: tracked_malloc */
}

/* 3. A pool method table, two levels of wrapping. */
struct pool;
struct pool_vfuncs {
	void *(*malloc)(struct pool *pool, size_t size);
	void (*free)(struct pool *pool, void *mem);
};

struct pool {
	const struct pool_vfuncs *v;
	int refs;
};

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

static const struct pool_vfuncs system_vfuncs = {pool_system_malloc, pool_system_free};
static struct pool system_pool = {&system_vfuncs, 1};

static inline void *p_malloc(struct pool *pool, size_t size)
{
	return ICALL(pool->v->malloc(pool, size)); /* @r0: pool_system_malloc */
}

/* 4. An allocator callback. */
typedef void *(*alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

struct state {
	alloc_fn frealloc;
	void *ud;
};

static void *l_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	OBSERVE_TARGET();
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

static void *mem_alloc(struct state *L, size_t n)
{
	void *p = ICALL(L->frealloc(L->ud, NULL, 0, n)); /* @r0: l_alloc */
	if (!p)
		abort();
	return p;
}

static void *mem_grow(struct state *L, void *block, size_t o, size_t n)
{
	void *p = ICALL(L->frealloc(L->ud, block, o, n)); /* @r0: l_alloc */
	if (!p)
		abort();
	return p;
}

/* 5. A pool manager reached through a struct. */
struct cinfo;
struct memory_mgr {
	void *(*alloc_small)(struct cinfo *cinfo, size_t n);
};

struct cinfo {
	struct memory_mgr *mem;
	int quality;
};

static void *alloc_small(struct cinfo *cinfo, size_t n)
{
	OBSERVE_TARGET();
	(void)cinfo;
	void *p = malloc(n);
	if (!p)
		abort();
	return p;
}

static struct memory_mgr mgr = {alloc_small};

static struct job *fill(void *mem, int n, void (*run)(struct job *))
{
	struct job *j = mem;
	j->n = n;
	j->run = run;
	return j;
}

int main(void)
{
	struct parser ps = {{user_malloc, user_free}, 0};
	struct job *a = suite_alloc(&ps, sizeof *a);
	a->n = 1, a->run = beep;
	struct job *b = suite_alloc(&ps, sizeof *b);
	b->n = 2, b->run = tick;
	ICALL(a->run(a)); /* @r0: beep */
	ICALL(b->run(b)); /* @r0: tick */

	struct job *c = g_new(sizeof *c);
	c->n = 3, c->run = tock;
	struct job *d = g_new(sizeof *d);
	d->n = 4, d->run = ring;
	ICALL(c->run(c)); /* @r0: tock */
	ICALL(d->run(d)); /* @r0: ring */

	struct job *e = p_malloc(&system_pool, sizeof *e);
	e->n = 5, e->run = buzz;
	struct job *f = p_malloc(&system_pool, sizeof *f);
	f->n = 6, f->run = hum;
	ICALL(e->run(e)); /* @r0: buzz */
	ICALL(f->run(f)); /* @r0: hum */

	struct state L = {l_alloc, NULL};
	struct job *g = mem_alloc(&L, sizeof *g);
	g->n = 7, g->run = chirp;
	struct job *h = mem_alloc(&L, sizeof *h);
	h->n = 8, h->run = clang_;
	ICALL(g->run(g)); /* @r0: chirp */
	ICALL(h->run(h)); /* @r0: clang_ */
	/* The reallocated block keeps what the old one held. */
	struct job *g2 = mem_grow(&L, g, sizeof *g, 2 * sizeof *g);
	ICALL(g2->run(g2)); /* @r0: chirp */

	struct cinfo ci = {&mgr, 75};
	struct job *k = fill(ICALL(ci.mem->alloc_small(&ci, sizeof *k)), 9, whirr); /* @r0: alloc_small */
	struct job *m = ICALL(ci.mem->alloc_small(&ci, sizeof *m)); /* @r0: alloc_small */
	m->n = 10, m->run = zap;
	ICALL(m->run(m)); /* @r0: zap */
	ICALL(k->run(k)); /* @r0: whirr */

	printf("total %d\n", total);
	ICALL(ps.mem.release(a)); /* @r0: user_free */
	free(b), free(c), free(d), free(h), free(k), free(m);
	ICALL(system_pool.v->free(&system_pool, e)); /* @r0: pool_system_free */
	ICALL(system_pool.v->free(&system_pool, f)); /* @r0: pool_system_free */
	ICALL(L.frealloc(L.ud, g2, 0, 0)); /* @r0: l_alloc */
	return 0;
}
