/* opt.h — the command line of facet's commands: their option specs read by
 * the one parser (util/args.h), the option sets several commands share,
 * and one message format. No LLVM here: facet-query links this too.
 *
 * A command spells its options as one spec string (util/args.h), e.g.
 * "-o|--output= --tau= --capture=2 --no-verify @oracle", where "@NAME" is a
 * shared set: @oracle (docs/help/oracle-options.txt), @view
 * (view-options.txt), @source (source-options.txt). It reports every
 * problem through cli_error, so each message reads "facet CMD: error: WHAT"
 * whichever command prints it. */
#ifndef FACET_CLI_OPT_H
#define FACET_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/args.h"

/* args_parse_table and args_parse with their refusal printed by cli_error
 * (cmd names the command). The parsed a is to be args_free'd either way. */
bool cli_parse(const char *cmd, const args_opt *table, void *opts, int argc, char **argv, int *n_pos);
bool cli_args_parse(const char *cmd, const char *spec, args_set *a, int argc, char **argv);
/* The expanded words of the shared set NAME ("view"); NULL when there is none. */
const char *cli_group(const char *name);
/* args_any with the shared sets. */
bool cli_any(const args_set *a, const char *names);
/* Sets args[JSON] for every given option with a JSON name: a value as a
 * string, a flag as true (jansson's json_t). */
struct json_t;
void cli_args_json(const args_set *a, struct json_t *args);

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
