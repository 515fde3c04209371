/* intmap.h — open-addressing hash map from 64-bit integer keys to 64-bit
 * values, for the indexes keyed by ids (value ids, (field, function)
 * pairs, clone contexts) that were pointer maps with ids cast to pointers.
 * Every key is allowed, 0 and UINT64_MAX included. */
#ifndef FACET_UTIL_INTMAP_H
#define FACET_UTIL_INTMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct intmap_slot { uint64_t key, value; bool used; } intmap_slot;
typedef struct intmap { intmap_slot *slots; size_t cap, len; } intmap;

void intmap_init(intmap *m);
/* True and *value (when value is not NULL) when key is present. */
bool intmap_get(const intmap *m, uint64_t key, uint64_t *value);
/* The value of key, or dflt when absent. */
uint64_t intmap_get_or(const intmap *m, uint64_t key, uint64_t dflt);
void intmap_put(intmap *m, uint64_t key, uint64_t value);   /* replaces */
void intmap_free(intmap *m);
/* Iterate: for (size_t i = 0; i < m->cap; i++) if (m->slots[i].used) ... */

#endif
