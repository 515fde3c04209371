/* cmd_build.c — `facet build`: run the pipeline once and write the catalog.
 *
 * Reads like the pipeline: ingest → points-to (andersen, r0) → refinement
 * (rulesonly, rplus, rpm) → catalog, one call each, data handed forward. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/load.h"
#include "cli/opt.h"
#include "cli/progress.h"
#include "cli/oracle_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cg/graph.h"
#include "cxx/cxx.h"
#include "facet/facet.h"
#include "facet/vslot.h"
#include "oracle/cache.h"
#include "pta/andersen.h"
#include "util/xalloc.h"
#include "util/clock.h"

static double now(void) { return clock_seconds(); }

/* The progress line on a terminal (cli/progress.h; long inputs take tens
 * of seconds). */
static void progress(const char *what)
{
	cli_progress(what, 0, 0);
}

static void progress_done(void)
{
	cli_progress_clear();
}

static char *default_output(const char *input)
{
	size_t n = strlen(input);
	char *out = xmalloc(n + 8);
	memcpy(out, input, n + 1);
	char *dot = strrchr(out, '.');
	char *slash = strrchr(out, '/');
	if (dot && (!slash || dot > slash) && (strcmp(dot, ".bc") == 0 || strcmp(dot, ".ll") == 0))
		*dot = 0;
	strcat(out, ".facet");
	return out;
}

typedef struct options {
	const char *output, *tau, *capture[2];
	bool no_verify;
	cli_oracle_args oracle;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("-o", options, output),
	CLI_OPT_VALUE("--output", options, output),
	CLI_OPT_VALUE("--tau", options, tau),
	CLI_OPT_PAIR("--capture", options, capture),
	CLI_OPT_FLAG("--no-verify", options, no_verify),
	CLI_OPT_TABLE(cli_oracle_opts, options, oracle),
	CLI_OPT_END,
};

/* A catalog is never changed in place (readers open it immutable): one may
 * serve as the answers to replay, not as the cache to write. */
static bool cache_is_catalog(const cli_oracle_args *a)
{
	size_t n = a->cache ? strlen(a->cache) : 0;
	return n > 6 && !a->replay_only && strcmp(a->cache + n - 6, ".facet") == 0;
}

/* points-to (andersen, r0) → refinement (rulesonly, rplus, rpm) → catalog,
 * one call each, the data handed forward. */
static bool pipeline(cli_run *run, catalog_build *b, const char *out, facet_error *err)
{
	const ir_program *p = run->prog;
	double t1 = now();
	progress("points-to analysis");
	pta_result *pta = pta_analyze(p, NULL);
	double t2 = now();
	facet_options fo;
	facet_options_default(&fo);
	fo.tau = b->tau;
	fo.oracle = run->oracle.oracle;
	progress("refinement");
	facet_result *fr = facet_refine(pta, &fo);
	if (fr->note)
		cli_note(run->cmd, "%s", fr->note);
	/* R0 is the refinement's own (facet_result.r0), not computed twice. */
	cg_graph *g[CG_N_GRAPHS] = {cg_direct(p), pta_callgraph(pta, false), NULL};
	for (int i = CG_RULESONLY; i < CG_N_GRAPHS; i++)
		if (cg_graph_info_of((cg_graph_id)i)->refined)
			g[i] = facet_graph(fr, (cg_graph_id)i);
	for (int i = CG_CHA; i < CG_VSLOT; i++)
		g[i] = cxx_graph(i, p, pta, fr->r0, g[CG_RPM]);
	facet_vslot vs;   /* vslot with its decisions, for the catalog */
	facet_vslot_run(pta, g[CG_RPM], &vs);
	g[CG_VSLOT] = vs.graph;
	vs.graph = NULL;
	b->vslot_decisions = vs.decisions;
	b->n_vslot_decisions = vs.n_decisions;
	for (int i = 0; i < CG_N_GRAPHS; i++)
		b->graphs[i] = i == CG_R0 ? fr->r0 : g[i];
	b->refine = fr;
	double t3 = now();
	b->seconds_pta = t2 - t1;
	b->seconds_refine = t3 - t2;
	b->oracle_answers = run->oracle.cache;
	progress("writing the catalog");
	bool ok = catalog_write(out, b, err);
	progress_done();
	if (ok)
		fprintf(stderr, "facet build: wrote %s (%u functions, %u sites; ingest %.2f s, points-to %.2f s, "
		        "refinement %.2f s, catalog %.2f s)\n", out, p->n_functions, p->n_sites, b->seconds_ingest,
		        t2 - t1, t3 - t2, now() - t3);
	for (int i = 0; i < CG_N_GRAPHS; i++)
		cg_free(g[i]);
	facet_vslot_free(&vs);
	facet_result_free(fr);
	pta_result_free(pta);
	return ok;
}

/* The catalog's path: -o, else the first input's (--capture: the
 * program's) name with .facet. */
static char *output_path(const options *o, char **files)
{
	if (o->output)
		return xstrdup(o->output);
	const char *prog = o->capture[1], *slash = prog ? strrchr(prog, '/') : NULL;
	return default_output(prog ? (slash ? slash + 1 : prog) : files[0]);
}

int cmd_build(int argc, char **argv)
{
	const char *cmd = "build";
	cli_progress_start(cmd);
	options o = {0};
	int nfiles, begun = cli_begin(cmd, table, &o, argc, argv, &nfiles);
	if (begun >= 0)
		return begun;
	unsigned tau = 2;
	if (!cli_inputs_check(cmd, nfiles, o.capture) ||
	    (o.tau && !cli_parse_tau(cmd, o.tau, &tau)))
		return EXIT_USAGE;
	if (cache_is_catalog(&o.oracle)) {
		cli_error(cmd, "--oracle-cache %s is a catalog: replay from it with --oracle-replay-only, "
		          "or give a cache file of its own", o.oracle.cache);
		return EXIT_USAGE;
	}
	char *out = output_path(&o, argv + 1);
	cli_run run;
	int rc = cli_run_open(&run, cmd, &o.oracle, argv + 1, nfiles, o.capture);
	char oracle_name[256], fingerprint[17];
	snprintf(oracle_name, sizeof oracle_name, "%s%s%s", o.oracle.backend ? o.oracle.backend : "none",
	         run.oracle.cfg.model ? ":" : "", run.oracle.cfg.model ? run.oracle.cfg.model : "");
	catalog_build b = {.tau = tau, .oracle = oracle_name, .fingerprint = fingerprint};
	facet_error err = {0};
	if (rc == EXIT_OK && !catalog_fingerprint((const char *const *)run.files, (unsigned)run.n_files, tau,
	                                          oracle_name, fingerprint, &err)) {
		cli_error(cmd, "%s", err.msg);
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_OK) {
		double t0 = now();
		progress("reading and linking the inputs");
		fflush(stderr);
		rc = cli_run_load(&run, !o.no_verify, false);
		progress_done();   /* before ingest's warnings or errors */
		b.prog = run.prog;
		b.seconds_ingest = now() - t0;
	}
	if (rc == EXIT_OK && !pipeline(&run, &b, out, &err)) {
		cli_error(cmd, "%s", err.msg);
		rc = EXIT_INPUT;
	}
	free(out);
	return cli_run_close(&run, rc);
}
