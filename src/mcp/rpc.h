/* rpc.h — JSON-RPC 2.0 framing for MCP's stdio transport.
 *
 * The stdio transport sends one JSON-RPC message per line, UTF-8, with no
 * embedded newline. This module reads such lines with a size cap (so a client
 * cannot make the server buffer an unbounded line), and builds and writes the
 * response and error objects. It knows nothing of MCP's methods. */
#ifndef FACET_MCP_RPC_H
#define FACET_MCP_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* JSON-RPC 2.0 error codes (the spec's reserved range). */
enum {
	MCP_PARSE_ERROR = -32700,
	MCP_INVALID_REQUEST = -32600,
	MCP_METHOD_NOT_FOUND = -32601,
	MCP_INVALID_PARAMS = -32602,
	MCP_INTERNAL_ERROR = -32603,
};

typedef enum mcp_read_status {
	MCP_READ_LINE,      /* a line is in *line (without its newline) */
	MCP_READ_TOO_LONG,  /* a line exceeded the cap; it was read and dropped */
	MCP_READ_EOF,       /* the client closed stdin */
	MCP_READ_ERROR,     /* read(2) failed; errno says why */
} mcp_read_status;

typedef struct mcp_reader {
	int fd;
	size_t cap;           /* longest accepted line, newline excluded */
	char *buf;            /* bytes read, not yet returned */
	size_t len, start;    /* buf[start..len) holds them */
	size_t size;
	bool eof;
} mcp_reader;

/* A reader of fd that accepts lines of at most cap bytes. */
void mcp_reader_init(mcp_reader *r, int fd, size_t cap);
void mcp_reader_free(mcp_reader *r);
/* Reads the next line. On MCP_READ_LINE, *line points into the reader's
 * buffer (valid until the next call), NUL-terminated, a trailing '\r'
 * removed, and *n is its length. A last line without a newline before EOF
 * still counts as a line. */
mcp_read_status mcp_read_line(mcp_reader *r, char **line, size_t *n);

/* {"jsonrpc":"2.0","id":id,"result":result}; steals result, copies id. */
json_t *mcp_rpc_result(const json_t *id, json_t *result);
/* {"jsonrpc":"2.0","id":id|null,"error":{code,message[,data]}}; steals data
 * (may be NULL), copies id (NULL means null: the id could not be read). */
json_t *mcp_rpc_error(const json_t *id, int code, const char *message, json_t *data);

/* A JSON string of s; bytes that are not valid UTF-8 (a file name in a
 * message, say) become '?' rather than making the whole message fail. */
json_t *mcp_json_text(const char *s);

/* Writes msg as one line of compact JSON and flushes. Returns false when the
 * stream failed (the client went away). */
bool mcp_rpc_write(FILE *out, const json_t *msg);

#endif
