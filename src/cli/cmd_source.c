/* cmd_source.c — `facet source`: a catalog of graph `source` from C files
 * that have no build (src/source/). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/source_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/xalloc.h"

int cmd_source(int argc, char **argv)
{
	const char *cmd = "source";
	args_set a;
	int begun = cli_begin(cmd, "-o|--output= @source", &a, argc, argv);
	if (begun >= 0)
		return begun;
	int npaths = a.n_pos;
	if (npaths == 0 && !args_has(&a, "--compile-commands")) {
		cli_error(cmd, "no PATH (C files or directories; see --help)");
		args_free(&a);
		return EXIT_USAGE;
	}
	int rc = EXIT_INPUT;
	source_result *r = cli_source_analyze(cmd, &a, argv + 1, npaths);
	char *out = args_has(&a, "-o") ? xstrdup(args_str(&a, "-o"))
	                               : catalog_default_path(npaths ? argv[1] : "source", ".c\0.h\0", true);
	facet_error err = {0};
	if (r && !source_write_catalog(r, out, &err)) {
		cli_error(cmd, "%s", err.msg);
	} else if (r) {
		const source_counts *c = &r->counts;
		fprintf(stderr, "facet source: wrote %s (%u units, %u with errors; %u functions; %u direct sites: "
		        "%u ambiguous, %u external; %u indirect sites: %u unresolved, %u targets, %u refuted by Prune-Sig; "
		        "evidence incomplete at %u (%u of them with targets), %u Type-Fallback targets at %u)\n",
		        out, c->units, c->units_with_errors, r->prog->n_functions, c->direct, c->ambiguous, c->external,
		        c->indirect, c->unresolved, c->indirect_edges, c->pruned_sig, c->open, c->open_named,
		        c->fallback_edges, c->fallback_sites);
		rc = EXIT_OK;
	}
	free(out);
	source_result_free(r);
	args_free(&a);
	return rc;
}
