/* strmap.c — linear probing, power-of-two capacity, load factor <= 1/2. */
#include "util/strmap.h"
#include "util/hash.h"
#include "util/xalloc.h"

#include <string.h>

uint64_t strmap_hash(const char *s)
{
	return hash_fnv64_str(s);
}

void strmap_init(strmap *m)
{
	m->slots = NULL;
	m->cap = m->len = 0;
}

static strmap_slot *find(const strmap *m, const char *key, uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		strmap_slot *s = &m->slots[i];
		if (!s->key || (s->hash == h && strcmp(s->key, key) == 0))
			return s;
	}
}

static void grow(strmap *m)
{
	strmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*find(m, old.slots[i].key, old.slots[i].hash) = old.slots[i];
	free(old.slots);
}

void *strmap_get(const strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	strmap_slot *s = find(m, key, strmap_hash(key));
	return s->key ? s->value : NULL;
}

int strmap_has(const strmap *m, const char *key)
{
	return m->cap && find(m, key, strmap_hash(key))->key != NULL;
}

void strmap_put(strmap *m, const char *key, void *value)
{
	if (2 * (m->len + 1) > m->cap)
		grow(m);
	uint64_t h = strmap_hash(key);
	strmap_slot *s = find(m, key, h);
	if (!s->key) {
		s->key = key;
		s->hash = h;
		m->len++;
	}
	s->value = value;
}

void strmap_free(strmap *m)
{
	free(m->slots);
	strmap_init(m);
}
