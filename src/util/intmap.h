/* intmap.h — open-addressing hash map from 64-bit integer keys to 64-bit
 * values, for the indexes keyed by ids (value ids, (field, function)
 * pairs, clone contexts, (object, offset) pairs) and, through ptrmap.h, by
 * addresses. Every key is allowed, 0 and UINT64_MAX included. A slot is
 * 16 bytes: key 0 marks an empty slot, and the key 0 itself is kept beside
 * the table. */
#ifndef FACET_UTIL_INTMAP_H
#define FACET_UTIL_INTMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct intmap_slot { uint64_t key, value; } intmap_slot;
typedef struct intmap {
	intmap_slot *slots;
	size_t cap, len;           /* len counts the key 0 too */
	bool has_zero;
	uint64_t zero_value;
} intmap;

void intmap_init(intmap *m);
/* True and *value (when value is not NULL) when key is present. */
bool intmap_get(const intmap *m, uint64_t key, uint64_t *value);
/* The value of key, or dflt when absent. */
uint64_t intmap_get_or(const intmap *m, uint64_t key, uint64_t dflt);
void intmap_put(intmap *m, uint64_t key, uint64_t value);   /* replaces */
void intmap_free(intmap *m);
/* Iterates: size_t it = 0; while (intmap_next(m, &it, &key, &value)) ...
 * (key and value may be NULL). Order: the table's, then the key 0. */
bool intmap_next(const intmap *m, size_t *it, uint64_t *key, uint64_t *value);

#endif
