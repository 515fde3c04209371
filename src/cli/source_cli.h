/* source_cli.h — the options `facet source` and `facet callgraph --source`
 * share (--compile-commands, -I, -D), and the one call that reads a tree
 * with them, printing each unit's diagnostics as warnings. */
#ifndef FACET_CLI_SOURCE_CLI_H
#define FACET_CLI_SOURCE_CLI_H

#include "cli/opt.h"
#include "source/source.h"

/* source_analyze over paths[0..n-1] with the command's @source options
 * (cli/opt.h; --help lines: docs/help/source-options.txt); NULL after the
 * error message. Units with errors get one warning each (the count and the
 * first error). */
source_result *cli_source_analyze(const char *cmd, const args_set *a, char **paths, int n);

#endif
