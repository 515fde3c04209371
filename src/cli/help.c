/* help.c — the --help texts rendered (help.h). */
#include "cli/help.h"

#include <stdbool.h>
#include <string.h>

static const char *text_of(const char *name, size_t n)
{
	for (const cli_help_text *t = cli_help_texts; t->name; t++)
		if (strlen(t->name) == n && strncmp(t->name, name, n) == 0)
			return t->text;
	return NULL;
}

static const char *value_of(const cli_help_value *values, const char *key, size_t n)
{
	for (const cli_help_value *v = values; v && v->key; v++)
		if (strlen(v->key) == n && strncmp(v->key, key, n) == 0)
			return v->value;
	return NULL;
}

static void render(FILE *out, const char *s, const cli_help_value *values)
{
	for (const char *open; (open = strstr(s, "{{")) != NULL;) {
		const char *key = open + 2, *close = strstr(key, "}}");
		if (!close)
			break;
		size_t n = (size_t)(close - key);
		fwrite(s, 1, (size_t)(open - s), out);
		bool line = (open == s || open[-1] == '\n') && close[2] == '\n';
		const char *sub = line ? text_of(key, n) : NULL;
		if (sub) {
			render(out, sub, values);   /* a whole line: the shared text, its own newline */
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

void cli_help(FILE *out, const char *name, const cli_help_value *values)
{
	const char *t = text_of(name, strlen(name));
	if (t)
		render(out, t, values);
}

int cli_begin(const char *cmd, const char *spec, args_set *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	if (args_wants_help(argc, argv)) {
		cli_help(stdout, cmd, NULL);
		return 0;
	}
	if (cli_args_parse(cmd, spec, a, argc, argv))
		return -1;
	args_free(a);
	return 2;
}
