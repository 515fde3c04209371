/* andersen.c — constraint extraction, on-the-fly call binding, R0; see andersen.h. */
#include "pta/andersen.h"
#include "pta/libmodel.h"
#include "pta/receivers.h"
#include "pta/wrappers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/index.h"
#include "util/intmap.h"
#include "util/ptrmap.h"
#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"
#include "util/clock.h"

/* Heap objects have no size we can trust (malloc(n * size), realloc): any
 * non-negative offset is a field of theirs. */
#define HEAP_SIZE (1ull << 31)
/* Memory copies of up to this many bytes are copied field by field; longer or
 * unknown lengths move every field of the source, from the source pointer
 * on, into every field of the destination from the destination pointer on. */
#define COPY_FIELDS_MAX 8192

/* A watch: the callee pointer of an indirect site, or a callback argument of
 * a library call (qsort's comparator). */
typedef struct watch {
	unsigned site;
	const lib_effect *callback;   /* NULL for an indirect call */
	unsigned patch_arg;           /* a patcher's call: the argument watched for trampolines, else 0 */
	const lib_effect *lookup;     /* a symbol lookup's watch of its handle: the program's own handle
	                                 reaching it makes every export a result (lookup_symbol) */
	/* Functions bound through this watch, by id. A set per watch rather
	 * than one map of (watch, function) pairs: that map held every pair of
	 * the program (3.2 million on sqlite), a cache miss per report. */
	sbitmap bound;
	/* A paired call's watch (see "paired calls" below): pair is the
	 * index + 1 of its record (0: none); loc is PTA_NONE for the watch on
	 * the base, else the index of the base location's record. */
	unsigned pair, loc;
} watch;

/* A call whose callee and some arguments are read from one base
 * (receivers.h), and per base location the nodes it gives. */
typedef struct paired {
	pta_paired call;
	unsigned callee_watch;        /* the site's own callee watch */
	unsigned n_locs;              /* base locations given nodes of their own */
	bool whole;                   /* too many: the arguments are bound whole, as any other */
} paired;

typedef struct paired_loc {
	unsigned pair;
	unsigned arg[PTA_PAIRED_ARGS];  /* per paired argument: the node its chain loads into from this
	                                   base location, or (a chain of no load) the location it is */
} paired_loc;

/* A wrapper called at `ctx` whose source `site` is an indirect call: what
 * each target of site gives goes to `result` (see answer_target). */
#define CLONE_DEPTH 3

typedef struct clone {
	unsigned ctx, result, wrapper;
	unsigned depth;               /* calls[0..depth]: ctx, then the inner calls down to this level */
	unsigned calls[CLONE_DEPTH + 1];
	bool whole;                   /* site's own result already copied to result */
} clone;

typedef struct extractor {
	const ir_program *prog;
	pta_result *r;
	pta_solver *s;
	pta_wrappers *wrappers;       /* NULL when the option is off */
	VEC(clone) *clones;           /* per indirect site: the wrapper call sites it answers for */
	intmap cloned;                /* (site, context) pairs subscribed: key site << 32 | ctx */
	intmap clone_obj;             /* context site -> its one fresh object */
	unsigned clone_budget;        /* subscriptions left before wrappers bind uncloned */
	bool bind_all;
	unsigned *ret_node;           /* by function id, PTA_NONE until needed */
	unsigned *static_obj;         /* by function id: library-owned memory */
	unsigned *varargs_addr;       /* by function id: a node pointing to its variadic arguments' object */
	ir_index ix;                  /* definitions by value, built when a variadic call is first bound */
	bool have_ix;
	bool varargs;                 /* pta_options.varargs */
	VEC(watch) watches;
	VEC(pta_obj_info) objects;
	strmap unmodelled;
	VEC(unsigned) *targets;       /* per site */
	intmap tramp_slot;            /* a trampoline's address value -> a node pointing to its slot */
	intmap patcher;               /* function id -> mask of the argument positions a trampoline is passed at */
	ptrmap arrays;                /* an ir_arrays -> its solver ranges' first id + 1 */
	/* a value (in a function) that is a variable-index GEP G plus a constant
	 * (constant GEPs after it) -> G's statement index + 1, the constant
	 * (int32) in the high half */
	intmap var_geps;
	intmap di_arrays;             /* a debug-info struct's id -> its solver ranges: first + 1 (low half), count */
	VEC(paired) pairs;
	VEC(paired_loc) pair_locs;
	unsigned *pair_of;            /* per site: its paired record, PTA_NONE when none (NULL: none yet) */
	uint8_t *read;                /* per value: an address something may read or write through (find_read) */
	VEC(pta_copy_site) copies;    /* copies of unknown length at sites (copy_memory) */
	VEC(unsigned) symbol_sites;   /* symbol lookups (lookup_symbol), and what they found: */
	unsigned n_symbol_named, n_symbol_found, n_symbol_any;
	unsigned self_handle;         /* object: the program's own handle, dlopen(NULL); PTA_NONE until made */
	unsigned runtime_code;        /* object: code loaded at run time; PTA_NONE until made */
	unsigned exports;             /* node: every externally visible function and global; PTA_NONE until made */
	const unsigned *skip_copies;  /* pta_options.skip_copies */
	unsigned n_skip_copies;
} extractor;

/* ---- nodes and objects --------------------------------------------------------------- */

static unsigned node_of(extractor *x, unsigned value)
{
	if (value == IR_NONE)
		return PTA_NONE;
	if (x->r->value_node[value] == PTA_NONE)
		x->r->value_node[value] = pta_node(x->s);
	return x->r->value_node[value];
}

/* The solver's ranges for a type's member arrays (one list per type,
 * shared by its objects): the inner lists first, so each list's ranges are
 * consecutive. */
static unsigned solver_arrays(extractor *x, const ir_arrays *a)
{
	void *v = ptrmap_get(&x->arrays, a);
	if (v)
		return (unsigned)((uintptr_t)v - 1);
	unsigned inner[64];   /* lower.c's ARRAYS_MAX */
	unsigned n = a->n < 64 ? a->n : 64;
	for (unsigned i = 0; i < n; i++)
		inner[i] = a->r[i].inner ? solver_arrays(x, a->r[i].inner) : PTA_NONE;
	unsigned first = PTA_NONE;
	for (unsigned i = 0; i < n; i++) {
		const ir_array_range *r = &a->r[i];
		unsigned id = pta_array_range(x->s, r->start, r->elem, r->count, inner[i],
		                              r->inner ? (r->inner->n < 64 ? r->inner->n : 64) : 0);
		if (i == 0)
			first = id;
	}
	ptrmap_put(&x->arrays, a, (void *)(uintptr_t)(first + 1));
	return first;
}

static void object_arrays(extractor *x, unsigned obj, const ir_arrays *a)
{
	if (a && a->n)
		pta_object_arrays(x->s, obj, solver_arrays(x, a), a->n < 64 ? a->n : 64);
}

/* ---- heap memory typed by the pointer it is assigned to ---- */

typedef struct range_tmp { uint64_t start, elem, count; unsigned inner, n_inner; } range_tmp;
typedef VEC(range_tmp) range_tmps;

static void di_collect(extractor *x, di_type *t, uint64_t base, range_tmps *out, int depth);

/* The solver's list for the ranges in out (pushed consecutively): first id, *n. */
static unsigned push_ranges(extractor *x, const range_tmps *out, unsigned *n)
{
	unsigned first = PTA_NONE;
	*n = (unsigned)out->len;
	for (size_t i = 0; i < out->len; i++) {
		const range_tmp *r = &out->items[i];
		unsigned id = pta_array_range(x->s, r->start, r->elem, r->count, r->inner, r->n_inner);
		if (i == 0)
			first = id;
	}
	return first;
}

/* An array of dims[0] x dims[1] x ... elements of type elem at base. */
static void di_collect_array(extractor *x, di_type *elem, const uint64_t *dims, unsigned nd, uint64_t bytes,
                             uint64_t base, range_tmps *out, int depth)
{
	if (nd == 0) {
		di_collect(x, elem, base, out, depth + 1);
		return;
	}
	uint64_t n = dims[0];
	if (n == 0 || bytes == 0 || bytes % n)
		return;   /* unknown bound (a flexible array member): not a range */
	uint64_t esz = bytes / n;
	if (n == 1) {
		di_collect_array(x, elem, dims + 1, nd - 1, esz, base, out, depth + 1);
		return;
	}
	range_tmps in = {0};
	di_collect_array(x, elem, dims + 1, nd - 1, esz, 0, &in, depth + 1);
	unsigned n_in = 0, first = in.len ? push_ranges(x, &in, &n_in) : PTA_NONE;
	VEC_FREE(&in);
	range_tmp r = {base, esz, n, first, n_in};
	VEC_PUSH(out, r);
}

/* The member arrays of debug-info type t at byte base (as lower.c's
 * collect_arrays does for IR types); unions contribute none. */
static void di_collect(extractor *x, di_type *t, uint64_t base, range_tmps *out, int depth)
{
	t = di_strip(t);
	if (!t || depth > 8 || out->len >= 64)
		return;
	if (t->kind == DI_ARRAY && t->n_dims > 0)
		di_collect_array(x, t->base, t->dims, t->n_dims, t->size_bits / 8, base, out, depth);
	else if (t->kind == DI_STRUCT && !t->forward_decl)
		for (unsigned i = 0; i < t->n_members; i++) {
			const di_member *m = &t->members[i];
			if (!m->bitfield && !m->virtual_base && m->offset_bits % 8 == 0)
				di_collect(x, m->type, base + m->offset_bits / 8, out, depth + 1);
		}
}

/* The struct a heap allocation's result is assigned to (every debug binding
 * of the call's result a pointer to one struct), or NULL. */
static di_type *heap_struct(extractor *x, unsigned site)
{
	const ir_site *s = &x->prog->sites[site];
	if (s->result == IR_NONE)
		return NULL;
	if (!x->have_ix) {
		ir_index_build(x->prog, &x->ix);
		x->have_ix = true;
	}
	di_type *found = NULL;
	for (unsigned i = x->ix.value_binding[s->result]; i; i = x->ix.next_binding[i - 1]) {
		const ir_dbg_binding *b = &x->prog->bindings[i - 1];
		di_type *t = b->var ? di_strip(b->var->type) : NULL;
		di_type *st = t && t->kind == DI_POINTER ? di_strip(t->base) : NULL;
		if (!st || st->kind != DI_STRUCT || st->forward_decl)
			return NULL;
		/* One struct: the same record, or one of the same name and size
		 * (each unit has its own); an anonymous one only as itself. */
		if (found && found != st &&
		    (!found->name || !st->name || found->size_bits != st->size_bits || strcmp(found->name, st->name) != 0))
			return NULL;
		found = st;
	}
	return found;
}

/* Object obj: the member arrays of debug-info struct st (computed once per struct). */
static void struct_arrays(extractor *x, unsigned obj, di_type *st)
{
	uint64_t v;
	if (!intmap_get(&x->di_arrays, st->id, &v)) {
		range_tmps out = {0};
		di_collect(x, st, 0, &out, 0);
		unsigned n = 0, first = out.len ? push_ranges(x, &out, &n) : PTA_NONE;
		VEC_FREE(&out);
		v = (uint64_t)n << 32 | (first == PTA_NONE ? 0 : first + 1);
		intmap_put(&x->di_arrays, st->id, v);
	}
	if ((uint32_t)v)
		pta_object_arrays(x->s, obj, (uint32_t)v - 1, (unsigned)(v >> 32));
}

/* Heap object obj, made for call site `site`: the member arrays of the struct its result is assigned to. */
static void heap_arrays(extractor *x, unsigned obj, unsigned site)
{
	di_type *st = heap_struct(x, site);
	if (st)
		struct_arrays(x, obj, st);
}

/* Global g's member arrays. Its IR value type gives them, except when C's
 * initializer gave it an unnamed literal struct (`{ ptr, [3 x ptr], i32,
 * [4 x i8] }` for a padded struct), which lower.c reads as none because a
 * union's initializer looks the same; the global's debug-info type tells the
 * two apart: a whole struct of the global's size has its own layout. */
static void global_arrays(extractor *x, unsigned obj, const ir_global *g)
{
	if (g->arrays) {
		object_arrays(x, obj, g->arrays);
		return;
	}
	di_type *t = g->var && !g->var_fragment ? di_strip(g->var->type) : NULL;
	if (t && t->kind == DI_STRUCT && !t->forward_decl && t->size_bits == g->size * 8)
		struct_arrays(x, obj, t);
}

static unsigned object_with(extractor *x, uint64_t size, pta_obj_kind kind, unsigned index, unsigned context,
                            unsigned flags)
{
	unsigned obj = pta_object(x->s, size,
	                          flags | (kind == OBJ_FUNCTION ? PTA_OBJ_CODE
	                                   : kind == OBJ_HEAP ? PTA_OBJ_ELEMENTS_BY_STRIDE : 0));
	pta_obj_info info = {kind, index, context};
	while (x->objects.len <= obj) {
		pta_obj_info none = {OBJ_LIBRARY, IR_NONE, IR_NONE};
		VEC_PUSH(&x->objects, none);
	}
	x->objects.items[obj] = info;
	return obj;
}

static unsigned new_object(extractor *x, uint64_t size, pta_obj_kind kind, unsigned index, unsigned context)
{
	return object_with(x, size, kind, index, context, 0);
}

static unsigned ret_node(extractor *x, const ir_function *f)
{
	if (x->ret_node[f->id] == PTA_NONE)
		x->ret_node[f->id] = pta_node(x->s);
	return x->ret_node[f->id];
}

/* A fresh node pointing to (obj, 0). */
static unsigned address_node(extractor *x, unsigned obj)
{
	unsigned n = pta_node(x->s);
	pta_addr(x->s, n, pta_field(x->s, obj, 0));
	return n;
}

/* A node pointing somewhere in what `node` points to (the objects collapse). */
static unsigned anywhere_in(extractor *x, unsigned node)
{
	unsigned n = pta_node(x->s);
	pta_gep_var(x->s, n, node);
	return n;
}

/* ---- variadic arguments --------------------------------------------------------------- */

static unsigned arg_node(extractor *x, const ir_site *s, int i);
static void copy_memory(extractor *x, unsigned dst, unsigned src, int64_t len, unsigned site);

/* A node pointing to the one collapsed object holding every argument that
 * calls pass to f through its `...`. */
static unsigned varargs_of(extractor *x, const ir_function *f)
{
	if (x->varargs_addr[f->id] == PTA_NONE)
		x->varargs_addr[f->id] = address_node(x, new_object(x, 0, OBJ_VARARGS, f->id, IR_NONE));
	return x->varargs_addr[f->id];
}

/* A value that can only be a function's address: a function, or a copy,
 * cast, select or phi of such values (`argc > 1 ? file_write : null_write`). */
static bool function_valued(extractor *x, unsigned v, int depth)
{
	const ir_program *p = x->prog;
	if (v >= p->n_values || depth > 8)
		return false;
	if (x->ix.function_of_value[v])
		return true;
	unsigned n = ir_index_n_defs(p, &x->ix, v);
	for (unsigned i = 0; i < n; i++) {
		const ir_stmt *d = ir_index_def(p, &x->ix, v, i);
		if (d->op != ST_COPY || !function_valued(x, d->src, depth + 1))
			return false;
	}
	return n > 0;
}

/* The function addresses among the arguments of s past f's fixed
 * parameters go to f's varargs object. Only those: every variadic argument
 * of a printf-like or option-setting function would meet in one object,
 * and each va_arg would read all of them (sqlite3_config's method tables
 * and sqlite3_mprintf's strings made R± 8x wider on sqlite). A function
 * pointer read from memory and passed through `...` is not followed. */
static void bind_varargs(extractor *x, const ir_site *s, const ir_function *f)
{
	for (unsigned i = f->n_args; i < s->n_args; i++) {
		if (s->args[i] == IR_NONE)
			continue;
		if (!x->have_ix) {
			ir_index_build(x->prog, &x->ix);
			x->have_ix = true;
		}
		unsigned actual = node_of(x, s->args[i]);
		if (actual != PTA_NONE && function_valued(x, s->args[i], 0))
			pta_store(x->s, varargs_of(x, f), actual, 0);
	}
}

/* va_start(ap) in a variadic function: the va_list points to the function's
 * varargs object. How a target lays out a va_list (x86-64 keeps two
 * pointers into the argument areas at bytes 8 and 16, AArch64 three) does
 * not matter: the list collapses, so every pointer read from it points
 * there, and the inline code clang emits for va_arg (offsets into the save
 * areas, loads) reads the collapsed object. va_copy copies the list; a
 * va_list handed to another function (vsetopt(h, o, ap)) is an ordinary
 * pointer argument. True when the intrinsic was one of these. */
static bool apply_va_intrinsic(extractor *x, const ir_site *s, const ir_function *callee)
{
	if (!callee->intrinsic || strncmp(callee->name, "llvm.va_", 8) != 0)
		return false;
	const char *what = callee->name + 8;
	if (strncmp(what, "start", 5) == 0) {
		unsigned ap = arg_node(x, s, 0);
		if (ap != PTA_NONE && s->caller->vararg)
			pta_store(x->s, anywhere_in(x, ap), varargs_of(x, s->caller), 0);
		return true;
	}
	if (strncmp(what, "copy", 4) == 0) {
		copy_memory(x, arg_node(x, s, 0), arg_node(x, s, 1), IR_NOT_CONST, s->id);
		return true;
	}
	return false;   /* va_end */
}

/* ---- library calls ------------------------------------------------------------------- */

static unsigned arg_node(extractor *x, const ir_site *s, int i)
{
	if (i == LIB_RET)
		return node_of(x, s->result);
	if (i < 0 || (unsigned)i >= s->n_args)
		return PTA_NONE;
	return node_of(x, s->args[i]);
}

/* memcpy(dst, src, len): field by field when len is a known small constant.
 * Otherwise every field of the source's objects from the source pointer on
 * (pta_load_all) reaches every field of the destination's from the
 * destination pointer on (pta_store_all); neither collapses. Such a copy at
 * a site is recorded (pta_copy_site), for the report of what makes sets
 * wide. */
static void copy_memory(extractor *x, unsigned dst, unsigned src, int64_t len, unsigned site)
{
	if (dst == PTA_NONE || src == PTA_NONE)
		return;
	if (len == IR_NOT_CONST || len < 0 || len > COPY_FIELDS_MAX) {
		for (unsigned i = 0; site != IR_NONE && i < x->n_skip_copies; i++)
			if (x->skip_copies[i] == site)
				return;   /* measuring only (pta_options.skip_copies) */
		if (site != IR_NONE)
			VEC_PUSH(&x->copies, ((pta_copy_site){site, dst, src}));
		/* Both keep their fields: the source is read whole from the
		 * pointer on, and what lands where in the destination is not
		 * known, so each of its fields from the pointer on may get any. */
		unsigned tmp = pta_node(x->s);
		pta_load_all(x->s, tmp, src);
		pta_store_all(x->s, dst, tmp);
		return;
	}
	unsigned step = x->prog->pointer_size;
	for (int64_t k = 0; k + step <= len; k += step) {
		unsigned tmp = pta_node(x->s);
		pta_load(x->s, tmp, src, k);
		pta_store(x->s, dst, tmp, k);
	}
}

static int64_t copy_length(const ir_site *s)
{
	/* memcpy-like functions take the length as their third argument. */
	return s->n_args >= 3 ? s->arg_consts[2] : IR_NOT_CONST;
}

/* ---- symbol lookups (dlopen, dlsym) ---------------------------------------------------- */

static unsigned library_object(extractor *x, const ir_function *callee)
{
	if (x->static_obj[callee->id] == PTA_NONE)
		x->static_obj[callee->id] = new_object(x, 0, OBJ_LIBRARY, callee->id, IR_NONE);
	return x->static_obj[callee->id];
}

/* dlopen(NULL, ...) is the program's own handle; dlopen(FILE, ...) a
 * library's (one object for all of them: which FILE is not known). A null
 * constant argument is untracked (IR_NONE) while a pointer variable never
 * is, so an untracked argument present at the call is the null constant. */
static void open_handle(extractor *x, const ir_site *s, const ir_function *callee, const lib_effect *ef)
{
	unsigned handle = arg_node(x, s, LIB_RET);
	if (handle == PTA_NONE)
		return;
	bool self = ef->a >= 0 && (unsigned)ef->a < s->n_args && s->args[ef->a] == IR_NONE;
	if (self && x->self_handle == PTA_NONE)
		x->self_handle = new_object(x, 0, OBJ_LIBRARY, callee->id, IR_NONE);   /* "lib:dlopen" too */
	pta_addr(x->s, handle, pta_field(x->s, self ? x->self_handle : library_object(x, callee), 0));
}

/* What a lookup in the program itself may find with a name not known here:
 * every defined, externally visible function and global (dlsym sees only
 * the dynamic symbol table, which holds no static one). */
static unsigned exports_node(extractor *x)
{
	if (x->exports != PTA_NONE)
		return x->exports;
	const ir_program *p = x->prog;
	x->exports = pta_node(x->s);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (f->defined && !f->intrinsic && !ir_linkage_is_local(f->linkage))
			pta_copy(x->s, x->exports, node_of(x, f->value));
	}
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		if (g->defined && !ir_linkage_is_local(g->linkage))
			pta_copy(x->s, x->exports, node_of(x, g->value));
	}
	return x->exports;
}

/* The module's symbol of that name a lookup can find, as a node pointing to
 * it; PTA_NONE when the module defines none. */
static unsigned named_symbol(extractor *x, const char *name)
{
	const ir_function *f = ir_find_function(x->prog, name);
	if (f && f->defined && !ir_linkage_is_local(f->linkage))
		return node_of(x, f->value);
	const ir_global *g = ir_find_global(x->prog, name);
	if (g && g->defined && !ir_linkage_is_local(g->linkage))
		return node_of(x, g->value);
	return PTA_NONE;
}

/* dlsym(handle, name): see andersen.h, "symbols". A name computed at run
 * time with a handle that may be the program's own (a null constant:
 * RTLD_DEFAULT; or one dlopen(NULL) returned, seen when it arrives through
 * a watch) may find any export. RTLD_NEXT, (void *)-1, searches the
 * libraries after this one, never the program: a constant expression that
 * points nowhere, so its watch sees no handle and it gets run-time code only. */
static void lookup_symbol(extractor *x, const ir_site *s, const ir_function *callee, const lib_effect *ef)
{
	unsigned result = arg_node(x, s, LIB_RET);
	if (result == PTA_NONE)
		return;
	VEC_PUSH(&x->symbol_sites, s->id);
	if (x->runtime_code == PTA_NONE)   /* one for all lookups, named after the first: "lib:dlsym" */
		x->runtime_code = new_object(x, 0, OBJ_LIBRARY, callee->id, IR_NONE);
	pta_addr(x->s, result, pta_field(x->s, x->runtime_code, 0));
	const char *name = s->arg_strings && ef->b >= 0 && (unsigned)ef->b < s->n_args ? s->arg_strings[ef->b] : NULL;
	if (name) {
		x->n_symbol_named++;
		unsigned found = named_symbol(x, name);
		if (found != PTA_NONE) {
			x->n_symbol_found++;
			pta_copy(x->s, result, found);
		}
		return;
	}
	if (ef->a < 0 || (unsigned)ef->a >= s->n_args)
		return;
	if (s->args[ef->a] == IR_NONE) {   /* the null constant: RTLD_DEFAULT */
		x->n_symbol_any++;
		pta_copy(x->s, result, exports_node(x));
		return;
	}
	watch w = { .site = s->id, .lookup = ef };
	VEC_PUSH(&x->watches, w);
	pta_watch(x->s, node_of(x, s->args[ef->a]), (unsigned)x->watches.len - 1);   /* handles: few locations */
}

/* A location reached a lookup's handle argument: when it is the program's
 * own handle, the lookup may find any export, and the watch is done. */
static void lookup_in_self(extractor *x, unsigned tag, unsigned obj)
{
	watch *w = &x->watches.items[tag];
	if (obj != x->self_handle || x->self_handle == PTA_NONE || !sbm_set(&w->bound, 0))
		return;
	const ir_site *s = &x->prog->sites[w->site];
	x->n_symbol_any++;
	pta_unwatch(x->s, node_of(x, s->args[w->lookup->a]), tag);
	pta_copy(x->s, node_of(x, s->result), exports_node(x));
}

static void hand_over_lookups(extractor *x, pta_result *r)
{
	r->symbol_sites = x->symbol_sites.items;
	r->n_symbol_sites = (unsigned)x->symbol_sites.len;
	r->n_symbol_named = x->n_symbol_named;
	r->n_symbol_found = x->n_symbol_found;
	r->n_symbol_any = x->n_symbol_any;
	r->runtime_code = x->runtime_code;
}

static void apply_library(extractor *x, const ir_site *s, const ir_function *callee, const lib_model *m)
{
	for (unsigned e = 0; e < m->n_effects; e++) {
		const lib_effect *ef = &m->effects[e];
		switch (ef->kind) {
		case LIB_ALLOC: {
			unsigned target = arg_node(x, s, ef->a);
			if (target == PTA_NONE)
				break;
			unsigned obj = new_object(x, HEAP_SIZE, OBJ_HEAP, s->id, IR_NONE);
			if (ef->a == LIB_RET) {
				heap_arrays(x, obj, s->id);
				pta_addr(x->s, target, pta_field(x->s, obj, 0));
			}
			else
				pta_store(x->s, target, address_node(x, obj), 0);
			break;
		}
		case LIB_STATIC: {
			unsigned target = arg_node(x, s, LIB_RET);
			if (target == PTA_NONE)
				break;
			pta_addr(x->s, target, pta_field(x->s, library_object(x, callee), 0));
			break;
		}
		case LIB_ALIAS: {
			unsigned dst = arg_node(x, s, LIB_RET), src = arg_node(x, s, ef->b);
			if (dst == PTA_NONE || src == PTA_NONE)
				break;
			if (ef->anywhere)
				pta_gep_var(x->s, dst, src);
			else
				pta_copy(x->s, dst, src);
			break;
		}
		case LIB_COPY_MEM:
			copy_memory(x, arg_node(x, s, ef->a), arg_node(x, s, ef->b),
			            ef->a == LIB_RET ? IR_NOT_CONST : copy_length(s), s->id);
			break;
		case LIB_STORE: {
			unsigned dst = arg_node(x, s, ef->a), src = arg_node(x, s, ef->b);
			if (dst != PTA_NONE && src != PTA_NONE)
				pta_store(x->s, dst, ef->anywhere ? anywhere_in(x, src) : src, 0);
			break;
		}
		case LIB_KEEP:
		case LIB_KEEP_FIELD: {
			/* What the library keeps lives in its own object's one location. */
			unsigned kept = pta_field(x->s, library_object(x, callee), 0);
			unsigned in = arg_node(x, s, ef->b), out = arg_node(x, s, ef->a);
			if (ef->kind == LIB_KEEP) {
				if (in != PTA_NONE)
					pta_copy(x->s, kept, in);
				if (out != PTA_NONE)
					pta_copy(x->s, out, kept);
			} else {
				if (in != PTA_NONE)
					pta_load(x->s, kept, in, 0);
				if (out != PTA_NONE)
					pta_store(x->s, out, kept, 0);
			}
			break;
		}
		case LIB_OPEN:
			open_handle(x, s, callee, ef);
			break;
		case LIB_SYMBOL:
			lookup_symbol(x, s, callee, ef);
			break;
		case LIB_CALLBACK: {
			unsigned fp = arg_node(x, s, ef->a);
			if (fp == PTA_NONE)
				break;
			watch w = { .site = s->id, .callback = ef };
			VEC_PUSH(&x->watches, w);
			pta_watch_targets(x->s, fp, (unsigned)x->watches.len - 1);
			break;
		}
		}
	}
}

/* ---- calls ---------------------------------------------------------------------------- */

static void bind_call(extractor *x, const ir_site *s, const ir_function *f);

/* The call names f itself but with another function type: a call through a
 * mismatched prototype (`int f()` defined, `f(...)` or `(int (*)(void))f`
 * called). LLVM counts it as indirect (getCalledFunction is null), yet the
 * target is certain, so the type filter, which exists for pointers, does not
 * apply. */
static bool calls_itself(const ir_site *s, const ir_function *f)
{
	return s->callee_value != IR_NONE && s->callee_value == f->value;
}

/* A call through an unprototyped pointer (`int (*hash)()` before C23):
 * clang types the call by its promoted arguments plus varargs, `i32 (i64,
 * ...)`, which no defined function's type equals (oniguruma's st.c calls
 * str_end_hash, `i32 (ptr)`, this way). A genuinely variadic call has the
 * same shape, so the call must pass no variadic argument, and the function
 * must take exactly the arguments passed, not be varargs itself, and return
 * the same IR type. Where the debug info states the pointer's declared type
 * (ir_site.callee_decl) and it is a prototype with named parameters and
 * `...` (`void (*)(void *, const char *, ...)`, libxml2's
 * `(*__xmlGenericError())(ctx, msg)`), the call is variadic: no exception.
 * The debug info spells an unprototyped type {ret, null}, a variadic one
 * {ret, named..., null}. */
static bool declared_variadic(const di_type *t)
{
	return t && t->n_params >= 3 && t->params[t->n_params - 1] == NULL;
}

static bool fits_unprototyped_call(const ir_site *s, const ir_function *f)
{
	const ir_fn_type *call = s->call_fn_type, *fn = f->fn_type;
	if (!call || !fn || fn->vararg || !call->vararg || declared_variadic(s->callee_decl))
		return false;
	return call->n_params == s->n_args && fn->n_params == s->n_args && call->ret == fn->ret;
}

/* The type filter (FLTA, §3.2) with the two exceptions above. A call an
 * asm's text makes has the asm's IR type, not a prototype: nothing to filter by. */
bool pta_type_fits(const ir_site *s, const ir_function *f)
{
	return s->asm_call || f->ir_type == s->call_type || calls_itself(s, f) || fits_unprototyped_call(s, f);
}

/* ---- allocation wrappers, cloned per call site ---------------------------------------- */

/* Clones per program before wrappers bind as ordinary functions; two levels
 * of wrapping through pointers (p_malloc -> pool->v->malloc -> malloc) need
 * two per call site, and a program rarely has more wrapper calls than sites. */
#define CLONES_PER_SITE 4

/* The one fresh object of wrapper call site ctx (of wrapper w). */
static unsigned clone_object(extractor *x, unsigned ctx, unsigned w)
{
	uint64_t v;
	if (intmap_get(&x->clone_obj, ctx, &v))
		return (unsigned)v;
	unsigned obj = new_object(x, HEAP_SIZE, OBJ_HEAP, ctx, w);
	heap_arrays(x, obj, ctx);
	intmap_put(&x->clone_obj, ctx, obj);
	x->r->n_clones++;
	return obj;
}

static void answer_sources(extractor *x, const ir_function *f, const unsigned *calls, unsigned depth,
                           unsigned result, unsigned w);

/* Argument b of inner site s, seen from the outermost call: a parameter of
 * the function s is in is the argument its caller passed at that level, up
 * to ctx (so mem_grow(L, g, ...)'s reallocation copies g, not every block
 * the allocator callback was ever given). PTA_NONE for a null argument. */
static unsigned context_arg(extractor *x, const ir_site *s, int b, const unsigned *calls, unsigned depth)
{
	if (b < 0 || (unsigned)b >= s->n_args)
		return PTA_NONE;
	unsigned v = s->args[b];
	const ir_function *g = s->caller;
	for (int level = (int)depth; level >= 0 && v != IR_NONE; level--) {
		int j = pta_param_of(x->prog, g, v);
		if (j < 0)
			break;
		const ir_site *call = &x->prog->sites[calls[level]];
		v = (unsigned)j < call->n_args ? call->args[j] : IR_NONE;
		g = call->caller;
	}
	return node_of(x, v);
}

/* Library function g, called at inner site s on behalf of wrapper call
 * calls[0]: an allocator gives that call's fresh object, with what a
 * reallocation moves into it; any other effect is what s itself gets. */
static bool answer_library(extractor *x, const ir_site *s, const ir_function *g, const unsigned *calls,
                           unsigned depth, unsigned result, unsigned w)
{
	const lib_model *m = g->defined ? NULL : lib_model_find(g->name);
	bool alloc = false;
	for (unsigned e = 0; m && e < m->n_effects; e++)
		alloc |= m->effects[e].kind == LIB_ALLOC && m->effects[e].a == LIB_RET;
	if (!alloc)
		return false;
	pta_addr(x->s, result, pta_field(x->s, clone_object(x, calls[0], w), 0));
	for (unsigned e = 0; e < m->n_effects; e++)
		if (m->effects[e].kind == LIB_COPY_MEM && m->effects[e].a == LIB_RET) {
			unsigned from = context_arg(x, s, m->effects[e].b, calls, depth);
			if (from != PTA_NONE)
				copy_memory(x, result, from, IR_NOT_CONST, s->id);
		}
	return true;
}

/* Target f of the indirect source site s of a wrapper, for clone c. */
static void answer_target(extractor *x, const ir_site *s, clone *c, const ir_function *f)
{
	if (!x->bind_all && !pta_type_fits(s, f))
		return;
	if (answer_library(x, s, f, c->calls, c->depth, c->result, c->wrapper))
		return;
	if (f->defined && x->wrappers->is_wrapper[f->id] && c->depth < CLONE_DEPTH) {
		unsigned calls[CLONE_DEPTH + 1];
		memcpy(calls, c->calls, sizeof calls);
		calls[c->depth + 1] = s->id;
		answer_sources(x, f, calls, c->depth + 1, c->result, c->wrapper);
		return;
	}
	if (f->defined && !x->wrappers->is_wrapper[f->id]) {
		/* Not an allocator: what f returns, f's part of the call's result
		 * only, so that one such target leaves the others' clones apart. */
		if (f->returns_tracked)
			pta_copy(x->s, c->result, ret_node(x, f));
		return;
	}
	if (!c->whole) {   /* a library function or a wrapper too deep: what the call returns, uncloned */
		c->whole = true;
		unsigned own = node_of(x, s->result);
		if (own != PTA_NONE)
			pta_copy(x->s, c->result, own);
	}
}

/* What wrapper f returns when called at calls[depth] (calls[0] the outermost
 * call), into result: per source, an allocator's fresh object (one per
 * outermost call), a wrapper's sources in turn, an indirect call's targets as
 * they appear. Past the clone budget or depth, a source gives what it gives
 * f itself (sound, uncloned). */
static void answer_sources(extractor *x, const ir_function *f, const unsigned *calls, unsigned depth,
                           unsigned result, unsigned w)
{
	const pta_wrappers *wr = x->wrappers;
	unsigned ctx = calls[0];
	if (wr->carves[f->id])   /* a sub-allocator: what it carves is the call's own */
		pta_addr(x->s, result, pta_field(x->s, clone_object(x, ctx, w), 0));
	for (unsigned k = 0; k < wr->n_sources[f->id]; k++) {
		const ir_site *s = &x->prog->sites[wr->sources[f->id][k]];
		if (s->kind == SITE_DIRECT) {
			if (answer_library(x, s, s->callee, calls, depth, result, w))
				continue;
			if (s->callee->defined && wr->is_wrapper[s->callee->id] && depth < CLONE_DEPTH) {
				unsigned inner[CLONE_DEPTH + 1];
				memcpy(inner, calls, (depth + 1) * sizeof *inner);
				inner[depth + 1] = s->id;
				answer_sources(x, s->callee, inner, depth + 1, result, w);
				continue;
			}
		} else if (x->clone_budget) {
			uint64_t key = (uint64_t)s->id << 32 | ctx;
			if (intmap_get(&x->cloned, key, NULL))
				continue;
			intmap_put(&x->cloned, key, 1);
			x->clone_budget--;
			clone c = {ctx, result, w, depth, {0}, false};
			memcpy(c.calls, calls, (depth + 1) * sizeof *c.calls);
			VEC_PUSH(&x->clones[s->id], c);
			size_t i = x->clones[s->id].len - 1;
			/* The targets found so far; later ones come through on_new_location.
			 * Answering may clone further: index, not pointer. */
			for (size_t t = 0; t < x->targets[s->id].len; t++)
				answer_target(x, s, &x->clones[s->id].items[i], x->prog->functions[x->targets[s->id].items[t]]);
			continue;
		} else {
			x->r->n_clones_refused++;
		}
		unsigned own = node_of(x, s->result);   /* uncloned */
		if (own != PTA_NONE)
			pta_copy(x->s, result, own);
	}
}

/* ---- paired calls ---------------------------------------------------------------------- */

/* A call whose callee and some arguments are read from one base
 * (receivers.h: `pool->v->free(pool, mem)`, `io->callback(io->context)`):
 * for each location b the base may point to, the callee's chain and each
 * paired argument's chain from b alone are nodes of their own, and a
 * target f in b's callee chain takes, at a paired parameter, what that
 * argument's chain from b gives. Binding each method of a pool to every
 * kind of pool made the methods' container_of leave the smaller pools,
 * which then collapsed. Past PAIR_LOCS_MAX base locations at a site, or
 * once one is of a collapsed object, the arguments are bound whole, as at
 * any call. */
#define PAIR_LOCS_MAX 32

static void watch_paired(extractor *x, const ir_site *s, unsigned callee_watch)
{
	if (!x->have_ix) {
		ir_index_build(x->prog, &x->ix);
		x->have_ix = true;
	}
	paired pr = {.callee_watch = callee_watch};
	if (!pta_paired_call(x->prog, &x->ix, s, &pr.call) || node_of(x, pr.call.base) == PTA_NONE)
		return;
	if (!x->pair_of) {
		size_t n = x->prog->n_sites ? x->prog->n_sites : 1;
		x->pair_of = xmalloc(n * sizeof *x->pair_of);
		memset(x->pair_of, 0xff, n * sizeof *x->pair_of);
	}
	x->pair_of[s->id] = (unsigned)x->pairs.len;
	VEC_PUSH(&x->pairs, pr);
	watch w = {.site = s->id, .pair = (unsigned)x->pairs.len, .loc = PTA_NONE};
	VEC_PUSH(&x->watches, w);
	pta_watch(x->s, node_of(x, pr.call.base), (unsigned)x->watches.len - 1);
}

/* Whether argument i of s is bound per base location (not whole). */
static bool paired_arg(const extractor *x, const ir_site *s, unsigned i)
{
	if (!x->pair_of || x->pair_of[s->id] == PTA_NONE)
		return false;
	const paired *pr = &x->pairs.items[x->pair_of[s->id]];
	for (unsigned k = 0; !pr->whole && k < pr->call.n_args; k++)
		if (pr->call.arg[k] == i)
			return true;
	return false;
}

static bool binds_param(const extractor *x, const ir_site *s, const ir_function *f, unsigned arg)
{
	return f->defined && arg < f->n_args && arg < s->n_args && (x->bind_all || pta_type_fits(s, f));
}

/* Too many base locations: every target bound so far takes the arguments whole. */
static void paired_whole(extractor *x, unsigned id)
{
	paired *pr = &x->pairs.items[id];
	pr->whole = true;
	const watch *cw = &x->watches.items[pr->callee_watch];
	const ir_site *s = &x->prog->sites[cw->site];
	unsigned fid;
	SBM_FOREACH(&cw->bound, fid) {
		const ir_function *f = x->prog->functions[fid];
		for (unsigned k = 0; k < pr->call.n_args; k++) {
			unsigned i = pr->call.arg[k];
			if (binds_param(x, s, f, i) && node_of(x, s->args[i]) != PTA_NONE)
				pta_copy(x->s, node_of(x, f->first_arg + i), node_of(x, s->args[i]));
		}
	}
}

/* What a chain gives from base location loc (of an uncollapsed object): a
 * node holding it (the first load's is loc's field itself: no copy of its
 * content), or with no load, the location base + tail itself. */
static unsigned chain_from(extractor *x, unsigned loc, const pta_chain *c)
{
	unsigned obj = pta_loc_object(x->s, loc);
	int64_t at = pta_loc_offset(x->s, loc);
	if (c->n == 0)
		return c->tail ? pta_field(x->s, obj, at + c->tail) : loc;
	unsigned t = pta_field(x->s, obj, at + c->off[0]);
	for (unsigned k = 1; k < c->n; k++) {
		unsigned next = pta_node(x->s);
		pta_load(x->s, next, t, c->off[k]);
		t = next;
	}
	if (c->tail) {
		unsigned next = pta_node(x->s);
		pta_gep(x->s, next, t, c->tail);
		t = next;
	}
	return t;
}

/* loc reached the base: its own callee chain, watched, and argument chains. */
static void paired_location(extractor *x, unsigned id, unsigned site, unsigned loc)
{
	paired *pr = &x->pairs.items[id];
	if (pr->whole)
		return;
	/* A collapsed object's one location holds whatever reaches it: its
	 * chain would give that wide set again. */
	unsigned obj = pta_loc_object(x->s, loc);
	if (++pr->n_locs > PAIR_LOCS_MAX || obj == PTA_NONE || pta_object_collapsed(x->s, obj)) {
		paired_whole(x, id);
		return;
	}
	paired_loc pl = {.pair = id};
	for (unsigned k = 0; k < pr->call.n_args; k++)
		pl.arg[k] = chain_from(x, loc, &pr->call.chain[k]);
	unsigned callee = chain_from(x, loc, &pr->call.callee);
	VEC_PUSH(&x->pair_locs, pl);
	watch w = {.site = site, .pair = id + 1, .loc = (unsigned)x->pair_locs.len - 1};
	VEC_PUSH(&x->watches, w);
	pta_watch_targets(x->s, callee, (unsigned)x->watches.len - 1);
}

/* f is in a base location's callee chain: f's paired parameters get what
 * that location's argument chains give. */
static void paired_target(extractor *x, const watch *w, const ir_function *f)
{
	const paired *pr = &x->pairs.items[w->pair - 1];
	const paired_loc *pl = &x->pair_locs.items[w->loc];
	const ir_site *s = &x->prog->sites[w->site];
	for (unsigned k = 0; !pr->whole && k < pr->call.n_args; k++) {
		if (!binds_param(x, s, f, pr->call.arg[k]))
			continue;
		unsigned param = node_of(x, f->first_arg + pr->call.arg[k]);
		if (pr->call.chain[k].n)
			pta_copy(x->s, param, pl->arg[k]);   /* what the chain loaded */
		else
			pta_addr(x->s, param, pl->arg[k]);   /* the base location itself (+ tail) */
	}
}

/* A defined function called at s: actuals to formals (a paired argument
 * comes per base location instead, paired_target), return to result. An
 * allocation wrapper's result is instead what answer_sources gives: a fresh
 * object per call site for what it allocates. */
static void bind_defined(extractor *x, const ir_site *s, const ir_function *f)
{
	unsigned n = s->n_args < f->n_args ? s->n_args : f->n_args;
	for (unsigned i = 0; i < n; i++) {
		unsigned actual = paired_arg(x, s, i) ? PTA_NONE : node_of(x, s->args[i]);
		if (actual != PTA_NONE)
			pta_copy(x->s, node_of(x, f->first_arg + i), actual);
	}
	if (f->vararg && x->varargs)
		bind_varargs(x, s, f);
	unsigned result = node_of(x, s->result);
	if (result == PTA_NONE)
		return;
	if (x->wrappers && x->wrappers->is_wrapper[f->id])
		answer_sources(x, f, &s->id, 0, result, f->id);
	else if (f->returns_tracked)
		pta_copy(x->s, result, ret_node(x, f));
}

static void bind_call(extractor *x, const ir_site *s, const ir_function *f)
{
	if (f->defined) {
		bind_defined(x, s, f);
		return;
	}
	if (apply_va_intrinsic(x, s, f))
		return;
	const lib_model *m = lib_model_find(f->name);
	if (m) {
		apply_library(x, s, f, m);
		return;
	}
	/* Unmodelled external: it may return memory it owns. Count it when its
	 * type can carry an address at all (sin, time-free math cannot). */
	if (f->fn_type->mentions_pointer && !strmap_has(&x->unmodelled, f->name))
		strmap_put(&x->unmodelled, f->name, (void *)f);
	static const lib_model external = {"(external)", 1, {{.kind = LIB_STATIC, .a = LIB_RET}}};
	apply_library(x, s, f, &external);
}

static void on_new_target(extractor *x, unsigned tag, const ir_function *f);
static unsigned tramp_slot(const extractor *x, unsigned v);

/* The solver saw location loc reach a watched node. A function is a
 * target; so is every function a relative entry of a section names when loc
 * is in a bound of the section (extract_section_bound). */
static void on_new_location(void *ctx, unsigned tag, unsigned loc)
{
	extractor *x = ctx;
	const watch *w = &x->watches.items[tag];
	if (w->pair && w->loc == PTA_NONE) {
		unsigned id = w->pair - 1;
		bool was_whole = x->pairs.items[id].whole;
		paired_location(x, id, w->site, loc);
		/* Bound whole now: the base's further locations are nothing to it. */
		if (!was_whole && x->pairs.items[id].whole)
			pta_unwatch(x->s, node_of(x, x->pairs.items[id].call.base), tag);
		return;
	}
	unsigned obj = pta_loc_object(x->s, loc);
	if (obj == PTA_NONE || obj >= x->objects.len)
		return;
	if (w->lookup) {
		lookup_in_self(x, tag, obj);
		return;
	}
	const pta_obj_info *o = &x->objects.items[obj];
	if (o->kind == OBJ_FUNCTION) {
		on_new_target(x, tag, x->prog->functions[o->index]);
		return;
	}
	const ir_section_bound *b = o->kind == OBJ_GLOBAL && x->prog->bound_of_global ? x->prog->bound_of_global[o->index]
	                                                                              : NULL;
	for (unsigned k = 0; b && k < b->n_entries; k++)
		if (b->entries[k]->relative && b->entries[k]->function)
			on_new_target(x, tag, b->entries[k]->function);
}

static void on_new_target(extractor *x, unsigned tag, const ir_function *f)
{
	if (!sbm_set(&x->watches.items[tag].bound, f->id))
		return;
	watch w = x->watches.items[tag];
	const ir_site *s = &x->prog->sites[w.site];
	if (w.pair) {
		paired_target(x, &w, f);
		return;
	}

	if (w.patch_arg) {   /* a patcher's call whose argument may point to f */
		unsigned slot = f->trampoline ? tramp_slot(x, f->value) : PTA_NONE;
		for (unsigned j = 0; slot != PTA_NONE && j < s->n_args; j++)
			if (j != w.patch_arg - 1 && s->args[j] != IR_NONE)
				pta_store(x->s, slot, node_of(x, s->args[j]), 0);
		return;
	}
	if (!w.callback) {
		VEC_PUSH(&x->targets[s->id], f->id);
		if (x->bind_all || pta_type_fits(s, f))
			bind_call(x, s, f);
		/* Answering may clone further: index, not pointer. */
		for (size_t i = 0; x->clones && i < x->clones[s->id].len; i++)
			answer_target(x, s, &x->clones[s->id].items[i], f);
		return;
	}
	/* A library calls f back (qsort's comparator): bind what it passes. */
	if (!f->defined)
		return;
	for (unsigned i = 0; i < LIB_MAX_CB_ARGS && i < f->n_args; i++) {
		int a = w.callback->cb_args[i];
		unsigned src = a == LIB_NOARG ? PTA_NONE : arg_node(x, s, a);
		if (src == PTA_NONE)
			continue;
		if (w.callback->cb_anywhere[i])
			src = anywhere_in(x, src);
		pta_copy(x->s, node_of(x, f->first_arg + i), src);
	}
}

/* ---- trampolines (sections.h) -------------------------------------------------------------- */

/* A trampoline is patched at run time (the kernel's static_call_update
 * rewrites its jump), so where a call to it goes is memory: a slot object
 * of its own (named like memory an external function owns, "lib:NAME";
 * code objects hold no pointers) holds its initial jump's function and
 * every function patched in. Patching is seen at its call: a call that
 * passes a trampoline's address (`__static_call_update(&key, &tramp,
 * func)`) may patch every pointer of its other arguments into it. Non-
 * function pointers there (the key) are no call targets. A function some
 * call passes a trampoline's address to is a patcher at that position: at
 * every call to it the argument there is watched, and a trampoline it may
 * point to (a tracepoint's `tp->static_call_tramp`) is patched the same way.
 * A patcher never called with a trampoline's address itself is not seen. */
static void extract_trampolines(extractor *x)
{
	const ir_program *p = x->prog;
	intmap_init(&x->tramp_slot);
	for (unsigned i = 0; p->module_asm.trampolines && i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (!f->trampoline)
			continue;
		unsigned slot = address_node(x, new_object(x, p->pointer_size, OBJ_LIBRARY, f->id, IR_NONE));
		intmap_put(&x->tramp_slot, f->value, slot);
		if (f->tramp_initial)
			pta_store(x->s, slot, node_of(x, f->tramp_initial->value), 0);
	}
	intmap_init(&x->patcher);
	for (unsigned i = 0; p->module_asm.trampolines && i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		for (unsigned k = 0; s->kind == SITE_DIRECT && s->callee && k < s->n_args && k < 32; k++)
			if (s->args[k] != IR_NONE && intmap_get(&x->tramp_slot, s->args[k], NULL))
				intmap_put(&x->patcher, s->callee->id,
				           intmap_get_or(&x->patcher, s->callee->id, 0) | (uint64_t)1 << k);
	}
}

/* The node pointing to the slot of the trampoline whose address value v is, or PTA_NONE. */
static unsigned tramp_slot(const extractor *x, unsigned v)
{
	uint64_t slot;
	return v != IR_NONE && x->prog->module_asm.trampolines && intmap_get(&x->tramp_slot, v, &slot) ? (unsigned)slot
	                                                                                            : PTA_NONE;
}

static void patch_trampolines(extractor *x, const ir_site *s)
{
	uint64_t mask = x->prog->module_asm.trampolines && s->kind == SITE_DIRECT && s->callee
	                    ? intmap_get_or(&x->patcher, s->callee->id, 0) : 0;
	for (unsigned k = 0; mask && k < s->n_args && k < 32; k++) {
		if (!(mask >> k & 1) || s->args[k] == IR_NONE || tramp_slot(x, s->args[k]) != PTA_NONE)
			continue;   /* a literal trampoline is patched below */
		watch w = { .site = s->id, .patch_arg = k + 1 };
		VEC_PUSH(&x->watches, w);
		pta_watch_targets(x->s, node_of(x, s->args[k]), (unsigned)x->watches.len - 1);
	}
	for (unsigned i = 0; x->prog->module_asm.trampolines && i < s->n_args; i++) {
		unsigned slot = tramp_slot(x, s->args[i]);
		for (unsigned j = 0; slot != PTA_NONE && j < s->n_args; j++)
			if (j != i && s->args[j] != IR_NONE)
				pta_store(x->s, slot, node_of(x, s->args[j]), 0);
	}
}

/* ---- statements --------------------------------------------------------------------------- */

/* The variable-index GEP defining value v, or NULL. */
/* The variable-index GEP G that value v is, plus *extra bytes; NULL if none. */
static const ir_stmt *var_gep(extractor *x, unsigned v, int64_t *extra)
{
	uint64_t k = intmap_get_or(&x->var_geps, v, 0);
	*extra = (int32_t)(uint32_t)(k >> 32);
	return k ? &x->prog->stmts[(uint32_t)k - 1] : NULL;
}

/* dst = the variable-index GEP g, then by bytes (pta_gep_stride_at): the
 * index applied where the address lands, else where g applies it. */
static void index_then(extractor *x, unsigned dst, const ir_stmt *g, int64_t by)
{
	unsigned at = node_of(x, g->src);
	if (g->pre) {
		at = pta_node(x->s);
		pta_gep(x->s, at, node_of(x, g->src), g->pre);
	}
	pta_gep_stride_at(x->s, dst, at, g->stride, g->offset - g->pre + by);
}

/* Fills var_geps: the variable-index GEPs, then the constant GEPs after
 * them (a few levels: blocks need not come in dominance order). */
static void find_var_geps(extractor *x)
{
	const ir_program *p = x->prog;
	for (int round = 0; round < 4; round++) {
		bool more = false;
		for (unsigned i = 0; i < p->n_functions; i++) {
			const ir_function *f = p->functions[i];
			for (unsigned k = 0; k < f->n_stmts; k++) {
				const ir_stmt *st = &p->stmts[f->first_stmt + k];
				if (st->op != ST_GEP || st->dst == IR_NONE || st->src == IR_NONE ||
				    intmap_get_or(&x->var_geps, st->dst, 0))
					continue;
				if (st->var_offset && st->choices)
					continue;   /* constant GEPs, one per choice */
				if (st->var_offset) {
					if (round == 0)
						intmap_put(&x->var_geps, st->dst, f->first_stmt + k + 1);
					continue;
				}
				uint64_t g = intmap_get_or(&x->var_geps, st->src, 0);
				int64_t e = (int32_t)(uint32_t)(g >> 32) + st->offset;
				if (g && e >= INT32_MIN && e <= INT32_MAX) {
					intmap_put(&x->var_geps, st->dst, (uint64_t)(uint32_t)(int32_t)e << 32 | (uint32_t)g);
					more = true;
				}
			}
		}
		if (!more && round > 0)
			break;
	}
}

/* ---- addresses nothing reads through ------------------------------------------------ */

/* How call s uses its argument i: 0 not at all (a library function whose
 * model names no effect on it: memset, strlen, free, printf), 1 only as the
 * call's result (an ALIAS effect: memset returns its first argument), 2 in a
 * way the analysis follows (a defined or unmodelled callee, an indirect
 * call, a model that copies, stores, keeps or calls back through it). */
static int arg_use(const extractor *x, const ir_site *s, unsigned i)
{
	const ir_function *g = s->kind == SITE_DIRECT ? s->callee : NULL;
	if (!g || g->defined || x->prog->module_asm.trampolines || (g->intrinsic && !strncmp(g->name, "llvm.va_", 8)))
		return 2;
	const lib_model *m = lib_model_find(g->name);
	if (!m)
		return 2;
	int use = 0;
	for (unsigned e = 0; e < m->n_effects; e++) {
		const lib_effect *ef = &m->effects[e];
		bool named = ef->a == (int)i || ef->b == (int)i;
		for (unsigned k = 0; ef->kind == LIB_CALLBACK && k < LIB_MAX_CB_ARGS; k++)
			named |= ef->cb_args[k] == (int)i;
		if (named)
			use = ef->kind == LIB_ALIAS && ef->b == (int)i && use < 2 ? 1 : 2;
	}
	return use;
}

typedef VEC(unsigned) value_list;

static void mark_read(extractor *x, value_list *work, unsigned v)
{
	if (v != IR_NONE && !x->read[v]) {
		x->read[v] = 1;
		VEC_PUSH(work, v);
	}
}

/* Which values are addresses something may read or write through: loaded
 * from, stored to or stored, returned, passed where the analysis follows
 * them (arg_use), or copied or offset into such a value. The rest are
 * compared, hashed, freed, zeroed (`memset((char *)p + used, 0, n - used)`)
 * and nothing else: no constraint reads them, so a gep that makes one needs
 * none, and its variable offset collapses nothing. */
static void find_read(extractor *x)
{
	const ir_program *p = x->prog;
	if (!x->have_ix) {
		ir_index_build(p, &x->ix);
		x->have_ix = true;
	}
	x->read = xcalloc(p->n_values ? p->n_values : 1, 1);
	value_list work = {0};
	value_list alias = {0};   /* pairs: a call's result, then an argument it returns */
	for (unsigned k = 0; k < p->n_stmts; k++) {
		const ir_stmt *st = &p->stmts[k];
		if (st->op == ST_LOAD || st->op == ST_RET)
			mark_read(x, &work, st->src);
		else if (st->op == ST_STORE) {
			mark_read(x, &work, st->dst);
			mark_read(x, &work, st->src);
		} else if (st->op == ST_CALL) {
			const ir_site *s = &p->sites[st->site];
			mark_read(x, &work, s->callee_value);
			for (unsigned i = 0; i < s->n_args; i++) {
				int use = arg_use(x, s, i);
				if (use == 2)
					mark_read(x, &work, s->args[i]);
				else if (use == 1 && s->result != IR_NONE && s->args[i] != IR_NONE) {
					VEC_PUSH(&alias, s->result);
					VEC_PUSH(&alias, s->args[i]);
				}
			}
		}
	}
	for (bool more = true; more;) {
		while (work.len) {
			unsigned v = work.items[--work.len];
			unsigned n = ir_index_n_defs(p, &x->ix, v);
			for (unsigned i = 0; i < n; i++) {
				const ir_stmt *d = ir_index_def(p, &x->ix, v, i);
				if (d->op == ST_COPY || d->op == ST_GEP)
					mark_read(x, &work, d->src);
			}
		}
		more = false;
		for (size_t i = 0; i + 1 < alias.len; i += 2)
			if (x->read[alias.items[i]] && !x->read[alias.items[i + 1]]) {
				mark_read(x, &work, alias.items[i + 1]);
				more = true;
			}
	}
	VEC_FREE(&work);
	VEC_FREE(&alias);
}

static void extract_stmt(extractor *x, const ir_function *f, const ir_stmt *st)
{
	/* An operand the lowering does not track (a load from or a store to
	 * `ptr null`, as kernel code does to force a fault) moves nothing the
	 * analysis can see. */
	bool moves = st->op == ST_COPY || st->op == ST_GEP || st->op == ST_LOAD || st->op == ST_STORE;
	if ((moves && st->dst == IR_NONE) || ((moves || st->op == ST_RET) && st->src == IR_NONE))
		return;
	switch (st->op) {
	case ST_ALLOCA: {
		/* A slot of constant size (a VLA's is 0: unknown) is bounded: an
		 * offset that leaves it is into some other object (solver.h). */
		unsigned obj = object_with(x, st->size, OBJ_STACK, st->dst, IR_NONE, st->size ? PTA_OBJ_BOUNDED : 0);
		pta_object_elements(x->s, obj, st->stride);
		object_arrays(x, obj, st->arrays);
		pta_addr(x->s, node_of(x, st->dst), pta_field(x->s, obj, 0));
		break;
	}
	case ST_COPY:
		pta_copy(x->s, node_of(x, st->dst), node_of(x, st->src));
		break;
	case ST_GEP: {
		if (!x->read[st->dst])
			break;   /* an address nothing reads through (find_read) */
		int64_t e = 0;
		const ir_stmt *g = st->var_offset ? NULL : var_gep(x, st->src, &e);
		if (st->var_fused && st->stride)
			break;   /* read through the constant GEPs that use it (below) */
		if (st->var_offset && st->choices) {
			/* One constant GEP per choice (c ? &p->a : &p->b), as a phi
			 * is one copy per arm: the object keeps its fields. */
			for (int64_t i = 1; i <= st->choices[0]; i++)
				pta_gep(x->s, node_of(x, st->dst), node_of(x, st->src), st->choices[i]);
		} else if (g && g->stride) {
			/* `gep T, s, i` then `+c`: the index applied at the member
			 * it reaches, s + (offset + c), as C wrote it (s->arr[i].f;
			 * an unrolled loop's &a[i] + 16 is &a[i + 2]). */
			index_then(x, node_of(x, st->dst), g, e + st->offset);
		} else if (st->var_offset && st->stride && st->pre) {
			/* &s->arr[i].f: the member array first, where the index stays
			 * (solver.h, member arrays), then whole elements, then the field. */
			unsigned at = pta_node(x->s), elems = pta_node(x->s);
			pta_gep(x->s, at, node_of(x, st->src), st->pre);
			pta_gep_stride(x->s, elems, at, st->stride);
			pta_gep(x->s, node_of(x, st->dst), elems, st->offset - st->pre);
		} else if (st->var_offset && st->stride && st->offset) {
			/* &a[i].f: whole elements, then the field (solver.h, arrays). */
			unsigned elems = pta_node(x->s);
			pta_gep_stride(x->s, elems, node_of(x, st->src), st->stride);
			pta_gep(x->s, node_of(x, st->dst), elems, st->offset);
		} else if (st->var_offset)
			pta_gep_stride(x->s, node_of(x, st->dst), node_of(x, st->src), st->stride);
		else
			pta_gep(x->s, node_of(x, st->dst), node_of(x, st->src), st->offset);
		break;
	}
	case ST_LOAD:
		pta_load(x->s, node_of(x, st->dst), node_of(x, st->src), st->offset);
		break;
	case ST_STORE:
		pta_store(x->s, node_of(x, st->dst), node_of(x, st->src), st->offset);
		break;
	case ST_RET:
		if (f)
			pta_copy(x->s, ret_node(x, f), node_of(x, st->src));
		break;
	case ST_CALL: {
		const ir_site *s = &x->prog->sites[st->site];
		patch_trampolines(x, s);
		if (s->kind == SITE_DIRECT && s->callee) {
			bind_call(x, s, s->callee);
		} else if (s->kind == SITE_INDIRECT && s->callee_value != IR_NONE) {
			watch w = { .site = s->id };
			VEC_PUSH(&x->watches, w);
			unsigned callee = node_of(x, s->callee_value), slot = s->trampoline ? tramp_slot(x, s->callee_value) : PTA_NONE;
			if (slot != PTA_NONE) {   /* it goes where its slot says (extract_trampolines) */
				callee = pta_node(x->s);
				pta_load(x->s, callee, slot, 0);
			}
			pta_watch_targets(x->s, callee, (unsigned)x->watches.len - 1);
			if (slot == PTA_NONE && !s->asm_call)
				watch_paired(x, s, (unsigned)x->watches.len - 1);
		}
		/* The callbacks LLVM records on a broker (pthread_create) are bound by
		 * the broker's library model. */
		break;
	}
	}
}

/* Members larger than this are read from their initializers only (a field
 * by field copy costs a node per pointer slot). */
#define SECTION_MEMBER_COPY_MAX 4096

/* A walk from a section bound (sections.h) reads every entry placed in the
 * sections it bounds: the bound's object is collapsed (declared, size
 * unknown), and holds what each member global holds (copied field by
 * field, so stores at run time count too) and each absolute asm entry's
 * address. A relative asm entry holds no address the analysis can follow
 * (the walk adds the entry's content to its own address): a call through a
 * pointer into the bound calls its targets, in on_new_location. */
static void extract_section_bound(extractor *x, const ir_section_bound *b, const unsigned *gobj,
                                  const unsigned *fobj)
{
	const ir_program *p = x->prog;
	unsigned bound = node_of(x, b->symbol->value), loc = pta_field(x->s, gobj[b->symbol->id], 0);
	for (unsigned k = 0; k < b->n_members; k++) {
		const ir_global *g = b->members[k];
		if (g->size <= SECTION_MEMBER_COPY_MAX) {
			copy_memory(x, bound, node_of(x, g->value), (int64_t)g->size, IR_NONE);
			continue;
		}
		x->r->n_section_members_static++;
		for (unsigned j = 0; j < g->n_slots; j++) {
			const ir_init_slot *sl = &g->slots[j];
			pta_addr(x->s, loc, sl->kind == SLOT_FUNCTION ? pta_field(x->s, fobj[sl->function->id], 0)
			                                              : pta_field(x->s, gobj[sl->global->id], sl->addend));
		}
	}
	for (unsigned k = 0; k < b->n_entries; k++) {
		const ir_asm_entry *e = b->entries[k];
		if (e->relative) {
			if (e->function)
				x->r->n_relative_entries++;
			continue;
		}
		pta_addr(x->s, loc, e->function ? pta_field(x->s, fobj[e->function->id], 0)
		                                : pta_field(x->s, gobj[e->global->id], 0));
	}
	(void)p;
}

static void extract_globals(extractor *x)
{
	const ir_program *p = x->prog;
	unsigned *gobj = xmalloc((p->n_globals ? p->n_globals : 1) * sizeof *gobj);
	unsigned *fobj = xmalloc((p->n_functions ? p->n_functions : 1) * sizeof *fobj);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		fobj[i] = new_object(x, 1, OBJ_FUNCTION, i, IR_NONE);
		pta_addr(x->s, node_of(x, f->value), pta_field(x->s, fobj[i], 0));
	}
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		/* A declared global of unknown size collapses: we cannot see its
		 * layout. A defined constant one (C's const) is read-only
		 * (solver.h); a declared one may be a section bound, which holds
		 * what copies of its members put there. A defined one in the
		 * default section is bounded (solver.h): an offset that leaves it
		 * is into another object; one placed in a named section may be
		 * walked into its neighbours as the linker lays them out. */
		bool bound = p->bound_of_global && p->bound_of_global[i];
		gobj[i] = object_with(x, g->defined ? g->size : 0, OBJ_GLOBAL, i, IR_NONE,
		                      (g->defined && g->constant ? PTA_OBJ_READONLY : 0) | (bound ? PTA_OBJ_NAMES_CODE : 0) |
		                          (g->defined && g->size && !g->section && !bound ? PTA_OBJ_BOUNDED : 0));
		pta_object_elements(x->s, gobj[i], g->elem);
		if (g->defined)
			global_arrays(x, gobj[i], g);
		pta_addr(x->s, node_of(x, g->value), pta_field(x->s, gobj[i], 0));
	}
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		for (unsigned k = 0; k < g->n_slots; k++) {
			const ir_init_slot *sl = &g->slots[k];
			unsigned slot = pta_field(x->s, gobj[i], (int64_t)sl->offset);
			unsigned target = sl->kind == SLOT_FUNCTION ? pta_field(x->s, fobj[sl->function->id], 0)
			                                            : pta_field(x->s, gobj[sl->global->id], sl->addend);
			pta_addr(x->s, slot, target);
		}
	}
	for (unsigned i = 0; i < p->n_bounds; i++)
		extract_section_bound(x, &p->bounds[i], gobj, fobj);
	free(gobj);
	free(fobj);
}

/* A program without main is a library: code outside calls its externally
 * visible functions with pointers we cannot see. Those pointers all point
 * into one collapsed "outside" object, whose content may be anything the
 * library stores there or returns, so a callback a library stores through one
 * entry and calls through another is found. */
static void model_outside_callers(extractor *x)
{
	const ir_program *p = x->prog;
	ir_function *main_fn = ir_find_function(p, "main");
	if (main_fn && main_fn->defined)
		return;
	unsigned outside = new_object(x, 0, OBJ_LIBRARY, IR_NONE, IR_NONE);
	unsigned loc = pta_field(x->s, outside, 0);
	pta_addr(x->s, loc, loc);   /* outside memory holds pointers to outside memory */
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (!f->defined || ir_linkage_is_local(f->linkage))
			continue;
		for (unsigned a = 0; a < f->n_args; a++)
			pta_addr(x->s, node_of(x, f->first_arg + a), loc);
		if (f->returns_tracked)
			pta_copy(x->s, loc, ret_node(x, f));
	}
}

/* ---- driver ----------------------------------------------------------------------------- */

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void pta_options_default(pta_options *o)
{
	o->cycle_detection = true;
	o->wrappers = true;
	o->bind_all = false;
	o->varargs = false;
	o->skip_copies = NULL;
	o->n_skip_copies = 0;
	o->keep_functions = NULL;
	o->keep_stmts = NULL;
	o->progress = NULL;
	o->progress_arg = NULL;
}

static double now(void) { return clock_seconds(); }

pta_result *pta_analyze(const ir_program *p, const pta_options *opt)
{
	pta_options defaults;
	if (!opt) {
		pta_options_default(&defaults);
		opt = &defaults;
	}
	double t0 = now();
	pta_result *r = xcalloc(1, sizeof *r);
	r->prog = p;
	r->value_node = xmalloc((p->n_values ? p->n_values : 1) * sizeof *r->value_node);
	for (unsigned i = 0; i < p->n_values; i++)
		r->value_node[i] = PTA_NONE;

	extractor x = {0};
	x.prog = p;
	x.r = r;
	x.bind_all = opt->bind_all;
	x.varargs = opt->varargs;
	x.skip_copies = opt->skip_copies;
	x.n_skip_copies = opt->n_skip_copies;
	x.s = r->solver = pta_new(on_new_location, &x);
	pta_set_cycle_detection(x.s, opt->cycle_detection);
	unsigned nf = p->n_functions ? p->n_functions : 1;
	x.ret_node = xmalloc(nf * sizeof *x.ret_node);
	x.static_obj = xmalloc(nf * sizeof *x.static_obj);
	x.varargs_addr = xmalloc(nf * sizeof *x.varargs_addr);
	for (unsigned i = 0; i < p->n_functions; i++)
		x.ret_node[i] = x.static_obj[i] = x.varargs_addr[i] = PTA_NONE;
	x.targets = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *x.targets);
	x.self_handle = x.runtime_code = x.exports = PTA_NONE;
	strmap_init(&x.unmodelled);
	if (opt->wrappers) {
		x.wrappers = pta_find_wrappers(p);
		r->n_wrappers = x.wrappers->n_wrappers;
		r->n_wrappers_via_pointer = x.wrappers->n_via_pointer;
		r->n_wrappers_carving = x.wrappers->n_carving;
		x.clones = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *x.clones);
		x.clone_budget = CLONES_PER_SITE * (p->n_sites + 64);
	}
	intmap_init(&x.cloned);
	intmap_init(&x.clone_obj);
	ptrmap_init(&x.arrays);
	intmap_init(&x.var_geps);
	intmap_init(&x.di_arrays);
	find_var_geps(&x);
	find_read(&x);

	extract_globals(&x);
	extract_trampolines(&x);
	model_outside_callers(&x);
	/* Each statement tags its constraints, so a collapse can name the
	 * statement that caused it (pta_collapse_stmt). */
	for (unsigned i = 0; i < p->n_const_stmts; i++) {
		pta_set_origin(x.s, i);
		extract_stmt(&x, NULL, &p->stmts[i]);
	}
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (opt->keep_functions && !opt->keep_functions[i])
			continue;   /* measuring only */
		for (unsigned k = 0; k < f->n_stmts; k++) {
			if (opt->keep_stmts && !opt->keep_stmts[f->first_stmt + k])
				continue;
			pta_set_origin(x.s, f->first_stmt + k);
			extract_stmt(&x, f, &p->stmts[f->first_stmt + k]);
		}
	}
	pta_set_origin(x.s, PTA_NONE);   /* calls bound while solving: no one statement */
	if (opt->progress)
		opt->progress(opt->progress_arg, "points-to analysis: solving");
	pta_solve(x.s);

	/* Hand the results over. */
	r->n_objects = (unsigned)x.objects.len;
	r->objects = x.objects.items;
	r->site_targets = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *r->site_targets);
	r->n_site_targets = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *r->n_site_targets);
	for (unsigned i = 0; i < p->n_sites; i++) {
		r->site_targets[i] = x.targets[i].items;
		r->n_site_targets[i] = (unsigned)x.targets[i].len;
	}
	r->n_unmodelled = (unsigned)x.unmodelled.len;
	r->unmodelled = xcalloc(r->n_unmodelled ? r->n_unmodelled : 1, sizeof *r->unmodelled);
	unsigned k = 0;
	for (size_t i = 0; i < x.unmodelled.cap; i++)
		if (x.unmodelled.slots[i].key)
			r->unmodelled[k++] = x.unmodelled.slots[i].key;
	qsort(r->unmodelled, k, sizeof *r->unmodelled, by_string);

	intmap_free(&x.tramp_slot);
	intmap_free(&x.patcher);
	free(x.targets);
	free(x.ret_node);
	free(x.static_obj);
	free(x.varargs_addr);
	pta_wrappers_free(x.wrappers);
	for (unsigned i = 0; x.clones && i < p->n_sites; i++)
		VEC_FREE(&x.clones[i]);
	free(x.clones);
	intmap_free(&x.cloned);
	intmap_free(&x.clone_obj);
	ptrmap_free(&x.arrays);
	intmap_free(&x.var_geps);
	intmap_free(&x.di_arrays);
	VEC_FREE(&x.pairs);
	VEC_FREE(&x.pair_locs);
	free(x.pair_of);
	r->read_through = x.read;
	if (x.have_ix)
		ir_index_free(&x.ix);
	for (size_t i = 0; i < x.watches.len; i++)
		sbm_free(&x.watches.items[i].bound);
	VEC_FREE(&x.watches);
	strmap_free(&x.unmodelled);
	r->copies = x.copies.items;
	r->n_copies = (unsigned)x.copies.len;
	hand_over_lookups(&x, r);
	r->seconds = now() - t0;
	r->n_offset_dropped = pta_offset_dropped(r->solver);
	return r;
}

void pta_result_free(pta_result *r)
{
	if (!r)
		return;
	pta_free(r->solver);
	for (unsigned i = 0; i < r->prog->n_sites; i++)
		free(r->site_targets[i]);
	free(r->site_targets);
	free(r->n_site_targets);
	free(r->objects);
	free(r->value_node);
	free(r->read_through);
	free(r->unmodelled);
	free(r->copies);
	free(r->symbol_sites);
	free(r);
}

bool pta_site_calls_runtime_code(const pta_result *r, unsigned site)
{
	if (r->runtime_code == PTA_NONE || site >= r->prog->n_sites || r->prog->sites[site].kind != SITE_INDIRECT)
		return false;
	const sbitmap *callee = pta_value_pts(r, r->prog->sites[site].callee_value);
	if (!callee)
		return false;
	unsigned loc;
	SBM_FOREACH(callee, loc)
		if (pta_loc_object(r->solver, loc) == r->runtime_code)
			return true;
	return false;
}

const sbitmap *pta_value_pts(const pta_result *r, unsigned value)
{
	if (value >= r->prog->n_values || r->value_node[value] == PTA_NONE)
		return NULL;
	return pta_pts(r->solver, r->value_node[value]);
}

unsigned pta_global_object(const pta_result *r, const ir_global *g)
{
	for (unsigned i = 0; i < r->n_objects; i++)
		if (r->objects[i].kind == OBJ_GLOBAL && r->objects[i].index == g->id)
			return i;
	return PTA_NONE;
}

bool pta_value_modelled(const pta_result *r, unsigned value)
{
	return value >= r->prog->n_values || !r->read_through || r->read_through[value];
}

/* f's name in pta_loc_name */
static const char *loc_fn(const ir_function *f, bool shown) { return shown ? ir_function_label(f) : f->name; }

char *pta_loc_name(const pta_result *r, unsigned loc, bool shown)
{
	const ir_program *p = r->prog;
	unsigned obj = pta_loc_object(r->solver, loc);
	char *out = NULL;
	if (obj == PTA_NONE || obj >= r->n_objects)
		return xstrdup("?");
	const pta_obj_info *o = &r->objects[obj];
	long long off = (long long)pta_loc_offset(r->solver, loc);
	const char *collapsed = pta_object_collapsed(r->solver, obj) ? "*" : "";
	int n = -1;
	switch (o->kind) {
	case OBJ_FUNCTION:
		n = asprintf(&out, "%s", loc_fn(p->functions[o->index], shown));
		break;
	case OBJ_GLOBAL:
		n = asprintf(&out, "%s%s+%lld", shown ? ir_global_label(p->globals[o->index]) : p->globals[o->index]->name,
		             collapsed, off);
		break;
	case OBJ_STACK:
		n = asprintf(&out, "stack:%%%u%s+%lld", o->index, collapsed, off);
		break;
	case OBJ_HEAP: {
		const ir_site *s = &p->sites[o->index];
		bool via = o->context != IR_NONE;
		n = asprintf(&out, "heap:%s:%u%s%s%s%s+%lld", s->loc.file ? s->loc.file : loc_fn(s->caller, shown), s->loc.line,
		             via ? "(via " : "", via ? loc_fn(p->functions[o->context], shown) : "", via ? ")" : "",
		             collapsed, off);
		break;
	}
	case OBJ_VARARGS:
		n = asprintf(&out, "varargs:%s", loc_fn(p->functions[o->index], shown));
		break;
	case OBJ_LIBRARY:
		if (o->index == IR_NONE)
			n = asprintf(&out, "outside");   /* a library's callers (model_outside_callers) */
		else
			n = asprintf(&out, "lib:%s", loc_fn(p->functions[o->index], shown));
		break;
	}
	return n < 0 ? xstrdup("?") : out;
}

cg_graph *pta_callgraph(const pta_result *r, bool type_filter)
{
	const ir_program *p = r->prog;
	cg_graph *g = cg_new(p, type_filter ? "r0" : "andersen");
	unsigned *buf = xmalloc((p->n_functions ? p->n_functions : 1) * sizeof *buf);
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		if (s->kind == SITE_DIRECT) {
			if (s->callee)
				cg_set_targets(g, i, &s->callee->id, 1);
			continue;
		}
		unsigned n = 0;
		for (unsigned k = 0; k < r->n_site_targets[i]; k++) {
			const ir_function *f = p->functions[r->site_targets[i][k]];
			/* FLTA (§3.2): the IR function types must be equal; types are
			 * interned, so equal types are the same pointer. */
			if (!type_filter || pta_type_fits(s, f))
				buf[n++] = f->id;
		}
		cg_set_targets(g, i, buf, n);
	}
	free(buf);
	return g;
}

const char *pta_collapse_cause_name(unsigned cause)
{
	static const char *const names[PTA_COLLAPSE_CAUSES] = {
		"its size is unknown (external memory)", "a variable index", "an offset outside it",
		"a pointer increment in a loop (a positive-weight cycle)"};
	return cause < PTA_COLLAPSE_CAUSES ? names[cause] : "not collapsed";
}

const ir_stmt *pta_collapse_stmt(const pta_result *r, unsigned obj, const ir_function **fn)
{
	*fn = NULL;
	unsigned id = obj < r->n_objects ? pta_object_collapse_origin(r->solver, obj) : PTA_NONE;
	const ir_program *p = r->prog;
	if (id == PTA_NONE || id >= p->n_stmts)
		return NULL;
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (id >= f->first_stmt && id < f->first_stmt + f->n_stmts)
			*fn = f;
	}
	return &p->stmts[id];
}
