/* server.c — MCP lifecycle, method dispatch and the session-managing tools.
 *
 * States: NEW until an initialize request is answered, then OPEN. In NEW only
 * initialize and ping are served (the spec lets a client ping at any time);
 * every other request gets an Invalid Request error naming the cause, and
 * notifications are dropped. notifications/initialized is not required
 * before serving tools: clients that send a request right after the
 * initialize response (racing their own notification) are still answered.
 *
 * The catalog session belongs to the server: load_catalog replaces it,
 * unload_catalog closes it, mcp_server_free closes it at EOF. Each of those
 * refuses to drop unsaved overlay records unless told to (discard_pending),
 * except the last: the client closing stdin ends the session, and seed 001
 * says unsaved records are not written on exit. */
#include "mcp/server.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mcp/rpc.h"
#include "mcp/schema.h"
#include "mcp/tools.h"
#include "util/clock.h"
#include "util/xalloc.h"

/* Kept in step with `facet --version` (src/cli/main.c). */
#define SERVER_VERSION "0.1.0"

const char *const mcp_protocol_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", NULL};

/* structuredContent in tool results exists from this revision on. */
#define FIRST_STRUCTURED "2025-06-18"
/* The one revision whose transport has JSON-RPC batches. */
#define BATCH_VERSION "2025-03-26"

static const char instructions[] =
	"facet answers call-graph questions about one C program from its catalog (built with "
	"`facet build PROG.bc -o PROG.facet`). Call load_catalog first. Answers carry `uncertainty`: "
	"unresolved indirect call sites can hide paths. To complete the graph: resolution_candidates, "
	"read each candidate's assignments (at, and the source file), record_edges with provenance, "
	"list_overlay, save_overlay, then ask reach/closure/slice again with include_overlay. Every edge "
	"of an answer carries `proof` (kind direct, premise-free, premised with its rule and premise (premise "
	"collapsed: the target may come through a collapsed points-to object), or "
	"agent with its confidence); a path's `proof.label` is proven only when every step is direct or "
	"premise-free, else premised (proof.premises lists what it rests on) or agent: say which, and "
	"quote each agent step's provenance. Answers are answer_version 2 (docs/queries.md). List answers "
	"take limit and offset and say the total in `page`. Unsaved records are lost when the session ends.";

typedef enum { PHASE_NEW, PHASE_OPEN } server_phase;

struct mcp_server {
	const mcp_backend *b;
	mcp_options o;
	server_phase phase;
	char version[16];           /* the negotiated protocol revision */
	void *session;              /* the loaded catalog, or NULL */
	char *catalog_path;
	char *write_dir;            /* realpath'ed at start */
	char **read_dirs;
	unsigned n_read_dirs;
};

static void logf_(const mcp_server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(const mcp_server *s, const char *fmt, ...)
{
	if (!s->o.log)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("facet mcp: ", s->o.log);
	vfprintf(s->o.log, fmt, ap);
	fputc('\n', s->o.log);
	fflush(s->o.log);
	va_end(ap);
}

mcp_server *mcp_server_new(const mcp_backend *backend, const mcp_options *opts)
{
	mcp_server *s = xcalloc(1, sizeof *s);
	s->b = backend;
	if (opts)
		s->o = *opts;
	if (s->o.max_message == 0)
		s->o.max_message = MCP_DEFAULT_MAX_MESSAGE;
	s->write_dir = realpath(s->o.write_dir ? s->o.write_dir : ".", NULL);
	unsigned n = s->o.n_read_dirs ? s->o.n_read_dirs : 1;
	s->read_dirs = xcalloc(n, sizeof *s->read_dirs);
	for (unsigned i = 0; i < n; i++) {
		char *r = realpath(s->o.n_read_dirs ? s->o.read_dirs[i] : ".", NULL);
		if (r)
			s->read_dirs[s->n_read_dirs++] = r;
	}
	s->o.write_dir = NULL;
	s->o.read_dirs = NULL;
	if (!s->write_dir || s->n_read_dirs != n) {
		mcp_server_free(s);
		return NULL;
	}
	return s;
}

const char *mcp_server_write_dir(const mcp_server *s)
{
	return s->write_dir;
}

static bool pending(const mcp_server *s)
{
	return s->session && s->b->pending(s->session);
}

static void close_session(mcp_server *s)
{
	if (!s->session)
		return;
	if (pending(s))
		logf_(s, "unsaved overlay records of %s were dropped (only save_overlay writes them)", s->catalog_path);
	s->b->close(s->session);
	s->session = NULL;
	free(s->catalog_path);
	s->catalog_path = NULL;
}

void mcp_server_free(mcp_server *s)
{
	if (!s)
		return;
	close_session(s);
	free(s->write_dir);
	for (unsigned i = 0; i < s->n_read_dirs; i++)
		free(s->read_dirs[i]);
	free(s->read_dirs);
	free(s);
}

/* ---- tool results ---- */

static json_t *text_block(json_t *text)
{
	json_t *c = json_object();
	json_object_set_new(c, "type", json_string("text"));
	json_object_set_new(c, "text", text);
	json_t *a = json_array();
	json_array_append_new(a, c);
	return a;
}

/* A tool execution error: the message is for the model to read and act on. */
static json_t *tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *tool_error(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	json_t *r = json_object();
	json_object_set_new(r, "content", text_block(mcp_json_text(msg)));
	json_object_set_new(r, "isError", json_true());
	return r;
}

/* A successful result: the answer as structuredContent (an object, as the
 * spec requires) and, for clients that read only content, the same JSON as
 * text. Steals answer. */
static json_t *tool_ok(const mcp_server *s, json_t *answer)
{
	if (!json_is_object(answer)) {
		json_t *wrap = json_object();
		json_object_set_new(wrap, "result", answer);
		answer = wrap;
	}
	char *text = json_dumps(answer, JSON_COMPACT);
	json_t *r = json_object();
	json_object_set_new(r, "content", text_block(json_string(text ? text : "{}")));
	free(text);
	if (strcmp(s->version, FIRST_STRUCTURED) >= 0)
		json_object_set_new(r, "structuredContent", answer);
	else
		json_decref(answer);
	json_object_set_new(r, "isError", json_false());
	return r;
}

static bool arg_true(const json_t *args, const char *name)
{
	return json_is_true(json_object_get(args, name));
}

static const char unsaved_hint[] =
	"call save_overlay first, or pass discard_pending: true to drop them";

/* ---- the session-managing tools ---- */

/* Opens catalog (and overlay) into a new session; the old one is closed
 * only once the new one is complete, so a failed load changes nothing. */
static void *open_session(mcp_server *s, const char *catalog, const char *overlay, facet_error *err)
{
	void *q = s->b->open(catalog, err);
	if (!q)
		return NULL;
	if (overlay) {
		json_t *args = json_pack("{s:s}", "path", overlay);
		json_t *r = s->b->call(q, "load_overlay", args, err);
		json_decref(args);
		if (!r) {
			s->b->close(q);
			return NULL;
		}
		json_decref(r);
	}
	return q;
}

static void install(mcp_server *s, void *q, const char *catalog)
{
	close_session(s);
	s->session = q;
	s->catalog_path = xstrdup(catalog);
}

bool mcp_server_load(mcp_server *s, const char *catalog, const char *overlay, facet_error *err)
{
	void *q = open_session(s, catalog, overlay, err);
	if (!q)
		return false;
	install(s, q, catalog);
	return true;
}

static json_t *tool_load_catalog(mcp_server *s, const json_t *args)
{
	const char *path = json_string_value(json_object_get(args, "path"));
	const char *overlay = json_string_value(json_object_get(args, "overlay"));
	bool discard = arg_true(args, "discard_pending");
	if (pending(s) && !discard)
		return tool_error("catalog %s is loaded and its overlay holds unsaved records: %s", s->catalog_path,
		                  unsaved_hint);
	bool dropped = pending(s);
	facet_error err = {0};
	void *q = open_session(s, path, overlay, &err);
	if (!q)
		return tool_error("%s", err.msg);
	json_t *answer = json_object();
	json_object_set_new(answer, "catalog", json_string(path));
	if (s->catalog_path)
		json_object_set_new(answer, "replaced", mcp_json_text(s->catalog_path));
	json_object_set_new(answer, "discarded_pending", json_boolean(dropped));
	facet_error ierr = {0};
	json_t *inv = s->b->call(q, "inventory", NULL, &ierr);
	if (inv)
		json_object_set_new(answer, "inventory", inv);
	else
		json_object_set_new(answer, "inventory_error", mcp_json_text(ierr.msg));
	install(s, q, path);
	return tool_ok(s, answer);
}

static json_t *tool_unload_catalog(mcp_server *s, const json_t *args)
{
	bool discard = arg_true(args, "discard_pending");
	if (pending(s) && !discard)
		return tool_error("the overlay of %s holds unsaved records: %s", s->catalog_path, unsaved_hint);
	json_t *answer = json_object();
	json_object_set_new(answer, "unloaded", mcp_json_text(s->catalog_path));
	json_object_set_new(answer, "discarded_pending", json_boolean(pending(s)));
	close_session(s);
	return tool_ok(s, answer);
}

static json_t *tool_verb(mcp_server *s, const char *verb, json_t *args)
{
	facet_error err = {0};
	json_t *r = s->b->call(s->session, verb, args, &err);
	if (!r)
		return tool_error("%s", err.set ? err.msg : "the query failed without a message");
	return tool_ok(s, r);
}

/* ---- what tools may read and write (server.h, mcp_options) ---- */

static bool inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == 0);
}

/* NULL when a tool may read path, else why not (static text + path). */
static bool may_read(const mcp_server *s, const char *path, char *why, size_t n)
{
	char *r = realpath(path, NULL);
	if (!r) {
		/* Missing: judge by its directory, so the answer tells nothing
		 * about files outside the allowed ones; inside, the reader says it
		 * is missing. */
		int e = errno;
		char *copy = xstrdup(path);
		char *slash = strrchr(copy, '/');
		if (slash)
			*slash = 0;
		r = realpath(slash ? (*copy ? copy : "/") : ".", NULL);
		free(copy);
		bool in = false;
		for (unsigned i = 0; r && i < s->n_read_dirs; i++)
			in = in || inside(r, s->read_dirs[i]);
		free(r);
		(void)e;
		if (in)
			return true;   /* the reader reports it missing, as it would anyway */
		snprintf(why, n, "%s: outside the directories this server may read (%s%s); start facet mcp with "
			         "--read-dir to widen them", path, s->read_dirs[0], s->n_read_dirs > 1 ? ", ..." : "");
		return false;
	}
	for (unsigned i = 0; i < s->n_read_dirs; i++)
		if (inside(r, s->read_dirs[i])) {
			free(r);
			return true;
		}
	snprintf(why, n, "%s: outside the directories this server may read (%s%s); start facet mcp with "
	         "--read-dir to widen them", path, s->read_dirs[0], s->n_read_dirs > 1 ? ", ..." : "");
	free(r);
	return false;
}

static bool may_write(const mcp_server *s, const char *path, char *why, size_t n)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		snprintf(why, n, "%s: is a symbolic link; this server never writes through one", path);
		return false;
	}
	char *copy = xstrdup(path);
	char *slash = strrchr(copy, '/');
	const char *base = slash ? slash + 1 : copy;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		snprintf(why, n, "%s: not a file name", path);
		free(copy);
		return false;
	}
	if (slash)
		*slash = 0;
	char *dir = realpath(slash ? (*copy ? copy : "/") : ".", NULL);
	free(copy);
	if (!dir) {
		snprintf(why, n, "%s: cannot write there: %s", path, strerror(errno));
		return false;
	}
	bool ok = inside(dir, s->write_dir);
	if (!ok)
		snprintf(why, n, "%s: outside the directory this server may write (%s); start facet mcp with "
		         "--write-dir to change it", path, s->write_dir);
	free(dir);
	return ok;
}

/* The session's overlay path (where save_overlay/load_overlay go by default). */
static char *session_overlay_path(mcp_server *s)
{
	facet_error err = {0};
	json_t *r = s->session ? s->b->call(s->session, "list_overlay", NULL, &err) : NULL;
	const char *p = json_string_value(json_object_get(r, "path"));
	char *out = p ? xstrdup(p) : NULL;
	json_decref(r);
	return out;
}

/* Checks every path the call would touch; false and why when one is out of bounds. */
static bool paths_allowed(mcp_server *s, const mcp_tool *t, const json_t *args, char *why, size_t n)
{
	const char *path = json_string_value(json_object_get(args, "path"));
	if (strcmp(t->name, "load_catalog") == 0) {
		if (!may_read(s, path, why, n))
			return false;
		const char *ov = json_string_value(json_object_get(args, "overlay"));
		if (ov)
			return may_read(s, ov, why, n);
		size_t len = strlen(path) + 16;
		char *def = xmalloc(len);
		snprintf(def, len, "%s.overlay", path);
		bool ok = access(def, F_OK) != 0 || may_read(s, def, why, n);
		free(def);
		return ok;
	}
	if (strcmp(t->name, "load_overlay") == 0 || strcmp(t->name, "save_overlay") == 0) {
		bool save = t->name[0] == 's';
		char *def = path ? NULL : session_overlay_path(s);
		const char *p = path ? path : def;
		bool ok = !p || (save ? may_write(s, p, why, n)
		                      : access(p, F_OK) != 0 || may_read(s, p, why, n));
		free(def);
		return ok;
	}
	const char *emit = json_string_value(json_object_get(args, "emit_module"));
	if (strcmp(t->name, "slice") == 0 && emit)
		return may_write(s, emit, why, n);
	return true;
}

/* Runs a tool: the arguments are checked against its published schema
 * first, so every malformed call gets the same kind of message. */
static json_t *call_tool(mcp_server *s, const mcp_tool *t, json_t *args)
{
	json_t *schema = mcp_tool_schema(t);
	char why[1024];
	bool ok = mcp_schema_check(schema, args, "", why, sizeof why);
	json_decref(schema);
	if (!ok)
		return tool_error("%s: invalid arguments: %s", t->name, why);
	if ((t->flags & MCP_NEEDS_CATALOG) && !s->session)
		return tool_error("%s: no catalog is loaded: call load_catalog with a catalog made by "
		                  "`facet build PROG.bc -o PROG.facet`", t->name);
	if (!paths_allowed(s, t, args, why, sizeof why))
		return tool_error("%s: %s", t->name, why);
	switch (t->kind) {
	case MCP_TOOL_LOAD_CATALOG:
		return tool_load_catalog(s, args);
	case MCP_TOOL_UNLOAD_CATALOG:
		return tool_unload_catalog(s, args);
	case MCP_TOOL_VERB:
		break;
	}
	return tool_verb(s, t->name, args);
}

/* ---- methods ---- */

static json_t *initialize(mcp_server *s, const json_t *id, const json_t *params)
{
	const json_t *v = json_object_get(params, "protocolVersion");
	if (!json_is_string(v))
		return mcp_rpc_error(id, MCP_INVALID_PARAMS, "initialize: params.protocolVersion must be a string",
		                     NULL);
	/* Answer the client's revision when we speak it, else our newest: the
	 * client then decides whether to go on (MCP lifecycle, version
	 * negotiation). */
	const char *chosen = mcp_protocol_versions[0];
	for (const char *const *p = mcp_protocol_versions; *p; p++)
		if (strcmp(*p, json_string_value(v)) == 0)
			chosen = *p;
	snprintf(s->version, sizeof s->version, "%s", chosen);
	s->phase = PHASE_OPEN;

	const json_t *info = json_object_get(params, "clientInfo");
	logf_(s, "initialize from %s %s, protocol %s (asked %s)",
	      json_string_value(json_object_get(info, "name")) ? json_string_value(json_object_get(info, "name")) : "?",
	      json_string_value(json_object_get(info, "version")) ? json_string_value(json_object_get(info, "version")) : "",
	      chosen, json_string_value(v));

	json_t *r = json_object();
	json_object_set_new(r, "protocolVersion", json_string(chosen));
	json_object_set_new(r, "capabilities", json_pack("{s:{s:b}}", "tools", "listChanged", 0));
	json_object_set_new(r, "serverInfo",
	                    json_pack("{s:s,s:s,s:s}", "name", "facet", "title", "facet call-graph queries",
	                              "version", SERVER_VERSION));
	json_object_set_new(r, "instructions", json_string(instructions));
	return mcp_rpc_result(id, r);
}

static json_t *tools_list(const json_t *id, const json_t *params)
{
	/* One page holds every tool, so no cursor was ever handed out. */
	if (json_object_get(params, "cursor"))
		return mcp_rpc_error(id, MCP_INVALID_PARAMS, "tools/list: unknown cursor (all tools fit on one page)", NULL);
	json_t *tools = json_array();
	for (size_t i = 0; i < mcp_tool_count(); i++)
		json_array_append_new(tools, mcp_tool_describe(mcp_tool_at(i)));
	return mcp_rpc_result(id, json_pack("{s:o}", "tools", tools));
}

static json_t *tools_call(mcp_server *s, const json_t *id, const json_t *params)
{
	const json_t *name = json_object_get(params, "name");
	if (!json_is_string(name))
		return mcp_rpc_error(id, MCP_INVALID_PARAMS, "tools/call: params.name must be a string", NULL);
	const mcp_tool *t = mcp_tool_find(json_string_value(name));
	if (!t) {
		char msg[256];
		snprintf(msg, sizeof msg, "Unknown tool: %.200s", json_string_value(name));
		return mcp_rpc_error(id, MCP_INVALID_PARAMS, msg, NULL);
	}
	json_t *args = json_object_get(params, "arguments");
	if (args && !json_is_object(args))
		return mcp_rpc_error(id, MCP_INVALID_PARAMS, "tools/call: params.arguments must be an object", NULL);
	json_t *owned = args ? json_incref(args) : json_object();

	double t0 = clock_seconds();
	json_t *r = call_tool(s, t, owned);
	double t1 = clock_seconds();
	json_decref(owned);
	if (s->o.verbose || json_is_true(json_object_get(r, "isError")))
		logf_(s, "tools/call %s: %s (%.1f ms)", t->name, json_is_true(json_object_get(r, "isError")) ? "tool error" : "ok",
		      (t1 - t0) * 1e3);
	return mcp_rpc_result(id, r);
}

static bool valid_id(const json_t *id)
{
	return json_is_string(id) || json_is_integer(id);
}

/* One message object (not a batch). */
static json_t *handle_one(mcp_server *s, const json_t *m)
{
	if (!json_is_object(m))
		return mcp_rpc_error(NULL, MCP_INVALID_REQUEST, "Invalid Request: a message must be a JSON object", NULL);
	const json_t *id = json_object_get(m, "id");
	const json_t *method = json_object_get(m, "method");
	const json_t *params = json_object_get(m, "params");
	if (id && !valid_id(id))
		return mcp_rpc_error(NULL, MCP_INVALID_REQUEST, "Invalid Request: id must be a string or an integer", NULL);
	const json_t *version = json_object_get(m, "jsonrpc");
	if (!json_is_string(version) || strcmp(json_string_value(version), "2.0") != 0)
		return mcp_rpc_error(id, MCP_INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"", NULL);
	if (!method) {
		if (id && (json_object_get(m, "result") || json_object_get(m, "error"))) {
			/* A response, but the server sends no requests: nothing to match. */
			logf_(s, "ignored a response to a request never sent");
			return NULL;
		}
		return mcp_rpc_error(id, MCP_INVALID_REQUEST, "Invalid Request: no method", NULL);
	}
	if (!json_is_string(method))
		return mcp_rpc_error(id, MCP_INVALID_REQUEST, "Invalid Request: method must be a string", NULL);
	const char *name = json_string_value(method);

	if (!id) {   /* a notification: never answered, even when wrong */
		if (s->o.verbose)
			logf_(s, "notification %s", name);
		return NULL;
	}
	if (params && !json_is_object(params))
		return mcp_rpc_error(id, MCP_INVALID_PARAMS, "Invalid params: params must be an object", NULL);
	if (s->o.verbose)
		logf_(s, "request %s", name);

	if (strcmp(name, "ping") == 0)
		return mcp_rpc_result(id, json_object());
	if (strcmp(name, "initialize") == 0) {
		if (s->phase != PHASE_NEW)
			return mcp_rpc_error(id, MCP_INVALID_REQUEST, "Invalid Request: already initialized", NULL);
		return initialize(s, id, params);
	}
	if (s->phase == PHASE_NEW)
		return mcp_rpc_error(id, MCP_INVALID_REQUEST,
		                     "Invalid Request: server not initialized (send initialize first)", NULL);
	if (strcmp(name, "tools/list") == 0)
		return tools_list(id, params);
	if (strcmp(name, "tools/call") == 0)
		return tools_call(s, id, params);
	char msg[256];
	snprintf(msg, sizeof msg, "Method not found: %.200s", name);
	return mcp_rpc_error(id, MCP_METHOD_NOT_FOUND, msg, NULL);
}

json_t *mcp_server_handle(mcp_server *s, const json_t *msg)
{
	if (!json_is_array(msg))
		return handle_one(s, msg);
	/* Batches exist only in revision 2025-03-26, and never for initialize. */
	if (s->phase == PHASE_NEW || strcmp(s->version, BATCH_VERSION) != 0)
		return mcp_rpc_error(NULL, MCP_INVALID_REQUEST,
		                     "Invalid Request: JSON-RPC batches are not part of the negotiated protocol", NULL);
	if (json_array_size(msg) == 0)
		return mcp_rpc_error(NULL, MCP_INVALID_REQUEST, "Invalid Request: empty batch", NULL);
	json_t *replies = json_array();
	size_t i;
	const json_t *m;
	json_array_foreach(msg, i, m) {
		const char *method = json_string_value(json_object_get(m, "method"));
		json_t *r = method && strcmp(method, "initialize") == 0
		            ? mcp_rpc_error(json_object_get(m, "id"), MCP_INVALID_REQUEST,
		                            "Invalid Request: initialize must not be part of a batch", NULL)
		            : handle_one(s, m);
		if (r)
			json_array_append_new(replies, r);
	}
	if (json_array_size(replies) == 0) {
		json_decref(replies);
		return NULL;
	}
	return replies;
}

json_t *mcp_server_handle_line(mcp_server *s, const char *line, size_t n)
{
	json_error_t jerr;
	/* DECODE_ANY: a bare scalar is valid JSON but an Invalid Request, not a
	 * parse error (JSON-RPC 2.0, section 5.1 examples). */
	/* Duplicate keys are refused, as the overlay reader does: which of two
	 * "path"s a tool would act on must never be a guess. */
	json_t *msg = json_loadb(line, n, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	if (!msg) {
		char text[400];
		snprintf(text, sizeof text, "Parse error: %s (column %d)", jerr.text, jerr.column);
		logf_(s, "%s", text);
		return mcp_rpc_error(NULL, MCP_PARSE_ERROR, text, NULL);
	}
	json_t *r = mcp_server_handle(s, msg);
	json_decref(msg);
	return r;
}

static bool blank(const char *line, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return false;
	return true;
}

int mcp_serve(mcp_server *s, int in_fd, FILE *out)
{
	mcp_reader rd;
	mcp_reader_init(&rd, in_fd, s->o.max_message);
	int status = 0;
	for (;;) {
		char *line;
		size_t n;
		mcp_read_status st = mcp_read_line(&rd, &line, &n);
		json_t *reply = NULL;
		if (st == MCP_READ_EOF)
			break;
		if (st == MCP_READ_ERROR) {
			logf_(s, "reading stdin: %s", strerror(errno));
			status = 1;
			break;
		}
		if (st == MCP_READ_TOO_LONG) {
			char msg[128];
			snprintf(msg, sizeof msg, "Invalid Request: message longer than %zu bytes, dropped", s->o.max_message);
			logf_(s, "%s", msg);
			reply = mcp_rpc_error(NULL, MCP_INVALID_REQUEST, msg, NULL);
		} else if (!blank(line, n)) {
			reply = mcp_server_handle_line(s, line, n);
		}
		if (reply) {
			bool ok = mcp_rpc_write(out, reply);
			json_decref(reply);
			if (!ok) {
				logf_(s, "writing stdout failed: the client went away");
				status = 1;
				break;
			}
		}
	}
	mcp_reader_free(&rd);
	return status;
}
