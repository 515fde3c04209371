/* score.c — per-site macro precision, recall and F1; see score.h for the
 * definitions (the edge cases are decided there, once). */
#include "trace/score.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void trace_score_compute(const trace_observed *o, const trace_graph *g, trace_score *out)
{
	memset(out, 0, sizeof *out);
	unsigned n = o->n_obs_sites;
	out->sites = n;
	out->per_site = xcalloc(n ? n : 1, sizeof *out->per_site);
	unsigned max = 0;
	double sp = 0, sr = 0, sf = 0, st = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned site = o->sites[i];
		const trace_edge *obs = o->edges + o->site_first[i];
		unsigned nobs = (unsigned)(o->site_first[i + 1] - o->site_first[i]);
		const char *const *pred = site < g->n_sites ? g->targets[site] : NULL;
		unsigned npred = site < g->n_sites && pred ? g->n_targets[site] : 0;
		/* Both lists are sorted by strcmp: one merge counts the intersection. */
		unsigned a = 0, b = 0, both = 0;
		while (a < npred && b < nobs) {
			int c = strcmp(pred[a], obs[b].name);
			if (c == 0) {
				both++;
				a++;
				b++;
			} else if (c < 0) {
				a++;
			} else {
				b++;
			}
		}
		double p = npred ? (double)both / npred : 0.0;
		double r = (double)both / nobs;
		double f = p + r > 0 ? 2 * p * r / (p + r) : 0.0;
		out->per_site[i] = (trace_site_score){site, npred, nobs, both, p, r, f};
		sp += p;
		sr += r;
		sf += f;
		st += npred;
		out->recovered += both;
		out->spurious += npred - both;
		out->missed += nobs - both;
		out->empty += npred == 0;
		out->exactly_one += npred == 1;
		if (npred > max)
			max = npred;
	}
	if (n) {
		out->precision = sp / n;
		out->recall = sr / n;
		out->f1 = sf / n;
		out->mean_targets = st / n;
	}
	out->max_size = max;
	out->sizes = xcalloc(max + 1, sizeof *out->sizes);
	for (unsigned i = 0; i < n; i++)
		out->sizes[out->per_site[i].predicted]++;
}

void trace_score_free(trace_score *s)
{
	free(s->sizes);
	free(s->per_site);
	memset(s, 0, sizeof *s);
}
