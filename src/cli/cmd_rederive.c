/* cmd_rederive.c — `facet rederive`: R+, R± or Rules-only derived again from
 * a catalog's saved provenance (R0 and the decisions) under another τ,
 * without reading the bitcode or running any analysis (§3.5: the graphs
 * are functions of the provenance alone; facet_derive does the work). */
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "facet/facet.h"
#include "util/vec.h"
#include "util/xalloc.h"

static void usage(FILE *out)
{
	fputs("usage: facet rederive --catalog PROG.facet [--tau N] [--graph G] [--format F] [--check]\n"
	      "\n"
	      "Derives a refined graph again from the provenance a catalog holds (R0 and\n"
	      "every decision with its outcome and rule), under abstention threshold N:\n"
	      "no bitcode is read and no analysis runs.\n"
	      "\n"
	      "  --catalog P   the catalog (facet build)\n"
	      "  --tau N       abstention threshold (default: the one the catalog was built with)\n"
	      "  --graph G     rpm (default), rplus or rulesonly\n"
	      "  --format F    text (default): one line per indirect site with targets;\n"
	      "                json: {\"graph\", \"tau\", \"sites\": [{\"id\", \"targets\"}]} over\n"
	      "                the indirect sites\n"
	      "  --check       compare with the graph stored in the catalog (meaningful at the\n"
	      "                catalog's own τ) and exit 1 on any difference\n"
	      "  -h, --help    this text\n"
	      "\n"
	      "Exit codes: 0 success, 1 bad catalog (or --check found a difference),\n"
	      "2 usage error.\n",
	      out);
}

typedef struct provenance {
	ir_program shell;          /* only n_sites and n_functions: what cg and facet_derive read */
	char **names;              /* function id -> name */
	bool *indirect;            /* site id -> indirect */
	cg_graph *r0;
	VEC(facet_decision) decisions;
	cg_graph *stored;          /* the graph as the catalog stores it, for --check */
} provenance;

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (s && strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static bool scalar(sqlite3 *db, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	if (ok)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return ok;
}

/* Reads the edges of graph `bit` into g, site by site. */
static bool read_graph(sqlite3 *db, int bit, cg_graph *g, unsigned n_functions)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT site, target FROM edges WHERE (graphs >> ?) & 1 ORDER BY site", -1, &st,
	                       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int(st, 1, bit);
	VEC(unsigned) buf = {0};
	long long cur = -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long site = sqlite3_column_int64(st, 0), target = sqlite3_column_int64(st, 1);
		if (site != cur && cur >= 0) {
			cg_set_targets(g, (unsigned)cur, buf.items, (unsigned)buf.len);
			VEC_CLEAR(&buf);
		}
		cur = site;
		if (site < 0 || (unsigned long long)site >= g->prog->n_sites || target < 0 || target >= n_functions) {
			rc = SQLITE_CORRUPT;
			break;
		}
		VEC_PUSH(&buf, (unsigned)target);
	}
	if (cur >= 0 && rc == SQLITE_DONE)
		cg_set_targets(g, (unsigned)cur, buf.items, (unsigned)buf.len);
	VEC_FREE(&buf);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE;
}

static bool read_decisions(sqlite3 *db, provenance *pv, facet_error *err)
{
	static const char *const facts[] = {"add", "prune"};
	static const char *const outcomes[] = {"supported", "rejected", "residual"};
	const char *rules[FACET_N_RULES];
	for (int r = 0; r < FACET_N_RULES; r++)
		rules[r] = facet_rule_name((facet_rule)r);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT site, function, fact, outcome, rule FROM decisions ORDER BY id", -1, &st,
	                       NULL) != SQLITE_OK) {
		error_set(err, "no decisions table: %s", sqlite3_errmsg(db));
		return false;
	}
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long site = sqlite3_column_int64(st, 0), fn = sqlite3_column_int64(st, 1);
		int fact = lookup(facts, 2, (const char *)sqlite3_column_text(st, 2));
		int outcome = lookup(outcomes, 3, (const char *)sqlite3_column_text(st, 3));
		int rule = lookup(rules, FACET_N_RULES, (const char *)sqlite3_column_text(st, 4));
		if (site < 0 || (unsigned long long)site >= pv->shell.n_sites || fn < 0 ||
		    (unsigned long long)fn >= pv->shell.n_functions || fact < 0 || outcome < 0 || rule < 0) {
			error_set(err, "decision row %zu is not one facet writes", pv->decisions.len + 1);
			sqlite3_finalize(st);
			return false;
		}
		facet_decision d = {.site = (unsigned)site, .function = (unsigned)fn, .fact = (fact_kind)fact,
		                    .outcome = (fact_outcome)outcome, .rule = (facet_rule)rule};
		VEC_PUSH(&pv->decisions, d);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		error_set(err, "reading decisions: %s", sqlite3_errmsg(db));
	return rc == SQLITE_DONE;
}

static bool load(catalog *c, int graph_bit, provenance *pv, facet_error *err)
{
	sqlite3 *db = catalog_db(c);
	long long ns = 0, nf = 0;
	if (!scalar(db, "SELECT coalesce(max(id), -1) + 1 FROM sites", &ns) ||
	    !scalar(db, "SELECT coalesce(max(id), -1) + 1 FROM functions", &nf)) {
		error_set(err, "cannot read sites and functions: %s", sqlite3_errmsg(db));
		return false;
	}
	pv->shell.n_sites = (unsigned)ns;
	pv->shell.n_functions = (unsigned)nf;
	pv->names = xcalloc((size_t)nf + 1, sizeof *pv->names);
	pv->indirect = xcalloc((size_t)ns + 1, sizeof *pv->indirect);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT id, name FROM functions", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			pv->names[sqlite3_column_int64(st, 0)] = xstrdup((const char *)sqlite3_column_text(st, 1));
		sqlite3_finalize(st);
	}
	if (sqlite3_prepare_v2(db, "SELECT id FROM sites WHERE kind = 'indirect'", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			pv->indirect[sqlite3_column_int64(st, 0)] = true;
		sqlite3_finalize(st);
	}
	pv->r0 = cg_new(&pv->shell, "r0");
	pv->stored = cg_new(&pv->shell, "stored");
	if (!read_graph(db, CG_R0, pv->r0, (unsigned)nf) || !read_graph(db, graph_bit, pv->stored, (unsigned)nf)) {
		error_set(err, "reading the edges: %s", sqlite3_errmsg(db));
		return false;
	}
	return read_decisions(db, pv, err);
}

static void provenance_free(provenance *pv)
{
	for (unsigned i = 0; pv->names && i < pv->shell.n_functions; i++)
		free(pv->names[i]);
	free(pv->names);
	free(pv->indirect);
	if (pv->r0)
		cg_free(pv->r0);
	if (pv->stored)
		cg_free(pv->stored);
	VEC_FREE(&pv->decisions);
}

static unsigned differences(const provenance *pv, const cg_graph *g)
{
	unsigned n = 0;
	for (unsigned s = 0; s < pv->shell.n_sites; s++) {
		if (!pv->indirect[s])
			continue;
		bool same = g->n_targets[s] == pv->stored->n_targets[s] &&
		            (!g->n_targets[s] ||
		             !memcmp(g->targets[s], pv->stored->targets[s], g->n_targets[s] * sizeof(unsigned)));
		if (!same && n++ < 10)
			fprintf(stderr, "facet rederive: site %u differs from the stored graph\n", s);
	}
	return n;
}

static void print(const provenance *pv, const cg_graph *g, const char *graph, unsigned tau, bool json)
{
	if (!json) {
		for (unsigned s = 0; s < pv->shell.n_sites; s++) {
			if (!pv->indirect[s])
				continue;
			printf("site %u ->", s);
			for (unsigned i = 0; i < g->n_targets[s]; i++)
				printf(" %s", pv->names[g->targets[s][i]] ? pv->names[g->targets[s][i]] : "?");
			printf("\n");
		}
		return;
	}
	json_t *top = json_object(), *sites = json_array();
	json_object_set_new(top, "graph", json_string(graph));
	json_object_set_new(top, "tau", json_integer(tau));
	for (unsigned s = 0; s < pv->shell.n_sites; s++) {
		if (!pv->indirect[s])
			continue;
		json_t *site = json_object(), *t = json_array();
		json_object_set_new(site, "id", json_integer(s));
		for (unsigned i = 0; i < g->n_targets[s]; i++)
			json_array_append_new(t, json_string(pv->names[g->targets[s][i]] ? pv->names[g->targets[s][i]] : "?"));
		json_object_set_new(site, "targets", t);
		json_array_append_new(sites, site);
	}
	json_object_set_new(top, "sites", sites);
	json_dumpf(top, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(top);
}

typedef struct options {
	const char *catalog, *tau, *graph, *format;
	bool check;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--catalog", options, catalog),
	CLI_OPT_VALUE("--tau", options, tau),
	CLI_OPT_VALUE("--graph", options, graph),
	CLI_OPT_VALUE("--format", options, format),
	CLI_OPT_FLAG("--check", options, check),
	CLI_OPT_END,
};

int cmd_rederive(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	options o = {.graph = "rpm", .format = "text"};
	int npos;
	if (!cli_parse("rederive", table, &o, argc, argv, &npos))
		return EXIT_USAGE;
	if (npos > 0) {
		cli_error("rederive", "unexpected argument '%s' (see --help)", argv[1]);
		return EXIT_USAGE;
	}
	const char *path = o.catalog, *tau_arg = o.tau, *graph = o.graph, *format = o.format;
	bool check = o.check;
	cg_graph_id kind = !strcmp(graph, "rpm") ? CG_RPM : !strcmp(graph, "rplus") ? CG_RPLUS
	                        : !strcmp(graph, "rulesonly") ? CG_RULESONLY : CG_R0;
	bool json = !strcmp(format, "json");
	if (!path || kind == CG_R0 || (!json && strcmp(format, "text") != 0)) {
		fputs(!path ? "facet rederive: --catalog is required (see --help)\n"
		      : kind == CG_R0 ? "facet rederive: --graph is rpm, rplus or rulesonly\n"
		                         : "facet rederive: --format is text or json\n",
		      stderr);
		return EXIT_USAGE;
	}
	facet_error err = {0};
	catalog *c = catalog_open(path, &err);
	if (!c) {
		fprintf(stderr, "facet rederive: %s\n", err.msg);
		return EXIT_INPUT;
	}
	int bit = cg_graph_parse(graph);
	if (!catalog_has_refinement(c) || !catalog_has_graph(c, CG_R0) || !catalog_has_graph(c, bit)) {
		fprintf(stderr, "facet rederive: %s holds no refinement (R0, decisions and %s)\n", path, graph);
		catalog_close(c);
		return EXIT_INPUT;
	}
	const char *built_tau = catalog_meta(c, "tau");
	unsigned tau = built_tau ? (unsigned)strtoul(built_tau, NULL, 10) : 2;
	if (tau_arg && !cli_parse_tau("rederive", tau_arg, &tau)) {
		catalog_close(c);
		return EXIT_USAGE;
	}
	provenance pv = {0};
	int rc = EXIT_OK;
	if (!load(c, bit, &pv, &err)) {
		fprintf(stderr, "facet rederive: %s: %s\n", path, err.msg);
		rc = EXIT_INPUT;
	} else {
		cg_graph *g = facet_derive(&pv.shell, pv.r0, pv.decisions.items, (unsigned)pv.decisions.len, tau, kind);
		if (check) {
			unsigned n = differences(&pv, g);
			fprintf(stderr, "facet rederive: %s at tau %u: %u indirect site%s differ%s from the stored graph\n",
			        graph, tau, n, n == 1 ? "" : "s", n == 1 ? "s" : "");
			rc = n ? EXIT_INPUT : EXIT_OK;
		} else {
			print(&pv, g, graph, tau, json);
		}
		cg_free(g);
	}
	provenance_free(&pv);
	catalog_close(c);
	return rc;
}
