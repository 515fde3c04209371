/* test_andersen.c — Andersen's analysis and R0 on small programs compiled here
 * with clang-22 -g at -O0 and -O2: the policies andersen.h documents (a
 * library without main, allocation wrappers, container_of, integers that
 * carry addresses, the type filter). Expected sets come from reading the
 * programs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ingest.h"
#include "../lib/cprog.h"
#include "pta/andersen.h"
#include "pta/print.h"

static char tmpdir[] = "/tmp/facet-test-andersen-XXXXXX";

static ir_program *compile(const char *source, const char *level)
{
	return cprog_from_source(tmpdir, source, level);
}

/* The sorted, space-separated R0 targets of the indirect site(s) on `line`. */
static char *r0_at(const ir_program *p, const cg_graph *g, unsigned line)
{
	const char *names[64];
	unsigned n = 0;
	bool found = false;
	for (unsigned i = 0; i < p->n_sites; i++) {
		if (p->sites[i].kind != SITE_INDIRECT || p->sites[i].loc.line != line)
			continue;
		found = true;
		for (unsigned k = 0; k < g->n_targets[i] && n < 64; k++) {
			const char *name = p->functions[g->targets[i][k]]->name;
			bool dup = false;
			for (unsigned j = 0; j < n; j++)
				dup |= strcmp(names[j], name) == 0;
			if (!dup)
				names[n++] = name;
		}
	}
	if (!found)
		return NULL;
	for (unsigned i = 1; i < n; i++)   /* insertion sort: tiny sets */
		for (unsigned j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	char *out = calloc(1, 1024);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, names[i]);
	}
	return out;
}

/* Checks R0 at each (line, expected) pair, at -O0 and -O2; at -O2 a site the
 * optimiser turned direct is skipped (expected may be NULL to say "-O0 only"). */
typedef struct expect { unsigned line; const char *o0, *o2; } expect;

static void check(const char *name, const char *source, const expect *ex, unsigned n)
{
	const char *levels[] = {"-O0", "-O2"};
	for (int l = 0; l < 2; l++) {
		ir_program *p = compile(source, levels[l]);
		pta_result *r = pta_analyze(p, NULL);
		cg_graph *g = pta_callgraph(r, true);
		for (unsigned i = 0; i < n; i++) {
			const char *want = l == 0 ? ex[i].o0 : ex[i].o2;
			char *got = r0_at(p, g, ex[i].line);
			if (l == 0 && !got)
				fail_msg("%s %s: no indirect site at line %u", name, levels[l], ex[i].line);
			if (want && got && strcmp(want, got) != 0)
				fail_msg("%s %s line %u: R0 is {%s}, expected {%s}", name, levels[l], ex[i].line, got, want);
			free(got);
		}
		cg_free(g);
		pta_result_free(r);
		ir_program_free(p);
	}
}

/* A library: the callback stored through one entry point is called through
 * another, both reached only from outside. */
static void library_without_main(void **state)
{
	(void)state;
	static const char src[] =
		"struct ops { int (*cb)(int); };\n"
		"static int inc(int x) { return x + 1; }\n"
		"static int dec(int x) { return x - 1; }\n"
		"static int unused(int x) { return x; }\n"
		"int (*pick(int up))(int) { return up ? inc : dec; }\n"
		"void lib_init(struct ops *o, int up) { o->cb = pick(up); }\n"
		"int lib_run(struct ops *o, int x) { return o->cb(x); }\n"       /* line 7 */
		"int lib_keep(int x) { int (*f)(int) = unused; (void)f; return x; }\n";
	expect ex[] = {{7, "dec inc", "dec inc"}};
	check("library", src, ex, 1);
}

/* Two calls of an allocation wrapper give two objects; a constructor that
 * fills the object in is not a wrapper and its stores are kept. */
static void allocation_wrappers(void **state)
{
	(void)state;
	static const char src[] =
		"#include <stdlib.h>\n"
		"struct box { void (*fire)(int); };\n"
		"static void a(int x) { (void)x; }\n"
		"static void b(int x) { (void)x; }\n"
		"static void c(int x) { (void)x; }\n"
		"static void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }\n"
		"static struct box *mk(void (*f)(int)) { struct box *p = xmalloc(sizeof *p); p->fire = f; return p; }\n"
		"int main(int argc, char **argv) {\n"
		"  (void)argv;\n"
		"  struct box *x = xmalloc(sizeof *x), *y = xmalloc(sizeof *y);\n"
		"  x->fire = a; y->fire = b;\n"
		"  x->fire(argc);\n"                                              /* line 12 */
		"  y->fire(argc);\n"                                              /* line 13 */
		"  struct box *z = mk(c);\n"
		"  z->fire(argc);\n"                                              /* line 15 */
		"  free(x); free(y); free(z);\n"
		"  return 0;\n"
		"}\n";
	expect ex[] = {{12, "a", NULL}, {13, "b", NULL}, {15, "c", NULL}};
	check("wrappers", src, ex, 3);
}

/* container_of: a pointer to an embedded member, moved back to the start of
 * the enclosing object by a negative offset, reaches the right field. */
static void container_of_negative_offset(void **state)
{
	(void)state;
	static const char src[] =
		"#include <stddef.h>\n"
		"struct node { struct node *next; };\n"
		"struct item { void (*run)(int); long pad; struct node link; void (*other)(int); };\n"
		"#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))\n"
		"static void go(int x) { (void)x; }\n"
		"static void stop(int x) { (void)x; }\n"
		"static struct item it = {go, 0, {0}, stop};\n"
		"static struct node *head = &it.link;\n"
		"int main(int argc, char **argv) {\n"
		"  (void)argv;\n"
		"  struct item *i = container_of(head, struct item, link);\n"
		"  i->run(argc);\n"                                               /* line 12 */
		"  return 0;\n"
		"}\n";
	expect ex[] = {{12, "go", NULL}};
	check("container_of", src, ex, 1);
}

/* A function pointer kept in an integer and cast back is still seen; the
 * type filter keeps only same-typed functions. */
static void integers_and_type_filter(void **state)
{
	(void)state;
	static const char src[] =
		"#include <stdint.h>\n"
		"static int twice(int x) { return 2 * x; }\n"
		"static void log_it(int x) { (void)x; }\n"
		"static uintptr_t slot;\n"
		"static void *any[2];\n"
		"int main(int argc, char **argv) {\n"
		"  (void)argv;\n"
		"  slot = (uintptr_t)twice;\n"
		"  any[0] = (void *)twice; any[1] = (void *)log_it;\n"
		"  int (*f)(int) = (int (*)(int))slot;\n"
		"  int r = f(argc);\n"                                            /* line 11 */
		"  int (*g)(int) = (int (*)(int))any[argc & 1];\n"
		"  return r + g(argc);\n"                                         /* line 13 */
		"}\n";
	expect ex[] = {{11, "twice", "twice"}, {13, "twice", "twice"}};
	check("integers", src, ex, 2);
}

/* Loads from and stores to `ptr null` (a kernel's deliberate fault, BUG()
 * paths, an optimiser's unreachable code): nothing moves through them, and
 * the sites around them keep their targets (it crashed on Linux's mm/). */
static void null_pointer_operands(void **state)
{
	(void)state;
	static const char src[] =
		"static int one(int x) { return x + 1; }\n"
		"static int (*hook)(int) = one;\n"
		"int main(int argc, char **argv) {\n"
		"  (void)argv;\n"
		"  if (argc > 5) { long v = *(volatile long *)0; *(int (*volatile *)(int))0 = one; return (int)v; }\n"
		"  return hook(argc);\n"                                       /* line 6 */
		"}\n";
	expect ex[] = {{6, "one", NULL}};
	check("null operands", src, ex, 1);
}

/* `facet pts --site` on a call given an address nothing reads a pointer
 * through (memset of a buffer's tail at a run-time offset): the analysis
 * leaves its set empty on purpose (find_read), and the print says so
 * instead of showing an empty set as if it pointed nowhere. */
static void unread_address_printed(void **state)
{
	(void)state;
	static const char src[] =
		"#include <stdlib.h>\n"
		"#include <string.h>\n"
		"void clear_tail(char *buf, size_t used, size_t size) { memset(buf + used, 0, size - used); }\n"
		"int main(int argc, char **argv) {\n"
		"  (void)argv;\n"
		"  char *b = malloc(64);\n"
		"  clear_tail(b, (size_t)argc, 64);\n"
		"  free(b);\n"
		"  return 0;\n"
		"}\n";
	const char *levels[] = {"-O0", "-O2"};
	for (int l = 0; l < 2; l++) {
		ir_program *p = compile(src, levels[l]);
		pta_result *r = pta_analyze(p, NULL);
		unsigned site = p->n_sites;
		for (unsigned i = 0; i < p->n_sites && site == p->n_sites; i++) {
			const ir_function *g = p->sites[i].kind == SITE_DIRECT ? p->sites[i].callee : NULL;
			if (g && strstr(g->name, "memset") && p->sites[i].loc.line == 3)
				site = i;
		}
		if (site == p->n_sites)
			fail_msg("%s: no memset call at line 3", levels[l]);
		assert_false(pta_value_modelled(r, p->sites[site].args[0]));
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		facet_error err = {0};
		assert_true(pta_print_site(out, p, r, site, &err));
		fclose(out);
		if (!strstr(text, "argument 0 points to: (not computed: nothing reads or writes a pointer through it)"))
			fail_msg("%s: pts print of the memset site says:\n%s", levels[l], text);
		free(text);
		pta_result_free(r);
		ir_program_free(p);
	}
}

/* dlsym: a constant name finds that export (not a static of the same
 * type); a computed name with RTLD_DEFAULT or dlopen(NULL)'s handle finds
 * any export of the call's type; with dlopen(FILE)'s handle or RTLD_NEXT,
 * nothing in the module (only code loaded at run time, counted). */
static void symbol_lookups(void **state)
{
	(void)state;
	static const char src[] =
		"#define _GNU_SOURCE\n"
		"#include <dlfcn.h>\n"
		"#include <stdio.h>\n"
		"typedef void (*cmd_fn)(int);\n"
		"struct plugin { const char *name; cmd_fn run; };\n"
		"void cmd_list(int x) { printf(\"list %d\\n\", x); }\n"
		"void cmd_show(int x) { printf(\"show %d\\n\", x); }\n"
		"static void cmd_hidden(int x) { printf(\"hidden %d\\n\", x); }\n"
		"cmd_fn keep = cmd_hidden;\n"
		"int count(const char *s) { return s[0]; }\n"
		"int main(int argc, char **argv) {\n"
		"  char buf[64];\n"
		"  snprintf(buf, sizeof buf, \"cmd_%s\", argc > 1 ? argv[1] : \"list\");\n"
		"  cmd_fn f = (cmd_fn)dlsym(RTLD_DEFAULT, buf);\n"
		"  if (f) f(1);\n"                                                 /* line 15 */
		"  cmd_fn g = (cmd_fn)dlsym(RTLD_DEFAULT, \"cmd_show\");\n"
		"  if (g) g(2);\n"                                                 /* line 17 */
		"  void *self = dlopen(NULL, RTLD_NOW);\n"
		"  cmd_fn h = (cmd_fn)dlsym(self, buf);\n"
		"  if (h) h(3);\n"                                                 /* line 20 */
		"  void *lib = dlopen(argc > 2 ? argv[2] : \"libplug.so\", RTLD_NOW);\n"
		"  struct plugin p = { \"x\", 0 };\n"
		"  if (lib) p.run = (cmd_fn)dlsym(lib, buf);\n"
		"  if (p.run) p.run(4);\n"                                         /* line 24 */
		"  cmd_fn n = (cmd_fn)dlsym(RTLD_NEXT, buf);\n"
		"  if (n) n(5);\n"                                                 /* line 26 */
		"  keep(0);\n"
		"  return 0;\n"
		"}\n";
	expect ex[] = {{15, "cmd_list cmd_show", "cmd_list cmd_show"}, {17, "cmd_show", "cmd_show"},
	               {20, "cmd_list cmd_show", "cmd_list cmd_show"}, {24, "", ""}, {26, "", ""}};
	check("dlsym", src, ex, 5);
	const char *levels[] = {"-O0", "-O2"};
	for (int l = 0; l < 2; l++) {
		ir_program *p = compile(src, levels[l]);
		pta_result *r = pta_analyze(p, NULL);
		assert_int_equal(r->n_symbol_sites, 5);
		assert_int_equal(r->n_symbol_named, 1);
		assert_int_equal(r->n_symbol_found, 1);
		assert_int_equal(r->n_symbol_any, 2);
		unsigned runtime = 0, keep = 0;
		for (unsigned i = 0; i < p->n_sites; i++) {
			if (p->sites[i].kind != SITE_INDIRECT)
				continue;
			bool calls = pta_site_calls_runtime_code(r, i);
			runtime += calls;
			if (p->sites[i].loc.line == 27)
				keep += 1 + calls;
		}
		assert_int_equal(runtime, 5);   /* every dlsym result; not keep(0) */
		assert_int_equal(keep, 1);
		pta_result_free(r);
		ir_program_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(library_without_main),
		cmocka_unit_test(allocation_wrappers),
		cmocka_unit_test(container_of_negative_offset),
		cmocka_unit_test(integers_and_type_filter),
		cmocka_unit_test(null_pointer_operands),
		cmocka_unit_test(unread_address_printed),
		cmocka_unit_test(symbol_lookups),
	};
	return cprog_run_tests(tmpdir, tests);
}
