/* test_oracle.c — unit tests of the oracle's answer parser (malformed and
 * adversarial input), SHA-256, the answer cache and opaque tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/answer.h"
#include "oracle/cache.h"
#include "oracle/oracle.h"
#include "oracle/prompt.h"
#include "util/sha256.h"

static const char *const names[] = {"ngx_http_gzip_filter", "ngx_http_ssi_filter", "other"};
enum { N = 3 };

static bool parse(const char *text, oracle_verdict *v, oracle_answer_info *info)
{
	return oracle_parse_answer(text, names, N, v, info);
}

static void test_parse_exact(void **state)
{
	(void)state;
	oracle_verdict v[N];
	oracle_answer_info info;
	assert_true(parse("{\"answers\": {\"ngx_http_gzip_filter\": \"yes\", \"ngx_http_ssi_filter\": \"no\", "
	                  "\"other\": \"no\"}}", v, &info));
	assert_int_equal(v[0], VERDICT_YES);
	assert_int_equal(v[1], VERDICT_NO);
	assert_int_equal(v[2], VERDICT_NO);
	assert_int_equal(info.matched, 3);
	assert_int_equal(info.invented, 0);
}

static void test_parse_tolerant(void **state)
{
	(void)state;
	oracle_verdict v[N];
	oracle_answer_info info;
	/* prose and a fence around it, a stray brace after it */
	assert_true(parse("Sure!\n```json\n{\"answers\": {\"other\": \"Yes.\"}}\n```\nDone {ok}", v, &info));
	assert_int_equal(v[2], VERDICT_YES);
	assert_int_equal(v[0], VERDICT_UNKNOWN);
	/* booleans, keep/prune, a bare map, trailing "()" */
	assert_true(parse("{\"ngx_http_gzip_filter()\": true, \"ngx_http_ssi_filter\": \"prune\", \"other\": false}", v,
	                  &info));
	assert_int_equal(v[0], VERDICT_YES);
	assert_int_equal(v[1], VERDICT_NO);
	assert_int_equal(v[2], VERDICT_NO);
	/* the array form with reasons */
	assert_true(parse("{\"answers\": [{\"name\": \"other\", \"answer\": \"no\", \"reason\": \"x\"},"
	                  " {\"function\": \"ngx_http_ssi_filter\", \"target\": true}]}", v, &info));
	assert_int_equal(v[2], VERDICT_NO);
	assert_int_equal(v[1], VERDICT_YES);
	assert_int_equal(info.matched, 2);
}

static void test_parse_invented(void **state)
{
	(void)state;
	oracle_verdict v[N];
	oracle_answer_info info;
	/* names outside the list are ignored and counted */
	assert_true(parse("{\"answers\": {\"other\": \"yes\", \"system\": \"yes\", \"ngx_http_gzip\": \"yes\"}}", v, &info));
	assert_int_equal(info.invented, 2);
	assert_int_equal(info.matched, 1);
	assert_int_equal(v[0], VERDICT_UNKNOWN);
	/* only invented names: no usable answer */
	assert_false(parse("{\"answers\": {\"evil\": \"yes\"}}", v, &info));
	assert_int_equal(info.invented, 1);
	for (int i = 0; i < N; i++)
		assert_int_equal(v[i], VERDICT_UNKNOWN);
	/* a name that differs only in case is another name */
	assert_false(parse("{\"answers\": {\"OTHER\": \"yes\"}}", v, &info));
}

static void test_parse_malformed(void **state)
{
	(void)state;
	oracle_verdict v[N];
	oracle_answer_info info;
	static const char *const bad[] = {
		"", "   ", "yes", "no", "null", "[]", "[\"other\"]", "{", "}", "{\"answers\": ",
		"{\"answers\": {\"other\": maybe}}", "{\"answers\": {\"other\": \"maybe\"}}",
		"{\"answers\": {\"other\": 1}}", "{\"answers\": {\"other\": null}}", "{\"answers\": 7}",
		"{\"answers\": [1, 2, {\"name\": 3}]}", "\"{\\\"answers\\\": {}}\"", "{\"answers\": {}}",
		"}{", "{\"a\": {\"b\": {\"c\": {\"d\": \"yes\"}}}}", "\xff\xfe{\"other\": \"\xff\"}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_false(parse(bad[i], v, &info));
		for (int k = 0; k < N; k++)
			assert_int_equal(v[k], VERDICT_UNKNOWN);
	}
	assert_false(oracle_parse_answer(NULL, names, N, v, NULL));
	/* a value that is neither yes nor no leaves that candidate alone */
	assert_true(parse("{\"answers\": {\"other\": \"yes\", \"ngx_http_ssi_filter\": \"perhaps\"}}", v, &info));
	assert_int_equal(info.bad_values, 1);
	assert_int_equal(v[1], VERDICT_UNKNOWN);
	/* deep nesting and a long string do not crash */
	char *deep = malloc(200001);
	memset(deep, '{', 100000);
	memset(deep + 100000, '}', 100000);
	deep[200000] = 0;
	assert_false(parse(deep, v, &info));
	free(deep);
}

static void test_sha256(void **state)
{
	(void)state;
	char hex[65];
	hash_sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hash_sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";   /* 56 bytes: two blocks */
	hash_sha256_hex(two, strlen(two), hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	char *a = malloc(1000000);
	memset(a, 'a', 1000000);
	hash_sha256_hex(a, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void test_cache(void **state)
{
	(void)state;
	oracle_cache *c = oracle_cache_new();
	oracle_cache_entry e = {.backend = "openai", .model = "m1", .prompt_hash = "h1", .answer = "{\"answers\": {}}",
	                        .prompt_tokens = 5, .completion_tokens = 2};
	oracle_cache_put(c, &e);
	e.model = "m2";
	e.answer = "other";
	oracle_cache_put(c, &e);
	assert_int_equal(oracle_cache_size(c), 2);
	assert_string_equal(oracle_cache_get(c, "openai", "m1", "h1")->answer, "{\"answers\": {}}");
	assert_string_equal(oracle_cache_get(c, "openai", "m2", "h1")->answer, "other");
	assert_null(oracle_cache_get(c, "command", "m1", "h1"));
	assert_null(oracle_cache_get(c, "openai", "m1", "h2"));
	e.answer = "replaced";
	oracle_cache_put(c, &e);
	assert_int_equal(oracle_cache_size(c), 2);
	assert_string_equal(oracle_cache_get(c, "openai", "m2", "h1")->answer, "replaced");

	/* through a database the caller owns (the catalog's), inside its transaction */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	facet_error err = {0};
	oracle_cache *empty = oracle_cache_new();
	assert_true(oracle_cache_load_sqlite(empty, db, &err));   /* no table yet: empty */
	assert_int_equal(oracle_cache_size(empty), 0);
	oracle_cache_free(empty);
	assert_int_equal(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	assert_true(oracle_cache_save_sqlite(c, db, &err));
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	oracle_cache *d = oracle_cache_new();
	assert_true(oracle_cache_load_sqlite(d, db, &err));
	assert_int_equal(oracle_cache_size(d), 2);
	assert_int_equal(oracle_cache_get(d, "openai", "m1", "h1")->prompt_tokens, 5);
	oracle_cache_free(d);
	sqlite3_close(db);

	/* a standalone file: missing loads empty, saves, reloads */
	char path[] = "/tmp/test_oracle_cache_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	d = oracle_cache_new();
	assert_true(oracle_cache_load_file(d, path, &err));
	assert_int_equal(oracle_cache_size(d), 0);
	assert_true(oracle_cache_save_file(c, path, &err));
	assert_true(oracle_cache_load_file(d, path, &err));
	assert_int_equal(oracle_cache_size(d), 2);
	assert_string_equal(oracle_cache_get(d, "openai", "m2", "h1")->answer, "replaced");
	oracle_cache_free(d);
	/* a file that is not SQLite is an error that names it */
	FILE *f = fopen(path, "w");
	fputs("not a database, just text that is long enough to have a header of sorts..........\n", f);
	fclose(f);
	d = oracle_cache_new();
	assert_false(oracle_cache_load_file(d, path, &err));
	assert_non_null(strstr(err.msg, path));
	oracle_cache_free(d);
	unlink(path);
	oracle_cache_free(c);
}

static void test_config(void **state)
{
	(void)state;
	char tok[16];
	oracle_opaque_token("unload", tok);
	assert_int_equal(strlen(tok), 14);
	assert_memory_equal(tok, "field_", 6);
	char tok2[16];
	oracle_opaque_token("unload", tok2);
	assert_string_equal(tok, tok2);
	oracle_opaque_token("run", tok2);
	assert_string_not_equal(tok, tok2);

	oracle_backend_kind k;
	assert_true(oracle_backend_parse("openai", &k));
	assert_int_equal(k, ORACLE_OPENAI);
	assert_false(oracle_backend_parse("gpt", &k));
	oracle_config c;
	oracle_config_default(&c);
	facet_error err = {0};
	c.backend = ORACLE_COMMAND;
	assert_null(oracle_new(&c, &err));   /* no command */
	assert_non_null(strstr(err.msg, "command"));
	error_clear(&err);
	c.backend = ORACLE_OPENAI;
	c.model = "m";
	assert_null(oracle_new(&c, &err));   /* no URL */
	error_clear(&err);
	c.url = "http://127.0.0.1:9/v1/";
	facet_oracle *o = oracle_new(&c, &err);
	assert_non_null(o);
	assert_string_equal(o->name, "openai");
	assert_int_equal(oracle_stats_of(o)->questions, 0);
	assert_null(oracle_first_error(o));
	oracle_free(o);
	assert_null(oracle_stats_of(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_exact),   cmocka_unit_test(test_parse_tolerant),
		cmocka_unit_test(test_parse_invented), cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_sha256),        cmocka_unit_test(test_cache),
		cmocka_unit_test(test_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
