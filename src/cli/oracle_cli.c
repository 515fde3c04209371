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

cli_oracle_args cli_oracle_args_of(const args_set *a)
{
	return (cli_oracle_args){
		.backend = args_str(a, "--oracle"), .command = args_str(a, "--oracle-command"), .url = args_str(a, "--oracle-url"),
		.model = args_str(a, "--oracle-model"), .key_env = args_str(a, "--oracle-key-env"),
		.cache = args_str(a, "--oracle-cache"), .source_root = args_str(a, "--source-root"),
		.max_queries = args_str(a, "--oracle-max-queries"), .max_tokens = args_str(a, "--oracle-max-tokens"),
		.timeout_ms = args_str(a, "--oracle-timeout-ms"), .retries = args_str(a, "--oracle-retries"),
		.backoff_ms = args_str(a, "--oracle-backoff-ms"), .replay_only = args_has(a, "--oracle-replay-only"),
		.opaque_fields = args_has(a, "--opaque-fields"), .no_schema = args_has(a, "--oracle-no-schema"),
	};
}

int cli_oracle_open(const char *cmd, const cli_oracle_args *a, cli_oracle *o)
{
	facet_error err = {0};
	oracle_settings_status st = oracle_run_open(a, o, &err);
	if (st != ORACLE_SETTINGS_OK)
		cli_error(cmd, "%s", err.msg);
	return st == ORACLE_SETTINGS_OK ? EXIT_OK : st == ORACLE_SETTINGS_BAD_INPUT ? EXIT_INPUT : EXIT_USAGE;
}

bool cli_oracle_close(const char *cmd, cli_oracle *o)
{
	if (o->oracle) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "facet %s: ", cmd);
		oracle_stats_print(stderr, prefix, o->oracle, &o->cfg);
	}
	facet_error err = {0};
	bool ok = oracle_run_close(o, &err);
	if (!ok)
		cli_error(cmd, "%s", err.msg);
	return ok;
}
