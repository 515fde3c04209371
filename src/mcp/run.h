/* run.h — `facet mcp` as one call: the server bound to the query layer
 * (query.h), serving stdin/stdout until the client closes the stream. */
#ifndef FACET_MCP_RUN_H
#define FACET_MCP_RUN_H

#include "mcp/server.h"
#include "query/query.h"

typedef struct mcp_run_options {
	const char *catalog, *overlay;   /* loaded before serving; NULL: none (overlay needs catalog) */
	const char *write_dir;           /* NULL: the catalog's directory, else the working directory */
	const char *const *read_dirs;    /* none: the working directory and the catalog's */
	unsigned n_read_dirs;            /* at most 62 */
	size_t max_message;              /* 0: MCP_DEFAULT_MAX_MESSAGE */
	bool verbose;
	FILE *log;                       /* the server's log (stderr) */
	query_module_writer writer;      /* slice's emit_module (ir_slice_write); NULL: none */
} mcp_run_options;

/* Serves. Stdout is kept for the protocol: the server writes to a private
 * copy of fd 1 and fd 1 becomes stderr, so whatever a library prints to
 * stdout lands among the diagnostics instead of corrupting the stream.
 * SIGPIPE is ignored (a client that goes away makes writes fail instead).
 * Returns 0 at the end of the input; 2 + err when a directory of the
 * options does not exist; 1 + err (err->msg empty when the stream itself
 * failed) otherwise. One server per process: it owns stdin and stdout. */
int mcp_run(const mcp_run_options *o, facet_error *err);

#endif
