/* cmd_report.c — `facet report PROG.facet -o DIR`: the catalog as HTML
 * pages (src/report/report.h). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/progress.h"

#include <stdio.h>

#include "report/report.h"

typedef struct options {
	const char *out, *graph, *max_pages;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("-o", options, out),
	CLI_OPT_VALUE("--graph", options, graph),
	CLI_OPT_VALUE("--max-site-pages", options, max_pages),
	CLI_OPT_END,
};

static void on_page(void *arg, unsigned done, unsigned total)
{
	(void)arg;
	cli_progress("site pages", done, total);
}

int cmd_report(int argc, char **argv)
{
	const char *cmd = "report";
	cli_progress_start(cmd);
	options o = {0};
	int n;
	unsigned long max = 0;
	int begun = cli_begin(cmd, table, &o, argc, argv, &n);
	if (begun >= 0)
		return begun;
	if (n != 1 || !o.out) {
		cli_error(cmd, "give one catalog and -o DIR (see --help)");
		return EXIT_USAGE;
	}
	if (o.max_pages && !cli_uint(cmd, "--max-site-pages", o.max_pages, 0, 10000000, &max))
		return EXIT_USAGE;
	report_options ro = {.graph = o.graph, .max_site_pages = (unsigned)max, .progress = on_page};
	report_result res = {0};
	facet_error err = {0};
	bool ok = report_write(argv[1], o.out, &ro, &res, &err);
	cli_progress_clear();
	if (!ok) {
		cli_error(cmd, "%s", err.msg);
		return EXIT_INPUT;
	}
	fprintf(stderr, "facet report: wrote %s/index.html and %u site pages (%u indirect sites)\n", o.out,
	        res.site_pages, res.sites_indirect);
	return EXIT_OK;
}
