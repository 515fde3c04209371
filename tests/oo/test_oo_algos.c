/* test_oo_algos.c — CHA, RTA, XTA, VTA, points-to and Dyn on known programs.
 *
 * Expected answers:
 *  - running.oo: the tables of Lesson 20.1 §3 (per-site targets, edge counts,
 *    the CHA step table, the RTA round table, the XTA set table). The lesson
 *    gives no per-site points-to targets; by Definition 20.1.11 with one object
 *    per `new`: pts(s) = pts(t) = pts(log) = pts(r) = {o_Circle},
 *    pts(q) = {o_Square, o_Circle}, pts(this of Shape.draw) = {o_Circle}
 *    (from s2, s3 and s5's Circle), so its targets are VTA's (8 edges, as §3
 *    says).
 *  - zoo.oo: worked out by hand, see the comments at each table.
 *  - P_n of §5: CHA n(n+1) edges, RTA n, and with the factory RTA n·n while
 *    XTA keeps main's sites at one target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oo/gen.h"
#include "oo/oo.h"
#include "oo/print.h"
#include "oo/set.h"

static oo_program *load(const char *path)
{
	facet_error err = {0};
	oo_program *p;
	if (oo_parse_file(path, &p, &err))
		fail_msg("%s", err.msg);
	return p;
}

static oo_graph *run(const oo_program *p, oo_algo a)
{
	facet_error err = {0};
	oo_graph *g;
	if (oo_analyze(p, a, NULL, &g, NULL, &err))
		fail_msg("%s on %s: %s", oo_algo_name(a), p->file, err.msg);
	return g;
}

/* "A.m B.n" -> set of bodies; fails on an unknown name (a typo in a test). */
static void names_to_set(const oo_program *p, const char *names, uint64_t *set)
{
	memset(set, 0, sizeof(uint64_t) * (size_t)p->bwords);
	char buf[512];
	snprintf(buf, sizeof buf, "%s", names);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		int b = oo_find_body(p, tok);
		if (b < 0)
			fail_msg("test names unknown body %s", tok);
		oo_set_add(set, b);
	}
}

static const char *set_names(const oo_program *p, const uint64_t *set, char *buf, size_t n)
{
	buf[0] = 0;
	for (int b = 0; b < p->nbodies; b++)
		if (oo_set_has(set, b))
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " " : "", p->bodies[b].name);
	return buf[0] ? buf : "(none)";
}

typedef struct expect { const char *site, *t[OO_NALGO]; } expect;

/* Checks every algorithm's targets at every listed site, the edge counts and
 * the reachable bodies; a failure names the program, the algorithm, the site
 * and both sets. */
static void check_program(const oo_program *p, const expect *e, int n, const long edges[OO_NALGO],
                          const char *const reach[OO_NALGO])
{
	uint64_t want[64];
	char a[512], b[512];
	assert_true(p->bwords <= 64);
	for (int algo = 0; algo < OO_NALGO; algo++) {
		oo_graph *g = run(p, (oo_algo)algo);
		for (int i = 0; i < n; i++) {
			int s = oo_find_site(p, e[i].site);
			assert_true(s >= 0);
			names_to_set(p, e[i].t[algo], want);
			uint64_t got[64] = {0};
			int nt;
			const int *items = oo_graph_targets(g, s, &nt);
			for (int k = 0; k < nt; k++)
				oo_set_add(got, items[k]);
			if (memcmp(want, got, sizeof(uint64_t) * (size_t)p->bwords) != 0)
				fail_msg("%s, %s, site %s: expected {%s}, got {%s}", p->file, oo_algo_name(algo), e[i].site,
				         set_names(p, want, a, sizeof a), set_names(p, got, b, sizeof b));
		}
		if (g->edges != edges[algo])
			fail_msg("%s, %s: expected %ld edges, got %ld", p->file, oo_algo_name(algo), edges[algo], g->edges);
		uint64_t got[64] = {0};
		for (int x = 0; x < p->nbodies; x++)
			if (g->reach[x])
				oo_set_add(got, x);
		names_to_set(p, reach[algo], want);
		if (memcmp(want, got, sizeof(uint64_t) * (size_t)p->bwords) != 0)
			fail_msg("%s, %s: expected reachable {%s}, got {%s}", p->file, oo_algo_name(algo),
			         set_names(p, want, a, sizeof a), set_names(p, got, b, sizeof b));
		/* Definition 20.1.2: T(c) = ∅ whenever body(c) ∉ R */
		for (int s = 0; s < p->nsites; s++)
			if (!g->reach[p->sites[s].body])
				assert_int_equal(oo_graph_count(g, s), 0);
		oo_graph_free(g);
	}
}

#define AREA4 "Circle.area Cube.area Shape.area Square.area"
#define DRAW3 "Cube.draw Shape.draw Square.draw"
#define AREA2 "Circle.area Square.area"
#define DRAW2 "Shape.draw Square.draw"

static void running_example_tables(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/running.oo");
	/*                cha     rta    xta                vta            pta            dyn         (§3) */
	static const expect e[] = {
		{"s1", {AREA4, AREA2, "Circle.area", "Circle.area", "Circle.area", "Circle.area"}},
		{"s2", {DRAW3, DRAW2, "Shape.draw", "Shape.draw", "Shape.draw", "Shape.draw"}},
		{"s3", {DRAW3, DRAW2, DRAW2, "Shape.draw", "Shape.draw", "Shape.draw"}},
		{"s4", {AREA4, AREA2, AREA2, AREA2, AREA2, "Square.area"}},
		{"s5", {DRAW3, DRAW2, DRAW2, DRAW2, DRAW2, "Square.draw"}},
		{"s7", {AREA4, AREA2, "Circle.area", "Circle.area", "Circle.area", "Circle.area"}},
		{"s6", {"", "", "", "", "", ""}},   /* in unused: unreachable everywhere */
	};
	static const long edges[OO_NALGO] = {21, 12, 9, 8, 8, 6};
	/* CHA reaches everything but unused, including both Cube methods; the
	 * others reach the six bodies of the RTA table */
#define SIX "main report Shape.draw Circle.area Square.area Square.draw"
	static const char *const reach[OO_NALGO] = {"main report Shape.area " DRAW3 " Circle.area Square.area Cube.area", SIX,
	                                            SIX, SIX, SIX, SIX};
	check_program(p, e, 7, edges, reach);
	oo_program_free(p);
}

static void expect_row(const oo_table *t, int row, const char *const *cells)
{
	for (int c = 0; c < t->ncols; c++) {
		const char *got = oo_table_cell(t, row, c);
		if (!got || strcmp(got, cells[c]) != 0)
			fail_msg("%s, row %d, column '%s': expected '%s', got '%s'", t->title, row + 1, t->head[c], cells[c],
			         got ? got : "(no such row)");
	}
}

/* §3, CHA: the FIFO worklist, one row per site of each popped body. */
static void cha_worklist_steps(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/running.oo");
	oo_table *t;
	oo_graph *g = oo_cha(p, &t);
	const char *A4 = "Circle.area, Cube.area, Shape.area, Square.area", *D3 = "Cube.draw, Shape.draw, Square.draw";
	const char *const rows[][5] = {
		{"1", "main", "s1", A4, A4},
		{"1", "main", "s2", D3, D3},
		{"1", "main", "call report", "report", "report"},
		{"2", "Circle.area", "—", "—", "—"},
		{"3", "Cube.area", "—", "—", "—"},
		{"4", "Shape.area", "—", "—", "—"},
		{"5", "Square.area", "—", "—", "—"},
		{"6", "Cube.draw", "—", "—", "—"},
		{"7", "Shape.draw", "s7", A4, "—"},
		{"8", "Square.draw", "—", "—", "—"},
		{"9", "report", "s3", D3, "—"},
		{"9", "report", "s4", A4, "—"},
		{"9", "report", "s5", D3, "—"},
	};
	assert_int_equal(t->nrows, 13);
	for (int r = 0; r < 13; r++)
		expect_row(t, r, rows[r]);
	assert_int_equal(g->edges, 4 + 3 + 3 + 4 + 3 + 4);
	oo_table_free(t);
	oo_graph_free(g);
	oo_program_free(p);
}

/* §3, RTA: the round table row by row (R's new bodies marked "+"). */
static void rta_round_table(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/running.oo");
	oo_table *t;
	oo_graph *g = oo_rta_rounds(p, &t);
	const char *six = "main, report, Shape.draw, Circle.area, Square.area, Square.draw";
	const char *const rows[][5] = {
		{"1", "main", "{Circle}", "main, +report, +Shape.draw, +Circle.area", "s1 → {Circle.area}; s2 → {Shape.draw}"},
		{"2", "main, report, Shape.draw, Circle.area", "{Circle, Square}",
		 "main, report, Shape.draw, Circle.area, +Square.area, +Square.draw",
		 "s3, s5 → {Shape.draw, Square.draw}; s4, s7 → {Circle.area, Square.area}"},
		{"3", six, "{Circle, Square}", "(same)", "s1 += Square.area; s2 += Square.draw"},
		{"4", six, "{Circle, Square}", "(same)", "none: fixed point"},
	};
	assert_int_equal(t->nrows, 4);
	assert_int_equal(g->rounds, 4);
	for (int r = 0; r < 4; r++)
		expect_row(t, r, rows[r]);
	assert_int_equal(g->edges, 12);
	oo_table_free(t);
	oo_graph_free(g);
	oo_program_free(p);
}

/* §3, XTA: the sets after each round; "—" for a body not yet reachable. */
static void xta_set_table(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/running.oo");
	oo_table *t;
	oo_graph *g = oo_xta(p, &t);
	const char *const head[] = {"round", "S_main", "@log", "S_Circle.area", "S_Shape.draw", "S_report", "S_Square.area",
	                            "S_Square.draw"};
	assert_int_equal(t->ncols, 8);
	for (int c = 0; c < 8; c++)
		assert_string_equal(t->head[c], head[c]);
	const char *const rows[][8] = {
		{"1", "{Circle}", "{Circle}", "{Circle}", "{Circle}", "{}", "—", "—"},
		{"2", "{Circle}", "{Circle}", "{Circle}", "{Circle}", "{Circle, Square}", "{Square}", "{Square}"},
		{"3", "(no change)", "", "", "", "", "", ""},
	};
	assert_int_equal(t->nrows, 3);
	for (int r = 0; r < 3; r++)
		expect_row(t, r, rows[r]);
	assert_int_equal(g->edges, 9);
	oo_table_free(t);
	oo_graph_free(g);
	oo_program_free(p);
}

/* VTA's sets of §3: V(s) = V(t) = V(log) = V(r) = {Circle}, V(q) = {Circle, Square}. */
static void vta_sets_in_trace(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/running.oo");
	oo_table *t;
	oo_graph *g = oo_vta(p, &t);
	char all[4096] = "";
	for (int r = 0; r < t->nrows; r++)
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s; ", oo_table_cell(t, r, 2));
	const char *want[] = {"V(main.s) = {Circle}", "V(main.t) = {Circle}", "V(@log) = {Circle}",
	                      "V(report.r) = {Circle}", "V(report.q) = {Circle, Square}"};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (!strstr(all, want[i]))
			fail_msg("VTA trace lacks %s: %s", want[i], all);
	oo_table_free(t);
	oo_graph_free(g);
	oo_program_free(p);
}

/* zoo.oo, by hand. Hierarchy: Animal > Dog > Puppy, Animal > Cat; Robot > Toy.
 * lookup: speak: Animal→Animal.speak, Dog/Puppy→Dog.speak, Cat→Cat.speak;
 * play: Dog/Puppy→Dog.play (Animal, Cat: none); beep: Robot→Robot.beep, Toy→Toy.beep.
 * CHA: every speak site on an Animal gets all three speaks, z6/z10 both beeps,
 *   z8 (this: Dog) only Dog.speak; lost unreachable: 3+3+3+1+3+2+1+1+3+2 = 22.
 * RTA: reachable news are Puppy, Cat (main), Animal (park), Toy (shop); no
 *   Robot, so Robot.beep and its z9 are unreachable: 17.
 * XTA: S_main = S_pet = S_spare = {Puppy, Cat} (nothing writes Animal into a
 *   global), S_park = {Puppy, Cat, Animal}, S_shop = {Toy}: main's sites lose
 *   Animal.speak, park's z5 keeps all three: 14.
 * VTA: V(y) = {Animal} in park, so z5 → Animal.speak only: 12; points-to
 *   the same (each reachable class has one reachable allocation site).
 * Dyn: pet only ever holds the Puppy (a = new Cat runs after pet = a and z1),
 *   so z1, z2 → Dog.speak; spare is a Cat (branch 2) or, after shop, the Puppy
 *   (branch 3), and null in branch 1, where z3 stops: z3 → both: 10. */
static void zoo_by_hand(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/zoo.oo");
#define SPEAK3 "Animal.speak Cat.speak Dog.speak"
#define SPEAK2 "Cat.speak Dog.speak"
	/*                 cha        rta        xta        vta             pta             dyn */
	static const expect e[] = {
		{"z1", {SPEAK3, SPEAK3, SPEAK2, SPEAK2, SPEAK2, "Dog.speak"}},
		{"z2", {SPEAK3, SPEAK3, SPEAK2, SPEAK2, SPEAK2, "Dog.speak"}},
		{"z3", {SPEAK3, SPEAK3, SPEAK2, SPEAK2, SPEAK2, SPEAK2}},
		{"z4", {"Dog.play", "Dog.play", "Dog.play", "Dog.play", "Dog.play", "Dog.play"}},
		{"z5", {SPEAK3, SPEAK3, SPEAK3, "Animal.speak", "Animal.speak", "Animal.speak"}},
		{"z6", {"Robot.beep Toy.beep", "Toy.beep", "Toy.beep", "Toy.beep", "Toy.beep", "Toy.beep"}},
		{"z7", {"Dog.play", "Dog.play", "Dog.play", "Dog.play", "Dog.play", "Dog.play"}},
		{"z8", {"Dog.speak", "Dog.speak", "Dog.speak", "Dog.speak", "Dog.speak", "Dog.speak"}},
		{"z9", {SPEAK3, "", "", "", "", ""}},
		{"z10", {"Robot.beep Toy.beep", "Toy.beep", "Toy.beep", "Toy.beep", "Toy.beep", "Toy.beep"}},
		{"z11", {"", "", "", "", "", ""}},
	};
	static const long edges[OO_NALGO] = {22, 17, 14, 12, 12, 10};
#define EIGHT "main park shop Animal.speak Dog.speak Cat.speak Dog.play Toy.beep"
	static const char *const reach[OO_NALGO] = {EIGHT " Robot.beep", EIGHT, EIGHT, EIGHT, EIGHT, EIGHT};
	check_program(p, e, 11, edges, reach);
	oo_program_free(p);
}

/* Both RTA solvers compute the least solution of the same constraints. */
static void rta_worklist_equals_rounds(void **state)
{
	(void)state;
	const char *files[] = {OO_TESTDIR "/running.oo", OO_TESTDIR "/zoo.oo"};
	for (int f = 0; f < 2; f++) {
		oo_program *p = load(files[f]);
		oo_graph *w = oo_rta(p), *r = oo_rta_rounds(p, NULL);
		char why[256];
		if (!oo_graph_leq(w, r, "worklist", "rounds", why, sizeof why) ||
		    !oo_graph_leq(r, w, "rounds", "worklist", why, sizeof why))
			fail_msg("%s: %s", files[f], why);
		assert_int_equal(w->edges, r->edges);
		oo_graph_free(w);
		oo_graph_free(r);
		oo_program_free(p);
	}
}

static oo_program *parse_text(char *text)
{
	facet_error err = {0};
	oo_program *p;
	if (oo_parse(text, strlen(text), "P_n", &p, &err))
		fail_msg("%s", err.msg);
	free(text);
	return p;
}

/* §5: P_n has n sites x.m() in main, x: A, and n subclasses D_k overriding m. */
static void pathological_family(void **state)
{
	(void)state;
	for (long n = 10; n <= 1000; n *= 10) {
		oo_program *p = parse_text(oo_generate_pathological((int)n, 0));
		oo_graph *g[OO_NALGO];
		for (int a = 0; a < OO_NALGO; a++)
			g[a] = run(p, (oo_algo)a);
		/* CHA: every site all n + 1 targets */
		assert_int_equal(g[OO_CHA]->edges, n * (n + 1));
		assert_int_equal(oo_graph_count(g[OO_CHA], oo_find_site(p, "s1")), n + 1);
		/* RTA: Inst = {D1}, one target per site; so for the finer ones and Dyn */
		for (int a = OO_RTA; a < OO_NALGO; a++) {
			if (g[a]->edges != n)
				fail_msg("P_%ld, %s: expected %ld edges, got %ld", n, oo_algo_name(a), n, g[a]->edges);
			assert_true(oo_graph_has(g[a], (int)n - 1, oo_find_body(p, "D1.m")));
		}
		for (int a = 0; a < OO_NALGO; a++)
			oo_graph_free(g[a]);
		oo_program_free(p);

		/* P_n with a factory that creates every D_k: RTA is as bad as CHA
		 * again (n·n: every D_k.m, not A.m), XTA keeps main's sites at one */
		p = parse_text(oo_generate_pathological((int)n, 1));
		for (int a = 0; a < OO_NALGO; a++)
			g[a] = run(p, (oo_algo)a);
		assert_int_equal(g[OO_CHA]->edges, n * (n + 1));
		assert_int_equal(g[OO_RTA]->edges, n * n);
		assert_false(oo_graph_has(g[OO_RTA], 0, oo_find_body(p, "A.m")));
		for (int a = OO_XTA; a < OO_NALGO; a++)
			if (g[a]->edges != n)
				fail_msg("P_%ld + factory, %s: expected %ld edges, got %ld", n, oo_algo_name(a), n, g[a]->edges);
		for (int s = 0; s < p->nsites; s++)
			assert_int_equal(oo_graph_count(g[OO_XTA], s), 1);
		assert_true(g[OO_XTA]->reach[oo_find_body(p, "factory")]);
		for (int a = 0; a < OO_NALGO; a++)
			oo_graph_free(g[a]);
		oo_program_free(p);
	}
}

/* The JSON contract of DESIGN.md, read back with jansson. */
static void json_contract(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/running.oo");
	oo_graph *g = run(p, OO_RTA);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	oo_print_graph_json(f, g, NULL);
	fclose(f);
	json_error_t jerr;
	json_t *root = json_loads(buf, 0, &jerr);
	if (!root)
		fail_msg("invalid JSON (%s): %s", jerr.text, buf);
	assert_string_equal(json_string_value(json_object_get(root, "algo")), "rta");
	assert_int_equal(json_integer_value(json_object_get(root, "edges")), 12);
	json_t *reach = json_object_get(root, "reachable");
	assert_int_equal(json_array_size(reach), 6);
	assert_string_equal(json_string_value(json_array_get(reach, 0)), "main");
	json_t *sites = json_object_get(root, "sites");
	assert_int_equal(json_array_size(sites), 7);
	json_t *s1 = json_array_get(sites, 0);
	assert_string_equal(json_string_value(json_object_get(s1, "label")), "s1");
	assert_string_equal(json_string_value(json_object_get(s1, "body")), "main");
	json_t *t = json_object_get(s1, "targets");
	assert_int_equal(json_array_size(t), 2);
	assert_string_equal(json_string_value(json_array_get(t, 0)), "Circle.area");
	assert_string_equal(json_string_value(json_array_get(t, 1)), "Square.area");
	/* sites in program order: s7 (Shape.draw) comes before s6 (unused) */
	assert_string_equal(json_string_value(json_object_get(json_array_get(sites, 5), "label")), "s7");
	assert_int_equal(json_array_size(json_object_get(json_array_get(sites, 6), "targets")), 0);
	json_decref(root);
	free(buf);
	oo_graph_free(g);
	oo_program_free(p);
}

/* Dyn's budget is an error, not a wrong answer. */
static void dyn_budget(void **state)
{
	(void)state;
	oo_program *p = load(OO_TESTDIR "/zoo.oo");
	facet_error err = {0};
	oo_graph *g;
	assert_int_equal(oo_dyn(p, 5, &g, NULL, &err), -1);
	assert_null(g);
	assert_non_null(strstr(err.msg, "zoo.oo: dynamic exploration stopped after 5 states"));
	oo_program_free(p);
}

/* oo_set_union_range against bit-by-bit, across word boundaries. */
static void set_ranges(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ULL;
	for (int round = 0; round < 2000; round++) {
		uint64_t src[4], dst[4], want[4];
		for (int w = 0; w < 4; w++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			src[w] = x;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			dst[w] = want[w] = x & 0x00ff00ff00ff00ffULL;
		}
		int lo = (int)(x % 256), hi = (int)((x >> 8) % 257);
		int grew = 0;
		for (int i = lo; i < hi; i++)
			if (oo_set_has(src, i))
				grew |= oo_set_add(want, i);
		assert_int_equal(oo_set_union_range(dst, src, lo, hi), grew);
		assert_memory_equal(dst, want, sizeof dst);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(running_example_tables),
		cmocka_unit_test(cha_worklist_steps),
		cmocka_unit_test(rta_round_table),
		cmocka_unit_test(xta_set_table),
		cmocka_unit_test(vta_sets_in_trace),
		cmocka_unit_test(zoo_by_hand),
		cmocka_unit_test(rta_worklist_equals_rounds),
		cmocka_unit_test(pathological_family),
		cmocka_unit_test(json_contract),
		cmocka_unit_test(dyn_budget),
		cmocka_unit_test(set_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
