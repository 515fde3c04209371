/* parse.c — lexer, parser and type checker of the .oo language; see program.h.
 *
 * Two phases. The parser reads the text into raw declarations that still hold
 * names, because a class may extend a class declared below it and a body may
 * call a function defined further down (the lesson's layout relies on both).
 * The resolver then checks every name and every assignment against the
 * hierarchy (Definition 20.1.4) and compiles the bodies to oo_stmt code.
 * Errors stop at the first problem and read "file:line:col: message".
 *
 * Grammar (newlines are ordinary white space; `#` starts a comment):
 *   program := { 'class' ID ['extends' ID] | 'global' ID ':' ID
 *              | 'func' ID block | 'method' ID '.' ID block }
 *   block   := '{' { stmt } '}'
 *   stmt    := 'var' ID ':' ID | ID '=' 'new' ID | ID '=' (ID | 'this')
 *            | ID ':' (ID | 'this') '.' ID '(' ')' | 'call' ID
 *            | 'choose' block 'or' block { 'or' block } */
#include "oo/program.h"
#include "oo/set.h"
#include "util/cident.h"
#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

/* Deep enough for any real program, shallow enough that garbage such as
 * "choose { choose { ..." cannot exhaust the C stack. */
enum { MAX_DEPTH = 200 };

/* ---- lexer ---------------------------------------------------------------- */

typedef enum tk { TK_EOF, TK_ID, TK_LBRACE, TK_RBRACE, TK_COLON, TK_EQ, TK_DOT, TK_LPAREN, TK_RPAREN } tk;

typedef struct token {
	tk kind;
	const char *s;
	int len, line, col;
} token;

static const char *const keywords[] = {
	"class", "extends", "global", "func", "method", "var", "new", "call", "choose", "or", "this",
};

typedef struct parser {
	const char *file;
	arena *a;
	facet_error *err;
	VEC(token) toks;
	size_t pos;
	int depth;
} parser;

static void perr(parser *ps, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void perr(parser *ps, int line, int col, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	error_set(ps->err, "%s:%d:%d: %s", ps->file, line, col, msg);
}

static int lex(parser *ps, const char *src, size_t len)
{
	int line = 1, col = 1;
	size_t i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)src[i];
		if (c == '\n') {
			line++, col = 1, i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			col++, i++;
			continue;
		}
		if (c == '#') {
			while (i < len && src[i] != '\n')
				i++;
			continue;
		}
		token t = {TK_EOF, src + i, 1, line, col};
		if (c_ident_start(c)) {
			size_t j = i;
			while (j < len && c_ident_char((unsigned char)src[j]))
				j++;
			if (j - i > 255) {
				perr(ps, line, col, "identifier longer than 255 characters");
				return -1;
			}
			t.kind = TK_ID;
			t.len = (int)(j - i);
		} else {
			switch (c) {
			case '{': t.kind = TK_LBRACE; break;
			case '}': t.kind = TK_RBRACE; break;
			case ':': t.kind = TK_COLON; break;
			case '=': t.kind = TK_EQ; break;
			case '.': t.kind = TK_DOT; break;
			case '(': t.kind = TK_LPAREN; break;
			case ')': t.kind = TK_RPAREN; break;
			default:
				if (c > ' ' && c < 127)
					perr(ps, line, col, "unexpected character '%c'", c);
				else
					perr(ps, line, col, "unexpected byte 0x%02x", c);
				return -1;
			}
		}
		VEC_PUSH(&ps->toks, t);
		i += (size_t)t.len;
		col += t.len;
	}
	token eof = {TK_EOF, "", 0, line, col};
	VEC_PUSH(&ps->toks, eof);
	return 0;
}

/* ---- raw declarations ----------------------------------------------------- */

typedef struct name { const char *s; int line, col; } name;

enum { R_VAR, R_NEW, R_COPY, R_VCALL, R_CALL, R_CHOOSE };

typedef struct rstmt rstmt;
typedef struct rblock { rstmt *stmts; int n; } rblock;
typedef VEC(rstmt) rstmt_vec;
struct rstmt {
	int kind;
	int line, col;
	name a, b, c;          /* VAR x:T; NEW x,C; COPY x,y; VCALL label,recv,m; CALL f */
	rblock *br;            /* CHOOSE */
	int nbr;
};

typedef struct rclass { name n, parent; } rclass;          /* parent.s NULL at a root */
typedef struct rglobal { name n, type; } rglobal;
typedef struct rbody { name cls, n; rblock block; int line, col; } rbody;   /* cls.s NULL for a func */

typedef struct raw {
	VEC(rclass) classes;
	VEC(rglobal) globals;
	VEC(rbody) bodies;
} raw;

static const token *peek(parser *ps) { return &ps->toks.items[ps->pos]; }
static const token *peek2(parser *ps)
{
	return ps->pos + 1 < ps->toks.len ? &ps->toks.items[ps->pos + 1] : &ps->toks.items[ps->toks.len - 1];
}
static void advance(parser *ps)
{
	if (ps->pos + 1 < ps->toks.len)
		ps->pos++;
}

static int is_kw(const token *t, const char *kw)
{
	return t->kind == TK_ID && (size_t)t->len == strlen(kw) && memcmp(t->s, kw, (size_t)t->len) == 0;
}

static int is_keyword(const token *t)
{
	for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
		if (is_kw(t, keywords[k]))
			return 1;
	return 0;
}

/* "'x'", "'{'" or "end of input", for "expected ..., found ..." */
static const char *describe(parser *ps, const token *t)
{
	if (t->kind == TK_EOF)
		return "end of input";
	if (t->kind == TK_ID && is_keyword(t))
		return arena_printf(ps->a, "keyword '%.*s'", t->len, t->s);
	return arena_printf(ps->a, "'%.*s'", t->len > 40 ? 40 : t->len, t->s);
}

static int expect(parser *ps, tk kind, const char *what, const char *context)
{
	const token *t = peek(ps);
	if (t->kind != kind) {
		perr(ps, t->line, t->col, "expected %s %s, found %s", what, context, describe(ps, t));
		return -1;
	}
	advance(ps);
	return 0;
}

static int ident(parser *ps, name *out, const char *what, const char *context)
{
	const token *t = peek(ps);
	if (t->kind != TK_ID || is_keyword(t)) {
		perr(ps, t->line, t->col, "expected %s %s, found %s", what, context, describe(ps, t));
		return -1;
	}
	out->s = arena_strndup(ps->a, t->s, (size_t)t->len);
	out->line = t->line;
	out->col = t->col;
	advance(ps);
	return 0;
}

static int parse_block(parser *ps, rblock *out, const char *context);

static int parse_stmt(parser *ps, rstmt_vec *out)
{
	const token *t = peek(ps);
	rstmt s = {0};
	s.line = t->line;
	s.col = t->col;
	if (is_kw(t, "var")) {
		advance(ps);
		s.kind = R_VAR;
		if (ident(ps, &s.a, "a variable name", "after 'var'") ||
		    expect(ps, TK_COLON, "':'", "after the variable name") ||
		    ident(ps, &s.b, "a class name", "as the variable's type"))
			return -1;
	} else if (is_kw(t, "call")) {
		advance(ps);
		s.kind = R_CALL;
		if (ident(ps, &s.a, "a function name", "after 'call'"))
			return -1;
	} else if (is_kw(t, "choose")) {
		advance(ps);
		s.kind = R_CHOOSE;
		VEC(rblock) br = {0};
		rblock b;
		int rc = parse_block(ps, &b, "after 'choose'");
		if (rc == 0) {
			VEC_PUSH(&br, b);
			if (!is_kw(peek(ps), "or")) {
				perr(ps, peek(ps)->line, peek(ps)->col,
				     "expected 'or' after the first branch of 'choose' (opened at %d:%d), found %s",
				     s.line, s.col, describe(ps, peek(ps)));
				rc = -1;
			}
			while (rc == 0 && is_kw(peek(ps), "or")) {
				advance(ps);
				rc = parse_block(ps, &b, "after 'or'");
				if (rc == 0)
					VEC_PUSH(&br, b);
			}
		}
		if (rc == 0) {
			s.nbr = (int)br.len;
			s.br = arena_memdup(ps->a, br.items, br.len * sizeof *br.items);
		}
		VEC_FREE(&br);
		if (rc)
			return -1;
	} else if (is_kw(t, "this")) {
		const token *u = peek2(ps);
		if (u->kind == TK_EQ)
			perr(ps, t->line, t->col, "cannot assign to 'this'");
		else if (u->kind == TK_DOT)
			perr(ps, t->line, t->col, "a virtual call needs a label, as in 's1: this.m()'");
		else
			perr(ps, t->line, t->col, "expected a statement, found keyword 'this'");
		return -1;
	} else if (t->kind == TK_ID && !is_keyword(t)) {
		name first;
		ident(ps, &first, "", "");
		const token *u = peek(ps);
		if (u->kind == TK_COLON) {
			advance(ps);
			s.kind = R_VCALL;
			s.a = first;
			const token *r = peek(ps);
			if (is_kw(r, "this")) {
				s.b = (name){"this", r->line, r->col};
				advance(ps);
			} else if (ident(ps, &s.b, "a receiver (a variable or 'this')", "after the label")) {
				return -1;
			}
			if (expect(ps, TK_DOT, "'.'", "after the receiver") ||
			    ident(ps, &s.c, "a method name", "after '.'") ||
			    expect(ps, TK_LPAREN, "'('", "after the method name") ||
			    expect(ps, TK_RPAREN, "')'", "(calls take no arguments)"))
				return -1;
		} else if (u->kind == TK_EQ) {
			advance(ps);
			s.a = first;
			const token *r = peek(ps);
			if (is_kw(r, "new")) {
				advance(ps);
				s.kind = R_NEW;
				if (ident(ps, &s.b, "a class name", "after 'new'"))
					return -1;
			} else if (is_kw(r, "this")) {
				s.kind = R_COPY;
				s.b = (name){"this", r->line, r->col};
				advance(ps);
			} else {
				s.kind = R_COPY;
				if (ident(ps, &s.b, "'new C', a variable or 'this'", "after '='"))
					return -1;
			}
		} else if (u->kind == TK_DOT) {
			perr(ps, first.line, first.col, "a virtual call needs a label, as in 's1: %s.m()'", first.s);
			return -1;
		} else {
			perr(ps, u->line, u->col, "expected '=' or ':' after '%s', found %s", first.s, describe(ps, u));
			return -1;
		}
	} else {
		perr(ps, t->line, t->col, "expected a statement, found %s", describe(ps, t));
		return -1;
	}
	VEC_PUSH(out, s);
	return 0;
}

static int parse_block(parser *ps, rblock *out, const char *context)
{
	const token *open = peek(ps);
	int line = open->line, col = open->col;
	if (expect(ps, TK_LBRACE, "'{'", context))
		return -1;
	if (++ps->depth > MAX_DEPTH) {
		perr(ps, line, col, "blocks nested more than %d deep", MAX_DEPTH);
		return -1;
	}
	rstmt_vec stmts = {0};
	int rc = 0;
	while (rc == 0 && peek(ps)->kind != TK_RBRACE) {
		if (peek(ps)->kind == TK_EOF) {
			perr(ps, peek(ps)->line, peek(ps)->col, "expected '}' to close the block opened at %d:%d, found end of input",
			     line, col);
			rc = -1;
		} else {
			rc = parse_stmt(ps, &stmts);
		}
	}
	if (rc == 0) {
		advance(ps);
		out->n = (int)stmts.len;
		out->stmts = arena_memdup(ps->a, stmts.items, stmts.len * sizeof *stmts.items);
	}
	VEC_FREE(&stmts);
	ps->depth--;
	return rc;
}

static int parse_decls(parser *ps, raw *r)
{
	for (;;) {
		const token *t = peek(ps);
		if (t->kind == TK_EOF)
			return 0;
		if (is_kw(t, "class")) {
			advance(ps);
			rclass c = {0};
			if (ident(ps, &c.n, "a class name", "after 'class'"))
				return -1;
			if (is_kw(peek(ps), "extends")) {
				advance(ps);
				if (ident(ps, &c.parent, "a class name", "after 'extends'"))
					return -1;
			}
			VEC_PUSH(&r->classes, c);
		} else if (is_kw(t, "global")) {
			advance(ps);
			rglobal g;
			if (ident(ps, &g.n, "a global name", "after 'global'") ||
			    expect(ps, TK_COLON, "':'", "after the global's name") ||
			    ident(ps, &g.type, "a class name", "as the global's type"))
				return -1;
			VEC_PUSH(&r->globals, g);
		} else if (is_kw(t, "func") || is_kw(t, "method")) {
			int is_method = is_kw(t, "method");
			rbody b = {0};
			b.line = t->line;
			b.col = t->col;
			advance(ps);
			if (is_method) {
				if (ident(ps, &b.cls, "a class name", "after 'method'") ||
				    expect(ps, TK_DOT, "'.'", "between class and method name (method C.m)") ||
				    ident(ps, &b.n, "a method name", "after '.'") ||
				    parse_block(ps, &b.block, "to open the method's body"))
					return -1;
			} else if (ident(ps, &b.n, "a function name", "after 'func'") ||
			           parse_block(ps, &b.block, "to open the function's body")) {
				return -1;
			}
			VEC_PUSH(&r->bodies, b);
		} else {
			perr(ps, t->line, t->col, "expected 'class', 'global', 'func' or 'method', found %s", describe(ps, t));
			return -1;
		}
	}
}

/* ---- resolver -------------------------------------------------------------- */

typedef struct resolver {
	parser *ps;
	oo_program *p;
	strmap classes, globals, funcs, methods, meths, labels;   /* name -> index + 1 */
	strmap scope;                                             /* locals of the current body */
	VEC(oo_var) vars;
	VEC(oo_site) sites;
	VEC(const char *) meth_names;
	VEC(oo_stmt) code;
	int body;
} resolver;

#define IDX(v) ((int)(intptr_t)(v) - 1)
#define VAL(i) ((void *)(intptr_t)((i) + 1))

static int find_class(resolver *rs, name n, const char *role)
{
	int c = IDX(strmap_get(&rs->classes, n.s));
	if (c < 0)
		perr(rs->ps, n.line, n.col, "unknown class '%s'%s", n.s, role);
	return c;
}

static const char *cname(resolver *rs, int c) { return rs->p->classes[c].name; }

/* Renumbers the classes in preorder of the forest (program.h): roots and
 * children keep their declaration order, each subtree becomes the range
 * [index, sub_end). Runs before anything else holds a class index. */
static void number_in_preorder(resolver *rs)
{
	oo_program *p = rs->p;
	int nc = p->nclasses;
	int *child = xmalloc(sizeof(int) * ((size_t)nc + 1)), *sibling = xmalloc(sizeof(int) * ((size_t)nc + 1));
	int *stack = xmalloc(sizeof(int) * ((size_t)nc + 1)), *to = xmalloc(sizeof(int) * ((size_t)nc + 1));
	int *from = xmalloc(sizeof(int) * ((size_t)nc + 1));
	for (int c = 0; c < nc; c++)
		child[c] = -1;
	/* prepending in declaration order leaves each child list reversed,
	 * which is the order a stack must receive it in */
	int roots = -1;
	for (int c = 0; c < nc; c++) {
		int *head = p->classes[c].parent >= 0 ? &child[p->classes[c].parent] : &roots;
		sibling[c] = *head;
		*head = c;
	}
	int n = 0, top = 0;
	for (int r = roots; r >= 0; r = sibling[r])
		stack[top++] = r;
	/* roots were also prepended: the stack now pops them in declaration order */
	while (top > 0) {
		int c = stack[--top];
		to[c] = n;
		from[n++] = c;
		for (int k = child[c]; k >= 0; k = sibling[k])
			stack[top++] = k;
	}
	oo_class *old = arena_memdup(&p->a, p->classes, sizeof(oo_class) * (size_t)nc);
	for (int i = 0; i < nc; i++) {
		p->classes[i] = old[from[i]];
		if (p->classes[i].parent >= 0)
			p->classes[i].parent = to[p->classes[i].parent];
		p->classes[i].sub_end = i + 1;
		strmap_put(&rs->classes, p->classes[i].name, VAL(i));
	}
	/* a subtree's range ends where its last descendant's does; children come
	 * after their parent, so one backward pass settles every range */
	for (int i = nc - 1; i >= 0; i--) {
		int par = p->classes[i].parent;
		if (par >= 0 && p->classes[i].sub_end > p->classes[par].sub_end)
			p->classes[par].sub_end = p->classes[i].sub_end;
	}
	free(child);
	free(sibling);
	free(stack);
	free(to);
	free(from);
}

static int resolve_classes(resolver *rs, raw *r)
{
	oo_program *p = rs->p;
	p->nclasses = (int)r->classes.len;
	p->classes = ARENA_ARRAY(&p->a, oo_class, p->nclasses + 1);
	for (int i = 0; i < p->nclasses; i++) {
		rclass *c = &r->classes.items[i];
		int prev = IDX(strmap_get(&rs->classes, c->n.s));
		if (prev >= 0) {
			perr(rs->ps, c->n.line, c->n.col, "duplicate class '%s' (first declared at %d:%d)", c->n.s,
			     p->classes[prev].line, p->classes[prev].col);
			return -1;
		}
		strmap_put(&rs->classes, c->n.s, VAL(i));
		p->classes[i] = (oo_class){.name = c->n.s, .parent = -1, .sub_end = i + 1, .line = c->n.line, .col = c->n.col};
	}
	for (int i = 0; i < p->nclasses; i++) {
		rclass *c = &r->classes.items[i];
		if (!c->parent.s)
			continue;
		char role[300];
		snprintf(role, sizeof role, " (the parent of '%s')", c->n.s);
		if ((p->classes[i].parent = find_class(rs, c->parent, role)) < 0)
			return -1;
	}
	/* The hierarchy must be a forest: walking up from any class must reach a
	 * root within nclasses steps, or the parent links form a cycle. */
	for (int i = 0; i < p->nclasses; i++) {
		int c = i;
		for (int steps = 0; c >= 0; steps++) {
			if (steps > p->nclasses) {
				perr(rs->ps, p->classes[i].line, p->classes[i].col, "class '%s' is its own ancestor (inheritance cycle)",
				     p->classes[i].name);
				return -1;
			}
			c = p->classes[c].parent;
		}
	}
	number_in_preorder(rs);
	return 0;
}

static int resolve_globals(resolver *rs, raw *r)
{
	for (size_t i = 0; i < r->globals.len; i++) {
		rglobal *g = &r->globals.items[i];
		int prev = IDX(strmap_get(&rs->globals, g->n.s));
		if (prev >= 0) {
			perr(rs->ps, g->n.line, g->n.col, "duplicate global '%s' (first declared at %d:%d)", g->n.s,
			     rs->vars.items[prev].line, rs->vars.items[prev].col);
			return -1;
		}
		int type = find_class(rs, g->type, "");
		if (type < 0)
			return -1;
		strmap_put(&rs->globals, g->n.s, VAL(rs->vars.len));
		oo_var v = {g->n.s, type, -1, g->n.line, g->n.col};
		VEC_PUSH(&rs->vars, v);
	}
	rs->p->nglobals = (int)rs->vars.len;
	return 0;
}

static int intern_meth(resolver *rs, const char *m)
{
	int i = IDX(strmap_get(&rs->meths, m));
	if (i < 0) {
		i = (int)rs->meth_names.len;
		VEC_PUSH(&rs->meth_names, m);
		strmap_put(&rs->meths, m, VAL(i));
	}
	return i;
}

static int declare_bodies(resolver *rs, raw *r)
{
	oo_program *p = rs->p;
	p->nbodies = (int)r->bodies.len;
	p->bodies = ARENA_ARRAY(&p->a, oo_body, p->nbodies + 1);
	p->main_body = -1;
	for (int i = 0; i < p->nbodies; i++) {
		rbody *rb = &r->bodies.items[i];
		oo_body *b = &p->bodies[i];
		b->line = rb->line;
		b->col = rb->col;
		b->cls = b->meth = b->this_var = -1;
		strmap *map = &rs->funcs;
		if (rb->cls.s) {
			if ((b->cls = find_class(rs, rb->cls, "")) < 0)
				return -1;
			b->meth = intern_meth(rs, rb->n.s);
			b->name = arena_printf(&p->a, "%s.%s", rb->cls.s, rb->n.s);
			map = &rs->methods;
		} else {
			b->name = rb->n.s;
			if (strcmp(b->name, "main") == 0)
				p->main_body = i;
		}
		int prev = IDX(strmap_get(map, b->name));
		if (prev >= 0) {
			perr(rs->ps, rb->line, rb->col, "duplicate %s '%s' (first defined at %d:%d)", rb->cls.s ? "method" : "func",
			     b->name, p->bodies[prev].line, p->bodies[prev].col);
			return -1;
		}
		strmap_put(map, b->name, VAL(i));
	}
	if (p->main_body < 0) {
		error_set(rs->ps->err, "%s: no 'func main' (the entry point)", rs->ps->file);
		return -1;
	}
	return 0;
}

/* Dispatch table: lookup(C, m) is C's own m or its parent's lookup; in
 * preorder a parent comes before its children, so one pass fills it. */
static void build_hierarchy(resolver *rs)
{
	oo_program *p = rs->p;
	int nc = p->nclasses, nm = p->nmeths;
	p->cwords = oo_set_words(nc);
	p->bwords = oo_set_words(p->nbodies);
	p->lookup = ARENA_ARRAY(&p->a, int, (size_t)nc * nm + 1);
	for (size_t i = 0; i < (size_t)nc * nm; i++)
		p->lookup[i] = -1;
	for (int b = 0; b < p->nbodies; b++)
		if (p->bodies[b].cls >= 0)
			p->lookup[(size_t)p->bodies[b].cls * nm + p->bodies[b].meth] = b;
	for (int c = 0; c < nc; c++) {
		int par = p->classes[c].parent;
		if (par < 0)
			continue;
		int *row = p->lookup + (size_t)c * nm;
		for (int m = 0; m < nm; m++)
			if (row[m] < 0)
				row[m] = p->lookup[(size_t)par * nm + m];
	}
}

static int find_var(resolver *rs, name n, int *out)
{
	const oo_body *b = &rs->p->bodies[rs->body];
	if (strcmp(n.s, "this") == 0) {
		if (b->this_var < 0) {
			perr(rs->ps, n.line, n.col, "'this' used in func %s, which is not a method", b->name);
			return -1;
		}
		*out = b->this_var;
		return 0;
	}
	int v = IDX(strmap_get(&rs->scope, n.s));
	if (v < 0)
		v = IDX(strmap_get(&rs->globals, n.s));
	if (v < 0) {
		perr(rs->ps, n.line, n.col, "unknown variable '%s' in %s (declare it with 'var %s: C' first)", n.s, b->name,
		     n.s);
		return -1;
	}
	*out = v;
	return 0;
}

static int emit(resolver *rs, oo_stmt s)
{
	VEC_PUSH(&rs->code, s);
	return (int)rs->code.len - 1;
}

static int resolve_block(resolver *rs, const rblock *blk)
{
	oo_program *p = rs->p;
	const char *bname = p->bodies[rs->body].name;
	for (int i = 0; i < blk->n; i++) {
		const rstmt *s = &blk->stmts[i];
		oo_stmt st = {0};
		st.line = s->line;
		st.col = s->col;
		switch (s->kind) {
		case R_VAR: {
			int prev = IDX(strmap_get(&rs->scope, s->a.s));
			if (prev >= 0) {
				perr(rs->ps, s->a.line, s->a.col, "duplicate variable '%s' in %s (first declared at %d:%d)", s->a.s,
				     bname, rs->vars.items[prev].line, rs->vars.items[prev].col);
				return -1;
			}
			int g = IDX(strmap_get(&rs->globals, s->a.s));
			if (g >= 0) {
				perr(rs->ps, s->a.line, s->a.col, "variable '%s' in %s hides the global declared at %d:%d", s->a.s,
				     bname, rs->vars.items[g].line, rs->vars.items[g].col);
				return -1;
			}
			int type = find_class(rs, s->b, "");
			if (type < 0)
				return -1;
			strmap_put(&rs->scope, s->a.s, VAL(rs->vars.len));
			oo_var v = {s->a.s, type, rs->body, s->a.line, s->a.col};
			VEC_PUSH(&rs->vars, v);
			continue;   /* declarations compile to nothing */
		}
		case R_NEW: {
			st.op = OO_NEW;
			if (find_var(rs, s->a, &st.dst) || (st.cls = find_class(rs, s->b, "")) < 0)
				return -1;
			int want = rs->vars.items[st.dst].type;
			if (!oo_subclass(p, st.cls, want)) {
				perr(rs->ps, s->line, s->col, "ill-typed assignment: new %s is not a %s, the type of '%s'",
				     cname(rs, st.cls), cname(rs, want), s->a.s);
				return -1;
			}
			st.alloc = p->nallocs++;
			break;
		}
		case R_COPY: {
			st.op = OO_COPY;
			if (find_var(rs, s->a, &st.dst) || find_var(rs, s->b, &st.src))
				return -1;
			int want = rs->vars.items[st.dst].type, have = rs->vars.items[st.src].type;
			if (!oo_subclass(p, have, want)) {
				perr(rs->ps, s->line, s->col, "ill-typed assignment: '%s' has type %s, which is not a subclass of %s, the type of '%s'",
				     s->b.s, cname(rs, have), cname(rs, want), s->a.s);
				return -1;
			}
			break;
		}
		case R_VCALL: {
			st.op = OO_VCALL;
			int prev = IDX(strmap_get(&rs->labels, s->a.s));
			if (prev >= 0) {
				perr(rs->ps, s->a.line, s->a.col, "duplicate label '%s' (first used at %d:%d)", s->a.s,
				     rs->sites.items[prev].line, rs->sites.items[prev].col);
				return -1;
			}
			oo_site site = {s->a.s, rs->body, -1, -1, s->line, s->col};
			if (find_var(rs, s->b, &site.recv))
				return -1;
			int type = rs->vars.items[site.recv].type;
			site.meth = IDX(strmap_get(&rs->meths, s->c.s));
			/* Type-correct call: some class the receiver may hold understands m.
			 * (The lesson's CHA skips undefined lookups, so a call that only
			 * some subclasses understand is accepted, as in the lesson.) */
			int ok = 0;
			if (site.meth >= 0) {
				for (int c = type; c < p->classes[type].sub_end && !ok; c++)
					ok = oo_lookup(p, c, site.meth) >= 0;
			}
			if (!ok) {
				perr(rs->ps, s->c.line, s->c.col, "no method '%s' for '%s' of type %s: neither %s, its ancestors nor its subclasses define it",
				     s->c.s, s->b.s, cname(rs, type), cname(rs, type));
				return -1;
			}
			strmap_put(&rs->labels, s->a.s, VAL(rs->sites.len));
			st.site = (int)rs->sites.len;
			VEC_PUSH(&rs->sites, site);
			break;
		}
		case R_CALL:
			st.op = OO_CALL;
			if ((st.callee = IDX(strmap_get(&rs->funcs, s->a.s))) < 0) {
				perr(rs->ps, s->a.line, s->a.col, "unknown function '%s'", s->a.s);
				return -1;
			}
			break;
		case R_CHOOSE: {
			st.op = OO_CHOOSE;
			st.nbranch = s->nbr;
			st.branch = ARENA_ARRAY(&p->a, int, s->nbr);
			int at = emit(rs, st);
			int *jumps = xmalloc(sizeof(int) * (size_t)s->nbr);
			int rc = 0;
			for (int k = 0; k < s->nbr && rc == 0; k++) {
				rs->code.items[at].branch[k] = (int)rs->code.len;
				rc = resolve_block(rs, &s->br[k]);
				jumps[k] = emit(rs, (oo_stmt){.op = OO_JUMP, .line = s->line, .col = s->col});
			}
			if (rc == 0) {
				int end = (int)rs->code.len;
				rs->code.items[at].next = end;
				for (int k = 0; k < s->nbr; k++)
					rs->code.items[jumps[k]].next = end;
			}
			free(jumps);
			if (rc)
				return -1;
			continue;
		}
		}
		emit(rs, st);
	}
	return 0;
}

static int resolve_bodies(resolver *rs, raw *r)
{
	oo_program *p = rs->p;
	for (int i = 0; i < p->nbodies; i++) {
		oo_body *b = &p->bodies[i];
		rs->body = i;
		strmap_free(&rs->scope);
		strmap_init(&rs->scope);
		if (b->cls >= 0) {
			b->this_var = (int)rs->vars.len;
			oo_var v = {"this", b->cls, i, b->line, b->col};
			VEC_PUSH(&rs->vars, v);
		}
		VEC_CLEAR(&rs->code);
		if (resolve_block(rs, &r->bodies.items[i].block))
			return -1;
		b->ncode = (int)rs->code.len;
		b->code = arena_memdup(&p->a, rs->code.items, rs->code.len * sizeof *rs->code.items);
	}
	return 0;
}

typedef struct named { const char *name; int idx; } named;
static int named_cmp(const void *x, const void *y)
{
	return strcmp(((const named *)x)->name, ((const named *)y)->name);
}

static int resolve(parser *ps, raw *r, oo_program *p)
{
	resolver rs = {0};
	rs.ps = ps;
	rs.p = p;
	strmap *maps[] = {&rs.classes, &rs.globals, &rs.funcs, &rs.methods, &rs.meths, &rs.labels, &rs.scope};
	for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
		strmap_init(maps[i]);
	int rc = -1;
	if (resolve_classes(&rs, r) || resolve_globals(&rs, r) || declare_bodies(&rs, r))
		goto out;
	p->nmeths = (int)rs.meth_names.len;
	p->meths = arena_memdup(&p->a, rs.meth_names.items, rs.meth_names.len * sizeof(char *));
	build_hierarchy(&rs);
	if (resolve_bodies(&rs, r))
		goto out;
	p->nvars = (int)rs.vars.len;
	p->vars = arena_memdup(&p->a, rs.vars.items, rs.vars.len * sizeof *rs.vars.items);
	p->nsites = (int)rs.sites.len;
	p->sites = arena_memdup(&p->a, rs.sites.items, rs.sites.len * sizeof *rs.sites.items);
	p->by_name = ARENA_ARRAY(&p->a, int, p->nbodies + 1);
	p->cls_by_name = ARENA_ARRAY(&p->a, int, p->nclasses + 1);
	int nmax = p->nbodies > p->nclasses ? p->nbodies : p->nclasses;
	named *tmp = xmalloc(sizeof *tmp * ((size_t)nmax + 1));
	for (int i = 0; i < p->nbodies; i++)
		tmp[i] = (named){p->bodies[i].name, i};
	qsort(tmp, (size_t)p->nbodies, sizeof *tmp, named_cmp);
	p->name_rank = ARENA_ARRAY(&p->a, int, p->nbodies + 1);
	for (int i = 0; i < p->nbodies; i++) {
		p->by_name[i] = tmp[i].idx;
		p->name_rank[tmp[i].idx] = i;
	}
	for (int i = 0; i < p->nclasses; i++)
		tmp[i] = (named){p->classes[i].name, i};
	qsort(tmp, (size_t)p->nclasses, sizeof *tmp, named_cmp);
	for (int i = 0; i < p->nclasses; i++)
		p->cls_by_name[i] = tmp[i].idx;
	free(tmp);
	rc = 0;
out:
	for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
		strmap_free(maps[i]);
	VEC_FREE(&rs.vars);
	VEC_FREE(&rs.sites);
	VEC_FREE(&rs.meth_names);
	VEC_FREE(&rs.code);
	return rc;
}

/* ---- entry points ---------------------------------------------------------- */

int oo_parse(const char *src, size_t len, const char *file, oo_program **out, facet_error *err)
{
	*out = NULL;
	oo_program *p = xcalloc(1, sizeof *p);
	arena_init(&p->a);
	p->file = arena_strdup(&p->a, file ? file : "<input>");
	parser ps = {0};
	ps.file = p->file;
	ps.a = &p->a;
	ps.err = err;
	raw r = {0};
	int rc = -1;
	if (lex(&ps, src, len) == 0 && parse_decls(&ps, &r) == 0 && resolve(&ps, &r, p) == 0)
		rc = 0;
	VEC_FREE(&ps.toks);
	VEC_FREE(&r.classes);
	VEC_FREE(&r.globals);
	VEC_FREE(&r.bodies);
	if (rc) {
		oo_program_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

int oo_parse_file(const char *path, oo_program **out, facet_error *err)
{
	*out = NULL;
	bool in = strcmp(path, "-") == 0;
	if (in)
		path = "<stdin>";
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f) {
		error_set(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	VEC(char) buf = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		VEC_RESERVE(&buf, buf.len + n);
		memcpy(buf.items + buf.len, chunk, n);
		buf.len += n;
	}
	int bad = ferror(f);
	if (!in)
		fclose(f);
	if (bad) {
		VEC_FREE(&buf);
		error_set(err, "%s: read error", path);
		return -1;
	}
	int rc = oo_parse(buf.items ? buf.items : "", buf.len, path, out, err);
	VEC_FREE(&buf);
	return rc;
}

void oo_program_free(oo_program *p)
{
	if (!p)
		return;
	arena_free(&p->a);
	free(p);
}

void oo_sort_by_name(const oo_program *p, int *bodies, int n)
{
	/* insertion sort on the rank: target sets are short, and the long ones
	 * (CHA on P_n) arrive in class order, which is nearly name order */
	for (int i = 1; i < n; i++) {
		int x = bodies[i], j = i;
		while (j > 0 && p->name_rank[bodies[j - 1]] > p->name_rank[x]) {
			bodies[j] = bodies[j - 1];
			j--;
		}
		bodies[j] = x;
	}
}

int oo_find_class(const oo_program *p, const char *wanted)
{
	for (int i = 0; i < p->nclasses; i++)
		if (strcmp(p->classes[i].name, wanted) == 0)
			return i;
	return -1;
}

int oo_find_body(const oo_program *p, const char *wanted)
{
	for (int i = 0; i < p->nbodies; i++)
		if (strcmp(p->bodies[i].name, wanted) == 0)
			return i;
	return -1;
}

int oo_find_site(const oo_program *p, const char *label)
{
	for (int i = 0; i < p->nsites; i++)
		if (strcmp(p->sites[i].label, label) == 0)
			return i;
	return -1;
}
