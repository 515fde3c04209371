/* opt.c — the option parser and the message format (opt.h). */
#include "cli/opt.h"
#include "cli/progress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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
	{"source", "--compile-commands= -I=* -D=* --type-fallback= --no-type-fallback"},
	{NULL, NULL},
};

const char *cli_group(const char *name)
{
	for (const struct group *g = groups; g->name; g++)
		if (strcmp(g->name, name) == 0)
			return g->spec;
	return NULL;
}

/* One word of a spec, written into a's text at *used: false when the spec
 * is malformed (a bug in the command's string, said loudly). */
static bool add_word(cli_args *a, const char *w, size_t len, size_t *used)
{
	if (*w == '@') {
		char name[32];
		snprintf(name, sizeof name, "%.*s", (int)(len - 1), w + 1);
		const char *g = cli_group(name);
		for (const char *p = g; p && *p;) {
			size_t n = strcspn(p, " ");
			if (n && !add_word(a, p, n, used))
				return false;
			p += n + (p[n] == ' ');
		}
		return g != NULL;
	}
	if (a->n == CLI_MAX_OPTS || *used + len + 1 > sizeof a->text)
		return false;
	char *t = a->text + *used;
	memcpy(t, w, len);
	t[len] = 0;
	*used += len + 1;
	cli_slot *s = &a->slot[a->n];
	char *json = strchr(t, ':');
	if (json) {
		*json++ = 0;
		s->json = json;
	}
	char *eq = strchr(t, '=');
	s->kind = !eq ? CLI_FLAG : !eq[1] ? CLI_VALUE : eq[1] == '*' ? CLI_LIST : CLI_PAIR;
	if (eq)
		*eq = 0;
	size_t off = offsetof(cli_args, slot) + a->n * sizeof *s +
	             (s->kind == CLI_FLAG ? offsetof(cli_slot, given) : s->kind == CLI_VALUE ? offsetof(cli_slot, value)
	              : s->kind == CLI_LIST ? offsetof(cli_slot, list) : offsetof(cli_slot, pair));
	unsigned k = 0;
	for (char *name = strtok(t, "|"); name && k < 3; name = strtok(NULL, "|"), k++) {
		s->names[k] = name;
		cli_opt *r = a->rows;
		while (r->kind != CLI_END)
			r++;
		if (r - a->rows >= 2 * CLI_MAX_OPTS)
			return false;
		*r = (cli_opt){s->kind, name, off, NULL};
		r[1] = (cli_opt)CLI_OPT_END;
	}
	a->n++;
	return k > 0;
}

/* Where the options end in a spec starting with "+ ": the first positional. */
static int options_end(const cli_args *a, int argc, char **argv, int *rest)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			*rest = i + 1;
			return i;
		}
		if (arg[0] != '-' || !arg[1]) {
			*rest = i;
			return i;
		}
		for (const cli_opt *o = a->rows; o->kind != CLI_END; o++)
			if (o->kind != CLI_FLAG && strcmp(arg, o->name) == 0)
				i += o->kind == CLI_PAIR ? 2 : 1;
	}
	*rest = argc;
	return argc;
}

bool cli_args_parse(const char *cmd, const char *spec, cli_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	a->rows[0] = (cli_opt)CLI_OPT_END;
	bool stop = strncmp(spec, "+ ", 2) == 0;
	size_t used = 0;
	for (const char *p = spec + (stop ? 2 : 0); *p;) {
		size_t n = strcspn(p, " ");
		if (n && !add_word(a, p, n, &used)) {
			cli_error(cmd, "internal error: bad option spec near '%.*s'", (int)n, p);
			return false;
		}
		p += n + (p[n] == ' ');
	}
	if (!stop) {
		a->pos = argv + 1;
		return cli_parse(cmd, a->rows, a, argc, argv, &a->n_pos);
	}
	int rest, end = options_end(a, argc, argv, &rest), n = 0;
	a->pos = argv + rest;
	a->n_pos = argc - rest;
	return cli_parse(cmd, a->rows, a, end, argv, &n);
}

void cli_args_free(cli_args *a)
{
	for (unsigned i = 0; i < a->n; i++)
		cli_list_free(&a->slot[i].list);
}

static const cli_slot *slot_of(const cli_args *a, const char *name)
{
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned k = 0; k < 3 && a->slot[i].names[k]; k++)
			if (strcmp(a->slot[i].names[k], name) == 0)
				return &a->slot[i];
	fprintf(stderr, "facet: internal error: no option %s in the command's spec\n", name);
	abort();   /* a command reading an option it never declared: a bug */
}

const char *cli_str(const cli_args *a, const char *name) { return slot_of(a, name)->value; }

const char *cli_str_or(const cli_args *a, const char *name, const char *or_else)
{
	const char *v = cli_str(a, name);
	return v ? v : or_else;
}

bool cli_has(const cli_args *a, const char *name)
{
	const cli_slot *s = slot_of(a, name);
	return s->given || s->value || s->pair[0] || s->list.n;
}

const cli_list *cli_all(const cli_args *a, const char *name) { return &slot_of(a, name)->list; }

const char *const *cli_pair(const cli_args *a, const char *name) { return slot_of(a, name)->pair; }

bool cli_any(const cli_args *a, const char *names)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", names);
	for (char *save = NULL, *n = strtok_r(buf, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
		n[strcspn(n, "=:|")] = 0;   /* a spec's word: its first name */
		if (*n == '@' ? cli_group(n + 1) && cli_any(a, cli_group(n + 1)) : cli_has(a, n))
			return true;
	}
	return false;
}

void cli_args_json(const cli_args *a, json_t *args)
{
	for (unsigned i = 0; i < a->n; i++) {
		const cli_slot *s = &a->slot[i];
		if (s->json && s->value)
			json_object_set_new(args, s->json, json_string(s->value));
		else if (s->json && s->given)
			json_object_set_new(args, s->json, json_true());
	}
}
