/* opt.c — the commands' option sets, the parser's refusals as messages,
 * and the one message format (opt.h). */
#include "cli/opt.h"
#include "cli/progress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static void vsay(const char *cmd, const char *kind, const char *fmt, va_list ap)
{
	cli_progress_clear();   /* a message never lands on the end of the progress line */
	fprintf(stderr, "facet %s: %s: ", cmd, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(cmd, "error", fmt, ap);
	va_end(ap);
}

void cli_warning(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(cmd, "warning", fmt, ap);
	va_end(ap);
}

void cli_note(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(cmd, "note", fmt, ap);
	va_end(ap);
}

bool cli_flush(const char *cmd)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	cli_error(cmd, "writing output: %s", strerror(errno));
	return false;
}

bool cli_choice(const char *cmd, const char *what, const char *s, const char *choices)
{
	for (const char *c = choices; *c; c += strlen(c) + 1)
		if (strcmp(s, c) == 0)
			return true;
	char list[256] = "";
	size_t used = 0;
	for (const char *c = choices; *c && used < sizeof list; c += strlen(c) + 1)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", c);
	cli_error(cmd, "unknown %s '%s' (%s)", what, s, list);
	return false;
}

bool cli_uint(const char *cmd, const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || *end || errno || v < lo || v > hi) {
		cli_error(cmd, "%s wants an integer from %lu to %lu, not '%s'", opt, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

/* ---- specs ------------------------------------------------------------------------------ */

/* The option sets several commands share; their --help lines are
 * docs/help/NAME-options.txt. */
static const struct group {
	const char *name, *spec;
} groups[] = {
	{"oracle", "--oracle= --oracle-command= --oracle-url= --oracle-model= --oracle-key-env= --oracle-cache= "
	           "--oracle-max-queries= --oracle-max-tokens= --oracle-timeout-ms= --oracle-retries= "
	           "--oracle-backoff-ms= --source-root= --oracle-replay-only --opaque-fields --oracle-no-schema"},
	{"view", "--root=:root --depth=:depth --direction=:direction --focus=:location --cluster= "
	         "--max-nodes=:max_nodes --hide-external:hide_external --no-legend"},
	{"source", "--compile-commands= -I=* -D=* --type-fallback= --no-type-fallback --no-assumed-constants --no-host-config --no-assumed-switches"},
	{NULL, NULL},
};

const char *cli_group(const char *name)
{
	for (const struct group *g = groups; g->name; g++)
		if (strcmp(g->name, name) == 0)
			return g->spec;
	return NULL;
}

bool cli_args_parse(const char *cmd, const char *spec, args_set *a, int argc, char **argv)
{
	facet_error err = {0};
	if (args_parse(spec, cli_group, a, argc, argv, &err))
		return true;
	cli_error(cmd, "%s", err.msg);
	return false;
}

bool cli_parse(const char *cmd, const args_opt *table, void *opts, int argc, char **argv, int *n_pos)
{
	facet_error err = {0};
	if (args_parse_table(table, opts, argc, argv, n_pos, &err))
		return true;
	cli_error(cmd, "%s", err.msg);
	return false;
}

bool cli_any(const args_set *a, const char *names) { return args_any(a, names, cli_group); }

void cli_args_json(const args_set *a, json_t *args)
{
	for (unsigned i = 0; i < a->n; i++) {
		const args_slot *s = &a->slot[i];
		if (s->json && s->value)
			json_object_set_new(args, s->json, json_string(s->value));
		else if (s->json && s->given)
			json_object_set_new(args, s->json, json_true());
	}
}
