/* parse.c — one C unit through libclang into the stage's facts (internal.h):
 * the functions it defines, its calls with what each callee is, and every
 * place a function value is written: initializers, assignments, variable
 * initializations and arguments.
 *
 * Positions are expansion positions (where a macro was used), the way
 * clang's debug info places code, so a call a macro expands to sits on the
 * macro's line, as on bitcode; a call's position is its file position as
 * clang's debug info takes it (SourceManager::getFileLoc): a call written
 * in a macro's argument sits where the argument is written, which is
 * another line when the macro's arguments span lines. Declarations in system headers are skipped
 * whole; a definition in a project header is read once, by the first unit
 * that includes it. libclang visits an initializer list in its written
 * (syntactic) form: a designated element is an unexposed expression whose
 * children are the designators (member references, array indexes) and then
 * the value, which is how the designated and positional cases are told
 * apart below. */
#include "source/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#include "source/ctype.h"
#include "util/ptrmap.h"
#include "util/xalloc.h"

typedef struct walk {
	src_facts *f;
	CXTranslationUnit tu;
	unsigned unit;
	unsigned cur_def;          /* the function whose body is read, SRC_NONE at file scope */
	CXCursor cur_fn;
	ptrmap files;              /* CXFile -> interned normalised name */
	/* The current body's direct callees (DeclRefExprs), so the visit that
	 * meets them after their call does not count them as taken addresses,
	 * by their source location (one per token, macro expansions too):
	 * clang_equalCursors cannot tell, since a cursor reached through
	 * another path names another parent declaration. */
	ptrmap callee_at;          /* the location's raw encoding (loc_key) -> VEC index + 1 */
	VEC(CXSourceLocation) callees;
	/* The parse with the configuration switches on (src_parse_unit): what
	 * it adds is only what the first parse of the unit lacks, by identity
	 * (seen: call and write identities, keys malloc'd). */
	bool alt;
	bool dedup;                /* seen is kept: the unit has a second parse */
	strmap seen;
} walk;

typedef VEC(CXCursor) cursor_vec;

/* ---- small helpers ----------------------------------------------------------------- */

static const char *take(walk *w, CXString s)
{
	const char *r = src_intern(w->f, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* "a/./b/../c" -> "a/c" in place; a leading "./" goes; ".." that cannot
 * fold stays (a relative path above the start). */
static void normalise(char *p)
{
	bool abs = *p == '/';
	char *seg[512];
	unsigned n = 0;
	for (char *save = NULL, *t = strtok_r(p, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (strcmp(t, ".") == 0)
			continue;
		if (strcmp(t, "..") == 0 && n > 0 && strcmp(seg[n - 1], "..") != 0) {
			n--;
			continue;
		}
		if (n < 512)
			seg[n++] = t;
	}
	char *out = xmalloc(strlen(p) + 2 + 3 * 512), *o = out;   /* segments still point into p */
	if (abs)
		*o++ = '/';
	for (unsigned i = 0; i < n; i++) {
		size_t len = strlen(seg[i]);
		memcpy(o, seg[i], len);
		o += len;
		if (i + 1 < n)
			*o++ = '/';
	}
	*o = 0;
	strcpy(p, out);
	free(out);
}

static const char *file_name(walk *w, CXFile file)
{
	if (!file)
		return NULL;
	const char *hit = ptrmap_get(&w->files, file);
	if (hit)
		return hit;
	CXString s = clang_getFileName(file);
	char *buf = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	normalise(buf);
	const char *name = src_intern(w->f, buf);
	free(buf);
	ptrmap_put(&w->files, file, (void *)name);
	return name;
}

static void where(walk *w, CXCursor c, const char **file, unsigned *line, unsigned *col)
{
	CXFile f = NULL;
	unsigned l = 0, k = 0;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l, &k, NULL);
	*file = file_name(w, f);
	*line = l;
	*col = k;
}

/* Where call c is as clang's debug info places a call: a call a macro's
 * body makes sits at the macro's use, a call written in a macro's argument
 * where it is written (clang_getFileLocation is getFileLoc): in
 * `log(fmt,\n strerror(errno))` strerror is on the second line. */
static void call_where(walk *w, CXCursor c, const char **file, unsigned *line, unsigned *col)
{
	CXFile f = NULL;
	unsigned l = 0, k = 0;
	clang_getFileLocation(clang_getCursorLocation(c), &f, &l, &k, NULL);
	*file = file_name(w, f);
	*line = l;
	*col = k;
}

/* "file:line:col" of c, interned. */
static const char *place(walk *w, CXCursor c)
{
	const char *file;
	unsigned line, col;
	where(w, c, &file, &line, &col);
	char buf[4200];
	snprintf(buf, sizeof buf, "%s:%u:%u", file ? file : "?", line, col);
	return src_intern(w->f, buf);
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	cursor_vec *v = data;
	VEC_PUSH(v, c);
	return CXChildVisit_Continue;
}

/* c's children; the caller frees the vector. */
static void children(CXCursor c, cursor_vec *out)
{
	VEC_CLEAR(out);
	clang_visitChildren(c, collect, out);
}

static unsigned n_children(CXCursor c, CXCursor *first, CXCursor *last)
{
	cursor_vec v = {0};
	children(c, &v);
	unsigned n = (unsigned)v.len;
	if (n && first)
		*first = v.items[0];
	if (n && last)
		*last = v.items[n - 1];
	VEC_FREE(&v);
	return n;
}

/* Through parentheses, casts and implicit conversions (an unexposed
 * expression with one child); with deref, through `*` too (a call `(*fp)()`). */
static CXCursor strip(CXCursor c, bool deref)
{
	for (int i = 0; i < 64; i++) {
		CXCursor first, last;
		enum CXCursorKind k = clang_getCursorKind(c);
		unsigned n;
		if (k == CXCursor_ParenExpr && n_children(c, &first, NULL) == 1)
			c = first;
		else if (k == CXCursor_UnexposedExpr && n_children(c, &first, NULL) == 1)
			c = first;
		else if (k == CXCursor_CStyleCastExpr && (n = n_children(c, NULL, &last)) >= 1)
			c = last;
		else if (k == CXCursor_UnaryOperator &&
		         (clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf ||
		          (deref && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref)) &&
		         n_children(c, &first, NULL) == 1)
			c = first;
		else
			break;
	}
	return c;
}

/* ---- definitions and locations --------------------------------------------------------- */

static const char *unit_key(src_facts *f, unsigned unit, const char *name)
{
	char buf[4200];
	snprintf(buf, sizeof buf, "%u\x01%s", unit, name);
	return src_intern(f, buf);
}

/* This unit holds definition d of name (the first one seen wins). */
static void unit_def(walk *w, const char *name, unsigned d)
{
	const char *k = unit_key(w->f, w->unit, name);
	if (!strmap_has(&w->f->unit_defs, k))
		strmap_put(&w->f->unit_defs, k, (void *)(uintptr_t)(d + 1));
}

unsigned src_unit_def(src_facts *f, unsigned unit, const char *name)
{
	char buf[4200];
	snprintf(buf, sizeof buf, "%u\x01%s", unit, name);
	void *hit = strmap_get(&f->unit_defs, buf);
	return hit ? (unsigned)((uintptr_t)hit - 1) : SRC_NONE;
}

static unsigned def_of(walk *w, CXCursor d)
{
	const char *file;
	unsigned line, col;
	where(w, d, &file, &line, &col);
	const char *name = take(w, clang_getCursorSpelling(d));
	char buf[4400];
	snprintf(buf, sizeof buf, "%s:%u:%s", file ? file : "?", line, name);
	const char *key = src_intern(w->f, buf);
	void *hit = strmap_get(&w->f->def_by_key, key);
	if (hit) {
		unit_def(w, name, (unsigned)((uintptr_t)hit - 1));
		return (unsigned)((uintptr_t)hit - 1);
	}
	/* With the switches on, a definition at the place of one the first
	 * parses have is that function, renamed by a macro (libxml2's
	 * `#define xmlFree xmlFree__internal_alias` under PIC); another body of
	 * a function the unit's first parse defines (`#if X f() {..} #else f()
	 * {..} #endif`) is the same function, whose calls are the union of both
	 * bodies' (the build compiles one of them). */
	snprintf(buf, sizeof buf, "%s:%u:%u", file ? file : "?", line, col);
	void *same = w->alt ? strmap_get(&w->f->def_by_place, buf) : NULL;
	if (same) {
		if (!strmap_has(&w->f->renamed, name))   /* a call of the new name in another unit is of it */
			strmap_put(&w->f->renamed, name, same);
		return (unsigned)((uintptr_t)same - 1);
	}
	unsigned prev = w->alt ? src_unit_def(w->f, w->unit, name) : SRC_NONE;
	if (prev != SRC_NONE)
		return prev;
	if (!strmap_has(&w->f->def_by_place, buf))
		strmap_put(&w->f->def_by_place, src_intern(w->f, buf), (void *)(uintptr_t)(w->f->defs.len + 1));
	src_def def = {.name = name, .key = key, .file = file, .line = line, .unit = w->unit, .fn = SRC_NONE};
	def.is_static = clang_getCursorLinkage(d) == CXLinkage_Internal;
	if (!clang_isInvalidDeclaration(d))
		def.sig = ctype_definition_signature(&w->f->arena, d);
	VEC_PUSH(&w->f->defs, def);
	strmap_put(&w->f->def_by_key, key, (void *)(uintptr_t)w->f->defs.len);
	unit_def(w, name, (unsigned)w->f->defs.len - 1);
	return (unsigned)w->f->defs.len - 1;
}

static bool builtin_name(const char *n)
{
	return strncmp(n, "__builtin_", 10) == 0 || strncmp(n, "__sync_", 7) == 0 || strncmp(n, "__atomic_", 9) == 0;
}

/* A reference to function declaration d from this unit. */
static src_fnref fnref(walk *w, CXCursor d)
{
	src_fnref r = {take(w, clang_getCursorSpelling(d)), SRC_NONE, false, w->unit};
	r.builtin = builtin_name(r.name);
	CXCursor def = clang_getCursorDefinition(d);
	if (!r.builtin && !clang_Cursor_isNull(def) && !clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
		r.local_def = def_of(w, def);
	return r;
}

static const char *key_info(walk *w, const char *key, src_key_kind kind, const char *record, const char *name,
                            CXCursor decl)
{
	if (!strmap_get(&w->f->keys, key)) {
		src_keyinfo *ki = ARENA_NEW(&w->f->arena, src_keyinfo);
		ki->kind = kind;
		ki->record = record;
		ki->name = name;
		CXType t = clang_getCanonicalType(clang_getCursorType(decl));
		while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray)
			t = clang_getCanonicalType(clang_getArrayElementType(t));
		ki->type = take(w, clang_getTypeSpelling(clang_getCursorType(decl)));
		ki->canon = take(w, clang_getTypeSpelling(t));
		strmap_put(&w->f->keys, key, ki);
	}
	return key;
}

static const char *record_name(walk *w, CXCursor r)
{
	if (clang_Cursor_isAnonymous(r)) {
		char buf[4300];
		snprintf(buf, sizeof buf, "@%s", place(w, r));
		return src_intern(w->f, buf);
	}
	return take(w, clang_getCursorSpelling(r));
}

/* S.m for a member: the named struct holding it (through anonymous members),
 * and a member of an anonymous union as the union, one location. */
static const char *field_key(walk *w, CXCursor field)
{
	const char *name = take(w, clang_getCursorSpelling(field));
	CXCursor rec = clang_getCursorSemanticParent(field);
	const char *member = name;
	char buf[8800];
	if (clang_Cursor_isAnonymousRecordDecl(rec) && clang_getCursorKind(rec) == CXCursor_UnionDecl) {
		snprintf(buf, sizeof buf, "{union@%s}", place(w, rec));
		member = src_intern(w->f, buf);
	}
	for (int i = 0; i < 16 && clang_Cursor_isAnonymousRecordDecl(rec); i++) {
		CXCursor up = clang_getCursorSemanticParent(rec);
		if (clang_Cursor_isNull(up) || clang_getCursorKind(up) == CXCursor_TranslationUnit)
			break;
		rec = up;
	}
	const char *record = record_name(w, rec);
	snprintf(buf, sizeof buf, "%s.%s", record, member);
	return key_info(w, src_intern(w->f, buf), KEY_FIELD, record, member, field);
}

/* The parameter index of d in the function being read, -1 when not one. */
static int param_index(walk *w, CXCursor d)
{
	if (w->cur_def == SRC_NONE)
		return -1;
	int n = clang_Cursor_getNumArguments(w->cur_fn);
	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(w->cur_fn, (unsigned)i), d))
			return i;
	return -1;
}

const char *src_param_key(src_facts *f, const src_def *d, unsigned i)
{
	char buf[4600];
	snprintf(buf, sizeof buf, "param:%s:%u", d->key, i);
	return src_intern(f, buf);
}

const char *src_ret_key(src_facts *f, const src_def *d)
{
	char buf[4600];
	snprintf(buf, sizeof buf, "ret:%s", d->key);
	return src_intern(f, buf);
}

/* What a call of the function d names returns, as a location (internal.h
 * src_retof): one per unit and name, since the name resolves per unit. */
static const char *retof_key(walk *w, CXCursor call, CXCursor d)
{
	src_fnref fn = fnref(w, d);
	if (fn.builtin)
		return NULL;
	char buf[4400];
	snprintf(buf, sizeof buf, "retof:%u:%s", w->unit, fn.name);
	const char *key = src_intern(w->f, buf);
	if (!strmap_get(&w->f->keys, key)) {
		src_retof ro = {.key = key, .fn = fn, .in_def = w->cur_def};
		where(w, call, &ro.file, &ro.line, &ro.col);
		VEC_PUSH(&w->f->retofs, ro);
	}
	return key_info(w, key, KEY_RET, NULL, fn.name, call);
}

static const char *var_key(walk *w, CXCursor d)
{
	const char *name = take(w, clang_getCursorSpelling(d));
	char buf[8800];
	if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
		int i = param_index(w, d);
		if (i >= 0)
			return key_info(w, src_param_key(w->f, &w->f->defs.items[w->cur_def], (unsigned)i), KEY_PARAM,
			                NULL, name, d);
	}
	enum CXLinkageKind l = clang_getCursorLinkage(d);
	if (l == CXLinkage_External) {
		snprintf(buf, sizeof buf, "var:%s", name);
		return key_info(w, src_intern(w->f, buf), KEY_VAR, NULL, name, d);
	}
	if (l == CXLinkage_Internal) {
		snprintf(buf, sizeof buf, "var:%s:%s", place(w, clang_getCanonicalCursor(d)), name);
		return key_info(w, src_intern(w->f, buf), KEY_VAR, NULL, name, d);
	}
	snprintf(buf, sizeof buf, "local:%s:%s", place(w, clang_getCanonicalCursor(d)), name);
	return key_info(w, src_intern(w->f, buf), KEY_LOCAL, NULL, name, d);
}

/* The location an lvalue or a callee expression reads: a member, a
 * variable, a parameter, an element of one of them. NULL otherwise. */
static const char *location_key(walk *w, CXCursor e);
static void add_flow(walk *w, const char *key, const src_value *v, assign_form form, CXCursor at, const char *global);

/* t is a pointer to a function pointer (`handler_pt *`), not an array. */
static bool points_to_fp(CXType t)
{
	CXType canon = clang_getCanonicalType(t);
	if (canon.kind != CXType_Pointer)
		return false;
	CXType p = clang_getCanonicalType(clang_getPointeeType(canon));
	return p.kind == CXType_Pointer && (clang_getCanonicalType(clang_getPointeeType(p)).kind == CXType_FunctionProto ||
	                                    clang_getCanonicalType(clang_getPointeeType(p)).kind == CXType_FunctionNoProto);
}

/* The memory a pointer of type `T *` reaches, T a function-pointer type:
 * one location per T (canonical), for the function pointers a program
 * keeps in memory it reaches only through pointers (an array allocated and
 * filled through one pointer, read through another after passing through
 * an untyped container). */
static const char *memory_key(walk *w, CXType ptr, CXCursor at, bool cast)
{
	CXType elem = clang_getCanonicalType(clang_getPointeeType(clang_getCanonicalType(ptr)));
	CXString sp = clang_getTypeSpelling(elem);
	char buf[4200];
	snprintf(buf, sizeof buf, "%s:%s", cast ? "cast" : "mem", clang_getCString(sp));
	clang_disposeString(sp);
	const char *key = src_intern(w->f, buf);
	key_info(w, key, KEY_VAR, NULL, key + (cast ? 5 : 4), at);
	if (cast) {
		src_keyinfo *ki = strmap_get(&w->f->keys, key);
		ki->canon = key + 5;
		ki->by_type = true;
	}
	return key;
}

/* `*p` or `p[i]` (e is the `*` or the subscript, base its operand): with p
 * a pointer to function pointers, p's own location and the memory of its
 * type are one, both ways; through a cast of other memory
 * (`*(code_pt *) ip`, a byte stream of structs whose first member is the
 * code) nothing says which location is read: every location of that type
 * (resolve.c's by-type copies). */
static const char *through_pointer(walk *w, CXCursor e, CXCursor base)
{
	CXType bt = clang_getCursorType(base);
	CXCursor inner = strip(base, false);
	if (!points_to_fp(bt))
		return location_key(w, base);
	if (!ctype_holds_function_pointer(clang_getCursorType(inner)))
		return memory_key(w, bt, e, true);
	const char *key = location_key(w, inner);
	enum CXCursorKind ik = clang_getCursorKind(inner);
	if (!key || clang_getCanonicalType(clang_getCursorType(inner)).kind != CXType_Pointer ||
	    (ik != CXCursor_DeclRefExpr && ik != CXCursor_MemberRefExpr))
		return key;   /* an array is its own location, so is what a call returns */
	const char *mem = memory_key(w, bt, e, false);
	src_value a = {.is_key = true, .key = mem}, b = {.is_key = true, .key = key};
	add_flow(w, key, &a, FORM_STORE, e, NULL);
	add_flow(w, mem, &b, FORM_STORE, e, NULL);
	return key;
}

static const char *location_key(walk *w, CXCursor e)
{
	e = strip(e, false);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_ArraySubscriptExpr ||
	    (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref)) {
		CXCursor base;
		if (n_children(e, &base, NULL) < 1)
			return NULL;
		return through_pointer(w, e, base);
	}
	if (k == CXCursor_CallExpr) {   /* `lookup(name)(x)`, `(*get_handler())(x)`, `*get_handler() = h` */
		CXCursor callee;
		if (n_children(e, &callee, NULL) < 1 || !ctype_holds_function_pointer(clang_getCursorType(e)))
			return NULL;
		callee = strip(callee, true);
		CXCursor d = clang_getCursorKind(callee) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(callee)
		                                                                 : clang_getNullCursor();
		return clang_getCursorKind(d) == CXCursor_FunctionDecl ? retof_key(w, e, d) : NULL;
	}
	if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
		return NULL;
	CXCursor d = clang_getCursorReferenced(e);
	enum CXCursorKind dk = clang_getCursorKind(d);
	if (dk == CXCursor_FieldDecl)
		return field_key(w, d);
	if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl)
		return var_key(w, d);
	return NULL;
}

/* t is `void *` (any qualifiers): a generic pointer a function may be
 * converted to and back (C allows it of every POSIX system's pointers:
 * dlsym, a callback passed as `void *` and cast back where it is stored). */
static bool is_void_pointer(CXType t)
{
	CXType c = clang_getCanonicalType(t);
	return c.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(c)).kind == CXType_Void;
}

/* What else an expression's leaves are, beside the values values_of
 * returns: a constant (`NULL`, `SIG_IGN`: no function), or something naming
 * neither a function nor a location (`(fn_t) dlsym(h, s)`, `ops->get(x)`,
 * `va_arg(ap, fn_t)`): opaque, the first such leaf's kind. */
typedef struct leaves {
	bool constant;
	const char *opaque;
} leaves;

static bool is_constant(CXCursor e)
{
	enum CXCursorKind k = clang_getCursorKind(e);
	return k == CXCursor_IntegerLiteral || k == CXCursor_GNUNullExpr || k == CXCursor_CXXNullPtrLiteralExpr ||
	       k == CXCursor_CharacterLiteral;
}

static void opaque_leaf(walk *w, CXCursor e, leaves *lv)
{
	if (!lv || lv->opaque)
		return;
	enum CXCursorKind k = clang_getCursorKind(e);
	lv->opaque = k == CXCursor_CallExpr ? "what a call returns"
	             : k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr ? "a location of another type"
	                                                                        : "an expression naming no function";
	(void)w;
}

/* The values an expression may have as a function pointer: functions it
 * names (through `&`, casts and both arms of `?:`) and locations it copies.
 * With generic (the value goes into a function-pointer location) a `void *`
 * location counts too: what a function converted to `void *` went into
 * comes back out through a cast (`j->run = (job_fn) fn` with `void *fn`).
 * lv (may be NULL) learns of the other leaves. */
static unsigned values_of(walk *w, CXCursor e, src_value *out, unsigned max, int depth, bool generic, leaves *lv)
{
	if (max == 0 || depth > 8)
		return 0;
	e = strip(e, false);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_ConditionalOperator) {
		cursor_vec v = {0};
		children(e, &v);
		unsigned n = 0;
		for (size_t i = v.len >= 3 ? 1 : 0; i < v.len; i++)
			n += values_of(w, v.items[i], out + n, max - n, depth + 1, generic, lv);
		VEC_FREE(&v);
		return n;
	}
	if (is_constant(e)) {
		if (lv)
			lv->constant = true;
		return 0;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		if (clang_getCursorKind(d) == CXCursor_FunctionDecl) {
			out[0] = (src_value){.fn = fnref(w, d)};
			return out[0].fn.builtin ? 0 : 1;
		}
	}
	bool deref = k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref;
	if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr ||
	    k == CXCursor_CallExpr || deref) {
		CXType t = clang_getCursorType(e);
		const char *key = ctype_holds_function_pointer(t) || (generic && is_void_pointer(t)) ? location_key(w, e)
		                                                                                    : NULL;
		if (!key) {
			opaque_leaf(w, e, lv);
			return 0;
		}
		out[0] = (src_value){.is_key = true, .key = key};
		return 1;
	}
	opaque_leaf(w, e, lv);
	return 0;
}

/* The values of e as a function pointer, without `void *` locations. */
static unsigned values(walk *w, CXCursor e, src_value *out, unsigned max, int depth, leaves *lv)
{
	return values_of(w, e, out, max, depth, false, lv);
}

/* The leaves' flows beside the values: a constant writes the location with
 * nothing, an opaque leaf makes its evidence incomplete (src_value). */
static unsigned leaf_values(const leaves *lv, unsigned n, src_value *out, unsigned max)
{
	if (lv->opaque && n < max)
		out[n++] = (src_value){.opaque = lv->opaque};
	if (lv->constant && n < max)
		out[n++] = (src_value){.constant = true};
	return n;
}

/* Whether the parse with the switches on meets identity id ("C" call, "F"
 * write and its fields) the first time; the first parse records every id. */
static bool first_seen(walk *w, const char *id)
{
	if (strmap_has(&w->seen, id))
		return false;
	strmap_put(&w->seen, xstrdup(id), NULL);
	return true;
}

static bool new_flow(walk *w, const src_flow *fl)
{
	char buf[9000];
	const src_value *v = &fl->value;
	snprintf(buf, sizeof buf, "F%s\x01%d%d%s\x01%s:%u:%u:%u", fl->key, v->is_key, v->constant,
	         v->is_key ? v->key : v->opaque ? v->opaque : v->constant ? "" : v->fn.name, fl->file ? fl->file : "?",
	         fl->line, fl->col, fl->in_def);
	return first_seen(w, buf) || !w->alt;
}

static void add_flow(walk *w, const char *key, const src_value *v, assign_form form, CXCursor at, const char *global)
{
	src_flow fl = {.key = key, .value = *v, .form = form, .in_def = w->cur_def, .global = global, .unit = w->unit};
	where(w, at, &fl.file, &fl.line, &fl.col);
	if (!w->dedup || new_flow(w, &fl))
		VEC_PUSH(&w->f->flows, fl);
}

/* "R (*)(A)" for a function type spelled "R (A)": the pointer to it as
 * clang spells one (the '(' matching the last ')' opens the parameters).
 * NULL when the spelling has no parameter list at its end. */
static const char *pointer_spelling(walk *w, const char *fn)
{
	size_t n = strlen(fn);
	if (n == 0 || fn[n - 1] != ')' || n > 4000)
		return NULL;
	int depth = 0;
	size_t i = n;
	while (i-- > 0) {
		depth += fn[i] == ')' ? 1 : fn[i] == '(' ? -1 : 0;
		if (depth == 0)
			break;
	}
	if (depth != 0 || i == 0)
		return NULL;
	char buf[4100];
	snprintf(buf, sizeof buf, "%.*s(*)%s", (int)i, fn, fn + i);
	return src_intern(w->f, buf);
}

/* A function written through a cast to another function-pointer type
 * (`c->code = (code_pt) (void *) len_code`: a slot of one type holding
 * codes of several) is read back through a cast to its own type
 * (`*(len_code_pt *) ip`): it also goes to the memory of its own pointer
 * type, which the by-type reads of that type include. */
static void cast_away(walk *w, CXCursor value, CXCursor at, const char *global, assign_form form)
{
	CXCursor c = value;
	while (clang_getCursorKind(c) == CXCursor_ParenExpr && n_children(c, &c, NULL) == 1)
		;
	if (clang_getCursorKind(c) != CXCursor_CStyleCastExpr)
		return;
	CXCursor inner = strip(c, false);
	CXCursor d = clang_getCursorKind(inner) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(inner)
	                                                               : clang_getNullCursor();
	if (clang_getCursorKind(d) != CXCursor_FunctionDecl)
		return;
	const char *own = pointer_spelling(w, take(w, clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(d)))));
	const char *as = take(w, clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(c))));
	if (!own || strcmp(own, as) == 0)
		return;
	char buf[4200];
	snprintf(buf, sizeof buf, "mem:%s", own);
	const char *mem = src_intern(w->f, buf);
	key_info(w, mem, KEY_VAR, NULL, mem + 4, at);
	((src_keyinfo *)strmap_get(&w->f->keys, mem))->canon = own;
	src_value v = {.fn = fnref(w, d)};
	if (!v.fn.builtin)
		add_flow(w, mem, &v, form, at, global);
}

/* The flows of value into key. to is the location's type: only a
 * location holding function pointers itself takes the value's other
 * leaves; into a pointer to them (`handler_pt *h = array_push(a)`) a
 * pointer goes, whose pointees are the memory of their type (memory_key). */
static void flows_of(walk *w, const char *key, CXCursor value, assign_form form, CXCursor at, const char *global,
                     CXType to)
{
	src_value v[18];
	leaves lv = {0};
	unsigned n = values_of(w, value, v, 16, 0, true, &lv);
	if (ctype_is_function_pointer(to))
		n = leaf_values(&lv, n, v, 18);
	for (unsigned i = 0; i < n; i++)
		add_flow(w, key, &v[i], form, at, global);
	cast_away(w, value, at, global, form);
}

/* ---- initializers ------------------------------------------------------------------------ */

typedef struct init_ctx {
	walk *w;
	const char *global;        /* the initialised variable's name, NULL for a compound literal */
} init_ctx;

static void init_list(init_ctx *ic, CXCursor list, CXType type, const char *key, int depth);

static enum CXVisitorResult push_field(CXCursor c, CXClientData data)
{
	cursor_vec *v = data;
	VEC_PUSH(v, c);
	return CXVisit_Continue;
}

/* One element's value of type `type` going into `key` (a member's or the
 * list's own location); a nested list recurses with its own type. */
static void init_value(init_ctx *ic, CXCursor v, CXType type, const char *key, int depth)
{
	CXCursor s = strip(v, false);
	if (clang_getCursorKind(s) == CXCursor_InitListExpr) {
		init_list(ic, s, type, key, depth + 1);
		return;
	}
	if (key && ctype_is_function_pointer(type)) {
		flows_of(ic->w, key, v, FORM_INIT, v, ic->global, type);
	} else if (key && is_void_pointer(type)) {   /* `{ "name", (void *) fn }`: generic_store's rule */
		src_value fv[16];
		unsigned n = values(ic->w, v, fv, 16, 0, NULL);
		if (n == 0)   /* data: written, naming no function */
			fv[n++] = (src_value){.constant = true};
		for (unsigned i = 0; i < n; i++)
			add_flow(ic->w, key, &fv[i], FORM_INIT, v, ic->global);
	}
}

/* A designated element: the designators, then the value (see the head). */
static bool designated(CXCursor c, cursor_vec *kids)
{
	if (clang_getCursorKind(c) != CXCursor_UnexposedExpr)
		return false;
	children(c, kids);
	/* `offsetof(T, m)` is an unexposed expression with children too: the
	 * type, then the member; a designator list never starts with a type */
	return kids->len >= 2 && clang_getCursorKind(kids->items[0]) != CXCursor_TypeRef;
}

static void init_list(init_ctx *ic, CXCursor list, CXType type, const char *key, int depth)
{
	if (depth > 16)
		return;
	walk *w = ic->w;
	CXType canon = clang_getCanonicalType(type);
	bool record = canon.kind == CXType_Record;
	bool array = canon.kind == CXType_ConstantArray || canon.kind == CXType_IncompleteArray ||
	             canon.kind == CXType_VariableArray;
	cursor_vec fields = {0}, elems = {0}, kids = {0};
	if (record)
		clang_Type_visitFields(canon, push_field, &fields);
	children(list, &elems);
	size_t next = 0;           /* the member a positional element fills */
	for (size_t i = 0; i < elems.len; i++) {
		CXCursor e = elems.items[i];
		if (designated(e, &kids)) {
			CXCursor value = kids.items[kids.len - 1], member = clang_getNullCursor();
			for (size_t k = 0; k + 1 < kids.len; k++)
				if (clang_getCursorKind(kids.items[k]) == CXCursor_MemberRef)
					member = clang_getCursorReferenced(kids.items[k]);
			if (record && clang_getCursorKind(kids.items[0]) == CXCursor_MemberRef) {
				CXCursor first = clang_getCursorReferenced(kids.items[0]);
				for (size_t k = 0; k < fields.len; k++)
					if (clang_equalCursors(fields.items[k], first))
						next = k + 1;
			}
			if (!clang_Cursor_isNull(member))
				init_value(ic, value, clang_getCursorType(member), field_key(w, member), depth);
			else if (array)
				init_value(ic, value, clang_getArrayElementType(canon), key, depth);
		} else if (record) {
			if (next < fields.len) {
				CXCursor m = fields.items[next++];
				init_value(ic, e, clang_getCursorType(m), field_key(w, m), depth);
			}
		} else {
			init_value(ic, e, array ? clang_getArrayElementType(canon) : type, key, depth);
		}
	}
	VEC_FREE(&fields);
	VEC_FREE(&elems);
	VEC_FREE(&kids);
}

/* A variable with an initializer: a list goes member by member, a
 * function-pointer variable receives its value. */
static void var_decl(walk *w, CXCursor d)
{
	CXCursor init = clang_getNullCursor();
	cursor_vec kids = {0};
	children(d, &kids);
	for (size_t i = 0; i < kids.len; i++)
		if (clang_isExpression(clang_getCursorKind(kids.items[i])))
			init = kids.items[i];
	VEC_FREE(&kids);
	if (clang_Cursor_isNull(init))
		return;
	CXType type = clang_getCursorType(d);
	bool fp = ctype_holds_function_pointer(type);
	CXCursor s = strip(init, false);
	if (clang_getCursorKind(s) != CXCursor_InitListExpr && !fp)
		return;
	const char *key = fp ? var_key(w, d) : NULL;
	init_ctx ic = {w, take(w, clang_getCursorSpelling(d))};
	if (clang_getCursorKind(s) == CXCursor_InitListExpr)
		init_list(&ic, s, type, key, 0);
	else
		flows_of(w, key, init, FORM_INIT, d, ic.global, type);
}

/* ---- calls and assignments ----------------------------------------------------------------- */

/* A callee clang could not form: a call with an argument of an unknown
 * type (its type's header is generated by a build that never ran) keeps
 * only an empty recovery expression where the callee was. When the callee
 * is written as one identifier, that is the name called. */
static bool written_name(walk *w, CXCursor callee, src_fnref *out)
{
	if (clang_getCursorKind(callee) != CXCursor_UnexposedExpr || n_children(callee, NULL, NULL) != 0)
		return false;
	CXSourceRange ext = clang_getCursorExtent(callee);
	CXFile file;
	unsigned line, col;
	clang_getSpellingLocation(clang_getRangeStart(ext), &file, &line, &col, NULL);
	CXToken *toks = NULL;
	unsigned n = 0;
	bool ok = false;
	if (!clang_Location_isFromMainFile(clang_getRangeStart(ext)) || file == NULL) {
		/* in a macro's body: the identifier where the callee is spelled, and '(' after it */
		CXToken *t = file ? clang_getToken(w->tu, clang_getLocation(w->tu, file, line, col)) : NULL;
		CXToken *next = t ? clang_getToken(w->tu, clang_getRangeEnd(clang_getTokenExtent(w->tu, *t))) : NULL;
		CXString paren = next ? clang_getTokenSpelling(w->tu, *next) : (CXString){0};
		ok = t && clang_getTokenKind(*t) == CXToken_Identifier && next &&
		     strcmp(clang_getCString(paren), "(") == 0;
		if (next)
			clang_disposeString(paren);
		if (ok)
			out->name = take(w, clang_getTokenSpelling(w->tu, *t));
		if (t)
			clang_disposeTokens(w->tu, t, 1);
		if (next)
			clang_disposeTokens(w->tu, next, 1);
	} else {
		clang_tokenize(w->tu, ext, &toks, &n);
		ok = n == 1 && clang_getTokenKind(toks[0]) == CXToken_Identifier;   /* `ops->read` is not one */
		if (ok)
			out->name = take(w, clang_getTokenSpelling(w->tu, toks[0]));
		clang_disposeTokens(w->tu, toks, n);
	}
	if (ok) {
		out->local_def = SRC_NONE;
		out->builtin = builtin_name(out->name);
		out->unit = w->unit;
	}
	return ok;
}

/* The C library's memory copies (and clang's builtins for them): the
 * destination receives what the source holds, as an assignment would
 * (`memcpy(tbl, defaults, sizeof tbl)`). A struct copied this way needs
 * nothing: its members are keyed by type, the copy's as the original's. */
static bool copies_memory(const char *name)
{
	static const char *const names[] = {"memcpy", "memmove", "__builtin_memcpy", "__builtin_memmove",
	                                    "__builtin___memcpy_chk", "__builtin___memmove_chk"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static const char *store_key(walk *w, const char *key, CXCursor at);

static void memory_copy(walk *w, CXCursor c)
{
	if (clang_Cursor_getNumArguments(c) < 2)
		return;
	CXCursor dst = strip(clang_Cursor_getArgument(c, 0), false);
	if (!ctype_holds_function_pointer(clang_getCursorType(dst)))
		return;
	const char *key = store_key(w, location_key(w, dst), dst);
	if (key)
		flows_of(w, key, clang_Cursor_getArgument(c, 1), FORM_STORE, c, NULL, clang_getCursorType(dst));
}

/* A callee chosen by a conditional expression (`(tagged ? scan_tag :
 * scan_notag)(x)`, an arm may be a location: `(f ? f->scan : dflt)(x)`):
 * the call reads a location of its own, written by the expression itself
 * with what either arm may be, a function named there as an initializer
 * names it (premise-free), a location's contents as a copy. NULL when no
 * arm is a function value (the call stays unresolved). */
static const char *choice_key(walk *w, CXCursor cond, CXCursor call_expr)
{
	src_value v[18];
	leaves lv = {0};
	unsigned n = values(w, cond, v, 16, 0, &lv);
	if (n == 0)
		return NULL;
	n = leaf_values(&lv, n, v, 18);
	char buf[4300];
	snprintf(buf, sizeof buf, "choice:%s", place(w, cond));
	const char *key = key_info(w, src_intern(w->f, buf), KEY_LOCAL, NULL, "(?:)", cond);
	for (unsigned i = 0; i < n; i++)
		add_flow(w, key, &v[i], src_value_names_fn(&v[i]) ? FORM_INIT : FORM_STORE, call_expr, NULL);
	return key;
}

/* A location's key for the map: its raw encoding (a CXSourceLocation is
 * the unit's source manager, its options and the raw location: within one
 * unit the raw location alone tells two apart). */
static const void *loc_key(CXSourceLocation l)
{
	return (const void *)((uintptr_t)l.int_data + 1);
}

static void note_callee(walk *w, CXCursor ref)
{
	CXSourceLocation l = clang_getCursorLocation(ref);
	VEC_PUSH(&w->callees, l);
	if (!ptrmap_get(&w->callee_at, loc_key(l)))
		ptrmap_put(&w->callee_at, loc_key(l), (void *)(uintptr_t)w->callees.len);
}

static bool is_callee(walk *w, CXCursor ref)
{
	CXSourceLocation l = clang_getCursorLocation(ref);
	size_t i = (uintptr_t)ptrmap_get(&w->callee_at, loc_key(l));
	return i && clang_equalLocations(w->callees.items[i - 1], l);
}

/* A reference to a function that is not a direct call's callee: its address
 * is taken (internal.h src_taken), once per unit and name. */
static void taken_ref(walk *w, CXCursor ref)
{
	CXCursor d = clang_getCursorReferenced(ref);
	if (clang_getCursorKind(d) != CXCursor_FunctionDecl || is_callee(w, ref))
		return;
	src_fnref fn = fnref(w, d);
	if (fn.builtin)
		return;
	const char *k = unit_key(w->f, w->unit, fn.name);
	if (strmap_has(&w->f->taken_seen, k))
		return;
	strmap_put(&w->f->taken_seen, k, NULL);
	src_taken t = {.fn = fn, .sig = ctype_signature(&w->f->arena, clang_getCursorType(d))};
	const char *file;
	unsigned col;
	where(w, ref, &file, &t.line, &col);
	t.file = file;
	VEC_PUSH(&w->f->taken, t);
}

/* Records sc, but in the parse with the switches on only a call the
 * unit's first parse lacks: one at a place (caller, file, line, column)
 * the first parse has no call at, or a direct call there of another name
 * (a macro that expands to another function with the switches on). An
 * indirect call at a place the first parse has is the same call read
 * under other types (a struct a switch changes): the first parse's stays
 * the only one; so is a direct call there of a function the first parse
 * has under another name (renamed by a macro: def_of). A dropped call's
 * arguments go with it. */
static void push_call(walk *w, const src_call *sc)
{
	if (w->dedup) {
		char at[4600], id[9000];
		snprintf(at, sizeof at, "P%u\x01%s:%u:%u", sc->caller, sc->file ? sc->file : "?", sc->line, sc->col);
		snprintf(id, sizeof id, "C%s\x01%s", at + 1, sc->kind == CALLEE_NAME ? sc->fn.name : "");
		bool new_place = first_seen(w, at), new_call = first_seen(w, id);
		bool renamed = sc->kind == CALLEE_NAME && sc->fn.local_def != SRC_NONE &&
		               strcmp(w->f->defs.items[sc->fn.local_def].name, sc->fn.name) != 0;
		if (w->alt && !new_place && !(sc->kind == CALLEE_NAME && new_call && !renamed)) {
			w->f->args.len = sc->first_arg;
			return;
		}
		w->f->switched_calls += w->alt;
	}
	VEC_PUSH(&w->f->calls, *sc);
}

static void call(walk *w, CXCursor c)
{
	CXCursor callee;
	if (w->cur_def == SRC_NONE || n_children(c, &callee, NULL) < 1)
		return;
	src_call sc = {.caller = w->cur_def, .unit = w->unit, .kind = CALLEE_UNKNOWN};
	call_where(w, c, &sc.file, &sc.line, &sc.col);
	sc.sig = ctype_signature(&w->f->arena, clang_getCursorType(callee));
	CXCursor s = strip(callee, true);
	enum CXCursorKind k = clang_getCursorKind(s);
	CXCursor d = k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(s) : clang_getNullCursor();
	if (clang_getCursorKind(d) == CXCursor_FunctionDecl) {
		sc.kind = CALLEE_NAME;
		sc.fn = fnref(w, d);
		note_callee(w, s);
	} else if ((sc.key = location_key(w, s)) != NULL) {
		sc.kind = CALLEE_KEY;
	} else if (written_name(w, s, &sc.fn)) {
		sc.kind = CALLEE_NAME;   /* clang dropped the callee (an argument it could not type): by its name */
	} else if (k == CXCursor_ConditionalOperator && (sc.key = choice_key(w, s, c)) != NULL) {
		sc.kind = CALLEE_KEY;
	} else {
		sc.reason = k == CXCursor_CallExpr ? "the callee is what a call returns"
		            : k == CXCursor_ConditionalOperator ? "the callee is a conditional expression"
		                                                 : "the callee is a computed function pointer";
	}
	CXCursor ref = clang_getCursorReferenced(s);   /* a member or variable clang could not type */
	if (!clang_Cursor_isNull(ref) && clang_isInvalidDeclaration(ref))
		sc.sig = NULL;
	sc.first_arg = (unsigned)w->f->args.len;
	int n = clang_Cursor_getNumArguments(c);
	sc.n_written = n > 0 ? (unsigned)n : 0;
	for (int i = 0; sc.kind != CALLEE_UNKNOWN && i < n; i++) {
		src_value v[10];
		leaves lv = {0};
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		unsigned nv = values(w, arg, v, 8, 0, &lv);
		if (ctype_is_function_pointer(clang_getCursorType(arg)))   /* a function-pointer parameter's other values (flows_of) */
			nv = leaf_values(&lv, nv, v, 10);
		for (unsigned j = 0; j < nv; j++) {
			src_arg a = {(unsigned)i, v[j]};
			VEC_PUSH(&w->f->args, a);
		}
	}
	sc.n_args = (unsigned)w->f->args.len - sc.first_arg;
	if (sc.kind == CALLEE_NAME && copies_memory(sc.fn.name))
		memory_copy(w, c);
	push_call(w, &sc);
}

/* A call clang could not form because an argument names something no
 * header declared (an enumerator of a generated header): the call becomes
 * a recovery expression of dependent type holding the callee's reference
 * and the arguments it understood. The call is still there: record it by
 * the function it names (its arguments are not read: some are missing). */
static void recovered_call(walk *w, CXCursor c)
{
	CXCursor first;
	if (w->cur_def == SRC_NONE || clang_getCursorType(c).kind != CXType_Dependent ||
	    n_children(c, &first, NULL) < 1 || clang_getCursorKind(first) != CXCursor_DeclRefExpr)
		return;
	CXCursor d = clang_getCursorReferenced(first);
	if (clang_getCursorKind(d) != CXCursor_FunctionDecl)
		return;
	note_callee(w, first);
	src_call sc = {.caller = w->cur_def, .unit = w->unit, .kind = CALLEE_NAME, .fn = fnref(w, d),
	               .first_arg = (unsigned)w->f->args.len};
	call_where(w, c, &sc.file, &sc.line, &sc.col);
	push_call(w, &sc);
}

/* The location a store into key writes: a store through a cast of other
 * memory (`*(code_pt *) p = fn`) goes to the memory of its type, which the
 * by-type reads include; any other key is its own. */
static const char *store_key(walk *w, const char *key, CXCursor at)
{
	if (!key || strncmp(key, "cast:", 5) != 0)
		return key;
	char buf[4200];
	snprintf(buf, sizeof buf, "mem:%s", key + 5);
	const char *mem = src_intern(w->f, buf);
	key_info(w, mem, KEY_VAR, NULL, mem + 4, at);
	((src_keyinfo *)strmap_get(&w->f->keys, mem))->canon = key + 5;
	return mem;
}

/* A `void *` location written with a function (`s->fn = (void *) job_free`)
 * or a function pointer's contents holds them as a function-pointer
 * location would (read back through a cast at a call: `((job_fn) s->fn)()`);
 * a `void *` written with another `void *` is no flow (generic data). */
static void generic_store(walk *w, CXCursor lhs, CXCursor value, CXCursor at)
{
	src_value v[16];
	unsigned n = values(w, value, v, 16, 0, NULL);
	const char *key = store_key(w, location_key(w, lhs), lhs);
	if (n == 0 && key)   /* written with data (`a->elts = realloc(..)`): a write naming no function */
		v[n++] = (src_value){.constant = true};
	for (unsigned i = 0; key && i < n; i++)
		add_flow(w, key, &v[i], FORM_STORE, at, NULL);
}

static void assignment(walk *w, CXCursor c)
{
	if (clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_Assign)
		return;
	cursor_vec kids = {0};
	children(c, &kids);
	if (kids.len == 2 && ctype_holds_function_pointer(clang_getCursorType(kids.items[0]))) {
		const char *key = store_key(w, location_key(w, kids.items[0]), kids.items[0]);
		if (key)
			flows_of(w, key, kids.items[1], FORM_STORE, c, NULL, clang_getCursorType(kids.items[0]));
	} else if (kids.len == 2 && is_void_pointer(clang_getCursorType(kids.items[0]))) {
		generic_store(w, kids.items[0], kids.items[1], c);
	}
	VEC_FREE(&kids);
}

/* `return e;` in a function returning a function pointer (or a pointer to
 * one) writes e into the function's return location; a returned address
 * of a location (`return &handler;`) is that location: both ways, so a
 * store through the returned pointer reaches it. */
static void return_stmt(walk *w, CXCursor c)
{
	CXCursor e;
	if (w->cur_def == SRC_NONE || n_children(c, &e, NULL) != 1)
		return;
	CXType rt = clang_getResultType(clang_getCursorType(w->cur_fn));
	if (!ctype_holds_function_pointer(rt))
		return;
	src_def *d = &w->f->defs.items[w->cur_def];
	const char *key = key_info(w, src_ret_key(w->f, d), KEY_RET, NULL, d->name, w->cur_fn);
	src_value v[18];
	leaves lv = {0};
	bool pointer = !ctype_is_function_pointer(rt);
	unsigned n = values(w, e, v, 16, 0, &lv);
	if (!pointer)   /* as flows_of: a returned pointer to function pointers is no function */
		n = leaf_values(&lv, n, v, 18);
	for (unsigned i = 0; i < n; i++) {
		add_flow(w, key, &v[i], FORM_STORE, c, NULL);
		if (pointer && v[i].is_key) {
			src_value back = {.is_key = true, .key = key};
			add_flow(w, v[i].key, &back, FORM_STORE, c, NULL);
		}
	}
}

static enum CXChildVisitResult body(CXCursor c, CXCursor parent, CXClientData data)
{
	walk *w = data;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CallExpr:
		call(w, c);
		break;
	case CXCursor_BinaryOperator:
		assignment(w, c);
		break;
	case CXCursor_UnexposedExpr:
		recovered_call(w, c);
		break;
	case CXCursor_VarDecl:
		var_decl(w, c);
		break;
	case CXCursor_ReturnStmt:
		return_stmt(w, c);
		break;
	case CXCursor_DeclRefExpr:
		taken_ref(w, c);
		break;
	case CXCursor_InitListExpr: {
		/* Lists inside lists, designators and declarations are read by
		 * their parent (init_list, var_decl): here only compound literals
		 * and the like, once each. */
		enum CXCursorKind pk = clang_getCursorKind(parent);
		if (pk != CXCursor_InitListExpr && pk != CXCursor_UnexposedExpr && pk != CXCursor_VarDecl) {
			init_ctx ic = {w, NULL};
			init_list(&ic, c, clang_getCursorType(c), NULL, 0);
		}
		break;
	}
	default:
		break;
	}
	return CXChildVisit_Recurse;
}

/* A file-scope initializer's function names (`long tag = (long) f;`, a
 * table of any type): taken addresses too. */
static enum CXChildVisitResult file_scope_refs(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
		taken_ref(data, c);
	return CXChildVisit_Recurse;
}

/* Whether the parse with the switches on reads definition c (def d): a
 * body this unit's first parse read, or one no parse has read (new, or
 * another body of a function the unit defines), each once in the run. */
static bool alt_walk(walk *w, CXCursor c, unsigned d)
{
	const char *file;
	unsigned line, col;
	where(w, c, &file, &line, &col);
	char buf[4400];
	snprintf(buf, sizeof buf, "%s:%u:%s", file ? file : "?", line, take(w, clang_getCursorSpelling(c)));
	const src_def *def = &w->f->defs.items[d];
	bool own = strcmp(def->key, buf) == 0;
	if (strmap_has(&w->f->alt_walked, buf) || (own && def->walked && def->walk_unit != w->unit))
		return false;
	const char *key = src_intern(w->f, buf);
	strmap_put(&w->f->alt_walked, key, NULL);
	return true;
}

static enum CXChildVisitResult top(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	walk *w = data;
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
		unsigned d = def_of(w, c);
		if (w->alt ? !alt_walk(w, c, d) : w->f->defs.items[d].walked)
			return CXChildVisit_Continue;
		if (!w->f->defs.items[d].walked)
			w->f->defs.items[d].walk_unit = w->unit;
		w->f->defs.items[d].walked = true;
		w->cur_def = d;
		w->cur_fn = c;
		clang_visitChildren(c, body, w);
		w->cur_def = SRC_NONE;
		VEC_CLEAR(&w->callees);
		ptrmap_free(&w->callee_at);
		ptrmap_init(&w->callee_at);
	} else if (k == CXCursor_VarDecl) {
		var_decl(w, c);
		clang_visitChildren(c, file_scope_refs, w);
	}
	return CXChildVisit_Continue;
}

/* ---- one unit ----------------------------------------------------------------------------- */

static void diagnostics(walk *w, CXTranslationUnit tu, source_unit *u)
{
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			if (u->errors++ == 0)
				u->first_error = take(w, clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation));
		} else if (sev == CXDiagnostic_Warning) {
			u->warnings++;
		}
		clang_disposeDiagnostic(d);
	}
}

/* The unit parsed again with its undeclared constants declared (undeclared.c):
 * the new unit, or tu itself when it names none; *decl keeps the
 * declarations (malloc'd, NULL when none) for the parse with the switches on. */
static CXTranslationUnit declare_constants(CXIndex index, CXTranslationUnit tu, const char *file,
                                           const char *const *args, unsigned n_args, struct CXUnsavedFile *unsaved,
                                           unsigned n_unsaved, unsigned flags, source_unit *unit, src_facts *f,
                                           char **decl)
{
	static const char header[] = "/facet-source/undeclared-constants.h";
	unsigned n;
	char *first;
	char *text = src_undeclared_constants(tu, &n, &first);
	*decl = NULL;
	if (!text)
		return tu;
	const char **a = xmalloc((n_args + 2) * sizeof *a);
	memcpy(a, args, n_args * sizeof *a);
	a[n_args] = "-include";
	a[n_args + 1] = header;
	struct CXUnsavedFile *un = xmalloc((n_unsaved + 1) * sizeof *un);
	memcpy(un, unsaved, n_unsaved * sizeof *un);
	un[n_unsaved] = (struct CXUnsavedFile){.Filename = header, .Contents = text, .Length = (unsigned long)strlen(text)};
	CXTranslationUnit again = NULL;
	if (clang_parseTranslationUnit2(index, file, a, (int)n_args + 2, un, n_unsaved + 1, flags, &again) ==
	        CXError_Success && again) {
		clang_disposeTranslationUnit(tu);
		tu = again;
		unit->constants = n;
		unit->first_constant = src_intern(f, first);
		*decl = text;
		text = NULL;
	}
	free(a);
	free(un);
	free(text);
	free(first);
	return tu;
}

typedef struct inclusion_check {
	const src_switches *sw;
	bool tests;
} inclusion_check;

static void check_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	(void)depth;
	inclusion_check *ic = data;
	CXFileUniqueID id;
	if (!ic->tests && clang_getFileUniqueID(file, &id) == 0)
		ic->tests = switches_file_tests(ic->sw, id.data[0], id.data[1]);
}

/* Whether tu reads a file that tests a switch (its own file or a header). */
static bool tests_switches(CXTranslationUnit tu, const src_switches *sw)
{
	inclusion_check ic = {sw, false};
	clang_getInclusions(tu, check_inclusion, &ic);
	return ic.tests;
}

/* The declarations of undeclared constants (decl: lines `enum { NAME = V };`)
 * but the switches': with the switches on, those names are macros. */
static char *constants_but_switches(const char *decl, const src_switches *sw)
{
	size_t n = strlen(decl);
	char *out = xmalloc(n + 1), *o = out;
	for (const char *l = decl; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);
		const char *name = l + 7;   /* after "enum { " */
		size_t nl = len > 7 ? strcspn(name, " ") : 0;
		char buf[256];
		bool drop = false;
		if (nl > 0 && nl < sizeof buf) {
			memcpy(buf, name, nl);
			buf[nl] = 0;
			drop = switches_is(sw, buf);
		}
		if (!drop) {
			memcpy(o, l, len);
			o += len;
		}
		l += len;
	}
	*o = 0;
	return out;
}

/* The unit parsed with every switch on (switches.h), after the undeclared
 * constants of its first parse that are no switch; NULL when libclang fails. */
static CXTranslationUnit parse_switched(CXIndex index, const char *file, const char *const *args, unsigned n_args,
                                        struct CXUnsavedFile *unsaved, unsigned n_unsaved, unsigned flags,
                                        const src_switches *sw, const char *decl)
{
	static const char sw_header[] = "/facet-source/configuration-switches.h";
	static const char c_header[] = "/facet-source/undeclared-constants.h";
	char *consts = decl ? constants_but_switches(decl, sw) : NULL;
	const char **a = xmalloc((n_args + 4) * sizeof *a);
	memcpy(a, args, n_args * sizeof *a);
	struct CXUnsavedFile *un = xmalloc((n_unsaved + 2) * sizeof *un);
	memcpy(un, unsaved, n_unsaved * sizeof *un);
	unsigned na = n_args, nu = n_unsaved;
	a[na++] = "-include";
	a[na++] = sw_header;
	un[nu++] = (struct CXUnsavedFile){.Filename = sw_header, .Contents = sw->header,
	                                  .Length = (unsigned long)strlen(sw->header)};
	if (consts && *consts) {
		a[na++] = "-include";
		a[na++] = c_header;
		un[nu++] = (struct CXUnsavedFile){.Filename = c_header, .Contents = consts,
		                                  .Length = (unsigned long)strlen(consts)};
	}
	CXTranslationUnit tu = NULL;
	if (clang_parseTranslationUnit2(index, file, a, (int)na, un, nu, flags, &tu) != CXError_Success)
		tu = NULL;
	free(a);
	free(un);
	free(consts);
	return tu;
}

static void walk_unit(walk *w, CXTranslationUnit tu)
{
	w->tu = tu;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), top, w);
	ptrmap_free(&w->files);
	ptrmap_free(&w->callee_at);
	VEC_FREE(&w->callees);
}

bool src_parse_unit(src_facts *f, void *index, const char *file, const char *const *args, unsigned n_args,
                    void *unsaved, unsigned n_unsaved, bool assume_constants, const src_switches *switches,
                    source_unit *unit, facet_error *err)
{
	walk w = {.f = f, .unit = (unsigned)f->units.len, .cur_def = SRC_NONE};
	ptrmap_init(&w.files);
	ptrmap_init(&w.callee_at);
	strmap_init(&w.seen);
	CXTranslationUnit tu = NULL;
	unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
	enum CXErrorCode rc = clang_parseTranslationUnit2((CXIndex)index, file, args, (int)n_args, unsaved, n_unsaved,
	                                                flags, &tu);
	unit->file = src_intern(f, file);
	if (rc != CXError_Success || !tu) {
		unit->parsed = false;
		error_set(err, "%s: libclang cannot parse it (error %d)", file, (int)rc);
		ptrmap_free(&w.files);
		ptrmap_free(&w.callee_at);
		return false;
	}
	char *decl = NULL;
	if (assume_constants)
		tu = declare_constants((CXIndex)index, tu, file, args, n_args, unsaved, n_unsaved, flags, unit, f, &decl);
	unit->parsed = true;
	bool again = switches && tests_switches(tu, switches);
	w.dedup = again;   /* the first parse records what it has, so the second adds only the rest */
	w.tu = tu;
	diagnostics(&w, tu, unit);
	walk_unit(&w, tu);
	clang_disposeTranslationUnit(tu);
	if (again && (tu = parse_switched((CXIndex)index, file, args, n_args, unsaved, n_unsaved, flags, switches,
	                                  decl)) != NULL) {
		walk w2 = {.f = f, .unit = w.unit, .cur_def = SRC_NONE, .alt = true, .dedup = true, .seen = w.seen};
		ptrmap_init(&w2.files);
		ptrmap_init(&w2.callee_at);
		walk_unit(&w2, tu);
		clang_disposeTranslationUnit(tu);
		w.seen = w2.seen;
		unit->switched = true;
	}
	free(decl);
	for (size_t i = 0; i < w.seen.cap; i++)
		free((char *)w.seen.slots[i].key);
	strmap_free(&w.seen);
	return true;
}

/* ---- the implementation's names ---------------------------------------------------------- */

static enum CXChildVisitResult macro_name(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
		CXString n = clang_getCursorSpelling(c);
		switches_define(data, clang_getCString(n));
		clang_disposeString(n);
	}
	return CXChildVisit_Continue;
}

void src_implementation_macros(void *index, const char *const *args, unsigned n_args, const char *includes,
                               src_switches *sw)
{
	static const char file[] = "/facet-source/implementation.c";
	struct CXUnsavedFile un = {.Filename = file, .Contents = includes, .Length = (unsigned long)strlen(includes)};
	CXTranslationUnit tu = NULL;
	unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord |
	                 CXTranslationUnit_SkipFunctionBodies;
	if (clang_parseTranslationUnit2((CXIndex)index, file, args, (int)n_args, &un, 1, flags, &tu) != CXError_Success)
		return;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), macro_name, sw);
	clang_disposeTranslationUnit(tu);
}
