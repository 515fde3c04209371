/* sig.c — canonical type spelling and signature compatibility (sig.h). */
#include "facet/sig.h"

#include <stdlib.h>
#include <string.h>

typedef struct outbuf {
	char *buf;
	size_t size, len;
} outbuf;

/* Appends s; when it does not fit, as much as fits before a closing "...". */
static void put(outbuf *o, const char *s)
{
	if (o->len >= o->size)
		return;   /* already full */
	size_t n = strlen(s);
	if (o->size >= 4 && o->len + n <= o->size - 4) {   /* fits, with room left for "..." */
		memcpy(o->buf + o->len, s, n);
		o->len += n;
		return;
	}
	size_t room = o->size - 1 - o->len;   /* bytes left before the NUL */
	size_t keep = room > 3 ? room - 3 : 0;
	memcpy(o->buf + o->len, s, keep < n ? keep : n);
	size_t dots = room - keep < 3 ? room - keep : 3;
	memcpy(o->buf + o->len + keep, "...", dots);
	o->buf[o->len + keep + dots] = 0;
	o->len = o->size;   /* full: ignore the rest */
}

static void finish(outbuf *o)
{
	if (o->len < o->size)
		o->buf[o->len] = 0;
}

static bool is_qualifier(di_kind k)
{
	return k == DI_CONST || k == DI_VOLATILE || k == DI_RESTRICT || k == DI_ATOMIC;
}

static const char *record_word(di_kind k)
{
	return k == DI_STRUCT ? "struct " : k == DI_UNION ? "union " : "enum ";
}

/* ---- canonical spelling: what equality compares --------------------------------- */

static void canon(outbuf *o, di_type *t, int depth);

/* A parameter list: each type by spell, separated by sep; a last NULL
 * parameter is the varargs "...". params[0] is the return type. */
static void put_params(outbuf *o, di_type *fn, int depth, const char *sep, const char *none,
                       void (*spell)(outbuf *, di_type *, int))
{
	put(o, "(");
	if (fn->n_params <= 1 && none)
		put(o, none);
	for (unsigned i = 1; i < fn->n_params; i++) {
		if (i > 1)
			put(o, sep);
		if (!fn->params[i] && i == fn->n_params - 1)
			put(o, "...");
		else
			spell(o, fn->params[i], depth + 1);
	}
	put(o, ")");
}

static void canon_params(outbuf *o, di_type *fn, int depth) { put_params(o, fn, depth, ",", NULL, canon); }

static void canon(outbuf *o, di_type *t, int depth)
{
	const char *typedef_name = NULL;
	while (t && (t->kind == DI_TYPEDEF || is_qualifier(t->kind))) {
		if (t->kind == DI_TYPEDEF)
			typedef_name = t->name;
		t = t->base;
	}
	if (depth > 16) {   /* a function pointer nested that deep: compare no further */
		put(o, "?");
		return;
	}
	if (!t) {
		put(o, "void");
		return;
	}
	switch (t->kind) {
	case DI_BASIC:
		put(o, t->name ? t->name : "?");
		break;
	case DI_POINTER:
	case DI_ARRAY:
		canon(o, t->base, depth + 1);
		put(o, "*");
		break;
	case DI_STRUCT: case DI_UNION: case DI_ENUM:
		put(o, record_word(t->kind));
		put(o, t->name ? t->name : typedef_name ? typedef_name : "<anonymous>");
		break;
	case DI_SUBROUTINE:
		put(o, "fn ");
		if (t->n_params > 0)
			canon(o, t->params[0], depth + 1);
		else
			put(o, "void");
		canon_params(o, t, depth);
		break;
	default:
		put(o, "?");
		break;
	}
}

static const char *canonical(di_type *t, char *buf, size_t size)
{
	outbuf o = {buf, size, 0};
	canon(&o, t, 0);
	finish(&o);
	return buf;
}

const char *sig_canonical(di_type *t, char *buf, size_t size)
{
	return canonical(t, buf, size);
}

bool sig_type_equal(di_type *a, di_type *b)
{
	char x[512], y[512];
	return strcmp(canonical(a, x, sizeof x), canonical(b, y, sizeof y)) == 0;
}

/* ---- compatibility (§2.3) -------------------------------------------------------- */

static bool is_void_pointer(di_type *t)
{
	t = di_strip(t);
	return t && t->kind == DI_POINTER && di_strip(t->base) == NULL;
}

di_type *sig_of_pointer(di_type *t)
{
	t = di_strip(t);
	if (!t || t->kind != DI_POINTER)
		return NULL;
	t = di_strip(t->base);
	return t && t->kind == DI_SUBROUTINE ? t : NULL;
}

void sig_cache_init(sig_cache *c)
{
	ptrmap_init(&c->spelling);
	strmap_init(&c->interned);
}

static void free_interned(sig_cache *c);

void sig_cache_free(sig_cache *c)
{
	free_interned(c);
	ptrmap_free(&c->spelling);
}

/* The canonical spelling of t, interned: equal types give the same pointer. */
static const char *spelling(sig_cache *c, di_type *t)
{
	static const char void_spelling[] = "void";
	if (!t)
		return void_spelling;
	const char *hit = ptrmap_get(&c->spelling, t);
	if (hit)
		return hit;
	char buf[512];
	canonical(t, buf, sizeof buf);
	char *s = strmap_get(&c->interned, buf);
	if (!s) {
		s = strdup(buf);
		strmap_put(&c->interned, s, s);
	}
	ptrmap_put(&c->spelling, t, s);
	return s;
}

static bool equal(sig_cache *c, di_type *a, di_type *b)
{
	if (!c)
		return sig_type_equal(a, b);
	const char *x = spelling(c, a), *y = spelling(c, b);
	return x == y || strcmp(x, y) == 0;
}

/* `int (*hash)()`: C before C23 declares no parameters, and clang's debug
 * info spells it {int, null} — the varargs marker with no named parameter
 * (which `(...)` alone could not have before C23). Any parameter list fits. */
static bool unprototyped(const di_type *t)
{
	return t->n_params == 2 && t->params[1] == NULL;
}

/* `void (*)(void)` as a pointer type is C's generic function pointer (GCC's
 * -Wcast-function-type lets any function type convert to and from it;
 * sqlite keeps every system call in a sqlite3_syscall_ptr and casts at the
 * call): a field or variable declared so holds any function. */
static bool generic(const di_type *t)
{
	return t->n_params == 1 && t->params[0] == NULL;
}

/* A parameter type the default argument promotions leave as it is (C11
 * 6.5.2.2p6): not float, no integer narrower than int (char, short, _Bool,
 * a packed enum). A call through an unprototyped pointer passes promoted
 * arguments, so C (6.7.6.3p15) makes `T ()` compatible only with parameter
 * lists whose every type survives the promotions and which end in no `...`. */
static bool survives_promotion(di_type *t)
{
	t = di_strip(t);
	if (!t || (t->kind != DI_BASIC && t->kind != DI_ENUM))
		return true;   /* pointers, structs, unions: passed as they are */
	if (t->kind == DI_BASIC && t->name && strcmp(t->name, "float") == 0)
		return false;
	return t->size_bits == 0 || t->size_bits >= 32;   /* int's width on every target facet reads */
}

/* The prototyped side p of a pair whose other side is unprototyped: every
 * parameter survives the promotions and there is no `...`. Arity does not
 * matter: `T ()` declares none. */
static bool fits_unprototyped(const di_type *p)
{
	for (unsigned i = 1; i < p->n_params; i++)
		if (!p->params[i] || !survives_promotion(p->params[i]))
			return false;   /* a NULL entry is the `...` marker */
	return true;
}

static bool compatible(sig_cache *c, di_type *fn, di_type *field)
{
	if (!fn || !field || fn->n_params == 0 || field->n_params == 0)
		return true;   /* unknown: no evidence either way */
	if (generic(field))
		return true;
	if (fn->n_params != field->n_params && !unprototyped(fn) && !unprototyped(field))
		return false;
	if (!equal(c, fn->params[0], field->params[0]))
		return false;
	if (unprototyped(fn) && unprototyped(field))
		return true;
	if (unprototyped(field))
		return fits_unprototyped(fn);
	if (unprototyped(fn))
		return fits_unprototyped(field);
	for (unsigned i = 1; i < fn->n_params; i++) {
		di_type *a = fn->params[i], *b = field->params[i];
		bool a_va = !a && i == fn->n_params - 1, b_va = !b && i == field->n_params - 1;
		if (a_va || b_va) {
			if (a_va != b_va)
				return false;
			continue;
		}
		if (is_void_pointer(a) || is_void_pointer(b))
			continue;
		if (!equal(c, a, b))
			return false;
	}
	return true;
}

bool sig_compatible(di_type *fn, di_type *field)
{
	return compatible(NULL, fn, field);
}

bool sig_compatible_cached(sig_cache *c, di_type *fn, di_type *field)
{
	return compatible(c, fn, field);
}

/* strmap owns no keys: the interned strings are freed by walking the ptrmap's
 * values would free some twice, so collect them from the strmap instead. */
static void free_interned(sig_cache *c)
{
	for (size_t i = 0; i < c->interned.cap; i++)
		if (c->interned.slots[i].key)
			free((void *)c->interned.slots[i].key);
	strmap_free(&c->interned);
}

/* ---- source spelling: what people read ----------------------------------------------- */

static void text(outbuf *o, di_type *t, int depth);

static void text_params(outbuf *o, di_type *fn, int depth) { put_params(o, fn, depth, ", ", "void", text); }

static void text(outbuf *o, di_type *t, int depth)
{
	if (depth > 8) {
		put(o, "...");
		return;
	}
	if (!t) {
		put(o, "void");
		return;
	}
	switch (t->kind) {
	case DI_BASIC: case DI_TYPEDEF:
		put(o, t->name ? t->name : "?");
		break;
	case DI_CONST:
		put(o, "const ");
		text(o, t->base, depth + 1);
		break;
	case DI_VOLATILE:
		put(o, "volatile ");
		text(o, t->base, depth + 1);
		break;
	case DI_RESTRICT: case DI_ATOMIC:
		text(o, t->base, depth + 1);
		break;
	case DI_POINTER: {
		di_type *fn = sig_of_pointer(t);
		if (fn) {   /* ret (*)(params) */
			text(o, fn->n_params ? fn->params[0] : NULL, depth + 1);
			put(o, " (*)");
			text_params(o, fn, depth);
			break;
		}
		text(o, t->base, depth + 1);
		put(o, " *");
		break;
	}
	case DI_ARRAY:
		text(o, t->base, depth + 1);
		put(o, "[]");
		break;
	case DI_STRUCT: case DI_UNION: case DI_ENUM:
		put(o, record_word(t->kind));
		put(o, t->name ? t->name : "<anonymous>");
		break;
	case DI_SUBROUTINE:
		text(o, t->n_params ? t->params[0] : NULL, depth + 1);
		text_params(o, t, depth);
		break;
	default:
		put(o, "?");
		break;
	}
}

const char *sig_text(di_type *t, char *buf, size_t size)
{
	outbuf o = {buf, size, 0};
	text(&o, t, 0);
	finish(&o);
	return buf;
}
