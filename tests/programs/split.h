/* split.h — shared declarations of the two-file program split_main.c +
 * split_util.c (a key=value configuration reader).  xstrdup() is a static
 * inline defined here, so each file gets its own copy and linking the two
 * modules must rename one of them. */
#ifndef SPLIT_H
#define SPLIT_H

#include <stdlib.h>
#include <string.h>

struct setting {
	char *key;
	char *value;
};

static inline char *xstrdup(const char *s)
{
	char *p = strdup(s); /* @call strdup */
	if (!p)
		abort(); /* @call abort */
	return p;
}

char *trim(char *s);
int parse_setting(const char *line, struct setting *out);
void free_setting(struct setting *s);

#endif
