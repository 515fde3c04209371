/* cmd_explain.c — `facet explain`: why a call site has the targets it has:
 * its dispatched field and how it was recovered, every candidate target with
 * its membership in each graph and the warrant of each decision about it,
 * and the residual questions left for an oracle. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/load.h"
#include "cli/oracle_cli.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facet/explain.h"
#include "facet/facet.h"
#include "pta/andersen.h"
#include "query/query.h"

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static const char options[] = "--format= --site= --at= --tau= --all --no-verify @oracle";

/* The selection the options and arguments name: sel, the bitcode files
 * packed at argv + 1 (*nfiles). False after the usage message. */
static bool selection(const args_set *a, char **argv, int *nfiles, facet_explain_select *sel, char *at_file)
{
	const char *cmd = "explain", *at = args_str(a, "--at"), *site = args_str(a, "--site");
	int npos = a->n_pos;
	*nfiles = 0;
	for (int i = 0; i < npos; i++) {
		if (!at && !is_file(argv[1 + i]) && strchr(argv[1 + i], ':'))
			at = argv[1 + i];   /* FILE:LINE as a bare argument */
		else
			argv[1 + (*nfiles)++] = argv[1 + i];
	}
	if (!cli_choice(cmd, "format", args_str_or(a, "--format", "text"), "text\0json\0"))
		return false;
	if (*nfiles == 0 || (!site && !at && !args_has(a, "--all"))) {
		cli_error(cmd, "need input files and one of FILE:LINE, --site ID, --all (see --help)");
		return false;
	}
	sel->all = args_has(a, "--all");
	long long line = 0;
	if (at && (!query_location_parse(at, at_file, PATH_MAX, &line) || line > UINT_MAX)) {
		cli_error(cmd, "'%s' is not FILE:LINE", at);
		return false;
	}
	sel->file = at ? at_file : NULL;
	sel->line = (unsigned)line;
	char *end;
	unsigned long v = site ? strtoul(site, &end, 10) : 0;
	/* strtoul reads "-1" as ULONG_MAX: only digits are a site id. */
	if (site && (!*site || *end || *site < '0' || *site > '9' || v > UINT_MAX)) {
		cli_error(cmd, "--site wants a number, not '%s'", site);
		return false;
	}
	sel->by_site = site != NULL;
	sel->site = (unsigned)v;
	return true;
}

/* An empty selection: why, and the exit code (none is fine with --all). */
static int nothing_selected(const ir_program *p, const facet_explain_select *sel)
{
	if (sel->by_site && sel->site < p->n_sites)
		cli_error("explain", "site %u is a %s call, not an indirect one", sel->site,
		          site_kind_name(p->sites[sel->site].kind));
	else if (sel->by_site)
		cli_error("explain", "no call site %u (the program has %u)", sel->site, p->n_sites);
	else if (sel->file)
		cli_error("explain", "no indirect call site at %s:%u", sel->file, sel->line);
	return sel->all ? EXIT_OK : EXIT_INPUT;
}

static void render(const facet_result *r, json_t *sites, bool json, const cli_oracle *oracle)
{
	if (!json) {
		size_t i;
		json_t *s;
		json_array_foreach(sites, i, s)
			facet_explain_print_text(stdout, s);
		json_decref(sites);
		return;
	}
	json_t *top = facet_explain_answer(r, sites, oracle_stats_json(oracle->oracle, &oracle->cfg));
	json_dumpf(top, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(top);
}

int cmd_explain(int argc, char **argv)
{
	const char *cmd = "explain";
	args_set a;
	int nfiles, begun = cli_begin(cmd, options, &a, argc, argv);
	if (begun >= 0)
		return begun;
	facet_explain_select sel = {0};
	char at_file[PATH_MAX];   /* FILE of FILE:LINE */
	facet_options fo;
	facet_options_default(&fo);
	const char *tau = args_str(&a, "--tau");
	if (!selection(&a, argv, &nfiles, &sel, at_file) || (tau && !cli_parse_tau(cmd, tau, &fo.tau)))
		return EXIT_USAGE;
	cli_run run;
	int rc = cli_run_open(&run, cmd, &a, argv + 1, nfiles, NULL);
	if (rc == EXIT_OK)
		rc = cli_run_load(&run, !args_has(&a, "--no-verify"), false);
	if (rc == EXIT_OK) {
		fo.oracle = run.oracle.oracle;
		pta_result *pta = pta_analyze(run.prog, NULL);
		facet_result *r = facet_refine(pta, &fo);
		if (r->note)
			cli_note(cmd, "%s", r->note);
		cg_graph *andersen = pta_callgraph(pta, false);
		json_t *sites = facet_explain_sites(r, andersen, &sel);
		cg_free(andersen);
		if (json_array_size(sites) == 0)
			rc = nothing_selected(run.prog, &sel);
		render(r, sites, !strcmp(args_str_or(&a, "--format", "text"), "json"), &run.oracle);
		facet_result_free(r);
		pta_result_free(pta);
	}
	return cli_run_close(&run, rc);
}
