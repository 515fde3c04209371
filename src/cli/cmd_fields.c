/* cmd_fields.c — `facet fields`: what the reconstruction recovered, as the
 * columns of the Facet paper's Table 1 (dispatched fields, assignment pairs,
 * what a syntactic scan would miss) and Table 2 (mean targets per site under
 * each graph), with the refinement's time. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/load.h"
#include "cli/oracle_cli.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "facet/facet.h"
#include "facet/metrics.h"
#include "pta/andersen.h"
#include "util/clock.h"

static double now(void) { return clock_seconds(); }

static const char options[] = "--format= --tau= --list --no-verify @oracle";

int cmd_fields(int argc, char **argv)
{
	const char *cmd = "fields";
	args_set a;
	int begun = cli_begin(cmd, options, &a, argc, argv);
	if (begun >= 0)
		return begun;
	const char *format = args_str_or(&a, "--format", "text"), *tau = args_str(&a, "--tau");
	facet_options fo;
	facet_options_default(&fo);
	if (!cli_choice(cmd, "format", format, "text\0json\0") || !cli_inputs_check(cmd, a.n_pos, NULL) ||
	    (tau && !cli_parse_tau(cmd, tau, &fo.tau)))
		return EXIT_USAGE;
	cli_run run;
	int rc = cli_run_open(&run, cmd, &a, argv + 1, a.n_pos, NULL);
	if (rc == EXIT_OK)
		rc = cli_run_load(&run, !args_has(&a, "--no-verify"), false);
	if (rc != EXIT_OK)
		return cli_run_close(&run, rc);
	fo.oracle = run.oracle.oracle;
	double t0 = now();
	pta_result *pta = pta_analyze(run.prog, NULL);
	double pta_seconds = now() - t0;
	facet_result *r = facet_refine(pta, &fo);
	json_t *j = facet_fields_report(r, pta, pta_seconds, args_has(&a, "--list"));
	json_object_set_new(j, "oracle", oracle_stats_json(run.oracle.oracle, &run.oracle.cfg));
	if (!strcmp(format, "json")) {
		json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		fputc('\n', stdout);
	} else {
		facet_fields_print_text(stdout, j);
	}
	json_decref(j);
	facet_result_free(r);
	pta_result_free(pta);
	return cli_run_close(&run, EXIT_OK);
}
