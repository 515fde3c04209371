/* rpc.c — line framing with a size cap, and JSON-RPC response objects.
 *
 * The reader works on the raw fd rather than stdio so that a too-long line
 * is dropped as it streams in: at most cap bytes plus one read chunk are
 * ever buffered, whatever the client sends. */
#include "mcp/rpc.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

enum { CHUNK = 64 * 1024 };

void mcp_reader_init(mcp_reader *r, int fd, size_t cap)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->cap = cap;
}

void mcp_reader_free(mcp_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

/* Appends up to CHUNK bytes from the fd; returns bytes read, 0 at EOF, -1 on
 * error. Compacts the buffer first so it never grows past cap + CHUNK + 1. */
static ssize_t fill(mcp_reader *r)
{
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->len - r->start);
		r->len -= r->start;
		r->start = 0;
	}
	if (r->size < r->len + CHUNK + 1) {
		r->size = r->len + CHUNK + 1;
		r->buf = xrealloc(r->buf, r->size);
	}
	ssize_t got;
	do
		got = read(r->fd, r->buf + r->len, CHUNK);
	while (got < 0 && errno == EINTR);
	if (got > 0)
		r->len += (size_t)got;
	return got;
}

mcp_read_status mcp_read_line(mcp_reader *r, char **line, size_t *n)
{
	bool dropping = false;   /* inside a line longer than the cap */
	size_t scanned = 0;      /* bytes after start already known to hold no '\n' */
	for (;;) {
		char *s = r->buf ? r->buf + r->start : NULL;
		size_t avail = r->len - r->start;
		char *nl = avail > scanned ? memchr(s + scanned, '\n', avail - scanned) : NULL;
		if (nl) {
			size_t len = (size_t)(nl - s);
			r->start += len + 1;
			if (dropping || len > r->cap)
				return MCP_READ_TOO_LONG;
			*nl = 0;
			if (len > 0 && s[len - 1] == '\r')
				s[--len] = 0;
			*line = s;
			*n = len;
			return MCP_READ_LINE;
		}
		scanned = avail;
		if (avail > r->cap) {
			/* Too long already: forget what we hold, keep reading to the newline. */
			r->start = r->len = 0;
			scanned = 0;
			dropping = true;
		}
		if (r->eof) {
			if (dropping)
				return MCP_READ_TOO_LONG;
			if (avail == 0)
				return MCP_READ_EOF;
			/* A last message without its newline: accept it. */
			s[avail] = 0;   /* fill() always leaves one spare byte */
			r->start = r->len;
			if (avail > 0 && s[avail - 1] == '\r')
				s[--avail] = 0;
			*line = s;
			*n = avail;
			return MCP_READ_LINE;
		}
		ssize_t got = fill(r);
		if (got < 0)
			return MCP_READ_ERROR;
		if (got == 0)
			r->eof = true;
	}
}

json_t *mcp_json_text(const char *s)
{
	json_t *j = json_string(s ? s : "");
	if (j)
		return j;
	/* Keep the valid UTF-8 sequences, replace each stray byte. */
	size_t n = strlen(s);
	char *t = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = len > 0 && i + len <= n;
		for (size_t b = 1; ok && b < len; b++)
			ok = ((unsigned char)s[i + b] & 0xc0) == 0x80;
		if (ok && len > 1) {
			/* jansson is the judge of overlong forms and surrogates. */
			char one[5] = {0};
			memcpy(one, s + i, len);
			json_t *probe = json_string(one);
			ok = probe != NULL;
			json_decref(probe);
		}
		if (!ok) {
			t[k++] = '?';
			i++;
			continue;
		}
		memcpy(t + k, s + i, len);
		k += len;
		i += len;
	}
	t[k] = 0;
	j = json_string(t);
	free(t);
	return j ? j : json_string("?");
}

json_t *mcp_rpc_result(const json_t *id, json_t *result)
{
	json_t *m = json_object();
	json_object_set_new(m, "jsonrpc", json_string("2.0"));
	json_object_set_new(m, "id", id ? json_copy((json_t *)id) : json_null());
	json_object_set_new(m, "result", result ? result : json_object());
	return m;
}

json_t *mcp_rpc_error(const json_t *id, int code, const char *message, json_t *data)
{
	json_t *e = json_object();
	json_object_set_new(e, "code", json_integer(code));
	json_object_set_new(e, "message", mcp_json_text(message));
	if (data)
		json_object_set_new(e, "data", data);
	json_t *m = json_object();
	json_object_set_new(m, "jsonrpc", json_string("2.0"));
	json_object_set_new(m, "id", id ? json_copy((json_t *)id) : json_null());
	json_object_set_new(m, "error", e);
	return m;
}

bool mcp_rpc_write(FILE *out, const json_t *msg)
{
	/* JSON_COMPACT never emits a raw newline: newlines inside strings are
	 * escaped, so one message is exactly one line. */
	char *text = json_dumps(msg, JSON_COMPACT);
	if (!text)
		return false;
	bool ok = fputs(text, out) >= 0 && fputc('\n', out) != EOF && fflush(out) == 0;
	free(text);
	return ok;
}
