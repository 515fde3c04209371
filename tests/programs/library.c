/* library.c — a library file without main: a growable string buffer with an
 * exported API, static helpers that are only called directly, and one
 * exported function that takes a caller-supplied escape callback.
 * Compiled on its own it is a module whose entry points are all external. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct strbuf {
	char *data;
	size_t len, cap;
};

typedef const char *(*escape_fn)(char c);

static int sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need <= sb->cap)
		return 0;
	size_t cap = sb->cap ? sb->cap : 32;
	while (cap < need)
		cap *= 2;
	char *p = realloc(sb->data, cap); /* @call realloc */
	if (!p)
		return -1;
	sb->data = p;
	sb->cap = cap;
	return 0;
}

void sb_init(struct strbuf *sb)
{
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

int sb_append(struct strbuf *sb, const char *s, size_t n)
{
	if (sb_grow(sb, n) != 0) /* @inline-call sb_grow */
		return -1;
	memcpy(sb->data + sb->len, s, n); /* @call llvm.memcpy*=memcpy */
	sb->len += n;
	sb->data[sb->len] = '\0';
	return 0;
}

int sb_puts(struct strbuf *sb, const char *s)
{
	return sb_append(sb, s, strlen(s)); /* @inline-call sb_append @call strlen */
}

int sb_printf(struct strbuf *sb, const char *fmt, long value)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof tmp, fmt, value); /* @call snprintf */
	if (n < 0 || (size_t)n >= sizeof tmp)
		return -1;
	return sb_append(sb, tmp, (size_t)n); /* @inline-call sb_append */
}

static const char *no_escape(char c) /* @address-taken */
{
	(void)c;
	return NULL;
}

int sb_append_escaped(struct strbuf *sb, const char *s, escape_fn escape)
{
	if (!escape)
		escape = no_escape;
	for (; *s; s++) {
		const char *rep = escape(*s); /* @icall escape */
		int rc = rep ? sb_puts(sb, rep) : sb_append(sb, s, 1); /* @inline-call sb_puts @inline-call sb_append */
		if (rc != 0)
			return -1;
	}
	return 0;
}

char *sb_detach(struct strbuf *sb)
{
	char *p = sb->data;
	if (!p)
		p = calloc(1, 1); /* @call calloc */
	sb_init(sb); /* @inline-call sb_init */
	return p;
}

void sb_free(struct strbuf *sb)
{
	free(sb->data); /* @call free */
	sb_init(sb); /* @inline-call sb_init */
}
