/* error.h — how library code reports failure.
 *
 * Library functions never print or exit: they return a status and fill a
 * facet_error whose message names the file and the problem. src/cli decides
 * what to print and which exit code to use. */
#ifndef FACET_UTIL_ERROR_H
#define FACET_UTIL_ERROR_H

typedef struct facet_error {
	int set;
	char msg[1024];
} facet_error;

/* Sets the message only if none is set yet: the first, innermost cause wins. */
void error_set(facet_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void error_clear(facet_error *e);

#endif
