/* test_overlay.c — the overlay's parser and batch discipline, through the
 * query API the CLI and the MCP server use.
 *
 * Usage: test_overlay CATALOG WORKDIR   (CATALOG: tests/query/programs/plugin.c
 * built at -O0; run_overlay.sh makes it). Checks malformed JSON lines, the
 * pending-record guard of load_overlay, a save/load round trip, and a
 * deterministic mutation test: thousands of byte-level mutations of a valid
 * batch must each be applied whole or refused whole (the edge count moves
 * only on success, a refusal names its record), never crash (run it under
 * ASan). Prints failures and "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "overlay/overlay.h"
#include "query/query.h"

static int passed, failed;
#define CHECK(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

static size_t n_edges(query_session *s)
{
	facet_error err = {0};
	json_t *args = json_pack("{s:s}", "graph", "r0");
	json_t *r = query_call(s, "list_overlay", args, &err);
	json_decref(args);
	size_t n = r ? json_array_size(json_object_get(r, "edges")) : (size_t)-1;
	json_decref(r);
	return n;
}

static const char valid[] =
	"{\"op\":\"add\",\"via_field\":{\"record\":\"ops\",\"offset\":8},\"to\":\"file_open\",\"confidence\":\"high\","
	"\"provenance\":[\"plugin.c:32: file_ops\"]}\n"
	"{\"op\":\"add\",\"via_field\":{\"record\":\"ops\",\"offset\":16},\"to\":\"file_close\",\"confidence\":\"low\","
	"\"provenance\":[\"plugin.c:41: o->close = file_close\"]}\n"
	"{\"op\":\"verify\",\"edge\":{\"via_field\":{\"record\":\"ops\",\"offset\":8},\"to\":\"file_open\"},"
	"\"tool\":\"reread\",\"verdict\":\"confirmed\"}\n";

static void malformed(void)
{
	static const struct { const char *text; const char *want; } cases[] = {
		{"{\"op\":\"add\"\n", "line 1"},
		{"\n\n[1,2]\n", "line 3"},
		{"{\"op\":\"add\"}\n\"str\"\n", "line 2"},
		{"{\"a\":1,\"a\":2}\n", "line 1"},
		{"{\"op\":\"add\"} trailing\n", "line 1"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		facet_error err = {0};
		json_t *r = overlay_parse_lines(cases[i].text, strlen(cases[i].text), &err);
		CHECK(!r && strstr(err.msg, cases[i].want), "malformed case %zu: want '%s', got '%s'", i, cases[i].want,
		      err.msg);
		json_decref(r);
	}
	facet_error err = {0};
	const char ok[] = "# a comment\n\n  {\"op\":\"add\"}  \r\n";
	json_t *r = overlay_parse_lines(ok, strlen(ok), &err);
	CHECK(r && json_array_size(r) == 1, "comments, blank lines and CRLF are accepted");
	json_decref(r);
}

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static unsigned next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 11);
}

static void mutate(query_session *s)
{
	static const char alphabet[] = "{}[]\":,0123456789 \nabcdefghijklmnopqrstuvwxyz_-@.";
	size_t len = strlen(valid);
	char *buf = malloc(len * 2 + 64);
	unsigned applied = 0, refused = 0, unparsed = 0;
	for (int iter = 0; iter < 3000; iter++) {
		memcpy(buf, valid, len + 1);
		size_t n = len;
		for (unsigned m = 1 + next() % 4; m > 0; m--) {
			size_t at = next() % n;
			switch (next() % 3) {
			case 0: buf[at] = alphabet[next() % (sizeof alphabet - 1)]; break;
			case 1: memmove(buf + at, buf + at + 1, n - at); n--; break;
			default: memmove(buf + at + 1, buf + at, n - at + 1); buf[at] = alphabet[next() % (sizeof alphabet - 1)]; n++;
			}
		}
		facet_error err = {0};
		json_t *records = overlay_parse_lines(buf, n, &err);
		if (!records) {
			unparsed++;
			CHECK(strstr(err.msg, "line ") != NULL, "a parse error names its line: %s", err.msg);
			continue;
		}
		size_t before = n_edges(s);
		json_t *args = json_pack("{s:o, s:s}", "records", records, "graph", "r0");
		json_t *r = query_call(s, "record_edges", args, &err);
		json_decref(args);
		size_t after = n_edges(s);
		if (r) {
			applied++;
			CHECK(after <= before + 2, "an applied batch adds at most its adds");
		} else {
			refused++;
			if (after != before || !strstr(err.msg, "record ")) {
				CHECK(0, "iteration %d: refused batch changed the overlay (%zu -> %zu) or named no record: %s",
				      iter, before, after, err.msg);
			} else {
				passed++;
			}
		}
		json_decref(r);
		if (after > 6) {   /* start over now and then, so adds keep being new */
			json_t *ld = json_pack("{s:b, s:s, s:b}", "discard_pending", 1, "path", "/nonexistent/x", "create", 1);
			json_t *lr = query_call(s, "load_overlay", ld, &err);
			json_decref(ld);
			json_decref(lr);
		}
	}
	free(buf);
	printf("mutations: %u applied, %u refused, %u not JSON\n", applied, refused, unparsed);
	CHECK(applied > 0 && refused > 0, "the mutations exercised both outcomes");
}

/* Every verb with arguments of the wrong type, missing or out of range:
 * an answer or an error, never a crash (ASan watches). */
static void junk_arguments(query_session *s)
{
	static const char *const junk[] = {
		"{}", "{\"name\": 7}", "{\"name\": \"\"}", "{\"name\": {\"symbol\": 1}}",
		"{\"name\": {\"module_id\": \"x\", \"symbol\": \"main\"}}", "{\"file\": \"\", \"line\": -3}",
		"{\"location\": \":\"}", "{\"location\": \"a:b\"}", "{\"location\": \"plugin.c:0\"}",
		"{\"file\": \"plugin.c\", \"line\": \"49x\"}", "{\"site\": -1}", "{\"site\": 1e300}",
		"{\"site\": \"3\"}", "{\"from\": \"main\", \"to\": 5}", "{\"from\": \"main\", \"to\": \"main\"}",
		"{\"name\": \"main\", \"direction\": \"sideways\"}", "{\"graph\": 3}", "{\"graph\": \"nope\"}",
		"{\"name\": \"main\", \"min_confidence\": \"huge\", \"include_overlay\": true}",
		"{\"records\": 5}", "{\"records\": [1, \"x\", null]}", "{\"records\": [{\"op\": 3}]}",
		"{\"limit\": \"many\"}", "{\"path\": 9}", "{\"name\": \"main\", \"include_overlay\": \"yes\"}",
		"{\"from\": \"main\", \"to\": \"helper\", \"emit_module\": \"/nonexistent/dir/x.bc\"}",
	};
	unsigned answered = 0, refused = 0;
	for (size_t k = 0; query_verb_table[k].name; k++) {
		const char *verb = query_verb_table[k].name;
		if (!strcmp(verb, "save_overlay") || !strcmp(verb, "load_overlay"))
			continue;   /* they write or replace files; covered above */
		for (size_t j = 0; j < sizeof junk / sizeof *junk; j++) {
			json_t *a = json_loads(junk[j], 0, NULL);
			facet_error err = {0};
			json_t *r = query_call(s, verb, a, &err);
			if (r) {
				answered++;
				CHECK(json_object_get(r, "graph") != NULL, "%s %s: an answer names its graph", verb, junk[j]);
			} else {
				refused++;
				CHECK(err.set && err.msg[0], "%s %s: a refusal says why", verb, junk[j]);
			}
			json_decref(r);
			json_decref(a);
		}
	}
	printf("junk arguments: %u answered, %u refused\n", answered, refused);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: test_overlay CATALOG WORKDIR\n", stderr);
		return 2;
	}
	malformed();
	facet_error err = {0};
	query_session *s = query_open(argv[1], &err);
	if (!s) {
		printf("cannot open %s: %s\n", argv[1], err.msg);
		return 1;
	}
	/* a fresh overlay file in WORKDIR */
	char path[4096];
	snprintf(path, sizeof path, "%s/test.overlay", argv[2]);
	remove(path);
	json_t *a = json_pack("{s:s, s:b, s:b}", "path", path, "create", 1, "discard_pending", 1);
	json_t *r = query_call(s, "load_overlay", a, &err);
	CHECK(r != NULL, "load_overlay create: %s", err.msg);
	json_decref(r);
	json_decref(a);

	json_t *records = overlay_parse_lines(valid, strlen(valid), &err);
	a = json_pack("{s:o, s:s}", "records", records, "graph", "r0");
	r = query_call(s, "record_edges", a, &err);
	CHECK(r && n_edges(s) == 2 && query_overlay_pending(s), "a valid batch: 2 edges, pending: %s", err.msg);
	json_decref(r);
	json_decref(a);

	a = json_pack("{s:s}", "path", path);
	r = query_call(s, "load_overlay", a, &err);
	CHECK(!r && strstr(err.msg, "not saved"), "load_overlay refuses while records are pending: %s", err.msg);
	json_decref(r);
	error_clear(&err);
	r = query_call(s, "save_overlay", NULL, &err);
	CHECK(r && !query_overlay_pending(s), "save_overlay: %s", err.msg);
	json_decref(r);
	r = query_call(s, "load_overlay", a, &err);
	CHECK(r && n_edges(s) == 2, "reload after save: 2 edges: %s", err.msg);
	json_decref(r);
	json_decref(a);
	json_t *lst = query_call(s, "list_overlay", NULL, &err);
	json_t *e0 = json_array_get(json_object_get(lst, "edges"), 0);
	CHECK(e0 && json_is_string(json_object_get(e0, "verdict")) &&
	      !strcmp(json_string_value(json_object_get(e0, "verdict")), "confirmed"), "the verdict survives save/load");
	json_decref(lst);

	r = query_call(s, "no_such_verb", NULL, &err);
	CHECK(!r && strstr(err.msg, "unknown query verb"), "unknown verb refused");
	error_clear(&err);
	a = json_pack("[i]", 1);
	r = query_call(s, "defs", a, &err);
	CHECK(!r && strstr(err.msg, "JSON object"), "non-object arguments refused");
	json_decref(a);
	error_clear(&err);

	junk_arguments(s);
	mutate(s);
	query_close(s);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
