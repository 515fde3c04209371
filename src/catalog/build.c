/* build.c — facet build's pipeline (build.h). */
#include "catalog/build.h"

#include "cxx/cxx.h"
#include "facet/facet.h"
#include "facet/vslot.h"
#include "pta/andersen.h"
#include "util/clock.h"

static void phase(const catalog_build_hooks *h, const char *what)
{
	if (h && h->phase)
		h->phase(h->arg, what);
}

bool catalog_build_run(catalog_build *b, facet_oracle *oracle, const char *out, const catalog_build_hooks *h,
                       double *seconds_write, facet_error *err)
{
	const ir_program *p = b->prog;
	double t1 = clock_seconds();
	phase(h, "points-to analysis");
	pta_options po;
	pta_options_default(&po);
	po.progress = h ? h->phase : NULL;
	po.progress_arg = h ? h->arg : NULL;
	pta_result *pta = pta_analyze(p, &po);
	double t2 = clock_seconds();
	facet_options fo;
	facet_options_default(&fo);
	fo.tau = b->tau;
	fo.oracle = oracle;
	phase(h, "refinement");
	facet_result *fr = facet_refine(pta, &fo);
	if (fr->note && h && h->note)
		h->note(h->arg, fr->note);
	/* R0 is the refinement's own (facet_result.r0), not computed twice. */
	cg_graph *g[CG_N_GRAPHS] = {cg_direct(p), pta_callgraph(pta, false), NULL};
	for (int i = CG_RULESONLY; i < CG_N_GRAPHS; i++)
		if (cg_graph_info_of((cg_graph_id)i)->refined)
			g[i] = facet_graph(fr, (cg_graph_id)i);
	for (int i = CG_CHA; i < CG_VSLOT; i++)
		g[i] = cxx_graph(i, p, pta, fr->r0, g[CG_RPM]);
	facet_vslot vs;   /* vslot with its decisions, for the catalog */
	facet_vslot_run(pta, g[CG_RPM], &vs);
	g[CG_VSLOT] = vs.graph;
	vs.graph = NULL;
	b->vslot_decisions = vs.decisions;
	b->n_vslot_decisions = vs.n_decisions;
	for (int i = 0; i < CG_N_GRAPHS; i++)
		b->graphs[i] = i == CG_R0 ? fr->r0 : g[i];
	b->refine = fr;
	double t3 = clock_seconds();
	b->seconds_pta = t2 - t1;
	b->seconds_refine = t3 - t2;
	phase(h, "writing the catalog");
	bool ok = catalog_write(out, b, err);
	*seconds_write = clock_seconds() - t3;
	for (int i = 0; i < CG_N_GRAPHS; i++) {
		cg_free(g[i]);
		b->graphs[i] = NULL;
	}
	b->refine = NULL;
	b->vslot_decisions = NULL;
	b->n_vslot_decisions = 0;
	facet_vslot_free(&vs);
	facet_result_free(fr);
	pta_result_free(pta);
	return ok;
}
