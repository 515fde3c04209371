/* vslot.c — vslot's reasons as decisions (vslot.h). */
#include "facet/vslot.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void facet_vslot_run(const pta_result *pta, const cg_graph *rpm, facet_vslot *out)
{
	memset(out, 0, sizeof *out);
	out->graph = cxx_vslot_reasons(pta, rpm, &out->why);
	out->decisions = xcalloc(out->why.n + 1, sizeof *out->decisions);
	for (unsigned i = 0; i < out->why.n; i++) {
		const cxx_slot_reason *r = &out->why.items[i];
		out->decisions[i] = (facet_decision){
			.site = r->site, .function = r->function, .fact = r->refuted ? FACT_PRUNE : FACT_ADD,
			.outcome = OUTCOME_SUPPORTED, .rule = r->refuted ? RULE_PRUNE_CLASS : RULE_ADD_WITNESS,
			.premise = r->refuted ? PREMISE_CLASS : PREMISE_TRUE, .source = SOURCE_SYMBOLIC,
			.evidence = r->evidence};
	}
	out->n_decisions = out->why.n;
}

void facet_vslot_free(facet_vslot *v)
{
	cg_free(v->graph);
	free(v->decisions);
	cxx_slot_reasons_free(&v->why);
	memset(v, 0, sizeof *v);
}
