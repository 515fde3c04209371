/* ptrmap.h — hash map from non-NULL pointers to pointers: an intmap
 * (intmap.h) keyed by the address, for the caches keyed by a handle (a
 * libclang file, a debug-info type, a record) whose value is a pointer. */
#ifndef FACET_UTIL_PTRMAP_H
#define FACET_UTIL_PTRMAP_H

#include <stddef.h>

#include "util/intmap.h"

typedef struct ptrmap { intmap map; } ptrmap;

void  ptrmap_init(ptrmap *m);
void *ptrmap_get(const ptrmap *m, const void *key);        /* NULL when absent */
void  ptrmap_put(ptrmap *m, const void *key, void *value); /* key != NULL; replaces */
void  ptrmap_free(ptrmap *m);
void  ptrmap_free_values(ptrmap *m);                       /* free() of every value, then ptrmap_free */

#endif
