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
