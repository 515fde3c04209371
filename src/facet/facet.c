/* facet.c — the refinement's driver (§3.5's fixed order), the field table
 * and the names every output uses. */
#include "facet/internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "facet/sig.h"
#include "util/clock.h"

void facet_options_default(facet_options *o)
{
	memset(o, 0, sizeof *o);
	o->tau = 2;
}

/* The function-pointer members of union u, and of the anonymous structs
 * and unions inside it (`union job { struct { job_fn *run; void *arg; }
 * call; struct { int fd; } file; }`): a union is one location, so a read
 * or write of any of them keys on the union, and no other type names an
 * anonymous member. A named member struct is left out: its fields are
 * also written through pointers to it, which key on that struct. */
static void union_fps(facet_ctx *x, di_type *u, di_type **sig, bool *has_fp, bool *agree, int depth)
{
	for (unsigned i = 0; u && i < u->n_members && depth < 8; i++) {
		di_type *s = sig_of_pointer(u->members[i].type), *m = di_strip(u->members[i].type);
		if (!s) {
			if (m && (m->kind == DI_STRUCT || m->kind == DI_UNION) && !m->name &&
			    !ptrmap_get(&x->typedef_of_record, m))
				union_fps(x, m, sig, has_fp, agree, depth + 1);
			continue;
		}
		if (*has_fp && !sig_type_equal(s, *sig))
			*agree = false;
		if (!*has_fp)
			*sig = s;
		*has_fp = true;
	}
}

di_type *facet_union_sig(facet_ctx *x, di_type *u, bool *has_fp)
{
	di_type *sig = NULL;
	bool agree = true;
	*has_fp = false;
	union_fps(x, u, &sig, has_fp, &agree, 0);
	return agree ? sig : NULL;
}

/* The key's text: in buf when it fits (a lookup makes no copy), else in the arena. */
static const char *field_key(facet_ctx *x, const key_result *k, char *buf, size_t n)
{
	if (k->kind != FIELD_STRUCT)
		return k->record_name;
	const char *arr = k->whole_array ? "[]" : "";
	unsigned long long off = (unsigned long long)k->offset;
	if ((size_t)snprintf(buf, n, "%s@%llu%s", k->record_name, off, arr) < n)
		return buf;
	return arena_printf(x->arena, "%s@%llu%s", k->record_name, off, arr);
}

unsigned facet_field_find(facet_ctx *x, const key_result *k)
{
	char buf[512];
	uintptr_t hit = k->ok ? (uintptr_t)strmap_get(&x->field_by_key, field_key(x, k, buf, sizeof buf)) : 0;
	return hit ? (unsigned)hit - 1 : IR_NONE;
}

unsigned facet_field_for(facet_ctx *x, const key_result *k)
{
	if (!k->ok)
		return IR_NONE;
	unsigned hit = facet_field_find(x, k);
	if (hit != IR_NONE)
		return hit;
	char buf[512];
	const char *key = field_key(x, k, buf, sizeof buf);
	key = key == buf ? arena_strdup(x->arena, buf) : key;
	facet_field fl = {0};
	fl.id = (unsigned)x->fields.len;
	fl.kind = k->kind;
	fl.record = k->kind == FIELD_STRUCT ? k->record_name : k->member;   /* a global's label (key_in) */
	fl.offset = k->kind == FIELD_STRUCT ? k->offset : 0;
	fl.name = k->member;
	fl.key = key;
	fl.array_start = k->array_start;
	fl.array_bytes = k->array_bytes;
	fl.whole_array = k->whole_array;
	fl.untyped = k->untyped;
	di_type *t = di_strip(k->member_type);
	if (t && t->kind == DI_UNION) {
		fl.sig = facet_union_sig(x, t, &fl.function_pointer);
	} else {
		fl.sig = sig_of_pointer(k->member_type);
		fl.function_pointer = fl.sig != NULL || k->untyped;
	}
	fl.sig_text = fl.sig ? arena_strdup(x->arena, sig_text(fl.sig, buf, sizeof buf)) : "?";
	VEC_PUSH(&x->fields, fl);
	strmap_put(&x->field_by_key, key, (void *)(uintptr_t)(fl.id + 1));
	return fl.id;
}

const char *facet_field_shown(const facet_field *f)
{
	/* the rule CATALOG_FIELD_SHOWN states for the catalog: only a C++ symbol
	 * has a label apart from its linked name (a source catalog's keys of
	 * variables are not symbols, and stay as they are) */
	bool global = f->kind != FIELD_STRUCT && f->record && f->key && strncmp(f->key, "_Z", 2) == 0;
	return global ? f->record : f->key;
}

static double now(void) { return clock_seconds(); }

facet_result *facet_refine(const pta_result *pta, const facet_options *opt)
{
	double t0 = now();
	const ir_program *p = pta->prog;
	facet_result *res = xcalloc(1, sizeof *res);
	arena_init(&res->arena);
	res->prog = p;
	res->pta = pta;
	if (opt)
		res->options = *opt;
	else
		facet_options_default(&res->options);
	res->has_debug_info = p->has_debug_info;
	if (!p->has_debug_info)
		res->note = "the program has no debug info (build with -g): no field is recovered, R+ and R± equal R0";
	res->r0 = pta_callgraph(pta, true);

	res->site_index = xmalloc((p->n_sites + 1) * sizeof *res->site_index);
	for (unsigned i = 0; i < p->n_sites; i++)
		if (p->sites[i].kind == SITE_INDIRECT)
			res->site_index[i] = res->n_sites++;
		else
			res->site_index[i] = IR_NONE;
	res->sites = ARENA_ARRAY(&res->arena, facet_site, res->n_sites ? res->n_sites : 1);
	for (unsigned i = 0; i < p->n_sites; i++)
		if (res->site_index[i] != IR_NONE)
			res->sites[res->site_index[i]].site = i;

	facet_ctx x = {.prog = p, .pta = pta, .res = res, .arena = &res->arena};
	strmap_init(&x.field_by_key);
	sig_cache_init(&x.sigs);
	dispatch_init(&x);
	block_collect(&x);     /* untyped heap blocks addressed by byte offset */
	dispatch_sites(&x);    /* ❷ the load side: disp(c) */
	cast_collect(&x);      /* where function addresses are cast (Keep-Cast, Add-Cast) */
	varargs_collect(&x);   /* the va_list objects: what `...` carries into va_arg */
	assign_fields(&x);     /* ❷ the store side: init and F (Algorithm 1) */
	for (unsigned i = 0; i < res->n_sites; i++)
		if (res->sites[i].field != IR_NONE)
			x.fields.items[res->sites[i].field].n_sites++;
	/* The table is complete now; the oracle sees it through res. */
	res->fields = x.fields.len ? arena_memdup(&res->arena, x.fields.items, x.fields.len * sizeof *x.fields.items)
	                           : NULL;
	res->n_fields = (unsigned)x.fields.len;
	classify_sites(&x);    /* ❸–❻ facts, warrants, abstention, questions */
	VEC_FREE(&x.fields);
	strmap_free(&x.field_by_key);
	varargs_free(&x);
	block_free(&x);
	dispatch_free(&x);
	sig_cache_free(&x.sigs);
	res->seconds = now() - t0;
	return res;
}

void facet_result_free(facet_result *r)
{
	if (!r)
		return;
	cg_free(r->r0);
	free(r->site_index);
	arena_free(&r->arena);
	free(r);
}

const char *disp_status_name(disp_status s)
{
	static const char *const names[] = {"field", "global", "array", "unrecovered", "named"};
	return s <= DISP_NAMED ? names[s] : "?";
}

const char *disp_step_name(disp_step s)
{
	static const char *const names[] = {"", "direct", "chained", "typed", "rebased"};
	return s <= STEP_REBASED ? names[s] : "?";
}

const char *facet_rule_name(facet_rule r)
{
	static const char *const names[] = {"residual", "Add-Witness", "Add-Store", "Prune-Store",
	                                    "Add-Unstored", "Prune-Sig", "Add-Sig", "Add-Type", "Keep-Cast",
	                                    "Add-Cast", "Prune-Class", "Type-Fallback"};
	return r < FACET_N_RULES ? names[r] : "?";
}

const char *facet_premise_name(facet_premise p)
{
	static const char *const names[] = {"true", "pi_bind", "pi_proj", "pi_sig", "pi_cast", "pi_class", "pi_open", ""};
	return p <= PREMISE_NONE ? names[p] : "?";
}

const char *fact_kind_name(fact_kind k)
{
	return k == FACT_ADD ? "add" : "prune";
}

const char *fact_outcome_name(fact_outcome o)
{
	static const char *const names[] = {"supported", "rejected", "residual"};
	return o <= OUTCOME_RESIDUAL ? names[o] : "?";
}

const char *assign_form_name(assign_form f)
{
	static const char *const names[] = {"init", "store", "copy"};
	return f <= FORM_COPY ? names[f] : "?";
}
