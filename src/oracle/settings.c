/* settings.c — an oracle from the settings a user gives (settings.h). */
#include "oracle/settings.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static bool number(facet_error *err, const char *opt, const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || *s == '-' || v > max) {
		error_set(err, "%s wants a non-negative integer up to %llu, not '%s'", opt, max, s);
		return false;
	}
	*out = v;
	return true;
}

oracle_settings_status oracle_run_open(const oracle_settings *a, oracle_run *o, facet_error *err)
{
	memset(o, 0, sizeof *o);
	oracle_config *c = &o->cfg;
	oracle_config_default(c);
	c->max_queries = 1000;
	c->max_tokens = 2000000;
	oracle_backend_kind kind = ORACLE_NONE;
	if (a->backend && !oracle_backend_parse(a->backend, &kind)) {
		error_set(err, "unknown oracle '%s' (none, command, openai)", a->backend);
		return ORACLE_SETTINGS_BAD_SETTING;
	}
	if (kind == ORACLE_NONE) {
		/* An option that would change nothing is more likely a forgotten --oracle. */
		if (a->command || a->url || a->model || a->cache || a->replay_only || a->max_queries || a->max_tokens ||
		    a->timeout_ms || a->retries || a->backoff_ms || a->no_schema || a->opaque_fields || a->key_env) {
			error_set(err, "oracle options need --oracle command or --oracle openai");
			return ORACLE_SETTINGS_BAD_SETTING;
		}
		return ORACLE_SETTINGS_OK;
	}
	c->backend = kind;
	unsigned long long v;
	if (a->max_queries) {
		if (!number(err, "--oracle-max-queries", a->max_queries, 1000000000, &v))
			return ORACLE_SETTINGS_BAD_SETTING;
		c->max_queries = (unsigned)v;
	}
	if (a->max_tokens) {
		if (!number(err, "--oracle-max-tokens", a->max_tokens, 1ull << 60, &v))
			return ORACLE_SETTINGS_BAD_SETTING;
		c->max_tokens = v;
	}
	if (a->timeout_ms) {
		if (!number(err, "--oracle-timeout-ms", a->timeout_ms, 86400000, &v) || v == 0) {
			if (v == 0)
				error_set(err, "--oracle-timeout-ms must be at least 1");
			return ORACLE_SETTINGS_BAD_SETTING;
		}
		c->timeout_ms = (unsigned)v;
	}
	if (a->retries) {
		if (!number(err, "--oracle-retries", a->retries, 100, &v))
			return ORACLE_SETTINGS_BAD_SETTING;
		c->retries = (unsigned)v;
	}
	if (a->backoff_ms) {
		if (!number(err, "--oracle-backoff-ms", a->backoff_ms, 600000, &v))
			return ORACLE_SETTINGS_BAD_SETTING;
		c->backoff_ms = (unsigned)v;
	}
	c->command = a->command;
	c->url = a->url ? a->url : getenv("OPENAI_BASE_URL");
	c->model = a->model ? a->model : kind == ORACLE_OPENAI ? getenv("OPENAI_MODEL") : NULL;
	c->api_key = getenv(a->key_env ? a->key_env : "OPENAI_API_KEY");
	c->replay_only = a->replay_only;
	c->no_schema = a->no_schema;
	c->source_root = a->source_root;
	c->opaque_fields = a->opaque_fields;
	if (a->replay_only && !a->cache && !a->want_cache) {
		error_set(err, "--oracle-replay-only needs --oracle-cache FILE to replay from");
		return ORACLE_SETTINGS_BAD_SETTING;
	}
	if (a->cache) {
		o->cache = oracle_cache_new();
		o->cache_path = a->cache;
		if (!oracle_cache_load_file(o->cache, a->cache, err)) {
			oracle_cache_free(o->cache);
			o->cache = NULL;
			return ORACLE_SETTINGS_BAD_INPUT;
		}
	}
	if (!o->cache && a->want_cache)
		o->cache = oracle_cache_new();
	c->cache = o->cache;
	o->oracle = oracle_new(c, err);
	if (!o->oracle) {
		oracle_cache_free(o->cache);
		o->cache = NULL;
		return ORACLE_SETTINGS_BAD_SETTING;
	}
	return ORACLE_SETTINGS_OK;
}

bool oracle_run_close(oracle_run *o, facet_error *err)
{
	bool ok = true;
	if (o->cache && o->cache_path && !o->cfg.replay_only)
		ok = oracle_cache_save_file(o->cache, o->cache_path, err);
	oracle_free(o->oracle);
	oracle_cache_free(o->cache);
	memset(o, 0, sizeof *o);
	return ok;
}
