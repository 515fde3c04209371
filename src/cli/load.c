#include "cli/load.h"
#include "cli/progress.h"
#include "cli/cli.h"
#include "cli/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ingest.h"
#include "cxx/cxx.h"
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
		cli_warning(cmd, "%s", warnings.msgs[i]);
	ingest_warnings_free(&warnings);
	if (!p)
		cli_error(cmd, "%s", err.msg);
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
	cli_progress("refinement", 0, 0);
	facet_result *fr = facet_refine(s->pta, &fo);
	if (fr->note && !s->noted) {
		cli_note(s->cmd, "%s", fr->note);
		s->noted = true;
	}
	return fr;
}

cg_graph *cli_graphs_get(cli_graphs *s, const char *name)
{
	int id = cg_graph_parse(name);
	if (id < 0) {
		cli_error(s->cmd, "unknown graph '%s' (%s)", name, cg_graph_list());
		return NULL;
	}
	if (id == CG_DIRECT)
		return cg_direct(s->prog);
	if (cg_graph_info_of((cg_graph_id)id)->from_source) {
		cli_error(s->cmd, "graph %s is made from C files by 'facet source', not from bitcode", name);
		return NULL;
	}
	if (id == CG_CHA || id == CG_RTA)
		return cxx_graph(id, s->prog, NULL, NULL, NULL);
	if (!s->pta) {
		cli_progress("points-to analysis", 0, 0);
		s->pta = pta_analyze(s->prog, NULL);
	}
	if (id == CG_ANDERSEN || id == CG_R0)
		return pta_callgraph(s->pta, id == CG_R0);
	if (id == CG_VTA || id == CG_VSLOT) {   /* over R0 or R± at the sites that are not virtual */
		cg_graph *base = cli_graphs_get(s, id == CG_VTA ? "r0" : "rpm");
		cg_graph *g = base ? cxx_graph(id, s->prog, s->pta, base, base) : NULL;
		cg_free(base);
		return g;
	}
	/* Only R± can adopt an oracle's answer: the other graphs ask nothing. */
	facet_oracle *oracle = id == CG_RPM && s->have_opt ? s->opt.oracle : NULL;
	if (oracle) {
		facet_result *fr = refine(s, oracle);
		cg_graph *g = facet_graph(fr, (cg_graph_id)id);
		facet_result_free(fr);
		return g;
	}
	if (!s->refined)
		s->refined = refine(s, NULL);
	return facet_graph(s->refined, (cg_graph_id)id);
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
	unsigned long v;
	if (!cli_uint(cmd, "--tau", s, 0, 1000000, &v))
		return false;
	*out = (unsigned)v;
	return true;
}

bool cli_inputs_check(const char *cmd, int nfiles, const char *const capture[2])
{
	if (capture && capture[0] && nfiles > 0)
		cli_error(cmd, "give either --capture DIR PROGRAM or bitcode files");
	else if (nfiles == 0 && !(capture && capture[0]))
		cli_error(cmd, "no input files (see --help)");
	else
		return true;
	return false;
}

int cli_run_open(cli_run *r, const char *cmd, const cli_oracle_args *oargs, char **files, int n,
                 const char *const capture[2])
{
	static const cli_oracle_args none = {0};
	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	cli_progress_start(cmd);   /* a line on a terminal once the command runs over a second */
	int rc = cli_oracle_open(cmd, oargs ? oargs : &none, &r->oracle);
	if (rc != EXIT_OK)
		return rc;
	r->files = files;
	r->n_files = n;
	if (capture && capture[0]) {
		if (!(r->captured = cli_capture_module(cmd, capture[0], capture[1])))
			return EXIT_INPUT;
		r->files = &r->captured;
		r->n_files = 1;
	}
	return EXIT_OK;
}

static void drop_captured(cli_run *r)
{
	if (r->captured)
		unlink(r->captured);
	free(r->captured);
	r->captured = NULL;
}

int cli_run_load(cli_run *r, bool verify, bool sites_only)
{
	cli_progress("reading and linking the inputs", 0, 0);
	r->prog = load(r->cmd, r->files, r->n_files, verify, sites_only);
	drop_captured(r);
	return r->prog ? EXIT_OK : EXIT_INPUT;
}

int cli_run_close(cli_run *r, int rc)
{
	cli_progress_clear();
	drop_captured(r);
	ir_program_free(r->prog);
	r->prog = NULL;
	if (r->cmd && !cli_oracle_close(r->cmd, &r->oracle) && rc == EXIT_OK)
		rc = EXIT_INPUT;
	if (r->cmd && !cli_flush(r->cmd) && rc == EXIT_OK)
		rc = EXIT_INPUT;
	return rc;
}
