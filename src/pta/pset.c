/* pset.c — hash-consed points-to sets (see pset.h).
 *
 * A set is an entry of one array, named by its index: its elements (an
 * sbitmap), hash, size and reference count. An intern table (chained through
 * the entries) finds a live set equal to a new one, so equal sets share one
 * entry. Two direct-mapped caches remember unions and differences by operand
 * ids; an entry's generation, bumped whenever its contents change or it is
 * freed, tells a cached answer that still holds from one that no longer
 * does, so nothing has to be invalidated eagerly.
 *
 * A set with one reference may be changed in place (pset_join): the entry
 * leaves the intern table, takes the new elements and rejoins it, or is
 * dropped for an equal live set. That keeps the cost of a node's private
 * set, which nothing shares, close to that of a plain sbitmap. */
#include "pta/pset.h"
#include "util/xalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xffffffffu

typedef struct ent {
	sbitmap  bits;
	uint64_t hash;
	uint32_t refs;      /* 0: a free entry */
	uint32_t count;
	uint32_t next;      /* intern chain, or the free list */
	uint32_t gen;       /* bumped when the contents change or the entry is freed */
} ent;

typedef struct memo { uint32_t a, ga, b, gb, r, gr; } memo;

struct pset_store {
	ent *e;
	size_t len, cap;
	uint32_t free_head;
	uint32_t *buckets;
	size_t nbuckets;    /* a power of 2 */
	memo *umemo, *dmemo;
	size_t nmemo;       /* a power of 2 */
	sbitmap gained;     /* scratch: what a join added, to update its hash from */
	pset_stats st;
};

#define MEMO_MIN (1u << 14)
#define MEMO_MAX (1u << 20)

pset_store *pset_new(void)
{
	pset_store *ps = xcalloc(1, sizeof *ps);
	ps->cap = 1024;
	ps->e = xcalloc(ps->cap, sizeof *ps->e);
	ps->len = 1;                      /* entry 0: the empty set, never freed */
	ps->e[0].refs = 1;
	ps->e[0].next = NONE;
	ps->free_head = NONE;
	ps->nbuckets = 1024;
	ps->buckets = xmalloc(ps->nbuckets * sizeof *ps->buckets);
	memset(ps->buckets, 0xff, ps->nbuckets * sizeof *ps->buckets);
	ps->nmemo = MEMO_MIN;
	ps->umemo = xcalloc(ps->nmemo, sizeof *ps->umemo);
	ps->dmemo = xcalloc(ps->nmemo, sizeof *ps->dmemo);
	return ps;
}

void pset_free(pset_store *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->len; i++)
		sbm_free(&ps->e[i].bits);
	free(ps->e);
	free(ps->buckets);
	free(ps->umemo);
	free(ps->dmemo);
	sbm_free(&ps->gained);
	free(ps);
}

const sbitmap *pset_bits(const pset_store *ps, uint32_t id)
{
	assert(id < ps->len && ps->e[id].refs);
	return &ps->e[id].bits;
}

uint32_t pset_count(const pset_store *ps, uint32_t id)
{
	assert(id < ps->len && ps->e[id].refs);
	return ps->e[id].count;
}

void pset_ref(pset_store *ps, uint32_t id)
{
	assert(id < ps->len && ps->e[id].refs);
	if (id != PSET_EMPTY)
		ps->e[id].refs++;
}

/* ---- the intern table ---- */

static uint32_t *bucket(pset_store *ps, uint64_t hash)
{
	return &ps->buckets[hash & (ps->nbuckets - 1)];
}

static void chain_insert(pset_store *ps, uint32_t id)
{
	uint32_t *b = bucket(ps, ps->e[id].hash);
	ps->e[id].next = *b;
	*b = id;
}

static void chain_remove(pset_store *ps, uint32_t id)
{
	uint32_t *p = bucket(ps, ps->e[id].hash);
	while (*p != id) {
		assert(*p != NONE);
		p = &ps->e[*p].next;
	}
	*p = ps->e[id].next;
}

static uint32_t lookup(const pset_store *ps, uint64_t hash, const sbitmap *bits)
{
	for (uint32_t i = ps->buckets[hash & (ps->nbuckets - 1)]; i != NONE; i = ps->e[i].next)
		if (ps->e[i].hash == hash && sbm_equal(&ps->e[i].bits, bits))
			return i;
	return NONE;
}

/* More live sets than buckets: twice the buckets, and caches to match. */
static void grow(pset_store *ps)
{
	if (ps->st.live <= ps->nbuckets)
		return;
	free(ps->buckets);
	ps->nbuckets *= 2;
	ps->buckets = xmalloc(ps->nbuckets * sizeof *ps->buckets);
	memset(ps->buckets, 0xff, ps->nbuckets * sizeof *ps->buckets);
	for (uint32_t i = 1; i < ps->len; i++)
		if (ps->e[i].refs)
			chain_insert(ps, i);
	if (ps->nmemo < MEMO_MAX && ps->nmemo < ps->nbuckets) {
		ps->nmemo *= 2;
		free(ps->umemo);
		free(ps->dmemo);
		ps->umemo = xcalloc(ps->nmemo, sizeof *ps->umemo);
		ps->dmemo = xcalloc(ps->nmemo, sizeof *ps->dmemo);
	}
}

static void release(pset_store *ps, uint32_t id)
{
	ent *e = &ps->e[id];
	sbm_free(&e->bits);
	e->refs = 0;
	e->gen++;
	e->next = ps->free_head;
	ps->free_head = id;
	ps->st.live--;
}

void pset_unref(pset_store *ps, uint32_t id)
{
	assert(id < ps->len && ps->e[id].refs);
	if (id == PSET_EMPTY || --ps->e[id].refs)
		return;
	chain_remove(ps, id);
	release(ps, id);
}

/* pset_intern, for a set whose hash (sbm_hash) is h. */
static uint32_t intern_hashed(pset_store *ps, sbitmap *bits, uint64_t h)
{
	if (!bits->len) {
		sbm_free(bits);
		return PSET_EMPTY;
	}
	uint32_t id = lookup(ps, h, bits);
	if (id != NONE) {
		ps->e[id].refs++;
		ps->st.shared++;
		sbm_free(bits);
		return id;
	}
	if (ps->free_head != NONE) {
		id = ps->free_head;
		ps->free_head = ps->e[id].next;
	} else {
		if (ps->len == ps->cap) {
			ps->cap *= 2;
			ps->e = xrealloc(ps->e, ps->cap * sizeof *ps->e);
		}
		id = (uint32_t)ps->len++;
		ps->e[id].gen = 0;
		assert(ps->len < NONE);
	}
	/* Made once, read many times: no spare capacity. */
	if (bits->cap > bits->len + bits->len / 4 + 2) {
		bits->elems = xrealloc(bits->elems, bits->len * sizeof *bits->elems);
		bits->cap = bits->len;
	}
	ent *e = &ps->e[id];
	e->bits = *bits;
	*bits = (sbitmap){0};
	e->hash = h;
	e->refs = 1;
	e->count = (uint32_t)sbm_count(&e->bits);
	chain_insert(ps, id);
	ps->st.live++;
	ps->st.made++;
	grow(ps);
	return id;
}

uint32_t pset_intern(pset_store *ps, sbitmap *bits)
{
	return intern_hashed(ps, bits, bits->len ? sbm_hash(bits) : 0);
}

/* ---- memoised operations ---- */

static memo *memo_slot(memo *tab, size_t n, uint32_t a, uint32_t b)
{
	uint64_t k = ((uint64_t)a << 32 | b) * 0x9e3779b97f4a7c15ULL;
	return &tab[(k >> 32) & (n - 1)];
}

static uint32_t memo_get(pset_store *ps, memo *tab, uint32_t a, uint32_t b)
{
	const memo *m = memo_slot(tab, ps->nmemo, a, b);
	if (m->a != a || m->b != b || m->ga != ps->e[a].gen || m->gb != ps->e[b].gen)
		return NONE;
	if (m->r >= ps->len || !ps->e[m->r].refs || m->gr != ps->e[m->r].gen)
		return NONE;
	ps->st.hits++;
	return m->r;
}

static void memo_put(pset_store *ps, memo *tab, uint32_t a, uint32_t b, uint32_t r)
{
	memo *m = memo_slot(tab, ps->nmemo, a, b);
	*m = (memo){ a, ps->e[a].gen, b, ps->e[b].gen, r, ps->e[r].gen };
}

uint32_t pset_diff(pset_store *ps, uint32_t a, uint32_t b)
{
	if (a == b || a == PSET_EMPTY)
		return PSET_EMPTY;
	if (b == PSET_EMPTY) {
		pset_ref(ps, a);
		return a;
	}
	uint32_t r = memo_get(ps, ps->dmemo, a, b);
	if (r != NONE) {
		pset_ref(ps, r);
		return r;
	}
	sbitmap c = {0};
	sbm_diff(&c, &ps->e[a].bits, &ps->e[b].bits);
	r = pset_intern(ps, &c);
	memo_put(ps, ps->dmemo, a, b, r);
	return r;
}

uint32_t pset_intersect(pset_store *ps, uint32_t a, uint32_t b)
{
	if (a == PSET_EMPTY || b == PSET_EMPTY)
		return PSET_EMPTY;
	if (a == b) {
		pset_ref(ps, a);
		return a;
	}
	sbitmap c = {0};
	sbm_copy(&c, &ps->e[a].bits);
	sbm_intersect(&c, &ps->e[b].bits);
	return pset_intern(ps, &c);
}

/* The slot's set, held by no one else, ∪= src (not its own elements). */
static size_t join_in_place(pset_store *ps, uint32_t *slot, const sbitmap *src)
{
	uint32_t id = *slot;
	ent *e = &ps->e[id];
	chain_remove(ps, id);
	/* The hash follows the elements that changed: a wide set gaining a
	 * few locations is not rehashed whole. */
	uint32_t old_len = e->bits.len;
	sbm_clear(&ps->gained);
	size_t added = sbm_union_track(&e->bits, src, &ps->gained);
	if (!added) {
		chain_insert(ps, id);
		return 0;
	}
	e->gen++;
	e->count += (uint32_t)added;
	e->hash = sbm_hash_update(e->hash, old_len, &e->bits, &ps->gained);
	ps->st.made++;
	uint32_t same = lookup(ps, e->hash, &e->bits);
	if (same == NONE) {
		chain_insert(ps, id);
		return added;
	}
	release(ps, id);
	ps->e[same].refs++;
	ps->st.shared++;
	*slot = same;
	return added;
}

/* The slot's shared set ∪ src as a new set, in the slot. */
static size_t join_copy(pset_store *ps, uint32_t *slot, const sbitmap *src, uint32_t *made)
{
	uint32_t a = *slot;
	sbitmap c = {0};
	sbm_copy(&c, &ps->e[a].bits);
	sbm_clear(&ps->gained);
	size_t added = sbm_union_track(&c, src, &ps->gained);
	if (!added) {
		sbm_free(&c);
		*made = a;
		return 0;
	}
	uint32_t r = intern_hashed(ps, &c, sbm_hash_update(ps->e[a].hash, ps->e[a].bits.len, &c, &ps->gained));
	pset_unref(ps, a);
	*slot = *made = r;
	return added;
}

size_t pset_join(pset_store *ps, uint32_t *slot, uint32_t b, const sbitmap *hint)
{
	uint32_t a = *slot;
	if (b == PSET_EMPTY || a == b)
		return 0;
	if (a == PSET_EMPTY) {
		pset_ref(ps, b);
		*slot = b;
		return ps->e[b].count;
	}
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
	uint32_t r = memo_get(ps, ps->umemo, lo, hi);
	if (ps->e[a].refs == 1) {
		/* A set nothing else holds changes in place. The same join again,
		 * into the set as it is now, adds nothing: a load's destination is
		 * joined the set of every memory node it gains an edge from, and
		 * those are often one set (dovecot: 7.9 of 9.4 million joins of
		 * new edges add nothing). */
		if (r == a)
			return 0;
		size_t added = join_in_place(ps, slot, hint ? hint : &ps->e[b].bits);
		if (*slot == a)
			memo_put(ps, ps->umemo, lo, hi, a);
		return added;
	}
	if (r != NONE) {
		if (r == a)
			return 0;
		size_t added = ps->e[r].count - ps->e[a].count;
		pset_ref(ps, r);
		pset_unref(ps, a);
		*slot = r;
		return added;
	}
	uint32_t gen_a = ps->e[a].gen, gen_b = ps->e[b].gen;
	size_t added = join_copy(ps, slot, &ps->e[b].bits, &r);
	/* a and b are still alive (b: the caller's; a: another holder's). */
	memo *m = memo_slot(ps->umemo, ps->nmemo, lo, hi);
	*m = (memo){ lo, lo == a ? gen_a : gen_b, hi, hi == a ? gen_a : gen_b, r, ps->e[r].gen };
	return added;
}

size_t pset_join_bits(pset_store *ps, uint32_t *slot, const sbitmap *bits)
{
	if (!bits->len)
		return 0;
	uint32_t a = *slot;
	if (a == PSET_EMPTY) {
		sbitmap c = {0};
		sbm_copy(&c, bits);
		*slot = pset_intern(ps, &c);
		return ps->e[*slot].count;
	}
	if (ps->e[a].refs == 1)
		return join_in_place(ps, slot, bits);
	uint32_t r;
	return join_copy(ps, slot, bits, &r);
}

size_t pset_add(pset_store *ps, uint32_t *slot, unsigned v)
{
	sbm_elem one = { .idx = v / SBM_BITS };
	one.w[(v % SBM_BITS) / 64] = 1ULL << (v % 64);
	sbitmap s = { &one, 1, 1 };
	return pset_join_bits(ps, slot, &s);
}

void pset_get_stats(const pset_store *ps, pset_stats *out)
{
	*out = ps->st;
	out->bytes = ps->cap * sizeof *ps->e + ps->nbuckets * sizeof *ps->buckets + 2 * ps->nmemo * sizeof(memo) +
	             sbm_bytes(&ps->gained);
	for (size_t i = 0; i < ps->len; i++)
		if (ps->e[i].refs)
			out->bytes += sbm_bytes(&ps->e[i].bits);
}
