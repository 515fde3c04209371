/* cast.c — where the program converts a function's address to a
 * function-pointer type its own signature is not compatible with: the
 * evidence behind Keep-Cast and Add-Cast (classify.c).
 *
 * C converts a function designator to an incompatible function-pointer type
 * only under an explicit cast (C11 6.5.16.1p1 makes the plain assignment a
 * constraint violation, and clang 16 on rejects it), so a function whose
 * address is written, where it is taken, into a place declared `T *` while
 * sig(f) ≁ T was cast to T there: `(lzma_filter_find)&encoder_find` passed
 * to a parameter of that type, `(Tcl_FreeProc *) DeleteInterpProc`, a
 * builtin table `{(cfunction_ptr)f_acos, ...}` in an unprototyped generic
 * holder. The cast is the program saying f is meant for pointers of type T,
 * so the signature rules must not refute f where the call's declared type
 * fits T. Only the place where the address is taken counts — the function
 * constant itself, not a pointer loaded from a data table and cast there,
 * which says nothing about which function it holds.
 *
 * The places read: a direct call's argument (the callee's declared
 * parameter type), a global initializer's slot (the member's type), a store
 * of the constant (the field's or the slot variable's type), a debug record
 * binding the constant to a variable, and a return (the function's declared
 * return type). */
#include "facet/internal.h"

#include <stdlib.h>

enum { CASTS_PER_FUNCTION = 8, CONSTANT_DEPTH = 4 };

typedef VEC(facet_cast) cast_list;

typedef struct collector {
	facet_ctx *x;
	cast_list all;
	VEC(unsigned) owner;       /* per cast: the function id */
	VEC(unsigned) prev;        /* per cast: the same function's previous cast + 1, 0 for none */
	unsigned *count;           /* per function: casts recorded */
	unsigned *last;            /* per function: its latest cast + 1, 0 for none */
} collector;

/* Records that f's address is converted to the function-pointer type ptr
 * at loc, when that is a cast: sig(f) known and not compatible with it. */
static void note(collector *c, const ir_function *f, di_type *ptr, const ir_loc *loc, const facet_cast *where)
{
	facet_ctx *x = c->x;
	di_type *to = sig_of_pointer(ptr);
	if (!f || !to || !f->di_sig || c->count[f->id] >= CASTS_PER_FUNCTION ||
	    sig_compatible_cached(&x->sigs, f->di_sig, to))
		return;
	for (unsigned i = c->last[f->id]; i; i = c->prev.items[i - 1])   /* one entry per (function, type) */
		if (sig_type_equal(c->all.items[i - 1].to, to))
			return;
	facet_cast k = *where;
	k.to = to;
	if (loc)
		k.loc = *loc;
	VEC_PUSH(&c->all, k);
	VEC_PUSH(&c->owner, f->id);
	VEC_PUSH(&c->prev, c->last[f->id]);
	c->last[f->id] = (unsigned)c->all.len;
	c->count[f->id]++;
}

static const ir_function *function_at(facet_ctx *x, unsigned v)
{
	return v < x->prog->n_values ? x->ix.function_of_value[v] : NULL;
}

/* The function constants value v is made of: itself, or through copies
 * (the optimiser's select and phi of constants: `c ? (T)f : (T)g`), never
 * through a load (a pointer read from a table is not where the address is
 * taken). At most `cap`, into out; returns how many. */
static unsigned constants_of(facet_ctx *x, unsigned v, const ir_function **out, unsigned n, unsigned cap, int depth)
{
	const ir_program *p = x->prog;
	if (v >= p->n_values || n >= cap)
		return n;
	const ir_function *f = function_at(x, v);
	if (f) {
		for (unsigned i = 0; i < n; i++)
			if (out[i] == f)
				return n;
		out[n++] = f;
		return n;
	}
	if (depth >= CONSTANT_DEPTH)
		return n;
	unsigned nd = ir_index_n_defs(p, &x->ix, v);
	for (unsigned i = 0; i < nd && n < cap; i++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, v, i);
		if (d->op == ST_COPY)
			n = constants_of(x, d->src, out, n, cap, depth + 1);
	}
	return n;
}

/* note() for every function constant value v is made of. */
static void note_value(collector *c, unsigned v, di_type *ptr, const ir_loc *loc, const facet_cast *where)
{
	if (!sig_of_pointer(ptr))
		return;
	const ir_function *fs[CASTS_PER_FUNCTION];
	unsigned n = constants_of(c->x, v, fs, 0, CASTS_PER_FUNCTION, 0);
	for (unsigned i = 0; i < n; i++)
		note(c, fs[i], ptr, loc, where);
}

/* A direct call passing a function constant to a parameter declared as a
 * function pointer. */
static void from_arguments(collector *c)
{
	facet_ctx *x = c->x;
	const ir_program *p = x->prog;
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind != SITE_DIRECT || !s->callee || !s->callee->di_sig)
			continue;
		const di_type *sig = s->callee->di_sig;
		for (unsigned a = 0; a < s->n_args && a + 1 < sig->n_params; a++)
			if (sig->params[a + 1] && sig_of_pointer(sig->params[a + 1]))
				note_value(c, s->args[a], sig->params[a + 1], &s->loc,
				           &(facet_cast){.place = CAST_ARGUMENT, .name = ir_function_label(s->callee), .n = a + 1});
	}
}

/* A global initializer's slot holding a function constant. */
static void from_initializers(collector *c)
{
	facet_ctx *x = c->x;
	const ir_program *p = x->prog;
	for (unsigned g = 0; g < p->n_globals; g++) {
		ir_global *gl = p->globals[g];
		if (!gl->var || !gl->var->type)
			continue;
		for (unsigned i = 0; i < gl->n_slots; i++) {
			const ir_init_slot *sl = &gl->slots[i];
			if (sl->kind != SLOT_FUNCTION || sl->addend != 0)
				continue;
			key_result k = dispatch_key_in(x, gl->var->type, (int64_t)(sl->offset + gl->var_offset_bits / 8), gl);
			if (k.ok)
				note(c, sl->function, k.member_type, &gl->var->loc,
				     &(facet_cast){.place = CAST_INITIALIZER, .name = ir_global_label(gl), .n = sl->offset});
		}
	}
}

/* Stores and returns of a function constant; debug records naming one. */
static void from_statements(collector *c)
{
	facet_ctx *x = c->x;
	const ir_program *p = x->prog;
	const ir_function *one[1];
	for (unsigned i = p->n_const_stmts; i < p->n_stmts; i++) {
		const ir_stmt *st = &p->stmts[i];
		unsigned in = x->ix.stmt_function[i];
		if ((st->op != ST_RET && st->op != ST_STORE) || in == IR_NONE || !constants_of(x, st->src, one, 0, 1, 0))
			continue;   /* cheapest first: most stored values are made of no function */
		const ir_function *holder = p->functions[in];
		if (st->op == ST_RET && holder->di_sig && holder->di_sig->n_params > 0) {
			note_value(c, st->src, holder->di_sig->params[0], &holder->loc,
			           &(facet_cast){.place = CAST_RETURN, .name = ir_function_label(holder)});
		} else if (st->op == ST_STORE) {
			key_result k = dispatch_key(x, st->dst, st->offset);
			di_type *t = k.ok ? k.member_type : NULL;
			const ir_dbg_binding *slot = !t && st->offset == 0 && st->dst < p->n_values ? x->ix.slot_binding[st->dst]
			                                                                          : NULL;
			if (slot)
				t = slot->var->type;
			note_value(c, st->src, t, st->loc, &(facet_cast){.place = CAST_STORE, .name = ir_function_label(holder)});
		}
	}
	for (unsigned b = 0; b < p->n_bindings; b++) {
		const ir_dbg_binding *r = &p->bindings[b];
		const ir_function *f = function_at(x, r->value);
		if (f && r->empty_expr && !r->declare)
			note(c, f, r->var->type, &r->var->loc, &(facet_cast){.place = CAST_VARIABLE, .name = r->var->name});
	}
}

void cast_collect(facet_ctx *x)
{
	const ir_program *p = x->prog;
	collector c = {.x = x, .count = xcalloc(p->n_functions + 1, sizeof(unsigned)),
	               .last = xcalloc(p->n_functions + 1, sizeof(unsigned))};
	if (p->has_debug_info) {
		from_arguments(&c);
		from_initializers(&c);
		from_statements(&c);
	}
	/* CSR by function id, in the order found. */
	x->cast_start = ARENA_ARRAY(x->arena, unsigned, p->n_functions + 1);
	x->cast_start[0] = 0;
	for (unsigned f = 0; f < p->n_functions; f++)
		x->cast_start[f + 1] = x->cast_start[f] + c.count[f];
	x->casts = ARENA_ARRAY(x->arena, facet_cast, c.all.len ? c.all.len : 1);
	unsigned *fill = c.count;
	for (unsigned f = 0; f < p->n_functions; f++)
		fill[f] = x->cast_start[f];
	for (size_t i = 0; i < c.all.len; i++)
		x->casts[fill[c.owner.items[i]]++] = c.all.items[i];
	x->n_casts = (unsigned)c.all.len;
	free(c.count);
	free(c.last);
	VEC_FREE(&c.all);
	VEC_FREE(&c.owner);
	VEC_FREE(&c.prev);
}

const facet_cast *cast_fit(facet_ctx *x, unsigned f, di_type *sig)
{
	if (!x->cast_start || !sig)
		return NULL;
	for (unsigned i = x->cast_start[f]; i < x->cast_start[f + 1]; i++)
		if (sig_compatible_cached(&x->sigs, x->casts[i].to, sig))
			return &x->casts[i];
	return NULL;
}

const char *cast_text(facet_ctx *x, unsigned f, const facet_cast *c)
{
	char t[256];
	const char *fn = ir_function_label(x->prog->functions[f]), *file = c->loc.file ? c->loc.file : "?";
	const char *to = sig_text(c->to, t, sizeof t);
	switch (c->place) {
	case CAST_ARGUMENT:
		return arena_printf(x->arena, "%s's address is cast to %s as argument %llu of %s (%s:%u)", fn, to,
		                    (unsigned long long)c->n, c->name, file, c->loc.line);
	case CAST_INITIALIZER:
		return arena_printf(x->arena, "%s's address is cast to %s in the initializer of %s+%llu (%s:%u)", fn, to,
		                    c->name, (unsigned long long)c->n, file, c->loc.line);
	case CAST_STORE:
		return arena_printf(x->arena, "%s's address is cast to %s by a store in %s (%s:%u)", fn, to, c->name, file,
		                    c->loc.line);
	case CAST_VARIABLE:
		return arena_printf(x->arena, "%s's address is cast to %s into variable %s (%s:%u)", fn, to, c->name, file,
		                    c->loc.line);
	case CAST_RETURN:
		return arena_printf(x->arena, "%s's address is cast to %s as the return of %s (%s:%u)", fn, to, c->name,
		                    file, c->loc.line);
	}
	return "?";
}

bool cast_sig_fits(facet_ctx *x, unsigned f, di_type *sig)
{
	return sig_compatible_cached(&x->sigs, x->prog->functions[f]->di_sig, sig) || cast_fit(x, f, sig);
}
