/* template.h — text with {{KEY}} holes, filled on the way out (the --help
 * texts, docs/help/). */
#ifndef FACET_UTIL_TEMPLATE_H
#define FACET_UTIL_TEMPLATE_H

#include <stddef.h>
#include <stdio.h>

typedef struct template_value {
	const char *key, *value;
} template_value;

/* The text named by the n bytes at name, or NULL when there is none. */
typedef const char *(*template_include)(const char *name, size_t n);

/* Writes text on out: a line that is only {{NAME}} becomes the text
 * include gives for NAME (filled the same way, its own newline); any other
 * {{KEY}} the value of KEY in values (ending with a NULL key; NULL: none).
 * A key neither knows is written as it stands. */
void template_render(FILE *out, const char *text, template_include include, const template_value *values);

#endif
