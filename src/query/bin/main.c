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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opt.h"

/* Writing bitcode needs LLVM: the facet binary beside this one answers the
 * whole command. */
static int hand_to_facet(int argc, char **argv)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
	char *slash = n > 0 ? memrchr(self, '/', (size_t)n) : NULL;
	if (slash) {
		strcpy(slash + 1, "facet");
		char **av = calloc((size_t)argc + 2, sizeof *av);
		av[0] = self;
		av[1] = "query";
		for (int i = 1; i < argc; i++)
			av[i + 1] = argv[i];
		fflush(NULL);
		execv(self, av);
		free(av);
	}
	cli_error("query", "--emit-module needs the facet binary (not found beside this one)");
	return EXIT_INPUT;
}

/* True when the query options (before any "--") ask for a module. */
static bool emits(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strncmp(argv[i], "--emit-module", 13) == 0 && (!argv[i][13] || argv[i][13] == '='))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	bool overlay = argc >= 2 && strcmp(argv[1], "overlay") == 0;
	if (!overlay && !args_wants_help(argc, argv) && emits(argc, argv))
		return hand_to_facet(argc, argv);
	int rc = overlay ? cli_overlay(argc - 1, argv + 1) : cli_query(argc, argv, NULL);
	if (argc >= 2 && args_wants_help(overlay ? argc - 1 : argc, overlay ? argv + 1 : argv))
		fputs(cli_rpm_note, stdout);   /* every --help says what R± may lose */
	return rc;
}
