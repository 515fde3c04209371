/* ctype.c — clang's types as the program model's debug-info types
 * (ir/model.h di_type), so the signature check is facet/sig.h's own
 * relation, the one the refinement applies to bitcode: a function written
 * into a field fits the field by the same rule whichever front end saw it.
 *
 * Qualifiers are left out (sig.h drops them anyway); structs, unions and
 * enums are named by tag and not expanded (equality is by tag), so the
 * conversion never recurses through a record and cannot loop. A type clang
 * could not form (an unknown type name behind a missing header) makes the
 * whole signature unknown: no evidence, so no refutation. */
#include "source/ctype.h"

#include <string.h>

#include "util/arena.h"

typedef struct conv {
	arena *a;
	bool bad;                  /* met an invalid type */
} conv;

static di_type *new_type(conv *c, di_kind k, const char *name)
{
	di_type *t = ARENA_NEW(c->a, di_type);
	t->kind = k;
	t->name = name ? arena_strdup(c->a, name) : NULL;
	return t;
}

static char *spelling(conv *c, CXString s)
{
	char *r = arena_strdup(c->a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

static di_type *convert(conv *c, CXType t, int depth);

static di_type *subroutine(conv *c, CXType t, int depth)
{
	di_type *f = new_type(c, DI_SUBROUTINE, NULL);
	if (t.kind == CXType_FunctionNoProto) {   /* `int f()`: {ret, NULL}, as the debug info spells it */
		f->n_params = 2;
		f->params = ARENA_ARRAY(c->a, di_type *, 2);
		f->params[0] = convert(c, clang_getResultType(t), depth + 1);
		return f;
	}
	int n = clang_getNumArgTypes(t);
	if (n < 0)
		n = 0;
	bool va = clang_isFunctionTypeVariadic(t);
	f->n_params = 1 + (unsigned)n + (va ? 1 : 0);
	f->params = ARENA_ARRAY(c->a, di_type *, f->n_params);
	f->params[0] = convert(c, clang_getResultType(t), depth + 1);
	for (int i = 0; i < n; i++)
		f->params[1 + i] = convert(c, clang_getArgType(t, (unsigned)i), depth + 1);
	return f;   /* a variadic list's last entry stays NULL: the `...` marker */
}

static di_type *convert(conv *c, CXType t, int depth)
{
	if (depth > 16)
		return new_type(c, DI_OTHER, NULL);
	switch (t.kind) {
	case CXType_Invalid:
		c->bad = true;
		return NULL;
	case CXType_Void:
		return NULL;
	case CXType_Elaborated:
		return convert(c, clang_Type_getNamedType(t), depth);
	case CXType_Attributed:
		return convert(c, clang_Type_getModifiedType(t), depth);
	case CXType_Typedef: {
		CXCursor d = clang_getTypeDeclaration(t);
		di_type *td = new_type(c, DI_TYPEDEF, NULL);
		td->name = spelling(c, clang_getCursorSpelling(d));
		td->base = convert(c, clang_getTypedefDeclUnderlyingType(d), depth + 1);
		return td;
	}
	case CXType_Pointer: {
		di_type *p = new_type(c, DI_POINTER, NULL);
		p->base = convert(c, clang_getPointeeType(t), depth + 1);
		return p;
	}
	case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
	case CXType_DependentSizedArray: {
		di_type *a = new_type(c, DI_ARRAY, NULL);
		a->base = convert(c, clang_getArrayElementType(t), depth + 1);
		return a;
	}
	case CXType_Record: case CXType_Enum: {
		CXCursor d = clang_getTypeDeclaration(t);
		di_kind k = t.kind == CXType_Enum ? DI_ENUM : d.kind == CXCursor_UnionDecl ? DI_UNION : DI_STRUCT;
		di_type *r = new_type(c, k, NULL);
		if (!clang_Cursor_isAnonymous(d))
			r->name = spelling(c, clang_getCursorSpelling(d));
		long long size = clang_Type_getSizeOf(t);
		r->size_bits = size > 0 ? (uint64_t)size * 8 : 0;
		return r;
	}
	case CXType_FunctionProto: case CXType_FunctionNoProto:
		return subroutine(c, t, depth);
	default: {
		CXType canon = clang_getCanonicalType(t);
		if (canon.kind != t.kind)   /* a sugar kind not named above: its meaning */
			return convert(c, canon, depth + 1);
		di_type *b = new_type(c, DI_BASIC, NULL);
		b->name = spelling(c, clang_getTypeSpelling(clang_getUnqualifiedType(canon)));
		long long size = clang_Type_getSizeOf(t);
		b->size_bits = size > 0 ? (uint64_t)size * 8 : 0;
		return b;
	}
	}
}

/* A function type, or what a function pointer points to; its kind is
 * FunctionProto or FunctionNoProto (the canonical type when t names it
 * through a typedef), Invalid when t is neither. */
static CXType function_type(CXType t)
{
	for (int i = 0; i < 8; i++) {
		CXType canon = clang_getCanonicalType(t);
		if (canon.kind == CXType_FunctionProto || canon.kind == CXType_FunctionNoProto)
			return t.kind == CXType_Elaborated || t.kind == CXType_Typedef || t.kind == CXType_Attributed
			               ? canon : t;
		if (canon.kind != CXType_Pointer)
			break;
		t = clang_getPointeeType(canon);
	}
	CXType none = {CXType_Invalid, {NULL, NULL}};
	return none;
}

di_type *ctype_signature(arena *a, CXType t)
{
	CXType f = function_type(t);
	if (f.kind == CXType_Invalid)
		return NULL;
	conv c = {a, false};
	di_type *sig = subroutine(&c, f, 0);
	return c.bad ? NULL : sig;
}

static bool is_function(CXType canon)
{
	return canon.kind == CXType_FunctionProto || canon.kind == CXType_FunctionNoProto;
}

static CXType element(CXType canon)
{
	while (canon.kind == CXType_ConstantArray || canon.kind == CXType_IncompleteArray ||
	       canon.kind == CXType_VariableArray)
		canon = clang_getCanonicalType(clang_getArrayElementType(canon));
	return canon;
}

bool ctype_is_function_pointer(CXType t)
{
	CXType canon = element(clang_getCanonicalType(t));
	if (is_function(canon))   /* a parameter declared with a function type: libclang keeps the written type */
		return true;
	return canon.kind == CXType_Pointer && is_function(clang_getCanonicalType(clang_getPointeeType(canon)));
}

bool ctype_holds_function_pointer(CXType t)
{
	CXType canon = element(clang_getCanonicalType(t));
	for (int i = 0; i < 8 && canon.kind == CXType_Pointer; i++) {
		CXType p = clang_getPointeeType(canon);
		if (ctype_is_function_pointer(p))
			return true;
		canon = element(clang_getCanonicalType(p));
	}
	return ctype_is_function_pointer(t);
}

di_type *ctype_definition_signature(arena *a, CXCursor def)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(def));
	if (t.kind != CXType_FunctionNoProto || !clang_isCursorDefinition(def))
		return ctype_signature(a, clang_getCursorType(def));
	/* `T f() { ... }` or K&R `T f(a) int a; { ... }`: the definition fixes
	 * the parameters, as a prototype with the declared types would */
	int n = clang_Cursor_getNumArguments(def);
	conv c = {a, false};
	di_type *f = new_type(&c, DI_SUBROUTINE, NULL);
	f->n_params = 1 + (unsigned)(n > 0 ? n : 0);
	f->params = ARENA_ARRAY(a, di_type *, f->n_params);
	f->params[0] = convert(&c, clang_getResultType(t), 1);
	for (int i = 0; i < n; i++)
		f->params[1 + i] = convert(&c, clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i)), 1);
	return c.bad ? NULL : f;
}
