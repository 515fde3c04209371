/* graphs.c — a program's call graphs by name (graphs.h). */
#include "facet/graphs.h"

#include <stdlib.h>

#include "cg/registry.h"
#include "cxx/cxx.h"
#include "pta/andersen.h"
#include "util/xalloc.h"

struct facet_graphs {
	const ir_program *prog;
	facet_graph_options opt;
	pta_result *pta;           /* computed on first need */
	facet_result *refined;     /* without the oracle: rulesonly, rplus, and rpm when no oracle */
	char *note;                /* a refinement's note (a copy) */
	bool noted;
};

facet_graphs *facet_graphs_new(const ir_program *p, const facet_graph_options *opt)
{
	facet_graphs *s = xcalloc(1, sizeof *s);
	s->prog = p;
	if (opt)
		s->opt = *opt;
	return s;
}

static facet_result *refine(facet_graphs *s, facet_oracle *oracle)
{
	facet_options fo;
	facet_options_default(&fo);
	if (s->opt.tau || s->opt.tau_set)
		fo.tau = s->opt.tau;
	fo.oracle = oracle;
	if (s->opt.progress)
		s->opt.progress("refinement");
	facet_result *fr = facet_refine(s->pta, &fo);
	if (fr->note && !s->noted && !s->note)
		s->note = xstrdup(fr->note);
	return fr;
}

cg_graph *facet_graphs_get(facet_graphs *s, const char *name, facet_error *err)
{
	int id = cg_graph_parse(name);
	if (id < 0) {
		error_set(err, "unknown graph '%s' (%s)", name, cg_graph_list());
		return NULL;
	}
	if (id == CG_DIRECT)
		return cg_direct(s->prog);
	if (cg_graph_info_of((cg_graph_id)id)->from_source) {
		error_set(err, "graph %s is made from C files by 'facet source', not from bitcode", name);
		return NULL;
	}
	if (id == CG_CHA || id == CG_RTA)
		return cxx_graph(id, s->prog, NULL, NULL, NULL);
	if (!s->pta) {
		if (s->opt.progress)
			s->opt.progress("points-to analysis");
		s->pta = pta_analyze(s->prog, NULL);
	}
	if (id == CG_ANDERSEN || id == CG_R0)
		return pta_callgraph(s->pta, id == CG_R0);
	if (id == CG_VTA || id == CG_VSLOT) {   /* over R0 or R± at the sites that are not virtual */
		cg_graph *base = facet_graphs_get(s, id == CG_VTA ? "r0" : "rpm", err);
		cg_graph *g = base ? cxx_graph(id, s->prog, s->pta, base, base) : NULL;
		cg_free(base);
		return g;
	}
	facet_oracle *oracle = id == CG_RPM ? s->opt.oracle : NULL;
	if (oracle) {
		facet_result *fr = refine(s, oracle);
		cg_graph *g = facet_graph(fr, (cg_graph_id)id);
		facet_result_free(fr);
		return g;
	}
	if (!s->refined)
		s->refined = refine(s, NULL);
	return facet_graph(s->refined, (cg_graph_id)id);
}

const char *facet_graphs_note(facet_graphs *s)
{
	const char *n = s->noted ? NULL : s->note;
	if (n)
		s->noted = true;
	return n;
}

void facet_graphs_free(facet_graphs *s)
{
	if (!s)
		return;
	facet_result_free(s->refined);
	pta_result_free(s->pta);
	free(s->note);
	free(s);
}
