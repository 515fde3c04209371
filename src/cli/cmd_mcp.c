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

typedef struct options {
	const char *catalog, *overlay, *max_message, *write_dir;
	cli_list read_dirs;
	bool verbose;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--catalog", options, catalog),
	CLI_OPT_VALUE("--overlay", options, overlay),
	CLI_OPT_VALUE("--max-message-bytes", options, max_message),
	CLI_OPT_VALUE("--write-dir", options, write_dir),
	CLI_OPT_LIST("--read-dir", options, read_dirs),
	CLI_OPT_FLAG("--verbose", options, verbose),
	CLI_OPT_FLAG("-v", options, verbose),
	CLI_OPT_END,
};

int cmd_mcp(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		char max[32];
		snprintf(max, sizeof max, "%d", MCP_DEFAULT_MAX_MESSAGE);
		cli_help(stdout, "mcp", (const cli_help_value[]){{"max_message", max}, {NULL, NULL}});
		return EXIT_OK;
	}
	options o = {0};
	int npos;
	if (!cli_parse("mcp", table, &o, argc, argv, &npos)) {
		cli_list_free(&o.read_dirs);
		return EXIT_USAGE;
	}
	if (npos > 0 || o.read_dirs.n > 62) {
		if (npos > 0)
			cli_error("mcp", "unexpected argument '%s' (see --help)", argv[1]);
		else
			cli_error("mcp", "at most 62 --read-dir");
		cli_list_free(&o.read_dirs);
		return EXIT_USAGE;
	}
	mcp_run_options ro = {.catalog = o.catalog, .overlay = o.overlay, .write_dir = o.write_dir,
	                      .verbose = o.verbose, .log = stderr, .writer = ir_slice_write};
	unsigned long n;
	if (o.max_message && !cli_uint("mcp", "--max-message-bytes", o.max_message, 1, INT_MAX, &n)) {
		cli_list_free(&o.read_dirs);
		return EXIT_USAGE;
	}
	ro.max_message = o.max_message ? (size_t)n : 0;
	if (o.overlay && !o.catalog) {
		cli_error("mcp", "--overlay needs --catalog (see --help)");
		cli_list_free(&o.read_dirs);
		return EXIT_USAGE;
	}
	ro.read_dirs = o.read_dirs.v;
	ro.n_read_dirs = o.read_dirs.n;
	facet_error err = {0};
	int rc = mcp_run(&ro, &err);
	if (rc != 0 && err.msg[0])
		cli_error("mcp", "%s", err.msg);
	cli_list_free(&o.read_dirs);
	return rc == 2 ? EXIT_USAGE : rc ? EXIT_INPUT : EXIT_OK;
}
