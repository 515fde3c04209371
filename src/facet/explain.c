/* explain.c — the explain model (explain.h): a refinement result's site,
 * its field, targets per graph and warrants, as JSON. */
#include "facet/explain.h"

#include <stdlib.h>
#include <string.h>

#include "facet/sig.h"
#include "pta/holders.h"
#include "util/ptrmap.h"
#include "util/xalloc.h"

enum { HOLDERS_SHOWN = 3 };

typedef struct holders {
	unsigned n;
	pta_holder widest[HOLDERS_SHOWN];
} holders;

typedef struct graphs {
	cg_graph *g[4];            /* r0, rulesonly, rplus, rpm */
	pta_collapsed collapsed;   /* the collapsed objects holding anything */
	ptrmap by_set;             /* a callee's points-to set -> its holders (sites share sets) */
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
		char *name = pta_loc_name(r->pta, pta_field(r->pta->solver, hs[i].object, 0));
		json_object_set_new(h, "object", json_string(name));
		free(name);
		json_object_set_new(h, "holds", json_integer(hs[i].held));
		json_object_set_new(h, "cause", json_string(pta_collapse_cause_name(hs[i].cause)));
		const ir_stmt *st = hs[i].stmt;
		const ir_loc *at = st && st->loc && st->loc->line ? st->loc : hs[i].fn ? &hs[i].fn->loc : NULL;
		json_object_set_new(h, "statement", st ? json_string(ir_stmt_op_name(st->op)) : json_null());
		json_object_set_new(h, "function", hs[i].fn ? json_string(hs[i].fn->name) : json_null());
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

static json_t *site_json(const facet_result *r, graphs *gs, unsigned idx)
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
	json_object_set_new(j, "collapsed", collapsed_json(r, gs, s));

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


json_t *facet_explain_sites(const facet_result *r, const facet_explain_select *sel)
{
	const ir_program *p = r->prog;
	graphs gs = {0};
	for (int g = 0; g < 4; g++)
		gs.g[g] = facet_graph(r, (cg_graph_id)(CG_R0 + g));
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
	for (int g = 0; g < 4; g++)
		cg_free(gs.g[g]);
	pta_collapsed_free(&gs.collapsed);
	for (size_t i = 0; i < gs.by_set.cap; i++)
		free(gs.by_set.slots[i].value);
	ptrmap_free(&gs.by_set);
	return sites;
}
