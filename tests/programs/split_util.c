/* split_util.c — the parsing half of the two-file program (see split.h).
 * report() is static here and in split_main.c: the linked module holds two
 * functions that the debug info both calls "report". */
#include "split.h"

#include <stdio.h>

static void report(const char *what, const char *line)
{
	fprintf(stderr, "config: %s: '%s'\n", what, line); /* @call fprintf */
}

char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *end = s + strlen(s); /* @call strlen */
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

int parse_setting(const char *line, struct setting *out)
{
	char *copy = xstrdup(line); /* @inline-call xstrdup */
	char *eq = strchr(copy, '='); /* @call strchr */
	if (!eq) {
		report("missing '='", line); /* @inline-call report */
		free(copy); /* @call(O0) free (the two frees merge at -O2) */
		return -1;
	}
	*eq = '\0';
	out->key = xstrdup(trim(copy)); /* @inline-call xstrdup @inline-call trim */
	out->value = xstrdup(trim(eq + 1)); /* @inline-call xstrdup @inline-call trim */
	free(copy); /* @call(O0) free (the two frees merge at -O2) */
	return 0;
}

void free_setting(struct setting *s)
{
	free(s->key); /* @call free */
	free(s->value); /* @call free */
}
