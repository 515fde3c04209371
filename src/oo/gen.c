/* gen.c — random .oo programs and P_n; see gen.h.
 *
 * The generator keeps its own copy of the hierarchy and the dispatch table so
 * that every statement it writes is type-correct by construction: `x = new C`
 * picks C in sub(decl(x)), `x = y` picks y with decl(y) ⪯ decl(x), and a call
 * x.m() picks an m that some class in sub(decl(x)) understands. Locals are
 * usually initialised first, so that receivers are rarely null and the
 * dynamic graph is not trivially empty. */
#include "oo/gen.h"
#include "oo/table.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *const difficulty_names[] = {"easy", "medium", "hard"};

int oo_difficulty_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, difficulty_names[i]) == 0)
			return i;
	return -1;
}

const char *oo_difficulty_name(int d) { return d >= 0 && d < 3 ? difficulty_names[d] : "?"; }

typedef struct shape {
	int classes[2], meths[2], globals[2], funcs[2], locals[2], stmts[2], method_stmts[2];
	int choose_pct, max_depth, branches, recursion;
} shape;

static const shape shapes[3] = {
	/* easy: a small hierarchy, no globals, no choose */
	{{3, 4}, {1, 2}, {0, 0}, {1, 2}, {1, 2}, {2, 4}, {0, 1}, 0, 0, 2, 0},
	/* medium: a global, one level of choose */
	{{4, 6}, {2, 2}, {0, 1}, {2, 3}, {1, 3}, {3, 6}, {0, 2}, 15, 1, 2, 0},
	/* hard: deeper hierarchy, globals, nested choose, recursion */
	{{5, 8}, {2, 3}, {1, 2}, {2, 4}, {2, 3}, {3, 7}, {0, 3}, 20, 2, 3, 1},
};

typedef struct gen {
	uint64_t s;
	shape sh;
	oo_buf out;
	int ncls, nmeth, nglob, nfunc;
	int *parent;
	unsigned char *popular;      /* classes `new` prefers */
	unsigned char *defines;      /* ncls × nmeth */
	int *lookup;                 /* ncls × nmeth: defining class or -1 */
	unsigned char *can;          /* ncls × nmeth: some class in sub(c) understands m */
	int *pos, *end, *order;      /* preorder: sub(c) = order[pos[c], end[c]) */
	int *gtype;
	int site;
	/* variables of the body being written; [0, nloc) locals, then globals, then this */
	int vtype[64], vkind[64], nvars;   /* kind 0 local, 1 global, 2 this */
	int vname[64];
	int func_now;
} gen;

static uint64_t next(gen *g)      /* splitmix64 */
{
	uint64_t z = (g->s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}
static int pick(gen *g, int n) { return n > 0 ? (int)(next(g) % (uint64_t)n) : 0; }
static int range(gen *g, const int r[2]) { return r[0] + pick(g, r[1] - r[0] + 1); }
static int chance(gen *g, int pct) { return pick(g, 100) < pct; }

static void cls_name(gen *g, int c)
{
	if (c < 26)
		oo_buf_printf(&g->out, "%c", 'A' + c);
	else
		oo_buf_printf(&g->out, "K%d", c);
}
static void meth_name(gen *g, int m)
{
	static const char *const names[] = {"m", "n", "p", "q"};
	if (m < 4)
		oo_buf_printf(&g->out, "%s", names[m]);
	else
		oo_buf_printf(&g->out, "m%d", m);
}
static void func_name(gen *g, int f)
{
	if (f == 0)
		oo_buf_printf(&g->out, "main");
	else
		oo_buf_printf(&g->out, "f%d", f);
}
static void var_name(gen *g, int v)
{
	if (g->vkind[v] == 2)
		oo_buf_printf(&g->out, "this");
	else if (g->vkind[v] == 1)
		oo_buf_printf(&g->out, "g%d", g->vname[v] + 1);
	else if (g->vname[v] < 5)
		oo_buf_printf(&g->out, "%c", "abcde"[g->vname[v]]);
	else
		oo_buf_printf(&g->out, "v%d", g->vname[v]);
}
static void indent(gen *g, int depth) { oo_buf_printf(&g->out, "%*s", 2 * depth + 2, ""); }

static int is_sub(gen *g, int c, int d) { return g->pos[d] <= g->pos[c] && g->pos[c] < g->end[d]; }

/* A class in sub(d) for `new`: usually one of the program's "popular"
 * classes, so that some subclasses are never instantiated and RTA has
 * something to remove. sub(d) is a range of the preorder, so a pick is O(1). */
static int pick_sub(gen *g, int d)
{
	int lo = g->pos[d], n = g->end[d] - lo;
	if (chance(g, 85))
		for (int tries = 0; tries < 16; tries++) {
			int c = g->order[lo + pick(g, n)];
			if (g->popular[c])
				return c;
		}
	return g->order[lo + pick(g, n)];
}

/* Preorder positions (pos, end: sub(c) is order[pos[c], end[c])) and, per
 * class and method, whether some class in sub(c) understands the method. */
static void index_hierarchy(gen *g)
{
	int n = g->ncls;
	int *child = xmalloc(sizeof(int) * (size_t)n), *sibling = xmalloc(sizeof(int) * (size_t)n);
	int *stack = xmalloc(sizeof(int) * (size_t)n);
	int roots = -1, top = 0, k = 0;
	for (int c = 0; c < n; c++)
		child[c] = -1;
	for (int c = 0; c < n; c++) {
		int *head = g->parent[c] >= 0 ? &child[g->parent[c]] : &roots;
		sibling[c] = *head;
		*head = c;
	}
	for (int r = roots; r >= 0; r = sibling[r])
		stack[top++] = r;
	while (top > 0) {
		int c = stack[--top];
		g->pos[c] = k;
		g->order[k++] = c;
		for (int x = child[c]; x >= 0; x = sibling[x])
			stack[top++] = x;
	}
	for (int c = 0; c < n; c++)
		g->end[c] = g->pos[c] + 1;
	for (int i = n - 1; i >= 0; i--) {
		int c = g->order[i], par = g->parent[c];
		if (par >= 0 && g->end[c] > g->end[par])
			g->end[par] = g->end[c];
		for (int m = 0; m < g->nmeth; m++) {
			g->can[c * g->nmeth + m] |= g->lookup[c * g->nmeth + m] >= 0;
			if (par >= 0)
				g->can[par * g->nmeth + m] |= g->can[c * g->nmeth + m];
		}
	}
	free(child);
	free(sibling);
	free(stack);
}

static void stmts(gen *g, int n, int depth);

static void stmt(gen *g, int depth)
{
	int assignable = 0;
	for (int v = 0; v < g->nvars; v++)
		assignable += g->vkind[v] != 2;
	int k = pick(g, 100);
	if (depth < g->sh.max_depth && chance(g, g->sh.choose_pct)) {
		indent(g, depth);
		oo_buf_printf(&g->out, "choose {\n");
		int nb = 2 + pick(g, g->sh.branches - 1);
		for (int b = 0; b < nb; b++) {
			if (b)
				oo_buf_printf(&g->out, "%*s} or {\n", 2 * depth + 2, "");
			stmts(g, 1 + pick(g, 3), depth + 1);
		}
		indent(g, depth);
		oo_buf_printf(&g->out, "}\n");
		return;
	}
	if (k < 12 && g->nfunc > 1) {
		/* call f: never main; without recursion only "later" functions */
		int lo = g->sh.recursion ? 1 : g->func_now + 1;
		if (lo < g->nfunc) {
			indent(g, depth);
			oo_buf_printf(&g->out, "call ");
			func_name(g, lo + pick(g, g->nfunc - lo));
			oo_buf_printf(&g->out, "\n");
			return;
		}
	}
	if (k < 45 && g->nvars > 0) {
		int recv = pick(g, g->nvars), d = g->vtype[recv];
		/* methods some class in sub(decl(recv)) understands */
		int ok[64], n = 0;
		for (int m = 0; m < g->nmeth && m < 64; m++)
			if (g->can[d * g->nmeth + m])
				ok[n++] = m;
		if (n > 0) {
			indent(g, depth);
			oo_buf_printf(&g->out, "s%d: ", ++g->site);
			var_name(g, recv);
			oo_buf_printf(&g->out, ".");
			meth_name(g, ok[pick(g, n)]);
			oo_buf_printf(&g->out, "()\n");
			return;
		}
	}
	if (assignable == 0)
		return;
	int dst;
	do
		dst = pick(g, g->nvars);
	while (g->vkind[dst] == 2);
	if (k < 75) {
		int src[64], n = 0;
		for (int v = 0; v < g->nvars; v++)
			if (v != dst && is_sub(g, g->vtype[v], g->vtype[dst]))
				src[n++] = v;
		if (n > 0) {
			indent(g, depth);
			var_name(g, dst);
			oo_buf_printf(&g->out, " = ");
			var_name(g, src[pick(g, n)]);
			oo_buf_printf(&g->out, "\n");
			return;
		}
	}
	indent(g, depth);
	var_name(g, dst);
	oo_buf_printf(&g->out, " = new ");
	cls_name(g, pick_sub(g, g->vtype[dst]));
	oo_buf_printf(&g->out, "\n");
}

static void stmts(gen *g, int n, int depth)
{
	for (int i = 0; i < n; i++)
		stmt(g, depth);
}

/* One body: locals, their usual initialisation, then random statements. */
static void body(gen *g, int this_cls, int nstmts)
{
	int nloc = range(g, g->sh.locals);
	if (nloc > 40)
		nloc = 40;
	g->nvars = 0;
	for (int i = 0; i < nloc; i++) {
		g->vtype[g->nvars] = pick(g, g->ncls);
		g->vkind[g->nvars] = 0;
		g->vname[g->nvars] = i;
		indent(g, 0);
		oo_buf_printf(&g->out, "var ");
		var_name(g, g->nvars);
		oo_buf_printf(&g->out, ": ");
		cls_name(g, g->vtype[g->nvars]);
		oo_buf_printf(&g->out, "\n");
		g->nvars++;
	}
	for (int i = 0; i < g->nglob && g->nvars < 60; i++) {
		g->vtype[g->nvars] = g->gtype[i];
		g->vkind[g->nvars] = 1;
		g->vname[g->nvars] = i;
		g->nvars++;
	}
	if (this_cls >= 0) {
		g->vtype[g->nvars] = this_cls;
		g->vkind[g->nvars] = 2;
		g->vname[g->nvars] = 0;
		g->nvars++;
	}
	for (int v = 0; v < nloc; v++)
		if (chance(g, 70)) {
			indent(g, 0);
			var_name(g, v);
			oo_buf_printf(&g->out, " = new ");
			cls_name(g, pick_sub(g, g->vtype[v]));
			oo_buf_printf(&g->out, "\n");
		}
	stmts(g, nstmts, 0);
}

char *oo_generate(uint64_t seed, oo_difficulty d, int size)
{
	gen g = {0};
	g.s = seed * 0x2545F4914F6CDD1DULL + (uint64_t)d + 1;
	g.sh = shapes[d >= OO_EASY && d <= OO_HARD ? d : OO_HARD];
	if (size > 0) {
		/* about `size` bodies: a third funcs, the rest methods */
		g.sh.classes[0] = g.sh.classes[1] = size / 3 > 3 ? size / 3 : 3;
		g.sh.funcs[0] = g.sh.funcs[1] = size / 3 > 2 ? size / 3 : 2;
		g.sh.meths[0] = g.sh.meths[1] = 3;
	}
	g.ncls = range(&g, g.sh.classes);
	g.nmeth = range(&g, g.sh.meths);
	g.nglob = range(&g, g.sh.globals);
	g.nfunc = range(&g, g.sh.funcs);
	g.parent = xmalloc(sizeof(int) * (size_t)g.ncls);
	g.defines = xcalloc((size_t)g.ncls * g.nmeth, 1);
	g.lookup = xmalloc(sizeof(int) * (size_t)g.ncls * g.nmeth);
	g.can = xcalloc((size_t)g.ncls * g.nmeth, 1);
	g.pos = xmalloc(sizeof(int) * (size_t)g.ncls);
	g.end = xmalloc(sizeof(int) * (size_t)g.ncls);
	g.order = xmalloc(sizeof(int) * (size_t)g.ncls);
	g.gtype = xmalloc(sizeof(int) * ((size_t)g.nglob + 1));
	g.popular = xcalloc((size_t)g.ncls, 1);
	for (int c = 0; c < g.ncls; c++) {
		g.parent[c] = c == 0 || chance(&g, 15) ? -1 : pick(&g, c);
		g.popular[c] = (unsigned char)chance(&g, 50);
	}
	for (int c = 0; c < g.ncls; c++) {
		oo_buf_printf(&g.out, "class ");
		cls_name(&g, c);
		if (g.parent[c] >= 0) {
			oo_buf_printf(&g.out, " extends ");
			cls_name(&g, g.parent[c]);
		}
		oo_buf_printf(&g.out, "\n");
		for (int m = 0; m < g.nmeth; m++)
			g.defines[c * g.nmeth + m] = (unsigned char)chance(&g, g.parent[c] < 0 ? 75 : 45);
	}
	/* parents precede children, so one pass fills the dispatch table */
	for (int c = 0; c < g.ncls; c++)
		for (int m = 0; m < g.nmeth; m++)
			g.lookup[c * g.nmeth + m] = g.defines[c * g.nmeth + m] ? c
			                            : g.parent[c] >= 0 ? g.lookup[g.parent[c] * g.nmeth + m] : -1;
	index_hierarchy(&g);
	for (int i = 0; i < g.nglob; i++) {
		g.gtype[i] = pick(&g, g.ncls);
		oo_buf_printf(&g.out, "global g%d: ", i + 1);
		cls_name(&g, g.gtype[i]);
		oo_buf_printf(&g.out, "\n");
	}
	for (int f = 0; f < g.nfunc; f++) {
		g.func_now = f;
		oo_buf_printf(&g.out, "\nfunc ");
		func_name(&g, f);
		oo_buf_printf(&g.out, " {\n");
		body(&g, -1, range(&g, g.sh.stmts) + (f == 0 ? 2 : 0));
		/* a large program is a whole program: main drives every function, so
		 * the analyses have most of it to resolve */
		for (int k = 1; f == 0 && size > 0 && k < g.nfunc; k++)
			oo_buf_printf(&g.out, "  call f%d\n", k);
		oo_buf_printf(&g.out, "}\n");
	}
	g.func_now = 0;
	for (int c = 0; c < g.ncls; c++)
		for (int m = 0; m < g.nmeth; m++) {
			if (!g.defines[c * g.nmeth + m])
				continue;
			oo_buf_printf(&g.out, "\nmethod ");
			cls_name(&g, c);
			oo_buf_printf(&g.out, ".");
			meth_name(&g, m);
			oo_buf_printf(&g.out, " {\n");
			body(&g, c, range(&g, g.sh.method_stmts));
			oo_buf_printf(&g.out, "}\n");
		}
	free(g.parent);
	free(g.popular);
	free(g.defines);
	free(g.lookup);
	free(g.can);
	free(g.pos);
	free(g.end);
	free(g.order);
	free(g.gtype);
	return g.out.s ? g.out.s : xstrdup("");
}

char *oo_generate_pathological(int n, int factory)
{
	oo_buf b = {0};
	oo_buf_printf(&b, "# P_%d of Lesson 20.1 section 5%s\nclass A\n", n, factory ? ", plus a factory creating every D_k" : "");
	for (int k = 1; k <= n; k++)
		oo_buf_printf(&b, "class D%d extends A\n", k);
	oo_buf_printf(&b, "\nfunc main {\n  var x: A\n  x = new D1\n");
	if (factory)
		oo_buf_printf(&b, "  call factory\n");
	for (int k = 1; k <= n; k++)
		oo_buf_printf(&b, "  s%d: x.m()\n", k);
	oo_buf_printf(&b, "}\n");
	if (factory) {
		oo_buf_printf(&b, "\nfunc factory {\n  var y: A\n");
		for (int k = 1; k <= n; k++)
			oo_buf_printf(&b, "  y = new D%d\n", k);
		oo_buf_printf(&b, "}\n");
	}
	oo_buf_printf(&b, "\nmethod A.m { }\n");
	for (int k = 1; k <= n; k++)
		oo_buf_printf(&b, "method D%d.m { }\n", k);
	return b.s;
}
