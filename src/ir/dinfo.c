/* dinfo.c — debug-info metadata to di_* structs; see dinfo.h for the rules.
 *
 * Operand layouts used here (LLVM 22, include/llvm/IR/DebugInfoMetadata.h):
 *   DIFile              0 filename, 1 directory
 *   DIType (all kinds)  0 file, 1 scope, 2 name, 3 size in bits, 4 offset in bits
 *     DIDerivedType     5 base type
 *     DICompositeType   5 base type, 6 elements, 9 identifier (C++ ODR name)
 *     DISubroutineType  5 type array (entry 0 = return type, NULL = void)
 *   DISubrange          0 count
 *   DISubprogram        0 file, 1 scope, 2 name, 3 linkage name, 4 type
 *   DILexicalBlock(File) 0 file, 1 scope
 *   DIVariable          0 scope, 1 name, 2 file, 3 type
 *   DINamespace         1 scope, 2 name (none: an anonymous namespace)
 * Sizes and offsets are ConstantAsMetadata (a ConstantInt when read through
 * the C API) for C programs; anything else reads as 0. */
#include "ir/dinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DWARF tags of the derived types we distinguish. */
enum {
	TAG_member = 0x0d, TAG_pointer = 0x0f, TAG_reference = 0x10, TAG_typedef = 0x16,
	TAG_inheritance = 0x1c, TAG_const = 0x26, TAG_volatile = 0x35, TAG_restrict = 0x37,
	TAG_atomic = 0x47, TAG_array = 0x01, TAG_enum = 0x04, TAG_struct = 0x13,
	TAG_class = 0x02, TAG_union = 0x17,
};

void dinfo_init(dinfo_reader *r, LLVMContextRef ctx, ir_program *prog)
{
	memset(r, 0, sizeof *r);
	r->ctx = ctx;
	r->prog = prog;
	ptrmap_init(&r->types);
	ptrmap_init(&r->vars);
	ptrmap_init(&r->empty_exprs);
	strmap_init(&r->class_keys);
}

void dinfo_finish(dinfo_reader *r)
{
	ir_program *p = r->prog;
	p->n_types = (unsigned)r->all.len;
	p->types = ARENA_ARRAY(&p->arena, di_type *, p->n_types);
	for (unsigned i = 0; i < p->n_types; i++)
		p->types[i] = r->all.items[i];
	VEC_FREE(&r->all);
	ptrmap_free(&r->types);
	ptrmap_free(&r->vars);
	ptrmap_free(&r->empty_exprs);
	strmap_free(&r->class_keys);
}

/* ---- raw operand access --------------------------------------------------------------- */

static bool is_node(LLVMMetadataRef md)
{
	if (!md)
		return false;
	LLVMMetadataKind k = LLVMGetMetadataKind(md);
	return k != LLVMMDStringMetadataKind && k != LLVMConstantAsMetadataMetadataKind &&
	       k != LLVMLocalAsMetadataMetadataKind && k != LLVMDistinctMDOperandPlaceholderMetadataKind &&
	       k != LLVMDIArgListMetadataKind;
}

/* Operands of an MD node; *n receives the count. The caller frees the array. */
static LLVMValueRef *operands(dinfo_reader *r, LLVMMetadataRef md, unsigned *n)
{
	*n = 0;
	if (!is_node(md))
		return NULL;
	LLVMValueRef v = LLVMMetadataAsValue(r->ctx, md);
	*n = LLVMGetMDNodeNumOperands(v);
	LLVMValueRef *ops = xcalloc(*n ? *n : 1, sizeof *ops);
	LLVMGetMDNodeOperands(v, ops);
	return ops;
}

/* Operand i as metadata, or NULL when absent or not metadata. */
static LLVMMetadataRef op_md(LLVMValueRef *ops, unsigned n, unsigned i)
{
	if (i >= n || !ops[i] || LLVMGetValueKind(ops[i]) != LLVMMetadataAsValueValueKind)
		return NULL;
	return LLVMValueAsMetadata(ops[i]);
}

static const char *op_string(dinfo_reader *r, LLVMValueRef *ops, unsigned n, unsigned i)
{
	if (i >= n || !ops[i] || LLVMGetValueKind(ops[i]) != LLVMMetadataAsValueValueKind)
		return NULL;
	unsigned len = 0;
	const char *s = LLVMGetMDString(ops[i], &len);
	if (!s || len == 0)
		return NULL;
	char *tmp = xmalloc(len + 1);
	memcpy(tmp, s, len);
	tmp[len] = 0;
	const char *interned = ir_intern(r->prog, tmp);
	free(tmp);
	return interned;
}

static uint64_t op_uint(LLVMValueRef *ops, unsigned n, unsigned i)
{
	if (i >= n || !ops[i] || !LLVMIsAConstantInt(ops[i]))
		return 0;
	return LLVMConstIntGetZExtValue(ops[i]);
}

/* File name and directory of a DIFile node. */
static void file_of(dinfo_reader *r, LLVMMetadataRef file, ir_loc *loc)
{
	if (!file || LLVMGetMetadataKind(file) != LLVMDIFileMetadataKind)
		return;
	unsigned len = 0;
	const char *name = LLVMDIFileGetFilename(file, &len);
	if (name && len) {
		char *tmp = strndup(name, len);
		loc->file = ir_intern(r->prog, tmp);
		free(tmp);
	}
	const char *dir = LLVMDIFileGetDirectory(file, &len);
	if (dir && len) {
		char *tmp = strndup(dir, len);
		loc->dir = ir_intern(r->prog, tmp);
		free(tmp);
	}
}

static bool is_type_kind(LLVMMetadataKind k)
{
	return k == LLVMDIBasicTypeMetadataKind || k == LLVMDIDerivedTypeMetadataKind ||
	       k == LLVMDICompositeTypeMetadataKind || k == LLVMDISubroutineTypeMetadataKind ||
	       k == LLVMDIStringTypeMetadataKind || k == LLVMDISubrangeTypeMetadataKind ||
	       k == LLVMDIFixedPointTypeMetadataKind;
}

/* ---- types --------------------------------------------------------------------------- */

static di_kind derived_kind(uint16_t tag)
{
	switch (tag) {
	case TAG_pointer: case TAG_reference: return DI_POINTER;
	case TAG_typedef: return DI_TYPEDEF;
	case TAG_const: return DI_CONST;
	case TAG_volatile: return DI_VOLATILE;
	case TAG_restrict: return DI_RESTRICT;
	case TAG_atomic: return DI_ATOMIC;
	case TAG_member: case TAG_inheritance: return DI_MEMBER;
	default: return DI_OTHER;
	}
}

static di_kind composite_kind(uint16_t tag)
{
	switch (tag) {
	case TAG_struct: case TAG_class: return DI_STRUCT;
	case TAG_union: return DI_UNION;
	case TAG_array: return DI_ARRAY;
	case TAG_enum: return DI_ENUM;
	default: return DI_OTHER;
	}
}

static void read_members(dinfo_reader *r, di_type *t, LLVMMetadataRef elements)
{
	unsigned n;
	LLVMValueRef *ops = operands(r, elements, &n);
	t->members = ARENA_ARRAY(&r->prog->arena, di_member, n);
	for (unsigned i = 0; i < n; i++) {
		LLVMMetadataRef m = op_md(ops, n, i);
		if (!m || LLVMGetMetadataKind(m) != LLVMDIDerivedTypeMetadataKind)
			continue;
		uint16_t tag = LLVMGetDINodeTag(m);
		if (tag != TAG_member && tag != TAG_inheritance)
			continue;   /* static members, friends: not part of the layout */
		unsigned mn;
		LLVMValueRef *mops = operands(r, m, &mn);
		di_member *dm = &t->members[t->n_members++];
		dm->name = op_string(r, mops, mn, 2);
		dm->size_bits = op_uint(mops, mn, 3);
		dm->offset_bits = op_uint(mops, mn, 4);
		dm->bitfield = (LLVMDITypeGetFlags(m) & LLVMDIFlagBitField) != 0;
		dm->base = tag == TAG_inheritance;
		dm->virtual_base = dm->base && (LLVMDITypeGetFlags(m) & LLVMDIFlagVirtual) != 0;
		dm->type = dinfo_type(r, op_md(mops, mn, 5));
		free(mops);
	}
	free(ops);
}

static void read_dims(dinfo_reader *r, di_type *t, LLVMMetadataRef elements)
{
	unsigned n;
	LLVMValueRef *ops = operands(r, elements, &n);
	t->dims = ARENA_ARRAY(&r->prog->arena, uint64_t, n);
	for (unsigned i = 0; i < n; i++) {
		LLVMMetadataRef sub = op_md(ops, n, i);
		if (!sub || LLVMGetMetadataKind(sub) != LLVMDISubrangeMetadataKind)
			continue;
		unsigned sn;
		LLVMValueRef *sops = operands(r, sub, &sn);
		t->dims[t->n_dims++] = op_uint(sops, sn, 0);
		free(sops);
	}
	free(ops);
}

static void read_params(dinfo_reader *r, di_type *t, LLVMMetadataRef array)
{
	unsigned n;
	LLVMValueRef *ops = operands(r, array, &n);
	if (n == 0 && array) {
		/* `void (void)` is the array !{null}, and LLVMMetadataAsValue turns
		 * a node whose one operand is null into !{} (LLVM canonicalises
		 * metadata used as a value): read it back as the void return slot,
		 * not as an unknown signature, which every check would accept. */
		t->params = ARENA_ARRAY(&r->prog->arena, di_type *, 1);
		t->params[0] = NULL;
		t->n_params = 1;
		free(ops);
		return;
	}
	t->params = ARENA_ARRAY(&r->prog->arena, di_type *, n);
	t->n_params = n;
	for (unsigned i = 0; i < n; i++)
		t->params[i] = dinfo_type(r, op_md(ops, n, i));
	free(ops);
}

/* name qualified by the namespaces and classes of scope ("ns::Outer::name");
 * NULL when some scope is a function or block (a local class). */
static const char *scoped_name(dinfo_reader *r, LLVMMetadataRef scope, const char *name)
{
	const char *parts[16];
	unsigned k = 0;
	for (; scope && k < 16; k++) {
		LLVMMetadataKind mk = LLVMGetMetadataKind(scope);
		if (mk == LLVMDIFileMetadataKind || mk == LLVMDICompileUnitMetadataKind)
			break;
		if (mk != LLVMDINamespaceMetadataKind && mk != LLVMDICompositeTypeMetadataKind)
			return NULL;
		unsigned n;
		LLVMValueRef *ops = operands(r, scope, &n);
		const char *part = op_string(r, ops, n, 2);
		scope = op_md(ops, n, 1);
		free(ops);
		if (!part && mk == LLVMDICompositeTypeMetadataKind)
			return NULL;   /* an unnamed class: nothing names what is inside */
		parts[k] = part ? part : "(anonymous namespace)";
	}
	if (scope && k == 16)
		return NULL;
	size_t len = strlen(name) + 1;
	for (unsigned i = 0; i < k; i++)
		len += strlen(parts[i]) + 2;
	char *buf = xmalloc(len), *w = buf;
	for (unsigned i = k; i-- > 0;)
		w += sprintf(w, "%s::", parts[i]);
	strcpy(w, name);
	const char *interned = ir_intern(r->prog, buf);
	free(buf);
	return interned;
}

void dinfo_name_classes(dinfo_reader *r, const char *const *names, const char *const *keys, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		strmap_put(&r->class_keys, names[i], (void *)keys[i]);
	for (size_t i = 0; i < r->all.len; i++) {
		di_type *t = r->all.items[i];
		if (t->scoped_name && !t->identifier)
			t->identifier = strmap_get(&r->class_keys, t->scoped_name);
	}
}

di_type *dinfo_type(dinfo_reader *r, LLVMMetadataRef md)
{
	if (!md || !is_type_kind(LLVMGetMetadataKind(md)))
		return NULL;
	di_type *t = ptrmap_get(&r->types, md);
	if (t)
		return t;

	LLVMMetadataKind mk = LLVMGetMetadataKind(md);
	t = ARENA_NEW(&r->prog->arena, di_type);
	t->id = (unsigned)r->all.len;
	VEC_PUSH(&r->all, t);
	ptrmap_put(&r->types, md, t);   /* before reading operands: types are recursive */

	unsigned n;
	LLVMValueRef *ops = operands(r, md, &n);
	t->name = op_string(r, ops, n, 2);
	t->size_bits = op_uint(ops, n, 3);
	file_of(r, op_md(ops, n, 0), &t->loc);
	t->loc.line = LLVMDITypeGetLine(md);
	t->forward_decl = (LLVMDITypeGetFlags(md) & LLVMDIFlagFwdDecl) != 0;

	switch (mk) {
	case LLVMDIBasicTypeMetadataKind:
	case LLVMDIFixedPointTypeMetadataKind:
		t->kind = DI_BASIC;
		break;
	case LLVMDIDerivedTypeMetadataKind:
		t->kind = derived_kind(LLVMGetDINodeTag(md));
		t->base = dinfo_type(r, op_md(ops, n, 5));
		break;
	case LLVMDICompositeTypeMetadataKind:
		t->kind = composite_kind(LLVMGetDINodeTag(md));
		t->base = dinfo_type(r, op_md(ops, n, 5));
		if (t->kind == DI_STRUCT || t->kind == DI_UNION)
			read_members(r, t, op_md(ops, n, 6));
		if (t->kind == DI_STRUCT)
			t->identifier = op_string(r, ops, n, 9);
		if (t->kind == DI_STRUCT && !t->identifier && t->name) {
			t->scoped_name = scoped_name(r, op_md(ops, n, 1), t->name);
			if (t->scoped_name)
				t->identifier = strmap_get(&r->class_keys, t->scoped_name);
		}
		else if (t->kind == DI_ARRAY)
			read_dims(r, t, op_md(ops, n, 6));
		break;
	case LLVMDISubroutineTypeMetadataKind:
		t->kind = DI_SUBROUTINE;
		read_params(r, t, op_md(ops, n, 5));
		break;
	default:
		t->kind = DI_OTHER;
		break;
	}
	free(ops);
	return t;
}

/* ---- variables, expressions, locations --------------------------------------------------- */

/* The `arg: N` field of a DILocalVariable has no C getter; read it from the
 * node's printed form, the one scalar field we need that way. */
static unsigned local_arg_number(dinfo_reader *r, LLVMMetadataRef md)
{
	char *text = LLVMPrintValueToString(LLVMMetadataAsValue(r->ctx, md));
	unsigned arg = 0;
	const char *p = text ? strstr(text, "arg: ") : NULL;
	if (p)
		arg = (unsigned)strtoul(p + 5, NULL, 10);
	LLVMDisposeMessage(text);
	return arg;
}

di_variable *dinfo_variable(dinfo_reader *r, LLVMMetadataRef md)
{
	if (!md)
		return NULL;
	LLVMMetadataKind mk = LLVMGetMetadataKind(md);
	if (mk != LLVMDILocalVariableMetadataKind && mk != LLVMDIGlobalVariableMetadataKind)
		return NULL;
	di_variable *v = ptrmap_get(&r->vars, md);
	if (v)
		return v;
	v = ARENA_NEW(&r->prog->arena, di_variable);
	ptrmap_put(&r->vars, md, v);
	unsigned n;
	LLVMValueRef *ops = operands(r, md, &n);
	v->name = op_string(r, ops, n, 1);
	file_of(r, op_md(ops, n, 2), &v->loc);
	v->loc.line = LLVMDIVariableGetLine(md);
	v->type = dinfo_type(r, op_md(ops, n, 3));
	free(ops);
	if (mk == LLVMDILocalVariableMetadataKind)
		v->arg = local_arg_number(r, md);
	return v;
}

/* What a DIExpression says, read once per node from its printed form (the C
 * API has no element getters): empty, a fragment only, or anything else. */
typedef struct expr_info {
	bool empty, fragment, offset;
	uint64_t offset_bits, size_bits;
	int64_t offset_bytes;      /* offset: the variable is the value + offset_bytes */
} expr_info;

static const expr_info *expr_of(dinfo_reader *r, LLVMMetadataRef expr)
{
	static const expr_info other = {0};
	if (!expr || LLVMGetMetadataKind(expr) != LLVMDIExpressionMetadataKind)
		return &other;
	expr_info *known = ptrmap_get(&r->empty_exprs, expr);
	if (known)
		return known;
	expr_info *e = ARENA_NEW(&r->prog->arena, expr_info);
	char *text = LLVMPrintValueToString(LLVMMetadataAsValue(r->ctx, expr));
	unsigned long long off, size;
	int end = 0;
	if (text && strstr(text, "!DIExpression()"))
		e->empty = true;
	else if (text && sscanf(text, "!DIExpression(DW_OP_LLVM_fragment, %llu, %llu)%n", &off, &size, &end) == 2 && end > 0) {
		e->fragment = true;
		e->offset_bits = off;
		e->size_bits = size;
	} else if (text && sscanf(text, "!DIExpression(DW_OP_constu, %llu, DW_OP_minus, DW_OP_stack_value)%n", &off,
	                          &end) == 1 && end > 0 && off <= INT64_MAX) {
		e->offset = true;
		e->offset_bytes = -(int64_t)off;
	} else if (text && sscanf(text, "!DIExpression(DW_OP_plus_uconst, %llu, DW_OP_stack_value)%n", &off, &end) == 1 &&
	           end > 0 && off <= INT64_MAX) {
		e->offset = true;
		e->offset_bytes = (int64_t)off;
	}
	LLVMDisposeMessage(text);
	ptrmap_put(&r->empty_exprs, expr, e);
	return e;
}

bool dinfo_expr_is_empty(dinfo_reader *r, LLVMMetadataRef expr)
{
	return expr_of(r, expr)->empty;
}

bool dinfo_expr_fragment(dinfo_reader *r, LLVMMetadataRef expr, uint64_t *offset_bits, uint64_t *size_bits)
{
	const expr_info *e = expr_of(r, expr);
	*offset_bits = e->offset_bits;
	*size_bits = e->size_bits;
	return e->fragment;
}

bool dinfo_expr_offset(dinfo_reader *r, LLVMMetadataRef expr, int64_t *bytes)
{
	const expr_info *e = expr_of(r, expr);
	*bytes = e->offset_bytes;
	return e->offset;
}

ir_loc dinfo_location(dinfo_reader *r, LLVMMetadataRef loc)
{
	ir_loc out = {0};
	if (!loc || LLVMGetMetadataKind(loc) != LLVMDILocationMetadataKind)
		return out;
	out.line = LLVMDILocationGetLine(loc);
	out.col = LLVMDILocationGetColumn(loc);
	LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
	if (scope && is_node(scope) && LLVMGetMetadataKind(scope) != LLVMDIFileMetadataKind) {
		unsigned n;
		LLVMValueRef *ops = operands(r, scope, &n);
		file_of(r, op_md(ops, n, 0), &out);
		free(ops);
	} else {
		file_of(r, scope, &out);
	}
	return out;
}

LLVMMetadataRef dinfo_subprogram_of(dinfo_reader *r, LLVMMetadataRef scope)
{
	for (int depth = 0; scope && depth < 1000; depth++) {
		LLVMMetadataKind k = LLVMGetMetadataKind(scope);
		if (k == LLVMDISubprogramMetadataKind)
			return scope;
		if (k != LLVMDILexicalBlockMetadataKind && k != LLVMDILexicalBlockFileMetadataKind)
			return NULL;
		unsigned n;
		LLVMValueRef *ops = operands(r, scope, &n);
		scope = op_md(ops, n, 1);
		free(ops);
	}
	return NULL;
}

void dinfo_subprogram(dinfo_reader *r, LLVMMetadataRef sp, const char **name, ir_loc *loc,
                      di_type **sig)
{
	*name = NULL;
	if (sig)
		*sig = NULL;
	memset(loc, 0, sizeof *loc);
	if (!sp || LLVMGetMetadataKind(sp) != LLVMDISubprogramMetadataKind)
		return;
	unsigned n;
	LLVMValueRef *ops = operands(r, sp, &n);
	*name = op_string(r, ops, n, 2);
	file_of(r, op_md(ops, n, 0), loc);
	loc->line = LLVMDISubprogramGetLine(sp);
	if (sig)
		*sig = dinfo_type(r, op_md(ops, n, 4));
	free(ops);
}
