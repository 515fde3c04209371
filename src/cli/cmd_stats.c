/* cmd_stats.c — `facet stats`: what a program is made of. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/load.h"
#include "cli/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/andersen.h"
#include "pta/stats.h"
#include "cli/oracle_cli.h"
#include "facet/facet.h"
#include "facet/metrics.h"

#include <jansson.h>
#include "util/xalloc.h"

static const char options[] = "--format= --refine --no-verify --pta --unmodelled @oracle";

int cmd_stats(int argc, char **argv)
{
	args_set a;
	int begun = cli_begin("stats", options, &a, argc, argv);
	if (begun >= 0)
		return begun;
	int nfiles = a.n_pos;
	const char *format = args_str_or(&a, "--format", "text");
	bool verify = !args_has(&a, "--no-verify"), refine = args_has(&a, "--refine"), list_unmodelled = args_has(&a, "--unmodelled");
	bool pta = args_has(&a, "--pta") || refine || list_unmodelled;
	cli_oracle_args oargs = cli_oracle_args_of(&a);
	char **files = argv + 1;
	if (nfiles == 0) {
		cli_error("stats", "no input files (see --help)");
		return EXIT_USAGE;
	}
	if (!cli_choice("stats", "format", format, "text\0json\0"))
		return EXIT_USAGE;
	if (oargs.backend && !refine) {
		cli_error("stats", "the oracle options need --refine");
		return EXIT_USAGE;
	}
	cli_oracle orc = {0};
	if (refine) {
		int orc_rc = cli_oracle_open("stats", &oargs, &orc);
		if (orc_rc != EXIT_OK)
			return orc_rc;
	}
	cli_progress_start("stats");   /* the line on a terminal, the phase log (FACET_PROGRESS_LOG) */
	cli_progress("reading and linking the inputs", 0, 0);
	ir_program *p = cli_load("stats", files, nfiles, verify);
	if (!p) {
		if (refine)
			cli_oracle_close("stats", &orc);
		return EXIT_INPUT;
	}
	pta_program_stats st = pta_program_stats_of(p);
	pta_options po;
	pta_options_default(&po);
	po.progress = cli_progress_phase;
	if (pta)
		cli_progress("points-to analysis", 0, 0);
	pta_result *r = pta ? pta_analyze(p, &po) : NULL;
	if (r)
		pta_program_stats_add_pta(&st, p, r);
	json_t *rj = NULL;
	if (refine) {
		facet_options fo;
		facet_options_default(&fo);
		fo.oracle = orc.oracle;
		cli_progress("refinement", 0, 0);
		facet_result *fr = facet_refine(r, &fo);
		rj = facet_refine_stats_json(fr);
		json_object_set_new(rj, "oracle", oracle_stats_json(orc.oracle, &orc.cfg));
		facet_result_free(fr);
	}
	cli_progress_finish();
	if (strcmp(format, "json") == 0) {
		char *text = rj ? json_dumps(rj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) : NULL;
		pta_program_stats_print_json(stdout, &st, rj ? "refine" : NULL, text);
		free(text);
	} else {
		pta_program_stats_print(stdout, p, &st);
		if (rj) {
			facet_refine_stats_print(stdout, rj);
			oracle_stats_print(stdout, "oracle:                        ", orc.oracle, &orc.cfg);
		}
	}
	json_decref(rj);
	if (refine)
		cli_oracle_close("stats", &orc);
	for (unsigned i = 0; list_unmodelled && i < r->n_unmodelled; i++)
		printf("  unmodelled: %s\n", r->unmodelled[i]);
	pta_result_free(r);
	ir_program_free(p);
	return EXIT_OK;
}
