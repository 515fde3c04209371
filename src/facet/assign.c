/* assign.c — field-assignment recovery by points-to projection (§3.2.2,
 * Algorithm 1): init(S.m) and F(S.m) for every function-pointer field.
 *
 *   form 0  every function constant in every global initializer, placed by
 *           the global's debug type and the slot's byte offset (init and F);
 *   form 1  every store whose address resolves to S.m adds the functions in
 *           the points-to set of the stored value — not only stores of a
 *           function constant, which would miss most assignments (§5.2);
 *           a value loaded from function-pointer fields brings only what
 *           their F holds (field copies, resolved last);
 *   form 2  every memcpy/memmove whose destination resolves to struct S adds,
 *           for each function-pointer field m' of S, the functions held by
 *           field m' of every object the source may point to: a constant
 *           global's initializer at that offset; a collapsed object's one
 *           location as a place that is not established (copied_at);
 *           when the source's type puts a function-pointer field there,
 *           only what that field's F has (a field copy, as in form 1).
 * Every addition keeps only f with sig(f) ~ sig(S.m) (line 5 of the
 * algorithm), or f cast to a type compatible with sig(S.m) where its address
 * is taken (cast.c), and records its evidence; a (field, function) pair keeps at most
 * EVIDENCE_CAP places, the first ones in program order. */
#include "facet/internal.h"

#include <string.h>

#include "facet/sig.h"
#include "util/intmap.h"

enum { EVIDENCE_CAP = 8, ELEMENT_CAP = 64, COPY_ROUNDS = 8, SOURCE_CAP = 32 };
#define FROM_FUNCTION 0x80000000u
#define MOVED_LOOSE 0x80000000u
#define INCOMPATIBLE UINT64_MAX

typedef VEC(unsigned) fn_list;
typedef VEC(uint64_t) slot_list;

/* A write into field `field` of what function-pointer fields hold:
 * froms[first .. first+n_from) of the adder, and the functions named as
 * constants beside them (a select's other arm). Either a store (form 1,
 * statement `stmt`) of a value loaded from them, or a memcpy (form 2, site
 * `site`) from an object whose type puts one of them at the slot, which
 * moves moved[moved_first .. +n_moved) (MOVED_LOOSE: out of a collapsed
 * object). */
typedef struct field_copy {
	unsigned stmt, field, first, n_from;
	unsigned site, moved_first, n_moved;
	unsigned exact_first, n_exact;   /* a store's: what its loads' objects hold there (held_exactly) */
} field_copy;

/* How much of what a copy may move it moves: only what its source fields'
 * F has and the functions it names (COPY_FILTERED); when some source field
 * has nothing written into it, also what the source objects hold at the
 * copied place where points-to knows it (COPY_UNWRITTEN); everything the
 * value points to (COPY_ALL: the solution did not settle). */
typedef enum copy_mode { COPY_FILTERED, COPY_UNWRITTEN, COPY_ALL } copy_mode;

/* Where a stored value comes from, when every part of it is a load of a
 * function-pointer field or a function constant (value_parts). */
typedef struct value_sources {
	uvec fields, functions, seen;
	uvec loads;                /* the defining loads (statement indices) */
} value_sources;

typedef struct adder {
	facet_ctx *x;
	VEC(facet_assign) assigns;
	VEC(unsigned) field_of;    /* per assign */
	VEC(facet_assign) rejected;   /* incompatible signature: the first place of each (field, function) */
	VEC(unsigned) rejected_field;
	intmap count;              /* (field, function) -> places recorded + 1, or INCOMPATIBLE */
	intmap established;        /* (field, function) present once an established place is recorded */
	sbitmap fn_locs;           /* the locations of function objects */
	VEC(field_copy) copies;    /* stores of a value loaded from a field: resolved last */
	uvec froms;                /* the copies' sources: field ids, then FROM_FUNCTION | function id */
	uvec moved;                /* the memcpy copies' functions: id, or MOVED_LOOSE | id */
	uvec exact;                /* the store copies' functions held exactly (field_copy.exact_first) */
	VEC(facet_assign) empty;   /* the first write bringing no function into a field (facet_field.empty_write) */
	uvec empty_field;          /* per entry of empty: its field */
	uvec has_empty;            /* by field id: 1 once empty holds its write */
	value_sources vs;          /* scratch of copied_fields */
	VEC(unsigned) n_in_F;      /* by field id: |F| so far */
} adder;

static uint64_t pair_key(unsigned field, unsigned function)
{
	return (uint64_t)field << 32 | function;
}

static void add(adder *a, unsigned field, const facet_assign *as)
{
	facet_field *fl = &a->x->fields.items[field];
	if (!fl->function_pointer)
		return;   /* the projection widens F: only fields typed as function pointers */
	/* Each pair's compatibility is decided once: stores repeat pairs a lot. */
	uint64_t key = pair_key(field, as->function), n = intmap_get_or(&a->count, key, 0);
	if (n == 0) {
		const ir_function *f = a->x->prog->functions[as->function];
		n = cast_sig_fits(a->x, f->id, fl->sig) ? 1 : INCOMPATIBLE;
		intmap_put(&a->count, key, n);
		/* Rejected writes are kept for people to see a cast at work; a copy
		 * of a whole object through an untyped pointer moves every slot of
		 * the source and would list hundreds (nginx: 643 per field). */
		if (n == INCOMPATIBLE && as->form != FORM_COPY) {
			VEC_PUSH(&a->rejected, *as);
			VEC_PUSH(&a->rejected_field, field);
		}
	}
	if (n == INCOMPATIBLE)
		return;
	/* Past the cap, one established place is still worth keeping: it is
	 * what Add-Store needs. */
	bool first_established = as->established && !intmap_get(&a->established, key, NULL);
	if (n > EVIDENCE_CAP && !first_established)
		return;
	if (first_established)
		intmap_put(&a->established, key, 1);
	intmap_put(&a->count, key, n + 1);
	if (n == 1) {   /* the pair enters F */
		while (a->n_in_F.len <= field)
			VEC_PUSH(&a->n_in_F, 0u);
		a->n_in_F.items[field]++;
	}
	VEC_PUSH(&a->assigns, *as);
	VEC_PUSH(&a->field_of, field);
}

/* (field, function) is in F: add() kept it (compatible and recorded). */
static bool in_F(adder *a, unsigned field, unsigned function)
{
	uint64_t n = intmap_get_or(&a->count, pair_key(field, function), 0);
	return n >= 2 && n != INCOMPATIBLE;
}

/* A write into `field` that the program makes (whatever it brings): the
 * first one is kept, for Prune-Store to trust an empty F (facet.h). Not
 * for arrays of function pointers (an element's F is shared with the whole
 * array's at the end) nor untyped blocks (what a block holds by no keyed
 * store goes to each of its keys). */
static void note_write(adder *a, unsigned field, const facet_assign *as)
{
	const facet_field *fl = field != IR_NONE ? &a->x->fields.items[field] : NULL;
	if (!fl || !fl->function_pointer || fl->array_bytes || fl->untyped)
		return;
	while (a->has_empty.len <= field)
		VEC_PUSH(&a->has_empty, 0u);
	if (a->has_empty.items[field])
		return;
	a->has_empty.items[field] = 1;
	facet_assign w = *as;
	w.function = IR_NONE;
	VEC_PUSH(&a->empty, w);
	VEC_PUSH(&a->empty_field, field);
}

/* Store i (statement st) as a place, its function left for the caller. */
static facet_assign store_place(const facet_ctx *x, unsigned i, const ir_stmt *st, assign_form form)
{
	unsigned fn = x->ix.stmt_function[i];
	facet_assign as = {.function = IR_NONE, .form = form,
	                   .in_function = fn != IR_NONE ? x->prog->functions[fn]->name : NULL};
	if (st->loc)
		as.loc = *st->loc;
	return as;
}

/* The field a write goes to, when it is one Algorithm 1 fills: a key typed
 * as a function pointer (or a union holding one). Other keys get no entry,
 * so stores into data fields do not grow the table. */
static unsigned field_of_key(facet_ctx *x, const key_result *k)
{
	if (!k->ok)
		return IR_NONE;
	if (k->kind == FIELD_STRUCT && !sig_of_pointer(k->member_type)) {
		di_type *t = di_strip(k->member_type);
		bool fp = false;
		if (t && t->kind == DI_UNION)
			facet_union_sig(x, t, &fp);
		if (!fp)
			return IR_NONE;
	}
	return facet_field_for(x, k);
}

/* The functions a points-to set holds (abstract function objects). Most
 * sets hold none, and those that do hold many other things: intersect with
 * the function locations first. */
static void functions_in(adder *a, const sbitmap *pts, fn_list *out)
{
	const pta_result *pta = a->x->pta;
	VEC_CLEAR(out);
	if (!pts || !sbm_intersects(pts, &a->fn_locs))
		return;
	sbitmap only = {0};
	sbm_copy(&only, pts);
	sbm_intersect(&only, &a->fn_locs);
	unsigned loc;
	SBM_FOREACH(&only, loc) {
		unsigned obj = pta_loc_object(pta->solver, loc);
		if (obj < pta->n_objects && pta->objects[obj].kind == OBJ_FUNCTION)
			VEC_PUSH(out, pta->objects[obj].index);
	}
	sbm_free(&only);
}

/* ---- form 0 ---------------------------------------------------------------------- */

static void fp_slots(facet_ctx *x, di_type *t, uint64_t base, slot_list *out, int depth);

/* A method table's initializer writes every function-pointer slot it has,
 * the ones it leaves NULL too (`{.close = net_close, .free_ctx = NULL}`):
 * those are writes bringing no function. Only a whole global (not a piece
 * the optimiser split) that names some function: a table of data, or one
 * the program fills at run time, says nothing of its fields. */
static void form0_null_slots(adder *a, ir_global *gl)
{
	if (gl->var_fragment || gl->var_offset_bits || !gl->defined)
		return;
	intmap named;
	intmap_init(&named);
	bool functions = false;
	for (unsigned i = 0; i < gl->n_slots; i++) {
		intmap_put(&named, gl->slots[i].offset, 1);
		functions |= gl->slots[i].kind == SLOT_FUNCTION;
	}
	slot_list slots = {0};
	if (functions)
		fp_slots(a->x, gl->var->type, 0, &slots, 0);
	facet_assign as = {.function = IR_NONE, .form = FORM_INIT, .global = gl->name, .loc = gl->var->loc,
	                   .constant = true, .established = true};
	for (size_t s = 0; s < slots.len; s++) {
		if (intmap_get(&named, slots.items[s], NULL))
			continue;
		key_result k = dispatch_key_in(a->x, gl->var->type, (int64_t)slots.items[s], gl);
		as.slot = slots.items[s];
		note_write(a, facet_field_find(a->x, &k), &as);
	}
	VEC_FREE(&slots);
	intmap_free(&named);
}

static void form0(adder *a)
{
	const ir_program *p = a->x->prog;
	for (unsigned g = 0; g < p->n_globals; g++) {
		ir_global *gl = p->globals[g];
		if (!gl->var || !gl->var->type)
			continue;
		for (unsigned i = 0; i < gl->n_slots; i++) {
			const ir_init_slot *sl = &gl->slots[i];
			if (sl->kind != SLOT_FUNCTION || sl->addend != 0)
				continue;
			/* A piece of a global the optimiser split starts inside its variable. */
			int64_t at = (int64_t)(sl->offset + gl->var_offset_bits / 8);
			key_result k = dispatch_key_in(a->x, gl->var->type, at, gl);
			unsigned field = field_of_key(a->x, &k);
			if (field == IR_NONE)
				continue;
			facet_assign as = {.function = sl->function->id, .form = FORM_INIT, .global = gl->name,
			                   .slot = sl->offset, .loc = gl->var->loc, .constant = true, .established = true};
			add(a, field, &as);
		}
		if (gl->n_slots)
			form0_null_slots(a, gl);
	}
}

/* ---- form 1 ---------------------------------------------------------------------- */

static void store_any_field(adder *a, di_type *record, const sbitmap *pts, unsigned i, const ir_stmt *st,
                            fn_list *fns)
{
	facet_ctx *x = a->x;
	slot_list slots = {0};
	fp_slots(x, record, 0, &slots, 0);
	functions_in(a, pts, fns);
	unsigned fn = x->ix.stmt_function[i];
	/* The slot is not known: only a value the program declares a function
	 * (pointer) is established there. */
	value_origin o = fns->len ? facet_value_origin(x, st->src) : ORIGIN_UNKNOWN;
	bool established = o == ORIGIN_FUNCTION || o == ORIGIN_FN_TYPED;
	for (size_t s = 0; s < slots.len; s++) {
		key_result k = dispatch_key_in(x, record, (int64_t)slots.items[s], NULL);
		unsigned field = field_of_key(x, &k);
		for (size_t j = 0; field != IR_NONE && j < fns->len; j++) {
			facet_assign as = {.function = fns->items[j], .form = FORM_STORE, .established = established,
			                   .in_function = fn != IR_NONE ? x->prog->functions[fn]->name : NULL};
			if (st->loc)
				as.loc = *st->loc;
			add(a, field, &as);
		}
	}
	VEC_FREE(&slots);
}

/* item onto v unless v[first ..] holds it. */
static void push_after(uvec *v, size_t first, unsigned item)
{
	for (size_t i = first; i < v->len; i++)
		if (v->items[i] == item)
			return;
	VEC_PUSH(v, item);
}

static void push_unique(uvec *v, unsigned item)
{
	push_after(v, 0, item);
}

/* A defining load of a stored value: the function-pointer field it reads,
 * when that field's F is its own (not an element of an array inside a
 * record: those share places with the whole array only at the end). */
static bool source_load(facet_ctx *x, const ir_stmt *d, value_sources *vs)
{
	key_result k = dispatch_key(x, d->src, d->offset);
	unsigned f = field_of_key(x, &k);
	if (f == IR_NONE || !x->fields.items[f].function_pointer || x->fields.items[f].array_bytes)
		return false;
	push_unique(&vs->fields, f);
	VEC_PUSH(&vs->loads, (unsigned)(d - x->prog->stmts));
	return true;
}

/* Every part of value v, through copies, phis and selects, into vs: the
 * function-pointer fields it is loaded from and the functions it names
 * (`p->on_end ? p->on_end : p->on_comment`, `h ? h->cb : default_cb`).
 * False when some part is neither. */
static bool value_parts(adder *a, unsigned v, value_sources *vs)
{
	facet_ctx *x = a->x;
	const ir_program *p = x->prog;
	if (v >= p->n_values)
		return false;
	for (size_t i = 0; i < vs->seen.len; i++)
		if (vs->seen.items[i] == v)
			return true;   /* a phi's cycle: its other operands say the rest */
	if (vs->seen.len >= SOURCE_CAP)
		return false;
	VEC_PUSH(&vs->seen, v);
	if (x->ix.function_of_value[v]) {
		push_unique(&vs->functions, x->ix.function_of_value[v]->id);
		return true;
	}
	unsigned n = ir_index_n_defs(p, &x->ix, v);
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, v, i);
		if (d->op == ST_COPY ? !value_parts(a, d->src, vs) : d->op != ST_LOAD || !source_load(x, d, vs))
			return false;
	}
	return n > 0;
}

/* A value loaded slot by slot (a vector: the optimiser moves two adjacent
 * fields with one `load <2 x ptr>` and one `store <2 x ptr>`) has one
 * defining load per slot, all from one address at the slot's offset; a
 * store's slot `lane` writes what the load at that offset read. That
 * load, or NULL when v is not such a value. */
static const ir_stmt *lane_load(facet_ctx *x, unsigned v, int64_t lane)
{
	const ir_program *p = x->prog;
	unsigned n = v < p->n_values ? ir_index_n_defs(p, &x->ix, v) : 0;
	const ir_stmt *hit = NULL;
	for (unsigned i = 0; i < n && n > 1; i++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, v, i);
		if (d->op != ST_LOAD || d->src != ir_index_def(p, &x->ix, v, 0)->src)
			return NULL;
		if (d->offset == lane)
			hit = d;
	}
	return hit;
}

/* Whether store st moves function-pointer fields (and maybe named
 * functions) only: its sources into a->vs. */
static bool copied_fields(adder *a, const ir_stmt *st)
{
	value_sources *vs = &a->vs;
	VEC_CLEAR(&vs->fields);
	VEC_CLEAR(&vs->functions);
	VEC_CLEAR(&vs->seen);
	VEC_CLEAR(&vs->loads);
	const ir_stmt *d = lane_load(a->x, st->src, st->offset);
	bool ok = d ? source_load(a->x, d, vs) : value_parts(a, st->src, vs);
	return ok && vs->fields.len > 0;
}

static const sbitmap *content(const pta_result *pta, unsigned obj, int64_t off);
static const ir_global *constant_global(const facet_ctx *x, unsigned obj);

/* What the objects field load d reads from hold at the loaded place, as
 * far as points-to knows it (into a->exact): an object that is not
 * collapsed, its field there; a collapsed constant global, every function
 * of its initializer (C gives no way to write it). A collapsed object's
 * one location holds what every field of it holds, which is not what this
 * field was written: nothing of it, by the premise π_proj that every write
 * into the source field is seen (Prune-Store's, on which the copy's
 * destination is refuted). */
static void held_exactly(adder *a, const ir_stmt *d, size_t first, fn_list *fns)
{
	pta_solver *sv = a->x->pta->solver;
	const sbitmap *base = pta_value_pts(a->x->pta, d->src);
	sbitmap held = {0};
	unsigned loc;
	if (base)
		SBM_FOREACH(base, loc) {
			unsigned obj = pta_loc_object(sv, loc);
			const ir_global *g = constant_global(a->x, obj);
			if (!pta_object_collapsed(sv, obj)) {
				const sbitmap *c = content(a->x->pta, obj, pta_loc_offset(sv, loc) + d->offset);
				if (c && sbm_intersects(c, &a->fn_locs))
					sbm_union(&held, c);
			}
			for (unsigned i = 0; g && pta_object_collapsed(sv, obj) && i < g->n_slots; i++)
				if (g->slots[i].kind == SLOT_FUNCTION && g->slots[i].function)
					push_after(&a->exact, first, g->slots[i].function->id);
		}
	functions_in(a, &held, fns);
	for (size_t j = 0; j < fns->len; j++)
		push_after(&a->exact, first, fns->items[j]);
	sbm_free(&held);
}

/* Store i into `field` is a copy of a->vs: resolved with the others. */
static void push_copy(adder *a, unsigned i, unsigned field)
{
	field_copy c = {i, field, (unsigned)a->froms.len, 0, IR_NONE, 0, 0, (unsigned)a->exact.len, 0};
	for (size_t j = 0; j < a->vs.fields.len; j++)
		VEC_PUSH(&a->froms, a->vs.fields.items[j]);
	for (size_t j = 0; j < a->vs.functions.len; j++)
		VEC_PUSH(&a->froms, FROM_FUNCTION | a->vs.functions.items[j]);
	c.n_from = (unsigned)(a->froms.len - c.first);
	fn_list fns = {0};
	for (size_t j = 0; j < a->vs.loads.len; j++)
		held_exactly(a, &a->x->prog->stmts[a->vs.loads.items[j]], c.exact_first, &fns);
	VEC_FREE(&fns);
	c.n_exact = (unsigned)(a->exact.len - c.exact_first);
	VEC_PUSH(&a->copies, c);
}

/* f may be what copy c moves: in F of one of its fields, or one it names;
 * under COPY_UNWRITTEN also one its source objects hold exactly there. */
static bool copy_admits(adder *a, const field_copy *c, unsigned f, copy_mode mode)
{
	if (mode == COPY_ALL)
		return true;
	for (unsigned j = c->first; j < c->first + c->n_from; j++) {
		unsigned from = a->froms.items[j];
		if ((from & FROM_FUNCTION) ? (from & ~FROM_FUNCTION) == f : in_F(a, from, f))
			return true;
	}
	for (unsigned j = c->exact_first; mode == COPY_UNWRITTEN && j < c->exact_first + c->n_exact; j++)
		if (a->exact.items[j] == f)
			return true;
	return false;
}

/* Some field copy c reads has nothing written into it (yet). */
static bool copy_unwritten(const adder *a, const field_copy *c)
{
	for (unsigned j = c->first; j < c->first + c->n_from; j++) {
		unsigned from = a->froms.items[j];
		if (!(from & FROM_FUNCTION) && (from >= a->n_in_F.len || a->n_in_F.items[from] == 0))
			return true;
	}
	return false;
}

/* A form-1 store's functions into `field`: those in pts, only those copy
 * c admits under `mode` when c is given. True when F(field) grew. */
static bool store_functions(adder *a, unsigned i, unsigned field, const sbitmap *pts, fn_list *fns,
                            const field_copy *c, copy_mode mode)
{
	facet_ctx *x = a->x;
	const ir_program *p = x->prog;
	const ir_stmt *st = &p->stmts[i];
	bool grew = false;
	functions_in(a, pts, fns);
	unsigned fn = x->ix.stmt_function[i];
	bool established = fns->len && facet_value_origin(x, st->src) != ORIGIN_DATA;
	for (size_t j = 0; j < fns->len; j++) {
		unsigned f = fns->items[j];
		if (c && !copy_admits(a, c, f, mode))
			continue;
		bool had = in_F(a, field, f);
		if (had && c)
			continue;   /* a copy adds no new function here: its places are not needed */
		facet_assign as = {.function = f, .form = FORM_STORE, .established = established,
		                   .in_function = fn != IR_NONE ? p->functions[fn]->name : NULL,
		                   .constant = st->src < p->n_values && x->ix.function_of_value[st->src]};
		if (st->loc)
			as.loc = *st->loc;
		add(a, field, &as);
		grew |= !had && in_F(a, field, f);
	}
	return grew;
}

/* A store of a value that holds no function into a field some site
 * dispatches through (`c->free_priv = opts->free_priv` from options no
 * caller fills in, a parameter of an API only code outside the program
 * calls): a write the field has (note_write). Fields no site reads are not
 * looked up, nor made. */
static void store_nothing(adder *a, unsigned i, const ir_stmt *st)
{
	facet_ctx *x = a->x;
	if (!a->x->fields.len || st->src >= x->prog->n_values)
		return;
	key_result k = dispatch_key(x, st->dst, st->offset);
	if (!k.ok)
		return;
	facet_assign as = store_place(x, i, st, FORM_STORE);
	note_write(a, facet_field_find(x, &k), &as);
}

/* A store of a va_arg read (varargs.c): every function passed through the
 * `...` it reads, where the store's key is a function-pointer field. */
static void store_va_arg(adder *a, unsigned i, const ir_stmt *st, va_flow_list *flows)
{
	facet_ctx *x = a->x;
	if (!varargs_reaching(x, st->src, flows)) {
		store_nothing(a, i, st);
		return;
	}
	key_result k = dispatch_key(x, st->dst, st->offset);
	unsigned field = field_of_key(x, &k);
	if (field == IR_NONE)
		return;
	unsigned fn = x->ix.stmt_function[i];
	for (size_t j = 0; j < flows->len; j++) {
		facet_assign as = {.function = flows->items[j].function, .form = FORM_STORE,
		                   .established = flows->items[j].established,
		                   .in_function = fn != IR_NONE ? x->prog->functions[fn]->name : NULL,
		                   .via = x->prog->functions[flows->items[j].via]->name};
		if (st->loc)
			as.loc = *st->loc;
		add(a, field, &as);
	}
}

/* A store into an untyped heap block a site dispatches through (block.c):
 * into its list's key, or into every key of the block. */
static void store_block(adder *a, unsigned i, const ir_stmt *st, const sbitmap *pts, fn_list *fns)
{
	facet_ctx *x = a->x;
	uvec fields = {0};
	size_t n = block_store_fields(x, st->dst, st->offset, &fields);
	bool copy = n && copied_fields(a, st);
	if (n && !copy) {
		/* The functions and their origin once per store, not per key: a
		 * store at an unknown offset goes to every key of its blocks. */
		functions_in(a, pts, fns);
		unsigned fn = x->ix.stmt_function[i];
		bool established = fns->len && facet_value_origin(x, st->src) != ORIGIN_DATA;
		for (size_t j = 0; j < n; j++)
			for (size_t k = 0; k < fns->len; k++) {
				facet_assign as = {.function = fns->items[k], .form = FORM_STORE, .established = established,
				                   .in_function = fn != IR_NONE ? x->prog->functions[fn]->name : NULL,
				                   .constant = st->src < x->prog->n_values && x->ix.function_of_value[st->src]};
				if (st->loc)
					as.loc = *st->loc;
				add(a, fields.items[j], &as);
			}
	}
	for (size_t j = 0; j < n && copy; j++)   /* a copy of a field (p->h.on_read): resolved with the others */
		push_copy(a, i, fields.items[j]);
	VEC_FREE(&fields);
}

/* What a block object holds that no store put into one of its keys (a
 * copy, a library call, a store the key of which was not found) may be in
 * any of them: F of every key of the block gets it, not established. */
static void block_complete(adder *a)
{
	facet_ctx *x = a->x;
	uvec fields = {0};
	fn_list fns = {0};
	for (size_t b = 0; b < block_objects(x); b++) {
		const sbitmap *held = block_object_at(x, b, &fields);
		if (!held)
			continue;
		functions_in(a, held, &fns);
		for (size_t j = 0; j < fns.len; j++) {
			bool stored = false;
			for (size_t k = 0; k < fields.len && !stored; k++)
				stored = in_F(a, fields.items[k], fns.items[j]);
			for (size_t k = 0; k < fields.len && !stored; k++) {
				facet_assign as = {.function = fns.items[j], .form = FORM_STORE, .in_function = "?"};
				add(a, fields.items[k], &as);
			}
		}
	}
	VEC_FREE(&fields);
	VEC_FREE(&fns);
}

/* A store of a function constant whose address no type explains
 * (`((Command *) handle)->compile = compile_fn` through an opaque handle
 * type: the cast leaves no trace in the IR). Dropping it would leave F
 * short of a real write, and Prune-Store would refute the function (the
 * premise π_proj fails). The address is a constant offset from a pointer:
 * the function counts for every struct field at that offset that holds a
 * function pointer some site dispatches through and whose signature
 * fits, as a place that is not established. Not through an unknown offset
 * or into a global (whose type is known: a table of data pointers). */
static void store_unkeyed(adder *a, unsigned i, const ir_stmt *st)
{
	facet_ctx *x = a->x;
	const ir_program *p = x->prog;
	unsigned v = st->dst, fn = x->ix.stmt_function[i];
	int64_t off = st->offset;
	if (st->src >= p->n_values || !x->ix.function_of_value[st->src])
		return;
	for (int guard = 0; guard < 16 && v < p->n_values && ir_index_n_defs(p, &x->ix, v) == 1; guard++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, v, 0);
		if (d->op == ST_GEP && d->var_offset)
			return;   /* an offset not known: no field to name */
		if (d->op != ST_GEP && d->op != ST_COPY)
			break;
		off += d->op == ST_GEP ? d->offset : 0;
		v = d->src;
	}
	if (v < p->n_values && x->ix.global_of_value[v])
		return;   /* a global's own type is known: an array of data pointers (void *table[]) */
	facet_assign as = {.function = x->ix.function_of_value[st->src]->id, .form = FORM_STORE,
	                   .in_function = fn != IR_NONE ? p->functions[fn]->name : NULL, .constant = true};
	if (st->loc)
		as.loc = *st->loc;
	for (size_t f = 0; f < x->fields.len; f++) {
		const facet_field *fl = &x->fields.items[f];
		if (fl->kind == FIELD_STRUCT && fl->function_pointer && !fl->array_bytes && (int64_t)fl->offset == off &&
		    cast_sig_fits(x, as.function, fl->sig))   /* no signature-rejected place: the field is a guess */
			add(a, (unsigned)f, &as);
	}
}

/* A form-1 store into a function-pointer field: a field copy, or what
 * the stored value points to. */
static void store_field(adder *a, unsigned i, const ir_stmt *st, unsigned field, const sbitmap *pts, fn_list *fns)
{
	facet_assign as = store_place(a->x, i, st, FORM_STORE);
	note_write(a, field, &as);
	if (copied_fields(a, st))
		push_copy(a, i, field);
	else
		store_functions(a, i, field, pts, fns, NULL, COPY_ALL);
}

/* A store through a GEP by a choice between constants (-O2 writes
 * `*(c ? &p->rejected : &p->failed) += 1` as `gep i8, p, phi(376, 384)`):
 * the points-to analysis reads one constant GEP per choice, and so does
 * this, a store into each chosen field (none when every choice is a data
 * field) instead of one at an unknown offset into every function-pointer
 * field of the struct. False, and nothing done, when the address is no
 * such GEP or some choice does not resolve to a member. */
static bool store_choices(adder *a, unsigned i, const ir_stmt *st, const sbitmap *pts, fn_list *fns)
{
	facet_ctx *x = a->x;
	const ir_program *p = x->prog;
	if (st->dst >= p->n_values || ir_index_n_defs(p, &x->ix, st->dst) != 1)
		return false;
	const ir_stmt *g = ir_index_def(p, &x->ix, st->dst, 0);
	if (g->op != ST_GEP || !g->var_offset || !g->choices || g->choices[0] < 1)
		return false;
	uvec fields = {0};
	bool ok = true;
	for (int64_t c = 1; c <= g->choices[0] && ok; c++) {
		key_result k = dispatch_key(x, g->src, g->choices[c] + st->offset);
		unsigned field = field_of_key(x, &k);
		ok = k.ok;
		if (field != IR_NONE)
			push_unique(&fields, field);
	}
	for (size_t j = 0; ok && j < fields.len; j++)
		store_field(a, i, st, fields.items[j], pts, fns);
	VEC_FREE(&fields);
	return ok;
}

static void form1(adder *a)
{
	facet_ctx *x = a->x;
	const ir_program *p = x->prog;
	fn_list fns = {0};
	va_flow_list flows = {0};
	for (unsigned i = p->n_const_stmts; i < p->n_stmts; i++) {
		const ir_stmt *st = &p->stmts[i];
		if (st->op != ST_STORE)
			continue;
		/* Cheapest test first: most stored values hold no function. */
		const sbitmap *pts = pta_value_pts(x->pta, st->src);
		if (!pts || !sbm_intersects(pts, &a->fn_locs)) {
			store_va_arg(a, i, st, &flows);
			continue;
		}
		store_block(a, i, st, pts, &fns);
		if (store_choices(a, i, st, pts, &fns))
			continue;
		key_result k = dispatch_key(x, st->dst, st->offset);
		unsigned field = field_of_key(x, &k);
		if (field == IR_NONE && k.any_field) {
			/* A write at an unknown offset into a known struct (the optimiser
			 * merged stores into several fields): it may reach any of the
			 * struct's function-pointer fields; the signature filter in add()
			 * keeps the compatible ones. */
			store_any_field(a, k.record, pts, i, st, &fns);
			continue;
		}
		if (field != IR_NONE)
			store_field(a, i, st, field, pts, &fns);
		else if (!k.ok)
			store_unkeyed(a, i, st);
	}
	VEC_FREE(&fns);
	VEC_FREE(&flows);
}

/* What memcpy copy c moves into its field: every function when whole,
 * else those it admits. A function moved out of a collapsed object was
 * one of many the object's one location holds: it counts for F, but the
 * copy does not establish it in this field (form 2). */
static bool memcpy_functions(adder *a, const field_copy *c, copy_mode mode)
{
	const ir_program *p = a->x->prog;
	const ir_site *s = &p->sites[c->site];
	bool grew = false;
	for (unsigned j = c->moved_first; j < c->moved_first + c->n_moved; j++) {
		unsigned f = a->moved.items[j] & ~MOVED_LOOSE;
		bool had = in_F(a, c->field, f), loose = a->moved.items[j] & MOVED_LOOSE;
		/* A source field nothing writes: what an object points-to knows
		 * exactly moves, a collapsed one's location nothing (held_exactly). */
		bool admitted = copy_admits(a, c, f, COPY_FILTERED) || mode == COPY_ALL || (mode == COPY_UNWRITTEN && !loose);
		if (mode != COPY_ALL && had)
			continue;
		if (!admitted)
			continue;
		facet_assign as = {.function = f, .form = FORM_COPY, .loc = s->loc,
		                   .established = !(a->moved.items[j] & MOVED_LOOSE), .in_function = s->caller->name};
		add(a, c->field, &as);
		grew |= !had && in_F(a, c->field, f);
	}
	return grew;
}

static bool apply_copy(adder *a, const field_copy *c, copy_mode mode, fn_list *fns)
{
	if (c->site != IR_NONE)
		return memcpy_functions(a, c, mode);
	const sbitmap *pts = pta_value_pts(a->x->pta, a->x->prog->stmts[c->stmt].src);
	return store_functions(a, c->stmt, c->field, pts, fns, mode == COPY_ALL ? NULL : c, mode);
}

/* One round over the copies: those whose fields something wrote,
 * filtered; those taken whole (whole[c]) again as such (what their
 * written fields hold may have grown); the others are deferred. */
static bool copy_round(adder *a, fn_list *fns, const bool *whole, bool *deferred)
{
	bool changed = false;
	*deferred = false;
	for (size_t c = 0; c < a->copies.len; c++) {
		const field_copy *fc = &a->copies.items[c];
		if (!whole[c] && copy_unwritten(a, fc)) {
			*deferred = true;
			continue;
		}
		changed |= apply_copy(a, fc, whole[c] ? COPY_UNWRITTEN : COPY_FILTERED, fns);
	}
	return changed;
}

/* The deferred copies taken whole, once each: first those reading no
 * field that another deferred copy writes (it may yet be written: a
 * memcpy into a struct whose field a store then copies on), all of them
 * when every one waits on another (a cycle) or when `all`. */
static void take_whole(adder *a, fn_list *fns, bool *whole, bool all)
{
	size_t n = a->copies.len, nf = a->x->fields.len;
	bool *pending = xcalloc(nf + 1, sizeof *pending), *root = xcalloc(n + 1, sizeof *root), any = false;
	for (size_t c = 0; c < n; c++)
		if (!whole[c] && copy_unwritten(a, &a->copies.items[c]))
			pending[a->copies.items[c].field] = true;
	for (size_t c = 0; c < n; c++) {
		const field_copy *fc = &a->copies.items[c];
		if (whole[c] || !copy_unwritten(a, fc))
			continue;
		root[c] = true;
		for (unsigned j = fc->first; j < fc->first + fc->n_from && !all; j++) {
			unsigned from = a->froms.items[j];
			if (!(from & FROM_FUNCTION) && from != fc->field && pending[from])
				root[c] = false;
		}
		any |= root[c];
	}
	for (size_t c = 0; c < n; c++)
		if (!whole[c] && copy_unwritten(a, &a->copies.items[c]) && (root[c] || !any)) {
			apply_copy(a, &a->copies.items[c], COPY_UNWRITTEN, fns);
			whole[c] = true;
		}
	free(pending);
	free(root);
}

/* Copies of function-pointer fields: form 1's stores of a value loaded
 * from such fields (`child->on_comment = parent->on_comment`; a phi or
 * select of such loads and function constants; one lane of a vector
 * load), and form 2's memcpy from an object whose type puts such a field
 * at the slot (`struct ops keep = table;`), move only what those fields
 * hold: F(to) ⊇ pt(v) ∩ (∪ F(from) ∪ named), the least solution over all
 * such copies. The points-to set of the loaded value is all a collapsed
 * object holds (expat's parser, where every handler met); F(from) is what
 * stores put into the field, the premise π_proj every refutation already
 * rests on. A field nothing writes that is read to be copied may have been
 * written as another type (xz's lzma_filter_coder read through the
 * lzma_filter_encoder table): such a copy also brings what its source
 * objects hold there where points-to knows it (held_exactly: an object
 * that is not collapsed, a constant table), but not a collapsed object's
 * one location, which holds what every field of it holds (π_proj on the
 * source field: redis's `c->free_privdata = options->free_privdata` out
 * of one collapsed heap). The copies of a solution still changing after
 * COPY_ROUNDS rounds bring their whole points-to set (as without this
 * step). */
static void resolve_copies(adder *a)
{
	fn_list fns = {0};
	bool *whole = xcalloc(a->copies.len + 1, sizeof *whole);
	for (int pass = 0; a->copies.len; pass++) {
		bool changed = true, deferred = false;
		for (int round = 0; changed && round < COPY_ROUNDS; round++)
			changed = copy_round(a, &fns, whole, &deferred);
		if (changed) {   /* not converged: everything in whole */
			for (size_t c = 0; c < a->copies.len; c++)
				apply_copy(a, &a->copies.items[c], COPY_ALL, &fns);
			break;
		}
		if (!deferred)
			break;
		/* Copies from fields nothing wrote, in whole; what they add may
		 * feed other copies: another pass. Each pass takes at least one. */
		take_whole(a, &fns, whole, pass + 1 >= COPY_ROUNDS);
	}
	free(whole);
	VEC_FREE(&fns);
}

/* ---- form 2 ---------------------------------------------------------------------- */

static bool is_copy_function(const ir_function *f)
{
	static const char *const names[] = {"memcpy", "memmove", "__memcpy_chk", "__memmove_chk", "mempcpy"};
	if (strncmp(f->name, "llvm.memcpy.", 12) == 0 || strncmp(f->name, "llvm.memmove.", 13) == 0 ||
	    strncmp(f->name, "llvm.memcpy.inline.", 19) == 0)
		return true;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(f->name, names[i]) == 0)
			return true;
	return false;
}

/* The outermost struct that starts at byte k of an object of type t. */
static di_type *struct_at(facet_ctx *x, di_type *t, int64_t k)
{
	for (int guard = 0; guard < 32; guard++) {
		t = di_strip(t);
		if (!t)
			return NULL;
		if (t->kind == DI_ARRAY) {
			di_type *e = di_strip(t->base);
			while (e && e->kind == DI_ARRAY)
				e = di_strip(e->base);
			if (!e || e->size_bits < 8)
				return NULL;
			k %= (int64_t)(e->size_bits / 8);
			t = e;
			continue;
		}
		if (t->kind != DI_STRUCT)
			return NULL;
		if (t->n_members == 0 && t->name)
			t = strmap_get(&x->record_by_name, t->name) ? strmap_get(&x->record_by_name, t->name) : t;
		if (k == 0)
			return t;
		const di_member *hit = NULL;
		for (unsigned i = 0; i < t->n_members; i++) {
			const di_member *m = &t->members[i];
			if (!m->bitfield && (int64_t)(m->offset_bits / 8) <= k &&
			    k < (int64_t)((m->offset_bits + m->size_bits) / 8))
				hit = m;
		}
		if (!hit)
			return NULL;
		k -= (int64_t)(hit->offset_bits / 8);
		t = hit->type;
	}
	return NULL;
}

/* Byte offsets of every function-pointer slot of type t, from base. */
static void fp_slots(facet_ctx *x, di_type *t, uint64_t base, slot_list *out, int depth)
{
	t = di_strip(t);
	if (!t || depth > 8 || out->len > 4096)
		return;
	if (t->n_members == 0 && (t->kind == DI_STRUCT || t->kind == DI_UNION) && t->name) {
		di_type *def = strmap_get(&x->record_by_name, t->name);
		if (def)
			t = def;
	}
	if (sig_of_pointer(t)) {
		VEC_PUSH(out, base);
		return;
	}
	if (t->kind == DI_ARRAY) {
		di_type *e = di_strip(t->base);
		uint64_t es = e ? e->size_bits / 8 : 0, n = t->n_dims ? t->dims[0] : 0;
		for (uint64_t i = 0; es && i < n && i < ELEMENT_CAP; i++)
			fp_slots(x, t->base, base + i * es, out, depth + 1);
		return;
	}
	if (t->kind == DI_STRUCT || t->kind == DI_UNION)
		for (unsigned i = 0; i < t->n_members; i++)
			if (!t->members[i].bitfield)
				fp_slots(x, t->members[i].type, base + t->members[i].offset_bits / 8, out, depth + 1);
}

/* What field (obj, off) holds, without making the solver collapse anything. */
static const sbitmap *content(const pta_result *pta, unsigned obj, int64_t off)
{
	pta_solver *s = pta->solver;
	if (pta_object_collapsed(s, obj))
		off = 0;
	else if (off < 0 || (uint64_t)off >= pta_object_size(s, obj))
		return NULL;
	return pta_pts(s, pta_field(s, obj, off));
}

/* The defined constant global that points-to object obj stands for, or NULL.
 * Its content is its initializer: C gives no way to write it. */
static const ir_global *constant_global(const facet_ctx *x, unsigned obj)
{
	const pta_result *pta = x->pta;
	if (obj >= pta->n_objects || pta->objects[obj].kind != OBJ_GLOBAL || pta->objects[obj].index >= x->prog->n_globals)
		return NULL;
	const ir_global *g = x->prog->globals[pta->objects[obj].index];
	return g->constant && g->defined ? g : NULL;
}

/* What a copy of n bytes (IR_NOT_CONST: unknown) read from one location loc
 * of the source moves into the slot at byte `slot` of the destination:
 *   - a constant global: the function its initializer holds at that offset
 *     (into `exact`). The copy starts at loc's offset; when the object is
 *     collapsed that offset is lost, but a copy as large as the object
 *     starts at 0 (C's rule: it stays inside its object);
 *   - an object that is not collapsed: what points-to says the field holds
 *     (into `exact`);
 *   - a collapsed object (not a constant one copied whole): its one location
 *     holds what every field holds, so the copy may have moved any of it into
 *     this slot (into `loose`). Read as exact, a copy out of a collapsed
 *     table moved every function of it into every field of the destination,
 *     each with an established place for Add-Store. */
/* last[0] and last[1]: the content sets united into exact and loose (or
 * found to hold no function) since they were emptied. Equal sets are one
 * set (points-to stores each once), and a wide source's collapsed objects
 * mostly hold the same one: it is united once, not once per object. */
static void copied_at(adder *a, unsigned loc, int64_t slot, int64_t n, sbitmap *exact, sbitmap *loose,
                      fn_list *exact_fns, const sbitmap *last[2])
{
	facet_ctx *x = a->x;
	pta_solver *sv = x->pta->solver;
	unsigned obj = pta_loc_object(sv, loc);
	bool collapsed = pta_object_collapsed(sv, obj);
	const ir_global *g = constant_global(x, obj);
	if (g && (!collapsed || (n != IR_NOT_CONST && (uint64_t)n == g->size))) {
		int64_t off = (collapsed ? 0 : pta_loc_offset(sv, loc)) + slot;
		for (unsigned i = 0; i < g->n_slots; i++)
			if (g->slots[i].kind == SLOT_FUNCTION && g->slots[i].function && (int64_t)g->slots[i].offset == off)
				VEC_PUSH(exact_fns, g->slots[i].function->id);
		return;
	}
	const sbitmap *c = content(x->pta, obj, pta_loc_offset(sv, loc) + slot);
	if (!c || c == last[collapsed])
		return;
	last[collapsed] = c;
	if (sbm_intersects(c, &a->fn_locs))
		sbm_union(collapsed ? loose : exact, c);
}

static void copy_add(adder *a, unsigned field, const fn_list *fns, bool established, const ir_site *s,
                     unsigned fn)
{
	for (size_t j = 0; j < fns->len; j++) {
		facet_assign as = {.function = fns->items[j], .form = FORM_COPY, .loc = s->loc, .established = established,
		                   .in_function = a->x->prog->functions[fn]->name};
		add(a, field, &as);
	}
}

/* The struct a copy's operand points to at the copy's start, or NULL. A
 * variable index picks an element (p[i] = q[j]): the element's struct. */
static di_type *copied_struct(facet_ctx *x, unsigned v)
{
	object_ref o = dispatch_object(x, v, 0, 0);
	if (!o.ok || (o.var_index && o.n_var != 1))
		return NULL;
	return o.var_index ? struct_at(x, o.type, o.var_tail) : struct_at(x, o.type, o.offset);
}

/* The function-pointer field of struct S (the copy's source) at byte
 * `slot` of the copy, when it has an F of its own. */
static unsigned source_field(facet_ctx *x, di_type *S, int64_t slot)
{
	int64_t size = (int64_t)(S->size_bits / 8);
	key_result k = dispatch_key_in(x, S, size > 0 ? slot % size : slot, NULL);
	unsigned f = field_of_key(x, &k);
	if (f == IR_NONE || !x->fields.items[f].function_pointer || x->fields.items[f].array_bytes)
		return IR_NONE;
	return f;
}

/* A memcpy whose source's type puts field `from` at the slot moves only
 * what that field holds (as a store of a loaded field does): what the
 * source's objects hold there (exact, or loose out of a collapsed object)
 * that F(from) has, resolved with the other copies. */
static void defer_memcpy(adder *a, const ir_site *s, unsigned field, unsigned from, const sbitmap *exact,
                         const sbitmap *loose, fn_list *fns)
{
	field_copy c = {IR_NONE, field, (unsigned)a->froms.len, 1, (unsigned)(s - a->x->prog->sites),
	                (unsigned)a->moved.len, 0, 0, 0};
	VEC_PUSH(&a->froms, from);
	functions_in(a, exact, fns);
	for (size_t j = 0; j < fns->len; j++)
		VEC_PUSH(&a->moved, fns->items[j]);
	functions_in(a, loose, fns);
	for (size_t j = 0; j < fns->len; j++)
		VEC_PUSH(&a->moved, MOVED_LOOSE | fns->items[j]);
	c.n_moved = (unsigned)(a->moved.len - c.moved_first);
	if (c.n_moved)
		VEC_PUSH(&a->copies, c);
}

static void form2_copy(adder *a, const ir_site *s, unsigned fn)
{
	facet_ctx *x = a->x;
	if (s->n_args < 3 || s->args[0] == IR_NONE || s->args[1] == IR_NONE)
		return;
	const sbitmap *src = pta_value_pts(x->pta, s->args[1]);
	if (!src || sbm_empty(src))
		return;
	di_type *S = copied_struct(x, s->args[0]), *from_S = S ? copied_struct(x, s->args[1]) : NULL;
	if (!S)
		return;
	int64_t n = s->arg_consts[2];
	slot_list slots = {0};
	fp_slots(x, S, 0, &slots, 0);
	/* A copy longer than S fills the elements of an array of S after it
	 * (memcpy(e->fixed, init, sizeof e->fixed)): their slots key alike. */
	int64_t size = (int64_t)(S->size_bits / 8);
	for (size_t i = 0, n0 = slots.len; n != IR_NOT_CONST && size > 0 && n > size && i < n0; i++)
		for (int64_t at = (int64_t)slots.items[i] + size; at < n && slots.len < ELEMENT_CAP * n0; at += size)
			VEC_PUSH(&slots, (uint64_t)at);
	fn_list fns = {0}, exact_fns = {0};
	sbitmap exact = {0}, loose = {0};
	for (size_t i = 0; i < slots.len; i++) {
		if (n != IR_NOT_CONST && (int64_t)slots.items[i] >= n)
			continue;   /* a partial copy does not reach this field */
		key_result k = dispatch_key_in(x, S, (int64_t)slots.items[i] % (size > 0 ? size : INT64_MAX), NULL);
		unsigned field = field_of_key(x, &k);
		if (field == IR_NONE)
			continue;
		facet_assign place = {.function = IR_NONE, .form = FORM_COPY, .loc = s->loc, .in_function = s->caller->name};
		note_write(a, field, &place);
		/* ∪ over the source's locations of what each holds at field m', then its functions once. */
		sbm_clear(&exact);
		sbm_clear(&loose);
		VEC_CLEAR(&exact_fns);
		const sbitmap *last[2] = {NULL, NULL};
		unsigned loc;
		SBM_FOREACH(src, loc)
			copied_at(a, loc, (int64_t)slots.items[i], n, &exact, &loose, &exact_fns, last);
		copy_add(a, field, &exact_fns, true, s, fn);
		unsigned from = from_S ? source_field(x, from_S, (int64_t)slots.items[i]) : IR_NONE;
		if (from != IR_NONE) {
			defer_memcpy(a, s, field, from, &exact, &loose, &fns);
			continue;
		}
		functions_in(a, &exact, &fns);
		copy_add(a, field, &fns, true, s, fn);
		/* F keeps what a collapsed source may have moved here (the refutations
		 * need every write), but the copy does not establish a flow into this
		 * field: no Add-Store rests on it. */
		functions_in(a, &loose, &fns);
		copy_add(a, field, &fns, false, s, fn);
	}
	sbm_free(&exact);
	sbm_free(&loose);
	VEC_FREE(&fns);
	VEC_FREE(&exact_fns);
	VEC_FREE(&slots);
}

static void form2(adder *a)
{
	const ir_program *p = a->x->prog;
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind == SITE_DIRECT && s->callee && is_copy_function(s->callee))
			form2_copy(a, s, s->caller->id);
	}
}

/* ---- results ---------------------------------------------------------------------- */

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

static unsigned unique(unsigned *v, unsigned n)
{
	qsort(v, n, sizeof *v, cmp_unsigned);
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* Groups items (item i goes to field field_of[i]) into each field's array:
 * fl->assigns, or fl->rejected when rejected. */
static void group_by_field(facet_ctx *x, const facet_assign *items, const unsigned *field_of, size_t n,
                           bool rejected)
{
	unsigned nf = (unsigned)x->fields.len;
	unsigned *count = xcalloc(nf + 1, sizeof *count);
	for (size_t i = 0; i < n; i++)
		count[field_of[i]]++;
	for (unsigned f = 0; f < nf; f++) {
		facet_field *fl = &x->fields.items[f];
		facet_assign *arr = ARENA_ARRAY(x->arena, facet_assign, count[f] ? count[f] : 1);
		if (rejected) {
			fl->rejected = arr;
			fl->n_rejected = 0;
		} else {
			fl->assigns = arr;
			fl->n_assigns = 0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		facet_field *fl = &x->fields.items[field_of[i]];
		if (rejected)
			fl->rejected[fl->n_rejected++] = items[i];
		else
			fl->assigns[fl->n_assigns++] = items[i];
	}
	free(count);
}

/* An array of function pointers inside a struct has a key per element
 * (constant indexes) and one for the whole array (variable indexes). A
 * write through a variable index may land in any element, and a read
 * through one may see any element's writes: the whole array's places go to
 * every element, and every element's to the whole array. */
static void share_array_places(adder *a)
{
	facet_ctx *x = a->x;
	unsigned nf = (unsigned)x->fields.len;
	unsigned *whole = xmalloc((nf ? nf : 1) * sizeof *whole);   /* element field -> its whole array's, or IR_NONE */
	strmap by_array;
	strmap_init(&by_array);
	for (unsigned f = 0; f < nf; f++) {
		const facet_field *fl = &x->fields.items[f];
		whole[f] = IR_NONE;
		if (fl->whole_array)
			strmap_put(&by_array, arena_printf(x->arena, "%s@%llu", fl->record, (unsigned long long)fl->array_start),
			           (void *)(uintptr_t)(f + 1));
	}
	bool any = by_array.len > 0;
	for (unsigned f = 0; f < nf && any; f++) {
		const facet_field *fl = &x->fields.items[f];
		if (fl->array_bytes && !fl->whole_array) {
			uintptr_t w = (uintptr_t)strmap_get(&by_array, arena_printf(x->arena, "%s@%llu", fl->record,
			                                                              (unsigned long long)fl->array_start));
			whole[f] = w ? (unsigned)w - 1 : IR_NONE;
		}
	}
	size_t n = any ? a->assigns.len : 0;
	for (size_t i = 0; i < n; i++) {
		unsigned f = a->field_of.items[i];
		if (whole[f] != IR_NONE) {   /* an element's place: the whole array's too */
			facet_assign as = a->assigns.items[i];
			VEC_PUSH(&a->assigns, as);
			VEC_PUSH(&a->field_of, whole[f]);
			continue;
		}
		if (!x->fields.items[f].whole_array)
			continue;
		for (unsigned e = 0; e < nf; e++)   /* the whole array's place: every element's */
			if (whole[e] == f) {
				facet_assign as = a->assigns.items[i];
				VEC_PUSH(&a->assigns, as);
				VEC_PUSH(&a->field_of, e);
			}
	}
	strmap_free(&by_array);
	free(whole);
}

/* Groups the assignments by field and derives init and F from them. */
static void finish(adder *a)
{
	facet_ctx *x = a->x;
	unsigned nf = (unsigned)x->fields.len;
	share_array_places(a);
	group_by_field(x, a->assigns.items, a->field_of.items, a->assigns.len, false);
	group_by_field(x, a->rejected.items, a->rejected_field.items, a->rejected.len, true);
	for (unsigned f = 0; f < nf; f++) {
		facet_field *fl = &x->fields.items[f];
		fl->F = ARENA_ARRAY(x->arena, unsigned, fl->n_assigns ? fl->n_assigns : 1);
		fl->init = ARENA_ARRAY(x->arena, unsigned, fl->n_assigns ? fl->n_assigns : 1);
		fl->n_F = fl->n_init = 0;
		for (unsigned i = 0; i < fl->n_assigns; i++) {
			fl->F[fl->n_F++] = fl->assigns[i].function;
			if (fl->assigns[i].form == FORM_INIT)
				fl->init[fl->n_init++] = fl->assigns[i].function;
		}
		fl->n_F = unique(fl->F, fl->n_F);
		fl->n_init = unique(fl->init, fl->n_init);
	}
	for (size_t i = 0; i < a->empty.len; i++)
		x->fields.items[a->empty_field.items[i]].empty_write = arena_memdup(x->arena, &a->empty.items[i],
		                                                                    sizeof a->empty.items[i]);
}

void assign_fields(facet_ctx *x)
{
	adder a = {.x = x};
	intmap_init(&a.count);
	intmap_init(&a.established);
	const ir_program *p = x->prog;
	for (unsigned o = 0; o < x->pta->n_objects; o++)
		if (x->pta->objects[o].kind == OBJ_FUNCTION)
			sbm_set(&a.fn_locs, pta_canon(x->pta->solver, pta_field(x->pta->solver, o, 0)));
	if (p->has_debug_info) {
		form0(&a);
		form1(&a);
		form2(&a);
		resolve_copies(&a);
		block_complete(&a);
	}
	finish(&a);
	intmap_free(&a.count);
	intmap_free(&a.established);
	sbm_free(&a.fn_locs);
	VEC_FREE(&a.assigns);
	VEC_FREE(&a.field_of);
	VEC_FREE(&a.rejected);
	VEC_FREE(&a.rejected_field);
	VEC_FREE(&a.copies);
	VEC_FREE(&a.froms);
	VEC_FREE(&a.moved);
	VEC_FREE(&a.exact);
	VEC_FREE(&a.empty);
	VEC_FREE(&a.empty_field);
	VEC_FREE(&a.has_empty);
	VEC_FREE(&a.vs.loads);
	VEC_FREE(&a.vs.fields);
	VEC_FREE(&a.vs.functions);
	VEC_FREE(&a.vs.seen);
	VEC_FREE(&a.n_in_F);
}
