/* u.c — a tree that carries a copy of a standard header for another
 * platform (compat/msvc/stdint.h). The system's stdint.h must win, as in
 * any build here, so uint64_t is a type and every call below is read; the
 * tree's own mix.h in the same directory still resolves. */
#include <stdint.h>
#include <mix.h>

struct type { uint64_t (*hash)(const void *key); };

static uint64_t hash_str(const void *k) { return (uint64_t)(const char *)k; }

struct type str_type = { hash_str };

uint64_t index_of(struct type *t, const void *key)
{
	uint64_t h;
	h = t->hash(key) & 7;                     /* -> hash_str@u.c:W */
	return mix_bits(h);                       /* -> mix_bits */
}
