/* cmd_pts.c — `facet pts`: points-to sets of the Andersen analysis, for
 * looking at why a call site got the targets it got. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/andersen.h"
#include "pta/print.h"

int cmd_pts(int argc, char **argv)
{
	args_set a;
	int begun = cli_begin("pts", "--site= --global=", &a, argc, argv);
	if (begun >= 0)
		return begun;
	const char *site = args_str(&a, "--site"), *global = args_str(&a, "--global");
	int nfiles = a.n_pos;
	char **files = argv + 1;
	if (nfiles == 0 || (!site) == (!global)) {
		cli_error("pts", "give input files and exactly one of --site or --global (see --help)");
		return EXIT_USAGE;
	}
	char *end = NULL;
	unsigned long id = site ? strtoul(site, &end, 10) : 0;
	/* strtoul reads "-1" as ULONG_MAX: only digits are a site id. */
	if (site && (!*site || *end || *site < '0' || *site > '9' || id > UINT_MAX)) {
		cli_error("pts", "--site wants a number, not '%s'", site);
		return EXIT_USAGE;
	}
	ir_program *p = cli_load("pts", files, nfiles, true);
	if (!p)
		return EXIT_INPUT;
	pta_result *r = pta_analyze(p, NULL);
	facet_error err = {0};
	int rc = EXIT_OK;
	if (!(site ? pta_print_site(stdout, p, r, (unsigned)id, &err) : pta_print_global(stdout, p, r, global, &err))) {
		cli_error("pts", "%s", err.msg);
		rc = EXIT_INPUT;
	}
	pta_result_free(r);
	ir_program_free(p);
	return rc;
}
