/* resolve.c — the facts of every unit into the program model, graph
 * `source`, and the warrants (source.h says the rules).
 *
 * Functions are numbered definitions first (in the order the units met
 * them), then the names no unit defines. Names are made unique the way
 * LLVM's linker makes colliding statics unique (name, name.1, ...), so the
 * catalog's `name` stays a key and `source_name` keeps what the code says.
 * Sites are numbered by caller, in each body's order.
 *
 * Indirect candidates: the functions that reach a location, through the
 * locations that copy into it (a copy of a copy too, to a fixed point:
 * over-approximate, never infer safety); arguments of indirect calls reach
 * their candidates' parameters, which can add candidates, so the two
 * alternate until nothing is new. A candidate written by an initializer is premise-free
 * (Add-Witness); one stored, copied or passed needs the binding premise
 * (Add-Store), as the refinement labels them on bitcode. */
#include "source/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facet/sig.h"
#include "util/xalloc.h"

typedef struct cand {
	unsigned fn;
	bool init;                 /* some initializer writes it here (premise-free) */
	unsigned flow;             /* the evidence: the first flow that brings it */
} cand;

typedef struct keyset {
	const char *key;
	VEC(unsigned) flows;       /* flows into key */
	VEC(unsigned) out;         /* copy flows out of key (their value is this key) */
	bool queued;
	cand *cands;               /* F(key), by function id */
	unsigned n_cands;
	unsigned field;            /* its facet_field id, SRC_NONE until it has one */
	unsigned n_sites;          /* indirect sites reading it */
	bool written;              /* something in the tree writes it (open_locations) */
	const char *open;          /* why its evidence is incomplete, NULL when complete */
} keyset;

typedef struct resolver {
	src_facts *f;
	ir_program *p;
	VEC(ir_function *) fns;
	strmap names;              /* linked name -> function (uniqueness) */
	strmap externals;          /* source name -> VEC of non-static def indices */
	strmap undefined;          /* source name -> the undefined function */
	strmap keysets;            /* key -> keyset* */
	VEC(keyset *) all_keys;
	VEC(keyset *) field_keys;  /* by facet_field id */
	VEC(unsigned) scratch;
	source_counts *counts;
	source_fallback rule;
	src_fallback *fb;          /* the taken functions, NULL when the fallback is off */
	strmap taken_at;           /* linked name -> "file:line" where the tree first takes its address */
	VEC(unsigned char) mark;   /* by function id: a decision at the site being made */
} resolver;

typedef VEC(unsigned) uvec;

/* ---- functions and names ---------------------------------------------------------------- */

static const char *unique_name(resolver *r, const char *name)
{
	if (!strmap_has(&r->names, name))
		return ir_intern(r->p, name);
	char buf[4200];
	for (unsigned i = 1;; i++) {
		snprintf(buf, sizeof buf, "%s.%u", name, i);
		if (!strmap_has(&r->names, buf))
			return ir_intern(r->p, buf);
	}
}

static ir_function *new_function(resolver *r, const char *name, bool defined)
{
	ir_function *fn = ARENA_NEW(&r->p->arena, ir_function);
	fn->id = (unsigned)r->fns.len;
	fn->value = IR_NONE;
	fn->name = unique_name(r, name);
	fn->di_name = ir_intern(r->p, name);
	fn->defined = defined;
	fn->linkage = LINK_EXTERNAL;
	strmap_put(&r->names, fn->name, fn);
	strmap_put(&r->p->function_by_name, fn->name, fn);
	VEC_PUSH(&r->fns, fn);
	return fn;
}

static const char *sig_string(resolver *r, di_type *sig)
{
	if (!sig)
		return NULL;
	char buf[512];
	return ir_intern(r->p, sig_text(sig, buf, sizeof buf));
}

static void number_definitions(resolver *r)
{
	for (size_t i = 0; i < r->f->defs.len; i++) {
		src_def *d = &r->f->defs.items[i];
		ir_function *fn = new_function(r, d->name, true);
		fn->linkage = d->is_static ? LINK_INTERNAL : LINK_EXTERNAL;
		fn->loc.file = ir_intern(r->p, d->file ? d->file : "");
		fn->loc.line = d->line;
		fn->di_sig = d->sig;
		fn->ir_type = sig_string(r, d->sig);
		fn->vararg = d->sig && d->sig->n_params > 1 && !d->sig->params[d->sig->n_params - 1];
		d->fn = fn->id;
		if (d->is_static)
			continue;
		uvec *v = strmap_get(&r->externals, d->name);
		if (!v) {
			v = xcalloc(1, sizeof *v);
			strmap_put(&r->externals, d->name, v);
		}
		VEC_PUSH(v, (unsigned)i);
	}
}

/* The functions a reference names, by seed 002's order: the naming unit's
 * own definition, else the one external definition, else every external
 * definition (ambiguous), else an undefined function of that name. */
static void resolve_ref(resolver *r, const src_fnref *ref, uvec *out, bool *ambiguous)
{
	VEC_CLEAR(out);
	*ambiguous = false;
	unsigned own = ref->local_def != SRC_NONE ? ref->local_def : src_unit_def(r->f, ref->unit, ref->name);
	if (own != SRC_NONE) {
		VEC_PUSH(out, r->f->defs.items[own].fn);
		return;
	}
	uvec *ext = ref->builtin ? NULL : strmap_get(&r->externals, ref->name);
	if (ext && ext->len) {
		for (size_t i = 0; i < ext->len; i++)
			VEC_PUSH(out, r->f->defs.items[ext->items[i]].fn);
		*ambiguous = ext->len > 1;
		return;
	}
	void *renamed = ref->builtin ? NULL : strmap_get(&r->f->renamed, ref->name);
	if (renamed) {   /* a name a macro gave a definition under the switches (parse.c def_of) */
		VEC_PUSH(out, r->f->defs.items[(uintptr_t)renamed - 1].fn);
		return;
	}
	ir_function *u = strmap_get(&r->undefined, ref->name);
	if (!u) {
		u = new_function(r, ref->name, false);
		u->intrinsic = ref->builtin;
		strmap_put(&r->undefined, ref->name, u);
	}
	VEC_PUSH(out, u->id);
}

/* ---- locations and what reaches them ------------------------------------------------------- */

static keyset *keyset_of(resolver *r, const char *key)
{
	keyset *k = strmap_get(&r->keysets, key);
	if (!k) {
		k = xcalloc(1, sizeof *k);
		k->key = key;
		k->field = SRC_NONE;
		strmap_put(&r->keysets, key, k);
		VEC_PUSH(&r->all_keys, k);
	}
	return k;
}

/* A function passed for a parameter at a direct call flows into that
 * parameter of every definition the call resolves to (a registration). */
static void argument_flows(resolver *r)
{
	uvec targets = {0};
	size_t n_calls = r->f->calls.len;
	for (size_t i = 0; i < n_calls; i++) {
		src_call *c = &r->f->calls.items[i];
		if (c->kind != CALLEE_NAME || c->n_args == 0)
			continue;
		bool amb;
		resolve_ref(r, &c->fn, &targets, &amb);
		for (size_t t = 0; t < targets.len; t++) {
			ir_function *fn = r->fns.items[targets.items[t]];
			if (!fn->defined)
				continue;
			const src_def *d = &r->f->defs.items[fn->id];   /* definitions come first: id = def index */
			for (unsigned a = 0; a < c->n_args; a++) {
				const src_arg *arg = &r->f->args.items[c->first_arg + a];
				src_flow fl = {.key = src_param_key(r->f, d, arg->index), .value = arg->value,
				               .form = FORM_STORE, .file = c->file, .line = c->line, .col = c->col,
				               .in_def = c->caller, .unit = c->unit};
				VEC_PUSH(&r->f->flows, fl);
			}
		}
	}
	VEC_FREE(&targets);
}

static void copy_flow(resolver *r, const char *to, const char *from, const src_retof *at)
{
	src_flow fl = {.key = to, .value = {.is_key = true, .key = from}, .form = FORM_STORE, .in_def = at->in_def,
	               .file = at->file, .line = at->line, .col = at->col};
	VEC_PUSH(&r->f->flows, fl);
}

/* A call's result as a location is the return location of every
 * definition its name resolves to, both ways (internal.h src_retof). */
static void return_flows(resolver *r)
{
	uvec targets = {0};
	for (size_t i = 0; i < r->f->retofs.len; i++) {
		const src_retof *ro = &r->f->retofs.items[i];
		bool amb;
		resolve_ref(r, &ro->fn, &targets, &amb);
		for (size_t t = 0; t < targets.len; t++) {
			ir_function *fn = r->fns.items[targets.items[t]];
			if (!fn->defined)
				continue;
			const char *ret = src_ret_key(r->f, &r->f->defs.items[fn->id]);
			copy_flow(r, ro->key, ret, ro);
			copy_flow(r, ret, ro->key, ro);
		}
	}
	VEC_FREE(&targets);
}

/* A read through a cast of other memory (internal.h by_type) copies from
 * every field, variable and memory location whose element type is the one
 * read: over-approximate, the way a type-based fallback must be. */
static void type_flows(resolver *r)
{
	src_retof none = {.in_def = SRC_NONE};
	for (size_t i = 0; i < r->f->keys.cap; i++) {
		const src_keyinfo *cast = r->f->keys.slots[i].value;
		if (!r->f->keys.slots[i].key || !cast->by_type)
			continue;
		for (size_t j = 0; j < r->f->keys.cap; j++) {
			const src_keyinfo *k = r->f->keys.slots[j].value;
			if (r->f->keys.slots[j].key && j != i && !k->by_type && (k->kind == KEY_FIELD || k->kind == KEY_VAR) &&
			    k->canon && strcmp(k->canon, cast->canon) == 0) {
				copy_flow(r, r->f->keys.slots[i].key, r->f->keys.slots[j].key, &none);
				VEC_LAST(&r->f->flows).by_type = true;
			}
		}
	}
}

static void index_flows(resolver *r, size_t from)
{
	for (size_t i = from; i < r->f->flows.len; i++) {
		const src_flow *fl = &r->f->flows.items[i];
		keyset *to = keyset_of(r, fl->key);
		VEC_PUSH(&to->flows, (unsigned)i);
		if (fl->value.is_key)
			VEC_PUSH(&keyset_of(r, fl->value.key)->out, (unsigned)i);
	}
}

typedef VEC(cand) cand_vec;

static int cand_cmp(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return x->flow < y->flow ? -1 : x->flow > y->flow;
}

static void add_cand(cand_vec *v, unsigned fn, bool init, unsigned flow)
{
	cand c = {fn, init, flow};
	VEC_PUSH(v, c);
}

/* Sorted by function, one entry each: initialised if any entry was, the
 * evidence the earliest flow. */
static void merge_cands(cand_vec *v)
{
	if (v->len > 1)
		qsort(v->items, v->len, sizeof *v->items, cand_cmp);
	size_t k = 0;
	for (size_t i = 0; i < v->len; i++) {
		if (k && v->items[k - 1].fn == v->items[i].fn) {
			v->items[k - 1].init |= v->items[i].init;
			continue;
		}
		v->items[k++] = v->items[i];
	}
	v->len = k;
}

/* F(key) of every location: first the functions its own flows name, then
 * copies propagated to a fixed point (a worklist over the copy flows, so
 * copy cycles, as a pointer returned to its own target makes, are exact). */
static void propagate(resolver *r)
{
	uvec targets = {0}, work = {0};
	for (size_t i = 0; i < r->all_keys.len; i++) {
		keyset *k = r->all_keys.items[i];
		free(k->cands);   /* a later round starts again: more flows, same rules */
		cand_vec v = {0};
		for (size_t f = 0; f < k->flows.len; f++) {
			const src_flow *fl = &r->f->flows.items[k->flows.items[f]];
			if (!src_value_names_fn(&fl->value))
				continue;
			bool amb;
			resolve_ref(r, &fl->value.fn, &targets, &amb);
			for (size_t t = 0; t < targets.len; t++) {
				r->fns.items[targets.items[t]]->address_taken = true;
				add_cand(&v, targets.items[t], fl->form == FORM_INIT, k->flows.items[f]);
			}
		}
		merge_cands(&v);
		k->cands = v.items;
		k->n_cands = (unsigned)v.len;
		if (k->n_cands && k->out.len) {
			k->queued = true;
			VEC_PUSH(&work, (unsigned)i);
		}
	}
	for (size_t i = 0; i < r->all_keys.len; i++)
		r->all_keys.items[i]->field = (unsigned)i;   /* temporarily: the index, for the worklist */
	while (work.len) {
		keyset *src = r->all_keys.items[work.items[--work.len]];
		src->queued = false;
		for (size_t o = 0; o < src->out.len; o++) {
			unsigned flow = src->out.items[o];
			keyset *dst = strmap_get(&r->keysets, r->f->flows.items[flow].key);
			if (dst == src)
				continue;   /* `copy->f = orig->f` of one struct type: the same location */
			cand_vec v = {dst->cands, dst->n_cands, dst->n_cands};
			for (unsigned c = 0; c < src->n_cands; c++)
				add_cand(&v, src->cands[c].fn, false, flow);
			merge_cands(&v);
			bool grew = v.len > dst->n_cands;
			dst->cands = v.items;
			dst->n_cands = (unsigned)v.len;
			if (grew && dst->out.len && !dst->queued) {
				dst->queued = true;
				VEC_PUSH(&work, dst->field);
			}
		}
	}
	for (size_t i = 0; i < r->all_keys.len; i++)
		r->all_keys.items[i]->field = SRC_NONE;
	VEC_FREE(&targets);
	VEC_FREE(&work);
}

/* A function passed at an indirect call flows into that parameter of every
 * candidate the call's location holds that fits the call (a registration
 * through an ops table: `conn->type->set_read_handler(conn, fn)`). The
 * candidates come from propagate(), and the new flows can add candidates,
 * so the two alternate until no flow is new (a few rounds on real trees;
 * bounded). Returns whether flows were added. */
static bool indirect_argument_flows(resolver *r, strmap *done)
{
	size_t before = r->f->flows.len;
	for (size_t i = 0; i < r->f->calls.len; i++) {
		const src_call *c = &r->f->calls.items[i];
		keyset *k = c->kind == CALLEE_KEY && c->n_args ? strmap_get(&r->keysets, c->key) : NULL;
		for (unsigned t = 0; k && t < k->n_cands; t++) {
			ir_function *fn = r->fns.items[k->cands[t].fn];
			char buf[64];
			snprintf(buf, sizeof buf, "%zu:%u", i, fn->id);
			if (!fn->defined || strmap_has(done, buf) || !sig_compatible(fn->di_sig, c->sig))
				continue;
			strmap_put(done, ir_intern(r->p, buf), NULL);
			const src_def *d = &r->f->defs.items[fn->id];
			for (unsigned a = 0; a < c->n_args; a++) {
				const src_arg *arg = &r->f->args.items[c->first_arg + a];
				src_flow fl = {.key = src_param_key(r->f, d, arg->index), .value = arg->value,
				               .form = FORM_STORE, .file = c->file, .line = c->line, .col = c->col,
				               .in_def = c->caller, .unit = c->unit};
				VEC_PUSH(&r->f->flows, fl);
			}
		}
	}
	index_flows(r, before);
	return r->f->flows.len > before;
}

/* ---- incomplete evidence (source.h: the type fallback) ------------------------------------ */

/* A location as people read it: "S.m", "variable v", "parameter 2 (cb) of
 * register_cb", "what lookup returns", "memory of type T". */
static const char *key_label(resolver *r, const char *key)
{
	const src_keyinfo *ki = strmap_get(&r->f->keys, key);
	if (strncmp(key, "param:", 6) == 0) {
		const char *idx = strrchr(key, ':'), *end = idx;   /* param:FILE:LINE:NAME:I */
		const char *fn = end;
		while (fn > key + 6 && fn[-1] != ':')
			fn--;
		return arena_printf(&r->p->arena, "parameter %s%s%s%s of %.*s", idx + 1, ki ? " (" : "",
		                    ki ? ki->name : "", ki ? ")" : "", (int)(end - fn), fn);
	}
	if (strncmp(key, "choice:", 7) == 0)
		return arena_printf(&r->p->arena, "the callee chosen at %s", key + 7);
	if (!ki)
		return key;
	switch (ki->kind) {
	case KEY_FIELD:
		return arena_printf(&r->p->arena, "%s.%s", ki->record, ki->name);
	case KEY_RET:
		return arena_printf(&r->p->arena, "what %s returns", ki->name);
	case KEY_VAR:
		if (strncmp(key, "mem:", 4) == 0 || strncmp(key, "cast:", 5) == 0)
			return arena_printf(&r->p->arena, "memory of type %s", ki->name);
		return arena_printf(&r->p->arena, "variable %s", ki->name);
	default:
		return arena_printf(&r->p->arena, "%s %s", ki->kind == KEY_PARAM ? "parameter" : "local", ki->name);
	}
}

static const char *flow_place(resolver *r, const src_flow *fl)
{
	const char *in = fl->in_def != SRC_NONE ? r->f->defs.items[fl->in_def].name : NULL;
	return arena_printf(&r->p->arena, "%s:%u%s%s", fl->file ? fl->file : "?", fl->line, in ? " in " : "",
	                    in ? in : "");
}

/* Forward along the copy flows out of the queued keys: `written` (to
 * mark written) or `open` (to pass each one's reason on). */
static void spread(resolver *r, uvec *work, bool written)
{
	while (work->len) {
		keyset *src = r->all_keys.items[work->items[--work->len]];
		for (size_t o = 0; o < src->out.len; o++) {
			keyset *dst = strmap_get(&r->keysets, r->f->flows.items[src->out.items[o]].key);
			if (dst == src || (written ? dst->written : dst->open != NULL))
				continue;
			if (written)
				dst->written = true;
			else
				dst->open = src->open;
			VEC_PUSH(work, dst->field);
		}
	}
}

/* Which locations hold what the tree does not name: one written with an
 * expression naming no function (`(fn_t) dlsym(h, s)`), one copied (in the
 * code, not by a by-type read) from a location nothing in the tree writes
 * (a parameter no call passes anything, a field no code stores), and every
 * location copied from one of those. A location written only with
 * constants is written, with nothing: complete. */
static void open_locations(resolver *r)
{
	uvec work = {0};
	for (size_t i = 0; i < r->all_keys.len; i++) {
		keyset *k = r->all_keys.items[i];
		k->field = (unsigned)i;   /* temporarily: the index, for the worklist */
		for (size_t f = 0; f < k->flows.len && !k->written; f++)
			k->written = !r->f->flows.items[k->flows.items[f]].value.is_key;
		if (k->written)
			VEC_PUSH(&work, (unsigned)i);
	}
	spread(r, &work, true);
	for (size_t i = 0; i < r->all_keys.len; i++) {
		keyset *k = r->all_keys.items[i];
		for (size_t f = 0; f < k->flows.len && !k->open; f++) {
			const src_flow *fl = &r->f->flows.items[k->flows.items[f]];
			const keyset *from = fl->value.is_key ? strmap_get(&r->keysets, fl->value.key) : NULL;
			if (fl->value.opaque)
				k->open = arena_printf(&r->p->arena, "%s receives %s at %s", key_label(r, k->key), fl->value.opaque,
				                       flow_place(r, fl));
			else if (from && from != k && !from->written && !fl->by_type)
				k->open = arena_printf(&r->p->arena, "%s is copied at %s from %s, which nothing in the tree writes",
				                       key_label(r, k->key), flow_place(r, fl), key_label(r, from->key));
		}
		if (k->open)
			VEC_PUSH(&work, (unsigned)i);
	}
	spread(r, &work, false);
	for (size_t i = 0; i < r->all_keys.len; i++)
		r->all_keys.items[i]->field = SRC_NONE;
	VEC_FREE(&work);
}

/* Every function whose name the tree uses other than as a direct callee:
 * address-taken (as LLVM counts it), and the type fallback's candidates. */
static void taken_functions(resolver *r)
{
	uvec targets = {0};
	for (size_t i = 0; i < r->f->taken.len; i++) {
		const src_taken *t = &r->f->taken.items[i];
		bool amb;
		resolve_ref(r, &t->fn, &targets, &amb);
		for (size_t k = 0; k < targets.len; k++) {
			ir_function *fn = r->fns.items[targets.items[k]];
			fn->address_taken = true;
			if (strmap_has(&r->taken_at, fn->name))
				continue;
			strmap_put(&r->taken_at, fn->name,
			           (void *)arena_printf(&r->p->arena, "%s:%u", t->file ? t->file : "?", t->line));
			if (r->fb)
				src_fallback_add(r->fb, fn->id, fn->defined ? fn->di_sig : t->sig);
		}
	}
	VEC_FREE(&targets);
}

/* ---- the program model's sites ------------------------------------------------------------- */

/* Calls ordered by caller (each body's calls stay in order): a function's
 * sites are one run of ids. */
static unsigned *calls_by_caller(resolver *r)
{
	size_t n = r->f->calls.len, nd = r->f->defs.len;
	unsigned *start = xcalloc(nd + 1, sizeof *start), *order = xmalloc((n + 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		start[r->f->calls.items[i].caller + 1]++;
	for (size_t d = 0; d < nd; d++)
		start[d + 1] += start[d];
	for (size_t i = 0; i < n; i++)
		order[start[r->f->calls.items[i].caller]++] = (unsigned)i;
	free(start);
	return order;
}

typedef struct site_out {
	facet_result *res;
	VEC(facet_site) sites;
	VEC(facet_decision) decisions;
	cg_graph *graph;
} site_out;

static const char *evidence(resolver *r, const src_flow *fl, unsigned fn)
{
	if (strncmp(fl->key, "cast:", 5) == 0)
		return arena_printf(&r->p->arena, "%s is held in %s, a location of the type read through a cast (by type)",
		                    r->fns.items[fn]->name, fl->value.key);
	const char *what = fl->value.is_key && strncmp(fl->value.key, "ret:", 4) == 0 ? "returned by a call"
	                   : fl->value.is_key ? "copied from another location" : fl->form == FORM_INIT ? "initializer"
	                   : "assignment";
	if (fl->form == FORM_STORE && !fl->value.is_key && fl->key && strncmp(fl->key, "param:", 6) == 0)
		what = "argument";
	const char *in = fl->in_def != SRC_NONE ? r->f->defs.items[fl->in_def].name : NULL;
	return arena_printf(&r->p->arena, "%s of %s at %s:%u%s%s%s", what, r->fns.items[fn]->name,
	                    fl->file ? fl->file : "?", fl->line, fl->global ? " (" : in ? " in " : "",
	                    fl->global ? fl->global : in ? in : "", fl->global ? ")" : "");
}

static void decide(resolver *r, site_out *o, unsigned site, const src_call *c, const keyset *k, uvec *targets)
{
	VEC_CLEAR(targets);
	for (unsigned i = 0; k && i < k->n_cands; i++) {
		const cand *cd = &k->cands[i];
		ir_function *fn = r->fns.items[cd->fn];
		const src_flow *fl = &r->f->flows.items[cd->flow];
		facet_decision d = {.site = site, .function = cd->fn, .fact = FACT_ADD, .outcome = OUTCOME_SUPPORTED,
		                    .source = SOURCE_SYMBOLIC};
		if (!sig_compatible(fn->di_sig, c->sig)) {
			char a[256], b[256];
			d.fact = FACT_PRUNE;
			d.rule = RULE_PRUNE_SIG;
			d.premise = PREMISE_SIG;
			d.evidence = arena_printf(&r->p->arena, "sig(%s) = %s does not fit the call's %s", fn->name,
			                          sig_text(fn->di_sig, a, sizeof a), sig_text(c->sig, b, sizeof b));
			r->counts->pruned_sig++;
		} else {
			d.rule = cd->init ? RULE_ADD_WITNESS : RULE_ADD_STORE;
			d.premise = cd->init ? PREMISE_TRUE : PREMISE_BIND;
			d.evidence = evidence(r, fl, cd->fn);
			VEC_PUSH(targets, cd->fn);
		}
		VEC_PUSH(&o->decisions, d);
	}
}

/* Why the site's evidence is incomplete, NULL when it is complete. */
static const char *site_open(resolver *r, const src_call *c, const keyset *k, unsigned n_targets)
{
	if (!k)
		return c->reason ? c->reason : "the callee is a computed function pointer";
	if (k->open)
		return k->open;
	if (n_targets == 0 && k->n_cands)
		return arena_printf(&r->p->arena, "every function %s holds is refuted by its signature",
		                    key_label(r, k->key));
	if (n_targets == 0)
		return arena_printf(&r->p->arena, k->written ? "no function the tree names reaches %s"
		                                             : "nothing in the tree writes %s", key_label(r, k->key));
	return NULL;
}

/* The type fallback at an open site: every taken function whose type fits
 * the call's and that no decision at the site names yet, warranted
 * Type-Fallback (premise pi_open), appended to targets. */
static void fallback(resolver *r, site_out *o, unsigned site, const src_call *c, const keyset *k, const char *why,
                     uvec *targets)
{
	for (unsigned i = 0; k && i < k->n_cands; i++)
		r->mark.items[k->cands[i].fn] = 1;
	const unsigned *fits;
	unsigned n = src_fallback_fits(r->fb, c->sig, c->n_written, &fits);
	unsigned added = 0;
	for (unsigned i = 0; i < n; i++) {
		ir_function *fn = r->fns.items[fits[i]];
		if (r->mark.items[fits[i]])
			continue;
		facet_decision d = {.site = site, .function = fits[i], .fact = FACT_ADD, .outcome = OUTCOME_SUPPORTED,
		                    .source = SOURCE_SYMBOLIC, .rule = RULE_TYPE_FALLBACK, .premise = PREMISE_OPEN};
		d.evidence = arena_printf(&r->p->arena, "evidence incomplete at this site: %s; %s's address is taken at %s "
		                          "and its type fits the call's by %s", why, fn->name,
		                          (const char *)strmap_get(&r->taken_at, fn->name), src_fallback_rule_name(r->rule));
		VEC_PUSH(&o->decisions, d);
		VEC_PUSH(targets, fits[i]);
		added++;
	}
	for (unsigned i = 0; k && i < k->n_cands; i++)
		r->mark.items[k->cands[i].fn] = 0;
	r->counts->fallback_sites += added > 0;
	r->counts->fallback_edges += added;
}

static disp_status status_of(const src_facts *f, const char *key)
{
	const src_keyinfo *ki = key ? strmap_get(&f->keys, key) : NULL;
	return !ki ? DISP_UNRECOVERED : ki->kind == KEY_FIELD ? DISP_FIELD : DISP_GLOBAL;
}

static void indirect_site(resolver *r, site_out *o, ir_site *s, const src_call *c, uvec *targets)
{
	keyset *k = c->kind == CALLEE_KEY ? keyset_of(r, c->key) : NULL;   /* F(key) is propagate()'s */
	facet_site fs = {.site = s->id, .status = status_of(r->f, c->key), .step = STEP_DIRECT, .field = SRC_NONE};
	fs.reason = c->kind == CALLEE_UNKNOWN ? c->reason : NULL;
	if (k)
		fs.base_type = ((const src_keyinfo *)strmap_get(&r->f->keys, c->key))->type;
	fs.callee_sig = c->sig;
	if (k && k->field == SRC_NONE) {
		k->field = (unsigned)r->field_keys.len;
		VEC_PUSH(&r->field_keys, k);
	}
	if (k) {
		fs.field = k->field;
		k->n_sites++;
	}
	decide(r, o, s->id, c, k, targets);
	unsigned named = (unsigned)targets->len;
	const char *why = site_open(r, c, k, named);
	if (why) {
		o->graph->open[s->id] = 1;
		r->counts->open++;
		r->counts->open_named += named > 0;
		if (r->fb)
			fallback(r, o, s->id, c, k, why, targets);
	}
	fs.n_sym = (unsigned)targets->len;
	o->res->site_index[s->id] = (unsigned)o->sites.len;
	VEC_PUSH(&o->sites, fs);
	cg_set_targets(o->graph, s->id, targets->items, (unsigned)targets->len);
	r->counts->indirect++;
	r->counts->unresolved += named == 0;
	r->counts->indirect_edges += named;
}

static void make_sites(resolver *r, site_out *o)
{
	ir_program *p = r->p;
	unsigned *order = calls_by_caller(r);
	p->n_sites = (unsigned)r->f->calls.len;
	p->sites = ARENA_ARRAY(&p->arena, ir_site, p->n_sites ? p->n_sites : 1);
	o->res->site_index = xmalloc((p->n_sites ? p->n_sites : 1) * sizeof *o->res->site_index);
	o->graph = cg_new(p, "source");
	o->graph->open = xcalloc(p->n_sites ? p->n_sites : 1, 1);
	VEC_RESERVE(&r->mark, r->fns.len);
	memset(r->mark.items, 0, r->fns.len);
	r->mark.len = r->fns.len;
	uvec targets = {0};
	for (unsigned i = 0; i < p->n_sites; i++) {
		const src_call *c = &r->f->calls.items[order[i]];
		ir_site *s = &p->sites[i];
		ir_function *caller = r->fns.items[r->f->defs.items[c->caller].fn];
		if (caller->n_sites++ == 0)
			caller->first_site = i;
		s->id = i;
		s->caller = caller;
		s->loc.file = ir_intern(p, c->file ? c->file : "");
		s->loc.line = c->line;
		s->loc.col = c->col;
		s->call_type = sig_string(r, c->sig);
		s->callee_value = s->result = IR_NONE;
		s->vcall = IR_NONE;   /* C has no virtual calls */
		o->res->site_index[i] = IR_NONE;
		if (c->kind == CALLEE_NAME) {
			bool amb;
			resolve_ref(r, &c->fn, &targets, &amb);
			s->kind = SITE_DIRECT;
			s->callee = amb ? NULL : r->fns.items[targets.items[0]];   /* ambiguous: no one callee */
			cg_set_targets(o->graph, i, targets.items, (unsigned)targets.len);
			r->counts->direct++;
			r->counts->ambiguous += amb;
			r->counts->external += !amb && !r->fns.items[targets.items[0]]->defined;
		} else {
			s->kind = SITE_INDIRECT;
			indirect_site(r, o, s, c, &targets);
		}
	}
	VEC_FREE(&targets);
	free(order);
}

/* ---- fields and the result ------------------------------------------------------------------- */

static void fill_assigns(resolver *r, facet_result *res, facet_field *ff, keyset *k)
{
	VEC(facet_assign) as = {0};
	uvec targets = {0};
	for (size_t i = 0; i < k->flows.len; i++) {
		const src_flow *fl = &r->f->flows.items[k->flows.items[i]];
		if (!src_value_names_fn(&fl->value))
			continue;
		bool amb;
		resolve_ref(r, &fl->value.fn, &targets, &amb);
		for (size_t t = 0; t < targets.len; t++) {
			facet_assign a = {.function = targets.items[t], .form = fl->form, .global = fl->global,
			                  .constant = true, .established = true};
			a.loc.file = fl->file;
			a.loc.line = fl->line;
			a.loc.col = fl->col;
			a.in_function = fl->in_def != SRC_NONE ? r->fns.items[r->f->defs.items[fl->in_def].fn]->name : NULL;
			VEC_PUSH(&as, a);
		}
	}
	ff->n_assigns = (unsigned)as.len;
	ff->assigns = as.len ? arena_memdup(&res->arena, as.items, as.len * sizeof *as.items) : NULL;
	ff->n_F = k->n_cands;
	ff->F = ARENA_ARRAY(&res->arena, unsigned, k->n_cands ? k->n_cands : 1);
	ff->init = ARENA_ARRAY(&res->arena, unsigned, k->n_cands ? k->n_cands : 1);
	for (unsigned i = 0; i < k->n_cands; i++) {
		ff->F[i] = k->cands[i].fn;
		if (k->cands[i].init)
			ff->init[ff->n_init++] = k->cands[i].fn;
	}
	VEC_FREE(&as);
	VEC_FREE(&targets);
}

/* Every location read by a site or written by a flow, as a facet_field. */
static void make_fields(resolver *r, facet_result *res)
{
	for (size_t i = 0; i < r->all_keys.len; i++) {
		keyset *k = r->all_keys.items[i];
		if (k->field == SRC_NONE) {
			k->field = (unsigned)r->field_keys.len;
			VEC_PUSH(&r->field_keys, k);
		}
	}
	res->n_fields = (unsigned)r->field_keys.len;
	res->fields = ARENA_ARRAY(&res->arena, facet_field, res->n_fields ? res->n_fields : 1);
	for (unsigned i = 0; i < res->n_fields; i++) {
		keyset *k = r->field_keys.items[i];
		const src_keyinfo *ki = strmap_get(&r->f->keys, k->key);
		facet_field *ff = &res->fields[i];
		ff->id = i;
		ff->kind = ki && ki->kind == KEY_FIELD ? FIELD_STRUCT : FIELD_GLOBAL;
		ff->record = ki && ki->record ? ki->record : ki ? ki->name : k->key;
		ff->name = ki ? ki->name : k->key;
		ff->key = k->key;
		ff->function_pointer = true;
		ff->sig_text = ki && ki->type ? ki->type : "?";
		ff->n_sites = k->n_sites;
		fill_assigns(r, res, ff, k);
	}
}

static void keyset_free(keyset *k)
{
	VEC_FREE(&k->flows);
	VEC_FREE(&k->out);
	free(k->cands);
	free(k);
}

static void resolver_free(resolver *r)
{
	for (size_t i = 0; i < r->externals.cap; i++)
		if (r->externals.slots[i].key) {
			uvec *v = r->externals.slots[i].value;
			VEC_FREE(v);
			free(v);
		}
	for (size_t i = 0; i < r->all_keys.len; i++)
		keyset_free(r->all_keys.items[i]);
	strmap *maps[] = {&r->externals, &r->undefined, &r->keysets, &r->names, &r->taken_at};
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
		strmap_free(maps[i]);
	VEC_FREE(&r->all_keys);
	VEC_FREE(&r->field_keys);
	VEC_FREE(&r->fns);
	VEC_FREE(&r->scratch);
	VEC_FREE(&r->mark);
	src_fallback_free(r->fb);
}

static ir_program *new_program(const src_facts *f)
{
	arena a;
	arena_init(&a);
	ir_program *p = ARENA_NEW(&a, ir_program);
	p->arena = a;
	strmap_init(&p->function_by_name);
	strmap_init(&p->global_by_name);
	strmap_init(&p->interned);
	p->n_inputs = (unsigned)f->units.len;
	p->inputs = ARENA_ARRAY(&p->arena, const char *, p->n_inputs ? p->n_inputs : 1);
	for (unsigned i = 0; i < p->n_inputs; i++)
		p->inputs[i] = arena_strdup(&p->arena, f->units.items[i].file);
	p->triple = "";
	p->data_layout = "";
	p->pointer_size = sizeof(void *);
	p->has_debug_info = true;   /* positions and types come from the source itself */
	return p;
}

void src_resolve(src_facts *f, source_fallback rule, source_result *out)
{
	resolver r = {.f = f, .counts = &out->counts, .rule = rule};
	r.fb = rule == SOURCE_FALLBACK_OFF ? NULL : src_fallback_new(rule);
	strmap_init(&r.taken_at);
	strmap_init(&r.names);
	strmap_init(&r.externals);
	strmap_init(&r.undefined);
	strmap_init(&r.keysets);
	r.p = new_program(f);
	number_definitions(&r);
	argument_flows(&r);
	return_flows(&r);
	type_flows(&r);
	index_flows(&r, 0);
	propagate(&r);
	strmap done;
	strmap_init(&done);
	for (int round = 0; round < 8 && indirect_argument_flows(&r, &done); round++)
		propagate(&r);
	strmap_free(&done);
	open_locations(&r);
	taken_functions(&r);
	facet_result *res = xcalloc(1, sizeof *res);
	arena_init(&res->arena);
	res->prog = r.p;
	res->has_debug_info = true;
	facet_options_default(&res->options);
	site_out o = {.res = res};
	make_sites(&r, &o);
	make_fields(&r, res);
	res->n_sites = (unsigned)o.sites.len;
	res->sites = o.sites.len ? arena_memdup(&res->arena, o.sites.items, o.sites.len * sizeof *o.sites.items) : NULL;
	res->n_decisions = (unsigned)o.decisions.len;
	res->decisions = o.decisions.len ? arena_memdup(&res->arena, o.decisions.items,
	                                                o.decisions.len * sizeof *o.decisions.items) : NULL;
	VEC_FREE(&o.sites);
	VEC_FREE(&o.decisions);
	r.p->n_functions = (unsigned)r.fns.len;
	r.p->functions = ARENA_ARRAY(&r.p->arena, ir_function *, r.fns.len ? r.fns.len : 1);
	memcpy(r.p->functions, r.fns.items, r.fns.len * sizeof *r.fns.items);
	out->prog = r.p;
	out->graph = o.graph;
	out->resolution = res;
	resolver_free(&r);
}
