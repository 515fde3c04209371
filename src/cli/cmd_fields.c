/* cmd_fields.c — `facet fields`: what the reconstruction recovered, as the
 * columns of the Facet paper's Table 1 (dispatched fields, assignment pairs,
 * what a syntactic scan would miss) and Table 2 (mean targets per site under
 * each graph), with the refinement's time. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/load.h"
#include "cli/oracle_cli.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "facet/facet.h"
#include "pta/andersen.h"
#include "util/clock.h"

static void usage(FILE *out)
{
	fputs("usage: facet fields [--list] [--format text|json] [--tau N] [--no-verify] FILE...\n"
	      "\n"
	      "Runs the analysis on the LLVM bitcode (.bc) or IR (.ll) FILEs and reports\n"
	      "the dispatch-relation reconstruction:\n"
	      "  indirect sites, and the share whose dispatched field is a struct field,\n"
	      "  a global function pointer or global array, or unrecovered (with reasons);\n"
	      "  assignment pairs (S.m, f) over all function-pointer fields, and the share\n"
	      "  a syntactic scan (initializers and stores of a function constant) misses;\n"
	      "  mean targets per indirect site under andersen, r0, rulesonly, rplus, rpm\n"
	      "  (over the sites each graph gives a target; ratio = r0 / rpm);\n"
	      "  seconds spent in the points-to analysis and in the refinement.\n"
	      "\n"
	      "  --list        also list every field: key, signature, |init|, |F|, sites\n"
	      "  --format F    text (default) or json\n"
	      "  --tau N       abstention threshold (default 2)\n"
	      "  --no-verify   skip LLVM's module verifier\n"
	      "  -h, --help    this text\n"
	      "\n"
	      "The residual oracle (the accounting is reported as \"oracle\"):\n",
	      out);
	fputs(cli_oracle_help, out);
}

static double now(void) { return clock_seconds(); }

/* Mean targets over the indirect sites g gives at least one. */
static double mean_targets(const cg_graph *g, const facet_result *r, unsigned *nonempty)
{
	unsigned long long sum = 0;
	unsigned n = 0;
	for (unsigned i = 0; i < r->n_sites; i++) {
		unsigned k = g->n_targets[r->sites[i].site];
		if (k) {
			sum += k;
			n++;
		}
	}
	*nonempty = n;
	return n ? (double)sum / n : 0.0;
}

static json_t *report(const facet_result *r, const pta_result *pta, double pta_seconds, bool list)
{
	json_t *top = json_object();
	unsigned n_field = 0, n_global = 0, n_array = 0, n_unrec = 0, n_named = 0;
	json_t *reasons = json_object();
	for (unsigned i = 0; i < r->n_sites; i++) {
		const facet_site *s = &r->sites[i];
		switch (s->status) {
		case DISP_FIELD: n_field++; break;
		case DISP_GLOBAL: n_global++; break;
		case DISP_ARRAY: n_array++; break;
		case DISP_NAMED: n_named++; break;
		case DISP_UNRECOVERED: {
			n_unrec++;
			const char *why = s->reason ? s->reason : "?";
			json_t *c = json_object_get(reasons, why);
			json_object_set_new(reasons, why, json_integer(c ? json_integer_value(c) + 1 : 1));
			break;
		}
		}
	}
	unsigned long long pairs = 0, scan = 0;
	for (unsigned f = 0; f < r->n_fields; f++) {
		const facet_field *fl = &r->fields[f];
		pairs += fl->n_F;
		for (unsigned k = 0; k < fl->n_F; k++) {
			bool seen = false;
			for (unsigned a = 0; a < fl->n_assigns && !seen; a++)
				seen = fl->assigns[a].function == fl->F[k] && fl->assigns[a].constant;
			scan += seen;
		}
	}
	double n = r->n_sites ? r->n_sites : 1;
	json_object_set_new(top, "indirect_sites", json_integer(r->n_sites));
	json_object_set_new(top, "field_pct", json_real(100.0 * n_field / n));
	json_object_set_new(top, "array_global_pct", json_real(100.0 * (n_array + n_global) / n));
	json_object_set_new(top, "unrecovered_pct", json_real(100.0 * n_unrec / n));
	json_object_set_new(top, "sites_field", json_integer(n_field));
	json_object_set_new(top, "sites_global", json_integer(n_global));
	json_object_set_new(top, "sites_array", json_integer(n_array));
	json_object_set_new(top, "sites_unrecovered", json_integer(n_unrec));
	/* Calls that name their callee through a mismatched declaration: their own kind. */
	json_object_set_new(top, "sites_named", json_integer(n_named));
	json_object_set_new(top, "named_pct", json_real(100.0 * n_named / n));
	json_object_set_new(top, "unrecovered_reasons", reasons);
	json_object_set_new(top, "fields", json_integer(r->n_fields));
	json_object_set_new(top, "assignment_pairs", json_integer((json_int_t)pairs));
	json_object_set_new(top, "scan_misses_pct", json_real(pairs ? 100.0 * (double)(pairs - scan) / (double)pairs : 0.0));
	json_object_set_new(top, "decisions", json_integer(r->n_decisions));
	json_object_set_new(top, "questions", json_integer(r->n_questions));
	unsigned abstaining = 0;
	for (unsigned i = 0; i < r->n_sites; i++)
		abstaining += r->sites[i].abstains;
	json_object_set_new(top, "abstaining_sites", json_integer(abstaining));

	json_t *means = json_object();
	cg_graph *andersen = pta_callgraph(pta, false);
	const struct { const char *name; cg_graph *g; } gs[] = {
		{"andersen", andersen}, {"r0", facet_graph(r, CG_R0)}, {"rulesonly", facet_graph(r, CG_RULESONLY)},
		{"rplus", facet_graph(r, CG_RPLUS)}, {"rpm", facet_graph(r, CG_RPM)},
	};
	double r0_mean = 0, rpm_mean = 0;
	for (size_t i = 0; i < sizeof gs / sizeof *gs; i++) {
		unsigned nonempty;
		double m = mean_targets(gs[i].g, r, &nonempty);
		json_t *g = json_object();
		json_object_set_new(g, "mean_targets", json_real(m));
		json_object_set_new(g, "sites_with_targets", json_integer(nonempty));
		json_object_set_new(g, "empty_sites", json_integer(r->n_sites - nonempty));
		json_object_set_new(means, gs[i].name, g);
		if (!strcmp(gs[i].name, "r0"))
			r0_mean = m;
		if (!strcmp(gs[i].name, "rpm"))
			rpm_mean = m;
		cg_free(gs[i].g);
	}
	json_object_set_new(top, "graphs", means);
	json_object_set_new(top, "ratio_r0_rpm", json_real(rpm_mean > 0 ? r0_mean / rpm_mean : 0.0));
	json_object_set_new(top, "pta_seconds", json_real(pta_seconds));
	json_object_set_new(top, "refine_seconds", json_real(r->seconds));
	json_object_set_new(top, "note", r->note ? json_string(r->note) : json_null());
	if (list) {
		json_t *fl = json_array();
		for (unsigned f = 0; f < r->n_fields; f++) {
			const facet_field *x = &r->fields[f];
			json_t *j = json_object();
			json_object_set_new(j, "key", json_string(x->key));
			json_object_set_new(j, "name", json_string(x->name));
			json_object_set_new(j, "signature", json_string(x->sig_text));
			json_object_set_new(j, "init", json_integer(x->n_init));
			json_object_set_new(j, "assigned", json_integer(x->n_F));
			json_object_set_new(j, "sites", json_integer(x->n_sites));
			json_array_append_new(fl, j);
		}
		json_object_set_new(top, "field_list", fl);
	}
	return top;
}

static void print_text(json_t *j)
{
	printf("indirect sites       %lld\n", (long long)json_integer_value(json_object_get(j, "indirect_sites")));
	printf("dispatched field     %.1f%% struct field, %.1f%% array or global, %.1f%% unrecovered\n",
	       json_real_value(json_object_get(j, "field_pct")), json_real_value(json_object_get(j, "array_global_pct")),
	       json_real_value(json_object_get(j, "unrecovered_pct")));
	const char *why;
	json_t *c;
	if (json_integer_value(json_object_get(j, "sites_named")))
		printf("  named through a mismatched or unprototyped declaration: %lld (%.1f%%)\n",
		       (long long)json_integer_value(json_object_get(j, "sites_named")),
		       json_real_value(json_object_get(j, "named_pct")));
	json_object_foreach(json_object_get(j, "unrecovered_reasons"), why, c)
		printf("  unrecovered: %lld  %s\n", (long long)json_integer_value(c), why);
	printf("fields               %lld\n", (long long)json_integer_value(json_object_get(j, "fields")));
	printf("assignment pairs     %lld (a syntactic scan misses %.1f%%)\n",
	       (long long)json_integer_value(json_object_get(j, "assignment_pairs")),
	       json_real_value(json_object_get(j, "scan_misses_pct")));
	printf("decisions            %lld; %lld sites abstain; %lld residual questions\n",
	       (long long)json_integer_value(json_object_get(j, "decisions")),
	       (long long)json_integer_value(json_object_get(j, "abstaining_sites")),
	       (long long)json_integer_value(json_object_get(j, "questions")));
	printf("mean targets per site (over the sites a graph resolves; empty sites in brackets)\n");
	const char *name;
	json_t *g;
	json_object_foreach(json_object_get(j, "graphs"), name, g)
		printf("  %-10s %8.2f  [%lld empty]\n", name, json_real_value(json_object_get(g, "mean_targets")),
		       (long long)json_integer_value(json_object_get(g, "empty_sites")));
	printf("ratio r0/rpm         %.2f\n", json_real_value(json_object_get(j, "ratio_r0_rpm")));
	printf("time                 points-to %.2f s, refinement %.2f s\n",
	       json_real_value(json_object_get(j, "pta_seconds")), json_real_value(json_object_get(j, "refine_seconds")));
	if (json_is_string(json_object_get(j, "note")))
		printf("note                 %s\n", json_string_value(json_object_get(j, "note")));
	json_t *o = json_object_get(j, "oracle");
	if (json_is_object(o)) {
		printf("oracle               %s: %lld questions, %lld queries (%lld requests), %lld cache hits\n",
		       json_string_value(json_object_get(o, "backend")), (long long)json_integer_value(json_object_get(o, "questions")),
		       (long long)json_integer_value(json_object_get(o, "queries")),
		       (long long)json_integer_value(json_object_get(o, "requests")),
		       (long long)json_integer_value(json_object_get(o, "cache_hits")));
		printf("                     %lld answered, %lld unusable, %lld failures, %lld invented names, %lld over caps\n",
		       (long long)json_integer_value(json_object_get(o, "answered")),
		       (long long)json_integer_value(json_object_get(o, "unusable")),
		       (long long)json_integer_value(json_object_get(o, "failures")),
		       (long long)json_integer_value(json_object_get(o, "invented")),
		       (long long)json_integer_value(json_object_get(o, "skipped_cap")));
		printf("                     tokens %lld prompt + %lld completion\n",
		       (long long)json_integer_value(json_object_get(o, "prompt_tokens")),
		       (long long)json_integer_value(json_object_get(o, "completion_tokens")));
	}
	size_t i;
	json_array_foreach(json_object_get(j, "field_list"), i, g)
		printf("%-48s %-40s init %3lld  F %3lld  sites %3lld\n", json_string_value(json_object_get(g, "key")),
		       json_string_value(json_object_get(g, "signature")),
		       (long long)json_integer_value(json_object_get(g, "init")),
		       (long long)json_integer_value(json_object_get(g, "assigned")),
		       (long long)json_integer_value(json_object_get(g, "sites")));
}

typedef struct options {
	const char *format, *tau;
	bool list, no_verify;
	cli_oracle_args oracle;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--format", options, format),
	CLI_OPT_VALUE("--tau", options, tau),
	CLI_OPT_FLAG("--list", options, list),
	CLI_OPT_FLAG("--no-verify", options, no_verify),
	CLI_OPT_TABLE(cli_oracle_opts, options, oracle),
	CLI_OPT_END,
};

int cmd_fields(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	options o = {.format = "text"};
	int nfiles;
	if (!cli_parse("fields", table, &o, argc, argv, &nfiles))
		return EXIT_USAGE;
	const char *format = o.format, *tau_arg = o.tau;
	bool verify = !o.no_verify, list = o.list;
	char **files = argv + 1;
	cli_oracle_args oargs = o.oracle;
	bool json = !strcmp(format, "json");
	if (!json && strcmp(format, "text") != 0) {
		fprintf(stderr, "facet fields: unknown format '%s' (text, json)\n", format);
		return EXIT_USAGE;
	}
	if (nfiles == 0) {
		fputs("facet fields: no input files (see --help)\n", stderr);
		return EXIT_USAGE;
	}
	facet_options fo;
	facet_options_default(&fo);
	if (tau_arg && !cli_parse_tau("fields", tau_arg, &fo.tau))
		return EXIT_USAGE;
	cli_oracle oracle;
	int orc = cli_oracle_open("fields", &oargs, &oracle);
	if (orc != EXIT_OK)
		return orc;
	fo.oracle = oracle.oracle;
	ir_program *p = cli_load("fields", files, nfiles, verify);
	if (!p) {
		cli_oracle_close("fields", &oracle);
		return EXIT_INPUT;
	}
	double t0 = now();
	pta_result *pta = pta_analyze(p, NULL);
	double pta_seconds = now() - t0;
	facet_result *r = facet_refine(pta, &fo);
	json_t *j = report(r, pta, pta_seconds, list);
	json_object_set_new(j, "oracle", cli_oracle_stats_json(&oracle));
	if (json) {
		json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		fputc('\n', stdout);
	} else {
		print_text(j);
	}
	json_decref(j);
	facet_result_free(r);
	pta_result_free(pta);
	ir_program_free(p);
	bool cache_ok = cli_oracle_close("fields", &oracle);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("facet fields: writing output");
		return EXIT_INPUT;
	}
	return cache_ok ? EXIT_OK : EXIT_INPUT;
}
