/* hash.h — FNV-1a, the one hash facet uses (string maps, edge-set
 * interning, the build fingerprint, the trace key). Not cryptographic:
 * it spreads keys and tells one input from another, nothing more. */
#ifndef FACET_UTIL_HASH_H
#define FACET_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV64_INIT 0xcbf29ce484222325ull
#define HASH_FNV64_PRIME 0x100000001b3ull

/* Continues FNV-1a 64 state h over n bytes at p. */
static inline uint64_t hash_fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= HASH_FNV64_PRIME;
	}
	return h;
}

/* FNV-1a 64 of a NUL-terminated string. */
static inline uint64_t hash_fnv64_str(const char *s)
{
	uint64_t h = HASH_FNV64_INIT;
	for (const unsigned char *b = (const unsigned char *)s; *b; b++) {
		h ^= *b;
		h *= HASH_FNV64_PRIME;
	}
	return h;
}

#endif
