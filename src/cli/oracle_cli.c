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

int cli_oracle_open(const char *cmd, const cli_oracle_args *a, cli_oracle *o)
{
	facet_error err = {0};
	oracle_settings_status st = oracle_run_open(a, o, &err);
	if (st != ORACLE_SETTINGS_OK)
		cli_error(cmd, "%s", err.msg);
	return st == ORACLE_SETTINGS_OK ? EXIT_OK : st == ORACLE_SETTINGS_BAD_INPUT ? EXIT_INPUT : EXIT_USAGE;
}

json_t *cli_oracle_stats_json(const cli_oracle *o) { return oracle_stats_json(o->oracle, &o->cfg); }

void cli_oracle_print_stats(FILE *out, const char *prefix, const cli_oracle *o)
{
	oracle_stats_print(out, prefix, o->oracle, &o->cfg);
}

bool cli_oracle_close(const char *cmd, cli_oracle *o)
{
	if (o->oracle) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "facet %s: ", cmd);
		cli_oracle_print_stats(stderr, prefix, o);
	}
	facet_error err = {0};
	bool ok = oracle_run_close(o, &err);
	if (!ok)
		cli_error(cmd, "%s", err.msg);
	return ok;
}
