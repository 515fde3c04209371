/* source_cli.c — the source options and the call that reads a tree (source_cli.h). */
#include "cli/source_cli.h"

#include <stdio.h>

#include "cli/cli.h"

const cli_opt cli_source_opts[] = {
	CLI_OPT_VALUE("--compile-commands", cli_source_args, compile_commands),
	CLI_OPT_LIST("-I", cli_source_args, includes),
	CLI_OPT_LIST("-D", cli_source_args, defines),
	CLI_OPT_END,
};

source_result *cli_source_analyze(const char *cmd, const cli_source_args *a, char **paths, int n)
{
	source_options so = {.paths = (const char *const *)paths, .n_paths = (unsigned)n,
	                     .compile_commands = a->compile_commands,
	                     .includes = a->includes.v, .n_includes = a->includes.n,
	                     .defines = a->defines.v, .n_defines = a->defines.n};
	facet_error err = {0};
	source_result *r = source_analyze(&so, &err);
	if (!r) {
		cli_error(cmd, "%s", err.msg);
		return NULL;
	}
	for (unsigned i = 0; i < r->n_standins; i++)
		cli_warning(cmd, "%s is missing: stood in by %s with its %u configuration switch%s on",
		            r->standins[i].header, r->standins[i].template_path, r->standins[i].switches,
		            r->standins[i].switches == 1 ? "" : "es");
	for (unsigned i = 0; i < r->n_units; i++)
		if (r->units[i].errors)
			cli_warning(cmd, "%s: %u error%s (parsed on; first: %s)", r->units[i].file, r->units[i].errors,
			            r->units[i].errors == 1 ? "" : "s", r->units[i].first_error);
	return r;
}

void cli_source_args_free(cli_source_args *a)
{
	cli_list_free(&a->includes);
	cli_list_free(&a->defines);
}
