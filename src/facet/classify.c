/* classify.c — warrant-based fact classification (§3.3), abstention
 * (§3.4.2) and the residual questions (§3.4.1).
 *
 * At each indirect site c with dispatched field S.m = disp(c), facts are
 * proposed — an add for every f in F(S.m), a prune for every f in R0(c) that
 * a refutation excludes — and classified by the rules of Figure 4, the
 * refutations first, the first rule that applies deciding:
 *   Prune-Store / Add-Unstored   F(S.m) ≠ ∅ ∧ f ∉ F(S.m), or    premise π_proj
 *                                F(S.m) = ∅ where the program
 *                                writes S.m (with no function)
 *   Prune-Sig   / Add-Sig        sig(f) ≁ sig(S.m)              premise π_sig
 *   Keep-Cast   / Add-Cast       sig(f) ≁ sig(S.m), but f's      premise π_cast
 *                                address is cast to a type that
 *                                fits where it is taken (cast.c):
 *                                the prune is rejected, an add
 *                                from F supported
 *   Add-Type (adds only)         f does not fit the call's IR    premise π_sig
 *                                type under R0's filter
 *   Add-Witness                  f ∈ init(S.m)                  premise-free
 *   Add-Store                    f ∈ F(S.m) \ init(S.m)         premise π_bind
 * A fact no rule classifies is residual. An oracle's answers (oracle.h) are
 * facts like any other and go through the same rules. */
#include "facet/internal.h"

#include <stdio.h>
#include <string.h>

#include "facet/oracle.h"
#include "facet/sig.h"

static bool contains(const unsigned *v, unsigned n, unsigned x)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (v[mid] == x)
			return true;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* A function or global the assignment records by its linked name, as
 * people read it (a C++ one demangled); "?" for none. */
static const char *fn_shown(const facet_ctx *x, const char *linked)
{
	const ir_function *f = linked ? ir_find_function(x->prog, linked) : NULL;
	return f ? ir_function_label(f) : linked ? linked : "?";
}

static const char *global_shown(const facet_ctx *x, const char *linked)
{
	const ir_global *g = linked ? ir_find_global(x->prog, linked) : NULL;
	return g ? ir_global_label(g) : linked ? linked : "?";
}

static const char *place_text(facet_ctx *x, const facet_assign *a)
{
	const char *file = a->loc.file ? a->loc.file : "?";
	switch (a->form) {
	case FORM_INIT:
		return arena_printf(x->arena, "initializer %s+%llu (%s:%u)", global_shown(x, a->global),
		                    (unsigned long long)a->slot, file, a->loc.line);
	case FORM_STORE:
		if (a->via)
			return arena_printf(x->arena, "store at %s:%u in %s of a va_arg read, passed through %s's ...", file,
			                    a->loc.line, fn_shown(x, a->in_function), fn_shown(x, a->via));
		return arena_printf(x->arena, "store at %s:%u in %s", file, a->loc.line, fn_shown(x, a->in_function));
	case FORM_COPY:
		return arena_printf(x->arena, "copy at %s:%u in %s", file, a->loc.line, fn_shown(x, a->in_function));
	}
	return "?";
}

/* The first recorded place that brings f into the field: an initializer,
 * or one whose flow is established. */
typedef enum place_kind { PLACE_INIT, PLACE_ESTABLISHED } place_kind;
static const facet_assign *evidence_of(const facet_field *fl, unsigned f, place_kind kind)
{
	for (unsigned i = 0; i < fl->n_assigns; i++) {
		const facet_assign *a = &fl->assigns[i];
		if (a->function == f && (kind == PLACE_INIT ? a->form == FORM_INIT : a->established))
			return a;
	}
	return NULL;
}

/* Add-Type (facet's): an added target must fit the call's IR function type
 * under the filter R0 applies (pta_type_fits, with its unprototyped-call
 * rule), whatever the debug info says. A declared library function has no
 * debug signature, which the signature rules take as compatible with any
 * field (realloc at a three-argument handler field). */
static bool reject_by_ir_type(facet_ctx *x, const facet_site *fs, unsigned f, facet_decision *d)
{
	const ir_site *s = &x->prog->sites[fs->site];
	const ir_function *fn = x->prog->functions[f];
	if (pta_type_fits(s, fn))
		return false;
	d->rule = RULE_ADD_TYPE;
	d->premise = PREMISE_SIG;
	d->outcome = OUTCOME_REJECTED;
	d->evidence = arena_printf(x->arena, "%s has IR type %s, which does not fit the call's %s", ir_function_label(fn),
	                           fn->ir_type, s->call_type);
	return true;
}

/* Keep-Cast: the signature would refute f, but the program casts f's
 * address to a type compatible with `sig` where it takes it. A prune is
 * rejected; an add needs a place bringing f into the field (`place`, else
 * no rule decides it) and is supported, premised on π_cast. */
static bool classify_cast(facet_ctx *x, unsigned f, di_type *sig, fact_kind kind, const facet_assign *place,
                          facet_decision *d)
{
	const facet_cast *c = cast_fit(x, f, sig);
	if (!c)
		return false;
	if (kind == FACT_ADD && !place)
		return true;   /* residual */
	d->rule = kind == FACT_PRUNE ? RULE_KEEP_CAST : RULE_ADD_CAST;
	d->premise = PREMISE_CAST;
	d->outcome = kind == FACT_PRUNE ? OUTCOME_REJECTED : OUTCOME_SUPPORTED;
	d->evidence = kind == FACT_PRUNE ? cast_text(x, f, c)
	                                 : arena_printf(x->arena, "%s; %s", place_text(x, place), cast_text(x, f, c));
	return true;
}

/* An unrecovered site whose callee a variable or parameter declares (facet's
 * extension): Prune-Sig and Add-Sig against that type, under the same
 * premise π_sig as a field's signature (Keep-Cast when f is cast to it).
 * No F, so no other rule applies. */
static void classify_by_callee_type(facet_ctx *x, const facet_site *fs, unsigned f, fact_kind kind,
                                    facet_decision *d)
{
	const ir_function *fn = x->prog->functions[f];
	if (!fs->callee_sig || sig_compatible_cached(&x->sigs, fn->di_sig, fs->callee_sig))
		return;
	if (classify_cast(x, f, fs->callee_sig, kind, NULL, d))
		return;
	char a[256], b[256];
	d->rule = kind == FACT_PRUNE ? RULE_PRUNE_SIG : RULE_ADD_SIG;
	d->premise = PREMISE_SIG;
	d->outcome = kind == FACT_PRUNE ? OUTCOME_SUPPORTED : OUTCOME_REJECTED;
	d->evidence = arena_printf(x->arena, "sig(%s) = %s is not compatible with the callee's declared type %s "
	                           "(variable %s)", ir_function_label(fn), sig_text(fn->di_sig, a, sizeof a),
	                           sig_text(fs->callee_sig, b, sizeof b), fs->callee_var ? fs->callee_var : "?");
}

/* Classifies ⟨c, f, kind⟩ by Figure 4; fills d's rule, premise, outcome, evidence. */
static void classify(facet_ctx *x, const facet_site *fs, unsigned f, fact_kind kind, facet_decision *d)
{
	d->site = fs->site;
	d->function = f;
	d->fact = kind;
	d->rule = RULE_NONE;
	d->premise = PREMISE_NONE;
	d->outcome = OUTCOME_RESIDUAL;
	d->evidence = NULL;
	if (fs->field == IR_NONE) {
		if (kind == FACT_ADD && reject_by_ir_type(x, fs, f, d))
			return;
		classify_by_callee_type(x, fs, f, kind, d);
		return;
	}
	const facet_field *fl = &x->fields.items[fs->field];
	if (!fl->function_pointer)
		return;
	const ir_function *fn = x->prog->functions[f];
	char a[256], b[256];
	/* Refutations first (§3.3.2). An empty F is trusted where the program
	 * is seen to write the field (facet.h: empty_write); a field no write
	 * reaches may be written as another type or outside the program. */
	if ((fl->n_F > 0 || fl->empty_write) && !contains(fl->F, fl->n_F, f)) {
		d->rule = kind == FACT_PRUNE ? RULE_PRUNE_STORE : RULE_ADD_UNSTORED;
		d->premise = PREMISE_PROJ;
		d->outcome = kind == FACT_PRUNE ? OUTCOME_SUPPORTED : OUTCOME_REJECTED;
		if (fl->n_F > 0)
			d->evidence = arena_printf(x->arena, "F(%s) holds %u function%s and not %s", facet_field_shown(fl),
			                           fl->n_F, fl->n_F == 1 ? "" : "s", ir_function_label(fn));
		else
			d->evidence = arena_printf(x->arena, "F(%s) is empty: the program writes it with no function "
			                           "(%s) and not %s", facet_field_shown(fl),
			                           place_text(x, fl->empty_write), ir_function_label(fn));
		return;
	}
	if (kind == FACT_ADD && reject_by_ir_type(x, fs, f, d))
		return;
	if (!sig_compatible_cached(&x->sigs, fn->di_sig, fl->sig)) {
		const facet_assign *place = kind == FACT_ADD ? evidence_of(fl, f, PLACE_INIT) : NULL;
		if (kind == FACT_ADD && !place)
			place = evidence_of(fl, f, PLACE_ESTABLISHED);
		if (classify_cast(x, f, fl->sig, kind, place, d))
			return;
		d->rule = kind == FACT_PRUNE ? RULE_PRUNE_SIG : RULE_ADD_SIG;
		d->premise = PREMISE_SIG;
		d->outcome = kind == FACT_PRUNE ? OUTCOME_SUPPORTED : OUTCOME_REJECTED;
		d->evidence = arena_printf(x->arena, "sig(%s) = %s is not compatible with sig(%s) = %s",
		                           ir_function_label(fn), sig_text(fn->di_sig, a, sizeof a), facet_field_shown(fl), sig_text(fl->sig, b, sizeof b));
		return;
	}
	if (kind != FACT_ADD)
		return;
	/* Witnesses (§3.3.1). */
	const facet_assign *w = evidence_of(fl, f, PLACE_INIT);
	if (w) {
		d->rule = RULE_ADD_WITNESS;
		d->premise = PREMISE_TRUE;
		d->outcome = OUTCOME_SUPPORTED;
		d->evidence = place_text(x, w);
		return;
	}
	/* Add-Store needs a place whose flow into the field is established
	 * (origin.c): a store of what the program declares as data does not
	 * support an add, though it keeps f in F for the refutations. */
	w = evidence_of(fl, f, PLACE_ESTABLISHED);
	if (w) {
		d->rule = RULE_ADD_STORE;
		d->premise = PREMISE_BIND;
		d->outcome = OUTCOME_SUPPORTED;
		d->evidence = place_text(x, w);
	}
}

typedef VEC(facet_decision) decision_list;

static void push(decision_list *out, const facet_decision *d)
{
	VEC_PUSH(out, *d);
}

/* The site's symbolic result: R0 minus the refuted targets, plus the
 * warranted additions unless the site abstains. Written into `out`. */
typedef VEC(unsigned) fn_list;

static void symbolic_result(facet_ctx *x, const facet_site *fs, const decision_list *dl, size_t first,
                            fn_list *out)
{
	const cg_graph *r0 = x->res->r0;
	VEC_CLEAR(out);
	for (unsigned i = 0; i < r0->n_targets[fs->site]; i++) {
		unsigned f = r0->targets[fs->site][i];
		bool refuted = false;
		for (size_t j = first; j < dl->len; j++)
			if (dl->items[j].function == f && dl->items[j].fact == FACT_PRUNE &&
			    dl->items[j].outcome == OUTCOME_SUPPORTED)
				refuted = true;
		if (!refuted)
			VEC_PUSH(out, f);
	}
	if (fs->abstains)
		return;
	for (size_t j = first; j < dl->len; j++) {
		const facet_decision *d = &dl->items[j];
		if (d->fact == FACT_ADD && d->outcome == OUTCOME_SUPPORTED) {
			bool have = false;
			for (size_t k = 0; k < out->len; k++)
				have |= out->items[k] == d->function;
			if (!have)
				VEC_PUSH(out, d->function);
		}
	}
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

/* Completion candidates: the address-taken functions of the site's
 * signature category — the call's IR type (as R0's filter) and, when the
 * field is recovered and typed, a signature compatible with it (else with
 * the callee's declared type, when a variable declares it). */
static void completion_candidates(facet_ctx *x, const facet_site *fs, fn_list *out)
{
	const ir_program *p = x->prog;
	const ir_site *s = &p->sites[fs->site];
	const facet_field *fl = fs->field != IR_NONE ? &x->fields.items[fs->field] : NULL;
	VEC_CLEAR(out);
	for (unsigned f = 0; f < p->n_functions; f++) {
		const ir_function *fn = p->functions[f];
		if (!fn->address_taken || fn->intrinsic || !pta_type_fits(s, fn))
			continue;
		if (fl && fl->function_pointer && !cast_sig_fits(x, f, fl->sig))
			continue;
		if (!fl && fs->callee_sig && !cast_sig_fits(x, f, fs->callee_sig))
			continue;
		VEC_PUSH(out, f);
	}
}

typedef VEC(facet_question) question_list;

static void add_question(facet_ctx *x, question_list *qs, question_kind kind, const facet_site *fs,
                         fn_list *cands)
{
	if (cands->len == 0)
		return;
	qsort(cands->items, cands->len, sizeof *cands->items, cmp_unsigned);
	facet_question q = {.kind = kind, .site = fs->site, .field = fs->field};
	q.candidates = arena_memdup(x->arena, cands->items, cands->len * sizeof *cands->items);
	q.n_candidates = (unsigned)cands->len;
	VEC_PUSH(qs, q);
}

/* Asks the oracle q and classifies its answers as facts (§3.4.2). */
static void ask(facet_ctx *x, facet_question *q, const facet_site *fs, decision_list *dl)
{
	facet_oracle *o = x->res->options.oracle;
	if (!o || !o->ask)
		return;
	oracle_verdict *v = xcalloc(q->n_candidates + 1, sizeof *v);
	if (o->ask(o, x->res, q, v)) {
		q->answered = true;
		for (unsigned i = 0; i < q->n_candidates; i++) {
			fact_kind kind;
			if (q->kind == QUESTION_COMPLETION && v[i] == VERDICT_YES)
				kind = FACT_ADD;
			else if (q->kind == QUESTION_DISAMBIGUATION && v[i] == VERDICT_NO)
				kind = FACT_PRUNE;
			else
				continue;
			facet_decision d;
			classify(x, fs, q->candidates[i], kind, &d);
			d.source = SOURCE_ORACLE;
			if (d.outcome == OUTCOME_RESIDUAL)
				d.evidence = arena_printf(x->arena, "oracle %s: %s", o->name,
				                          kind == FACT_ADD ? "yes (completion)" : "no (disambiguation)");
			push(dl, &d);
		}
	}
	free(v);
}

void classify_sites(facet_ctx *x)
{
	facet_result *res = x->res;
	const cg_graph *r0 = res->r0;
	decision_list dl = {0};
	question_list qs = {0};
	fn_list sym = {0}, cands = {0};
	for (unsigned i = 0; i < res->n_sites; i++) {
		facet_site *fs = &res->sites[i];
		size_t first = dl.len;
		const facet_field *fl = fs->field != IR_NONE ? &x->fields.items[fs->field] : NULL;
		if (fl && fl->function_pointer) {
			/* ❸ propose: an add per f ∈ F(disp(c)), a prune per refuted f ∈ R0(c) */
			for (unsigned k = 0; k < fl->n_F; k++) {
				facet_decision d;
				classify(x, fs, fl->F[k], FACT_ADD, &d);
				/* A proposal no rule decides (f reaches F only through stores
				 * of what the program declares as data) is not a fact: the
				 * derivation adopts residual adds, which are the oracle's. */
				if (d.outcome != OUTCOME_RESIDUAL)
					push(&dl, &d);
			}
			for (unsigned k = 0; k < r0->n_targets[fs->site]; k++) {
				facet_decision d;
				classify(x, fs, r0->targets[fs->site][k], FACT_PRUNE, &d);
				if (d.outcome != OUTCOME_RESIDUAL)   /* supported, or rejected by Keep-Cast */
					push(&dl, &d);
			}
		} else if (!fl && fs->callee_sig) {
			for (unsigned k = 0; k < r0->n_targets[fs->site]; k++) {
				facet_decision d;
				classify(x, fs, r0->targets[fs->site][k], FACT_PRUNE, &d);
				if (d.outcome != OUTCOME_RESIDUAL)   /* supported, or rejected by Keep-Cast */
					push(&dl, &d);
			}
		}
		/* ❹ the symbolic result and abstention: 0 < |R0(c) \ Psym(c)| ≤ τ */
		unsigned n_psym = 0;
		for (size_t j = first; j < dl.len; j++)
			n_psym += dl.items[j].fact == FACT_PRUNE && dl.items[j].outcome == OUTCOME_SUPPORTED;
		fs->n_r0 = r0->n_targets[fs->site];
		fs->n_sym = fs->n_r0 - n_psym;
		fs->abstains = fs->n_sym > 0 && fs->n_sym <= res->options.tau;
		fs->runtime_code = pta_site_calls_runtime_code(res->pta, fs->site);
		/* ❺ the residual questions */
		symbolic_result(x, fs, &dl, first, &sym);
		if (sym.len == 0) {
			completion_candidates(x, fs, &cands);
			add_question(x, &qs, QUESTION_COMPLETION, fs, &cands);
		} else if (!fs->abstains && sym.len >= 2) {
			/* Same-signature residual case: some target no warrant decides. */
			bool unwarranted = false;
			for (size_t k = 0; k < sym.len && !unwarranted; k++) {
				bool warranted = false;
				for (size_t j = first; j < dl.len; j++)
					warranted |= dl.items[j].function == sym.items[k] && dl.items[j].fact == FACT_ADD &&
					             dl.items[j].outcome == OUTCOME_SUPPORTED;
				unwarranted = !warranted;
			}
			if (unwarranted) {
				VEC_CLEAR(&cands);
				for (size_t k = 0; k < sym.len; k++)
					VEC_PUSH(&cands, sym.items[k]);
				add_question(x, &qs, QUESTION_DISAMBIGUATION, fs, &cands);
			}
		}
		if (qs.len > 0 && qs.items[qs.len - 1].site == fs->site)
			ask(x, &qs.items[qs.len - 1], fs, &dl);   /* ❻ adopted at derivation, under precedence */
	}
	res->decisions = dl.len ? arena_memdup(x->arena, dl.items, dl.len * sizeof *dl.items) : NULL;
	res->n_decisions = (unsigned)dl.len;
	res->questions = qs.len ? arena_memdup(x->arena, qs.items, qs.len * sizeof *qs.items) : NULL;
	res->n_questions = (unsigned)qs.len;
	VEC_FREE(&dl);
	VEC_FREE(&qs);
	VEC_FREE(&sym);
	VEC_FREE(&cands);
}
