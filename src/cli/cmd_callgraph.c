/* cmd_callgraph.c — `facet callgraph`: print one call graph of the input. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/load.h"
#include "cli/opt.h"
#include "cli/oracle_cli.h"
#include "cli/source_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cg/graph.h"
#include "cg/print.h"
#include "cg/registry.h"

/* --source: the PATHs are C files, graph source (facet source). */
static const char options[] = "--graph= --format= --tau= --capture=2 --no-verify --source @source @oracle @view";

static int print(const cg_graph *g, const char *format)
{
	if (!strcmp(format, "text"))
		cg_print_text(stdout, g);
	else if (!strcmp(format, "json"))
		cg_print_json(stdout, g);
	else
		cg_print_dot(stdout, g);
	return EXIT_OK;
}

/* --source PATH...: the C files' graph `source`, printed like the others. */
static int print_source(const char *cmd, const args_set *a, char **paths, int n)
{
	int rc = EXIT_USAGE;
	const char *graph = args_str(a, "--graph"), *format = args_str_or(a, "--format", "text");
	if (!args_has(a, "--source"))
		cli_error(cmd, "--compile-commands, -I, -D and --[no-]type-fallback go with --source PATH... (see --help)");
	else if (graph && strcmp(graph, "source") != 0)
		cli_error(cmd, "--source makes graph source (not %s)", graph);
	else if (n == 0 && !args_has(a, "--compile-commands"))
		cli_error(cmd, "--source needs PATHs (C files or directories)");
	else if (cli_choice(cmd, "format", format, "text\0json\0dot\0")) {
		source_result *r = cli_source_analyze(cmd, a, paths, n);
		rc = r ? print(r->graph, format) : EXIT_INPUT;
		source_result_free(r);
		if (rc == EXIT_OK && !cli_flush(cmd))
			rc = EXIT_INPUT;
	}
	return rc;
}

static int from_bitcode(const char *cmd, const args_set *a, char **files, int nfiles)
{
	const char *format = args_str_or(a, "--format", "text"), *graph = args_str(a, "--graph"), *tau = args_str(a, "--tau");
	if (cli_any(a, "--root --focus --depth --direction --cluster --max-nodes --hide-external") ||
	    !strcmp(format, "graphml") || !strcmp(format, "svg")) {
		cli_error(cmd, "--root, --focus, --cluster, --hide-external, graphml and svg draw from a catalog, where "
		          "every edge has its warrant: 'facet build FILE... -o PROG.facet', then 'facet callgraph "
		          "PROG.facet --format %s ...'", strcmp(format, "text") ? format : "dot");
		return EXIT_USAGE;
	}
	/* R± like every other command (it was direct before issue 21); LLVM's
	 * own format exists for the direct graph only. */
	if (!graph)
		graph = strcmp(format, "llvm") == 0 ? "direct" : "rpm";
	int id = cg_graph_parse(graph);
	if (id < 0) {
		cli_error(cmd, "unknown graph '%s' (%s)", graph, cg_graph_list());
		return EXIT_USAGE;
	}
	bool want_pta = cg_graph_info_of((cg_graph_id)id)->needs_model;
	facet_graph_options gopt = {.tau_set = tau != NULL, .progress = cli_graph_progress};
	if ((tau && !cli_parse_tau(cmd, tau, &gopt.tau)) || !cli_choice(cmd, "format", format, "text\0json\0dot\0llvm\0"))
		return EXIT_USAGE;
	bool llvm = !strcmp(format, "llvm");
	if (llvm && want_pta) {
		cli_error(cmd, "--format llvm prints LLVM's own (direct) call graph only");
		return EXIT_USAGE;
	}
	cli_run run;
	int rc = cli_run_open(&run, cmd, a, files, nfiles, args_pair(a, "--capture"));
	if (rc == EXIT_OK)
		rc = cli_run_load(&run, !args_has(a, "--no-verify"), !want_pta);
	if (rc == EXIT_OK && llvm) {
		cg_print_llvm(stdout, run.prog);
	} else if (rc == EXIT_OK) {
		gopt.oracle = run.oracle.oracle;
		facet_graphs *set = facet_graphs_new(run.prog, &gopt);
		cg_graph *g = cli_graph(cmd, set, graph);
		rc = g ? print(g, format) : EXIT_USAGE;
		cg_free(g);
		facet_graphs_free(set);
	}
	return cli_run_close(&run, rc);
}

int cmd_callgraph(int argc, char **argv)
{
	const char *cmd = "callgraph";
	args_set a;
	int begun = cli_begin(cmd, options, &a, argc, argv);
	if (begun >= 0)
		return begun;
	int nfiles = a.n_pos;
	const char *const *capture = args_pair(&a, "--capture");
	int rc = EXIT_USAGE;
	if (cli_any(&a, "--source @source"))
		rc = print_source(cmd, &a, argv + 1, nfiles);
	else if (!cli_inputs_check(cmd, nfiles, capture))
		rc = EXIT_USAGE;
	else if (nfiles == 1 && !capture[0] && catalog_is_file(argv[1]))   /* a drawing, dot unless told */
		rc = cli_view_catalog(cmd, argv[1], args_str(&a, "--graph"), &a, args_str_or(&a, "--format", "dot"));
	else
		rc = from_bitcode(cmd, &a, argv + 1, nfiles);
	args_free(&a);
	return rc;
}
