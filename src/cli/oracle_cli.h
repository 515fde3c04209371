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

typedef struct cli_oracle_args {
	const char *backend;       /* NULL = none */
	const char *command, *url, *model, *key_env, *cache, *source_root;
	const char *max_queries, *max_tokens, *timeout_ms, *retries, *backoff_ms;
	bool replay_only, opaque_fields, no_schema;
	/* Set by a caller that stores answers elsewhere (facet build: the
	 * catalog): an in-memory cache is made even without --oracle-cache, and
	 * --oracle-replay-only is accepted without it. */
	bool want_cache;
} cli_oracle_args;

/* The oracle options as an option table over cli_oracle_args: a command
 * includes it with CLI_OPT_TABLE(cli_oracle_opts, its_options, oracle); its
 * --help lines are docs/help/oracle-options.txt. */
extern const cli_opt cli_oracle_opts[];

typedef struct cli_oracle {
	facet_oracle *oracle;      /* NULL: the none backend */
	oracle_cache *cache;       /* the --oracle-cache file's entries, NULL without one */
	const char *cache_path;
	oracle_config cfg;
} cli_oracle;

/* Builds the oracle the arguments name; prints "facet CMD: ..." and returns
 * EXIT_USAGE or EXIT_INPUT on a bad option or an unreadable cache, EXIT_OK
 * otherwise (o->oracle NULL for none). */
int cli_oracle_open(const char *cmd, const cli_oracle_args *a, cli_oracle *o);
/* Prints the accounting on stderr when an oracle ran, saves the cache file,
 * frees everything. Returns false (after printing) when the cache could not
 * be saved. */
bool cli_oracle_close(const char *cmd, cli_oracle *o);

/* What the answers depend on, for a catalog's fingerprint: "none", or
 * "BACKEND model=M opaque=0|1" (M the model, or the command). */
const char *cli_oracle_label(const cli_oracle *o, char *buf, size_t n);

/* The accounting as JSON (docs/oracle.md), or JSON null without an oracle. */
json_t *cli_oracle_stats_json(const cli_oracle *o);
/* One line of accounting: "oracle openai (model M): N questions, ...". */
void cli_oracle_print_stats(FILE *out, const char *prefix, const cli_oracle *o);

#endif
