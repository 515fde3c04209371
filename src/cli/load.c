#include "cli/load.h"

#include <stdio.h>
#include <string.h>

#include "ir/ingest.h"
#include "facet/facet.h"
#include "pta/andersen.h"
#include "util/error.h"

static ir_program *load(const char *cmd, char **files, int n, bool verify, bool sites_only)
{
	facet_error err = {0};
	ingest_warnings warnings = {0};
	ingest_options opt = {.verify = verify, .sites_only = sites_only};
	ir_program *p = ir_ingest((const char *const *)files, (unsigned)n, &opt, &warnings, &err);
	for (unsigned i = 0; i < warnings.n; i++)
		fprintf(stderr, "facet %s: warning: %s\n", cmd, warnings.msgs[i]);
	ingest_warnings_free(&warnings);
	if (!p)
		fprintf(stderr, "facet %s: error: %s\n", cmd, err.msg);
	return p;
}

ir_program *cli_load(const char *cmd, char **files, int n, bool verify)
{
	return load(cmd, files, n, verify, false);
}

ir_program *cli_load_sites(const char *cmd, char **files, int n, bool verify)
{
	return load(cmd, files, n, verify, true);
}

int cli_option(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value)
{
	const char *arg = argv[*i];
	size_t len = strlen(name);
	if (strncmp(arg, name, len) != 0)
		return 0;
	if (arg[len] == '=') {
		*value = arg + len + 1;
		return 1;
	}
	if (arg[len] != 0)
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "facet %s: option %s needs a value\n", cmd, name);
		return -1;
	}
	*value = argv[++*i];
	return 1;
}

static const char *const graph_names[] = {"direct", "andersen", "r0", "rulesonly", "rplus", "rpm"};

bool cli_graph_known(const char *name)
{
	for (size_t i = 0; i < sizeof graph_names / sizeof *graph_names; i++)
		if (strcmp(name, graph_names[i]) == 0)
			return true;
	return false;
}

bool cli_graph_needs_pta(const char *name)
{
	return cli_graph_known(name) && strcmp(name, "direct") != 0;
}

cg_graph *cli_graph(const char *cmd, const ir_program *p, const char *name, const cli_graph_options *opt)
{
	if (!cli_graph_known(name)) {
		fprintf(stderr, "facet %s: unknown graph '%s' (direct, andersen, r0, rulesonly, rplus, rpm)\n", cmd, name);
		return NULL;
	}
	if (strcmp(name, "direct") == 0)
		return cg_direct(p);
	pta_result *pta = pta_analyze(p, NULL);
	cg_graph *g;
	if (strcmp(name, "andersen") == 0 || strcmp(name, "r0") == 0) {
		g = pta_callgraph(pta, strcmp(name, "r0") == 0);
	} else {
		facet_options fo;
		facet_options_default(&fo);
		if (opt && (opt->tau || opt->tau_set))
			fo.tau = opt->tau;
		if (opt && !strcmp(name, "rpm"))
			fo.oracle = opt->oracle;   /* only R± can adopt an answer: ask nothing for the others */
		facet_result *fr = facet_refine(pta, &fo);
		if (fr->note)
			fprintf(stderr, "facet %s: note: %s\n", cmd, fr->note);
		facet_graph_kind kind = !strcmp(name, "rulesonly") ? GRAPH_RULES_ONLY
		                        : !strcmp(name, "rplus") ? GRAPH_RPLUS : GRAPH_RPM;
		g = facet_graph(fr, kind);
		facet_result_free(fr);
	}
	pta_result_free(pta);
	return g;
}
