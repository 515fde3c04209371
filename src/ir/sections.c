/* sections.c — module-asm section entries and the symbols bounding
 * sections; see sections.h. Pure text and model work: no LLVM here. */
#include "ir/sections.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

/* ---- module asm --------------------------------------------------------------------- */

#define SECTION_STACK 64

typedef struct asm_state {
	ir_program *p;
	const char *cur, *prev;
	const char *stack[SECTION_STACK][2];
	unsigned depth;
	VEC(ir_asm_entry) entries;
	/* A label just defined a function the IR only declares: its body is
	 * read for the trampoline forms (sections.h) until its first instruction. */
	ir_function *pending;
	unsigned pending_depth;    /* the section stack's depth at the label */
	bool pending_e9;           /* `.byte 0xe9` seen: a rel32 jmp's operand comes next */
} asm_state;

static bool ident_start(int c) { return isalpha(c) || c == '_' || c == '.' || c == '$'; }
static bool ident_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

static char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* The symbol an identifier names in p: a function or a global, else neither. */
static bool lookup_symbol(ir_program *p, const char *name, ir_function **f, ir_global **g)
{
	*f = strmap_get(&p->function_by_name, name);
	*g = *f ? NULL : strmap_get(&p->global_by_name, name);
	return *f || *g;
}

/* A section name after .section/.pushsection: quoted, or up to a comma or blank. */
static const char *section_name(asm_state *st, char *s)
{
	s = skip_ws(s);
	char *end;
	if (*s == '"') {
		end = strchr(++s, '"');
		if (!end)
			return NULL;
	} else {
		end = s;
		while (*end && *end != ',' && *end != ' ' && *end != '\t')
			end++;
	}
	if (end == s)
		return NULL;
	char save = *end;
	*end = 0;
	const char *name = ir_intern(st->p, s);
	*end = save;
	return name;
}

/* Parses one operand: [(]SYM[)] [(+|-) NUMBER] [- .]. True with sym and
 * relative set when it has that form. */
static bool parse_operand(char *op, char **sym, bool *relative)
{
	op = skip_ws(op);
	bool paren = *op == '(';
	if (paren)
		op = skip_ws(op + 1);
	if (!ident_start((unsigned char)*op) || (op[0] == '.' && !ident_char((unsigned char)op[1])))
		return false;
	char *end = op;
	while (ident_char((unsigned char)*end))
		end++;
	char *rest = skip_ws(end);
	if (paren) {
		if (*rest != ')')
			return false;
		rest = skip_ws(rest + 1);
	}
	*relative = false;
	for (int part = 0; part < 2 && *rest; part++) {
		if (*rest != '+' && *rest != '-')
			return false;
		char *q = skip_ws(rest + 1);
		if (*rest == '-' && *q == '.' && !ident_char((unsigned char)q[1]) && !*relative) {
			*relative = true;
			rest = skip_ws(q + 1);
		} else if (isdigit((unsigned char)*q) && !*relative) {
			strtoll(q, &rest, 0);
			rest = skip_ws(rest);
		} else {
			return false;
		}
	}
	if (*rest)
		return false;
	*end = 0;
	*sym = op;
	return true;
}

/* Does the operand mention a module symbol anywhere (for the unparsed count)? */
static bool mentions_symbol(ir_program *p, char *op)
{
	for (char *s = op; *s;) {
		if (!ident_start((unsigned char)*s)) {
			s++;
			continue;
		}
		char *e = s;
		while (ident_char((unsigned char)*e))
			e++;
		char save = *e;
		*e = 0;
		ir_function *f;
		ir_global *g;
		bool hit = lookup_symbol(p, s, &f, &g);
		*e = save;
		if (hit)
			return true;
		s = e;
	}
	return false;
}

static void data_directive(asm_state *st, char *ops)
{
	while (ops && *ops) {
		char *comma = strchr(ops, ',');
		if (comma)
			*comma = 0;
		char copy[512];
		snprintf(copy, sizeof copy, "%s", ops);
		char *sym;
		bool relative;
		ir_function *f = NULL;
		ir_global *g = NULL;
		if (parse_operand(ops, &sym, &relative) && lookup_symbol(st->p, sym, &f, &g)) {
			ir_asm_entry e = {st->cur ? st->cur : ir_intern(st->p, ".text"), f, g, relative};
			VEC_PUSH(&st->entries, e);
			st->p->module_asm.entries++;
		} else if (mentions_symbol(st->p, copy)) {
			st->p->module_asm.unparsed++;
		}
		ops = comma ? comma + 1 : NULL;
	}
}

static bool directive_is(const char *s, const char *name, char **rest)
{
	size_t n = strlen(name);
	if (strncmp(s, name, n) != 0 || ident_char((unsigned char)s[n]))
		return false;
	*rest = (char *)s + n;
	return true;
}

static void set_section(asm_state *st, const char *name)
{
	if (!name)
		return;
	st->prev = st->cur;
	st->cur = name;
}

/* `NAME` then nothing: true with *sym at NAME (cut off in place). */
static bool lone_symbol(char *s, char **sym)
{
	s = skip_ws(s);
	if (!ident_start((unsigned char)*s) || (s[0] == '.' && !ident_char((unsigned char)s[1])))
		return false;
	char *e = s;
	while (ident_char((unsigned char)*e))
		e++;
	if (*skip_ws(e))
		return false;
	*e = 0;
	*sym = s;
	return true;
}

/* A rel32 operand: `SYM - (. + 4)` (the jump's target less the address after it). */
static bool rel32_operand(char *s, char **sym)
{
	char *minus = strchr(s, '-');
	if (!minus)
		return false;
	char *q = skip_ws(minus + 1);
	if (*q++ != '(')
		return false;
	q = skip_ws(q);
	if (*q++ != '.')
		return false;
	q = skip_ws(q);
	if (*q++ != '+')
		return false;
	q = skip_ws(q);
	char *end;
	if (strtol(q, &end, 0) != 4 || *skip_ws(end) != ')' || *skip_ws(skip_ws(end) + 1))
		return false;
	*minus = 0;
	return lone_symbol(s, sym);
}

static void make_trampoline(asm_state *st, const char *sym)
{
	ir_function *f = NULL;
	ir_global *g = NULL;
	ir_function *t = st->pending;
	t->trampoline = true;
	t->tramp_initial = sym && lookup_symbol(st->p, sym, &f, &g) ? f : NULL;
	st->p->module_asm.trampolines++;
	st->pending = NULL;
}

/* One statement after the label of st->pending, in the label's own section
 * (a section pushed meanwhile, as annotations do, is read as usual). True
 * when the statement was the body's and is consumed: a label alone, `ret`,
 * `jmp SYM`, `.byte 0xe9` and its `.long SYM - (. + 4)`. Any other
 * instruction ends the look: an asm body, no trampoline. */
static bool trampoline_body(asm_state *st, char *s)
{
	if (st->depth != st->pending_depth)
		return false;
	if (!*s)
		return true;
	char *rest, *sym, *end;
	bool data = directive_is(s, ".long", &rest) || directive_is(s, ".int", &rest) || directive_is(s, ".4byte", &rest);
	if (st->pending_e9) {
		if (data && rel32_operand(rest, &sym)) {
			make_trampoline(st, sym);
			return true;
		}
		st->pending = NULL;
		return false;
	}
	if (directive_is(s, ".byte", &rest)) {
		long b = strtol(skip_ws(rest), &end, 0);
		if (b == 0xe9 && end != skip_ws(rest) && !*skip_ws(end)) {
			st->pending_e9 = true;
			return true;
		}
		st->pending = NULL;
		return false;
	}
	if (*s == '.')
		return false;   /* .type, .size, .align, .pushsection ...: not the body yet */
	if (directive_is(s, "jmp", &rest) && lone_symbol(rest, &sym)) {
		make_trampoline(st, sym);
		return true;
	}
	if (directive_is(s, "ret", &rest) && !*skip_ws(rest)) {
		make_trampoline(st, NULL);
		return true;
	}
	st->pending = NULL;
	return false;
}

static void statement(asm_state *st, char *s)
{
	st->p->module_asm.statements++;
	s = skip_ws(s);
	/* Labels: `NAME:` (possibly several). */
	for (;;) {
		char *e = s;
		while (ident_char((unsigned char)*e))
			e++;
		if (e == s || *e != ':')
			break;
		*e = 0;
		ir_function *f;
		ir_global *g;
		if (lookup_symbol(st->p, s, &f, &g) && f && !f->defined) {
			st->p->module_asm.function_labels++;
			st->pending = f;
			st->pending_depth = st->depth;
			st->pending_e9 = false;
		}
		s = skip_ws(e + 1);
	}
	if (st->pending && trampoline_body(st, s))
		return;
	char *rest;
	if (directive_is(s, ".section", &rest)) {
		set_section(st, section_name(st, rest));
	} else if (directive_is(s, ".pushsection", &rest)) {
		const char *name = section_name(st, rest);
		if (name && st->depth < SECTION_STACK) {
			st->stack[st->depth][0] = st->cur;
			st->stack[st->depth++][1] = st->prev;
			set_section(st, name);
		}
	} else if (directive_is(s, ".popsection", &rest)) {
		if (st->depth) {
			st->depth--;
			st->cur = st->stack[st->depth][0];
			st->prev = st->stack[st->depth][1];
		}
	} else if (directive_is(s, ".previous", &rest)) {
		const char *t = st->cur;
		st->cur = st->prev;
		st->prev = t;
	} else if (directive_is(s, ".text", &rest) || directive_is(s, ".data", &rest) ||
	           directive_is(s, ".bss", &rest)) {
		*rest = 0;
		set_section(st, ir_intern(st->p, s));
	} else if (directive_is(s, ".long", &rest) || directive_is(s, ".int", &rest) ||
	           directive_is(s, ".4byte", &rest) || directive_is(s, ".quad", &rest) ||
	           directive_is(s, ".8byte", &rest)) {
		data_directive(st, rest);
	}
}

void ir_sections_parse_asm(ir_program *p, const char *text, size_t len)
{
	if (!text || !len)
		return;
	char *buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = 0;
	asm_state st = {.p = p};
	char *s = buf;
	while (*s) {
		/* One statement: up to a newline or `;`, a `#` comment cut off; quotes respected. */
		char *e = s;
		bool quoted = false, comment = false;
		for (; *e && *e != '\n' && (quoted || *e != ';'); e++) {
			if (*e == '"' && !comment)
				quoted = !quoted;
			else if (*e == '#' && !quoted && !comment)
				comment = true, *e = 0;
		}
		char end = *e;
		*e = 0;
		if (*skip_ws(s))
			statement(&st, s);
		s = end ? e + 1 : e;
	}
	free(buf);
	p->n_asm_entries = (unsigned)st.entries.len;
	p->asm_entries = arena_memdup(&p->arena, st.entries.items, st.entries.len * sizeof *st.entries.items);
	VEC_FREE(&st.entries);
}

void ir_sections_trampoline_calls(ir_program *p)
{
	for (unsigned i = 0; i < p->n_sites; i++) {
		ir_site *s = &p->sites[i];
		if (s->kind != SITE_DIRECT || !s->callee || !s->callee->trampoline)
			continue;
		s->kind = SITE_INDIRECT;
		s->trampoline = s->callee;
		s->callee = NULL;
		s->n_callbacks = 0;
		p->module_asm.trampoline_calls++;
	}
}

/* ---- bounds ------------------------------------------------------------------------- */

static const char *const end_suffixes[] = {"_start", "_end", "_begin", "_stop"};
#define STEM_MIN 3

/* The stem of a linker-script bound's name into out (empty when none). */
static void symbol_stem(const char *name, bool sibling_end, char *out, size_t cap)
{
	out[0] = 0;
	const char *s = name;
	while (*s == '_')
		s++;
	size_t n = strlen(s), keep = 0;
	for (size_t i = 0; i < sizeof end_suffixes / sizeof *end_suffixes && !keep; i++) {
		size_t k = strlen(end_suffixes[i]);
		if (n > k && strcmp(s + n - k, end_suffixes[i]) == 0)
			keep = n - k;
	}
	if (!keep && sibling_end)
		keep = n;
	if (keep < STEM_MIN || keep + 1 > cap)
		return;
	memcpy(out, s, keep);
	out[keep] = 0;
}

static bool stem_matches(const char *stem, const char *section)
{
	size_t n = strlen(stem);
	for (const char *c = section; c;) {
		while (*c == '.')
			c++;
		if (strncmp(c, stem, n) == 0)
			return true;
		c = strchr(c, '.');
	}
	return false;
}

static const char *exact_section(const char *name)
{
	if (strncmp(name, "__start_", 8) == 0)
		return name + 8;
	if (strncmp(name, "__stop_", 7) == 0)
		return name + 7;
	return NULL;
}

bool ir_section_bounds(const char *name, const char *section, bool sibling_end, bool *by_stem)
{
	*by_stem = false;
	const char *exact = exact_section(name);
	if (exact)
		return strcmp(exact, section) == 0;
	char stem[256];
	symbol_stem(name, sibling_end, stem, sizeof stem);
	*by_stem = true;
	return stem[0] && stem_matches(stem, section);
}

typedef VEC(ir_section_bound) bound_vec;

typedef struct section_items {
	const char *name;
	VEC(ir_global *) members;
	VEC(ir_asm_entry *) entries;
} section_items;

static bool has_undefined_global(const ir_program *p, const char *name)
{
	ir_global *g = strmap_get(&p->global_by_name, name);
	return g && !g->defined;
}

static bool sibling_end_declared(const ir_program *p, const char *name)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s_end", name);
	if (has_undefined_global(p, buf))
		return true;
	snprintf(buf, sizeof buf, "%s_stop", name);
	return has_undefined_global(p, buf);
}

static void bind_one(ir_program *p, ir_global *g, section_items *secs, size_t n, bound_vec *out)
{
	const char *exact = exact_section(g->name);
	char stem[256] = "";
	if (!exact)
		symbol_stem(g->name, sibling_end_declared(p, g->name), stem, sizeof stem);
	if (!exact && !stem[0])
		return;
	VEC(ir_global *) members = {0};
	VEC(ir_asm_entry *) entries = {0};
	for (size_t i = 0; i < n; i++) {
		if (exact ? strcmp(exact, secs[i].name) != 0 : !stem_matches(stem, secs[i].name))
			continue;
		for (size_t k = 0; k < secs[i].members.len; k++)
			VEC_PUSH(&members, secs[i].members.items[k]);
		for (size_t k = 0; k < secs[i].entries.len; k++)
			VEC_PUSH(&entries, secs[i].entries.items[k]);
	}
	if (members.len || entries.len) {
		ir_section_bound b = {g, !exact, arena_memdup(&p->arena, members.items, members.len * sizeof *members.items),
		                      (unsigned)members.len,
		                      arena_memdup(&p->arena, entries.items, entries.len * sizeof *entries.items),
		                      (unsigned)entries.len};
		VEC_PUSH(out, b);
	}
	VEC_FREE(&members);
	VEC_FREE(&entries);
}

void ir_sections_bind(ir_program *p)
{
	strmap index;
	strmap_init(&index);
	VEC(section_items) secs = {0};
	for (unsigned i = 0; i < p->n_globals + p->n_asm_entries; i++) {
		ir_global *g = i < p->n_globals ? p->globals[i] : NULL;
		ir_asm_entry *e = g ? NULL : &p->asm_entries[i - p->n_globals];
		const char *name = g ? g->section : e->section;
		if (!name || (g && !g->defined))
			continue;
		uintptr_t k = (uintptr_t)strmap_get(&index, name);
		if (!k) {
			section_items empty = {name, {0}, {0}};
			VEC_PUSH(&secs, empty);
			k = secs.len;
			strmap_put(&index, name, (void *)k);
		}
		if (g)
			VEC_PUSH(&secs.items[k - 1].members, g);
		else
			VEC_PUSH(&secs.items[k - 1].entries, e);
	}
	bound_vec bounds = {0};
	for (unsigned i = 0; secs.len && i < p->n_globals; i++)
		if (!p->globals[i]->defined)
			bind_one(p, p->globals[i], secs.items, secs.len, &bounds);
	p->n_bounds = (unsigned)bounds.len;
	p->bounds = arena_memdup(&p->arena, bounds.items, bounds.len * sizeof *bounds.items);
	p->bound_of_global = ARENA_ARRAY(&p->arena, ir_section_bound *, p->n_globals ? p->n_globals : 1);
	memset(p->bound_of_global, 0, (p->n_globals ? p->n_globals : 1) * sizeof *p->bound_of_global);
	for (unsigned i = 0; i < p->n_bounds; i++)
		p->bound_of_global[p->bounds[i].symbol->id] = &p->bounds[i];
	VEC_FREE(&bounds);
	for (size_t i = 0; i < secs.len; i++) {
		VEC_FREE(&secs.items[i].members);
		VEC_FREE(&secs.items[i].entries);
	}
	VEC_FREE(&secs);
	strmap_free(&index);
}
