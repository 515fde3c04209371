/* varargs.c — functions passed through `...` and the va_arg reads that take
 * them (issue 15.4), for Algorithm 1's form 1 (assign.c).
 *
 * The points-to analysis does not carry variadic arguments into va_arg
 * (pta_options.varargs is off: one object for every argument of a
 * function's `...` made every va_arg read, data ones included, see every
 * function, and R± 10x wider on sqlite). The refinement can do it where it
 * matters, because it knows the field a va_arg result is stored into and
 * that field's signature:
 *
 *   - a va_list object is what va_start's operand points to in a variadic
 *     function F (va_copy's destination: what its source's lists are);
 *     the va_list may then be handed on (vsetopt(h, o, ap), also through
 *     an indirect call): the points-to sets follow it;
 *   - a va_arg read is a load through a pointer loaded from a va_list
 *     object (clang lowers va_arg inline: the save-area or overflow-area
 *     pointer is loaded from the list, the argument from where it points),
 *     seen through copies, phis and private slots;
 *   - every function among the variadic arguments of every direct call to
 *     F reaches each va_arg read of F's lists (the simplest sound model:
 *     which argument a read takes depends on the option tags and the
 *     order of the reads, neither of which is followed); an argument that
 *     is itself a va_arg read (a wrapper's `...` handed on,
 *     tool_setopt(..., tag, ...) → curl_easy_setopt(h, tag, pval)) brings
 *     what reaches it.
 * The store's key and the signature filter in assign.c's add() then keep,
 * per field, the functions that fit it. PARTIAL: calls of F through a
 * function pointer pass nothing, and a call through a va_arg read (not a
 * store into a field) is not keyed. */
#include "facet/internal.h"

#include <string.h>

enum { WALK_DEPTH = 16 };

typedef struct va_owner {
	unsigned object;           /* a va_list object */
	unsigned function;         /* the variadic function whose arguments it lists */
} va_owner;


typedef struct va_memo {
	bool started;
	va_flow_list flows;
} va_memo;

struct facet_varargs {
	VEC(va_owner) owners;
	sbitmap locations;         /* every location inside a va_list object: a cheap first test */
	unsigned *call_start, *calls;   /* function id -> the direct calls of it (CSR over site ids) */
	va_memo *memo;             /* by function id */
	/* The walks: a value is looked at once per walk (phis of phis would
	 * make them exponential), and a value found not to be a va_arg read
	 * is never walked again. */
	unsigned *read_seen, *area_seen;   /* by value id: the walk that last looked at it */
	unsigned walk;
	sbitmap not_read;
};

static bool has_owner(facet_varargs *va, unsigned obj, unsigned fn)
{
	for (size_t i = 0; i < va->owners.len; i++)
		if (va->owners.items[i].object == obj && va->owners.items[i].function == fn)
			return true;
	return false;
}

static bool add_owner(facet_varargs *va, unsigned obj, unsigned fn)
{
	if (has_owner(va, obj, fn))
		return false;
	va_owner o = {obj, fn};
	VEC_PUSH(&va->owners, o);
	return true;
}

/* The objects a value may point to. */
static void objects_of(facet_ctx *x, unsigned v, uvec *out)
{
	VEC_CLEAR(out);
	const sbitmap *pts = v != IR_NONE ? pta_value_pts(x->pta, v) : NULL;
	if (!pts)
		return;
	unsigned loc;
	SBM_FOREACH(pts, loc) {
		unsigned obj = pta_loc_object(x->pta->solver, loc);
		if (obj != PTA_NONE)
			VEC_PUSH(out, obj);
	}
}

static bool is_va_intrinsic(const ir_site *s, const char *what)
{
	return s->kind == SITE_DIRECT && s->callee && s->callee->intrinsic &&
	       strncmp(s->callee->name, "llvm.va_", 8) == 0 && strncmp(s->callee->name + 8, what, strlen(what)) == 0;
}

/* va_start's lists, then va_copy's until nothing changes. */
static void find_lists(facet_ctx *x, facet_varargs *va)
{
	const ir_program *p = x->prog;
	uvec objs = {0}, from = {0};
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (is_va_intrinsic(s, "start") && s->n_args >= 1 && s->caller->vararg) {
			objects_of(x, s->args[0], &objs);
			for (size_t j = 0; j < objs.len; j++)
				add_owner(va, objs.items[j], s->caller->id);
		}
	}
	for (bool changed = va->owners.len > 0; changed;) {
		changed = false;
		for (unsigned i = 0; i < p->n_sites; i++) {
			const ir_site *s = &p->sites[i];
			if (!is_va_intrinsic(s, "copy") || s->n_args < 2)
				continue;
			objects_of(x, s->args[1], &from);
			objects_of(x, s->args[0], &objs);
			for (size_t f = 0; f < from.len; f++)
				for (size_t o = 0; o < va->owners.len; o++)
					if (va->owners.items[o].object == from.items[f])
						for (size_t d = 0; d < objs.len; d++)
							changed |= add_owner(va, objs.items[d], va->owners.items[o].function);
		}
	}
	VEC_FREE(&objs);
	VEC_FREE(&from);
}

/* The direct calls of every variadic defined function (CSR by callee id). */
static void index_calls(facet_ctx *x, facet_varargs *va)
{
	const ir_program *p = x->prog;
	unsigned nf = p->n_functions;
	va->call_start = xcalloc(nf + 2, sizeof *va->call_start);
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind == SITE_DIRECT && s->callee && s->callee->vararg && s->callee->defined)
			va->call_start[s->callee->id + 1]++;
	}
	for (unsigned f = 0; f < nf; f++)
		va->call_start[f + 1] += va->call_start[f];
	va->calls = xmalloc((va->call_start[nf] + 1) * sizeof *va->calls);
	unsigned *fill = xmalloc((nf + 1) * sizeof *fill);
	memcpy(fill, va->call_start, (nf + 1) * sizeof *fill);
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind == SITE_DIRECT && s->callee && s->callee->vararg && s->callee->defined)
			va->calls[fill[s->callee->id]++] = i;
	}
	free(fill);
}

void varargs_collect(facet_ctx *x)
{
	facet_varargs *va = xcalloc(1, sizeof *va);
	x->va = va;
	find_lists(x, va);
	if (!va->owners.len)
		return;
	index_calls(x, va);
	pta_solver *sv = x->pta->solver;
	unsigned nl = pta_num_locations(sv);
	for (unsigned l = 0; l < nl; l++) {
		unsigned obj = pta_loc_object(sv, PTA_LOC_BIT | l);
		for (size_t o = 0; o < va->owners.len; o++)
			if (va->owners.items[o].object == obj) {
				sbm_set(&va->locations, PTA_LOC_BIT | l);
				break;
			}
	}
	va->memo = xcalloc(x->prog->n_functions + 1, sizeof *va->memo);
	va->read_seen = xcalloc(x->prog->n_values + 1, sizeof *va->read_seen);
	va->area_seen = xcalloc(x->prog->n_values + 1, sizeof *va->area_seen);
}

void varargs_free(facet_ctx *x)
{
	facet_varargs *va = x->va;
	if (!va)
		return;
	for (unsigned f = 0; va->memo && f < x->prog->n_functions; f++)
		VEC_FREE(&va->memo[f].flows);
	free(va->memo);
	free(va->read_seen);
	free(va->area_seen);
	sbm_free(&va->not_read);
	free(va->call_start);
	free(va->calls);
	VEC_FREE(&va->owners);
	sbm_free(&va->locations);
	free(va);
	x->va = NULL;
}

/* The variadic functions whose lists the pointer value `list` points into. */
static void owners_of_list(facet_ctx *x, unsigned list, uvec *fns)
{
	facet_varargs *va = x->va;
	const sbitmap *pts = list != IR_NONE ? pta_value_pts(x->pta, list) : NULL;
	if (!pts || !sbm_intersects(pts, &va->locations))
		return;
	uvec objs = {0};
	objects_of(x, list, &objs);
	for (size_t i = 0; i < objs.len; i++)
		for (size_t o = 0; o < va->owners.len; o++)
			if (va->owners.items[o].object == objs.items[i]) {
				unsigned f = va->owners.items[o].function;
				bool seen = false;
				for (size_t k = 0; k < fns->len && !seen; k++)
					seen = fns->items[k] == f;
				if (!seen)
					VEC_PUSH(fns, f);
			}
	VEC_FREE(&objs);
}

/* Is address value a a place in an argument area: reached through geps,
 * copies and phis from a pointer loaded out of a va_list? The owners of
 * those lists go to fns. */
static bool area_address(facet_ctx *x, unsigned a, int depth, uvec *fns)
{
	const ir_program *p = x->prog;
	if (a >= p->n_values || depth > WALK_DEPTH || x->va->area_seen[a] == x->va->walk)
		return false;
	x->va->area_seen[a] = x->va->walk;
	unsigned n = ir_index_n_defs(p, &x->ix, a);
	bool any = false;
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, a, i);
		size_t before = fns->len;
		if (d->op == ST_COPY || d->op == ST_GEP)
			any |= area_address(x, d->src, depth + 1, fns);
		else if (d->op == ST_LOAD) {
			owners_of_list(x, d->src, fns);
			any |= fns->len > before;
		}
	}
	return any;
}

/* Is v a va_arg read: a load from an argument area, through copies, phis
 * and private slots (at -O0 `pval = va_arg(ap, void *)` is kept in one)?
 * The variadic functions whose arguments it may read go to fns. */
static bool va_read(facet_ctx *x, unsigned v, int depth, uvec *fns)
{
	const ir_program *p = x->prog;
	facet_varargs *va = x->va;
	if (v >= p->n_values || depth > WALK_DEPTH || x->ix.function_of_value[v] || va->read_seen[v] == va->walk ||
	    sbm_test(&va->not_read, v))
		return false;
	va->read_seen[v] = va->walk;
	unsigned n = ir_index_n_defs(p, &x->ix, v);
	bool any = false;
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, v, i);
		if (d->op == ST_COPY) {
			any |= va_read(x, d->src, depth + 1, fns);
			continue;
		}
		if (d->op != ST_LOAD)
			continue;
		unsigned slot = d->src;
		if (d->offset == 0 && !d->var_offset && slot < p->n_values &&
		    x->slot_store_start[slot + 1] > x->slot_store_start[slot]) {
			for (unsigned k = x->slot_store_start[slot]; k < x->slot_store_start[slot + 1]; k++)
				any |= va_read(x, p->stmts[x->slot_stores[k]].src, depth + 1, fns);
			continue;
		}
		if (d->offset == 0 && !d->var_offset)
			any |= area_address(x, d->src, 0, fns);
	}
	return any;
}

/* One walk from v: true when v is a va_arg read (owners into fns). */
static bool is_va_read(facet_ctx *x, unsigned v, uvec *fns)
{
	facet_varargs *va = x->va;
	if (++va->walk == 0) {   /* wrapped: forget every mark */
		memset(va->read_seen, 0, (x->prog->n_values + 1) * sizeof *va->read_seen);
		memset(va->area_seen, 0, (x->prog->n_values + 1) * sizeof *va->area_seen);
		va->walk = 1;
	}
	bool yes = va_read(x, v, 0, fns);
	if (!yes && v < x->prog->n_values)
		sbm_set(&va->not_read, v);
	return yes;
}

static void push_flow(va_flow_list *out, unsigned function, bool established, unsigned via)
{
	for (size_t i = 0; i < out->len; i++)
		if (out->items[i].function == function) {
			out->items[i].established |= established;
			return;
		}
	va_flow f = {function, established, via};
	VEC_PUSH(out, f);
}

static const va_flow_list *flows_of(facet_ctx *x, unsigned fn, int depth);

/* What argument value v of a call brings through `...`: the functions it
 * may hold, and, when it is itself a va_arg read, what reaches that. */
static void argument_flows(facet_ctx *x, unsigned v, unsigned via, int depth, va_flow_list *out)
{
	const sbitmap *pts = pta_value_pts(x->pta, v);
	if (pts) {
		bool established = facet_value_origin(x, v) != ORIGIN_DATA;
		unsigned loc;
		SBM_FOREACH(pts, loc) {
			unsigned obj = pta_loc_object(x->pta->solver, loc);
			if (obj < x->pta->n_objects && x->pta->objects[obj].kind == OBJ_FUNCTION &&
			    pta_loc_offset(x->pta->solver, loc) == 0)
				push_flow(out, x->pta->objects[obj].index, established, via);
		}
	}
	uvec fns = {0};
	if (depth < WALK_DEPTH && is_va_read(x, v, &fns))
		for (size_t i = 0; i < fns.len; i++) {
			const va_flow_list *inner = flows_of(x, fns.items[i], depth + 1);
			if (inner == out)
				continue;   /* fn hands its own `...` to itself: nothing new */
			for (size_t k = 0; k < inner->len; k++)
				push_flow(out, inner->items[k].function, inner->items[k].established, inner->items[k].via);
		}
	VEC_FREE(&fns);
}

/* Every function passed through fn's `...` by a direct call (memoised; a
 * cycle of wrappers contributes what is known when it closes). */
static const va_flow_list *flows_of(facet_ctx *x, unsigned fn, int depth)
{
	facet_varargs *va = x->va;
	va_memo *m = &va->memo[fn];
	if (m->started)
		return &m->flows;
	m->started = true;
	const ir_function *f = x->prog->functions[fn];
	for (unsigned c = va->call_start[fn]; c < va->call_start[fn + 1]; c++) {
		const ir_site *s = &x->prog->sites[va->calls[c]];
		for (unsigned i = f->n_args; i < s->n_args; i++)
			if (s->args[i] != IR_NONE)
				argument_flows(x, s->args[i], fn, depth, &m->flows);
	}
	return &m->flows;
}

size_t varargs_reaching(facet_ctx *x, unsigned v, va_flow_list *out)
{
	VEC_CLEAR(out);
	facet_varargs *va = x->va;
	if (!va || !va->owners.len)
		return 0;
	uvec fns = {0};
	if (is_va_read(x, v, &fns))
		for (size_t i = 0; i < fns.len; i++) {
			const va_flow_list *in = flows_of(x, fns.items[i], 0);
			for (size_t k = 0; k < in->len; k++)
				push_flow(out, in->items[k].function, in->items[k].established, in->items[k].via);
		}
	VEC_FREE(&fns);
	return out->len;
}
