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

static bool is_link_arg(const char *a)
{
	size_t n = strlen(a);
	if (strncmp(a, "-l", 2) == 0 || strncmp(a, "-L", 2) == 0 || strncmp(a, "-Wl,", 4) == 0 ||
	    strcmp(a, "-pthread") == 0 || strcmp(a, "-rdynamic") == 0 || strcmp(a, "-static") == 0 ||
	    strcmp(a, "-no-pie") == 0)
		return true;
	return (n > 2 && (strcmp(a + n - 2, ".a") == 0 || strcmp(a + n - 2, ".o") == 0)) ||
	       (n > 3 && strcmp(a + n - 3, ".so") == 0) || strstr(a, ".so.") != NULL;
}

typedef struct options {
	const char *cc, *runtime, *keep_bc, *output;
	bool no_verify;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--cc", options, cc),
	CLI_OPT_VALUE("--runtime", options, runtime),
	CLI_OPT_VALUE("--keep-bc", options, keep_bc),
	CLI_OPT_VALUE("-o", options, output),
	CLI_OPT_FLAG("--no-verify", options, no_verify),
	CLI_OPT_END,
};

static int trace_build_cmd(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		cli_help(stdout, "trace-build", (const cli_help_value[]){{"runtime", trace_runtime_path()}, {NULL, NULL}});
		return EXIT_OK;
	}
	trace_build_options o = {.verify = true};
	const char **inputs = calloc((size_t)argc, sizeof *inputs);
	const char **links = calloc((size_t)argc, sizeof *links);
	unsigned ni = 0, nl = 0;
	int rc = EXIT_OK;
	/* Link arguments (libraries, -l, -L, everything after --) and -O
	 * levels go to the compiler as they are; the rest is options and inputs. */
	int n = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			for (i++; i < argc; i++)
				links[nl++] = argv[i];
		} else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2") || !strcmp(a, "-O3") ||
		           !strcmp(a, "-Os")) {
			o.opt_level = a;
		} else if (i + 1 < argc && (!strcmp(a, "-o") || !strcmp(a, "--cc") || !strcmp(a, "--runtime") ||
		                            !strcmp(a, "--keep-bc"))) {
			argv[n++] = argv[i];   /* an option and its value, whatever the value looks like */
			argv[n++] = argv[++i];
		} else if (is_link_arg(a)) {
			links[nl++] = a;
		} else {
			argv[n++] = argv[i];
		}
	}
	options opt = {0};
	int npos;
	if (!cli_parse("trace build", table, &opt, n, argv, &npos)) {
		cli_error("trace build", "link flags go after --");
		rc = EXIT_USAGE;
		goto done;
	}
	for (int i = 0; i < npos; i++)
		inputs[ni++] = argv[1 + i];
	o.cc = opt.cc;
	o.runtime = opt.runtime;
	o.keep_bc = opt.keep_bc;
	o.output = opt.output;
	o.verify = !opt.no_verify;
	if (ni == 0 || !o.output) {
		cli_error("trace build", "%s (see --help)", ni == 0 ? "no input files" : "no -o PROG");
		rc = EXIT_USAGE;
		goto done;
	}
	o.inputs = inputs;
	o.n_inputs = ni;
	o.link_args = links;
	o.n_link_args = nl;
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
	free(inputs);
	free(links);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "build") == 0)
		return trace_build_cmd(argc - 1, argv + 1);
	FILE *out = cli_wants_help(argc, argv) ? stdout : stderr;
	cli_help(out, "trace", NULL);
	return out == stdout ? EXIT_OK : EXIT_USAGE;
}
