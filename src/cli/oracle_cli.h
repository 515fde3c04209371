/* oracle_cli.h — the oracle options every analysing subcommand shares
 * (--oracle none|command|openai and the rest; docs/oracle.md), building the
 * backend and its cache from them, and printing the per-run accounting. */
#ifndef FACET_CLI_ORACLE_CLI_H
#define FACET_CLI_ORACLE_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/opt.h"
#include "oracle/oracle.h"
#include "oracle/report.h"   /* the accounting: oracle_stats_json, oracle_stats_print */
#include "oracle/settings.h"

/* The options' values (oracle/settings.h checks and applies them). */
typedef oracle_settings cli_oracle_args;

/* The values of a command's @oracle options (cli/opt.h); its --help lines
 * are docs/help/oracle-options.txt. */
cli_oracle_args cli_oracle_args_of(const args_set *a);

typedef oracle_run cli_oracle;   /* the oracle, its cache and configuration */

/* Builds the oracle the arguments name; prints "facet CMD: ..." and returns
 * EXIT_USAGE or EXIT_INPUT on a bad option or an unreadable cache, EXIT_OK
 * otherwise (o->oracle NULL for none). */
int cli_oracle_open(const char *cmd, const cli_oracle_args *a, cli_oracle *o);
/* Prints the accounting on stderr when an oracle ran, saves the cache file,
 * frees everything. Returns false (after printing) when the cache could not
 * be saved. */
bool cli_oracle_close(const char *cmd, cli_oracle *o);

#endif
