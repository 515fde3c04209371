/* args.h — a command line read by a declared table: one parser for every
 * command of every facet binary. Knows nothing of facet's commands: what a
 * "@NAME" set expands to is the caller's (args_group), and a refusal comes
 * back as a message in a facet_error for the caller to print.
 *
 * A table is rows of args_opt that say where each value lands in the
 * caller's own options struct (an offset). Most commands write no table:
 * they spell their options as one string (args_parse), compiled into one. */
#ifndef FACET_UTIL_ARGS_H
#define FACET_UTIL_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

typedef enum args_kind {
	ARGS_END,                  /* ends a table */
	ARGS_FLAG,                 /* bool at off, set when present */
	ARGS_VALUE,                /* const char * at off: "--name V" or "--name=V" */
	ARGS_LIST,                 /* args_list at off: a value option that may repeat */
	ARGS_PAIR,                 /* const char *[2] at off: "--name A B" */
	ARGS_TABLE,                /* another table, its offsets relative to off (shared option sets) */
} args_kind;

typedef struct args_opt {
	args_kind kind;
	const char *name;          /* "--graph", "-o"; ARGS_TABLE: unused */
	size_t off;                /* where the value goes in the options struct */
	const struct args_opt *table;   /* ARGS_TABLE only */
} args_opt;

#define ARGS_OPT_FLAG(name, type, field) {ARGS_FLAG, name, offsetof(type, field), NULL}
#define ARGS_OPT_VALUE(name, type, field) {ARGS_VALUE, name, offsetof(type, field), NULL}
#define ARGS_OPT_LIST(name, type, field) {ARGS_LIST, name, offsetof(type, field), NULL}
#define ARGS_OPT_PAIR(name, type, field) {ARGS_PAIR, name, offsetof(type, field), NULL}
#define ARGS_OPT_TABLE(tbl, type, field) {ARGS_TABLE, NULL, offsetof(type, field), tbl}
#define ARGS_OPT_END {ARGS_END, NULL, 0, NULL}

/* The values of a repeated option, in order (v is argv's strings). */
typedef struct args_list {
	const char **v;
	unsigned n;
} args_list;
void args_list_free(args_list *l);

/* Parses argv[1..argc-1] by the table into opts. Arguments that are not
 * options, and everything after "--", are positional: they are packed into
 * argv[1..] in order and their count is stored in *n_pos (so argv + 1 is the
 * list). A lone "-" is positional. False + err on an unknown option ("unknown
 * option '--x' (see --help)") or a missing value. */
bool args_parse_table(const args_opt *table, void *opts, int argc, char **argv, int *n_pos, facet_error *err);

/* ---- a command's options as data ------------------------------------------------------
 * Space-separated words, each "NAME[|NAME...]KIND[:JSON]" where KIND is
 * nothing (a flag), "=" (a value), "=*" (a value that may repeat) or "=2"
 * (two values); the names are aliases ("-o|--output="); JSON names the
 * argument the option gives to a JSON request (the caller reads it from the
 * slot). "@NAME" stands for the words group(NAME) returns (NULL: no such
 * set). A spec starting with "+ " stops at the first positional: the rest is
 * a command line of its own. Values are read back by any of an option's
 * names. */
#define ARGS_MAX_OPTS 48

typedef const char *(*args_group)(const char *name);

typedef struct args_slot {
	const char *names[3];      /* its aliases, NULL-padded */
	const char *json;          /* the JSON argument it gives, or NULL */
	args_kind kind;
	bool given;                /* a flag: present */
	const char *value;         /* a value: the last one given */
	const char *pair[2];
	args_list list;
} args_slot;

typedef struct args_set {
	args_slot slot[ARGS_MAX_OPTS];
	unsigned n;
	char **pos;                /* the positionals (packed at argv + 1, or the rest after "+ ") */
	int n_pos;
	args_opt rows[2 * ARGS_MAX_OPTS + 1];   /* the table args_parse_table reads, compiled from the spec */
	char text[2048];           /* the spec's words */
} args_set;

/* Parses argv by spec into a (args_parse_table's rules and messages). False
 * + err, also for a malformed spec ("internal error: bad option spec near
 * 'W'"); args_free in either case. */
bool args_parse(const char *spec, args_group group, args_set *a, int argc, char **argv, facet_error *err);
void args_free(args_set *a);
/* The value of the option named name (NULL when not given; or_else). Naming
 * an option the spec does not declare is a bug: it aborts, saying which. */
const char *args_str(const args_set *a, const char *name);
const char *args_str_or(const args_set *a, const char *name, const char *or_else);
/* A flag (or an option with a value) given. */
bool args_has(const args_set *a, const char *name);
/* A repeated option's values; a pair option's two values ({NULL, NULL} when absent). */
const args_list *args_all(const args_set *a, const char *name);
const char *const *args_pair(const args_set *a, const char *name);
/* True when any option of the space-separated names (a spec's words, "@NAME" through group) is given. */
bool args_any(const args_set *a, const char *names, args_group group);

/* True when argv[1..] holds -h or --help before any "--". */
bool args_wants_help(int argc, char **argv);

#endif
