/* strmap.h — open-addressing hash map from strings to pointers.
 *
 * Keys are not copied: the caller keeps them alive (they usually live in the
 * program model's arena). Used for symbol tables and interning. */
#ifndef FACET_UTIL_STRMAP_H
#define FACET_UTIL_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct strmap_slot { const char *key; void *value; uint64_t hash; } strmap_slot;
typedef struct strmap { strmap_slot *slots; size_t cap, len; } strmap;

void  strmap_init(strmap *m);
void *strmap_get(const strmap *m, const char *key);          /* NULL when absent */
void  strmap_put(strmap *m, const char *key, void *value);   /* replaces */
int   strmap_has(const strmap *m, const char *key);
void  strmap_free(strmap *m);
uint64_t strmap_hash(const char *s);                         /* FNV-1a, 64-bit */

/* Iteration: for (size_t i = 0; i < m.cap; i++) if (m.slots[i].key) ... */

#endif
