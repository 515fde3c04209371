/* cmd_score.c — `facet score`: call graphs against observed edges (the
 * Facet paper's Tables 3 and 4, Figure 6's data). Metrics: src/trace/score.h. */
#include "cli/cli.h"
#include "cli/load.h"
#include "cli/opt.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/graph.h"
#include "ir/instrument.h"
#include "trace/observed.h"
#include "trace/score.h"
#include "util/jsonw.h"
#include "util/xalloc.h"

static void usage(FILE *out)
{
	fputs("usage: facet score --trace FILE [--trace FILE...] [--graph G...] [--graph-file FILE...]\n"
	      "                   [--format text|json] [--per-site] [PROG.bc...]\n"
	      "\n"
	      "Scores call graphs against the observed edges that programs built by\n"
	      "`facet trace build` wrote (all the files given merge into one set).\n"
	      "Only observed sites are scored. At a site with predicted set R and\n"
	      "observed set G: P = |R&G|/|R| (0 when R is empty), R = |R&G|/|G|,\n"
	      "F1 = 2PR/(P+R) (0 when P+R = 0); P, R and F1 are averaged over the sites\n"
	      "(per-site macro, as SEA and KallGraph define it). Also: mean targets\n"
	      "per site, sites left empty, sites with exactly one target, and edges\n"
	      "recovered (in R and G), spurious (in R only) and missed (in G only).\n"
	      "\n"
	      "  --trace FILE       observed edges ($FACET_TRACE_OUT of the runs); repeatable\n"
	      "  --graph G          a graph facet builds from PROG: direct, andersen, r0,\n"
	      "                     rulesonly, rplus, rpm (those not built yet are refused);\n"
	      "                     repeatable; default andersen and r0 when PROG is given\n"
	      "  --graph-file FILE  a call graph in facet's JSON format (docs/formats.md),\n"
	      "                     e.g. from another tool; repeatable; sites it does not\n"
	      "                     list count as empty\n"
	      "  --format F         text (default) or json (keys: docs/formats.md)\n"
	      "  --per-site         also each observed site's sets sizes and P/R/F1\n"
	      "  --no-verify        skip LLVM's module verifier on PROG\n"
	      "  -h, --help         this text\n"
	      "\n"
	      "PROG must be the bitcode the traced executable was built from: the trace\n"
	      "carries a fingerprint of it (site count and function names) and a trace\n"
	      "of another build is refused.\n"
	      "\n"
	      "Exit codes: 0 success, 1 bad input (a malformed trace names file and line),\n"
	      "2 usage error.\n",
	      out);
}

/* One scored graph: names per site, owned here. */
typedef struct scored {
	char *label;
	trace_graph g;
	const char ***targets;
	unsigned *n_targets;
	char **strings;            /* names owned (graph files) */
	size_t n_strings;
	trace_score s;
} scored;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void scored_alloc(scored *sc, unsigned n_sites)
{
	sc->targets = xcalloc(n_sites ? n_sites : 1, sizeof *sc->targets);
	sc->n_targets = xcalloc(n_sites ? n_sites : 1, sizeof *sc->n_targets);
	sc->g.n_sites = n_sites;
	sc->g.targets = (const char **const *)sc->targets;
	sc->g.n_targets = sc->n_targets;
	sc->g.label = sc->label;
}

static void scored_free(scored *sc)
{
	for (unsigned i = 0; i < sc->g.n_sites; i++)
		free(sc->targets[i]);
	free(sc->targets);
	free(sc->n_targets);
	for (size_t i = 0; i < sc->n_strings; i++)
		free(sc->strings[i]);
	free(sc->strings);
	free(sc->label);
	trace_score_free(&sc->s);
}

/* The names of g's targets at the observed sites (the only ones scored). */
static void from_cg(scored *sc, const cg_graph *g, const trace_observed *o)
{
	const ir_program *p = g->prog;
	scored_alloc(sc, p->n_sites);
	for (unsigned i = 0; i < o->n_obs_sites; i++) {
		unsigned s = o->sites[i], n = g->n_targets[s];
		const char **names = xcalloc(n ? n : 1, sizeof *names);
		for (unsigned k = 0; k < n; k++)
			names[k] = p->functions[g->targets[s][k]]->name;
		qsort(names, n, sizeof *names, cmp_str);
		sc->targets[s] = names;
		sc->n_targets[s] = n;
	}
}

/* Reads a JSON call graph; prints and returns false on bad input. indirect
 * receives the number of sites of kind "indirect". */
static bool from_json(scored *sc, const char *path, const trace_observed *o, unsigned *indirect)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root) {
		fprintf(stderr, "facet score: error: %s:%d: not a JSON call graph: %s\n", path, jerr.line, jerr.text);
		return false;
	}
	json_t *sites = json_object_get(root, "sites");
	if (!json_is_object(root) || !json_is_array(sites)) {
		fprintf(stderr, "facet score: error: %s: not a facet call graph (no \"sites\" array)\n", path);
		json_decref(root);
		return false;
	}
	json_t *gname = json_object_get(root, "graph");
	sc->label = xstrdup(json_is_string(gname) ? json_string_value(gname) : path);
	size_t n = json_array_size(sites);
	unsigned max_id = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *id = json_object_get(json_array_get(sites, i), "id");
		if (!json_is_integer(id) || json_integer_value(id) < 0 || json_integer_value(id) >= (1LL << 31)) {
			fprintf(stderr, "facet score: error: %s: site #%zu has no valid \"id\"\n", path, i);
			json_decref(root);
			return false;
		}
		if ((unsigned)json_integer_value(id) + 1 > max_id)
			max_id = (unsigned)json_integer_value(id) + 1;
	}
	scored_alloc(sc, max_id);
	*indirect = 0;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		json_t *site = json_array_get(sites, i);
		unsigned id = (unsigned)json_integer_value(json_object_get(site, "id"));
		json_t *kind = json_object_get(site, "kind"), *t = json_object_get(site, "targets");
		if (json_is_string(kind) && strcmp(json_string_value(kind), "indirect") == 0)
			++*indirect;
		if (t && !json_is_array(t)) {
			fprintf(stderr, "facet score: error: %s: site %u: \"targets\" is not an array\n", path, id);
			ok = false;
			break;
		}
		size_t nt = json_array_size(t);
		if (sc->targets[id]) {
			fprintf(stderr, "facet score: error: %s: site %u listed twice\n", path, id);
			ok = false;
			break;
		}
		const char **names = xcalloc(nt ? nt : 1, sizeof *names);
		sc->targets[id] = names;
		for (size_t k = 0; k < nt; k++) {
			json_t *name = json_array_get(t, k);
			if (!json_is_string(name)) {
				fprintf(stderr, "facet score: error: %s: site %u: a target is not a string\n", path, id);
				ok = false;
				break;
			}
			sc->strings = xrealloc(sc->strings, (sc->n_strings + 1) * sizeof *sc->strings);
			sc->strings[sc->n_strings++] = xstrdup(json_string_value(name));
			names[sc->n_targets[id]++] = sc->strings[sc->n_strings - 1];
		}
		qsort(names, sc->n_targets[id], sizeof *names, cmp_str);
		/* Duplicate names would count twice in |R|. */
		unsigned w = 0;
		for (unsigned k = 0; k < sc->n_targets[id]; k++)
			if (w == 0 || strcmp(names[w - 1], names[k]) != 0)
				names[w++] = names[k];
		sc->n_targets[id] = w;
	}
	/* A file that lists the whole program (facet's own output: every
	 * function, direct sites too) must carry the trace's fingerprint. */
	json_t *fns = json_object_get(root, "functions");
	bool has_direct = false;
	for (size_t i = 0; i < n && !has_direct; i++) {
		json_t *kind = json_object_get(json_array_get(sites, i), "kind");
		has_direct = json_is_string(kind) && strcmp(json_string_value(kind), "direct") == 0;
	}
	if (ok && o->have_key && json_is_array(fns) && json_array_size(fns) > 0 && has_direct) {
		uint64_t key = ir_key_begin((unsigned)n);
		for (size_t i = 0; i < json_array_size(fns); i++) {
			json_t *name = json_object_get(json_array_get(fns, i), "name");
			key = ir_key_add(key, json_is_string(name) ? json_string_value(name) : "");
		}
		if (key != o->key) {
			fprintf(stderr, "facet score: error: %s describes another program than the one %s traced "
			                "(fingerprint %016llx, %zu sites; trace %016llx, %u sites)\n",
			        path, o->key_file, (unsigned long long)key, n, (unsigned long long)o->key, o->n_sites);
			ok = false;
		}
	} else if (ok && o->have_key) {
		fprintf(stderr, "facet score: warning: %s does not list the whole program (functions and direct "
		                "sites); cannot check that it is the traced one\n", path);
	}
	json_decref(root);
	return ok;
}

static void print_text(const trace_observed *o, long indirect, scored *gs, unsigned ng, bool per_site)
{
	printf("observed: %u sites", o->n_obs_sites);
	if (indirect >= 0)
		printf(" of %ld indirect (%.1f%%)", indirect, indirect ? 100.0 * o->n_obs_sites / indirect : 0.0);
	printf(", %zu edges, %llu calls, %u process records", o->n_edges, (unsigned long long)o->hits, o->blocks);
	if (o->unknown_hits)
		printf("; %llu calls to functions outside the program at %u sites", (unsigned long long)o->unknown_hits,
		       o->unknown_sites);
	if (o->dropped)
		printf("; %llu calls dropped (runtime table full)", (unsigned long long)o->dropped);
	printf("\n\n%-12s %6s %6s %6s %8s %6s %6s %9s %9s %7s\n", "graph", "P", "R", "F1", "targets", "empty",
	       "one", "recovered", "spurious", "missed");
	for (unsigned i = 0; i < ng; i++) {
		const trace_score *s = &gs[i].s;
		printf("%-12s %6.3f %6.3f %6.3f %8.1f %6u %6u %9llu %9llu %7llu\n", gs[i].label, s->precision, s->recall,
		       s->f1, s->mean_targets, s->empty, s->exactly_one, (unsigned long long)s->recovered,
		       (unsigned long long)s->spurious, (unsigned long long)s->missed);
	}
	if (!per_site)
		return;
	for (unsigned i = 0; i < ng; i++) {
		printf("\n%s per site: site predicted observed recovered P R F1\n", gs[i].label);
		for (unsigned k = 0; k < gs[i].s.sites; k++) {
			const trace_site_score *t = &gs[i].s.per_site[k];
			printf("  %u %u %u %u %.3f %.3f %.3f\n", t->site, t->predicted, t->observed, t->recovered, t->p, t->r,
			       t->f1);
		}
	}
}

static void print_json(const trace_observed *o, long indirect, scored *gs, unsigned ng, bool per_site)
{
	printf("{\"observed\": {\"sites\": %u, ", o->n_obs_sites);
	if (indirect >= 0)
		printf("\"indirect_sites\": %ld, \"coverage\": %.6f, ", indirect,
		       indirect ? (double)o->n_obs_sites / indirect : 0.0);
	printf("\"edges\": %zu, \"calls\": %llu, \"records\": %u, \"unknown_callee_calls\": %llu, "
	       "\"unknown_callee_sites\": %u, \"dropped\": %llu, \"key\": \"%016llx\"},\n \"graphs\": [",
	       o->n_edges, (unsigned long long)o->hits, o->blocks, (unsigned long long)o->unknown_hits,
	       o->unknown_sites, (unsigned long long)o->dropped, (unsigned long long)o->key);
	for (unsigned i = 0; i < ng; i++) {
		const trace_score *s = &gs[i].s;
		printf("%s\n  {\"graph\": ", i ? "," : "");
		jsonw_string(stdout, gs[i].label);
		printf(", \"sites\": %u, \"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f, \"mean_targets\": %.6f, "
		       "\"empty\": %u, \"exactly_one\": %u, \"exactly_one_share\": %.6f, \"recovered\": %llu, "
		       "\"spurious\": %llu, \"missed\": %llu, \"sizes\": [",
		       s->sites, s->precision, s->recall, s->f1, s->mean_targets, s->empty, s->exactly_one,
		       s->sites ? (double)s->exactly_one / s->sites : 0.0, (unsigned long long)s->recovered,
		       (unsigned long long)s->spurious, (unsigned long long)s->missed);
		for (unsigned k = 0; k <= s->max_size; k++)
			printf("%s%u", k ? ", " : "", s->sizes[k]);
		printf("]");
		if (per_site) {
			printf(", \"per_site\": [");
			for (unsigned k = 0; k < s->sites; k++) {
				const trace_site_score *t = &s->per_site[k];
				printf("%s\n    {\"site\": %u, \"predicted\": %u, \"observed\": %u, \"recovered\": %u, "
				       "\"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f}",
				       k ? "," : "", t->site, t->predicted, t->observed, t->recovered, t->p, t->r, t->f1);
			}
			printf("]");
		}
		printf("}");
	}
	printf("]}\n");
}

typedef struct score_options {
	cli_list traces, graphs, graph_files;
	const char *format;
	bool per_site, no_verify;
} score_options;

static const cli_opt table[] = {
	CLI_OPT_LIST("--trace", score_options, traces),
	CLI_OPT_LIST("--graph-file", score_options, graph_files),
	CLI_OPT_LIST("--graph", score_options, graphs),
	CLI_OPT_VALUE("--format", score_options, format),
	CLI_OPT_FLAG("--per-site", score_options, per_site),
	CLI_OPT_FLAG("--no-verify", score_options, no_verify),
	CLI_OPT_END,
};

int cmd_score(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	score_options so = {.format = "text"};
	int nfiles = 0, rc = EXIT_OK;
	if (!cli_parse("score", table, &so, argc, argv, &nfiles)) {
		cli_list_free(&so.traces);
		cli_list_free(&so.graph_files);
		cli_list_free(&so.graphs);
		return EXIT_USAGE;
	}
	char **files = argv + 1;
	const char **traces = so.traces.v, **gfiles = so.graph_files.v, *format = so.format;
	const char **graphs = xcalloc((size_t)argc + 2, sizeof *graphs);
	for (unsigned i = 0; i < so.graphs.n; i++)
		graphs[i] = so.graphs.v[i];
	unsigned nt = so.traces.n, ngr = so.graphs.n, ngf = so.graph_files.n;
	bool verify = !so.no_verify, per_site = so.per_site;
	trace_observed o = {0};
	scored *gs = NULL;
	unsigned ng = 0;
	ir_program *p = NULL;
	bool json = strcmp(format, "json") == 0;
	if (!cli_choice("score", "format", format, "text\0json\0")) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (nt == 0) {
		cli_error("score", "no --trace FILE (see --help)");
		rc = EXIT_USAGE;
		goto done;
	}
	if (nfiles == 0 && ngr > 0) {
		cli_error("score", "--graph needs the program's bitcode (PROG.bc...)");
		rc = EXIT_USAGE;
		goto done;
	}
	if (nfiles == 0 && ngf == 0) {
		cli_error("score", "nothing to score: give PROG.bc (with --graph) or --graph-file (see --help)");
		rc = EXIT_USAGE;
		goto done;
	}
	if (nfiles > 0 && ngr == 0 && ngf == 0) {
		graphs[ngr++] = "andersen";
		graphs[ngr++] = "r0";
	}
	for (unsigned i = 0; i < ngr; i++)
		if (cg_graph_parse(graphs[i]) < 0) {
			cli_error("score", "unknown graph '%s' (%s)", graphs[i], cg_graph_list());
			rc = EXIT_USAGE;
			goto done;
		}

	facet_error err = {0};
	for (unsigned i = 0; i < nt; i++)
		if (!trace_observed_read(&o, traces[i], &err)) {
			fprintf(stderr, "facet score: error: %s\n", err.msg);
			rc = EXIT_INPUT;
			goto done;
		}
	if (!trace_observed_finish(&o, &err)) {
		fprintf(stderr, "facet score: error: %s\n", err.msg);
		rc = EXIT_INPUT;
		goto done;
	}
	if (!o.have_key)
		fprintf(stderr, "facet score: warning: the trace files hold no record (did the program run with "
		                "FACET_TRACE_OUT set?)\n");

	long indirect = -1;
	gs = xcalloc(ngr + ngf + 1, sizeof *gs);
	if (nfiles > 0) {
		bool pta = false;
		for (unsigned i = 0; i < ngr; i++)
			pta |= cg_graph_info_of((cg_graph_id)cg_graph_parse(graphs[i]))->needs_pta;
		p = pta ? cli_load("score", files, nfiles, verify) : cli_load_sites("score", files, nfiles, verify);
		if (!p) {
			rc = EXIT_INPUT;
			goto done;
		}
		uint64_t key = ir_key_begin(p->n_sites);
		for (unsigned i = 0; i < p->n_functions; i++)
			key = ir_key_add(key, p->functions[i]->name);
		if (o.have_key && key != o.key) {
			fprintf(stderr, "facet score: error: %s was traced from another program than %s (trace fingerprint "
			                "%016llx, %u sites; program %016llx, %u sites)\n",
			        o.key_file, files[0], (unsigned long long)o.key, o.n_sites, (unsigned long long)key,
			        p->n_sites);
			rc = EXIT_INPUT;
			goto done;
		}
		const char **names = xcalloc(p->n_functions + 1, sizeof *names);
		for (unsigned i = 0; i < p->n_functions; i++)
			names[i] = p->functions[i]->name;
		bool fits = trace_observed_check_program(&o, p->n_sites, names, p->n_functions, files[0], &err);
		free(names);
		if (!fits) {
			fprintf(stderr, "facet score: error: %s\n", err.msg);
			rc = EXIT_INPUT;
			goto done;
		}
		indirect = 0;
		for (unsigned i = 0; i < p->n_sites; i++)
			indirect += p->sites[i].kind == SITE_INDIRECT;
		for (unsigned i = 0; i < o.n_obs_sites; i++)
			if (p->sites[o.sites[i]].kind != SITE_INDIRECT) {
				fprintf(stderr, "facet score: error: %s: site %u is not an indirect call in %s\n", o.key_file,
				        o.sites[i], files[0]);
				rc = EXIT_INPUT;
				goto done;
			}
		cli_graphs *set = cli_graphs_new("score", p, NULL);
		for (unsigned i = 0; i < ngr; i++) {
			cg_graph *g = cli_graphs_get(set, graphs[i]);
			if (!g) {
				cli_graphs_free(set);
				rc = EXIT_INPUT;
				goto done;
			}
			gs[ng].label = xstrdup(graphs[i]);
			from_cg(&gs[ng], g, &o);
			gs[ng].g.label = gs[ng].label;
			ng++;
			cg_free(g);
		}
		cli_graphs_free(set);
	}
	for (unsigned i = 0; i < ngf; i++) {
		unsigned ind = 0;
		if (!from_json(&gs[ng], gfiles[i], &o, &ind)) {
			ng++;
			rc = EXIT_INPUT;
			goto done;
		}
		gs[ng].g.label = gs[ng].label;
		ng++;
		if (indirect < 0)
			indirect = ind;
	}
	for (unsigned i = 0; i < ng; i++)
		trace_score_compute(&o, &gs[i].g, &gs[i].s);
	if (json)
		print_json(&o, indirect, gs, ng, per_site);
	else
		print_text(&o, indirect, gs, ng, per_site);
	if (!cli_flush("score"))
		rc = EXIT_INPUT;
done:
	for (unsigned i = 0; i < ng; i++)
		scored_free(&gs[i]);
	free(gs);
	if (p)
		ir_program_free(p);
	trace_observed_free(&o);
	cli_list_free(&so.traces);
	cli_list_free(&so.graph_files);
	cli_list_free(&so.graphs);
	free(graphs);
	return rc;
}
