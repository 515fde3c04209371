/* bench_rta.c — RTA with a worklist against the lesson's round-robin
 * (Algorithm 20.1.6), on programs of growing size. §5 prices round-robin at
 * O(|C|·B·S·|C|h) (a full pass per round, and a round may add one body) and
 * the worklist at O(S·|C|·h) (each body scanned once, a site re-resolved
 * only for a class that just entered Inst).
 *
 * Two families:
 *   random  oo_generate(seed, medium, N): about N bodies, few rounds — the
 *           typical case, where both are near-linear and differ by the
 *           number of rounds;
 *   chain   main → K1.m → K2.m → ... → Kn.m, each body creating the next
 *           class: every round discovers one body, so round-robin needs n
 *           rounds over a growing R, Θ(n²), while the worklist stays Θ(n).
 * Both solvers' results are compared (they must be equal). "steps" counts
 * statement visits plus (site, class) resolutions, machine-independent.
 *
 *   cmake --build BUILD --target oo_bench_rta && BUILD/oo_bench_rta [max_n]
 * prints a Markdown table (bench/RESULTS.md, section ".oo lab"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oo/gen.h"
#include "oo/oo.h"
#include "oo/table.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *chain(int n)
{
	oo_buf b = {0};
	oo_buf_printf(&b, "class A\n");
	for (int k = 1; k <= n + 1; k++)
		oo_buf_printf(&b, "class K%d extends A\n", k);
	oo_buf_printf(&b, "func main {\n  var x: K1\n  x = new K1\n  c0: x.m()\n}\nmethod A.m { }\n");
	for (int k = 1; k <= n; k++)
		oo_buf_printf(&b, "method K%d.m {\n  var x: K%d\n  x = new K%d\n  c%d: x.m()\n}\n", k, k + 1, k + 1, k);
	return b.s;
}

/* Best of several runs, each at least ~20 ms of repetitions. */
static double time_solver(const oo_program *p, int rounds, oo_graph **keep)
{
	double best = 1e30;
	for (int trial = 0; trial < 5; trial++) {
		int reps = 0;
		double t0 = now(), t1;
		do {
			oo_graph *g = rounds ? oo_rta_rounds(p, NULL) : oo_rta(p);
			if (keep && !*keep)
				*keep = g;
			else
				oo_graph_free(g);
			reps++;
			t1 = now();
		} while (t1 - t0 < 0.02);
		double per = (t1 - t0) / reps;
		if (per < best)
			best = per;
	}
	return best;
}

static int row(const char *family, int n, char *text)
{
	facet_error err = {0};
	oo_program *p;
	if (oo_parse(text, strlen(text), family, &p, &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		free(text);
		return -1;
	}
	free(text);
	oo_graph *w = NULL, *r = NULL;
	double tw = time_solver(p, 0, &w), tr = time_solver(p, 1, &r);
	char why[256];
	int same = oo_graph_leq(w, r, "worklist", "rounds", why, sizeof why) &&
	           oo_graph_leq(r, w, "rounds", "worklist", why, sizeof why);
	long stmts = 0;
	for (int b = 0; b < p->nbodies; b++)
		stmts += p->bodies[b].ncode;
	printf("| %-6s | %6d | %6d | %6d | %7ld | %6ld | %6d | %9ld | %10ld | %10.3f | %10.3f | %6.1f× | %s |\n", family, n,
	       p->nbodies, p->nsites, stmts, w->edges, r->rounds, w->work, r->work, tw * 1e3, tr * 1e3, tr / tw,
	       same ? "yes" : why);
	fflush(stdout);
	oo_graph_free(w);
	oo_graph_free(r);
	oo_program_free(p);
	return same ? 0 : -1;
}

int main(int argc, char **argv)
{
	int max = argc > 1 ? atoi(argv[1]) : 16000;
	int rc = 0;
	printf("| family | n | bodies | sites | stmts | edges | rounds | worklist steps | rounds steps | worklist ms | rounds ms | ratio | equal |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (int n = 500; n <= max; n *= 2)
		rc |= row("random", n, oo_generate(1, OO_MEDIUM, n));
	for (int n = 250; n <= max / 4; n *= 2)
		rc |= row("chain", n, chain(n));
	return rc ? 1 : 0;
}
