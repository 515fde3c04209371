/* server.h — facet's MCP server: the session state machine over JSON-RPC.
 *
 * The server speaks MCP over a newline-delimited JSON-RPC stream (rpc.h):
 * initialize with protocol-version negotiation, notifications/initialized,
 * ping, tools/list and tools/call (tools.h). Tool failures (bad arguments,
 * no catalog loaded, an unknown symbol) are tool results with isError true,
 * which a model can read and correct; JSON-RPC errors are kept for protocol
 * problems (unparseable JSON, an invalid request, an unknown method or tool,
 * a request before initialize, a message over the size cap).
 *
 * The queries themselves run behind mcp_backend, which cmd_mcp.c binds to
 * query.h; the indirection lets the protocol be tested without a catalog.
 *
 * The server writes protocol messages only to the stream it is given, and
 * log lines only to opts->log (stderr in `facet mcp`): stdout must carry
 * nothing else. */
#ifndef FACET_MCP_SERVER_H
#define FACET_MCP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "util/error.h"

/* The query layer as the server sees it (query.h's four entry points). */
typedef struct mcp_backend {
	void *(*open)(const char *catalog_path, facet_error *err);
	void (*close)(void *session);
	/* args is borrowed; returns a new reference or NULL with err set. */
	json_t *(*call)(void *session, const char *verb, json_t *args, facet_error *err);
	bool (*pending)(const void *session);
} mcp_backend;

/* What tools may touch. A prompt-injected agent must not be able to read
 * or destroy a user's files, so every path a tool names (load_catalog's
 * path and overlay, load_overlay's and save_overlay's path, slice's
 * emit_module, and the default overlay path they fall back to) is resolved
 * (symlinks followed, "..", relative to the working directory) and must lie
 * inside a directory fixed when the server starts: reads inside one of
 * read_dirs, writes inside write_dir (the file's directory; a symlink is
 * never written through). The writers themselves refuse to replace a file
 * that is not of their kind (util/atomic.h). */
typedef struct mcp_options {
	size_t max_message;   /* longest accepted message in bytes; 0 = MCP_DEFAULT_MAX_MESSAGE */
	bool verbose;         /* log each request to log */
	FILE *log;            /* diagnostics; NULL = none */
	const char *write_dir;              /* NULL: the working directory at start */
	const char *const *read_dirs;       /* n_read_dirs of them; none: the working directory */
	unsigned n_read_dirs;
} mcp_options;

enum { MCP_DEFAULT_MAX_MESSAGE = 4 << 20 };

/* Protocol versions the server speaks, newest first, NULL-terminated. */
extern const char *const mcp_protocol_versions[];

typedef struct mcp_server mcp_server;

/* NULL and err when a directory of opts does not exist. */
mcp_server *mcp_server_new(const mcp_backend *backend, const mcp_options *opts);
/* The directories the server resolved (absolute, no symlinks). */
const char *mcp_server_write_dir(const mcp_server *s);
/* Closes the loaded catalog. Unsaved overlay records are dropped (and the
 * log says so): only save_overlay writes. */
void mcp_server_free(mcp_server *s);

/* Loads a catalog before serving (`facet mcp --catalog`), as the
 * load_catalog tool would. False + err on failure. */
bool mcp_server_load(mcp_server *s, const char *catalog_path, const char *overlay_path, facet_error *err);

/* Handles one message already parsed: a request, a notification, a response
 * or (protocol 2025-03-26) a batch. Returns the reply to send (new
 * reference), or NULL when there is none (notifications, responses). */
json_t *mcp_server_handle(mcp_server *s, const json_t *msg);

/* Handles one line of the stream: parses it, then mcp_server_handle. A line
 * that is not JSON gets a parse error reply. */
json_t *mcp_server_handle_line(mcp_server *s, const char *line, size_t n);

/* Serves until in_fd reaches EOF. Returns 0 at EOF, 1 when reading in_fd or
 * writing out failed (the client went away). */
int mcp_serve(mcp_server *s, int in_fd, FILE *out);

#endif
