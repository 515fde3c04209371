/* cmd_rederive.c — `facet rederive`: R+, R± or Rules-only derived again from
 * a catalog's saved provenance (R0 and the decisions) under another τ,
 * without reading the bitcode or running any analysis (§3.5: the graphs
 * are functions of the provenance alone; facet_derive does the work). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/provenance.h"
#include "facet/facet.h"

int cmd_rederive(int argc, char **argv)
{
	args_set a;
	int begun = cli_begin("rederive", "--catalog= --tau= --graph= --format= --check", &a, argc, argv);
	if (begun >= 0)
		return begun;
	if (a.n_pos > 0) {
		cli_error("rederive", "unexpected argument '%s' (see --help)", argv[1]);
		return EXIT_USAGE;
	}
	const char *cmd = "rederive", *path = args_str(&a, "--catalog"), *graph = args_str_or(&a, "--graph", "rpm");
	const char *format = args_str_or(&a, "--format", "text"), *tau_s = args_str(&a, "--tau");
	int id = cg_graph_parse(graph);
	if (!path || id < 0 || !cg_graph_info_of((cg_graph_id)id)->refined) {
		cli_error(cmd, !path ? "--catalog is required (see --help)" : "--graph is rpm, rplus or rulesonly");
		return EXIT_USAGE;
	}
	if (!cli_choice(cmd, "format", format, "text\0json\0"))
		return EXIT_USAGE;
	facet_error err = {0};
	catalog *c = catalog_open(path, &err);
	if (!c) {
		cli_error(cmd, "%s", err.msg);
		return EXIT_INPUT;
	}
	if (!catalog_has_refinement(c) || !catalog_has_graph(c, CG_R0) || !catalog_has_graph(c, id)) {
		cli_error(cmd, "%s holds no refinement (R0, decisions and %s)", path, graph);
		catalog_close(c);
		return EXIT_INPUT;
	}
	const char *built_tau = catalog_meta(c, "tau");
	unsigned tau = built_tau ? (unsigned)strtoul(built_tau, NULL, 10) : 2;
	if (tau_s && !cli_parse_tau(cmd, tau_s, &tau)) {
		catalog_close(c);
		return EXIT_USAGE;
	}
	catalog_provenance pv = {0};
	int rc = EXIT_OK;
	if (!catalog_provenance_read(c, id, &pv, &err)) {
		cli_error(cmd, "%s: %s", path, err.msg);
		rc = EXIT_INPUT;
	} else {
		cg_graph *g = facet_derive(&pv.shell, pv.r0, pv.decisions, pv.n_decisions, tau, (cg_graph_id)id);
		if (args_has(&a, "--check")) {
			unsigned first[10], n = catalog_provenance_differences(&pv, g, first, 10);
			for (unsigned i = 0; i < n && i < 10; i++)
				fprintf(stderr, "facet rederive: site %u differs from the stored graph\n", first[i]);
			fprintf(stderr, "facet rederive: %s at tau %u: %u indirect site%s differ%s from the stored graph\n",
			        graph, tau, n, n == 1 ? "" : "s", n == 1 ? "s" : "");
			rc = n ? EXIT_INPUT : EXIT_OK;
		} else {
			catalog_provenance_print(stdout, &pv, g, graph, tau, !strcmp(format, "json"));
		}
		cg_free(g);
	}
	catalog_provenance_free(&pv);
	catalog_close(c);
	return rc;
}
