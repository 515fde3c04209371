/* help.c — the --help texts rendered (help.h). */
#include "cli/help.h"

#include <string.h>

static const char *text_of(const char *name, size_t n)
{
	for (const cli_help_text *t = cli_help_texts; t->name; t++)
		if (strlen(t->name) == n && strncmp(t->name, name, n) == 0)
			return t->text;
	return NULL;
}

void cli_help(FILE *out, const char *name, const template_value *values)
{
	const char *t = text_of(name, strlen(name));
	if (t)
		template_render(out, t, text_of, values);
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
