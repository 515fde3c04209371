/* varargs.c — variadic functions of our own: a printf-like logger that
 * forwards its va_list to vfprintf, a va_copy user that measures before it
 * formats, and an integer summer that walks its arguments with va_arg.
 *
 * Usage: varargs [LEVEL]   (messages below LEVEL are dropped; default 1) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { LOG_DEBUG, LOG_INFO, LOG_WARN };

static int log_threshold = LOG_INFO;
static const char *const level_names[] = {"debug", "info", "warn"};

__attribute__((format(printf, 2, 3)))
static void log_msg(int level, const char *fmt, ...)
{
	va_list ap;

	if (level < log_threshold)
		return;
	fprintf(stderr, "%s: ", level_names[level]); /* @call fprintf */
	va_start(ap, fmt); /* @call llvm.va_start*=va_start */
	vfprintf(stderr, fmt, ap); /* @call vfprintf */
	va_end(ap); /* @call llvm.va_end*=va_end */
	fputc('\n', stderr); /* @call fputc */
}

__attribute__((format(printf, 1, 2)))
char *format_alloc(const char *fmt, ...)
{
	va_list ap, again;

	va_start(ap, fmt); /* @call llvm.va_start*=va_start */
	va_copy(again, ap); /* @call llvm.va_copy*=va_copy */
	int n = vsnprintf(NULL, 0, fmt, ap); /* @call vsnprintf */
	va_end(ap); /* @call llvm.va_end*=va_end */
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL; /* @call malloc */
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, again); /* @call vsnprintf */
	va_end(again); /* @call llvm.va_end*=va_end */
	return s;
}

static long sum_ints(int count, ...)
{
	va_list ap;
	long total = 0;

	va_start(ap, count); /* @call llvm.va_start*=va_start */
	while (count-- > 0)
		total += va_arg(ap, int);
	va_end(ap); /* @call llvm.va_end*=va_end */
	return total;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		log_threshold = atoi(argv[1]); /* @inline-call atoi */
	log_msg(LOG_DEBUG, "starting with %d argument(s)", argc - 1); /* @call log_msg */
	long s = sum_ints(4, 1, 2, 3, argc); /* @call sum_ints */
	log_msg(LOG_INFO, "sum is %ld", s); /* @call log_msg */
	char *msg = format_alloc("%s-%03d", "item", argc); /* @call format_alloc */
	if (!msg)
		return 1;
	log_msg(LOG_WARN, "formatted '%s'", msg); /* @call log_msg */
	free(msg); /* @call free */
	return 0;
}
