/* xalloc.h — malloc that never returns NULL.
 *
 * facet cannot do anything useful after running out of memory, and checking
 * every allocation would bury the analysis code; so allocation failure aborts
 * with a message. This is the one place the library exits by itself. */
#ifndef FACET_UTIL_XALLOC_H
#define FACET_UTIL_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
