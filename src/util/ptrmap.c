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
	for (size_t i = 0; i < m->map.cap; i++)
		if (m->map.slots[i].used)
			free((void *)(uintptr_t)m->map.slots[i].value);
	ptrmap_free(m);
}
