/* derive.c — call-graph derivation from the provenance (§3.5).
 *
 * Only R0 and the recorded decisions are read, so a saved provenance can be
 * re-derived under another τ without running anything again:
 *
 *   abstain(c)  ⇔  0 < |R0(c) \ Psym(c)| ≤ τ          [X]_c = ∅ if abstain(c), else X
 *   R+(c)  = R0(c) ∪ [A_W(c)]_c
 *   R±(c)  = (R0(c) \ (Psym(c) ∪ [Pres(c)]_c)) ∪ [A_W(c) ∪ A_S(c) ∪ A_res(c)]_c
 *   Rules-only(c) = R0(c) \ Psym(c)
 *
 * Psym: prunes supported by Prune-Store or Prune-Sig. A_W, A_S: adds
 * supported by Add-Witness, Add-Store. A_res, Pres: residual adds and
 * prunes; a residual prune of a target that carries an add warrant is void
 * (precedence: the warranted decision wins). Rejected adds only withhold. */
#include "facet/facet.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

enum { IN_R0 = 1, PSYM = 2, AW = 4, AS = 8, ARES = 16, PRES = 32 };

typedef struct marks {
	unsigned char *bits;       /* per function, for the current site */
	unsigned *touched;         /* functions whose bits are set */
	unsigned n;
} marks;

static void mark(marks *m, unsigned f, unsigned char bit)
{
	if (!m->bits[f])
		m->touched[m->n++] = f;
	m->bits[f] |= bit;
}

static void clear(marks *m)
{
	for (unsigned i = 0; i < m->n; i++)
		m->bits[m->touched[i]] = 0;
	m->n = 0;
}

static unsigned char decision_bit(const facet_decision *d)
{
	if (d->fact == FACT_PRUNE)
		return d->outcome == OUTCOME_SUPPORTED ? PSYM : d->outcome == OUTCOME_RESIDUAL ? PRES : 0;
	if (d->outcome == OUTCOME_SUPPORTED)
		return d->rule == RULE_ADD_WITNESS ? AW : AS;
	return d->outcome == OUTCOME_RESIDUAL ? ARES : 0;
}

static bool keep(unsigned char b, bool abstain, cg_graph_id kind)
{
	bool in_r0 = b & IN_R0;
	switch (kind) {
	case CG_R0:
		return in_r0;
	case CG_RULESONLY:
		return in_r0 && !(b & PSYM);
	case CG_RPLUS:
		return in_r0 || (!abstain && (b & AW));
	case CG_RPM: {
		bool warranted_add = b & (AW | AS);
		bool pres = (b & PRES) && !warranted_add && !abstain;
		if (in_r0 && !(b & PSYM) && !pres)
			return true;
		return !abstain && (b & (AW | AS | ARES));
	}
	default:                   /* direct and andersen are not derived from the provenance */
		return false;
	}
}

static int by_site(const void *a, const void *b)
{
	unsigned x = ((const facet_decision *)a)->site, y = ((const facet_decision *)b)->site;
	return x < y ? -1 : x > y;
}

cg_graph *facet_derive(const ir_program *p, const cg_graph *r0, const facet_decision *decisions, unsigned n,
                       unsigned tau, cg_graph_id kind)
{
	/* A provenance read back from elsewhere may come in any order. */
	facet_decision *sorted = NULL;
	const facet_decision *d = decisions;
	for (unsigned i = 1; i < n && !sorted; i++)
		if (d[i - 1].site > d[i].site) {
			sorted = xmalloc(n * sizeof *sorted);
			memcpy(sorted, decisions, n * sizeof *sorted);
			qsort(sorted, n, sizeof *sorted, by_site);
			d = sorted;
		}
	cg_graph *g = cg_new(p, cg_graph_name(kind));
	marks m = {xcalloc(p->n_functions + 1, 1), xmalloc((p->n_functions + 1) * sizeof(unsigned)), 0};
	unsigned *out = xmalloc((p->n_functions + 1) * sizeof *out);
	unsigned j = 0;   /* decisions are ordered by site */
	for (unsigned s = 0; s < p->n_sites; s++) {
		for (unsigned i = 0; i < r0->n_targets[s]; i++)
			mark(&m, r0->targets[s][i], IN_R0);
		for (; j < n && d[j].site == s; j++)
			mark(&m, d[j].function, decision_bit(&d[j]));
		unsigned n_sym = 0;
		for (unsigned i = 0; i < m.n; i++)
			n_sym += (m.bits[m.touched[i]] & IN_R0) && !(m.bits[m.touched[i]] & PSYM);
		bool abstain = n_sym > 0 && n_sym <= tau;
		unsigned k = 0;
		for (unsigned i = 0; i < m.n; i++)
			if (keep(m.bits[m.touched[i]], abstain, kind))
				out[k++] = m.touched[i];
		cg_set_targets(g, s, out, k);
		clear(&m);
	}
	free(sorted);
	free(out);
	free(m.bits);
	free(m.touched);
	return g;
}

cg_graph *facet_graph(const facet_result *r, cg_graph_id kind)
{
	return facet_derive(r->prog, r->r0, r->decisions, r->n_decisions, r->options.tau, kind);
}
