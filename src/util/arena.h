/* arena.h — bump allocator for data that lives and dies together.
 *
 * The program model is built once and freed at once, so every node of it comes
 * from one arena: no per-node free, no ownership questions inside the model. */
#ifndef FACET_UTIL_ARENA_H
#define FACET_UTIL_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena {
	arena_block *head;   /* newest block; older ones chained behind it */
	size_t total;        /* bytes handed out, for `facet stats` and the bench */
} arena;

void  arena_init(arena *a);
void *arena_alloc(arena *a, size_t size);               /* zeroed, 16-byte aligned */
void *arena_memdup(arena *a, const void *p, size_t n);
char *arena_strdup(arena *a, const char *s);            /* NULL stays NULL */
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void  arena_free(arena *a);

#define ARENA_NEW(a, T)        ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n)   ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

#endif
