/* metrics.c — Table 1 and Table 2's numbers of a refinement (metrics.h). */
#include "facet/metrics.h"

#include <string.h>

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

