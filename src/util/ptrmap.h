/* ptrmap.h — open-addressing hash map from non-NULL pointers to pointers.
 *
 * Ingest uses it to map LLVM handles to the model nodes made for them while a
 * module is being lowered; it never outlives ingest. */
#ifndef FACET_UTIL_PTRMAP_H
#define FACET_UTIL_PTRMAP_H

#include <stddef.h>

typedef struct ptrmap_slot { const void *key; void *value; } ptrmap_slot;
typedef struct ptrmap { ptrmap_slot *slots; size_t cap, len; } ptrmap;

void  ptrmap_init(ptrmap *m);
void *ptrmap_get(const ptrmap *m, const void *key);        /* NULL when absent */
void  ptrmap_put(ptrmap *m, const void *key, void *value); /* key != NULL; replaces */
void  ptrmap_free(ptrmap *m);

#endif
