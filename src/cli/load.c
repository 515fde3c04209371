#include "cli/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ingest.h"
#include "facet/facet.h"
#include "pta/andersen.h"
#include "util/error.h"
#include "util/xalloc.h"

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

struct cli_graphs {
	const char *cmd;
	const ir_program *prog;
	cli_graph_options opt;
	bool have_opt;
	pta_result *pta;           /* computed on first need */
	facet_result *refined;     /* without the oracle: rulesonly, rplus */
	bool noted;
};

cli_graphs *cli_graphs_new(const char *cmd, const ir_program *p, const cli_graph_options *opt)
{
	cli_graphs *s = xcalloc(1, sizeof *s);
	s->cmd = cmd;
	s->prog = p;
	if (opt) {
		s->opt = *opt;
		s->have_opt = true;
	}
	return s;
}

static facet_result *refine(cli_graphs *s, facet_oracle *oracle)
{
	facet_options fo;
	facet_options_default(&fo);
	if (s->have_opt && (s->opt.tau || s->opt.tau_set))
		fo.tau = s->opt.tau;
	fo.oracle = oracle;
	facet_result *fr = facet_refine(s->pta, &fo);
	if (fr->note && !s->noted) {
		fprintf(stderr, "facet %s: note: %s\n", s->cmd, fr->note);
		s->noted = true;
	}
	return fr;
}

cg_graph *cli_graphs_get(cli_graphs *s, const char *name)
{
	if (!cli_graph_known(name)) {
		fprintf(stderr, "facet %s: unknown graph '%s' (direct, andersen, r0, rulesonly, rplus, rpm)\n", s->cmd,
		        name);
		return NULL;
	}
	if (strcmp(name, "direct") == 0)
		return cg_direct(s->prog);
	if (!s->pta)
		s->pta = pta_analyze(s->prog, NULL);
	if (strcmp(name, "andersen") == 0 || strcmp(name, "r0") == 0)
		return pta_callgraph(s->pta, strcmp(name, "r0") == 0);
	facet_graph_kind kind = !strcmp(name, "rulesonly") ? GRAPH_RULES_ONLY
	                        : !strcmp(name, "rplus") ? GRAPH_RPLUS : GRAPH_RPM;
	/* Only R± can adopt an oracle's answer: the other graphs ask nothing. */
	facet_oracle *oracle = kind == GRAPH_RPM && s->have_opt ? s->opt.oracle : NULL;
	if (oracle) {
		facet_result *fr = refine(s, oracle);
		cg_graph *g = facet_graph(fr, kind);
		facet_result_free(fr);
		return g;
	}
	if (!s->refined)
		s->refined = refine(s, NULL);
	return facet_graph(s->refined, kind);
}

void cli_graphs_free(cli_graphs *s)
{
	if (!s)
		return;
	facet_result_free(s->refined);
	pta_result_free(s->pta);
	free(s);
}

cg_graph *cli_graph(const char *cmd, const ir_program *p, const char *name, const cli_graph_options *opt)
{
	cli_graphs *s = cli_graphs_new(cmd, p, opt);
	cg_graph *g = cli_graphs_get(s, name);
	cli_graphs_free(s);
	return g;
}

bool cli_parse_tau(const char *cmd, const char *s, unsigned *out)
{
	char *end;
	unsigned long v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || *end || v > 1000000) {
		fprintf(stderr, "facet %s: --tau wants an integer from 0 to 1000000, not '%s'\n", cmd, s);
		return false;
	}
	*out = (unsigned)v;
	return true;
}
