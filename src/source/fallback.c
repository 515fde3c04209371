/* fallback.c — the type fallback's candidates (source.h): the functions
 * whose address the tree takes, indexed by the key of their type under one
 * rule of fit, so a site finds the fitting ones without comparing every
 * pair (large trees have thousands of each).
 *
 * Two rules:
 *   - C's own: the canonical function types are equal (facet/sig.h's
 *     canonical spelling: typedefs resolved, qualifiers dropped); when one
 *     side is unprototyped (`int (*)()`), sig.h's relation, which is C11
 *     6.7.6.3p15's;
 *   - the IR shape's: the function type as clang lowers it for x86-64, as
 *     the bitcode's R0 filter compares (pta_type_fits): every pointer is
 *     `ptr`, integers by width, a small struct by value by its size, a large
 *     one by pointer (a returned one through a leading `sret` pointer); a
 *     call through an unprototyped pointer fits a function that is not
 *     variadic and takes as many parameters as the call passes arguments.
 * An unknown function type (clang could not form it) fits anything; a call
 * of unknown type fits the functions that take as many arguments as it
 * passes (C11 6.5.2.2), and so, under either rule, does a call through an
 * unprototyped pointer. */
#include "source/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facet/sig.h"
#include "util/xalloc.h"

typedef VEC(unsigned) ids;

typedef struct taken_fn {
	unsigned fn;
	di_type *sig;
} taken_fn;

struct src_fallback {
	source_fallback rule;
	strmap groups;             /* fit key -> ids* (prototyped functions) */
	ids loose;                 /* indices into all: unprototyped or unknown types, checked one by one */
	VEC(taken_fn) all;
	ids out;
	arena a;                   /* the keys */
};

/* `int ()` before C23: sig.h's encoding, {ret, NULL}. */
static bool unprototyped(const di_type *t)
{
	return t && t->n_params == 2 && t->params[1] == NULL;
}

static bool variadic(const di_type *t)
{
	return t && t->n_params > 1 && t->params[t->n_params - 1] == NULL && !unprototyped(t);
}

/* ---- the IR shape ----------------------------------------------------------------------- */

static void put(char *buf, size_t size, size_t *len, const char *s)
{
	int n = snprintf(buf + *len, *len < size ? size - *len : 0, "%s", s);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

static bool is_record(const di_type *t)
{
	return t && (t->kind == DI_STRUCT || t->kind == DI_UNION);
}

/* One parameter's or the return's IR type (t stripped; NULL is void). */
static const char *scalar(di_type *t, char tmp[24])
{
	if (!t)
		return "void";
	switch (t->kind) {
	case DI_POINTER: case DI_ARRAY: case DI_SUBROUTINE:
		return "ptr";
	case DI_ENUM:
		snprintf(tmp, 24, "i%u", t->size_bits ? (unsigned)t->size_bits : 32u);
		return tmp;
	case DI_STRUCT: case DI_UNION:   /* passed in registers by its size, else by pointer */
		return t->size_bits <= 64 ? "a8" : t->size_bits <= 128 ? "a16" : "ptr";
	case DI_BASIC: {
		const char *n = t->name ? t->name : "";
		if (strstr(n, "_Complex"))
			return "complex";
		if (strcmp(n, "float") == 0 || strcmp(n, "double") == 0)
			return n;
		if (strcmp(n, "long double") == 0)
			return "x86_fp80";
		if (strcmp(n, "_Bool") == 0 || strcmp(n, "bool") == 0)
			return "i1";
		if (!t->size_bits)
			return n;
		snprintf(tmp, 24, "i%u", (unsigned)t->size_bits);
		return tmp;
	}
	default:
		return "?";
	}
}

/* "RET(P,P,...)" of a prototyped subroutine type. */
static const char *ir_shape(di_type *sig, char *buf, size_t size)
{
	size_t len = 0;
	char tmp[24];
	buf[0] = 0;
	di_type *ret = di_strip(sig->n_params ? sig->params[0] : NULL);
	bool sret = is_record(ret) && ret->size_bits > 128;
	put(buf, size, &len, sret ? "void" : scalar(ret, tmp));
	put(buf, size, &len, sret ? "(ptr" : "(");
	for (unsigned i = 1; i < sig->n_params; i++) {
		if (i > 1 || sret)
			put(buf, size, &len, ",");
		put(buf, size, &len, sig->params[i] ? scalar(di_strip(sig->params[i]), tmp) : "...");
	}
	put(buf, size, &len, ")");
	return buf;
}

static bool same_return_shape(di_type *a, di_type *b)
{
	char x[24], y[24];
	di_type *ra = di_strip(a->n_params ? a->params[0] : NULL), *rb = di_strip(b->n_params ? b->params[0] : NULL);
	return strcmp(scalar(ra, x), scalar(rb, y)) == 0;
}

/* ---- the index -------------------------------------------------------------------------- */

static const char *fit_key(const src_fallback *fb, di_type *sig, char *buf, size_t size)
{
	return fb->rule == SOURCE_FALLBACK_IR ? ir_shape(sig, buf, size) : sig_canonical(sig, buf, size);
}

/* A call passing n arguments can reach fn (C11 6.5.2.2p6 and p2: as many
 * arguments as parameters, at least the named ones of a variadic list),
 * whatever else is known. */
static bool takes(const di_type *fn, unsigned n)
{
	if (!fn || fn->n_params == 0 || unprototyped(fn))
		return true;
	return variadic(fn) ? fn->n_params - 2 <= n : fn->n_params - 1 == n;
}

/* fn's type fits the call's under the rule (the pairs the index cannot
 * answer: an unprototyped or unknown side). A call whose type is unknown
 * (clang could not form it) still passes its arguments: the arity. */
static bool fits(const src_fallback *fb, di_type *fn, di_type *call, unsigned n_written)
{
	if (!call || call->n_params == 0)
		return takes(fn, n_written);
	if (!fn || fn->n_params == 0)
		return true;
	char x[512], y[512];
	if (fb->rule == SOURCE_FALLBACK_C)
		return unprototyped(fn) || unprototyped(call)
		       ? sig_compatible(fn, call) && (!unprototyped(call) || takes(fn, n_written))
		       : strcmp(fit_key(fb, fn, x, sizeof x), fit_key(fb, call, y, sizeof y)) == 0;
	if (unprototyped(call))
		return same_return_shape(fn, call) && !variadic(fn) && takes(fn, n_written);
	if (unprototyped(fn))
		return same_return_shape(fn, call);
	return strcmp(ir_shape(fn, x, sizeof x), ir_shape(call, y, sizeof y)) == 0;
}

src_fallback *src_fallback_new(source_fallback rule)
{
	src_fallback *fb = xcalloc(1, sizeof *fb);
	fb->rule = rule;
	strmap_init(&fb->groups);
	arena_init(&fb->a);
	return fb;
}

void src_fallback_add(src_fallback *fb, unsigned fn, di_type *sig)
{
	taken_fn t = {fn, sig};
	VEC_PUSH(&fb->all, t);
	unsigned i = (unsigned)fb->all.len - 1;
	if (!sig || sig->n_params == 0 || unprototyped(sig)) {
		VEC_PUSH(&fb->loose, i);
		return;
	}
	char buf[512];
	const char *key = fit_key(fb, sig, buf, sizeof buf);
	ids *g = strmap_get(&fb->groups, key);
	if (!g) {
		g = xcalloc(1, sizeof *g);
		strmap_put(&fb->groups, arena_strdup(&fb->a, key), g);
	}
	VEC_PUSH(g, fn);
}

static int by_id(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

unsigned src_fallback_fits(src_fallback *fb, di_type *call, unsigned n_written, const unsigned **out)
{
	VEC_CLEAR(&fb->out);
	if (!call || call->n_params == 0 || unprototyped(call)) {
		for (size_t i = 0; i < fb->all.len; i++)
			if (fits(fb, fb->all.items[i].sig, call, n_written))
				VEC_PUSH(&fb->out, fb->all.items[i].fn);
	} else {
		char buf[512];
		ids *g = strmap_get(&fb->groups, fit_key(fb, call, buf, sizeof buf));
		for (size_t i = 0; g && i < g->len; i++)
			VEC_PUSH(&fb->out, g->items[i]);
		for (size_t i = 0; i < fb->loose.len; i++) {
			const taken_fn *t = &fb->all.items[fb->loose.items[i]];
			if (fits(fb, t->sig, call, n_written))
				VEC_PUSH(&fb->out, t->fn);
		}
	}
	if (fb->out.len > 1)
		qsort(fb->out.items, fb->out.len, sizeof *fb->out.items, by_id);
	*out = fb->out.items;
	return (unsigned)fb->out.len;
}

const char *src_fallback_rule_name(source_fallback rule)
{
	return rule == SOURCE_FALLBACK_IR ? "the IR shape" : rule == SOURCE_FALLBACK_C ? "C's rule" : "none";
}

void src_fallback_free(src_fallback *fb)
{
	if (!fb)
		return;
	for (size_t i = 0; i < fb->groups.cap; i++)
		if (fb->groups.slots[i].key) {
			ids *g = fb->groups.slots[i].value;
			VEC_FREE(g);
			free(g);
		}
	strmap_free(&fb->groups);
	VEC_FREE(&fb->loose);
	VEC_FREE(&fb->all);
	VEC_FREE(&fb->out);
	arena_free(&fb->a);
	free(fb);
}
