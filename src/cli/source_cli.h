/* source_cli.h — the options `facet source` and `facet callgraph --source`
 * share (--compile-commands, -I, -D), and the one call that reads a tree
 * with them, printing each unit's diagnostics as warnings. */
#ifndef FACET_CLI_SOURCE_CLI_H
#define FACET_CLI_SOURCE_CLI_H

#include "cli/opt.h"
#include "source/source.h"

typedef struct cli_source_args {
	const char *compile_commands;
	cli_list includes, defines;
} cli_source_args;

/* The options as a table over cli_source_args (CLI_OPT_TABLE); their --help
 * lines are docs/help/source-options.txt. */
extern const cli_opt cli_source_opts[];

/* source_analyze over paths[0..n-1]; NULL after the error message. Units
 * with errors get one warning each (the count and the first error). */
source_result *cli_source_analyze(const char *cmd, const cli_source_args *a, char **paths, int n);
void cli_source_args_free(cli_source_args *a);

#endif
