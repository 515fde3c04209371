/* explain.c — the explain model (explain.h): a refinement result's site,
 * its field, targets per graph and warrants, as JSON. */
#include "facet/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facet/sig.h"
#include "facet/vslot.h"
#include "pta/holders.h"
#include "util/ptrmap.h"
#include "util/xalloc.h"

enum { HOLDERS_SHOWN = 3 };

typedef struct holders {
	unsigned n;
	pta_holder widest[HOLDERS_SHOWN];
} holders;

/* g[i] is graph CG_R0 + i, the graphs the provenance derives; andersen may be NULL. */
typedef struct graphs {
	cg_graph *g[4];
	cg_graph *cxx[4];          /* cha, rta, vta (vslot is in vs); NULL when the program has no virtual call */
	facet_vslot vs;            /* vslot and its decisions */
	const cg_graph *andersen;
	pta_collapsed collapsed;   /* the collapsed objects holding anything */
	ptrmap by_set;             /* a callee's points-to set -> its holders (sites share sets) */
} graphs;


static bool in_graph(const cg_graph *g, unsigned site, unsigned f)
{
	for (unsigned i = 0; i < g->n_targets[site]; i++)
		if (g->targets[site][i] == f)
			return true;
	return false;
}

static json_t *text_or_null(const char *t) { return t ? json_string(t) : json_null(); }

json_t *facet_xwarrant_json(const facet_xwarrant *w)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "fact", text_or_null(w->fact), "outcome",
	                 text_or_null(w->outcome), "rule", text_or_null(w->rule), "premise", text_or_null(w->premise),
	                 "source", text_or_null(w->source), "evidence", text_or_null(w->evidence), "graph",
	                 w->graph ? w->graph : "rpm");
}

json_t *facet_xdispatch_json(const facet_xdispatch *d)
{
	json_t *j = json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:b, s:b, s:o, s:o}", "status",
	                      text_or_null(d->status), "step", text_or_null(d->step), "depth", (json_int_t)d->depth,
	                      "field", text_or_null(d->field), "field_name", text_or_null(d->field_name), "signature",
	                      text_or_null(d->signature), "reason", text_or_null(d->reason), "base_type",
	                      text_or_null(d->base_type), "n_r0", (json_int_t)d->n_r0, "n_sym", (json_int_t)d->n_sym,
	                      "abstains", d->abstains, "runtime_code", d->runtime_code, "callee_type",
	                      text_or_null(d->callee_type), "callee_variable",
	                      text_or_null(d->callee_variable));
	if (d->field)
		facet_xname_set(j, "field", d->field, d->field_symbol);
	return j;
}

void facet_xname_set(json_t *o, const char *key, const char *shown, const char *linked)
{
	json_object_set_new(o, key, json_string(shown));
	if (linked && strcmp(linked, shown) != 0) {
		char k[64];
		if (strcmp(key, "name") == 0)
			snprintf(k, sizeof k, "symbol");
		else
			snprintf(k, sizeof k, "%s_symbol", key);
		json_object_set_new(o, k, json_string(linked));
	}
}

json_t *facet_xtarget_json(const char *name, const char *linked, unsigned bits, bool virtual_site, json_t *warrants)
{
	json_t *in = json_array();
	for (int g = 0; g < CG_N_GRAPHS; g++)
		if (bits & (1u << g) && (virtual_site || !cxx_is_virtual_graph(g)))
			json_array_append_new(in, json_string(cg_graph_name((cg_graph_id)g)));
	json_t *t = json_object();
	facet_xname_set(t, "name", name, linked);
	json_object_set_new(t, "in_graphs", in);
	json_object_set_new(t, "warrants", warrants);
	return t;
}

json_t *facet_xvirtual_json(const char *cls, long long slot)
{
	return json_pack("{s:o, s:o}", "class", text_or_null(cls), "slot", slot < 0 ? json_null() : json_integer(slot));
}

json_t *facet_xquestion_json(long long id, const char *kind, json_t *candidates, bool answered)
{
	return json_pack("{s:I, s:o, s:o, s:b}", "id", (json_int_t)id, "kind", text_or_null(kind), "candidates",
	                 candidates, "answered", answered);
}

/* The functions written into the field that the signature filter kept out
 * of F, each with the place it was written. */
static json_t *rejected_json(const ir_program *p, const facet_field *fl)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < fl->n_rejected; i++) {
		const facet_assign *as = &fl->rejected[i];
		json_t *j = json_object();
		facet_xname_set(j, "function", ir_function_label(p->functions[as->function]), p->functions[as->function]->name);
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
	const char *shown = facet_field_shown(fl);
	facet_xname_set(j, "key", shown, fl->key);
	json_object_set_new(j, "kind", json_string(kinds[fl->kind]));
	json_object_set_new(j, "record", json_string(fl->record));
	/* a C++ global's field is named as the global is: its label, the symbol beside */
	facet_xname_set(j, "name", fl->name, shown != fl->key ? fl->key : NULL);
	json_object_set_new(j, "offset", json_integer((json_int_t)fl->offset));
	json_object_set_new(j, "function_pointer", json_boolean(fl->function_pointer));
	json_object_set_new(j, "signature", json_string(fl->sig_text));
	json_object_set_new(j, "init", json_integer(fl->n_init));
	json_object_set_new(j, "assigned", json_integer(fl->n_F));
	json_object_set_new(j, "signature_rejected", rejected_json(p, fl));
	if (fl->untyped)   /* a slot or a list of an untyped heap block (block.c) */
		json_object_set_new(j, "block", json_string(fl->whole_array
		                                            ? "a list walked from this offset of an untyped heap block: "
		                                              "any handler on it"
		                                            : "a constant offset into an untyped heap block"));
	else if (fl->whole_array)   /* a variable index into an array of function pointers */
		json_object_set_new(j, "element", json_string("variable index: any element of the array"));
	return j;
}

static json_t *decision_json(const facet_decision *d, const char *graph)
{
	facet_xwarrant w = {fact_kind_name(d->fact), fact_outcome_name(d->outcome), facet_rule_name(d->rule),
	                    d->premise == PREMISE_NONE ? NULL : facet_premise_name(d->premise),
	                    d->source == SOURCE_ORACLE ? "oracle" : "symbolic", d->evidence, graph};
	return facet_xwarrant_json(&w);
}

/* The collapsed objects holding part of the callee's points-to set (R0's
 * targets come from it): the widest few, with what collapsed each and
 * where (pta/holders.h), and how many there are. NULL when none. */
static json_t *collapsed_json(const facet_result *r, graphs *gs, const ir_site *s)
{
	const sbitmap *callee = r->pta && s->callee_value != IR_NONE ? pta_value_pts(r->pta, s->callee_value) : NULL;
	if (!callee)
		return json_null();
	holders *found = ptrmap_get(&gs->by_set, callee);
	if (!found) {
		found = xcalloc(1, sizeof *found);
		found->n = pta_collapsed_holders(r->pta, &gs->collapsed, callee, found->widest, HOLDERS_SHOWN);
		ptrmap_put(&gs->by_set, callee, found);
	}
	unsigned n = found->n;
	const pta_holder *hs = found->widest;
	if (n == 0)
		return json_null();
	json_t *a = json_array();
	for (unsigned i = 0; i < n && i < HOLDERS_SHOWN; i++) {
		json_t *h = json_object();
		unsigned loc = pta_field(r->pta->solver, hs[i].object, 0);
		char *name = pta_loc_name(r->pta, loc, true), *linked = pta_loc_name(r->pta, loc, false);
		facet_xname_set(h, "object", name, linked);   /* "vtable for A*+0" beside "_ZTV1A*+0" */
		free(name);
		free(linked);
		json_object_set_new(h, "holds", json_integer(hs[i].held));
		json_object_set_new(h, "cause", json_string(pta_collapse_cause_name(hs[i].cause)));
		const ir_stmt *st = hs[i].stmt;
		const ir_loc *at = st && st->loc && st->loc->line ? st->loc : hs[i].fn ? &hs[i].fn->loc : NULL;
		json_object_set_new(h, "statement", st ? json_string(ir_stmt_op_name(st->op)) : json_null());
		if (hs[i].fn)
			facet_xname_set(h, "function", ir_function_label(hs[i].fn), hs[i].fn->name);
		else
			json_object_set_new(h, "function", json_null());
		json_object_set_new(h, "file", at && at->file ? json_string(at->file) : json_null());
		json_object_set_new(h, "line", json_integer(at ? at->line : 0));
		json_array_append_new(a, h);
	}
	json_t *j = json_object();
	json_object_set_new(j, "callee_locations", json_integer((json_int_t)sbm_count(callee)));
	json_object_set_new(j, "objects", json_integer(n));
	json_object_set_new(j, "widest", a);
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

/* The query layer's site object (docs/queries.md), from the program. */
static json_t *head_json(const ir_site *s, unsigned id)
{
	json_t *inl = json_array();
	for (unsigned i = 0; i < s->n_inlined; i++)
		json_array_append_new(inl, json_pack("{s:o, s:o, s:I, s:I}", "function",
		                                     text_or_null(s->inlined_at[i].function), "file",
		                                     text_or_null(s->inlined_at[i].loc.file), "line",
		                                     (json_int_t)s->inlined_at[i].loc.line, "column",
		                                     (json_int_t)s->inlined_at[i].loc.col));
	json_t *j = json_pack("{s:I}", "id", (json_int_t)id);
	facet_xname_set(j, "caller", ir_function_label(s->caller), s->caller->name);
	json_object_update_new(j, json_pack("{s:s, s:o, s:I, s:I, s:o, s:o}", "kind", site_kind_name(s->kind), "file",
	                                    text_or_null(s->loc.file), "line", (json_int_t)s->loc.line, "column",
	                                    (json_int_t)s->loc.col, "call_type", text_or_null(s->call_type), "inlined_at",
	                                    inl));
	return j;
}

static json_t *dispatch_json(const facet_result *r, const facet_site *fs)
{
	const facet_field *fl = fs->field != IR_NONE ? &r->fields[fs->field] : NULL;
	char sig[256];
	facet_xdispatch d = {
		.status = disp_status_name(fs->status), .step = fs->step ? disp_step_name(fs->step) : NULL,
		.depth = fs->depth, .field = fl ? facet_field_shown(fl) : NULL, .field_name = fl ? fl->name : NULL,
		.signature = fl ? fl->sig_text : NULL, .reason = fs->reason, .base_type = fs->base_type,
		.n_r0 = fs->n_r0, .n_sym = fs->n_sym, .abstains = fs->abstains, .runtime_code = fs->runtime_code,
		.callee_type = fs->callee_sig ? sig_text(fs->callee_sig, sig, sizeof sig) : NULL,
		.callee_variable = fs->callee_var, .field_symbol = fl ? fl->key : NULL};
	return facet_xdispatch_json(&d);
}

/* The graph kept in gs for id (andersen, r0 .. rpm, cha .. vslot), NULL when none. */
static const cg_graph *graph_of(const graphs *gs, int id)
{
	if (id == CG_ANDERSEN)
		return gs->andersen;
	if (id >= CG_R0 && id <= CG_RPM)
		return gs->g[id - CG_R0];
	if (id == CG_VSLOT)
		return gs->vs.graph;
	return id >= CG_CHA && id < CG_VSLOT ? gs->cxx[id - CG_CHA] : NULL;
}

static unsigned graph_bits(const graphs *gs, unsigned site, unsigned f)
{
	unsigned bits = 0;
	for (int g = 0; g < CG_N_GRAPHS; g++) {
		const cg_graph *cg = graph_of(gs, g);
		if (cg && in_graph(cg, site, f))
			bits |= 1u << g;
	}
	return bits;
}

/* Every function a graph or a decision names at the site, by name (the C++
 * graphs' and vslot's decisions at a virtual site only). */
static json_t *targets_json(const facet_result *r, const graphs *gs, unsigned site)
{
	const ir_program *p = r->prog;
	bool virt = p->sites[site].vcall != IR_NONE;
	unsigned *fns = malloc((p->n_functions + 1) * sizeof *fns), n = 0;
	for (int g = 0; g < CG_N_GRAPHS; g++) {
		const cg_graph *cg = graph_of(gs, g);
		for (unsigned i = 0; cg && (virt || !cxx_is_virtual_graph(g)) && i < cg->n_targets[site]; i++)
			add_unique(fns, &n, cg->targets[site][i]);
	}
	for (unsigned i = 0; i < r->n_decisions; i++)
		if (r->decisions[i].site == site)
			add_unique(fns, &n, r->decisions[i].function);
	for (unsigned i = 0; i < gs->vs.n_decisions; i++)
		if (gs->vs.decisions[i].site == site)
			add_unique(fns, &n, gs->vs.decisions[i].function);
	qsort_r(fns, n, sizeof *fns, by_name, (void *)p);
	json_t *targets = json_array();
	for (unsigned k = 0; k < n; k++) {
		json_t *ws = json_array();
		for (unsigned i = 0; i < r->n_decisions; i++)
			if (r->decisions[i].site == site && r->decisions[i].function == fns[k])
				json_array_append_new(ws, decision_json(&r->decisions[i], "rpm"));
		for (unsigned i = 0; i < gs->vs.n_decisions; i++)
			if (gs->vs.decisions[i].site == site && gs->vs.decisions[i].function == fns[k])
				json_array_append_new(ws, decision_json(&gs->vs.decisions[i], "vslot"));
		const ir_function *f = p->functions[fns[k]];
		json_array_append_new(targets, facet_xtarget_json(ir_function_label(f), f->name, graph_bits(gs, site, fns[k]),
		                                                  virt, ws));
	}
	free(fns);
	return targets;
}

/* {class, slot} of a virtual call, null for any other site. */
static json_t *virtual_json(const ir_program *p, const ir_site *s)
{
	if (s->vcall == IR_NONE)
		return json_null();
	const ir_vcall *vc = &p->vcalls[s->vcall];
	return facet_xvirtual_json(vc->cls != IR_NONE ? p->classes[vc->cls]->name : NULL,
	                           vc->any_slot ? -1 : vc->slot_offset / (int64_t)p->pointer_size);
}

static json_t *site_json(const facet_result *r, graphs *gs, unsigned idx)
{
	const ir_program *p = r->prog;
	const facet_site *fs = &r->sites[idx];
	json_t *j = head_json(&p->sites[fs->site], fs->site);
	json_object_set_new(j, "dispatch", dispatch_json(r, fs));
	json_object_set_new(j, "field", fs->field != IR_NONE ? field_json(p, &r->fields[fs->field]) : json_null());
	json_object_set_new(j, "collapsed", collapsed_json(r, gs, &p->sites[fs->site]));
	json_object_set_new(j, "virtual", virtual_json(p, &p->sites[fs->site]));
	json_object_set_new(j, "targets", targets_json(r, gs, fs->site));
	json_t *qs = json_array();
	for (unsigned i = 0; i < r->n_questions; i++) {
		const facet_question *q = &r->questions[i];
		if (q->site != fs->site)
			continue;
		json_t *c = json_array();
		for (unsigned k = 0; k < q->n_candidates; k++)
			json_array_append_new(c, json_string(ir_function_label(p->functions[q->candidates[k]])));
		json_array_append_new(qs, facet_xquestion_json(i, q->kind == QUESTION_COMPLETION ? "completion"
		                                                                                 : "disambiguation",
		                                               c, q->answered));
	}
	json_object_set_new(j, "questions", qs);
	return j;
}

/* FILE:LINE matches a site whose file ends with FILE (at a path boundary). */
bool facet_loc_matches(const ir_loc *l, const char *file, unsigned line)
{
	if (!l->file || l->line != line)
		return false;
	size_t a = strlen(l->file), b = strlen(file);
	if (b > a || strcmp(l->file + a - b, file) != 0)
		return false;
	return a == b || l->file[a - b - 1] == '/';
}


json_t *facet_explain_sites(const facet_result *r, const cg_graph *andersen, const facet_explain_select *sel)
{
	const ir_program *p = r->prog;
	graphs gs = {.andersen = andersen};
	for (int g = 0; g < 4; g++)
		gs.g[g] = facet_graph(r, (cg_graph_id)(CG_R0 + g));
	if (r->pta && p->n_vcalls) {   /* the C++ graphs, and vslot's decisions */
		gs.cxx[0] = cxx_cha(p);
		gs.cxx[1] = cxx_rta(p);
		gs.cxx[2] = cxx_vta(r->pta, r->r0);
		facet_vslot_run(r->pta, gs.g[CG_RPM - CG_R0], &gs.vs);
	}
	if (r->pta)
		pta_collapsed_init(r->pta, &gs.collapsed);
	ptrmap_init(&gs.by_set);
	json_t *sites = json_array();
	for (unsigned i = 0; i < r->n_sites; i++) {
		const ir_site *s = &p->sites[r->sites[i].site];
		if (sel->all || (sel->by_site && r->sites[i].site == sel->site) ||
		    (sel->file && facet_loc_matches(&s->loc, sel->file, sel->line)))
			json_array_append_new(sites, site_json(r, &gs, i));
	}
	for (int g = 0; g < 4; g++) {
		cg_free(gs.g[g]);
		cg_free(gs.cxx[g]);
	}
	facet_vslot_free(&gs.vs);
	pta_collapsed_free(&gs.collapsed);
	ptrmap_free_values(&gs.by_set);
	return sites;
}

json_t *facet_explain_answer(const facet_result *r, json_t *sites, json_t *oracle)
{
	json_t *top = json_object();
	json_object_set_new(top, "explain_version", json_integer(FACET_EXPLAIN_VERSION));
	json_object_set_new(top, "tau", json_integer(r->options.tau));
	json_object_set_new(top, "note", r->note ? json_string(r->note) : json_null());
	json_object_set_new(top, "sites", sites);
	json_object_set_new(top, "oracle", oracle);
	return top;
}
