/* cmd_report.c — `facet report PROG.facet -o DIR`: the catalog as HTML
 * pages (src/report/report.h). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/progress.h"

#include <stdio.h>

#include "report/report.h"

static void on_page(void *arg, unsigned done, unsigned total)
{
	(void)arg;
	cli_progress("site pages", done, total);
}

int cmd_report(int argc, char **argv)
{
	const char *cmd = "report";
	cli_progress_start(cmd);
	args_set a;
	unsigned long max = 0;
	int begun = cli_begin(cmd, "-o= --graph= --max-site-pages=", &a, argc, argv);
	if (begun >= 0)
		return begun;
	const char *out = args_str(&a, "-o"), *max_pages = args_str(&a, "--max-site-pages");
	if (a.n_pos != 1 || !out) {
		cli_error(cmd, "give one catalog and -o DIR (see --help)");
		return EXIT_USAGE;
	}
	if (max_pages && !cli_uint(cmd, "--max-site-pages", max_pages, 0, 10000000, &max))
		return EXIT_USAGE;
	report_options ro = {.graph = args_str(&a, "--graph"), .max_site_pages = (unsigned)max, .progress = on_page};
	report_result res = {0};
	facet_error err = {0};
	bool ok = report_write(argv[1], out, &ro, &res, &err);
	cli_progress_clear();
	if (!ok) {
		cli_error(cmd, "%s", err.msg);
		return EXIT_INPUT;
	}
	fprintf(stderr, "facet report: wrote %s/index.html and %u site pages (%u indirect sites)\n", out,
	        res.site_pages, res.sites_indirect);
	return EXIT_OK;
}
