/* oracle_cli.c — the oracle options, the backend and cache they build, and
 * the accounting the subcommands print (oracle_cli.h). */
#include "cli/oracle_cli.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "cli/opt.h"
#include "oracle/report.h"

#define V(name, field) CLI_OPT_VALUE(name, cli_oracle_args, field)
#define F(name, field) CLI_OPT_FLAG(name, cli_oracle_args, field)
const cli_opt cli_oracle_opts[] = {
	V("--oracle", backend), V("--oracle-command", command), V("--oracle-url", url), V("--oracle-model", model),
	V("--oracle-key-env", key_env), V("--oracle-cache", cache), V("--oracle-max-queries", max_queries),
	V("--oracle-max-tokens", max_tokens), V("--oracle-timeout-ms", timeout_ms), V("--oracle-retries", retries),
	V("--oracle-backoff-ms", backoff_ms), V("--source-root", source_root), F("--oracle-replay-only", replay_only),
	F("--opaque-fields", opaque_fields), F("--oracle-no-schema", no_schema), CLI_OPT_END,
};
#undef V
#undef F

static bool number(const char *cmd, const char *opt, const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || *s == '-' || v > max) {
		cli_error(cmd, "%s wants a non-negative integer up to %llu, not '%s'", opt, max, s);
		return false;
	}
	*out = v;
	return true;
}

int cli_oracle_open(const char *cmd, const cli_oracle_args *a, cli_oracle *o)
{
	memset(o, 0, sizeof *o);
	oracle_config *c = &o->cfg;
	oracle_config_default(c);
	c->max_queries = 1000;
	c->max_tokens = 2000000;
	oracle_backend_kind kind = ORACLE_NONE;
	if (a->backend && !oracle_backend_parse(a->backend, &kind)) {
		cli_error(cmd, "unknown oracle '%s' (none, command, openai)", a->backend);
		return EXIT_USAGE;
	}
	if (kind == ORACLE_NONE) {
		/* An option that would change nothing is more likely a forgotten --oracle. */
		if (a->command || a->url || a->model || a->cache || a->replay_only || a->max_queries || a->max_tokens ||
		    a->timeout_ms || a->retries || a->backoff_ms || a->no_schema || a->opaque_fields || a->key_env) {
			cli_error(cmd, "oracle options need --oracle command or --oracle openai");
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	c->backend = kind;
	unsigned long long v;
	if (a->max_queries) {
		if (!number(cmd, "--oracle-max-queries", a->max_queries, 1000000000, &v))
			return EXIT_USAGE;
		c->max_queries = (unsigned)v;
	}
	if (a->max_tokens) {
		if (!number(cmd, "--oracle-max-tokens", a->max_tokens, 1ull << 60, &v))
			return EXIT_USAGE;
		c->max_tokens = v;
	}
	if (a->timeout_ms) {
		if (!number(cmd, "--oracle-timeout-ms", a->timeout_ms, 86400000, &v) || v == 0) {
			if (v == 0)
				cli_error(cmd, "--oracle-timeout-ms must be at least 1");
			return EXIT_USAGE;
		}
		c->timeout_ms = (unsigned)v;
	}
	if (a->retries) {
		if (!number(cmd, "--oracle-retries", a->retries, 100, &v))
			return EXIT_USAGE;
		c->retries = (unsigned)v;
	}
	if (a->backoff_ms) {
		if (!number(cmd, "--oracle-backoff-ms", a->backoff_ms, 600000, &v))
			return EXIT_USAGE;
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
		cli_error(cmd, "--oracle-replay-only needs --oracle-cache FILE to replay from");
		return EXIT_USAGE;
	}
	if (a->cache) {
		facet_error err = {0};
		o->cache = oracle_cache_new();
		o->cache_path = a->cache;
		if (!oracle_cache_load_file(o->cache, a->cache, &err)) {
			cli_error(cmd, "%s", err.msg);
			oracle_cache_free(o->cache);
			o->cache = NULL;
			return EXIT_INPUT;
		}
	}
	if (!o->cache && a->want_cache)
		o->cache = oracle_cache_new();
	c->cache = o->cache;
	facet_error err = {0};
	o->oracle = oracle_new(c, &err);
	if (!o->oracle) {
		cli_error(cmd, "%s", err.msg);
		oracle_cache_free(o->cache);
		o->cache = NULL;
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const char *cli_oracle_label(const cli_oracle *o, char *buf, size_t n)
{
	if (!o->oracle)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%s model=%s opaque=%d", o->oracle->name,
		         o->cfg.model ? o->cfg.model : o->cfg.command ? o->cfg.command : "", o->cfg.opaque_fields);
	return buf;
}

json_t *cli_oracle_stats_json(const cli_oracle *o) { return oracle_stats_json(o->oracle, &o->cfg); }

void cli_oracle_print_stats(FILE *out, const char *prefix, const cli_oracle *o)
{
	oracle_stats_print(out, prefix, o->oracle, &o->cfg);
}

bool cli_oracle_close(const char *cmd, cli_oracle *o)
{
	bool ok = true;
	if (o->oracle) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "facet %s: ", cmd);
		cli_oracle_print_stats(stderr, prefix, o);
	}
	if (o->cache && o->cache_path && !o->cfg.replay_only) {
		facet_error err = {0};
		if (!oracle_cache_save_file(o->cache, o->cache_path, &err)) {
			cli_error(cmd, "%s", err.msg);
			ok = false;
		}
	}
	oracle_free(o->oracle);
	oracle_cache_free(o->cache);
	memset(o, 0, sizeof *o);
	return ok;
}
