/* main.c — facet-query: `facet query` and `facet overlay` without LLVM.
 *
 * The facet binary links libLLVM, whose start-up alone costs about 0.1 s per
 * process; a query on a catalog needs none of it. This program is the same
 * commands (src/cli/cmd_query.c, compiled with FACET_QUERY_NO_LLVM) in a
 * binary that links only SQLite, jansson and the query library:
 *
 *   facet-query VERB ARGS... --catalog CATALOG      = facet query VERB ...
 *   facet-query overlay record|list ...              = facet overlay ...
 *
 * slice --emit-module is handed to the facet binary beside it. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "overlay") == 0)
		return cmd_overlay(argc - 1, argv + 1);
	return cmd_query(argc, argv);
}
