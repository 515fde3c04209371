/* report.h — one self-contained HTML report of a catalog: `facet report
 * PROG.facet -o DIR` (docs/report.md).
 *
 * DIR/index.html holds the program's numbers (the paper's Table 1 and
 * Table 2 columns), the distribution of targets per indirect site as an
 * inline SVG figure, the sites sorted by width with their dispatched field
 * and warrants, the residual questions and a search box over functions and
 * sites; DIR/site-N.html, one per indirect site, its targets with their
 * proofs and warrants and a focused SVG of its neighbourhood. Every page is
 * one file: inline CSS, inline script, inline SVG, nothing fetched. Each
 * file is written atomically (util/atomic.h); an existing file in DIR is
 * replaced only when it is one of these pages. */
#ifndef FACET_REPORT_REPORT_H
#define FACET_REPORT_REPORT_H

#include <stdbool.h>

#include "util/error.h"

typedef struct report_options {
	const char *graph;          /* the graph the pages show (NULL: the catalog's default) */
	unsigned max_site_pages;    /* 0: a page for every indirect site */
	/* called after each page with (pages written, pages in all); NULL: none */
	void (*progress)(void *arg, unsigned done, unsigned total);
	void *progress_arg;
} report_options;

typedef struct report_result {
	unsigned site_pages;        /* site-N.html pages written */
	unsigned sites_indirect;
} report_result;

/* Writes the report of the catalog at catalog_path into dir (created when
 * missing). False + err naming the file and the problem. */
bool report_write(const char *catalog_path, const char *dir, const report_options *o, report_result *res,
                  facet_error *err);

#endif
