/* openai.c — the `openai` backend: any OpenAI-compatible chat-completions
 * endpoint over HTTP (libcurl). Temperature 0; the answer constrained by a
 * JSON schema (response_format json_schema) unless the server refuses it,
 * after which the run asks without it and relies on the tolerant parser
 * (answer.h). 429 and 5xx are retried with exponential backoff (Retry-After
 * honoured, up to 60 s); a timeout is not retried — a server that hangs
 * would otherwise cost the timeout once per retry. */
#include "oracle/internal.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/vec.h"
#include "util/xalloc.h"

enum { MAX_BODY = 16 << 20, MAX_RETRY_AFTER_MS = 60000 };

typedef struct openai_ctx {
	char *endpoint;            /* .../chat/completions */
	char *model;
	char *auth;                /* "Authorization: Bearer ...", NULL for none */
	unsigned timeout_ms, retries, backoff_ms;
	bool schema;               /* still asking for a schema-constrained answer */
} openai_ctx;

typedef struct body_buf {
	VEC(char) b;
	bool too_big;
	long retry_after_ms;
} body_buf;

static size_t on_body(char *data, size_t size, size_t n, void *userp)
{
	body_buf *bb = userp;
	size_t len = size * n;
	if (bb->b.len + len > MAX_BODY) {
		bb->too_big = true;
		return 0;
	}
	VEC_RESERVE(&bb->b, bb->b.len + len + 1);
	memcpy(bb->b.items + bb->b.len, data, len);
	bb->b.len += len;
	bb->b.items[bb->b.len] = 0;
	return len;
}

static size_t on_header(char *data, size_t size, size_t n, void *userp)
{
	body_buf *bb = userp;
	size_t len = size * n;
	if (len > 12 && !strncasecmp(data, "Retry-After:", 12)) {
		long s = strtol(data + 12, NULL, 10);
		if (s > 0)
			bb->retry_after_ms = s * 1000 > MAX_RETRY_AFTER_MS ? MAX_RETRY_AFTER_MS : s * 1000;
	}
	return len;
}

/* The schema: {"answers": {NAME: "yes"|"no" for every candidate}}, nothing else. */
static json_t *schema_of(const oracle_prompt *p)
{
	json_t *props = json_object(), *req = json_array();
	for (unsigned i = 0; i < p->n; i++) {
		json_object_set_new(props, p->names[i], json_pack("{s:s, s:[s,s]}", "type", "string", "enum", "yes", "no"));
		json_array_append_new(req, json_string(p->names[i]));
	}
	json_t *answers = json_pack("{s:s, s:o, s:o, s:b}", "type", "object", "properties", props, "required", req,
	                            "additionalProperties", 0);
	json_t *schema = json_pack("{s:s, s:{s:o}, s:[s], s:b}", "type", "object", "properties", "answers", answers,
	                           "required", "answers", "additionalProperties", 0);
	return json_pack("{s:s, s:{s:s, s:b, s:o}}", "type", "json_schema", "json_schema", "name", "facet_answer",
	                 "strict", 1, "schema", schema);
}

static char *request_body(const openai_ctx *c, const oracle_prompt *p)
{
	unsigned max_tokens = 256 + 16 * p->n;
	if (max_tokens > 8192)
		max_tokens = 8192;
	json_t *req = json_pack("{s:s, s:i, s:i, s:[{s:s, s:s}, {s:s, s:s}]}", "model", c->model, "temperature", 0,
	                        "max_tokens", (int)max_tokens, "messages", "role", "system", "content", p->system, "role",
	                        "user", "content", p->user);
	if (c->schema)
		json_object_set_new(req, "response_format", schema_of(p));
	char *s = json_dumps(req, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(req);
	return s;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Reads choices[0].message.content and usage from a 200 response. */
static bool envelope(const char *body, oracle_reply *out, facet_error *err, const char *endpoint)
{
	json_error_t je;
	json_t *j = json_loads(body, 0, &je);
	if (!j) {
		error_set(err, "%s: the response is not JSON (%s)", endpoint, je.text);
		return false;
	}
	json_t *msg = json_object_get(json_array_get(json_object_get(j, "choices"), 0), "message");
	json_t *content = json_object_get(msg, "content");
	if (!json_is_string(content)) {
		error_set(err, "%s: the response has no choices[0].message.content", endpoint);
		json_decref(j);
		return false;
	}
	out->content = xstrdup(json_string_value(content));
	json_t *u = json_object_get(j, "usage");
	json_int_t pt = json_integer_value(json_object_get(u, "prompt_tokens"));
	json_int_t ct = json_integer_value(json_object_get(u, "completion_tokens"));
	out->prompt_tokens = pt > 0 ? (unsigned)pt : 0;
	out->completion_tokens = ct > 0 ? (unsigned)ct : 0;
	json_decref(j);
	return true;
}

static oracle_call_status call(oracle_backend *b, const oracle_prompt *p, oracle_reply *out, oracle_stats *st,
                               facet_error *err)
{
	openai_ctx *c = b->ctx;
	memset(out, 0, sizeof *out);
	CURL *h = curl_easy_init();
	if (!h) {
		error_set(err, "%s: cannot start libcurl", c->endpoint);
		return CALL_FAILED;
	}
	struct curl_slist *hdrs = curl_slist_append(NULL, "Content-Type: application/json");
	if (c->auth)
		hdrs = curl_slist_append(hdrs, c->auth);
	oracle_call_status rc = CALL_FAILED;
	unsigned attempt = 0;
	for (;;) {
		char *req = request_body(c, p);
		body_buf bb = {0};
		curl_easy_reset(h);
		curl_easy_setopt(h, CURLOPT_URL, c->endpoint);
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, req);
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, &bb);
		curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
		curl_easy_setopt(h, CURLOPT_HEADERDATA, &bb);
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)c->timeout_ms);
		curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)c->timeout_ms);
		curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(h, CURLOPT_USERAGENT, "facet-oracle/1");
		st->requests++;
		CURLcode cc = curl_easy_perform(h);
		free(req);
		long status = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		const char *body = bb.b.items ? bb.b.items : "";
		bool retry = false;
		if (cc == CURLE_OPERATION_TIMEDOUT) {
			error_set(err, "%s: no answer within %u ms", c->endpoint, c->timeout_ms);
			rc = CALL_TIMEOUT;
		} else if (cc != CURLE_OK) {
			error_set(err, "%s: %s", c->endpoint, bb.too_big ? "response too large" : curl_easy_strerror(cc));
			retry = cc == CURLE_COULDNT_CONNECT || cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING;
		} else if (status == 200) {
			rc = envelope(body, out, err, c->endpoint) ? CALL_OK : CALL_FAILED;
		} else if (status == 400 && c->schema && (strstr(body, "response_format") || strstr(body, "json_schema"))) {
			c->schema = false;   /* not supported here: ask plainly, for the rest of the run */
			st->retries++;
			free(bb.b.items);
			continue;
		} else {
			error_set(err, "%s: HTTP %ld%s%.200s", c->endpoint, status, *body ? ": " : "", body);
			retry = status == 429 || status >= 500;
		}
		long wait = (long)c->backoff_ms << (attempt < 16 ? attempt : 16);
		if (bb.retry_after_ms > wait)
			wait = bb.retry_after_ms;
		free(bb.b.items);
		if (!retry || attempt >= c->retries)
			break;
		attempt++;
		st->retries++;
		sleep_ms(wait);
	}
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(h);
	return rc;
}

static void openai_free(oracle_backend *b)
{
	openai_ctx *c = b->ctx;
	free(c->endpoint);
	free(c->model);
	free(c->auth);
	free(c);
	free(b);
	curl_global_cleanup();
}

oracle_backend *oracle_openai_backend(const oracle_config *cfg, facet_error *err)
{
	if ((!cfg->url || !*cfg->url) && !cfg->replay_only) {
		error_set(err, "the openai oracle needs a base URL (--oracle-url or OPENAI_BASE_URL)");
		return NULL;
	}
	if (!cfg->model || !*cfg->model) {
		error_set(err, "the openai oracle needs a model (--oracle-model or OPENAI_MODEL)");
		return NULL;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		error_set(err, "cannot initialise libcurl");
		return NULL;
	}
	openai_ctx *c = xcalloc(1, sizeof *c);
	const char *url = cfg->url ? cfg->url : "";   /* none in replay-only mode: never used */
	size_t n = strlen(url);
	while (n > 0 && url[n - 1] == '/')
		n--;
	static const char suffix[] = "/chat/completions";
	bool has_suffix = n >= sizeof suffix - 1 && !strncmp(url + n - (sizeof suffix - 1), suffix, sizeof suffix - 1);
	c->endpoint = xmalloc(n + sizeof suffix);
	snprintf(c->endpoint, n + sizeof suffix, "%.*s%s", (int)n, url, has_suffix ? "" : suffix);
	c->model = xstrdup(cfg->model);
	if (cfg->api_key && *cfg->api_key) {
		size_t k = strlen(cfg->api_key) + 32;
		c->auth = xmalloc(k);
		snprintf(c->auth, k, "Authorization: Bearer %s", cfg->api_key);
	}
	c->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : 60000;
	c->retries = cfg->retries;
	c->backoff_ms = cfg->backoff_ms;
	c->schema = !cfg->no_schema;
	oracle_backend *b = xcalloc(1, sizeof *b);
	b->name = "openai";
	b->model = c->model;
	b->ctx = c;
	b->call = call;
	b->free = openai_free;
	return b;
}
