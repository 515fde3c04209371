/* ptrmap.c — the address as an intmap key, the pointer as its value. */
#include "util/ptrmap.h"

#include <stdint.h>
#include <stdlib.h>

void ptrmap_init(ptrmap *m)
{
	intmap_init(&m->map);
}

void *ptrmap_get(const ptrmap *m, const void *key)
{
	uint64_t v;
	return key && intmap_get(&m->map, (uint64_t)(uintptr_t)key, &v) ? (void *)(uintptr_t)v : NULL;
}

void ptrmap_put(ptrmap *m, const void *key, void *value)
{
	intmap_put(&m->map, (uint64_t)(uintptr_t)key, (uint64_t)(uintptr_t)value);
}

void ptrmap_free(ptrmap *m)
{
	intmap_free(&m->map);
}

void ptrmap_free_values(ptrmap *m)
{
	uint64_t v;
	for (size_t it = 0; intmap_next(&m->map, &it, NULL, &v);)
		free((void *)(uintptr_t)v);
	ptrmap_free(m);
}
