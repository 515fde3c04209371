/* cmd_build.c — `facet build`: run the pipeline once and write the catalog.
 *
 * Reads like the pipeline: ingest → points-to (andersen, r0) → refinement
 * (rulesonly, rplus, rpm) → catalog, one call each, data handed forward. */
#include "cli/cli.h"
#include "cli/load.h"
#include "cli/oracle_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cg/graph.h"
#include "facet/facet.h"
#include "oracle/cache.h"
#include "pta/andersen.h"
#include "util/xalloc.h"
#include "util/clock.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: facet build [-o CATALOG] [--tau N] [--no-verify] FILE...\n"
	      "\n"
	      "Links the LLVM bitcode (.bc) or textual IR (.ll) files, runs the whole\n"
	      "analysis once and writes one catalog (an SQLite file) that 'facet query'\n"
	      "and the MCP server read: the program model (functions, call sites,\n"
	      "globals, where function addresses are taken or stored), the call graphs\n"
	      "direct, andersen, r0 and the refinement's rulesonly, rplus and rpm\n"
	      "with per-edge membership, and the refinement's fields, assignments,\n"
	      "decisions with warrants and residual questions. The schema is in docs/catalog.md.\n"
	      "\n"
	      "  -o CATALOG    output file (default: the first input with .facet in\n"
	      "                place of .bc/.ll); written to a temporary file and\n"
	      "                renamed, so it is never half-written\n"
	      "  --tau N       abstention threshold of the refinement (default 2)\n"
	      "  --capture DIR PROGRAM  in place of FILE...: PROGRAM's module from a\n"
	      "                'facet capture' directory (see facet capture --help)\n"
	      "  --no-verify   skip LLVM's module verifier\n"
	      "  -h, --help    this text\n"
	      "\n"
	      "The residual oracle (default none). With --oracle-cache FILE the cache's\n"
	      "answers are also stored in the catalog (table oracle_answers); a later\n"
	      "build replays them with --oracle-cache OLD.facet --oracle-replay-only.\n"
	      "\n"
	      "%s"
	      "\n"
	      "Prints one summary line on stderr. Exit codes: 0 success, 1 bad input,\n"
	      "2 usage error.\n",
	      cli_oracle_help);
}

static double now(void) { return clock_seconds(); }

/* A progress line on a terminal (long inputs take tens of seconds). */
static void progress(const char *what)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\rfacet build: %-40s", what);
}

static void progress_done(void)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r%60s\r", "");
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

int cmd_build(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	const char *output = NULL, *tau_s = NULL;
	cli_oracle_args oargs = {0};
	bool verify = true;
	const char *capture_dir = NULL, *capture_prog = NULL;   /* --capture DIR PROGRAM */
	char **files = argv + 1;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		int r;
		if ((r = cli_option("build", argc, argv, &i, "-o", &output)) ||
		    (r = cli_option("build", argc, argv, &i, "--output", &output)) ||
		    (r = cli_option("build", argc, argv, &i, "--tau", &tau_s)) ||
		    (r = cli_oracle_option("build", argc, argv, &i, &oargs))) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (strcmp(argv[i], "--capture") == 0) {
			if (i + 2 >= argc) {
				fputs("facet build: --capture needs a capture directory and a program\n", stderr);
				return EXIT_USAGE;
			}
			capture_dir = argv[i + 1];
			capture_prog = argv[i + 2];
			i += 2;
		} else if (strcmp(argv[i], "--no-verify") == 0) {
			verify = false;
		} else if (strcmp(argv[i], "--") == 0) {
			for (i++; i < argc; i++)
				files[nfiles++] = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1] != 0) {
			fprintf(stderr, "facet build: unknown option '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (capture_dir && nfiles > 0) {
		fputs("facet build: give either --capture DIR PROGRAM or bitcode files\n", stderr);
		return EXIT_USAGE;
	}
	if (nfiles == 0 && !capture_dir) {
		fputs("facet build: no input files (see --help)\n", stderr);
		return EXIT_USAGE;
	}
	unsigned tau = 2;
	if (tau_s && !cli_parse_tau("build", tau_s, &tau))
		return EXIT_USAGE;
	/* --capture: the catalog is named after the program (PROG.facet here). */
	char *out = output ? xstrdup(output)
	                   : default_output(capture_prog ? (strrchr(capture_prog, '/') ? strrchr(capture_prog, '/') + 1
	                                                                               : capture_prog)
	                                                 : files[0]);
	/* A catalog is never changed in place (readers open it immutable): one
	 * may serve as the answers to replay, not as the cache to write. */
	if (oargs.cache && !oargs.replay_only && strlen(oargs.cache) > 6 &&
	    strcmp(oargs.cache + strlen(oargs.cache) - 6, ".facet") == 0) {
		fprintf(stderr, "facet build: --oracle-cache %s is a catalog: replay from it with --oracle-replay-only, "
		        "or give a cache file of its own\n", oargs.cache);
		free(out);
		return EXIT_USAGE;
	}
	cli_oracle orc;
	int orc_rc = cli_oracle_open("build", &oargs, &orc);
	if (orc_rc != EXIT_OK) {
		free(out);
		return orc_rc;
	}
	char oracle_name[256];
	snprintf(oracle_name, sizeof oracle_name, "%s%s%s", oargs.backend ? oargs.backend : "none",
	         orc.cfg.model ? ":" : "", orc.cfg.model ? orc.cfg.model : "");

	char *captured = NULL;   /* the extracted module, removed once read */
	if (capture_dir) {
		if (!(captured = cli_capture_module("build", capture_dir, capture_prog))) {
			cli_oracle_close("build", &orc);
			free(out);
			return EXIT_INPUT;
		}
		files[nfiles++] = captured;
	}
	facet_error err = {0};
	char fingerprint[17];
	if (!catalog_fingerprint((const char *const *)files, (unsigned)nfiles, tau, oracle_name, fingerprint, &err)) {
		fprintf(stderr, "facet build: error: %s\n", err.msg);
		cli_oracle_close("build", &orc);
		free(out);
		if (captured)
			unlink(captured);
		free(captured);
		return EXIT_INPUT;
	}

	double t0 = now();
	progress("reading and linking the inputs...");
	fflush(stderr);
	ir_program *p = cli_load("build", files, nfiles, verify);
	if (captured)
		unlink(captured);
	free(captured);
	progress_done();   /* before ingest's warnings or errors */
	if (!p) {
		cli_oracle_close("build", &orc);
		free(out);
		return EXIT_INPUT;
	}
	double t1 = now();
	progress("points-to analysis...");
	pta_result *pta = pta_analyze(p, NULL);
	catalog_build b = {.prog = p, .tau = tau, .oracle = oracle_name, .fingerprint = fingerprint};
	cg_graph *direct = cg_direct(p), *andersen = pta_callgraph(pta, false), *r0 = pta_callgraph(pta, true);
	b.graphs[CATALOG_DIRECT] = direct;
	b.graphs[CATALOG_ANDERSEN] = andersen;
	b.graphs[CATALOG_R0] = r0;
	double t2 = now();
	facet_options fo;
	facet_options_default(&fo);
	fo.tau = tau;
	fo.oracle = orc.oracle;
	progress("refinement...");
	facet_result *fr = facet_refine(pta, &fo);
	cg_graph *rulesonly = facet_graph(fr, GRAPH_RULES_ONLY), *rplus = facet_graph(fr, GRAPH_RPLUS),
	         *rpm = facet_graph(fr, GRAPH_RPM);
	if (fr->note)
		fprintf(stderr, "facet build: note: %s\n", fr->note);
	b.refine = fr;
	b.graphs[CATALOG_RULESONLY] = rulesonly;
	b.graphs[CATALOG_RPLUS] = rplus;
	b.graphs[CATALOG_RPM] = rpm;
	double t3 = now();
	b.seconds_ingest = t1 - t0;
	b.seconds_pta = t2 - t1;
	b.seconds_refine = t3 - t2;

	b.oracle_answers = orc.cache;
	progress("writing the catalog...");
	bool ok = catalog_write(out, &b, &err);
	progress_done();
	double t4 = now();
	if (ok)
		fprintf(stderr, "facet build: wrote %s (%u functions, %u sites; ingest %.2f s, points-to %.2f s, "
		        "refinement %.2f s, catalog %.2f s)\n", out, p->n_functions, p->n_sites, t1 - t0, t2 - t1, t3 - t2,
		        t4 - t3);
	else
		fprintf(stderr, "facet build: error: %s\n", err.msg);
	cg_free(direct);
	cg_free(andersen);
	cg_free(r0);
	cg_free(rulesonly);
	cg_free(rplus);
	cg_free(rpm);
	facet_result_free(fr);
	if (!cli_oracle_close("build", &orc))
		ok = false;
	pta_result_free(pta);
	ir_program_free(p);
	free(out);
	return ok ? EXIT_OK : EXIT_INPUT;
}
