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

#include "cg/graph.h"
#include "cg/print.h"
#include "cg/registry.h"

typedef struct options {
	const char *graph, *format, *tau, *capture[2];
	bool no_verify;
	cli_oracle_args oracle;
	cli_view_options view;
	bool source;               /* --source: the PATHs are C files, graph source (facet source) */
	cli_source_args src;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--graph", options, graph),
	CLI_OPT_VALUE("--format", options, format),
	CLI_OPT_VALUE("--tau", options, tau),
	CLI_OPT_PAIR("--capture", options, capture),
	CLI_OPT_FLAG("--no-verify", options, no_verify),
	CLI_OPT_FLAG("--source", options, source),
	CLI_OPT_TABLE(cli_source_opts, options, src),
	CLI_OPT_TABLE(cli_oracle_opts, options, oracle),
	CLI_OPT_TABLE(cli_view_opts, options, view),
	CLI_OPT_END,
};

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

/* A catalog starts with SQLite's header (inkind.h names it for ingest). */
static bool is_catalog(const char *path)
{
	char head[16] = {0};
	FILE *f = fopen(path, "rb");
	bool yes = f && fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, "SQLite format 3", 16) == 0;
	if (f)
		fclose(f);
	return yes;
}

/* --source PATH...: the C files' graph `source`, printed like the others. */
static int print_source(const char *cmd, options *o, char **paths, int n)
{
	int rc = EXIT_USAGE;
	if (!o->source)
		cli_error(cmd, "--compile-commands, -I and -D go with --source PATH... (see --help)");
	else if (o->graph && strcmp(o->graph, "source") != 0)
		cli_error(cmd, "--source makes graph source (not %s)", o->graph);
	else if (n == 0 && !o->src.compile_commands)
		cli_error(cmd, "--source needs PATHs (C files or directories)");
	else if (cli_choice(cmd, "format", o->format ? o->format : "text", "text\0json\0dot\0")) {
		source_result *r = cli_source_analyze(cmd, &o->src, paths, n);
		rc = r ? print(r->graph, o->format ? o->format : "text") : EXIT_INPUT;
		source_result_free(r);
		if (rc == EXIT_OK && !cli_flush(cmd))
			rc = EXIT_INPUT;
	}
	cli_source_args_free(&o->src);
	return rc;
}

int cmd_callgraph(int argc, char **argv)
{
	const char *cmd = "callgraph";
	options o = {0};
	int nfiles;
	int begun = cli_begin(cmd, table, &o, argc, argv, &nfiles);
	if (begun >= 0)
		return begun;
	if (o.source || o.src.compile_commands || o.src.includes.n || o.src.defines.n)
		return print_source(cmd, &o, argv + 1, nfiles);
	if (!cli_inputs_check(cmd, nfiles, o.capture))
		return EXIT_USAGE;
	if (nfiles == 1 && !o.capture[0] && is_catalog(argv[1]))   /* a drawing, dot unless told */
		return cli_view_catalog(cmd, argv[1], o.graph, &o.view, o.format ? o.format : "dot");
	if (!o.format)
		o.format = "text";
	const cli_view_options *v = &o.view;
	if (v->root || v->focus || v->depth || v->direction || v->cluster || v->max_nodes || v->hide_external ||
	    !strcmp(o.format, "graphml") || !strcmp(o.format, "svg")) {
		cli_error(cmd, "--root, --focus, --cluster, --hide-external, graphml and svg draw from a catalog, where "
		          "every edge has its warrant: 'facet build FILE... -o PROG.facet', then 'facet callgraph "
		          "PROG.facet --format %s ...'", strcmp(o.format, "text") ? o.format : "dot");
		return EXIT_USAGE;
	}
	/* R± like every other command (it was direct before issue 21); LLVM's
	 * own format exists for the direct graph only. */
	if (!o.graph)
		o.graph = strcmp(o.format, "llvm") == 0 ? "direct" : "rpm";
	int id = cg_graph_parse(o.graph);
	if (id < 0) {
		cli_error(cmd, "unknown graph '%s' (%s)", o.graph, cg_graph_list());
		return EXIT_USAGE;
	}
	bool want_pta = cg_graph_info_of((cg_graph_id)id)->needs_model;
	facet_graph_options gopt = {.tau_set = o.tau != NULL, .progress = cli_graph_progress};
	if ((o.tau && !cli_parse_tau(cmd, o.tau, &gopt.tau)) ||
	    !cli_choice(cmd, "format", o.format, "text\0json\0dot\0llvm\0"))
		return EXIT_USAGE;
	bool llvm = !strcmp(o.format, "llvm");
	if (llvm && want_pta) {
		cli_error(cmd, "--format llvm prints LLVM's own (direct) call graph only");
		return EXIT_USAGE;
	}
	cli_run run;
	int rc = cli_run_open(&run, cmd, &o.oracle, argv + 1, nfiles, o.capture);
	if (rc == EXIT_OK)
		rc = cli_run_load(&run, !o.no_verify, !want_pta);
	if (rc == EXIT_OK && llvm) {
		cg_print_llvm(stdout, run.prog);
	} else if (rc == EXIT_OK) {
		gopt.oracle = run.oracle.oracle;
		facet_graphs *set = facet_graphs_new(run.prog, &gopt);
		cg_graph *g = cli_graph(cmd, set, o.graph);
		rc = g ? print(g, o.format) : EXIT_USAGE;
		cg_free(g);
		facet_graphs_free(set);
	}
	return cli_run_close(&run, rc);
}
