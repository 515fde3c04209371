/* cmd_mcp.c — `facet mcp`: serve the catalog queries and the overlay to MCP
 * clients (AI agents) over stdin/stdout. The protocol and its binding to the
 * query layer are src/mcp/ (run.h); this file parses the options and gives
 * it slice's bitcode writer (LLVM, which the query layer does not link). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/slice.h"
#include "mcp/run.h"

int cmd_mcp(int argc, char **argv)
{
	if (args_wants_help(argc, argv)) {
		char max[32];
		snprintf(max, sizeof max, "%d", MCP_DEFAULT_MAX_MESSAGE);
		cli_help(stdout, "mcp", (const template_value[]){{"max_message", max}, {NULL, NULL}});
		return EXIT_OK;
	}
	args_set a;
	int rc = EXIT_USAGE;
	unsigned long n = 0;
	const char *max = NULL;
	bool ok = cli_args_parse("mcp", "--read-dir=* --catalog= --overlay= --max-message-bytes= --write-dir= --verbose|-v",
	                         &a, argc, argv);
	const args_list *dirs = args_all(&a, "--read-dir");
	if (!ok)
		;
	else if (a.n_pos > 0)
		cli_error("mcp", "unexpected argument '%s' (see --help)", argv[1]);
	else if (dirs->n > 62)
		cli_error("mcp", "at most 62 --read-dir");
	else if ((max = args_str(&a, "--max-message-bytes")) && !cli_uint("mcp", "--max-message-bytes", max, 1, INT_MAX, &n))
		;
	else if (args_has(&a, "--overlay") && !args_has(&a, "--catalog"))
		cli_error("mcp", "--overlay needs --catalog (see --help)");
	else {
		mcp_run_options ro = {.catalog = args_str(&a, "--catalog"), .overlay = args_str(&a, "--overlay"),
		                      .write_dir = args_str(&a, "--write-dir"), .verbose = args_has(&a, "--verbose"),
		                      .log = stderr, .writer = ir_slice_write, .max_message = (size_t)n,
		                      .read_dirs = dirs->v, .n_read_dirs = dirs->n};
		facet_error err = {0};
		int r = mcp_run(&ro, &err);
		if (r != 0 && err.msg[0])
			cli_error("mcp", "%s", err.msg);
		rc = r == 2 ? EXIT_USAGE : r ? EXIT_INPUT : EXIT_OK;
	}
	args_free(&a);
	return rc;
}
