/* metrics.c — Table 1 and Table 2's numbers of a refinement (metrics.h). */
#include "facet/metrics.h"

#include <stdio.h>
#include <string.h>

#include "facet/explain.h"

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

json_t *facet_fields_report(const facet_result *r, const pta_result *pta, double pta_seconds, bool list)
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
			const char *shown = facet_field_shown(x);
			facet_xname_set(j, "key", shown, x->key);
			facet_xname_set(j, "name", x->name, shown != x->key ? x->key : NULL);
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


void facet_fields_print_text(FILE *out, json_t *j)
{
	fprintf(out, "indirect sites       %lld\n", (long long)json_integer_value(json_object_get(j, "indirect_sites")));
	fprintf(out, "dispatched field     %.1f%% struct field, %.1f%% array or global, %.1f%% unrecovered\n",
	       json_real_value(json_object_get(j, "field_pct")), json_real_value(json_object_get(j, "array_global_pct")),
	       json_real_value(json_object_get(j, "unrecovered_pct")));
	const char *why;
	json_t *c;
	if (json_integer_value(json_object_get(j, "sites_named")))
		fprintf(out, "  named through a mismatched or unprototyped declaration: %lld (%.1f%%)\n",
		       (long long)json_integer_value(json_object_get(j, "sites_named")),
		       json_real_value(json_object_get(j, "named_pct")));
	json_object_foreach(json_object_get(j, "unrecovered_reasons"), why, c)
		fprintf(out, "  unrecovered: %lld  %s\n", (long long)json_integer_value(c), why);
	fprintf(out, "fields               %lld\n", (long long)json_integer_value(json_object_get(j, "fields")));
	fprintf(out, "assignment pairs     %lld (a syntactic scan misses %.1f%%)\n",
	       (long long)json_integer_value(json_object_get(j, "assignment_pairs")),
	       json_real_value(json_object_get(j, "scan_misses_pct")));
	fprintf(out, "decisions            %lld; %lld sites abstain; %lld residual questions\n",
	       (long long)json_integer_value(json_object_get(j, "decisions")),
	       (long long)json_integer_value(json_object_get(j, "abstaining_sites")),
	       (long long)json_integer_value(json_object_get(j, "questions")));
	fprintf(out, "mean targets per site (over the sites a graph resolves; empty sites in brackets)\n");
	const char *name;
	json_t *g;
	json_object_foreach(json_object_get(j, "graphs"), name, g)
		fprintf(out, "  %-10s %8.2f  [%lld empty]\n", name, json_real_value(json_object_get(g, "mean_targets")),
		       (long long)json_integer_value(json_object_get(g, "empty_sites")));
	fprintf(out, "ratio r0/rpm         %.2f\n", json_real_value(json_object_get(j, "ratio_r0_rpm")));
	fprintf(out, "time                 points-to %.2f s, refinement %.2f s\n",
	       json_real_value(json_object_get(j, "pta_seconds")), json_real_value(json_object_get(j, "refine_seconds")));
	if (json_is_string(json_object_get(j, "note")))
		fprintf(out, "note                 %s\n", json_string_value(json_object_get(j, "note")));
	json_t *o = json_object_get(j, "oracle");
	if (json_is_object(o)) {
		fprintf(out, "oracle               %s: %lld questions, %lld queries (%lld requests), %lld cache hits\n",
		       json_string_value(json_object_get(o, "backend")), (long long)json_integer_value(json_object_get(o, "questions")),
		       (long long)json_integer_value(json_object_get(o, "queries")),
		       (long long)json_integer_value(json_object_get(o, "requests")),
		       (long long)json_integer_value(json_object_get(o, "cache_hits")));
		fprintf(out, "                     %lld answered, %lld unusable, %lld failures, %lld invented names, %lld over caps\n",
		       (long long)json_integer_value(json_object_get(o, "answered")),
		       (long long)json_integer_value(json_object_get(o, "unusable")),
		       (long long)json_integer_value(json_object_get(o, "failures")),
		       (long long)json_integer_value(json_object_get(o, "invented")),
		       (long long)json_integer_value(json_object_get(o, "skipped_cap")));
		fprintf(out, "                     tokens %lld prompt + %lld completion\n",
		       (long long)json_integer_value(json_object_get(o, "prompt_tokens")),
		       (long long)json_integer_value(json_object_get(o, "completion_tokens")));
	}
	size_t i;
	json_array_foreach(json_object_get(j, "field_list"), i, g)
		fprintf(out, "%-48s %-40s init %3lld  F %3lld  sites %3lld\n", json_string_value(json_object_get(g, "key")),
		       json_string_value(json_object_get(g, "signature")),
		       (long long)json_integer_value(json_object_get(g, "init")),
		       (long long)json_integer_value(json_object_get(g, "assigned")),
		       (long long)json_integer_value(json_object_get(g, "sites")));
}

json_t *facet_refine_stats_json(const facet_result *fr)
{
	unsigned answered = 0;
	for (unsigned i = 0; i < fr->n_questions; i++)
		answered += fr->questions[i].answered;
	json_t *j = json_object();
	json_object_set_new(j, "seconds", json_real(fr->seconds));
	json_object_set_new(j, "fields", json_integer(fr->n_fields));
	json_object_set_new(j, "decisions", json_integer(fr->n_decisions));
	json_object_set_new(j, "questions", json_integer(fr->n_questions));
	json_object_set_new(j, "questions_answered", json_integer(answered));
	return j;
}

void facet_refine_stats_print(FILE *out, json_t *j)
{
	fprintf(out, "refinement:                    %.3f s, %lld fields, %lld decisions, %lld residual questions "
	        "(%lld answered)\n",
	        json_real_value(json_object_get(j, "seconds")), (long long)json_integer_value(json_object_get(j, "fields")),
	        (long long)json_integer_value(json_object_get(j, "decisions")),
	        (long long)json_integer_value(json_object_get(j, "questions")),
	        (long long)json_integer_value(json_object_get(j, "questions_answered")));
}
