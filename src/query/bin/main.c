/* main.c — facet-query: `facet query` and `facet overlay` without LLVM.
 *
 * The facet binary links libLLVM, whose start-up alone costs about 0.1 s per
 * process; a query on a catalog needs none of it. This program runs the same
 * commands (src/cli/cmd_query.c) in a binary that links only SQLite, jansson
 * and the query library:
 *
 *   facet-query VERB ARGS... --catalog CATALOG      = facet query VERB ...
 *   facet-query overlay record|list ...              = facet overlay ...
 *
 * Without a module writer, slice --emit-module is handed to the facet binary
 * beside it. */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	bool overlay = argc >= 2 && strcmp(argv[1], "overlay") == 0;
	int rc = overlay ? cli_overlay(argc - 1, argv + 1) : cli_query(argc, argv, NULL);
	if (argc >= 2 && cli_wants_help(overlay ? argc - 1 : argc, overlay ? argv + 1 : argv))
		fputs(cli_rpm_note, stdout);   /* every --help says what R± may lose */
	return rc;
}
