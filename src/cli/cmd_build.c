/* cmd_build.c — `facet build`: run the pipeline once and write the catalog.
 *
 * Parses the options, reads and links the inputs (ingest), then runs the
 * pipeline in one call (catalog/build.h) and says what it wrote. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/load.h"
#include "cli/opt.h"
#include "cli/progress.h"
#include "cli/oracle_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/build.h"
#include "catalog/catalog.h"
#include "util/xalloc.h"
#include "util/clock.h"

static const char options[] = "-o|--output= --tau= --capture=2 --no-verify @oracle";

/* A catalog is never changed in place (readers open it immutable): one may
 * serve as the answers to replay, not as the cache to write. */
static bool cache_is_catalog(const cli_oracle_args *a)
{
	size_t n = a->cache ? strlen(a->cache) : 0;
	return n > 6 && !a->replay_only && strcmp(a->cache + n - 6, ".facet") == 0;
}

/* The refinement's note as facet build's. */
static void on_note(void *arg, const char *note)
{
	cli_note((const char *)arg, "%s", note);
}

/* The catalog's path: -o, else the first input's (--capture: the
 * program's) name with .facet. */
static char *output_path(const args_set *a, char **files)
{
	if (args_str(a, "-o"))
		return xstrdup(args_str(a, "-o"));
	const char *prog = args_pair(a, "--capture")[1], *slash = prog ? strrchr(prog, '/') : NULL;
	return catalog_default_path(prog ? (slash ? slash + 1 : prog) : files[0], ".bc\0.ll\0", false);
}

int cmd_build(int argc, char **argv)
{
	const char *cmd = "build";
	cli_progress_start(cmd);
	args_set a;
	int begun = cli_begin(cmd, options, &a, argc, argv);
	if (begun >= 0)
		return begun;
	int nfiles = a.n_pos;
	const char *const *capture = args_pair(&a, "--capture");
	const char *tau_s = args_str(&a, "--tau");
	cli_oracle_args oa = cli_oracle_args_of(&a);
	unsigned tau = 2;
	if (!cli_inputs_check(cmd, nfiles, capture) || (tau_s && !cli_parse_tau(cmd, tau_s, &tau)))
		return EXIT_USAGE;
	if (cache_is_catalog(&oa)) {
		cli_error(cmd, "--oracle-cache %s is a catalog: replay from it with --oracle-replay-only, "
		          "or give a cache file of its own", oa.cache);
		return EXIT_USAGE;
	}
	char *out = output_path(&a, argv + 1);
	cli_run run;
	int rc = cli_run_open(&run, cmd, &a, argv + 1, nfiles, capture);
	char oracle_name[256], fingerprint[17];
	snprintf(oracle_name, sizeof oracle_name, "%s%s%s", oa.backend ? oa.backend : "none",
	         run.oracle.cfg.model ? ":" : "", run.oracle.cfg.model ? run.oracle.cfg.model : "");
	catalog_build b = {.tau = tau, .oracle = oracle_name, .fingerprint = fingerprint};
	facet_error err = {0};
	if (rc == EXIT_OK && !catalog_fingerprint((const char *const *)run.files, (unsigned)run.n_files, tau,
	                                          oracle_name, fingerprint, &err)) {
		cli_error(cmd, "%s", err.msg);
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_OK) {
		double t0 = clock_seconds();
		cli_progress("reading and linking the inputs", 0, 0);
		fflush(stderr);
		rc = cli_run_load(&run, !args_has(&a, "--no-verify"), false);
		cli_progress_clear();   /* before ingest's warnings or errors */
		b.prog = run.prog;
		b.seconds_ingest = clock_seconds() - t0;
	}
	if (rc == EXIT_OK) {
		b.oracle_answers = run.oracle.cache;
		catalog_build_hooks hooks = {cli_progress_phase, on_note, (void *)cmd};
		double seconds_write;
		bool ok = catalog_build_run(&b, run.oracle.oracle, out, &hooks, &seconds_write, &err);
		cli_progress_clear();
		if (ok)
			fprintf(stderr, "facet build: wrote %s (%u functions, %u sites; ingest %.2f s, points-to %.2f s, "
			        "refinement %.2f s, catalog %.2f s)\n", out, run.prog->n_functions, run.prog->n_sites,
			        b.seconds_ingest, b.seconds_pta, b.seconds_refine, seconds_write);
		else {
			cli_error(cmd, "%s", err.msg);
			rc = EXIT_INPUT;
		}
	}
	free(out);
	return cli_run_close(&run, rc);
}
