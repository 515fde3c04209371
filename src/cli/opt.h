/* opt.h — the command line, declared: one option table per command, one
 * parser, one message format. No LLVM here: facet-query links this too.
 *
 * A command describes its options as a table of cli_opt rows that say where
 * each value lands in the command's own options struct (an offset), parses
 * with cli_parse, and reports every problem through cli_error, so each
 * message reads "facet CMD: error: WHAT" whichever command prints it. */
#ifndef FACET_CLI_OPT_H
#define FACET_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum cli_opt_kind {
	CLI_END,                   /* ends a table */
	CLI_FLAG,                  /* bool at off, set when present */
	CLI_VALUE,                 /* const char * at off: "--name V" or "--name=V" */
	CLI_LIST,                  /* cli_list at off: a value option that may repeat */
	CLI_PAIR,                  /* const char *[2] at off: "--name A B" */
	CLI_TABLE,                 /* another table, its offsets relative to off (shared option sets) */
} cli_opt_kind;

typedef struct cli_opt {
	cli_opt_kind kind;
	const char *name;          /* "--graph", "-o"; CLI_TABLE: unused */
	size_t off;                /* where the value goes in the options struct */
	const struct cli_opt *table;   /* CLI_TABLE only */
} cli_opt;

#define CLI_OPT_FLAG(name, type, field) {CLI_FLAG, name, offsetof(type, field), NULL}
#define CLI_OPT_VALUE(name, type, field) {CLI_VALUE, name, offsetof(type, field), NULL}
#define CLI_OPT_LIST(name, type, field) {CLI_LIST, name, offsetof(type, field), NULL}
#define CLI_OPT_PAIR(name, type, field) {CLI_PAIR, name, offsetof(type, field), NULL}
#define CLI_OPT_TABLE(tbl, type, field) {CLI_TABLE, NULL, offsetof(type, field), tbl}
#define CLI_OPT_END {CLI_END, NULL, 0, NULL}

/* The values of a repeated option, in order (v is argv's strings). */
typedef struct cli_list {
	const char **v;
	unsigned n;
} cli_list;
void cli_list_free(cli_list *l);

/* Parses argv[1..argc-1] by the table into opts. Arguments that are not
 * options, and everything after "--", are positional: they are packed into
 * argv[1..] in order and their count is stored in *n_pos (so argv + 1 is the
 * list). A lone "-" is positional. Returns false after cli_error on an
 * unknown option or a missing value. */
bool cli_parse(const char *cmd, const cli_opt *table, void *opts, int argc, char **argv, int *n_pos);

/* ---- a command's options as data ------------------------------------------------------
 * A command spells its options as one string the parser reads, not as code:
 * space-separated words, each "NAME[|NAME...]KIND[:JSON]" where KIND is
 * nothing (a flag), "=" (a value), "=*" (a value that may repeat) or "=2"
 * (two values); the names are aliases ("-o|--output="); JSON names the
 * query argument the option gives (cli_args_json). "@NAME" stands for a set
 * several commands share: @oracle (docs/help/oracle-options.txt), @view
 * (view-options.txt), @source (source-options.txt). A spec starting with
 * "+ " stops at the first positional: the rest is a command line of its own.
 * Values are read back by any of an option's names. */
#define CLI_MAX_OPTS 48

typedef struct cli_slot {
	const char *names[3];      /* its aliases, NULL-padded */
	const char *json;          /* the query argument it gives, or NULL */
	cli_opt_kind kind;
	bool given;                /* a flag: present */
	const char *value;         /* a value: the last one given */
	const char *pair[2];
	cli_list list;
} cli_slot;

typedef struct cli_args {
	cli_slot slot[CLI_MAX_OPTS];
	unsigned n;
	char **pos;                /* the positionals (packed at argv + 1, or the rest after "+ ") */
	int n_pos;
	cli_opt rows[2 * CLI_MAX_OPTS + 1];   /* the table cli_parse reads, compiled from the spec */
	char text[2048];           /* the spec's words */
} cli_args;

/* Parses argv by spec into a (cli_parse's rules and messages). False after
 * the message; cli_args_free in either case. */
bool cli_args_parse(const char *cmd, const char *spec, cli_args *a, int argc, char **argv);
void cli_args_free(cli_args *a);
/* The value of the option named name (NULL when not given; or_else). */
const char *cli_str(const cli_args *a, const char *name);
const char *cli_str_or(const cli_args *a, const char *name, const char *or_else);
/* A flag (or an option with a value) given. */
bool cli_has(const cli_args *a, const char *name);
/* A repeated option's values; a pair option's two values ({NULL, NULL} when absent). */
const cli_list *cli_all(const cli_args *a, const char *name);
const char *const *cli_pair(const cli_args *a, const char *name);
/* The expanded words of the shared set NAME ("view"), for cli_any. */
const char *cli_group(const char *name);
/* True when any option of the space-separated names (a spec's words) is given. */
bool cli_any(const cli_args *a, const char *names);
/* Sets args[JSON] for every given option with a JSON name: a value as a
 * string, a flag as true (jansson's json_t). */
struct json_t;
void cli_args_json(const cli_args *a, struct json_t *args);

/* True when argv[1..] holds -h or --help before any "--". */
bool cli_wants_help(int argc, char **argv);

/* "facet CMD: error: MSG\n" on stderr: the one format of every CLI error. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "facet CMD: warning: MSG\n" and "facet CMD: note: MSG\n". */
void cli_warning(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Flushes stdout; on a write error says so (naming cmd) and returns false. */
bool cli_flush(const char *cmd);

/* Checks that s is one of the '\0'-separated choices ("text\0json\0");
 * otherwise cli_error "unknown WHAT 's' (a, b, c)" and false. */
bool cli_choice(const char *cmd, const char *what, const char *s, const char *choices);

/* A decimal integer lo..hi with no sign; otherwise cli_error naming the
 * option ("OPT wants an integer from LO to HI, not 'S'") and false. */
bool cli_uint(const char *cmd, const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *out);

#endif
