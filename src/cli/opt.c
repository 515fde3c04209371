/* opt.c — the option parser and the message format (opt.h). */
#include "cli/opt.h"
#include "cli/progress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}

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

/* A one-letter option that takes a value may have it joined, as compilers
 * take them: -DNAME=V, -Iinclude, -oout.facet. */
static bool joins(const cli_opt *o)
{
	return (o->kind == CLI_VALUE || o->kind == CLI_LIST) && o->name[0] == '-' && o->name[1] != '-' &&
	       o->name[1] && !o->name[2];
}

/* The row of table (or of a table it includes) named arg, with the offset
 * of its value in the options struct; arg may be "--name=VALUE" or a joined
 * one-letter "-XVALUE". */
static const cli_opt *find(const cli_opt *table, const char *arg, size_t base, size_t *off)
{
	for (const cli_opt *o = table; o->kind != CLI_END; o++) {
		if (o->kind == CLI_TABLE) {
			const cli_opt *r = find(o->table, arg, base + o->off, off);
			if (r)
				return r;
			continue;
		}
		size_t len = strlen(o->name);
		if (strncmp(arg, o->name, len) != 0 ||
		    (arg[len] && !joins(o) && (arg[len] != '=' || o->kind == CLI_FLAG || o->kind == CLI_PAIR)))
			continue;
		*off = base + o->off;
		return o;
	}
	return NULL;
}

bool cli_parse(const char *cmd, const cli_opt *table, void *opts, int argc, char **argv, int *n_pos)
{
	int n = 0;
	bool options = true;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (options && strcmp(arg, "--") == 0) {
			options = false;
			continue;
		}
		if (!options || arg[0] != '-' || arg[1] == 0) {
			argv[1 + n++] = argv[i];
			continue;
		}
		size_t off = 0;
		const cli_opt *o = find(table, arg, 0, &off);
		if (!o) {
			cli_error(cmd, "unknown option '%s' (see --help)", arg);
			return false;
		}
		if (o->kind == CLI_FLAG) {
			*(bool *)((char *)opts + off) = true;
			continue;
		}
		if (o->kind == CLI_PAIR) {
			if (i + 2 >= argc) {
				cli_error(cmd, "option %s needs two values", o->name);
				return false;
			}
			const char **pair = (const char **)((char *)opts + off);
			pair[0] = argv[++i];
			pair[1] = argv[++i];
			continue;
		}
		const char *eq = strchr(arg, '='), *value;
		size_t len = strlen(o->name);
		if (eq && (size_t)(eq - arg) == len) {
			value = eq + 1;
		} else if (arg[len]) {
			value = arg + len;   /* joined: find took it only for joins() */
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			cli_error(cmd, "option %s needs a value", o->name);
			return false;
		}
		if (o->kind == CLI_LIST) {
			cli_list *l = (cli_list *)((char *)opts + off);
			if (!l->v)
				l->v = xcalloc((size_t)argc, sizeof *l->v);   /* never more values than arguments */
			l->v[l->n++] = value;
		} else {
			*(const char **)((char *)opts + off) = value;
		}
	}
	*n_pos = n;
	return true;
}

void cli_list_free(cli_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
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
