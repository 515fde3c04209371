/* intmap.c — linear probing on a mixed 64-bit key (intmap.h). */
#include "util/intmap.h"
#include "util/xalloc.h"

#include <stdlib.h>

static size_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (size_t)x;
}

void intmap_init(intmap *m)
{
	m->slots = NULL;
	m->cap = m->len = 0;
}

static intmap_slot *find(const intmap *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	for (size_t i = mix(key) & mask;; i = (i + 1) & mask)
		if (!m->slots[i].used || m->slots[i].key == key)
			return &m->slots[i];
}

static void grow(intmap *m)
{
	intmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].used)
			*find(m, old.slots[i].key) = old.slots[i];
	free(old.slots);
}

bool intmap_get(const intmap *m, uint64_t key, uint64_t *value)
{
	if (!m->cap)
		return false;
	const intmap_slot *s = find(m, key);
	if (s->used && value)
		*value = s->value;
	return s->used;
}

uint64_t intmap_get_or(const intmap *m, uint64_t key, uint64_t dflt)
{
	uint64_t v;
	return intmap_get(m, key, &v) ? v : dflt;
}

void intmap_put(intmap *m, uint64_t key, uint64_t value)
{
	if (2 * (m->len + 1) > m->cap)
		grow(m);
	intmap_slot *s = find(m, key);
	if (!s->used) {
		s->used = true;
		s->key = key;
		m->len++;
	}
	s->value = value;
}

void intmap_free(intmap *m)
{
	free(m->slots);
	intmap_init(m);
}
