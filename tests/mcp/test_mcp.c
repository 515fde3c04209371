/* test_mcp.c — unit tests of src/mcp: line framing, the schema checker, the
 * tool table, and the server's protocol handling against a fake backend (so
 * the lifecycle and error paths are tested without a catalog; the tests that
 * drive `facet mcp` on real catalogs are mcp_protocol.py and mcp_sdk.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcp/rpc.h"
#include "mcp/schema.h"
#include "mcp/server.h"
#include "mcp/tools.h"
#include "query/query.h"

/* ---- the fake backend: records calls, keeps a pending flag ---- */

typedef struct fake {
	char path[256];
	bool pending;
	int calls;
	char last_verb[64];
} fake;

static int fakes_open;

static void *fake_open(const char *path, facet_error *err)
{
	if (strstr(path, "missing")) {
		error_set(err, "%s: no such catalog", path);
		return NULL;
	}
	fake *f = calloc(1, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	fakes_open++;
	return f;
}

static void fake_close(void *s)
{
	fakes_open--;
	free(s);
}

static json_t *fake_call(void *s, const char *verb, json_t *args, facet_error *err)
{
	fake *f = s;
	f->calls++;
	snprintf(f->last_verb, sizeof f->last_verb, "%s", verb);
	const char *path = json_string_value(json_object_get(args, "path"));
	if (strcmp(verb, "load_overlay") == 0 && path && strstr(path, "stale")) {
		error_set(err, "%s: recorded against fingerprint aaa, catalog is bbb", path);
		return NULL;
	}
	if (strcmp(verb, "defs") == 0 && strcmp(json_string_value(json_object_get(args, "name")), "nosuch") == 0) {
		error_set(err, "no function named 'nosuch'");
		return NULL;
	}
	if (strcmp(verb, "record_edges") == 0)
		f->pending = true;
	if (strcmp(verb, "save_overlay") == 0 || strcmp(verb, "load_overlay") == 0)
		f->pending = false;
	if (strcmp(verb, "externals") == 0)   /* a non-object answer gets wrapped */
		return json_pack("[s]", "malloc");
	return json_pack("{s:s,s:s,s:O}", "verb", verb, "catalog", f->path, "args", args ? args : json_null());
}

static bool fake_pending(const void *s)
{
	return ((const fake *)s)->pending;
}

static const mcp_backend fake_backend = {fake_open, fake_close, fake_call, fake_pending};

/* ---- helpers ---- */

static json_t *send(mcp_server *s, const char *line)
{
	return mcp_server_handle_line(s, line, strlen(line));
}

static void expect_error(json_t *r, int code)
{
	assert_non_null(r);
	json_t *e = json_object_get(r, "error");
	assert_non_null(e);
	assert_int_equal(json_integer_value(json_object_get(e, "code")), code);
	json_decref(r);
}

/* Sends a tools/call and returns its result object (new reference). */
static json_t *call(mcp_server *s, const char *tool, const char *args_json)
{
	char line[4096];
	snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}",
	         tool, args_json);
	json_t *r = send(s, line);
	assert_non_null(r);
	json_t *res = json_object_get(r, "result");
	if (!res) {
		char *t = json_dumps(r, 0);
		fail_msg("tools/call %s answered without result: %s", tool, t);
	}
	json_incref(res);
	json_decref(r);
	return res;
}

static bool is_error(const json_t *res)
{
	return json_is_true(json_object_get(res, "isError"));
}

static const char *text_of(const json_t *res)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(res, "content"), 0), "text"));
}

static mcp_server *ready_server(const char *version)
{
	mcp_server *s = mcp_server_new(&fake_backend, NULL);
	char line[512];
	snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"%s\","
	         "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}", version);
	json_t *r = send(s, line);
	assert_non_null(json_object_get(r, "result"));
	json_decref(r);
	assert_null(send(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
	return s;
}

/* ---- reader ---- */

static int pipe_with(const char *data, size_t n)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], data, n), (ssize_t)n);
	close(fds[1]);
	return fds[0];
}

static void test_reader_lines(void **state)
{
	(void)state;
	const char data[] = "{\"a\":1}\r\n\nshort\n0123456789ABCDEF\nlast";
	int fd = pipe_with(data, sizeof data - 1);
	mcp_reader r;
	mcp_reader_init(&r, fd, 10);
	char *line;
	size_t n;
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_LINE);
	assert_string_equal(line, "{\"a\":1}");   /* '\r' removed */
	assert_int_equal(n, 7);
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_LINE);
	assert_int_equal(n, 0);
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_LINE);
	assert_string_equal(line, "short");
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_TOO_LONG);   /* 16 bytes > 10 */
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_LINE);
	assert_string_equal(line, "last");   /* no newline before EOF */
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_EOF);
	mcp_reader_free(&r);
	close(fd);
}

static void test_reader_huge_line_is_dropped_while_streaming(void **state)
{
	(void)state;
	/* 3 MiB line through a pipe, cap 1 KiB: the reader never holds it. */
	size_t big = 3u << 20;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		char *buf = malloc(big);
		memset(buf, 'x', big);
		buf[big - 1] = '\n';
		size_t off = 0;
		while (off < big) {
			ssize_t w = write(fds[1], buf + off, big - off);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		if (write(fds[1], "{}\n", 3) != 3)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	mcp_reader r;
	mcp_reader_init(&r, fds[0], 1024);
	char *line;
	size_t n;
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_TOO_LONG);
	assert_true(r.size < 1024 + 2 * 65536 + 2);
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_LINE);
	assert_string_equal(line, "{}");
	assert_int_equal(mcp_read_line(&r, &line, &n), MCP_READ_EOF);
	mcp_reader_free(&r);
	close(fds[0]);
}

static void test_json_text_replaces_bad_utf8(void **state)
{
	(void)state;
	json_t *j = mcp_json_text("caf\xc3\xa9 \xff\xfe ok");
	assert_non_null(j);
	assert_string_equal(json_string_value(j), "caf\xc3\xa9 ?? ok");
	json_decref(j);
}

/* ---- schema ---- */

static void test_schema(void **state)
{
	(void)state;
	json_t *schema = json_loads("{\"type\":\"object\",\"required\":[\"a\"],\"additionalProperties\":false,"
	                            "\"properties\":{\"a\":{\"type\":\"integer\",\"minimum\":1},"
	                            "\"b\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"x\",\"y\"]}}}}",
	                            0, NULL);
	assert_non_null(schema);
	char why[256];
	json_t *v = json_loads("{\"a\":2,\"b\":[\"x\",\"y\"]}", 0, NULL);
	assert_true(mcp_schema_check(schema, v, "", why, sizeof why));
	json_decref(v);

	struct { const char *value, *why; } bad[] = {
		{"{}", "arguments: missing required 'a'"},
		{"{\"a\":0}", "a: must be at least 1"},
		{"{\"a\":\"2\"}", "a: must be of type integer, not a string"},
		{"{\"a\":1.0}", "a: must be of type integer, not a number"},
		{"{\"a\":1,\"b\":[\"x\",\"z\"]}", "b[1]: must be one of x, y"},
		{"{\"a\":1,\"c\":true}", "arguments: unknown argument 'c' (accepted: a, b)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		v = json_loads(bad[i].value, 0, NULL);
		assert_false(mcp_schema_check(schema, v, "", why, sizeof why));
		assert_string_equal(why, bad[i].why);
		json_decref(v);
	}
	json_decref(schema);
}

/* anyOf as the function arguments use it: a name or {module_id, symbol}.
 * A value of one branch's type gets that branch's message. */
static void test_schema_any_of(void **state)
{
	(void)state;
	json_t *schema = json_loads("{\"type\":\"object\",\"properties\":{\"f\":{\"anyOf\":["
	                            "{\"type\":\"string\",\"minLength\":1},"
	                            "{\"type\":\"object\",\"required\":[\"module_id\",\"symbol\"],"
	                            "\"additionalProperties\":false,\"properties\":{\"module_id\":{\"type\":\"string\"},"
	                            "\"symbol\":{\"type\":\"string\",\"minLength\":1}}}]}}}",
	                            0, NULL);
	assert_non_null(schema);
	char why[256];
	const char *good[] = {"{\"f\":\"report\"}", "{\"f\":{\"module_id\":\"a.c\",\"symbol\":\"report\"}}",
	                      "{\"f\":{\"module_id\":\"\",\"symbol\":\"report.1\"}}"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		json_t *v = json_loads(good[i], 0, NULL);
		if (!mcp_schema_check(schema, v, "", why, sizeof why))
			fail_msg("%s refused: %s", good[i], why);
		json_decref(v);
	}
	struct { const char *value, *why; } bad[] = {
		{"{\"f\":\"\"}", "f: must not be empty"},
		{"{\"f\":3}", "f: must be of type string or object, not an integer"},
		{"{\"f\":null}", "f: must be of type string or object, not null"},
		{"{\"f\":{\"symbol\":\"report\"}}", "f: missing required 'module_id'"},
		{"{\"f\":{\"module_id\":\"a.c\"}}", "f: missing required 'symbol'"},
		{"{\"f\":{\"module_id\":1,\"symbol\":\"report\"}}", "f.module_id: must be of type string, not an integer"},
		{"{\"f\":{\"module_id\":\"a.c\",\"symbol\":\"\"}}", "f.symbol: must not be empty"},
		{"{\"f\":{\"module_id\":\"a.c\",\"symbol\":\"r\",\"file\":\"a.c\"}}",
		 "f: unknown argument 'file' (accepted: module_id, symbol)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		json_t *v = json_loads(bad[i].value, 0, NULL);
		assert_false(mcp_schema_check(schema, v, "", why, sizeof why));
		assert_string_equal(why, bad[i].why);
		json_decref(v);
	}
	json_decref(schema);
}

static bool str_is(const json_t *v, const char *text)
{
	return json_is_string(v) && strcmp(json_string_value(v), text) == 0;
}

/* A function argument's published schema: a non-empty name or
 * {module_id, symbol} with both required and nothing else. */
static bool is_function_schema(const json_t *p)
{
	const json_t *any = json_object_get(p, "anyOf");
	if (json_array_size(any) != 2)
		return false;
	const json_t *str = json_array_get(any, 0), *obj = json_array_get(any, 1);
	const json_t *req = json_object_get(obj, "required");
	return str_is(json_object_get(str, "type"), "string") && json_integer_value(json_object_get(str, "minLength")) == 1 &&
	       str_is(json_object_get(obj, "type"), "object") && json_array_size(req) == 2 &&
	       str_is(json_array_get(req, 0), "module_id") && str_is(json_array_get(req, 1), "symbol") &&
	       json_is_false(json_object_get(obj, "additionalProperties"));
}

/* ---- tool table ---- */

static void test_tool_table(void **state)
{
	(void)state;
	assert_true(mcp_tool_count() >= 19);
	for (size_t i = 0; i < mcp_tool_count(); i++) {
		const mcp_tool *t = mcp_tool_at(i);
		for (const char *c = t->name; *c; c++)   /* MCP tool-name alphabet */
			assert_true((*c >= 'a' && *c <= 'z') || *c == '_');
		assert_ptr_equal(mcp_tool_find(t->name), t);
		json_t *d = mcp_tool_describe(t);   /* aborts on a malformed schema */
		json_t *schema = json_object_get(d, "inputSchema");
		assert_string_equal(json_string_value(json_object_get(schema, "type")), "object");
		assert_true(json_object_size(json_object_get(schema, "properties")) == 0 ||
		            json_is_object(json_object_get(schema, "properties")));
		/* every required name is a property */
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(schema, "required"), k, r)
			assert_non_null(json_object_get(json_object_get(schema, "properties"), json_string_value(r)));
		json_decref(d);
	}
	const char *expected[] = {"load_catalog", "unload_catalog", "inventory", "defs", "at", "callers", "callees",
	                          "uses", "reach", "closure", "slice", "externals", "indirect_targets",
	                          "resolution_candidates", "explain", "record_edges", "list_overlay",
	                          "save_overlay", "load_overlay"};
	for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
		assert_non_null(mcp_tool_find(expected[i]));
	assert_null(mcp_tool_find("drop_tables"));

	/* Every argument naming a function takes {module_id, symbol} too (the
	 * query layer's q_function does), except defs', which lists all the
	 * definitions of a name and takes a string only. */
	for (size_t i = 0; i < mcp_tool_count(); i++) {
		json_t *schema = mcp_tool_schema(mcp_tool_at(i));
		const char *key;
		json_t *p;
		json_object_foreach(json_object_get(schema, "properties"), key, p) {
			bool fn_arg = strcmp(key, "from") == 0 || strcmp(key, "to") == 0 ||
			              (strcmp(key, "name") == 0 && strcmp(mcp_tool_at(i)->name, "defs") != 0);
			if (fn_arg && !is_function_schema(p))
				fail_msg("%s.%s does not accept {module_id, symbol}", mcp_tool_at(i)->name, key);
		}
		json_decref(schema);
	}
	json_t *rec = mcp_tool_schema(mcp_tool_find("record_edges"));
	json_t *item = json_object_get(json_object_get(json_object_get(rec, "properties"), "records"), "items");
	assert_true(is_function_schema(json_object_get(json_object_get(item, "properties"), "to")));
	json_t *edge = json_object_get(json_object_get(item, "properties"), "edge");
	assert_true(is_function_schema(json_object_get(json_object_get(edge, "properties"), "to")));
	json_decref(rec);

	/* The tools are the registry's (query.h): after the session's two, every
	 * verb in its order, a tool of its name whose arguments are exactly the
	 * verb's params, required as they say; nothing else. */
	size_t n_verbs = 0;
	while (query_verb_table[n_verbs].name)
		n_verbs++;
	assert_int_equal(mcp_tool_count(), 2 + n_verbs);
	assert_string_equal(mcp_tool_at(0)->name, "load_catalog");
	assert_string_equal(mcp_tool_at(1)->name, "unload_catalog");
	assert_null(mcp_tool_at(mcp_tool_count()));
	size_t i = 2;
	for (const query_verb_info *v = query_verb_table; v->name; v++, i++) {
		const mcp_tool *t = mcp_tool_at(i);
		assert_non_null(t);
		if (strcmp(t->name, v->name) != 0 || t->kind != MCP_TOOL_VERB)
			fail_msg("tool %zu is '%s', the registry's verb there '%s'", i, t->name, v->name);
		assert_string_equal(t->title, v->title);
		assert_string_equal(t->description, v->description);
		assert_int_equal(!(t->flags & MCP_READ_ONLY), v->writes);
		json_t *schema = mcp_tool_schema(t), *props = json_object_get(schema, "properties");
		size_t n = 0, n_req = 0;
		for (const query_arg *const *a = v->params; *a; a++, n++) {
			json_t *p = json_object_get(props, (*a)->name);
			if (!p)
				fail_msg("%s: its argument '%s' is not in tools/list", v->name, (*a)->name);
			assert_string_equal(json_string_value(json_object_get(p, "description")), (*a)->description);
			n_req += (*a)->required;
		}
		assert_int_equal(json_object_size(props), n);   /* nothing else */
		assert_int_equal(json_array_size(json_object_get(schema, "required")), n_req);
		/* the command line's positionals are arguments the tool takes too
		 * ("location" is FILE:LINE: the tool's file and line) */
		for (unsigned k = 0; k < query_verb_n_args(v); k++) {
			bool loc = strcmp(v->args[k], "location") == 0;
			if (!json_object_get(props, loc ? "file" : v->args[k]) || (loc && !json_object_get(props, "line")))
				fail_msg("%s: the command line's '%s' is no argument of the tool", v->name, v->args[k]);
		}
		json_decref(schema);
	}
}

/* ---- lifecycle ---- */

static void test_before_initialize(void **state)
{
	(void)state;
	mcp_server *s = mcp_server_new(&fake_backend, NULL);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"inventory\"}}"),
	             MCP_INVALID_REQUEST);
	/* ping is always allowed; notifications are never answered */
	json_t *r = send(s, "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
	assert_true(json_is_object(json_object_get(r, "result")));
	assert_string_equal(json_string_value(json_object_get(r, "id")), "p");
	json_decref(r);
	assert_null(send(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}"), MCP_INVALID_REQUEST);
	mcp_server_free(s);
}

static void test_version_negotiation(void **state)
{
	(void)state;
	struct { const char *asked, *answered; } cases[] = {
		{"2025-11-25", "2025-11-25"}, {"2025-06-18", "2025-06-18"}, {"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"}, {"1999-01-01", "2025-11-25"}, {"2030-01-01", "2025-11-25"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		mcp_server *s = mcp_server_new(&fake_backend, NULL);
		char line[256];
		snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"%s\"}}",
		         cases[i].asked);
		json_t *r = send(s, line);
		json_t *res = json_object_get(r, "result");
		assert_string_equal(json_string_value(json_object_get(res, "protocolVersion")), cases[i].answered);
		assert_non_null(json_object_get(json_object_get(res, "capabilities"), "tools"));
		assert_string_equal(json_string_value(json_object_get(json_object_get(res, "serverInfo"), "name")), "facet");
		json_decref(r);
		/* a second initialize is refused */
		expect_error(send(s, line), MCP_INVALID_REQUEST);
		mcp_server_free(s);
	}
	mcp_server *s = mcp_server_new(&fake_backend, NULL);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"), MCP_INVALID_PARAMS);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":20250618}}"),
	             MCP_INVALID_PARAMS);
	mcp_server_free(s);
}

static void test_malformed_messages(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-11-25");
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,"), MCP_PARSE_ERROR);
	expect_error(send(s, "not json"), MCP_PARSE_ERROR);
	expect_error(send(s, "\"\xff\""), MCP_PARSE_ERROR);      /* not UTF-8 */
	expect_error(send(s, "42"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"id\":1,\"method\":\"ping\"}"), MCP_INVALID_REQUEST);               /* no jsonrpc */
	expect_error(send(s, "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1}"), MCP_INVALID_REQUEST);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[1]}"), MCP_INVALID_PARAMS);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}"), MCP_METHOD_NOT_FOUND);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}"),
	             MCP_INVALID_PARAMS);
	/* batches are not part of 2025-11-25 */
	expect_error(send(s, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"), MCP_INVALID_REQUEST);
	/* unknown notifications and stray responses get no answer */
	assert_null(send(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}"));
	assert_null(send(s, "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"));
	/* tools/call protocol errors: unknown tool, no name, arguments not an object */
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"nosuch\"}}"),
	             MCP_INVALID_PARAMS);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}"), MCP_INVALID_PARAMS);
	expect_error(send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"defs\",\"arguments\":[]}}"),
	             MCP_INVALID_PARAMS);
	mcp_server_free(s);
}

static void test_batches_in_2025_03_26(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-03-26");
	json_t *r = send(s, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
	                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nosuch\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\"}]");
	assert_true(json_is_array(r));
	assert_int_equal(json_array_size(r), 3);
	assert_non_null(json_object_get(json_array_get(r, 0), "result"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(r, 1), "error"), "code")),
	                 MCP_METHOD_NOT_FOUND);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(r, 2), "error"), "code")),
	                 MCP_INVALID_REQUEST);
	json_decref(r);
	expect_error(send(s, "[]"), MCP_INVALID_REQUEST);
	assert_null(send(s, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}]"));
	mcp_server_free(s);
}

/* ---- tools ---- */

static void test_tools_list(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-11-25");
	json_t *r = send(s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
	json_t *tools = json_object_get(json_object_get(r, "result"), "tools");
	assert_int_equal(json_array_size(tools), mcp_tool_count());
	assert_null(json_object_get(json_object_get(r, "result"), "nextCursor"));
	json_decref(r);
	mcp_server_free(s);
}

static void test_tools_without_catalog(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-11-25");
	for (size_t i = 0; i < mcp_tool_count(); i++) {
		const mcp_tool *t = mcp_tool_at(i);
		if (!(t->flags & MCP_NEEDS_CATALOG))
			continue;
		/* arguments that pass the schema, so the missing catalog is the error */
		const char *args = strcmp(t->name, "record_edges") == 0 ? "{\"records\":[{\"op\":\"add\"}]}"
		                 : strcmp(t->name, "explain") == 0 ? "{\"site\":1}"
		                 : strcmp(t->name, "at") == 0 || strcmp(t->name, "indirect_targets") == 0 ? "{\"file\":\"a.c\",\"line\":3}"
		                 : strcmp(t->name, "reach") == 0 || strcmp(t->name, "slice") == 0 ||
		                   strcmp(t->name, "dominators") == 0 ? "{\"from\":\"main\",\"to\":\"f\"}"
		                 : strcmp(t->name, "defs") == 0 || strcmp(t->name, "callers") == 0 || strcmp(t->name, "callees") == 0 ||
		                   strcmp(t->name, "uses") == 0 || strcmp(t->name, "closure") == 0 ? "{\"name\":\"main\"}"
		                 : "{}";
		json_t *res = call(s, t->name, args);
		assert_true(is_error(res));
		if (!strstr(text_of(res), "no catalog is loaded"))
			fail_msg("%s: %s", t->name, text_of(res));
		json_decref(res);
	}
	mcp_server_free(s);
}

static void test_invalid_arguments_are_tool_errors(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-11-25");
	json_t *res = call(s, "load_catalog", "{\"path\":\"prog.facet\"}");
	assert_false(is_error(res));
	json_decref(res);
	struct { const char *tool, *args, *why; } bad[] = {
		{"defs", "{}", "defs: invalid arguments: arguments: missing required 'name'"},
		{"defs", "{\"name\":3}", "defs: invalid arguments: name: must be of type string, not an integer"},
		{"defs", "{\"name\":{\"module_id\":\"a.c\",\"symbol\":\"f\"}}",
		 "defs: invalid arguments: name: must be of type string, not an object"},
		{"callers", "{\"name\":3}", "callers: invalid arguments: name: must be of type string or object, not an integer"},
		{"callers", "{\"name\":{\"symbol\":\"f\"}}", "callers: invalid arguments: name: missing required 'module_id'"},
		{"reach", "{\"from\":\"main\",\"to\":{\"module_id\":\"a.c\",\"symbol\":1}}",
		 "reach: invalid arguments: to.symbol: must be of type string, not an integer"},
		{"slice", "{\"from\":{\"module_id\":\"a.c\",\"symbol\":\"f\",\"id\":4},\"to\":\"g\"}",
		 "slice: invalid arguments: from: unknown argument 'id' (accepted: module_id, symbol)"},
		{"record_edges", "{\"records\":[{\"op\":\"add\",\"to\":{\"module_id\":7,\"symbol\":\"f\"}}]}",
		 "record_edges: invalid arguments: records[0].to.module_id: must be of type string, not an integer"},
		{"at", "{\"file\":\"a.c\",\"line\":0}", "at: invalid arguments: line: must be at least 1"},
		{"reach", "{\"from\":\"a\",\"to\":\"b\",\"graph\":\"nosuch\"}",
		 "reach: invalid arguments: graph: must be one of direct, andersen, r0, rulesonly, rplus, rpm, source, cha, "
		 "rta, vta, vslot"},
		{"closure", "{\"name\":\"a\",\"direction\":\"up\"}", "closure: invalid arguments: direction: must be one of in, out"},
		{"callers", "{\"name\":\"a\",\"include_overlay\":\"yes\"}",
		 "callers: invalid arguments: include_overlay: must be of type boolean, not a string"},
		{"reach", "{\"form\":\"a\",\"to\":\"b\"}", "reach: invalid arguments: arguments: missing required 'from'"},
		{"inventory", "{\"x\":1}", "inventory: invalid arguments: arguments: unknown argument 'x'"},
		{"record_edges", "{\"records\":[]}", "record_edges: invalid arguments: records: must hold at least 1 item(s)"},
		{"record_edges", "{\"records\":[{\"op\":\"add\",\"confidence\":\"sure\"}]}",
		 "record_edges: invalid arguments: records[0].confidence: must be one of high, medium, low"},
		{"record_edges", "{\"records\":[{\"op\":\"add\",\"via_field\":{\"record\":\"ops\"}}]}",
		 "record_edges: invalid arguments: records[0].via_field: missing required 'offset'"},
		{"explain", "{\"site\":-1}", "explain: invalid arguments: site: must be at least 0"},
		{"load_overlay", "{\"path\":\"\"}", "load_overlay: invalid arguments: path: must not be empty"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		res = call(s, bad[i].tool, bad[i].args);
		assert_true(is_error(res));
		assert_string_equal(text_of(res), bad[i].why);
		assert_null(json_object_get(res, "structuredContent"));
		json_decref(res);
	}
	/* a query failure is a tool error carrying the query layer's message */
	res = call(s, "defs", "{\"name\":\"nosuch\"}");
	assert_true(is_error(res));
	assert_string_equal(text_of(res), "no function named 'nosuch'");
	json_decref(res);
	mcp_server_free(s);
}

static void test_verbs_pass_through(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-11-25");
	json_t *res = call(s, "load_catalog", "{\"path\":\"prog.facet\"}");
	json_t *sc = json_object_get(res, "structuredContent");
	assert_string_equal(json_string_value(json_object_get(sc, "catalog")), "prog.facet");
	assert_string_equal(json_string_value(json_object_get(json_object_get(sc, "inventory"), "verb")), "inventory");
	json_decref(res);

	res = call(s, "reach", "{\"from\":\"main\",\"to\":\"handler\",\"include_overlay\":true,\"min_confidence\":\"medium\"}");
	assert_false(is_error(res));
	sc = json_object_get(res, "structuredContent");
	assert_string_equal(json_string_value(json_object_get(sc, "verb")), "reach");
	json_t *args = json_object_get(sc, "args");
	assert_string_equal(json_string_value(json_object_get(args, "from")), "main");
	assert_true(json_is_true(json_object_get(args, "include_overlay")));
	json_decref(res);

	/* {module_id, symbol} reaches the backend as sent */
	res = call(s, "reach", "{\"from\":{\"module_id\":\"src/a.c\",\"symbol\":\"report\"},\"to\":\"main\"}");
	assert_false(is_error(res));
	sc = json_object_get(res, "structuredContent");
	json_t *sent = json_pack("{s:s,s:s}", "module_id", "src/a.c", "symbol", "report");
	assert_true(json_equal(json_object_get(json_object_get(sc, "args"), "from"), sent));
	json_decref(sent);
	/* the text block is the same JSON */
	json_t *again = json_loads(text_of(res), 0, NULL);
	assert_true(json_equal(again, sc));
	json_decref(again);
	json_decref(res);

	/* a non-object answer is wrapped so structuredContent stays an object */
	res = call(s, "externals", "{}");
	sc = json_object_get(res, "structuredContent");
	assert_string_equal(json_string_value(json_array_get(json_object_get(sc, "result"), 0)), "malloc");
	json_decref(res);
	mcp_server_free(s);
	assert_int_equal(fakes_open, 0);
}

static void test_old_revision_gets_text_only(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2024-11-05");
	json_t *res = call(s, "load_catalog", "{\"path\":\"prog.facet\"}");
	assert_false(is_error(res));
	assert_null(json_object_get(res, "structuredContent"));
	json_t *parsed = json_loads(text_of(res), 0, NULL);
	assert_string_equal(json_string_value(json_object_get(parsed, "catalog")), "prog.facet");
	json_decref(parsed);
	json_decref(res);
	mcp_server_free(s);
}

static void test_pending_records_guard(void **state)
{
	(void)state;
	mcp_server *s = ready_server("2025-11-25");
	json_t *res = call(s, "load_catalog", "{\"path\":\"one.facet\"}");
	json_decref(res);
	res = call(s, "record_edges", "{\"records\":[{\"op\":\"add\",\"via_field\":{\"record\":\"ops\",\"offset\":8},"
	                              "\"to\":\"h\",\"confidence\":\"high\",\"provenance\":[\"a.c:3: o->cb = h\"]}]}");
	assert_false(is_error(res));
	json_decref(res);

	/* both refuse, naming the way out (load_overlay's guard is the query
	 * layer's, tested through `facet mcp` in mcp_tools.py) */
	const char *refused[][2] = {{"unload_catalog", "{}"}, {"load_catalog", "{\"path\":\"two.facet\"}"}};
	for (size_t i = 0; i < 2; i++) {
		res = call(s, refused[i][0], refused[i][1]);
		assert_true(is_error(res));
		assert_non_null(strstr(text_of(res), "unsaved records"));
		assert_non_null(strstr(text_of(res), "discard_pending"));
		json_decref(res);
	}
	/* a failed load changes nothing: the old catalog stays, records too */
	res = call(s, "load_catalog", "{\"path\":\"missing.facet\",\"discard_pending\":true}");
	assert_true(is_error(res));
	assert_string_equal(text_of(res), "missing.facet: no such catalog");
	json_decref(res);
	res = call(s, "load_catalog", "{\"path\":\"two.facet\",\"overlay\":\"stale.overlay\",\"discard_pending\":true}");
	assert_true(is_error(res));
	assert_non_null(strstr(text_of(res), "fingerprint"));
	json_decref(res);
	assert_int_equal(fakes_open, 1);
	res = call(s, "inventory", "{}");
	assert_string_equal(json_string_value(json_object_get(json_object_get(res, "structuredContent"), "catalog")), "one.facet");
	json_decref(res);

	/* saved: unload goes through */
	res = call(s, "save_overlay", "{}");
	json_decref(res);
	res = call(s, "unload_catalog", "{}");
	assert_false(is_error(res));
	assert_false(json_is_true(json_object_get(json_object_get(res, "structuredContent"), "discarded_pending")));
	json_decref(res);
	assert_int_equal(fakes_open, 0);

	/* discard_pending: true drops them */
	json_decref(call(s, "load_catalog", "{\"path\":\"one.facet\"}"));
	json_decref(call(s, "record_edges", "{\"records\":[{\"op\":\"add\"}]}"));
	res = call(s, "load_catalog", "{\"path\":\"two.facet\",\"discard_pending\":true}");
	assert_false(is_error(res));
	json_t *sc = json_object_get(res, "structuredContent");
	assert_true(json_is_true(json_object_get(sc, "discarded_pending")));
	assert_string_equal(json_string_value(json_object_get(sc, "replaced")), "one.facet");
	json_decref(res);
	assert_int_equal(fakes_open, 1);
	mcp_server_free(s);   /* closes without saving, as on EOF */
	assert_int_equal(fakes_open, 0);
}

static void test_serve_stream(void **state)
{
	(void)state;
	/* Whole stream: a too-long line gets one error and the server goes on. */
	char big[300];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	char in[1024];
	snprintf(in, sizeof in,
	         "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}\n"
	         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
	         "\n"
	         "%s\n"
	         "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n", big);
	int fd = pipe_with(in, strlen(in));
	char *outbuf = NULL;
	size_t outlen = 0;
	FILE *out = open_memstream(&outbuf, &outlen);
	mcp_options o = {.max_message = 200};
	mcp_server *s = mcp_server_new(&fake_backend, &o);
	assert_int_equal(mcp_serve(s, fd, out), 0);
	mcp_server_free(s);
	fclose(out);
	close(fd);
	/* three replies, one per line, in order */
	char *save, *l1 = strtok_r(outbuf, "\n", &save), *l2 = strtok_r(NULL, "\n", &save), *l3 = strtok_r(NULL, "\n", &save);
	assert_non_null(l3);
	assert_null(strtok_r(NULL, "\n", &save));
	json_t *r1 = json_loads(l1, 0, NULL), *r2 = json_loads(l2, 0, NULL), *r3 = json_loads(l3, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(json_object_get(r1, "result"), "protocolVersion")), "2025-06-18");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r2, "error"), "code")), MCP_INVALID_REQUEST);
	assert_true(json_is_null(json_object_get(r2, "id")));
	assert_int_equal(json_integer_value(json_object_get(r3, "id")), 2);
	json_decref(r1);
	json_decref(r2);
	json_decref(r3);
	free(outbuf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_lines),
		cmocka_unit_test(test_reader_huge_line_is_dropped_while_streaming),
		cmocka_unit_test(test_json_text_replaces_bad_utf8),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_schema_any_of),
		cmocka_unit_test(test_tool_table),
		cmocka_unit_test(test_before_initialize),
		cmocka_unit_test(test_version_negotiation),
		cmocka_unit_test(test_malformed_messages),
		cmocka_unit_test(test_batches_in_2025_03_26),
		cmocka_unit_test(test_tools_list),
		cmocka_unit_test(test_tools_without_catalog),
		cmocka_unit_test(test_invalid_arguments_are_tool_errors),
		cmocka_unit_test(test_verbs_pass_through),
		cmocka_unit_test(test_old_revision_gets_text_only),
		cmocka_unit_test(test_pending_records_guard),
		cmocka_unit_test(test_serve_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
