/* report.c — scores printed (report.h). */
#include "trace/report.h"

#include "util/jsonw.h"

void trace_report_text(FILE *out, const trace_observed *o, long indirect, trace_scored *gs, unsigned ng, bool per_site)
{
	fprintf(out, "observed: %u sites", o->n_obs_sites);
	if (indirect >= 0)
		fprintf(out, " of %ld indirect (%.1f%%)", indirect, indirect ? 100.0 * o->n_obs_sites / (double)indirect : 0.0);
	fprintf(out, ", %zu edges, %llu calls, %u process records", o->n_edges, (unsigned long long)o->hits, o->blocks);
	if (o->unknown_hits)
		fprintf(out, "; %llu calls to functions outside the program at %u sites", (unsigned long long)o->unknown_hits,
		       o->unknown_sites);
	if (o->dropped)
		fprintf(out, "; %llu calls dropped (runtime table full)", (unsigned long long)o->dropped);
	fprintf(out, "\n\n%-12s %6s %6s %6s %8s %6s %6s %9s %9s %7s\n", "graph", "P", "R", "F1", "targets", "empty",
	       "one", "recovered", "spurious", "missed");
	for (unsigned i = 0; i < ng; i++) {
		const trace_score *s = &gs[i].s;
		fprintf(out, "%-12s %6.3f %6.3f %6.3f %8.1f %6u %6u %9llu %9llu %7llu\n", gs[i].label, s->precision, s->recall,
		       s->f1, s->mean_targets, s->empty, s->exactly_one, (unsigned long long)s->recovered,
		       (unsigned long long)s->spurious, (unsigned long long)s->missed);
	}
	if (!per_site)
		return;
	for (unsigned i = 0; i < ng; i++) {
		fprintf(out, "\n%s per site: site predicted observed recovered P R F1\n", gs[i].label);
		for (unsigned k = 0; k < gs[i].s.sites; k++) {
			const trace_site_score *t = &gs[i].s.per_site[k];
			fprintf(out, "  %u %u %u %u %.3f %.3f %.3f\n", t->site, t->predicted, t->observed, t->recovered, t->p, t->r,
			       t->f1);
		}
	}
}

void trace_report_json(FILE *out, const trace_observed *o, long indirect, trace_scored *gs, unsigned ng, bool per_site)
{
	fprintf(out, "{\"observed\": {\"sites\": %u, ", o->n_obs_sites);
	if (indirect >= 0)
		fprintf(out, "\"indirect_sites\": %ld, \"coverage\": %.6f, ", indirect,
		       indirect ? (double)o->n_obs_sites / (double)indirect : 0.0);
	fprintf(out, "\"edges\": %zu, \"calls\": %llu, \"records\": %u, \"unknown_callee_calls\": %llu, "
	       "\"unknown_callee_sites\": %u, \"dropped\": %llu, \"key\": \"%016llx\"},\n \"graphs\": [",
	       o->n_edges, (unsigned long long)o->hits, o->blocks, (unsigned long long)o->unknown_hits,
	       o->unknown_sites, (unsigned long long)o->dropped, (unsigned long long)o->key);
	for (unsigned i = 0; i < ng; i++) {
		const trace_score *s = &gs[i].s;
		fprintf(out, "%s\n  {\"graph\": ", i ? "," : "");
		jsonw_string(out, gs[i].label);
		fprintf(out, ", \"sites\": %u, \"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f, \"mean_targets\": %.6f, "
		       "\"empty\": %u, \"exactly_one\": %u, \"exactly_one_share\": %.6f, \"recovered\": %llu, "
		       "\"spurious\": %llu, \"missed\": %llu, \"sizes\": [",
		       s->sites, s->precision, s->recall, s->f1, s->mean_targets, s->empty, s->exactly_one,
		       s->sites ? (double)s->exactly_one / s->sites : 0.0, (unsigned long long)s->recovered,
		       (unsigned long long)s->spurious, (unsigned long long)s->missed);
		for (unsigned k = 0; k <= s->max_size; k++)
			fprintf(out, "%s%u", k ? ", " : "", s->sizes[k]);
		fprintf(out, "]");
		if (per_site) {
			fprintf(out, ", \"per_site\": [");
			for (unsigned k = 0; k < s->sites; k++) {
				const trace_site_score *t = &s->per_site[k];
				fprintf(out, "%s\n    {\"site\": %u, \"predicted\": %u, \"observed\": %u, \"recovered\": %u, "
				       "\"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f}",
				       k ? "," : "", t->site, t->predicted, t->observed, t->recovered, t->p, t->r, t->f1);
			}
			fprintf(out, "]");
		}
		fprintf(out, "}");
	}
	fprintf(out, "]}\n");
}

