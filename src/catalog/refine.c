/* refine.c — the refinement's results into the catalog: recovered fields,
 * their assignment sets (with evidence) and the assignments the signature
 * filter rejected, the dispatched field of every indirect site, every
 * decision with its warrant, the residual questions. */
#include "catalog/internal.h"


#include "facet/facet.h"
#include "facet/sig.h"

/* ---- the refinement ------------------------------------------------------------------- */

/* One row of field_assignments or field_rejected_assignments (same columns). */
static bool write_assign(writer *w, sqlite3_stmt *st, unsigned field, const facet_assign *a)
{
	sqlite3_bind_int64(st, 1, field);
	sqlite3_bind_int64(st, 2, a->function);
	catalog_w_text(st, 3, assign_form_name(a->form));
	catalog_w_text(st, 4, a->form == FORM_INIT ? a->global : NULL);
	if (a->form == FORM_INIT)
		sqlite3_bind_int64(st, 5, (sqlite3_int64)a->slot);
	catalog_w_text(st, 6, a->loc.file);
	sqlite3_bind_int64(st, 7, a->loc.line);
	sqlite3_bind_int64(st, 8, a->loc.col);
	catalog_w_text(st, 9, a->in_function);
	return catalog_w_step(w, st);
}

/* One row of decisions (the statement names its graph: 'rpm' or 'vslot'). */
typedef struct decision_row { sqlite3_int64 id; const facet_decision *d; } decision_row;

static void bind_decision(sqlite3_stmt *de, int col0, const void *row)
{
	const decision_row *r = row;
	const facet_decision *d = r->d;
	sqlite3_bind_int64(de, col0 + 1, r->id);
	sqlite3_bind_int64(de, col0 + 2, d->site);
	sqlite3_bind_int64(de, col0 + 3, d->function);
	catalog_w_text(de, col0 + 4, fact_kind_name(d->fact));
	catalog_w_text(de, col0 + 5, fact_outcome_name(d->outcome));
	catalog_w_text(de, col0 + 6, facet_rule_name(d->rule));
	catalog_w_text(de, col0 + 7, facet_premise_name(d->premise));
	catalog_w_text(de, col0 + 8, d->source == SOURCE_ORACLE ? "oracle" : "symbolic");
	catalog_w_text(de, col0 + 9, d->evidence);
}

/* Table decisions, ids from first: in batches (dovecot: 294,000 rows). */
static bool write_decisions(writer *w, const char *graph, sqlite3_int64 first, const facet_decision *d, size_t n)
{
	char values[64];
	snprintf(values, sizeof values, "(?,?,?,?,?,?,?,?,?,'%s')", graph);
	catalog_rows rows;
	bool ok = catalog_rows_begin(&rows, w, "decisions", values, 9, sizeof(decision_row), bind_decision);
	for (size_t i = 0; ok && i < n; i++) {
		decision_row r = {first + (sqlite3_int64)i, &d[i]};
		ok = catalog_rows_add(&rows, &r);
	}
	return catalog_rows_end(&rows, ok);
}

bool catalog_write_refinement(writer *w, const facet_result *r)
{
	sqlite3_stmt *fs = catalog_w_prep(w, "INSERT INTO fields VALUES(?1,?2,?3,?4,?5,?6,?7,?8)");
	sqlite3_stmt *as = catalog_w_prep(w, "INSERT INTO field_assignments VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
	sqlite3_stmt *rs = catalog_w_prep(w, "INSERT INTO field_rejected_assignments VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
	sqlite3_stmt *ds = catalog_w_prep(w, "INSERT INTO dispatch VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)");
	sqlite3_stmt *qs = catalog_w_prep(w, "INSERT INTO questions VALUES(?1,?2,?3,?4,?5)");
	sqlite3_stmt *qc = catalog_w_prep(w, "INSERT INTO question_candidates VALUES(?1,?2)");
	bool ok = fs && as && rs && ds && qs && qc;
	for (unsigned i = 0; ok && i < r->n_fields; i++) {
		const facet_field *f = &r->fields[i];
		sqlite3_bind_int64(fs, 1, f->id);
		catalog_w_text(fs, 2, f->kind == FIELD_STRUCT ? "struct" : f->kind == FIELD_GLOBAL ? "global" : "array");
		catalog_w_text(fs, 3, f->record);
		sqlite3_bind_int64(fs, 4, (sqlite3_int64)f->offset);
		catalog_w_text(fs, 5, f->name);
		catalog_w_text(fs, 6, f->key ? f->key : "");
		catalog_w_text(fs, 7, f->sig_text);
		sqlite3_bind_int64(fs, 8, f->n_sites);
		ok = catalog_w_step(w, fs);
		for (unsigned k = 0; ok && k < f->n_assigns; k++)
			ok = write_assign(w, as, f->id, &f->assigns[k]);
		for (unsigned k = 0; ok && k < f->n_rejected; k++)
			ok = write_assign(w, rs, f->id, &f->rejected[k]);
	}
	for (unsigned i = 0; ok && i < r->n_sites; i++) {
		const facet_site *s = &r->sites[i];
		sqlite3_bind_int64(ds, 1, s->site);
		catalog_w_text(ds, 2, disp_status_name(s->status));
		catalog_w_text(ds, 3, disp_step_name(s->step));
		sqlite3_bind_int64(ds, 4, s->depth);
		catalog_w_id(ds, 5, s->field);
		sqlite3_bind_int64(ds, 6, s->offset);
		catalog_w_text(ds, 7, s->reason);
		catalog_w_text(ds, 8, s->base_type);
		sqlite3_bind_int64(ds, 9, s->n_r0);
		sqlite3_bind_int64(ds, 10, s->n_sym);
		sqlite3_bind_int(ds, 11, s->abstains);
		char sig[256];
		catalog_w_text(ds, 12, s->callee_sig ? sig_text(s->callee_sig, sig, sizeof sig) : NULL);
		catalog_w_text(ds, 13, s->callee_var);
		sqlite3_bind_int(ds, 14, s->runtime_code);
		ok = catalog_w_step(w, ds);
	}
	ok = ok && write_decisions(w, "rpm", 0, r->decisions, r->n_decisions);
	for (unsigned i = 0; ok && i < r->n_questions; i++) {
		const facet_question *q = &r->questions[i];
		sqlite3_bind_int64(qs, 1, i);
		catalog_w_text(qs, 2, q->kind == QUESTION_COMPLETION ? "completion" : "disambiguation");
		sqlite3_bind_int64(qs, 3, q->site);
		catalog_w_id(qs, 4, q->field);
		sqlite3_bind_int(qs, 5, q->answered);
		ok = catalog_w_step(w, qs);
		for (unsigned k = 0; ok && k < q->n_candidates; k++) {
			sqlite3_bind_int64(qc, 1, i);
			sqlite3_bind_int64(qc, 2, q->candidates[k]);
			ok = catalog_w_step(w, qc);
		}
	}
	/* Stores the refinement located: their own line, and the field they fill. */
	sqlite3_stmt *us = ok ? catalog_w_prep(w, "INSERT INTO address_uses(function, kind, in_function, file, line, col, field) "
	                                "VALUES(?1,?2,?3,?4,?5,?6,?7)") : NULL;
	ok = ok && us;
	for (unsigned i = 0; ok && i < r->n_fields; i++) {
		const facet_field *f = &r->fields[i];
		for (unsigned k = 0; ok && k < f->n_assigns; k++) {
			const facet_assign *a = &f->assigns[k];
			if (a->form == FORM_INIT)
				continue;
			const ir_function *in = a->in_function ? ir_find_function(r->prog, a->in_function) : NULL;
			sqlite3_bind_int64(us, 1, a->function);
			catalog_w_text(us, 2, a->form == FORM_STORE ? "field_store" : "field_copy");
			catalog_w_id(us, 3, in ? in->id : IR_NONE);
			catalog_w_text(us, 4, a->loc.file);
			sqlite3_bind_int64(us, 5, a->loc.line);
			sqlite3_bind_int64(us, 6, a->loc.col);
			sqlite3_bind_int64(us, 7, f->id);
			ok = catalog_w_step(w, us);
		}
	}
	sqlite3_finalize(us);
	sqlite3_finalize(fs);
	sqlite3_finalize(as);
	sqlite3_finalize(rs);
	sqlite3_finalize(ds);
	sqlite3_finalize(qs);
	sqlite3_finalize(qc);
	return ok;
}

bool catalog_write_virtual(writer *w, const catalog_build *b)
{
	const ir_program *p = b->prog;
	sqlite3_stmt *vs = catalog_w_prep(w, "INSERT INTO virtual_calls VALUES(?1,?2,?3,?4)");
	bool ok = vs != NULL;
	for (unsigned i = 0; ok && i < p->n_vcalls; i++) {
		const ir_vcall *vc = &p->vcalls[i];
		sqlite3_bind_int64(vs, 1, vc->site);
		catalog_w_text(vs, 2, vc->cls != IR_NONE ? p->classes[vc->cls]->name : NULL);
		if (vc->any_slot)
			sqlite3_bind_null(vs, 3);
		else
			sqlite3_bind_int64(vs, 3, vc->slot_offset / (int64_t)p->pointer_size);
		catalog_w_text(vs, 4, vc->cls_from);
		ok = catalog_w_step(w, vs);
	}
	sqlite3_finalize(vs);
	if (!ok || !b->n_vslot_decisions)
		return ok;
	sqlite3_int64 id = b->refine ? b->refine->n_decisions : 0;   /* after the refinement's */
	return write_decisions(w, "vslot", id, b->vslot_decisions, b->n_vslot_decisions);
}
