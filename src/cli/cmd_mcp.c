/* cmd_mcp.c — `facet mcp`: serve the catalog queries and the overlay to MCP
 * clients (AI agents) over stdin/stdout. The protocol is src/mcp/; this file
 * binds it to the query layer and guards stdout. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/slice.h"
#include "mcp/server.h"
#include "query/query.h"
#include "util/xalloc.h"

/* query.h's entry points as the server's backend. The query library does
 * not link LLVM; the facet binary does, so sessions opened here get the
 * bitcode writer that slice's emit_module needs. */
static void *q_open(const char *path, facet_error *err)
{
	query_session *q = query_open(path, err);
	if (q)
		query_set_module_writer(q, ir_slice_write);
	return q;
}

static void q_close(void *s)
{
	query_close(s);
}

static json_t *q_call(void *s, const char *verb, json_t *args, facet_error *err)
{
	return query_call(s, verb, args, err);
}

static bool q_pending(const void *s)
{
	return query_overlay_pending(s);
}

static const mcp_backend query_backend = {q_open, q_close, q_call, q_pending};

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
	const char *catalog = o.catalog, *overlay = o.overlay, *write_dir = o.write_dir;
	const char *read_dirs[64];
	unsigned n_read = o.read_dirs.n;
	for (unsigned i = 0; i < n_read; i++)
		read_dirs[i] = o.read_dirs.v[i];
	cli_list_free(&o.read_dirs);
	mcp_options opts = {.log = stderr, .verbose = o.verbose};
	unsigned long n;
	if (o.max_message) {
		if (!cli_uint("mcp", "--max-message-bytes", o.max_message, 1, INT_MAX, &n))
			return EXIT_USAGE;
		opts.max_message = (size_t)n;
	}
	if (overlay && !catalog) {
		cli_error("mcp", "--overlay needs --catalog (see --help)");
		return EXIT_USAGE;
	}

	/* Keep the protocol stream to ourselves: the server writes to a private
	 * copy of fd 1, and fd 1 itself becomes stderr, so anything a library
	 * prints to stdout lands among the diagnostics instead of corrupting the
	 * stream the client parses. */
	fflush(stdout);
	int proto_fd = dup(STDOUT_FILENO);
	FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : NULL;
	if (!proto || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		cli_error("mcp", "cannot set up stdout: %s", strerror(errno));
		return EXIT_INPUT;
	}
	/* A client that goes away makes writes fail with EPIPE, which the
	 * server handles, instead of killing the process. */
	signal(SIGPIPE, SIG_IGN);

	/* Defaults (docs/mcp.md): write in the catalog's directory, else the
	 * working directory; read there and in the working directory. */
	char *cat_dir = NULL;
	if (catalog) {
		cat_dir = xstrdup(catalog);
		char *slash = strrchr(cat_dir, '/');
		if (slash)
			slash == cat_dir ? (void)(slash[1] = 0) : (void)(*slash = 0);
		else
			strcpy(cat_dir, ".");
		if (access(cat_dir, F_OK) != 0) {   /* loading it fails below, naming the catalog */
			free(cat_dir);
			cat_dir = NULL;
		}
	}
	if (n_read == 0) {
		read_dirs[n_read++] = ".";
		if (cat_dir)
			read_dirs[n_read++] = cat_dir;
	}
	opts.write_dir = write_dir ? write_dir : cat_dir ? cat_dir : ".";
	opts.read_dirs = read_dirs;
	opts.n_read_dirs = n_read;
	mcp_server *server = mcp_server_new(&query_backend, &opts);
	free(cat_dir);
	if (!server) {
		cli_error("mcp", "--write-dir or --read-dir names a directory that does not exist");
		fclose(proto);
		return EXIT_USAGE;
	}
	int status = 0;
	if (catalog) {
		facet_error err = {0};
		if (!mcp_server_load(server, catalog, overlay, &err)) {
			cli_error("mcp", "%s", err.msg);
			mcp_server_free(server);
			fclose(proto);
			return EXIT_INPUT;
		}
		if (opts.verbose)
			fprintf(stderr, "facet mcp: loaded %s\n", catalog);
	}
	status = mcp_serve(server, STDIN_FILENO, proto);
	mcp_server_free(server);
	if (fclose(proto) != 0)
		status = 1;
	return status ? EXIT_INPUT : EXIT_OK;
}
