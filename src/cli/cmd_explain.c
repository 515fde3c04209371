/* cmd_explain.c — `facet explain`: why a call site has the targets it has:
 * its dispatched field and how it was recovered, every candidate target with
 * its membership in each graph and the warrant of each decision about it,
 * and the residual questions left for an oracle. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/load.h"
#include "cli/oracle_cli.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facet/facet.h"
#include "facet/sig.h"
#include "pta/andersen.h"

static void usage(FILE *out)
{
	fputs("usage: facet explain [options] FILE... (FILE:LINE | --site ID | --at FILE:LINE | --all)\n"
	      "\n"
	      "Runs the whole analysis on the LLVM bitcode (.bc) or IR (.ll) FILEs and\n"
	      "explains the indirect call sites at a source line (FILE:LINE matches the\n"
	      "end of the recorded path: http/ngx_http.c:211), one site by id, or all.\n"
	      "\n"
	      "  --site ID      the site with this id (ids as facet callgraph prints them)\n"
	      "  --at FILE:LINE the indirect sites at this line (also as a bare argument)\n"
	      "  --all          every indirect site\n"
	      "  --tau N        abstention threshold (default 2)\n"
	      "  --format F     text (default) or json (docs/formats.md, \"facet explain\")\n"
	      "  --no-verify    skip LLVM's module verifier\n"
	      "  -h, --help     this text\n"
	      "\n"
	      "The residual oracle (its answers show as decisions with source oracle;\n"
	      "the accounting goes to stderr and, with --format json, to \"oracle\"):\n",
	      out);
	fputs(cli_oracle_help, out);
	fputs("\n"
	      "For each site: the dispatched field (status field, global, array or\n"
	      "unrecovered, and the step that found it: direct, chained, typed), R0's\n"
	      "size and the symbolic result's, whether the site abstains, then per target\n"
	      "whether r0, rulesonly, rplus and rpm hold it and each decision as\n"
	      "fact/outcome/rule/premise/evidence. Premises: true (premise-free),\n"
	      "pi_bind (the projected store is realised), pi_proj (the field key is right\n"
	      "and F misses no assignment), pi_sig (dispatch is well typed).\n"
	      "Exit codes: 0 success, 1 bad input or no such site, 2 usage error.\n",
	      out);
}

typedef struct graphs {
	cg_graph *g[4];            /* r0, rulesonly, rplus, rpm */
} graphs;

/* g[i] is graph CG_R0 + i: the graphs the provenance derives. */
#define graph_names(i) cg_graph_name(CG_R0 + (i))

static bool in_graph(const cg_graph *g, unsigned site, unsigned f)
{
	for (unsigned i = 0; i < g->n_targets[site]; i++)
		if (g->targets[site][i] == f)
			return true;
	return false;
}

/* The functions written into the field that the signature filter kept out
 * of F, each with the place it was written. */
static json_t *rejected_json(const ir_program *p, const facet_field *fl)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < fl->n_rejected; i++) {
		const facet_assign *as = &fl->rejected[i];
		json_t *j = json_object();
		json_object_set_new(j, "function", json_string(p->functions[as->function]->name));
		json_object_set_new(j, "form", json_string(assign_form_name(as->form)));
		json_object_set_new(j, "file", as->loc.file ? json_string(as->loc.file) : json_null());
		json_object_set_new(j, "line", json_integer(as->loc.line));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *field_json(const ir_program *p, const facet_field *fl)
{
	static const char *const kinds[] = {"struct", "global", "array"};
	json_t *j = json_object();
	json_object_set_new(j, "key", json_string(fl->key));
	json_object_set_new(j, "kind", json_string(kinds[fl->kind]));
	json_object_set_new(j, "record", json_string(fl->record));
	json_object_set_new(j, "name", json_string(fl->name));
	json_object_set_new(j, "offset", json_integer((json_int_t)fl->offset));
	json_object_set_new(j, "function_pointer", json_boolean(fl->function_pointer));
	json_object_set_new(j, "signature", json_string(fl->sig_text));
	json_object_set_new(j, "init", json_integer(fl->n_init));
	json_object_set_new(j, "assigned", json_integer(fl->n_F));
	json_object_set_new(j, "signature_rejected", rejected_json(p, fl));
	if (fl->whole_array)   /* a variable index into an array of function pointers */
		json_object_set_new(j, "element", json_string("variable index: any element of the array"));
	return j;
}

static json_t *decision_json(const facet_decision *d)
{
	json_t *j = json_object();
	json_object_set_new(j, "fact", json_string(fact_kind_name(d->fact)));
	json_object_set_new(j, "outcome", json_string(fact_outcome_name(d->outcome)));
	json_object_set_new(j, "rule", json_string(facet_rule_name(d->rule)));
	json_object_set_new(j, "premise", d->premise == PREMISE_NONE ? json_null() : json_string(facet_premise_name(d->premise)));
	json_object_set_new(j, "evidence", d->evidence ? json_string(d->evidence) : json_null());
	json_object_set_new(j, "source", json_string(d->source == SOURCE_ORACLE ? "oracle" : "symbolic"));
	return j;
}

static void add_unique(unsigned *v, unsigned *n, unsigned f)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == f)
			return;
	v[(*n)++] = f;
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const ir_program *p = ctx;
	return strcmp(p->functions[*(const unsigned *)a]->name, p->functions[*(const unsigned *)b]->name);
}

static json_t *site_json(const facet_result *r, const graphs *gs, unsigned idx)
{
	const ir_program *p = r->prog;
	const facet_site *fs = &r->sites[idx];
	const ir_site *s = &p->sites[fs->site];
	json_t *j = json_object();
	json_object_set_new(j, "site", json_integer(fs->site));
	json_object_set_new(j, "caller", json_string(s->caller->name));
	json_object_set_new(j, "file", s->loc.file ? json_string(s->loc.file) : json_null());
	json_object_set_new(j, "line", json_integer(s->loc.line));
	json_object_set_new(j, "column", json_integer(s->loc.col));
	json_t *inl = json_array();
	for (unsigned i = 0; i < s->n_inlined; i++) {
		json_t *f = json_object();
		json_object_set_new(f, "function", json_string(s->inlined_at[i].function ? s->inlined_at[i].function : "?"));
		json_object_set_new(f, "file", s->inlined_at[i].loc.file ? json_string(s->inlined_at[i].loc.file) : json_null());
		json_object_set_new(f, "line", json_integer(s->inlined_at[i].loc.line));
		json_object_set_new(f, "column", json_integer(s->inlined_at[i].loc.col));
		json_array_append_new(inl, f);
	}
	json_object_set_new(j, "inlined_at", inl);
	json_object_set_new(j, "status", json_string(disp_status_name(fs->status)));
	json_object_set_new(j, "step", fs->step ? json_string(disp_step_name(fs->step)) : json_null());
	json_object_set_new(j, "depth", json_integer(fs->depth));
	json_object_set_new(j, "reason", fs->reason ? json_string(fs->reason) : json_null());
	json_object_set_new(j, "base_type", fs->base_type ? json_string(fs->base_type) : json_null());
	json_object_set_new(j, "field", fs->field != IR_NONE ? field_json(p, &r->fields[fs->field]) : json_null());
	char sig[256];
	json_object_set_new(j, "callee_type", fs->callee_sig ? json_string(sig_text(fs->callee_sig, sig, sizeof sig)) : json_null());
	json_object_set_new(j, "callee_variable", fs->callee_var ? json_string(fs->callee_var) : json_null());
	json_object_set_new(j, "r0_size", json_integer(fs->n_r0));
	json_object_set_new(j, "symbolic_size", json_integer(fs->n_sym));
	json_object_set_new(j, "abstains", json_boolean(fs->abstains));

	/* Every function any graph or decision mentions at this site. */
	unsigned *fns = malloc((p->n_functions + 1) * sizeof *fns), n = 0;
	for (int g = 0; g < 4; g++)
		for (unsigned i = 0; i < gs->g[g]->n_targets[fs->site]; i++)
			add_unique(fns, &n, gs->g[g]->targets[fs->site][i]);
	for (unsigned i = 0; i < r->n_decisions; i++)
		if (r->decisions[i].site == fs->site)
			add_unique(fns, &n, r->decisions[i].function);
	qsort_r(fns, n, sizeof *fns, by_name, (void *)p);
	json_t *targets = json_array();
	for (unsigned k = 0; k < n; k++) {
		json_t *t = json_object();
		json_object_set_new(t, "function", json_string(p->functions[fns[k]]->name));
		for (int g = 0; g < 4; g++)
			json_object_set_new(t, graph_names(g), json_boolean(in_graph(gs->g[g], fs->site, fns[k])));
		json_t *ds = json_array();
		for (unsigned i = 0; i < r->n_decisions; i++)
			if (r->decisions[i].site == fs->site && r->decisions[i].function == fns[k])
				json_array_append_new(ds, decision_json(&r->decisions[i]));
		json_object_set_new(t, "decisions", ds);
		json_array_append_new(targets, t);
	}
	free(fns);
	json_object_set_new(j, "targets", targets);
	json_t *qs = json_array();
	for (unsigned i = 0; i < r->n_questions; i++) {
		const facet_question *q = &r->questions[i];
		if (q->site != fs->site)
			continue;
		json_t *jq = json_object();
		json_object_set_new(jq, "kind", json_string(q->kind == QUESTION_COMPLETION ? "completion" : "disambiguation"));
		json_t *c = json_array();
		for (unsigned k = 0; k < q->n_candidates; k++)
			json_array_append_new(c, json_string(p->functions[q->candidates[k]]->name));
		json_object_set_new(jq, "candidates", c);
		json_object_set_new(jq, "answered", json_boolean(q->answered));
		json_array_append_new(qs, jq);
	}
	json_object_set_new(j, "questions", qs);
	return j;
}

static void print_site_text(json_t *s)
{
	printf("site %lld in %s at %s:%lld:%lld\n", (long long)json_integer_value(json_object_get(s, "site")),
	       json_string_value(json_object_get(s, "caller")),
	       json_is_string(json_object_get(s, "file")) ? json_string_value(json_object_get(s, "file")) : "?",
	       (long long)json_integer_value(json_object_get(s, "line")),
	       (long long)json_integer_value(json_object_get(s, "column")));
	json_t *f = json_object_get(s, "field");
	const char *status = json_string_value(json_object_get(s, "status"));
	if (json_is_object(f))
		printf("  dispatched field: %s %s (%s.%s, signature %s) — %s, found %s\n",
		       json_string_value(json_object_get(f, "kind")), json_string_value(json_object_get(f, "key")),
		       json_string_value(json_object_get(f, "record")), json_string_value(json_object_get(f, "name")),
		       json_string_value(json_object_get(f, "signature")), status,
		       json_is_string(json_object_get(s, "step")) ? json_string_value(json_object_get(s, "step")) : "?");
	if (json_is_object(f) && json_is_string(json_object_get(f, "element")))
		printf("  the index is not a constant: the key is the whole array, and F every element's\n");
	if (!json_is_object(f)) {
		printf("  dispatched field: unrecovered (%s)\n", json_string_value(json_object_get(s, "reason")));
		if (json_is_string(json_object_get(s, "callee_type")))
			printf("  callee declared as %s (variable %s)\n", json_string_value(json_object_get(s, "callee_type")),
			       json_string_value(json_object_get(s, "callee_variable")));
	}
	if (json_is_object(f)) {
		printf("  F(field): %lld functions, %lld by initializers",
		       (long long)json_integer_value(json_object_get(f, "assigned")),
		       (long long)json_integer_value(json_object_get(f, "init")));
		size_t i;
		json_t *r;
		json_array_foreach(json_object_get(f, "signature_rejected"), i, r)
			printf("%s%s", i ? ", " : "; written there with an incompatible signature: ",
			       json_string_value(json_object_get(r, "function")));
		printf("\n");
	}
	printf("  |R0| = %lld, symbolic result %lld%s\n", (long long)json_integer_value(json_object_get(s, "r0_size")),
	       (long long)json_integer_value(json_object_get(s, "symbolic_size")),
	       json_is_true(json_object_get(s, "abstains")) ? " — abstains (no addition, no residual removal)" : "");
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(s, "targets"), i, t) {
		printf("  %-40s", json_string_value(json_object_get(t, "function")));
		for (int g = 0; g < 4; g++)
			printf(" %s%s", json_is_true(json_object_get(t, graph_names(g))) ? "+" : "-", graph_names(g));
		printf("\n");
		size_t k;
		json_t *d;
		json_array_foreach(json_object_get(t, "decisions"), k, d) {
			const char *premise = json_is_string(json_object_get(d, "premise")) ? json_string_value(json_object_get(d, "premise")) : "";
			printf("      %s %s by %s%s%s%s: %s\n", json_string_value(json_object_get(d, "fact")),
			       json_string_value(json_object_get(d, "outcome")), json_string_value(json_object_get(d, "rule")),
			       *premise ? " [premise " : "", premise, *premise ? "]" : "",
			       json_is_string(json_object_get(d, "evidence")) ? json_string_value(json_object_get(d, "evidence")) : "");
		}
	}
	json_t *q;
	json_array_foreach(json_object_get(s, "questions"), i, q)
		printf("  residual question (%s): %zu candidates%s\n", json_string_value(json_object_get(q, "kind")),
		       json_array_size(json_object_get(q, "candidates")),
		       json_is_true(json_object_get(q, "answered")) ? ", answered" : ", unanswered (no oracle, or no usable answer)");
}

/* FILE:LINE matches a site whose file ends with FILE (at a path boundary). */
static bool loc_matches(const ir_loc *l, const char *file, unsigned line)
{
	if (!l->file || l->line != line)
		return false;
	size_t a = strlen(l->file), b = strlen(file);
	if (b > a || strcmp(l->file + a - b, file) != 0)
		return false;
	return a == b || l->file[a - b - 1] == '/';
}

static bool parse_at(const char *s, char **file, unsigned *line)
{
	const char *colon = strrchr(s, ':');
	if (!colon || colon == s || !colon[1])
		return false;
	char *end;
	unsigned long v = strtoul(colon + 1, &end, 10);
	if (*end || v == 0)
		return false;
	*file = strndup(s, (size_t)(colon - s));
	*line = (unsigned)v;
	return true;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

typedef struct options {
	const char *format, *site, *at, *tau;
	bool all, no_verify;
	cli_oracle_args oracle;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--format", options, format),
	CLI_OPT_VALUE("--site", options, site),
	CLI_OPT_VALUE("--at", options, at),
	CLI_OPT_VALUE("--tau", options, tau),
	CLI_OPT_FLAG("--all", options, all),
	CLI_OPT_FLAG("--no-verify", options, no_verify),
	CLI_OPT_TABLE(cli_oracle_opts, options, oracle),
	CLI_OPT_END,
};

int cmd_explain(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	options o = {.format = "text"};
	int npos;
	if (!cli_parse("explain", table, &o, argc, argv, &npos))
		return EXIT_USAGE;
	const char *format = o.format, *site_arg = o.site, *at = o.at, *tau_arg = o.tau;
	bool verify = !o.no_verify, all = o.all;
	char **files = argv + 1;
	int nfiles = 0;
	cli_oracle_args oargs = o.oracle;
	for (int i = 0; i < npos; i++) {
		if (!at && !is_file(files[i]) && strchr(files[i], ':'))
			at = files[i];   /* FILE:LINE as a bare argument */
		else
			files[nfiles++] = files[i];
	}
	bool json = !strcmp(format, "json");
	if (!json && strcmp(format, "text") != 0) {
		fprintf(stderr, "facet explain: unknown format '%s' (text, json)\n", format);
		return EXIT_USAGE;
	}
	if (nfiles == 0 || (!site_arg && !at && !all)) {
		fputs("facet explain: need input files and one of FILE:LINE, --site ID, --all (see --help)\n", stderr);
		return EXIT_USAGE;
	}
	char *at_file = NULL;
	unsigned at_line = 0, site_id = 0;
	if (at && !parse_at(at, &at_file, &at_line)) {
		fprintf(stderr, "facet explain: '%s' is not FILE:LINE\n", at);
		return EXIT_USAGE;
	}
	if (site_arg) {
		char *end;
		/* strtoul reads "-1" as ULONG_MAX: only digits are a site id. */
		unsigned long v = strtoul(site_arg, &end, 10);
		if (!*site_arg || *end || *site_arg < '0' || *site_arg > '9' || v > UINT_MAX) {
			fprintf(stderr, "facet explain: --site wants a number, not '%s'\n", site_arg);
			free(at_file);
			return EXIT_USAGE;
		}
		site_id = (unsigned)v;
	}
	facet_options fo;
	facet_options_default(&fo);
	if (tau_arg && !cli_parse_tau("explain", tau_arg, &fo.tau)) {
		free(at_file);
		return EXIT_USAGE;
	}

	cli_oracle oracle;
	int orc = cli_oracle_open("explain", &oargs, &oracle);
	if (orc != EXIT_OK) {
		free(at_file);
		return orc;
	}
	fo.oracle = oracle.oracle;
	ir_program *p = cli_load("explain", files, nfiles, verify);
	if (!p) {
		free(at_file);
		cli_oracle_close("explain", &oracle);
		return EXIT_INPUT;
	}
	pta_result *pta = pta_analyze(p, NULL);
	facet_result *r = facet_refine(pta, &fo);
	if (r->note)
		fprintf(stderr, "facet explain: note: %s\n", r->note);
	graphs gs;
	for (int g = 0; g < 4; g++)
		gs.g[g] = facet_graph(r, (cg_graph_id)(CG_R0 + g));

	json_t *sites = json_array();
	for (unsigned i = 0; i < r->n_sites; i++) {
		const ir_site *s = &p->sites[r->sites[i].site];
		if (all || (site_arg && r->sites[i].site == site_id) || (at_file && loc_matches(&s->loc, at_file, at_line)))
			json_array_append_new(sites, site_json(r, &gs, i));
	}
	int rc = EXIT_OK;
	if (json_array_size(sites) == 0) {
		if (site_arg && site_id < p->n_sites)
			fprintf(stderr, "facet explain: site %u is a %s call, not an indirect one\n", site_id,
			        site_kind_name(p->sites[site_id].kind));
		else if (site_arg)
			fprintf(stderr, "facet explain: no call site %u (the program has %u)\n", site_id, p->n_sites);
		else if (at_file)
			fprintf(stderr, "facet explain: no indirect call site at %s:%u\n", at_file, at_line);
		rc = all ? EXIT_OK : EXIT_INPUT;
	}
	if (json) {
		json_t *top = json_object();
		json_object_set_new(top, "tau", json_integer(r->options.tau));
		json_object_set_new(top, "note", r->note ? json_string(r->note) : json_null());
		json_object_set_new(top, "sites", sites);
		json_object_set_new(top, "oracle", cli_oracle_stats_json(&oracle));
		json_dumpf(top, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(top);
	} else {
		size_t i;
		json_t *s;
		json_array_foreach(sites, i, s)
			print_site_text(s);
		json_decref(sites);
	}
	for (int g = 0; g < 4; g++)
		cg_free(gs.g[g]);
	facet_result_free(r);
	pta_result_free(pta);
	ir_program_free(p);
	free(at_file);
	if (!cli_oracle_close("explain", &oracle))
		rc = EXIT_INPUT;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("facet explain: writing output");
		return EXIT_INPUT;
	}
	return rc;
}
