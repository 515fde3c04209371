/* test_oo_parse.c — the .oo parser and type checker (src/oo/parse.c).
 *
 * The running example of Lesson 20.1 must parse as the lesson writes it;
 * malformed programs must fail with a message naming file:line:col and the
 * problem (the positions below are counted by hand from the sources); and no
 * input, however broken, may crash the parser or the analyses behind it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oo/oo.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return s;
}

static oo_program *parse_ok(const char *src)
{
	facet_error err = {0};
	oo_program *p = NULL;
	if (oo_parse(src, strlen(src), "t.oo", &p, &err))
		fail_msg("expected t.oo to parse, got: %s", err.msg);
	return p;
}

static void running_example_model(void **state)
{
	(void)state;
	facet_error err = {0};
	oo_program *p;
	if (oo_parse_file(OO_TESTDIR "/running.oo", &p, &err))
		fail_msg("running.oo: %s", err.msg);
	/* class Shape, Circle, Square extend Shape, Cube extends Square */
	assert_int_equal(p->nclasses, 4);
	int shape = oo_find_class(p, "Shape"), circle = oo_find_class(p, "Circle");
	int square = oo_find_class(p, "Square"), cube = oo_find_class(p, "Cube");
	assert_int_equal(p->classes[shape].parent, -1);
	assert_int_equal(p->classes[circle].parent, shape);
	assert_int_equal(p->classes[cube].parent, square);
	/* sub(Shape) = all four; sub(Square) = {Square, Cube} */
	for (int c = 0; c < 4; c++)
		assert_true(oo_subclass(p, c, shape));
	assert_true(oo_subclass(p, cube, square));
	assert_false(oo_subclass(p, circle, square));
	assert_false(oo_subclass(p, shape, circle));
	/* global log: Shape */
	assert_int_equal(p->nglobals, 1);
	assert_string_equal(p->vars[0].name, "log");
	/* 4 funcs... no: main, report, unused + 7 methods, in textual order */
	static const char *const bodies[] = {"main", "report", "Shape.area", "Shape.draw", "Circle.area",
	                                     "Square.area", "Square.draw", "Cube.area", "Cube.draw", "unused"};
	assert_int_equal(p->nbodies, 10);
	for (int b = 0; b < 10; b++)
		assert_string_equal(p->bodies[b].name, bodies[b]);
	assert_int_equal(p->main_body, 0);
	/* sites in program order: s1 s2 (main), s3 s4 s5 (report), s7 (Shape.draw), s6 (unused) */
	static const char *const sites[] = {"s1", "s2", "s3", "s4", "s5", "s7", "s6"};
	assert_int_equal(p->nsites, 7);
	for (int s = 0; s < 7; s++)
		assert_string_equal(p->sites[s].label, sites[s]);
	assert_string_equal(p->bodies[p->sites[oo_find_site(p, "s7")].body].name, "Shape.draw");
	/* s7: this.area(): the receiver is Shape.draw's this, declared Shape */
	const oo_site *s7 = &p->sites[oo_find_site(p, "s7")];
	assert_int_equal(s7->recv, p->bodies[3].this_var);
	assert_int_equal(p->vars[s7->recv].type, shape);
	/* s5 is at line 28, column 5 of running.oo */
	assert_int_equal(p->sites[oo_find_site(p, "s5")].line, 28);
	assert_int_equal(p->sites[oo_find_site(p, "s5")].col, 5);
	/* dispatch: lookup(Circle, draw) = Shape.draw (inherited), lookup(Cube, area) = Cube.area */
	int area = p->sites[oo_find_site(p, "s1")].meth, draw = p->sites[oo_find_site(p, "s2")].meth;
	assert_int_equal(oo_lookup(p, circle, draw), oo_find_body(p, "Shape.draw"));
	assert_int_equal(oo_lookup(p, cube, area), oo_find_body(p, "Cube.area"));
	assert_int_equal(oo_lookup(p, circle, area), oo_find_body(p, "Circle.area"));
	/* two allocation sites reachable from main, one in unused */
	assert_int_equal(p->nallocs, 3);
	oo_program_free(p);
}

/* The lesson prints the example in three columns; any order of the flattened
 * definitions and any layout of white space is the same program. */
static void layouts_are_equivalent(void **state)
{
	(void)state;
	size_t len;
	char *src = slurp(OO_TESTDIR "/running.oo", &len);
	/* one line, CRLF, tabs */
	char *oneline = strdup(src), *crlf = malloc(2 * len + 1), *tabs = strdup(src);
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		if (oneline[i] == '\n')
			oneline[i] = ' ';
		if (tabs[i] == ' ')
			tabs[i] = '\t';
		if (src[i] == '\n')
			crlf[k++] = '\r';
		crlf[k++] = src[i];
	}
	crlf[k] = 0;
	/* definitions reversed: methods and functions before the classes they use */
	const char *reversed =
	    "func unused { var u: Shape u = new Cube s6: u.area() }\n"
	    "method Cube.draw { } method Cube.area { } method Square.draw { } method Square.area { }\n"
	    "method Circle.area { } method Shape.draw { s7: this.area() } method Shape.area { }\n"
	    "func report { var r: Shape var q: Shape q = new Square r = log s3: r.draw() s4: q.area()\n"
	    "  choose { q = r } or { s5: q.draw() } }\n"
	    "func main { var s: Shape var t: Shape s = new Circle s1: s.area() log = s t = s s2: t.draw() call report }\n"
	    "global log: Shape\nclass Cube extends Square\nclass Square extends Shape\nclass Circle extends Shape\nclass Shape\n";
	const char *variants[] = {oneline, crlf, tabs, reversed};
	for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
		oo_program *p = parse_ok(variants[v]);
		assert_int_equal(p->nclasses, 4);
		assert_int_equal(p->nbodies, 10);
		assert_int_equal(p->nsites, 7);
		/* the analyses do not care about layout: CHA 21 and XTA 9 edges everywhere */
		oo_graph *cha = oo_cha(p, NULL), *xta = oo_xta(p, NULL);
		assert_int_equal(cha->edges, 21);
		assert_int_equal(xta->edges, 9);
		oo_graph_free(cha);
		oo_graph_free(xta);
		oo_program_free(p);
	}
	free(oneline);
	free(crlf);
	free(tabs);
	free(src);
}

static void language_corners(void **state)
{
	(void)state;
	/* comments, n-ary and nested choose, empty branches, x = this, global to
	 * global copies, a class declared after its subclass, recursion */
	oo_program *p = parse_ok("# comment\n"
	                         "class B extends A   # forward reference\n"
	                         "class A\n"
	                         "global g: A\nglobal h: A\n"
	                         "func main { var x: A x = new B g = x h = g\n"
	                         "  choose { } or { choose { s1: h.m() } or { call main } } or { x = new A } }\n"
	                         "method A.m { var y: A y = this s2: y.m() }\n");
	assert_int_equal(p->nsites, 2);
	const oo_body *main = &p->bodies[p->main_body];
	/* code: NEW COPY COPY CHOOSE [JUMP] [CHOOSE [VCALL JUMP] [CALL JUMP] JUMP] [NEW JUMP] */
	assert_int_equal(main->code[3].op, OO_CHOOSE);
	assert_int_equal(main->code[3].nbranch, 3);
	assert_int_equal(main->code[3].next, main->ncode);
	int nchoose = 0;
	for (int i = 0; i < main->ncode; i++)
		nchoose += main->code[i].op == OO_CHOOSE;
	assert_int_equal(nchoose, 2);
	oo_program_free(p);
}

/* Classes are renumbered in preorder (program.h) whatever the declaration
 * order; the subclass relation must still be the reflexive-transitive
 * closure of `extends`, checked here against parent links by name. */
static void hierarchy_forest(void **state)
{
	(void)state;
	oo_program *p = parse_ok("class E extends C\nclass A\nclass C extends A\nclass B extends A\n"
	                         "class D extends B\nclass X\nclass Y extends X\nclass F extends C\nfunc main { }\n");
	/* by hand: sub(A) = {A, B, C, D, E, F}, sub(C) = {C, E, F}, sub(B) = {B, D}, sub(X) = {X, Y} */
	static const struct { const char *d, *sub; } want[] = {
		{"A", "ABCDEF"}, {"B", "BD"}, {"C", "CEF"}, {"D", "D"}, {"E", "E"}, {"F", "F"}, {"X", "XY"}, {"Y", "Y"},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		int d = oo_find_class(p, want[i].d);
		assert_true(d >= 0);
		int n = 0;
		for (const char *c = "ABCDEFXY"; *c; c++) {
			char name[2] = {*c, 0};
			int in = strchr(want[i].sub, *c) != NULL;
			if (oo_subclass(p, oo_find_class(p, name), d) != in)
				fail_msg("%s ⪯ %s should be %s", name, want[i].d, in ? "true" : "false");
			n += in;
		}
		/* sub(D) is the range [D, sub_end) */
		assert_int_equal(p->classes[d].sub_end - d, n);
	}
	assert_int_equal(p->classes[oo_find_class(p, "E")].parent, oo_find_class(p, "C"));
	assert_int_equal(p->classes[oo_find_class(p, "X")].parent, -1);
	oo_program_free(p);
}

typedef struct bad { const char *src, *msg; } bad;

/* Each message below is what the program deserves, with the position counted
 * by hand: line:column of the offending token. */
static const bad bad_programs[] = {
	/* syntax */
	{"class A\nfunc main\n  var x: A\n}\n", "bad.oo:3:3: expected '{' to open the function's body, found keyword 'var'"},
	{"class A\nfunc main {\n  var x: A\n", "bad.oo:4:1: expected '}' to close the block opened at 2:11, found end of input"},
	{"class A\nfunc main { var x: A x = new A s1: x.m( }\nmethod A.m { }\n",
	 "bad.oo:2:41: expected ')' (calls take no arguments), found '}'"},
	{"class A\nfunc main { var x: A x = new A x.m() }\nmethod A.m { }\n",
	 "bad.oo:2:32: a virtual call needs a label, as in 's1: x.m()'"},
	{"class A\nfunc main { choose { } }\n", "bad.oo:2:24: expected 'or' after the first branch of 'choose' (opened at 2:13), found '}'"},
	{"class A\nfunc main { var new: A }\n", "bad.oo:2:17: expected a variable name after 'var', found keyword 'new'"},
	{"class A @\n", "bad.oo:1:9: unexpected character '@'"},
	{"class A\nfunction main { }\n", "bad.oo:2:1: expected 'class', 'global', 'func' or 'method', found 'function'"},
	{"class A\nmethod A.m { this = this }\nfunc main { }\n", "bad.oo:2:14: cannot assign to 'this'"},
	/* names */
	{"class A\nfunc main {\n  var x: Circel\n}\n", "bad.oo:3:10: unknown class 'Circel'"},
	{"class A extends Shape\nfunc main { }\n", "bad.oo:1:17: unknown class 'Shape' (the parent of 'A')"},
	{"class A\nfunc main { var x: A x = new Circle }\n", "bad.oo:2:30: unknown class 'Circle'"},
	{"class A\nfunc main { var x: A x = y }\n", "bad.oo:2:26: unknown variable 'y' in main (declare it with 'var y: C' first)"},
	{"class A\nfunc main { call reprot }\nfunc report { }\n", "bad.oo:2:18: unknown function 'reprot'"},
	{"class A\nmethod B.m { }\nfunc main { }\n", "bad.oo:2:8: unknown class 'B'"},
	{"class A\nfunc main { var x: A x = new A s1: x.foo() }\nmethod A.m { }\n",
	 "bad.oo:2:38: no method 'foo' for 'x' of type A: neither A, its ancestors nor its subclasses define it"},
	{"class A\nfunc main { var x: A x = this }\n", "bad.oo:2:26: 'this' used in func main, which is not a method"},
	{"class A\nfunc f { }\n", "bad.oo: no 'func main' (the entry point)"},
	{"class A extends B\nclass B extends A\nfunc main { }\n", "bad.oo:1:7: class 'A' is its own ancestor (inheritance cycle)"},
	/* ill-typed assignments (Definition 20.1.4) */
	{"class Shape\nclass Circle extends Shape\nfunc main {\n  var c: Circle\n  c = new Shape\n}\n",
	 "bad.oo:5:3: ill-typed assignment: new Shape is not a Circle, the type of 'c'"},
	{"class Shape\nclass Circle extends Shape\nfunc main {\n  var s: Shape\n  var c: Circle\n  s = new Circle\n  c = s\n}\n",
	 "bad.oo:7:3: ill-typed assignment: 's' has type Shape, which is not a subclass of Circle, the type of 'c'"},
	{"class Shape\nclass Circle extends Shape\nclass Square extends Shape\nglobal g: Square\nfunc main { g = new Circle }\n",
	 "bad.oo:5:13: ill-typed assignment: new Circle is not a Square, the type of 'g'"},
	/* duplicate definitions */
	{"class A\nclass A\nfunc main { }\n", "bad.oo:2:7: duplicate class 'A' (first declared at 1:7)"},
	{"class A\nglobal g: A\nglobal g: A\nfunc main { }\n", "bad.oo:3:8: duplicate global 'g' (first declared at 2:8)"},
	{"class A\nfunc main { }\nfunc main { }\n", "bad.oo:3:1: duplicate func 'main' (first defined at 2:1)"},
	{"class A\nmethod A.m { }\nmethod A.m { }\nfunc main { }\n", "bad.oo:3:1: duplicate method 'A.m' (first defined at 2:1)"},
	{"class A\nfunc main {\n  var x: A\n  var x: A\n}\n", "bad.oo:4:7: duplicate variable 'x' in main (first declared at 3:7)"},
	{"class A\nglobal x: A\nfunc main {\n  var x: A\n}\n", "bad.oo:4:7: variable 'x' in main hides the global declared at 2:8"},
	{"class A\nmethod A.m { }\nfunc main {\n  var x: A\n  x = new A\n  s1: x.m()\n  s1: x.m()\n}\n",
	 "bad.oo:7:3: duplicate label 's1' (first used at 6:3)"},
};

static void malformed_programs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_programs / sizeof *bad_programs; i++) {
		facet_error err = {0};
		oo_program *p = (oo_program *)1;
		int rc = oo_parse(bad_programs[i].src, strlen(bad_programs[i].src), "bad.oo", &p, &err);
		if (rc == 0)
			fail_msg("bad program %zu parsed; expected: %s", i, bad_programs[i].msg);
		assert_null(p);
		if (strcmp(err.msg, bad_programs[i].msg) != 0)
			fail_msg("bad program %zu:\n  expected: %s\n  got:      %s", i, bad_programs[i].msg, err.msg);
	}
	facet_error err = {0};
	oo_program *p;
	assert_int_equal(oo_parse_file(OO_TESTDIR "/no-such-file.oo", &p, &err), -1);
	assert_non_null(strstr(err.msg, "no-such-file.oo: cannot open"));
}

/* Parses src; when it is a program, runs every analysis on it too. Never
 * crashes is the whole assertion (ASan and UBSan watch the rest). */
static int try_input(const char *src, size_t len)
{
	facet_error err = {0};
	oo_program *p;
	if (oo_parse(src, len, "m.oo", &p, &err)) {
		if (strncmp(err.msg, "m.oo", 4) != 0)
			fail_msg("error message without the file name: %s", err.msg);
		return 0;
	}
	oo_options opt = {0, 20000};
	for (int a = 0; a < OO_NALGO; a++) {
		oo_graph *g;
		oo_table *t;
		facet_error e2 = {0};
		if (oo_analyze(p, (oo_algo)a, &opt, &g, &t, &e2) == 0) {
			oo_graph_free(g);
			oo_table_free(t);
		}
	}
	oo_program_free(p);
	return 1;
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void garbage_never_crashes(void **state)
{
	(void)state;
	size_t len;
	char *src = slurp(OO_TESTDIR "/running.oo", &len);
	char *buf = malloc(2 * len + 64);
	/* every prefix: exactly those that end between definitions are programs */
	int parsed = 0;
	for (size_t n = 0; n <= len; n++) {
		memcpy(buf, src, n);
		parsed += try_input(buf, n);
	}
	assert_true(parsed > 0);
	assert_true(try_input(src, len));
	/* mutants: byte flips to interesting characters, deletions, duplications */
	static const char alphabet[] = "{}:=.()# \n\tabstxyzor\x01\xff";
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	for (int m = 0; m < 3000; m++) {
		memcpy(buf, src, len);
		size_t n = len;
		int edits = 1 + (int)(rng(&s) % 4);
		for (int e = 0; e < edits && n > 0; e++) {
			size_t at = rng(&s) % n;
			switch (rng(&s) % 4) {
			case 0: buf[at] = alphabet[rng(&s) % (sizeof alphabet - 1)]; break;
			case 1: buf[at] = (char)(rng(&s) & 0xff); break;
			case 2: {   /* delete a span */
				size_t k = 1 + rng(&s) % 12;
				if (at + k > n)
					k = n - at;
				memmove(buf + at, buf + at + k, n - at - k);
				n -= k;
				break;
			}
			case 3: {   /* duplicate a span */
				size_t k = 1 + rng(&s) % 24;
				if (at + k > n)
					k = n - at;
				if (n + k <= 2 * len + 32) {
					memmove(buf + at + k, buf + at, n - at);
					n += k;
				}
				break;
			}
			}
		}
		try_input(buf, n);
	}
	/* deep nesting is refused, not a stack overflow */
	size_t depth = 5000, k = 0;
	char *deep = malloc(depth * 12 + 64);
	k += (size_t)sprintf(deep, "class A\nfunc main { ");
	for (size_t i = 0; i < depth; i++)
		k += (size_t)sprintf(deep + k, "choose { ");
	facet_error err = {0};
	oo_program *p;
	assert_int_equal(oo_parse(deep, k, "deep.oo", &p, &err), -1);
	assert_non_null(strstr(err.msg, "nested more than"));
	free(deep);
	/* NUL bytes and empty input */
	assert_false(try_input("class A\0", 8));
	assert_false(try_input("", 0));
	free(buf);
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(running_example_model),
		cmocka_unit_test(layouts_are_equivalent),
		cmocka_unit_test(language_corners),
		cmocka_unit_test(hierarchy_forest),
		cmocka_unit_test(malformed_programs),
		cmocka_unit_test(garbage_never_crashes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
