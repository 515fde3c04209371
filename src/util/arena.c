/* arena.c — bump allocator; see arena.h. Blocks grow geometrically so a large
 * program costs few mallocs; an oversized request gets a block of its own. */
#include "util/arena.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct arena_block {
	arena_block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

enum { ARENA_FIRST_BLOCK = 64 * 1024, ARENA_MAX_BLOCK = 16 * 1024 * 1024 };

void arena_init(arena *a)
{
	a->head = NULL;
	a->total = 0;
}

static arena_block *new_block(size_t cap)
{
	arena_block *b = xmalloc(sizeof *b + cap);
	b->next = NULL;
	b->used = 0;
	b->cap = cap;
	return b;
}

void *arena_alloc(arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	arena_block *b = a->head;
	if (!b || b->cap - b->used < size) {
		size_t cap = b ? b->cap * 2 : ARENA_FIRST_BLOCK;
		if (cap > ARENA_MAX_BLOCK)
			cap = ARENA_MAX_BLOCK;
		if (cap < size)
			cap = size;
		arena_block *nb = new_block(cap);
		/* An oversized block goes behind the head so the head keeps its free room. */
		if (b && size > ARENA_MAX_BLOCK / 2) {
			nb->next = b->next;
			b->next = nb;
		} else {
			nb->next = b;
			a->head = nb;
		}
		b = nb;
	}
	void *p = b->data + b->used;
	b->used += size;
	a->total += size;
	memset(p, 0, size);
	return p;
}

void *arena_memdup(arena *a, const void *p, size_t n)
{
	void *q = arena_alloc(a, n);
	if (n)
		memcpy(q, p, n);
	return q;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
	if (!s)
		return NULL;
	char *q = arena_alloc(a, n + 1);
	memcpy(q, s, n);
	q[n] = 0;
	return q;
}

char *arena_strdup(arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_printf(arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *q = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(q, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return q;
}

void arena_free(arena *a)
{
	arena_block *b = a->head;
	while (b) {
		arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}
