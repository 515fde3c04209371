/* vcall.c — C++ virtual call sites, instantiations and vtable-only
 * functions (lowering.h, model.h).
 *
 * A virtual call is an indirect call whose callee is loaded from a constant
 * offset of a vtable pointer that was itself loaded from the receiver
 * object: callee = *(*(receiver) + slot_offset), as clang emits it at every
 * optimisation level (or llvm.type.checked.load under CFI and virtual
 * function elimination). The receiver's static class comes from
 *   1. an llvm.type.test / llvm.public.type.test on the vtable pointer, or
 *      the type id of llvm.type.checked.load (exact: clang's own claim);
 *   2. else the debug info: the type of the object the receiver points to,
 *      followed through locals, globals, arguments, call results, loads and
 *      constant offsets (fields and base subobjects);
 *   3. else unknown: the analyses take every vtable's slot there and, as
 *      the same shape is a C-style callback read from offset 0 of a struct,
 *      the function-pointer targets too (ir_vcall.mixed).
 * A receiver the debug info types as a class with neither typeinfo nor a
 * vtable is not a virtual call (a C table of function pointers at offset 0
 * of a struct has the same shape). A member-function pointer call (a phi of
 * the slot loaded at a variable offset and the pointer itself) is a virtual
 * call of any slot, mixed with a function-pointer call. A call on `this` in
 * a constructor or destructor of B dispatches through B's vtable, which the
 * object holds while B's part is built or torn down (ir_vcall.structor).
 *
 * Instantiation (for RTA): a call of a constructor of class C (the demangled
 * name C::C(...)) instantiates C, unless the caller is a constructor of a
 * class derived from C and passes its own `this` (a base-class
 * initialisation); a vtable address point stored outside constructors and
 * destructors (an inlined constructor) instantiates the group's class, and so
 * does a global whose initialiser holds one (constant-initialised object,
 * filed under function id IR_NONE: alive from the start). */
#include "ir/lowering.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct vstate {
	lowering *L;
	const strmap *by_key, *by_name;
	unsigned *binding_of;      /* value id -> 1 + index of its first empty-expression binding, 0 none */
} vstate;

typedef VEC(ir_vcall) vcall_vec;

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static ir_class *class_by_key(vstate *V, const char *key)
{
	return key ? strmap_get(V->by_key, key) : NULL;
}

/* ---- the static class from debug info --------------------------------------------------- */

static di_type *pointee(di_type *t)
{
	t = di_strip(t);
	return t && t->kind == DI_POINTER ? t->base : NULL;
}

/* The type at byte offset off of t, outermost first that is a dynamic class:
 * a field or base subobject starting exactly there. */
static di_type *type_at(vstate *V, di_type *t, uint64_t off, int depth)
{
	t = di_strip(t);
	if (!t || depth > 16)
		return NULL;
	if (off == 0 && t->identifier && class_by_key(V, t->identifier))
		return t;
	if (t->kind == DI_ARRAY && t->base) {
		uint64_t es = di_strip(t->base) ? di_strip(t->base)->size_bits / 8 : 0;
		return es ? type_at(V, t->base, off % es, depth + 1) : NULL;
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		const di_member *m = &t->members[i];
		uint64_t mo = m->offset_bits / 8, ms = m->size_bits / 8;
		if (m->virtual_base)
			continue;
		if (ms == 0 && m->type)
			ms = di_strip(m->type) ? di_strip(m->type)->size_bits / 8 : 0;
		if (off >= mo && (off < mo + ms || (off == mo && ms == 0)))
			return type_at(V, m->type, off - mo, depth + 1);
	}
	return off == 0 ? t : NULL;
}

static const di_variable *binding_var(vstate *V, LLVMValueRef v, bool *declare)
{
	unsigned id = lower_value_id(V->L, v);
	unsigned b = id != IR_NONE ? V->binding_of[id] : 0;
	if (!b)
		return NULL;
	*declare = V->L->prog->bindings[b - 1].declare;
	return V->L->prog->bindings[b - 1].var;
}

/* The debug-info type of the object v points to, NULL when not known. */
static di_type *object_type(vstate *V, LLVMValueRef v, int depth)
{
	if (!v || depth > 12)
		return NULL;
	bool declare = false;
	const di_variable *var = binding_var(V, v, &declare);
	if (var)
		return declare ? var->type : pointee(var->type);
	if (LLVMIsAGlobalVariable(v)) {
		ir_global *g = ptrmap_get(&V->L->globals, v);
		return g && g->var ? g->var->type : NULL;
	}
	if (LLVMIsAArgument(v)) {
		ir_function *f = ptrmap_get(&V->L->functions, LLVMGetParamParent(v));
		unsigned i = 0;
		for (LLVMValueRef a = LLVMGetFirstParam(LLVMGetParamParent(v)); a && a != v; a = LLVMGetNextParam(a))
			i++;
		return f && f->di_sig && i + 1 < f->di_sig->n_params ? pointee(f->di_sig->params[i + 1]) : NULL;
	}
	if (!LLVMIsAInstruction(v) && !LLVMIsAConstantExpr(v))
		return NULL;
	LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMGetConstOpcode(v);
	switch (op) {
	case LLVMLoad:
		return pointee(object_type(V, LLVMGetOperand(v, 0), depth + 1));
	case LLVMBitCast:
	case LLVMAddrSpaceCast:
		return object_type(V, LLVMGetOperand(v, 0), depth + 1);
	case LLVMGetElementPtr: {
		int64_t off = 0;
		if (!lower_gep_offset(V->L, v, &off) || off < 0)
			return NULL;
		di_type *t = object_type(V, LLVMGetOperand(v, 0), depth + 1);
		return t ? type_at(V, t, (uint64_t)off, 0) : NULL;
	}
	case LLVMCall:
	case LLVMInvoke: {
		LLVMValueRef callee = lower_direct_callee(v);
		ir_function *f = callee ? ptrmap_get(&V->L->functions, callee) : NULL;
		return f && f->di_sig && f->di_sig->n_params ? pointee(f->di_sig->params[0]) : NULL;
	}
	case LLVMPHI:
	case LLVMSelect:
		return object_type(V, LLVMGetOperand(v, op == LLVMSelect ? 1 : 0), depth + 1);
	default:
		return NULL;
	}
}

/* ---- recognising the call ---------------------------------------------------------------- */

static bool is_load(LLVMValueRef v)
{
	return v && LLVMIsALoadInst(v);
}

static bool callee_named(LLVMValueRef call, const char *prefix)
{
	LLVMValueRef f = lower_direct_callee(call);
	size_t len;
	return f && has_prefix(LLVMGetValueName2(f, &len), prefix);
}

static const char *md_string_operand(LLVMValueRef call, unsigned i)
{
	LLVMValueRef md = LLVMGetOperand(call, i);
	unsigned len = 0;
	const char *s = md ? LLVMGetMDString(md, &len) : NULL;
	return s ? strndup(s, len) : NULL;
}

/* The key a type test on the vtable pointer vt names, malloc'd; NULL when none. */
static char *type_test_key(LLVMValueRef vt)
{
	for (LLVMUseRef u = LLVMGetFirstUse(vt); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		if (LLVMIsACallInst(user) && LLVMGetOperand(user, 0) == vt &&
		    (callee_named(user, "llvm.type.test") || callee_named(user, "llvm.public.type.test")))
			return (char *)md_string_operand(user, 1);
	}
	return NULL;
}

/* Fills vc (but its site) when callee is a vtable slot load. */
static bool match_slot_load(vstate *V, LLVMValueRef callee, ir_vcall *vc, LLVMValueRef *receiver, char **key)
{
	*key = NULL;
	if (LLVMIsAExtractValueInst(callee) && LLVMIsACallInst(LLVMGetOperand(callee, 0))) {
		LLVMValueRef tcl = LLVMGetOperand(callee, 0);   /* llvm.type.checked.load(vt, off, id) */
		if (!callee_named(tcl, "llvm.type.checked.load") || !LLVMIsAConstantInt(LLVMGetOperand(tcl, 1)))
			return false;
		LLVMValueRef vt = LLVMGetOperand(tcl, 0);
		if (!is_load(vt))
			return false;
		vc->slot_offset = LLVMConstIntGetSExtValue(LLVMGetOperand(tcl, 1));
		*receiver = LLVMGetOperand(vt, 0);
		*key = (char *)md_string_operand(tcl, 2);
		return true;
	}
	if (!is_load(callee))
		return false;
	LLVMValueRef slot = LLVMGetOperand(callee, 0), vt = slot;
	vc->slot_offset = 0;
	if (LLVMIsAGetElementPtrInst(slot)) {
		int64_t off = 0;
		if (lower_gep_offset(V->L, slot, &off))
			vc->slot_offset = off;
		else
			vc->any_slot = true;   /* a member-function pointer's vtable offset */
		vt = LLVMGetOperand(slot, 0);
	}
	if (!is_load(vt) || vc->slot_offset < 0)
		return false;
	*receiver = LLVMGetOperand(vt, 0);
	*key = type_test_key(vt);
	return true;
}

static bool is_own_this(LLVMValueRef v, LLVMValueRef fn);
static ir_class *structor_of(vstate *V, const ir_function *f, bool dtor);

static void classify_site(vstate *V, ir_site *s, LLVMValueRef call, vcall_vec *out)
{
	ir_vcall vc = {.site = s->id, .cls = IR_NONE, .structor = IR_NONE};
	LLVMValueRef receiver = NULL, callee = LLVMGetCalledValue(call);
	char *key = NULL;
	if (LLVMIsAPHINode(callee)) {
		/* A member-function pointer call: one incoming value is the vtable
		 * slot (virtual), another the pointer itself (non-virtual). */
		bool found = false;
		for (unsigned i = 0; i < LLVMCountIncoming(callee) && !found; i++)
			found = match_slot_load(V, LLVMGetIncomingValue(callee, i), &vc, &receiver, &key);
		if (!found)
			return;
		vc.any_slot = vc.mixed = true;
	} else if (!match_slot_load(V, callee, &vc, &receiver, &key)) {
		return;
	}
	ir_class *c = class_by_key(V, key);
	if (c) {
		vc.cls_from = "type.test";
	} else {
		di_type *t = di_strip(object_type(V, receiver, 0));
		if (t && t->identifier) {
			c = class_by_key(V, t->identifier);
			if (!c) {
				free(key);
				return;   /* a class without typeinfo or vtable has no vptr: not a virtual call */
			}
			vc.cls_from = "debug-info";
		}
	}
	free(key);
	vc.cls = c ? c->id : IR_NONE;
	/* *(*(x)) with nothing naming a class is also a function pointer read
	 * from offset 0 of a struct (a C-style callback record): keep both readings */
	vc.mixed |= c == NULL;
	vc.receiver = lower_value_id(V->L, receiver);
	vc.receiver_this = is_own_this(receiver, LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
	ir_class *st = vc.receiver_this ? structor_of(V, s->caller, false) : NULL;
	if (!st && vc.receiver_this)
		st = structor_of(V, s->caller, true);
	vc.structor = st && !vc.any_slot ? st->id : IR_NONE;
	s->vcall = (unsigned)out->len;
	VEC_PUSH(out, vc);
}

/* ---- constructors, destructors, instantiations -------------------------------------------- */

/* The function a call names, directly or through aliases and casts. */
static ir_function *called_function(vstate *V, LLVMValueRef call)
{
	LLVMValueRef c = LLVMGetCalledValue(call);
	for (int depth = 0; c && depth < 8 && !LLVMIsAFunction(c); depth++)
		c = LLVMIsAGlobalAlias(c) ? LLVMAliasGetAliasee(c)
		    : LLVMIsAConstantExpr(c) ? LLVMGetOperand(c, 0) : NULL;
	return c && LLVMIsAFunction(c) ? ptrmap_get(&V->L->functions, c) : NULL;
}

/* A space before end other than the one of "(anonymous namespace)" (a
 * return type: "int A::f<int>(int)" is no constructor). */
static bool has_space_outside_anon(const char *dem, const char *end)
{
	static const char anon[] = "(anonymous namespace)";
	for (const char *q = dem; q < end; q++) {
		if (strncmp(q, anon, sizeof anon - 1) == 0)
			q += sizeof anon - 2;
		else if (*q == ' ')
			return true;
	}
	return false;
}

/* "A::B<int>::B(int)": the class "A::B<int>" when the demangled name is a
 * constructor (dtor false) or destructor (dtor true) of it, else NULL. */
static char *structor_class(const char *dem, bool dtor)
{
	if (!dem)
		return NULL;
	int angle = 0;
	const char *paren = NULL, *last_sep = NULL;
	for (const char *q = dem; *q && !paren; q++) {
		if (strncmp(q, "(anonymous namespace)", 21) == 0)
			q += 20;
		else if (*q == '<')
			angle++;
		else if (*q == '>')
			angle--;
		else if (angle == 0 && *q == '(')
			paren = q;
		else if (angle == 0 && q[0] == ':' && q[1] == ':')
			last_sep = q;
	}
	if (!paren || !last_sep || has_space_outside_anon(dem, last_sep))
		return NULL;
	const char *member = last_sep + 2;
	if (dtor != (*member == '~'))
		return NULL;
	if (dtor)
		member++;
	/* the class's own last component, without its template arguments */
	const char *start = dem;
	angle = 0;
	for (const char *q = dem; q < last_sep; q++) {
		if (*q == '<')
			angle++;
		else if (*q == '>')
			angle--;
		else if (angle == 0 && q[0] == ':' && q[1] == ':')
			start = q + 2;
	}
	size_t n = 0;
	while (start + n < last_sep && start[n] != '<')
		n++;
	if ((size_t)(paren - member) != n || strncmp(member, start, n) != 0)
		return NULL;
	return strndup(dem, (size_t)(last_sep - dem));
}

static ir_class *structor_of(vstate *V, const ir_function *f, bool dtor)
{
	char *cls = structor_class(f->demangled, dtor);
	ir_class *c = cls ? strmap_get(V->by_name, cls) : NULL;
	free(cls);
	return c;
}

static bool is_base_of(const ir_program *p, unsigned base, unsigned derived, int depth)
{
	const ir_class *d = p->classes[derived];
	for (unsigned i = 0; i < d->n_bases && depth < 64; i++)
		if (d->bases[i].cls == base || is_base_of(p, base, d->bases[i].cls, depth + 1))
			return true;
	return false;
}

/* v is the function's first argument, through casts, constant offsets and
 * the -O0 spill slot (an alloca the argument is stored into). */
static bool is_own_this(LLVMValueRef v, LLVMValueRef fn)
{
	LLVMValueRef self = LLVMGetFirstParam(fn);
	for (int depth = 0; v && depth < 8; depth++) {
		if (v == self)
			return true;
		if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v)) {
			v = LLVMGetOperand(v, 0);
		} else if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0))) {
			LLVMValueRef slot = LLVMGetOperand(v, 0);
			for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
				LLVMValueRef st = LLVMGetUser(u);
				if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == slot && LLVMGetOperand(st, 0) == self)
					return true;
			}
			return false;
		} else {
			return false;
		}
	}
	return false;
}

/* The class of the vtable group a stored constant points into, NULL if none. */
static ir_class *stored_vtable(vstate *V, LLVMValueRef c)
{
	for (int depth = 0; c && depth < 4 && LLVMIsAConstantExpr(c); depth++)
		c = LLVMGetOperand(c, 0);
	size_t len;
	const char *n = c && LLVMIsAGlobalVariable(c) ? LLVMGetValueName2(c, &len) : NULL;
	if (!n || !has_prefix(n, "_ZTV"))
		return NULL;
	char *key = xmalloc(strlen(n) + 1);
	memcpy(key, "_ZTS", 4);
	strcpy(key + 4, n + 4);
	ir_class *k = strmap_get(V->by_key, key);
	free(key);
	return k;
}

typedef VEC(ir_class_use) inst_vec;

static void function_instantiations(vstate *V, ir_function *fn, LLVMValueRef f, inst_vec *out)
{
	const ir_program *p = V->L->prog;
	ir_class *own = structor_of(V, fn, false), *own_d = structor_of(V, fn, true);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
			ir_class *c = NULL;
			if (lower_is_call(in)) {
				/* complete-object constructors are often aliases of the base-object ones */
				ir_function *g = called_function(V, in);
				c = g ? structor_of(V, g, false) : NULL;
				if (c && own && LLVMGetNumArgOperands(in) > 0 && is_base_of(p, c->id, own->id, 0) &&
				    is_own_this(LLVMGetOperand(in, 0), f))
					c = NULL;   /* a base-class initialisation */
			} else if (LLVMIsAStoreInst(in) && !own && !own_d) {
				c = stored_vtable(V, LLVMGetOperand(in, 0));
			}
			if (c)
				VEC_PUSH(out, ((ir_class_use){.key = fn->id, .cls = c->id}));
		}
}

static void global_instantiations(vstate *V, inst_vec *out)
{
	const ir_program *p = V->L->prog;
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		if (has_prefix(g->name, "_ZT"))
			continue;
		for (unsigned k = 0; k < g->n_slots; k++) {
			const ir_global *t = g->slots[k].kind == SLOT_GLOBAL ? g->slots[k].global : NULL;
			if (!t || !has_prefix(t->name, "_ZTV"))
				continue;
			char *key = xmalloc(strlen(t->name) + 1);
			memcpy(key, "_ZTS", 4);
			strcpy(key + 4, t->name + 4);
			ir_class *c = strmap_get(V->by_key, key);
			free(key);
			if (c)
				VEC_PUSH(out, ((ir_class_use){.key = IR_NONE, .cls = c->id}));
		}
	}
}

/* ---- vtable-only functions ------------------------------------------------------------------ */

/* Every use of v is a direct call of it, or in a constant that ends in a
 * vtable or typeinfo initialiser (or a type test). */
static bool used_by_vtables_only(LLVMValueRef v, int depth)
{
	if (depth > 8)
		return false;
	bool any = false;
	for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		size_t len;
		if (LLVMIsAGlobalVariable(user)) {
			if (!has_prefix(LLVMGetValueName2(user, &len), "_ZT"))
				return false;
			any = true;
		} else if (LLVMIsAInstruction(user)) {
			unsigned n = (unsigned)LLVMGetNumOperands(user);
			if (!lower_is_call(user) || LLVMGetOperandUse(user, n - 1) != u)
				return false;
		} else if (LLVMIsAConstant(user)) {
			if (!used_by_vtables_only(user, depth + 1))
				return false;
			any = true;
		} else {
			return false;
		}
	}
	return any || depth == 0;
}

static int use_cmp(const void *a, const void *b)
{
	const ir_class_use *x = a, *y = b;
	return x->key != y->key ? (x->key < y->key ? -1 : 1) : (x->cls > y->cls) - (x->cls < y->cls);
}

void cxx_vcalls(lowering *L, const strmap *by_key, const strmap *by_name)
{
	ir_program *p = L->prog;
	vstate V = {.L = L, .by_key = by_key, .by_name = by_name};
	V.binding_of = xcalloc(p->n_values + 1, sizeof *V.binding_of);
	for (unsigned i = p->n_bindings; i-- > 0;)
		if (p->bindings[i].empty_expr)
			V.binding_of[p->bindings[i].value] = i + 1;   /* the first binding wins */
	vcall_vec vcalls = {0};
	inst_vec insts = {0};
	unsigned site = 0, i = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f; f = LLVMGetNextFunction(f), i++) {
		ir_function *fn = p->functions[i];
		fn->vtable_only = used_by_vtables_only(f, 0) && LLVMGetFirstUse(f) != NULL;
		if (!fn->defined)
			continue;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
				if (lower_is_call(in)) {
					ir_site *s = &p->sites[site++];
					while (site < p->n_sites && p->sites[site].asm_call)
						site++;   /* the calls an asm's text makes follow its own site */
					if (s->kind == SITE_INDIRECT && p->n_vpoints)
						classify_site(&V, s, in, &vcalls);
				}
		function_instantiations(&V, fn, f, &insts);
	}
	global_instantiations(&V, &insts);
	if (insts.len)
		qsort(insts.items, insts.len, sizeof *insts.items, use_cmp);
	p->n_vcalls = (unsigned)vcalls.len;
	p->vcalls = arena_memdup(&p->arena, vcalls.items, vcalls.len * sizeof *vcalls.items);
	p->n_instantiations = (unsigned)insts.len;
	p->instantiations = arena_memdup(&p->arena, insts.items, insts.len * sizeof *insts.items);
	VEC_FREE(&vcalls);
	VEC_FREE(&insts);
	free(V.binding_of);
}
