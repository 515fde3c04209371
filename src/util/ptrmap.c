/* ptrmap.c — linear probing on a multiplicative hash of the address. */
#include "util/ptrmap.h"
#include "util/xalloc.h"

#include <stdint.h>

static size_t hash(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

void ptrmap_init(ptrmap *m)
{
	m->slots = NULL;
	m->cap = m->len = 0;
}

static ptrmap_slot *find(const ptrmap *m, const void *key)
{
	size_t mask = m->cap - 1;
	for (size_t i = hash(key) & mask;; i = (i + 1) & mask)
		if (!m->slots[i].key || m->slots[i].key == key)
			return &m->slots[i];
}

static void grow(ptrmap *m)
{
	ptrmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*find(m, old.slots[i].key) = old.slots[i];
	free(old.slots);
}

void *ptrmap_get(const ptrmap *m, const void *key)
{
	if (!m->cap || !key)
		return NULL;
	return find(m, key)->value;
}

void ptrmap_put(ptrmap *m, const void *key, void *value)
{
	if (2 * (m->len + 1) > m->cap)
		grow(m);
	ptrmap_slot *s = find(m, key);
	if (!s->key) {
		s->key = key;
		m->len++;
	}
	s->value = value;
}

void ptrmap_free(ptrmap *m)
{
	free(m->slots);
	ptrmap_init(m);
}
