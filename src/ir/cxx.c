/* cxx.c — the C++ class hierarchy of a linked module, as the Itanium ABI
 * lays it out in the IR (model.h, "C++ classes").
 *
 * Sources, each chosen because it is in every clang++ module:
 *   classes    one per defined vtable group _ZTV<T> or typeinfo _ZTI<T>; the
 *              class key is _ZTS<T>, the name typeinfo and !type metadata use;
 *   bases      the typeinfo's initialiser (__si_class_type_info: one base at
 *              offset 0; __vmi_class_type_info: (base, offset_flags) pairs,
 *              flag 1 = virtual, offset = offset_flags >> 8); a class without
 *              typeinfo (-fno-rtti) takes its bases from the debug info's
 *              DW_TAG_inheritance members;
 *   vtables    each array of the group's initialiser is one vtable: its
 *              element before the typeinfo is offset-to-top, the ones after
 *              are the slots (the address point); __cxa_pure_virtual and
 *              __cxa_deleted_virtual slots hold no target;
 *   compat     the classes a vptr to an address point may be declared as:
 *              the !type metadata's (offset, _ZTS) pairs when the module has
 *              them (-fwhole-program-vtables, CFI), else computed: every base
 *              subobject at the point's offset (-offset_to_top) in the
 *              group's class, virtual bases placed by the vbase offsets the
 *              vtable holds.
 * Construction vtables (_ZTC) are not read: the functions they hold are in
 * the vtable groups of the classes being constructed, so CHA sees them. */
#include "ir/lowering.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* libstdc++'s demangler (a Debian dependency of libLLVM; the LLVM C API has none). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);

static const char *demangle(ir_program *p, const char *mangled)
{
	int status = 0;
	char *d = __cxa_demangle(mangled, NULL, NULL, &status);
	const char *out = status == 0 && d ? arena_strdup(&p->arena, d) : NULL;
	free(d);
	return out;
}

void cxx_demangle_functions(ir_program *p)
{
	for (unsigned i = 0; i < p->n_functions; i++) {
		ir_function *f = p->functions[i];
		if (strncmp(f->name, "_Z", 2) == 0)
			f->demangled = demangle(p, f->name);
	}
	/* globals too: "_ZTV6Circle" -> "vtable for Circle", "_ZN1A5countE" -> "A::count" */
	for (unsigned i = 0; i < p->n_globals; i++) {
		ir_global *g = p->globals[i];
		if (strncmp(g->name, "_Z", 2) == 0)
			g->demangled = demangle(p, g->name);
	}
}

typedef struct cxx_state {
	lowering *L;
	strmap by_key;             /* "_ZTS..." -> ir_class* */
	strmap by_name;            /* demangled name -> ir_class* */
	VEC(ir_class *) classes;
	VEC(ir_vpoint) points;
	VEC(LLVMValueRef) groups;  /* per class id: its _ZTV initialiser, NULL when none */
} cxx_state;

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The class named by a _ZTV/_ZTI/_ZTS symbol's suffix, made on first sight. */
static ir_class *class_for(cxx_state *S, const char *suffix)
{
	ir_program *p = S->L->prog;
	size_t n = strlen(suffix);
	char *key = xmalloc(n + 5);
	memcpy(key, "_ZTS", 4);
	memcpy(key + 4, suffix, n + 1);
	ir_class *c = strmap_get(&S->by_key, key);
	if (!c) {
		c = ARENA_NEW(&p->arena, ir_class);
		c->id = (unsigned)S->classes.len;
		c->key = ir_intern(p, key);
		c->name = demangle(p, suffix);   /* a type's mangling: "5Shape" -> "Shape" */
		if (!c->name)
			c->name = c->key;
		strmap_put(&S->by_key, c->key, c);
		if (!strmap_get(&S->by_name, c->name))
			strmap_put(&S->by_name, c->name, c);
		VEC_PUSH(&S->classes, c);
		VEC_PUSH(&S->groups, (LLVMValueRef)NULL);
	}
	free(key);
	return c;
}

static const char *global_name(LLVMValueRef g)
{
	size_t len = 0;
	const char *n = LLVMGetValueName2(g, &len);
	return n ? n : "";
}

/* The global a constant refers to through casts and GEPs, or NULL. */
static LLVMValueRef strip_to_global(LLVMValueRef c)
{
	for (int depth = 0; c && depth < 8; depth++) {
		if (LLVMIsAGlobalAlias(c))
			c = LLVMAliasGetAliasee(c);
		else if (LLVMIsAGlobalValue(c))
			return c;
		else if (LLVMIsAConstantExpr(c))
			c = LLVMGetOperand(c, 0);
		else
			return NULL;
	}
	return NULL;
}

/* An integer constant, through inttoptr; null and undef read as 0. */
static int64_t const_int(LLVMValueRef c)
{
	if (c && LLVMIsAConstantExpr(c) && LLVMGetConstOpcode(c) == LLVMIntToPtr)
		c = LLVMGetOperand(c, 0);
	return c && LLVMIsAConstantInt(c) ? LLVMConstIntGetSExtValue(c) : 0;
}

static void add_base(lowering *L, ir_class *c, ir_class *b, bool is_virtual, int64_t offset)
{
	ir_class_base *nb = ARENA_ARRAY(&L->prog->arena, ir_class_base, c->n_bases + 1);
	if (c->n_bases)
		memcpy(nb, c->bases, c->n_bases * sizeof *nb);
	nb[c->n_bases++] = (ir_class_base){.cls = b->id, .is_virtual = is_virtual, .offset = offset};
	c->bases = nb;
}

/* Bases from a typeinfo initialiser (see the header comment). */
static void read_typeinfo(cxx_state *S, ir_class *c, LLVMValueRef init)
{
	unsigned n = LLVMIsAConstantStruct(init) ? (unsigned)LLVMGetNumOperands(init) : 0;
	LLVMValueRef kind = n ? strip_to_global(LLVMGetOperand(init, 0)) : NULL;
	const char *k = kind ? global_name(kind) : "";
	if (strstr(k, "__si_class_type_info") && n >= 3) {
		LLVMValueRef b = strip_to_global(LLVMGetOperand(init, 2));
		if (b && has_prefix(global_name(b), "_ZTI"))
			add_base(S->L, c, class_for(S, global_name(b) + 4), false, 0);
	} else if (strstr(k, "__vmi_class_type_info")) {
		for (unsigned i = 4; i + 1 < n; i += 2) {
			LLVMValueRef b = strip_to_global(LLVMGetOperand(init, i));
			if (!b || !has_prefix(global_name(b), "_ZTI"))
				continue;
			int64_t of = const_int(LLVMGetOperand(init, i + 1));
			add_base(S->L, c, class_for(S, global_name(b) + 4), (of & 1) != 0, of >> 8);
		}
	}
}

/* One vtable (an array of the group) at byte offset base of the group. */
static void read_vtable(cxx_state *S, ir_class *c, LLVMValueRef arr, uint64_t base)
{
	lowering *L = S->L;
	unsigned n = (unsigned)LLVMGetNumOperands(arr), rtti = n, ps = L->prog->pointer_size;
	for (unsigned i = 0; i < n && rtti == n; i++) {
		LLVMValueRef g = strip_to_global(LLVMGetOperand(arr, i));
		if (g && has_prefix(global_name(g), "_ZTI"))
			rtti = i;
	}
	if (rtti == n) {   /* -fno-rtti: the typeinfo slot is null; it precedes the first function */
		for (unsigned i = 1; i < n && rtti == n; i++) {
			LLVMValueRef g = strip_to_global(LLVMGetOperand(arr, i));
			if (g && LLVMIsAFunction(g))
				rtti = i - 1;
		}
	}
	if (rtti == 0 || rtti >= n)
		return;
	ir_vpoint vp = {.cls = c->id, .offset = base + (uint64_t)(rtti + 1) * ps};
	vp.offset_to_top = const_int(LLVMGetOperand(arr, rtti - 1));
	vp.n_slots = n - rtti - 1;
	vp.slots = ARENA_ARRAY(&L->prog->arena, ir_function *, vp.n_slots);
	for (unsigned i = 0; i < vp.n_slots; i++) {
		LLVMValueRef g = strip_to_global(LLVMGetOperand(arr, rtti + 1 + i));
		ir_function *f = g ? ptrmap_get(&L->functions, g) : NULL;
		if (f && (!strcmp(f->name, "__cxa_pure_virtual") || !strcmp(f->name, "__cxa_deleted_virtual"))) {
			vp.n_pure++;
			f = NULL;
		}
		vp.slots[i] = f;
	}
	VEC_PUSH(&S->points, vp);
}

static void read_group(cxx_state *S, ir_class *c, LLVMValueRef g)
{
	LLVMValueRef init = LLVMGetInitializer(g);
	if (!init)
		return;
	c->vtable = ptrmap_get(&S->L->globals, g);
	S->groups.items[c->id] = init;
	c->first_point = (unsigned)S->points.len;
	LLVMTypeRef ty = LLVMTypeOf(init);
	if (LLVMIsAConstantStruct(init)) {
		for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(init); i++) {
			LLVMValueRef arr = LLVMGetOperand(init, i);
			if (LLVMIsAConstantArray(arr))
				read_vtable(S, c, arr, LLVMOffsetOfElement(S->L->layout, ty, i));
		}
	} else if (LLVMIsAConstantArray(init)) {
		read_vtable(S, c, init, 0);
	}
	c->n_points = (unsigned)S->points.len - c->first_point;
}

/* The group element at byte offset off, as an integer (vbase offsets). */
static int64_t group_int_at(cxx_state *S, LLVMValueRef init, uint64_t off)
{
	LLVMTypeRef ty = LLVMTypeOf(init);
	unsigned ps = S->L->prog->pointer_size;
	if (LLVMIsAConstantArray(init))
		return off % ps == 0 && off / ps < (unsigned)LLVMGetNumOperands(init)
		           ? const_int(LLVMGetOperand(init, (unsigned)(off / ps))) : 0;
	if (!LLVMIsAConstantStruct(init))
		return 0;
	for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(init); i++) {
		uint64_t start = LLVMOffsetOfElement(S->L->layout, ty, i);
		LLVMValueRef arr = LLVMGetOperand(init, i);
		uint64_t size = LLVMABISizeOfType(S->L->layout, LLVMTypeOf(arr));
		if (off >= start && off < start + size)
			return group_int_at(S, arr, off - start);
	}
	return 0;
}

typedef VEC(ir_class_use) use_vec;   /* here: (offset as key, class) subobjects */

static bool has_subobject(const use_vec *v, unsigned cls, unsigned off)
{
	for (size_t i = 0; i < v->len; i++)
		if (v->items[i].cls == cls && v->items[i].key == off)
			return true;
	return false;
}

/* The subobjects of complete class top: (offset, class), bases recursively.
 * A virtual base's offset is read from top's vtable at the address point of
 * the subobject that names it. */
static void subobjects(cxx_state *S, ir_class *top, ir_class *c, int64_t off, use_vec *out, int depth)
{
	if (depth > 64 || off < 0 || has_subobject(out, c->id, (unsigned)off))
		return;
	ir_class_use u = {.key = (unsigned)off, .cls = c->id};
	VEC_PUSH(out, u);
	for (unsigned i = 0; i < c->n_bases; i++) {
		ir_class *b = S->classes.items[c->bases[i].cls];
		int64_t boff = off + c->bases[i].offset;
		if (c->bases[i].is_virtual) {
			const ir_vpoint *vp = NULL;
			for (unsigned k = 0; k < top->n_points && !vp; k++)
				if (S->points.items[top->first_point + k].offset_to_top == -off)
					vp = &S->points.items[top->first_point + k];
			LLVMValueRef init = S->groups.items[top->id];
			if (!vp || !init || (int64_t)vp->offset + c->bases[i].offset < 0)
				continue;   /* no vtable to read the offset from: the base stays unplaced */
			boff = off + group_int_at(S, init, (uint64_t)((int64_t)vp->offset + c->bases[i].offset));
		}
		subobjects(S, top, b, boff, out, depth + 1);
	}
}

/* !type metadata: (offset, type id) pairs on the group global. */
static bool compat_from_type_md(cxx_state *S, ir_class *c, LLVMValueRef g, unsigned kind)
{
	size_t n = 0;
	LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) != kind)
			continue;
		LLVMValueRef node = LLVMMetadataAsValue(S->L->ctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
		if (LLVMGetMDNodeNumOperands(node) != 2)
			continue;
		LLVMValueRef ops[2];
		LLVMGetMDNodeOperands(node, ops);
		unsigned len = 0;
		const char *id = ops[1] ? LLVMGetMDString(ops[1], &len) : NULL;
		if (!id || !ops[0] || !LLVMIsAConstantInt(ops[0]))
			continue;
		char *key = strndup(id, len);
		ir_class *d = strmap_get(&S->by_key, key);
		free(key);
		uint64_t off = LLVMConstIntGetZExtValue(ops[0]);
		for (unsigned k = 0; d && k < c->n_points; k++) {
			ir_vpoint *vp = &S->points.items[c->first_point + k];
			if (vp->offset != off)
				continue;
			unsigned *nc = ARENA_ARRAY(&S->L->prog->arena, unsigned, vp->n_compat + 1);
			if (vp->n_compat)
				memcpy(nc, vp->compat, vp->n_compat * sizeof *nc);
			nc[vp->n_compat++] = d->id;
			vp->compat = nc;
			any = true;
		}
	}
	if (md)
		LLVMDisposeValueMetadataEntries(md);
	return any;
}

static void compat_from_layout(cxx_state *S, ir_class *c)
{
	use_vec subs = {0};
	subobjects(S, c, c, 0, &subs, 0);
	for (unsigned k = 0; k < c->n_points; k++) {
		ir_vpoint *vp = &S->points.items[c->first_point + k];
		unsigned *nc = ARENA_ARRAY(&S->L->prog->arena, unsigned, vp->n_compat + subs.len + 1), n = vp->n_compat;
		if (n)
			memcpy(nc, vp->compat, n * sizeof *nc);
		for (size_t i = 0; i < subs.len; i++) {
			bool have = false;
			for (unsigned j = 0; j < n && !have; j++)
				have = nc[j] == subs.items[i].cls;
			if (!have && (int64_t)subs.items[i].key == -vp->offset_to_top)
				nc[n++] = subs.items[i].cls;
		}
		vp->compat = nc;
		vp->n_compat = n;
	}
	VEC_FREE(&subs);
}

/* Bases of a class without typeinfo, from its debug-info type. */
static void bases_from_debug_info(cxx_state *S)
{
	/* the reader's types: prog->types is filled only when ingest finishes */
	const dinfo_reader *r = &S->L->di;
	for (size_t i = 0; i < r->all.len; i++) {
		di_type *t = r->all.items[i];
		ir_class *c = t->identifier ? strmap_get(&S->by_key, t->identifier) : NULL;
		if (!c || c->n_bases)
			continue;
		for (unsigned m = 0; m < t->n_members; m++) {
			di_type *bt = di_strip(t->members[m].type);
			ir_class *b = t->members[m].base && bt && bt->identifier ? strmap_get(&S->by_key, bt->identifier)
			                                                         : NULL;
			bool v = t->members[m].virtual_base;
			if (b && b != c)
				add_base(S->L, c, b, v, v ? (int64_t)t->members[m].offset_bits
				                          : (int64_t)(t->members[m].offset_bits / 8));
		}
	}
}

static void read_hierarchy(cxx_state *S)
{
	lowering *L = S->L;
	for (LLVMValueRef g = LLVMGetFirstGlobal(L->mod); g; g = LLVMGetNextGlobal(g)) {
		const char *n = global_name(g);
		if ((has_prefix(n, "_ZTV") || has_prefix(n, "_ZTI")) && !LLVMIsDeclaration(g) &&
		    !has_prefix(n, "_ZTVN10__cxxabiv1"))
			class_for(S, n + 4);
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(L->mod); g; g = LLVMGetNextGlobal(g)) {
		const char *n = global_name(g);
		if (LLVMIsDeclaration(g) || has_prefix(n, "_ZTVN10__cxxabiv1"))
			continue;
		if (has_prefix(n, "_ZTI") && LLVMGetInitializer(g))
			read_typeinfo(S, class_for(S, n + 4), LLVMGetInitializer(g));
		else if (has_prefix(n, "_ZTV"))
			read_group(S, class_for(S, n + 4), g);
	}
}

static void read_compat(cxx_state *S)
{
	unsigned kind = LLVMGetMDKindIDInContext(S->L->ctx, "type", 4);
	for (size_t i = 0; i < S->classes.len; i++) {
		ir_class *c = S->classes.items[i];
		if (!c->n_points)
			continue;
		LLVMValueRef g = LLVMGetNamedGlobal(S->L->mod, c->vtable->name);
		/* !type names a class of internal linkage by a node, not its key: the
		 * layout adds what the metadata cannot name */
		if (g)
			compat_from_type_md(S, c, g, kind);
		compat_from_layout(S, c);
	}
}

/* ---- allocation classes and instantiations ------------------------------------------------ */

/* The class of a debug-info type (typedefs, qualifiers and arrays peeled). */
static ir_class *class_of_di(cxx_state *S, di_type *t)
{
	for (int depth = 0; t && depth < 16; depth++) {
		t = di_strip(t);
		if (t && t->kind == DI_ARRAY)
			t = t->base;
		else
			break;
	}
	return t && t->identifier ? strmap_get(&S->by_key, t->identifier) : NULL;
}

/* The class of an IR struct type: "class.ns::X", "struct.X.base", "class.X.12". */
static ir_class *class_of_ir_type(cxx_state *S, LLVMTypeRef ty)
{
	while (LLVMGetTypeKind(ty) == LLVMArrayTypeKind)
		ty = LLVMGetElementType(ty);
	const char *n = LLVMGetTypeKind(ty) == LLVMStructTypeKind ? LLVMGetStructName(ty) : NULL;
	if (!n || !(has_prefix(n, "class.") || has_prefix(n, "struct.")))
		return NULL;
	char *name = xstrdup(strchr(n, '.') + 1);
	ir_class *c = strmap_get(&S->by_name, name);
	for (char *dot = strrchr(name, '.'); !c && dot; dot = strrchr(name, '.')) {
		*dot = 0;   /* linker suffix or ".base" */
		c = strmap_get(&S->by_name, name);
	}
	free(name);
	return c;
}

/* An allocation's class from one source; rank 0: the debug info names it (the
 * variable's declared type, the heapallocsite type), rank 1: only the IR
 * struct's name, which the linker shares between classes of one layout
 * (three walkers of one size become one "class.re2::NullWalker"), so it
 * yields to any debug-info class of the same allocation. */
typedef struct alloc_use {
	ir_class_use u;
	int rank;
} alloc_use;
typedef VEC(alloc_use) alloc_vec;

static int alloc_cmp(const void *a, const void *b)
{
	const alloc_use *x = a, *y = b;
	if (x->u.key != y->u.key)
		return x->u.key < y->u.key ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	/* with a class before without one, then by class id (a stable order) */
	return (x->u.cls > y->u.cls) - (x->u.cls < y->u.cls);
}

/* A debug-info type worth keeping for an allocation: a struct or class (or an array of them). */
static di_type *record_type(di_type *t)
{
	t = di_strip(t);
	while (t && t->kind == DI_ARRAY)
		t = di_strip(t->base);
	return t && t->kind == DI_STRUCT && t->n_members ? t : NULL;
}

static void push_alloc(alloc_vec *out, unsigned value, ir_class *c, di_type *t, int rank)
{
	if (c || record_type(t))
		VEC_PUSH(out, ((alloc_use){{.key = value, .cls = c ? c->id : IR_NONE, .type = t, .by_ir_name = c && rank == 1},
		                            c ? rank : 2}));
}

static void alloc_classes(cxx_state *S, use_vec *result)
{
	lowering *L = S->L;
	ir_program *p = L->prog;
	alloc_vec v = {0}, *out = &v;
	unsigned heap_kind = LLVMGetMDKindIDInContext(L->ctx, "heapallocsite", 13);
	for (unsigned i = 0; i < p->n_bindings; i++) {
		const ir_dbg_binding *b = &p->bindings[i];
		if (b->declare && b->empty_expr)
			push_alloc(out, b->value, class_of_di(S, b->var->type), b->var->type, 0);
	}
	for (unsigned i = 0; i < p->n_globals; i++) {
		ir_global *g = p->globals[i];
		ir_class *c = g->var ? class_of_di(S, g->var->type) : NULL;
		int rank = 0;
		if (!c && g->defined && !has_prefix(g->name, "_ZT")) {
			c = class_of_ir_type(S, LLVMGlobalGetValueType(LLVMGetNamedGlobal(L->mod, g->name)));
			rank = 1;
		}
		push_alloc(out, g->value, c, g->var && !g->var_fragment ? g->var->type : NULL, rank);
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f; f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
				if (LLVMIsAAllocaInst(in)) {
					push_alloc(out, lower_value_id(L, in), class_of_ir_type(S, LLVMGetAllocatedType(in)), NULL, 1);
				} else if (lower_is_call(in) && LLVMGetMetadata(in, heap_kind)) {
					di_type *t = dinfo_type(&L->di, LLVMValueAsMetadata(LLVMGetMetadata(in, heap_kind)));
					push_alloc(out, lower_value_id(L, in), class_of_di(S, t), t, 0);
				}
			}
	if (out->len)
		qsort(out->items, out->len, sizeof *out->items, alloc_cmp);
	/* One entry per allocation: the best-ranked source's class, with the
	 * first debug-info type any source gave */
	for (size_t i = 0; i < out->len; i++) {
		if (result->len && result->items[result->len - 1].key == out->items[i].u.key) {
			if (!result->items[result->len - 1].type)
				result->items[result->len - 1].type = out->items[i].u.type;
			continue;
		}
		VEC_PUSH(result, out->items[i].u);
	}
	VEC_FREE(&v);
}

/* Debug-info classes without an ODR identifier get the key of the one class
 * of that name (dinfo_name_classes); a name two classes share (anonymous
 * namespaces of two units) names none. */
static void name_di_classes(cxx_state *S)
{
	static char shared;   /* the value of a name two classes have */
	strmap seen;
	strmap_init(&seen);
	for (size_t i = 0; i < S->classes.len; i++) {
		ir_class *c = S->classes.items[i];
		if (c->name != c->key)
			strmap_put(&seen, c->name, strmap_get(&seen, c->name) ? (void *)&shared : (void *)c);
	}
	const char **names = xmalloc((S->classes.len + 1) * sizeof *names);
	const char **keys = xmalloc((S->classes.len + 1) * sizeof *keys);
	unsigned n = 0;
	for (size_t i = 0; i < S->classes.len; i++) {
		ir_class *c = S->classes.items[i];
		if (c->name != c->key && strmap_get(&seen, c->name) == c) {
			names[n] = c->name;
			keys[n++] = c->key;
		}
	}
	dinfo_name_classes(&S->L->di, names, keys, n);
	free(names);
	free(keys);
	strmap_free(&seen);
}

void cxx_lower(lowering *L)
{
	ir_program *p = L->prog;
	cxx_state S = {.L = L};
	strmap_init(&S.by_key);
	strmap_init(&S.by_name);
	read_hierarchy(&S);
	name_di_classes(&S);
	bases_from_debug_info(&S);
	read_compat(&S);
	p->n_classes = (unsigned)S.classes.len;
	p->classes = arena_memdup(&p->arena, S.classes.items, S.classes.len * sizeof *S.classes.items);
	p->n_vpoints = (unsigned)S.points.len;
	p->vpoints = arena_memdup(&p->arena, S.points.items, S.points.len * sizeof *S.points.items);
	if (p->n_classes) {
		use_vec allocs = {0};
		alloc_classes(&S, &allocs);
		p->n_alloc_classes = (unsigned)allocs.len;
		p->alloc_classes = arena_memdup(&p->arena, allocs.items, allocs.len * sizeof *allocs.items);
		VEC_FREE(&allocs);
		cxx_vcalls(L, &S.by_key, &S.by_name);
	}
	VEC_FREE(&S.classes);
	VEC_FREE(&S.points);
	VEC_FREE(&S.groups);
	strmap_free(&S.by_key);
	strmap_free(&S.by_name);
}
