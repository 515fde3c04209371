/* interner.c — see interner.h. Linear probing over ids; the table is at
 * most half full. */
#include "util/interner.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/xalloc.h"

static uint64_t hash_words(const uint32_t *w, size_t n)
{
	uint64_t h = hash_fnv64(HASH_FNV64_INIT, w, n * sizeof *w);
	return h ^ (h >> 29);
}

void u32_interner_init(u32_interner *in)
{
	memset(in, 0, sizeof *in);
	in->cap = 256;
	in->slots = xcalloc(in->cap, sizeof *in->slots);
	VEC_PUSH(&in->offsets, 0);
}

void u32_interner_free(u32_interner *in)
{
	VEC_FREE(&in->words);
	VEC_FREE(&in->offsets);
	free(in->slots);
}

size_t u32_interner_count(const u32_interner *in)
{
	return in->offsets.len - 1;
}

const uint32_t *u32_interner_list(const u32_interner *in, uint32_t id, size_t *n)
{
	*n = in->offsets.items[id + 1] - in->offsets.items[id];
	return in->words.items + in->offsets.items[id];
}

static void grow(u32_interner *in)
{
	free(in->slots);
	in->cap *= 2;
	in->slots = xcalloc(in->cap, sizeof *in->slots);
	for (uint32_t id = 0; id < u32_interner_count(in); id++) {
		size_t n;
		const uint32_t *w = u32_interner_list(in, id, &n);
		size_t i = (size_t)hash_words(w, n) & (in->cap - 1);
		while (in->slots[i])
			i = (i + 1) & (in->cap - 1);
		in->slots[i] = id + 1;
	}
}

uint32_t u32_intern(u32_interner *in, const uint32_t *w, size_t n)
{
	if (2 * (u32_interner_count(in) + 1) > in->cap)
		grow(in);
	size_t i = (size_t)hash_words(w, n) & (in->cap - 1);
	for (; in->slots[i]; i = (i + 1) & (in->cap - 1)) {
		size_t m;
		const uint32_t *x = u32_interner_list(in, in->slots[i] - 1, &m);
		if (m == n && memcmp(x, w, n * sizeof *w) == 0)
			return in->slots[i] - 1;
	}
	uint32_t id = (uint32_t)u32_interner_count(in);
	VEC_RESERVE(&in->words, in->words.len + n);
	memcpy(in->words.items + in->words.len, w, n * sizeof *w);
	in->words.len += n;
	VEC_PUSH(&in->offsets, (uint32_t)in->words.len);
	in->slots[i] = id + 1;
	return id;
}

