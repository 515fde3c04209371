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
	m->has_zero = false;
	m->zero_value = 0;
}

/* The slot of key (never 0), or the empty slot where it would go. */
static intmap_slot *find(const intmap *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	for (size_t i = mix(key) & mask;; i = (i + 1) & mask)
		if (!m->slots[i].key || m->slots[i].key == key)
			return &m->slots[i];
}

static void grow(intmap *m)
{
	intmap_slot *old = m->slots;
	size_t old_cap = m->cap;
	m->cap = old_cap ? old_cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*find(m, old[i].key) = old[i];
	free(old);
}

bool intmap_get(const intmap *m, uint64_t key, uint64_t *value)
{
	const intmap_slot *s = NULL;
	if (!key) {
		if (m->has_zero && value)
			*value = m->zero_value;
		return m->has_zero;
	}
	if (!m->cap || !(s = find(m, key))->key)
		return false;
	if (value)
		*value = s->value;
	return true;
}

uint64_t intmap_get_or(const intmap *m, uint64_t key, uint64_t dflt)
{
	uint64_t v;
	return intmap_get(m, key, &v) ? v : dflt;
}

void intmap_put(intmap *m, uint64_t key, uint64_t value)
{
	if (!key) {
		m->len += !m->has_zero;
		m->has_zero = true;
		m->zero_value = value;
		return;
	}
	if (2 * (m->len + 1) > m->cap)
		grow(m);
	intmap_slot *s = find(m, key);
	if (!s->key) {
		s->key = key;
		m->len++;
	}
	s->value = value;
}

bool intmap_next(const intmap *m, size_t *it, uint64_t *key, uint64_t *value)
{
	for (; *it < m->cap; ++*it)
		if (m->slots[*it].key) {
			if (key)
				*key = m->slots[*it].key;
			if (value)
				*value = m->slots[*it].value;
			++*it;
			return true;
		}
	if (*it == m->cap && m->has_zero) {
		if (key)
			*key = 0;
		if (value)
			*value = m->zero_value;
		++*it;
		return true;
	}
	return false;
}

void intmap_free(intmap *m)
{
	free(m->slots);
	intmap_init(m);
}
