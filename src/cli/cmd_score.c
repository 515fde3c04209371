/* cmd_score.c — `facet score`: call graphs against observed edges (the
 * Facet paper's Tables 3 and 4, Figure 6's data). Metrics: src/trace/score.h. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/load.h"
#include "cli/opt.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/graph.h"
#include "cg/registry.h"
#include "trace/graphs.h"
#include "trace/observed.h"
#include "trace/report.h"
#include "trace/score.h"
#include "util/xalloc.h"

/* What scoring needs before it reads anything; EXIT_OK or EXIT_USAGE. */
static int check_options(const args_set *a, int nfiles)
{
	const char *cmd = "score";
	const args_list *graphs = args_all(a, "--graph");
	if (!cli_choice(cmd, "format", args_str_or(a, "--format", "text"), "text\0json\0"))
		return EXIT_USAGE;
	if (!args_has(a, "--trace"))
		cli_error(cmd, "no --trace FILE (see --help)");
	else if (nfiles == 0 && graphs->n > 0)
		cli_error(cmd, "--graph needs the program's bitcode (PROG.bc...)");
	else if (nfiles == 0 && !args_has(a, "--graph-file"))
		cli_error(cmd, "nothing to score: give PROG.bc (with --graph) or --graph-file (see --help)");
	else {
		for (unsigned i = 0; i < graphs->n; i++)
			if (cg_graph_parse(graphs->v[i]) < 0) {
				cli_error(cmd, "unknown graph '%s' (%s)", graphs->v[i], cg_graph_list());
				return EXIT_USAGE;
			}
		return EXIT_OK;
	}
	return EXIT_USAGE;
}

static bool read_traces(const args_list *traces, trace_observed *o)
{
	facet_error err = {0};
	for (unsigned i = 0; i < traces->n; i++)
		if (!trace_observed_read(o, traces->v[i], &err)) {
			cli_error("score", "%s", err.msg);
			return false;
		}
	if (!trace_observed_finish(o, &err)) {
		cli_error("score", "%s", err.msg);
		return false;
	}
	if (!o->have_key)
		cli_warning("score", "the trace files hold no record (did the program run with FACET_TRACE_OUT set?)");
	return true;
}

/* The graphs facet builds from the program: gs[*ng...]; false after the message. */
static bool program_graphs(char **files, int nfiles, bool verify, const char **graphs, unsigned ngr,
                           const trace_observed *o, trace_scored *gs, unsigned *ng, long *indirect)
{
	ir_program *p = trace_graphs_need_model(graphs, ngr) ? cli_load("score", files, nfiles, verify)
	                                                     : cli_load_sites("score", files, nfiles, verify);
	if (!p)
		return false;
	facet_error err = {0};
	facet_graph_options gopt = {.progress = cli_graph_progress};
	char *note;
	bool ok = trace_scored_from_program(gs, ng, graphs, ngr, p, files[0], o, &gopt, indirect, &note, &err);
	if (note)
		cli_note("score", "%s", note);
	if (!ok)
		cli_error("score", "%s", err.msg);
	free(note);
	ir_program_free(p);
	return ok;
}

/* The graph files: gs[*ng...]; false after the message. */
static bool file_graphs(const args_list *files, const trace_observed *o, trace_scored *gs, unsigned *ng,
                        long *indirect)
{
	for (unsigned i = 0; i < files->n; i++) {
		unsigned ind = 0;
		bool unchecked;
		facet_error err = {0};
		bool ok = trace_scored_read_json(&gs[(*ng)++], files->v[i], o, &ind, &unchecked, &err);
		if (!ok) {
			cli_error("score", "%s", err.msg);
			return false;
		}
		if (unchecked)
			cli_warning("score", "%s does not list the whole program (functions and direct sites); cannot check "
			            "that it is the traced one", files->v[i]);
		if (*indirect < 0)
			*indirect = ind;
	}
	return true;
}

int cmd_score(int argc, char **argv)
{
	args_set a;
	int rc = cli_begin("score", "--trace=* --graph-file=* --graph=* --format= --per-site --no-verify", &a, argc, argv);
	if (rc >= 0)
		return rc;
	int nfiles = a.n_pos;
	rc = check_options(&a, nfiles);
	const args_list *sg = args_all(&a, "--graph"), *files = args_all(&a, "--graph-file");
	const char *defaults[] = {"andersen", "r0"}, *format = args_str_or(&a, "--format", "text");
	const char **graphs = sg->n || !nfiles ? sg->v : defaults;
	unsigned ngr = sg->n || !nfiles ? sg->n : 2, ng = 0;
	bool per_site = args_has(&a, "--per-site");
	trace_observed o = {0};
	trace_scored *gs = xcalloc(ngr + files->n + 1, sizeof *gs);
	long indirect = -1;
	if (rc == EXIT_OK &&
	    (!read_traces(args_all(&a, "--trace"), &o) ||
	     (nfiles > 0 &&
	      !program_graphs(argv + 1, nfiles, !args_has(&a, "--no-verify"), graphs, ngr, &o, gs, &ng, &indirect)) ||
	     !file_graphs(files, &o, gs, &ng, &indirect)))
		rc = EXIT_INPUT;
	if (rc == EXIT_OK) {
		for (unsigned i = 0; i < ng; i++) {
			gs[i].g.label = gs[i].label;
			trace_score_compute(&o, &gs[i].g, &gs[i].s);
		}
		if (!strcmp(format, "json"))
			trace_report_json(stdout, &o, indirect, gs, ng, per_site);
		else
			trace_report_text(stdout, &o, indirect, gs, ng, per_site);
		if (!cli_flush("score"))
			rc = EXIT_INPUT;
	}
	for (unsigned i = 0; i < ng; i++)
		trace_scored_free(&gs[i]);
	free(gs);
	trace_observed_free(&o);
	args_free(&a);
	return rc;
}
