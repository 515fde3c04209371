/* source_cli.c — the source options and the call that reads a tree (source_cli.h). */
#include "cli/source_cli.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

source_result *cli_source_analyze(const char *cmd, const args_set *a, char **paths, int n)
{
	const args_list *inc = args_all(a, "-I"), *def = args_all(a, "-D");
	source_options so = {.paths = (const char *const *)paths, .n_paths = (unsigned)n,
	                     .compile_commands = args_str(a, "--compile-commands"),
	                     .includes = inc->v, .n_includes = inc->n, .defines = def->v, .n_defines = def->n};
	const char *rule = args_str(a, "--type-fallback");
	if (rule && strcmp(rule, "c") != 0 && strcmp(rule, "ir") != 0) {
		cli_error(cmd, "--type-fallback takes c or ir, not '%s'", rule);
		return NULL;
	}
	so.no_assumed_constants = args_has(a, "--no-assumed-constants");
	so.no_host_config = args_has(a, "--no-host-config");
	so.no_assumed_switches = args_has(a, "--no-assumed-switches");
	so.fallback = args_has(a, "--no-type-fallback") ? SOURCE_FALLBACK_OFF
	              : rule && strcmp(rule, "ir") == 0 ? SOURCE_FALLBACK_IR : SOURCE_FALLBACK_C;
	facet_error err = {0};
	source_result *r = source_analyze(&so, &err);
	if (!r) {
		cli_error(cmd, "%s", err.msg);
		return NULL;
	}
	for (unsigned i = 0; i < r->n_standins; i++) {
		const source_standin *s = &r->standins[i];
		char host[96] = "";
		if (s->host || s->host_off)
			snprintf(host, sizeof host, ", %u size%s from this host, %u header switch%s off (no such header here)",
			         s->host, s->host == 1 ? "" : "s", s->host_off, s->host_off == 1 ? "" : "es");
		cli_warning(cmd, "%s is missing: stood in by %s with its %u configuration switch%s on%s%s", s->header,
		            s->template_path, s->switches, s->switches == 1 ? "" : "es", host,
		            s->shadows ? " (searched before the tree's other header of that name)" : "");
	}
	for (unsigned i = 0; i < r->n_units; i++)
		if (r->units[i].constants)
			cli_warning(cmd, "%s: %u undeclared constant%s declared and the unit parsed again (first: %s)",
			            r->units[i].file, r->units[i].constants, r->units[i].constants == 1 ? "" : "s",
			            r->units[i].first_constant);
	if (r->counts.switched_units)
		cli_warning(cmd, "%u configuration switch%s no file defines turned on (first: %s): %u unit%s parsed again "
		            "with them, %u call%s only that parse has", r->counts.switches,
		            r->counts.switches == 1 ? "" : "es", r->counts.first_switch, r->counts.switched_units,
		            r->counts.switched_units == 1 ? "" : "s", r->counts.switched_calls,
		            r->counts.switched_calls == 1 ? "" : "s");
	for (unsigned i = 0; i < r->n_units; i++)
		if (r->units[i].errors)
			cli_warning(cmd, "%s: %u error%s (parsed on; first: %s)", r->units[i].file, r->units[i].errors,
			            r->units[i].errors == 1 ? "" : "s", r->units[i].first_error);
	return r;
}

