/* cmd_trace.c — `facet trace build`: an instrumented executable whose runs
 * record the observed targets of every indirect call. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tbuild.h"

static int trace_build_cmd(int argc, char **argv)
{
	if (args_wants_help(argc, argv)) {
		cli_help(stdout, "trace-build", (const template_value[]){{"runtime", trace_runtime_path()}, {NULL, NULL}});
		return EXIT_OK;
	}
	trace_build_options o = {.verify = true};
	const char **links = calloc((size_t)argc, sizeof *links);
	int rc = EXIT_OK;
	int n = trace_build_split_args(argc, argv, &o, links);
	args_set a;
	if (!cli_args_parse("trace build", "--cc= --runtime= --keep-bc= -o= --no-verify", &a, n, argv)) {
		cli_error("trace build", "link flags go after --");
		rc = EXIT_USAGE;
		goto done;
	}
	int npos = a.n_pos;
	o.cc = args_str(&a, "--cc");
	o.runtime = args_str(&a, "--runtime");
	o.keep_bc = args_str(&a, "--keep-bc");
	o.output = args_str(&a, "-o");
	o.verify = !args_has(&a, "--no-verify");
	if (npos == 0 || !o.output) {
		cli_error("trace build", "%s (see --help)", npos == 0 ? "no input files" : "no -o PROG");
		rc = EXIT_USAGE;
		goto done;
	}
	o.inputs = (const char *const *)(argv + 1);   /* the positionals, packed by cli_parse */
	o.n_inputs = (unsigned)npos;
	facet_error err = {0};
	ir_instrument_stats st = {0};
	if (!trace_build(&o, &st, &err)) {
		cli_error("trace build", "%s", err.msg);
		rc = EXIT_INPUT;
		goto done;
	}
	fprintf(stderr, "facet trace build: %s: %u indirect sites instrumented (of %u call sites), %u functions, "
	                "key %016llx\n",
	        o.output, st.indirect, st.sites, st.functions, (unsigned long long)st.key);
done:
	free(links);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "build") == 0)
		return trace_build_cmd(argc - 1, argv + 1);
	FILE *out = args_wants_help(argc, argv) ? stdout : stderr;
	cli_help(out, "trace", NULL);
	return out == stdout ? EXIT_OK : EXIT_USAGE;
}
