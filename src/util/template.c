/* template.c — see template.h. */
#include "util/template.h"

#include <stdbool.h>
#include <string.h>

static const char *value_of(const template_value *values, const char *key, size_t n)
{
	for (const template_value *v = values; v && v->key; v++)
		if (strlen(v->key) == n && strncmp(v->key, key, n) == 0)
			return v->value;
	return NULL;
}

void template_render(FILE *out, const char *s, template_include include, const template_value *values)
{
	for (const char *open; (open = strstr(s, "{{")) != NULL;) {
		const char *key = open + 2, *close = strstr(key, "}}");
		if (!close)
			break;
		size_t n = (size_t)(close - key);
		fwrite(s, 1, (size_t)(open - s), out);
		bool line = (open == s || open[-1] == '\n') && close[2] == '\n';
		const char *sub = line && include ? include(key, n) : NULL;
		if (sub) {
			template_render(out, sub, include, values);   /* a whole line: the included text, its own newline */
			s = close + 3;
			continue;
		}
		const char *v = value_of(values, key, n);
		if (v)
			fputs(v, out);
		else
			fwrite(open, 1, (size_t)(close + 2 - open), out);   /* unknown: left as it is (tests/cli/check_help.py) */
		s = close + 2;
	}
	fputs(s, out);
}
