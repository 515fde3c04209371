/* args.c — the command-line parser (args.h): a table, and the spec string
 * compiled into one. */
#include "util/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

bool args_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}

/* A one-letter option that takes a value may have it joined, as compilers
 * take them: -DNAME=V, -Iinclude, -oout.facet. */
static bool joins(const args_opt *o)
{
	return (o->kind == ARGS_VALUE || o->kind == ARGS_LIST) && o->name[0] == '-' && o->name[1] != '-' &&
	       o->name[1] && !o->name[2];
}

/* The row of table (or of a table it includes) named arg, with the offset
 * of its value in the options struct; arg may be "--name=VALUE" or a joined
 * one-letter "-XVALUE". */
static const args_opt *find(const args_opt *table, const char *arg, size_t base, size_t *off)
{
	for (const args_opt *o = table; o->kind != ARGS_END; o++) {
		if (o->kind == ARGS_TABLE) {
			const args_opt *r = find(o->table, arg, base + o->off, off);
			if (r)
				return r;
			continue;
		}
		size_t len = strlen(o->name);
		if (strncmp(arg, o->name, len) != 0 ||
		    (arg[len] && !joins(o) && (arg[len] != '=' || o->kind == ARGS_FLAG || o->kind == ARGS_PAIR)))
			continue;
		*off = base + o->off;
		return o;
	}
	return NULL;
}

bool args_parse_table(const args_opt *table, void *opts, int argc, char **argv, int *n_pos, facet_error *err)
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
		const args_opt *o = find(table, arg, 0, &off);
		if (!o) {
			error_set(err, "unknown option '%s' (see --help)", arg);
			return false;
		}
		if (o->kind == ARGS_FLAG) {
			*(bool *)((char *)opts + off) = true;
			continue;
		}
		if (o->kind == ARGS_PAIR) {
			if (i + 2 >= argc) {
				error_set(err, "option %s needs two values", o->name);
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
			error_set(err, "option %s needs a value", o->name);
			return false;
		}
		if (o->kind == ARGS_LIST) {
			args_list *l = (args_list *)((char *)opts + off);
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

void args_list_free(args_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* ---- specs ------------------------------------------------------------------------------ */

/* One word of a spec, written into a's text at *used: false when the spec
 * is malformed (a bug in the command's string, said loudly). */
static bool add_word(args_set *a, args_group group, const char *w, size_t len, size_t *used)
{
	if (*w == '@') {
		char name[32];
		snprintf(name, sizeof name, "%.*s", (int)(len - 1), w + 1);
		const char *g = group ? group(name) : NULL;
		for (const char *p = g; p && *p;) {
			size_t n = strcspn(p, " ");
			if (n && !add_word(a, group, p, n, used))
				return false;
			p += n + (p[n] == ' ');
		}
		return g != NULL;
	}
	if (a->n == ARGS_MAX_OPTS || *used + len + 1 > sizeof a->text)
		return false;
	char *t = a->text + *used;
	memcpy(t, w, len);
	t[len] = 0;
	*used += len + 1;
	args_slot *s = &a->slot[a->n];
	char *json = strchr(t, ':');
	if (json) {
		*json++ = 0;
		s->json = json;
	}
	char *eq = strchr(t, '=');
	s->kind = !eq ? ARGS_FLAG : !eq[1] ? ARGS_VALUE : eq[1] == '*' ? ARGS_LIST : ARGS_PAIR;
	if (eq)
		*eq = 0;
	size_t off = offsetof(args_set, slot) + a->n * sizeof *s +
	             (s->kind == ARGS_FLAG ? offsetof(args_slot, given) : s->kind == ARGS_VALUE ? offsetof(args_slot, value)
	              : s->kind == ARGS_LIST ? offsetof(args_slot, list) : offsetof(args_slot, pair));
	unsigned k = 0;
	for (char *name = strtok(t, "|"); name && k < 3; name = strtok(NULL, "|"), k++) {
		s->names[k] = name;
		args_opt *r = a->rows;
		while (r->kind != ARGS_END)
			r++;
		if (r - a->rows >= 2 * ARGS_MAX_OPTS)
			return false;
		*r = (args_opt){s->kind, name, off, NULL};
		r[1] = (args_opt)ARGS_OPT_END;
	}
	a->n++;
	return k > 0;
}

/* Where the options end in a spec starting with "+ ": the first positional. */
static int options_end(const args_set *a, int argc, char **argv, int *rest)
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
		for (const args_opt *o = a->rows; o->kind != ARGS_END; o++)
			if (o->kind != ARGS_FLAG && strcmp(arg, o->name) == 0)
				i += o->kind == ARGS_PAIR ? 2 : 1;
	}
	*rest = argc;
	return argc;
}

bool args_parse(const char *spec, args_group group, args_set *a, int argc, char **argv, facet_error *err)
{
	memset(a, 0, sizeof *a);
	a->rows[0] = (args_opt)ARGS_OPT_END;
	bool stop = strncmp(spec, "+ ", 2) == 0;
	size_t used = 0;
	for (const char *p = spec + (stop ? 2 : 0); *p;) {
		size_t n = strcspn(p, " ");
		if (n && !add_word(a, group, p, n, &used)) {
			error_set(err, "internal error: bad option spec near '%.*s'", (int)n, p);
			return false;
		}
		p += n + (p[n] == ' ');
	}
	if (!stop) {
		a->pos = argv + 1;
		return args_parse_table(a->rows, a, argc, argv, &a->n_pos, err);
	}
	int rest, end = options_end(a, argc, argv, &rest), n = 0;
	a->pos = argv + rest;
	a->n_pos = argc - rest;
	return args_parse_table(a->rows, a, end, argv, &n, err);
}

void args_free(args_set *a)
{
	for (unsigned i = 0; i < a->n; i++)
		args_list_free(&a->slot[i].list);
}

static const args_slot *slot_of(const args_set *a, const char *name)
{
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned k = 0; k < 3 && a->slot[i].names[k]; k++)
			if (strcmp(a->slot[i].names[k], name) == 0)
				return &a->slot[i];
	fprintf(stderr, "facet: internal error: no option %s in the command's spec\n", name);
	abort();   /* a command reading an option it never declared: a bug */
}

const char *args_str(const args_set *a, const char *name) { return slot_of(a, name)->value; }

const char *args_str_or(const args_set *a, const char *name, const char *or_else)
{
	const char *v = args_str(a, name);
	return v ? v : or_else;
}

bool args_has(const args_set *a, const char *name)
{
	const args_slot *s = slot_of(a, name);
	return s->given || s->value || s->pair[0] || s->list.n;
}

const args_list *args_all(const args_set *a, const char *name) { return &slot_of(a, name)->list; }

const char *const *args_pair(const args_set *a, const char *name) { return slot_of(a, name)->pair; }

bool args_any(const args_set *a, const char *names, args_group group)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", names);
	for (char *save = NULL, *n = strtok_r(buf, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
		n[strcspn(n, "=:|")] = 0;   /* a spec's word: its first name */
		const char *g = *n == '@' && group ? group(n + 1) : NULL;
		if (*n == '@' ? g && args_any(a, g, group) : args_has(a, n))
			return true;
	}
	return false;
}
