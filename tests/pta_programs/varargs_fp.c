/* varargs_fp.c — printf-like loggers called through pointers: a logger
 * chosen at start-up, a table of sinks that mixes variadic and plain
 * functions (stored as void * and cast back by a flag), and variadic
 * reducers (count, values...) picked from an array.
 *
 * Covers: a varargs function called through a pointer.  The call's IR type
 * is the variadic i32 (ptr, ...), which differs from the plain i32 (ptr) of
 * write_line, so the type filter splits the sinks table: Andersen gives
 * both sink sites all three sinks, R0 only the matching ones. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "observe.h"

static char out[256];
static size_t outlen;

static int log_plain(const char *fmt, ...)
{
	OBSERVE_TARGET();
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out + outlen, sizeof out - outlen, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof out - outlen)
		outlen += (size_t)n;
	return n;
}

static int log_tagged(const char *fmt, ...)
{
	OBSERVE_TARGET();
	va_list ap;
	int n = snprintf(out + outlen, sizeof out - outlen, "[tag] ");
	if (n > 0 && (size_t)n < sizeof out - outlen)
		outlen += (size_t)n;
	va_start(ap, fmt);
	n = vsnprintf(out + outlen, sizeof out - outlen, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof out - outlen)
		outlen += (size_t)n;
	return n;
}

static int write_line(const char *s)
{
	OBSERVE_TARGET();
	return log_plain("%s\n", s);
}

static long sum_ints(int count, ...)
{
	OBSERVE_TARGET();
	va_list ap;
	long s = 0;
	va_start(ap, count);
	while (count-- > 0)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

static long max_ints(int count, ...)
{
	OBSERVE_TARGET();
	va_list ap;
	long m = 0;
	va_start(ap, count);
	for (int i = 0; i < count; i++) {
		int v = va_arg(ap, int);
		if (i == 0 || v > m)
			m = v;
	}
	va_end(ap);
	return m;
}

typedef int (*printf_like)(const char *fmt, ...);

struct sink {
	const char *name;
	void *fn;
	int variadic;
};

static const struct sink sinks[] = {
	{"plain", (void *)log_plain, 1},
	{"line", (void *)write_line, 0},
	{"tagged", (void *)log_tagged, 1},
};

static long (*const reducers[])(int count, ...) = {sum_ints, max_ints};

int main(int argc, char **argv)
{
	printf_like logger = argc > 1 ? log_tagged : log_plain;

	(void)argv;
	ICALL(logger("%s has %d args\n", "main", argc)); /* @r0: log_plain log_tagged */
	for (size_t i = 0; i < sizeof sinks / sizeof sinks[0]; i++) {
		const struct sink *s = &sinks[i];
		if (s->variadic)
			ICALL(((printf_like)s->fn)("%s #%d\n", s->name, (int)i)); /* @r0: log_plain log_tagged @andersen: log_plain log_tagged write_line */
		else
			ICALL(((int (*)(const char *))s->fn)(s->name)); /* @r0: write_line @andersen: log_plain log_tagged write_line */
	}
	for (int i = 0; i < 2; i++) {
		long r = ICALL(reducers[i](4, 3, 9, 2, 7)); /* @r0: max_ints sum_ints */
		log_plain("%ld\n", r);
	}
	fputs(out, stdout);
	return 0;
}
