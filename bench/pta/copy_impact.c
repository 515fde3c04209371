/* copy_impact.c — what each memory copy of unknown length adds to the
 * points-to sets of a real program.
 *
 * A memcpy with a run-time length moves every field of its source's
 * objects into every field of its destination's, from the pointers on
 * (src/pta/andersen.c, copy_memory), and one such copy in shared buffer
 * code can carry most of a program's R0 width (bench/RESULTS.md, issue 16
 * session 16: dovecot's buffer_append). `facet stats --pta` lists the copies whose sources are
 * widest; the widest source is not always the copy that matters, so this
 * re-runs the analysis without each candidate (pta_options.skip_copies, an
 * unsound measuring knob) and prints the andersen and R0 means it leaves.
 *
 *   copy_impact [--top K] [--by-function | --by-callee] [--all] FILE...
 *
 * Default: the copies `stats --pta` lists (the five widest sources, one per
 * site), each skipped alone. --by-function: every copy of a function
 * skipped together, for the K functions (default 10) whose copies have the
 * widest sources; --by-callee: the same per copying function (memcpy,
 * llvm.memcpy.*, memmove, realloc, va_copy, ...). --all: also every copy of unknown length at once (the
 * floor no copy model can go below). One analysis per row: on dovecot
 * about 6 s each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ingest.h"
#include "pta/andersen.h"
#include "pta/stats.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef struct means { double andersen, r0; unsigned copies; double seconds; } means;

static means analyze(const ir_program *p, const unsigned *skip, unsigned n_skip, pta_program_stats *keep)
{
	pta_options o;
	pta_options_default(&o);
	o.skip_copies = skip;
	o.n_skip_copies = n_skip;
	pta_result *r = pta_analyze(p, &o);
	pta_program_stats st = pta_program_stats_of(p);
	pta_program_stats_add_pta(&st, p, r);
	means m = {pta_share(st.andersen_targets, st.indirect), pta_share(st.r0_targets, st.indirect), st.copies,
	           r->seconds};
	if (keep)
		*keep = st;
	pta_result_free(r);
	return m;
}

static void row(const char *what, means base, means m)
{
	printf("| %s | %.2f | %.2f | %+.2f | %u | %.1f |\n", what, m.andersen, m.r0, m.r0 - base.r0, m.copies, m.seconds);
}

typedef struct fn_copies { const ir_function *fn; unsigned widest; VEC(unsigned) sites; } fn_copies;

static int by_widest(const void *a, const void *b)
{
	const fn_copies *x = a, *y = b;
	return x->widest < y->widest ? 1 : x->widest > y->widest ? -1 : strcmp(x->fn->name, y->fn->name);
}

/* Every copy of unknown length grouped by the function it is in (or, with
 * by_callee, by the function that copies: memcpy, llvm.memmove.*, realloc,
 * ...), widest source first. */
static fn_copies *group_copies(const ir_program *p, bool by_callee, unsigned *n_out)
{
	pta_result *r = pta_analyze(p, NULL);
	fn_copies *g = xcalloc(p->n_functions ? p->n_functions : 1, sizeof *g);
	unsigned n = 0, *slot = xcalloc(p->n_functions ? p->n_functions : 1, sizeof *slot);
	bool *seen = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *seen);   /* a wrapper's clones repeat a site */
	for (unsigned c = 0; c < r->n_copies; c++) {
		const ir_site *st = &p->sites[r->copies[c].site];
		const ir_function *f = by_callee && st->callee ? st->callee : st->caller;
		if (!slot[f->id]) {
			g[n].fn = f;
			slot[f->id] = ++n;
		}
		fn_copies *e = &g[slot[f->id] - 1];
		const sbitmap *src = pta_pts(r->solver, r->copies[c].src);
		unsigned width = src ? (unsigned)sbm_count(src) : 0;
		if (width > e->widest)
			e->widest = width;
		if (!seen[r->copies[c].site])
			VEC_PUSH(&e->sites, r->copies[c].site);
		seen[r->copies[c].site] = true;
	}
	qsort(g, n, sizeof *g, by_widest);
	free(seen);
	free(slot);
	pta_result_free(r);
	*n_out = n;
	return g;
}

/* Each of the K functions whose copies have the widest sources, its copies
 * skipped together: the functions they are in, or those that copy. */
static void per_function(const ir_program *p, means base, unsigned top, bool by_callee)
{
	unsigned n;
	fn_copies *g = group_copies(p, by_callee, &n);
	for (unsigned k = 0; k < n && k < top; k++) {
		char what[300];
		snprintf(what, sizeof what, "every copy %s %s (%zu; widest source %u)", by_callee ? "by" : "in",
		         g[k].fn->name, g[k].sites.len, g[k].widest);
		row(what, base, analyze(p, g[k].sites.items, (unsigned)g[k].sites.len, NULL));
	}
	for (unsigned k = 0; k < n; k++)
		VEC_FREE(&g[k].sites);
	free(g);
}

/* Each copy stats --pta lists, skipped alone. */
static void per_site(const ir_program *p, means base, const pta_program_stats *st)
{
	for (unsigned k = 0; k < st->n_widest_copies; k++) {
		const struct pta_copy_stat *c = &st->widest_copies[k];
		char what[300];
		snprintf(what, sizeof what, "site %u in %s (%s:%u; source %u, destination %u)", c->site, c->function,
		         c->at.file ? c->at.file : "?", c->at.line, c->src_size, c->dst_size);
		row(what, base, analyze(p, &c->site, 1, NULL));
	}
}

/* Every copy of unknown length at once. */
static void every_copy(const ir_program *p, means base)
{
	pta_result *r = pta_analyze(p, NULL);
	unsigned *sites = xmalloc((r->n_copies ? r->n_copies : 1) * sizeof *sites);
	for (unsigned c = 0; c < r->n_copies; c++)
		sites[c] = r->copies[c].site;
	unsigned n_sites = r->n_copies;
	pta_result_free(r);
	row("every copy of unknown length", base, analyze(p, sites, n_sites, NULL));
	free(sites);
}

static int usage(void)
{
	fprintf(stderr, "usage: copy_impact [--top K] [--by-function | --by-callee] [--all] FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned top = 10;
	bool by_function = false, by_callee = false, all = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--top") == 0 && i + 1 < argc)
			top = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--by-function") == 0)
			by_function = true;
		else if (strcmp(argv[i], "--by-callee") == 0)
			by_function = by_callee = true;
		else if (strcmp(argv[i], "--all") == 0)
			all = true;
		else
			return usage();
	}
	if (i == argc)
		return usage();
	ingest_options io = {.verify = true};
	facet_error err = {0};
	ir_program *p = ir_ingest((const char *const *)argv + i, (unsigned)(argc - i), &io, NULL, &err);
	if (!p) {
		fprintf(stderr, "copy_impact: %s\n", err.msg);
		return 1;
	}
	pta_program_stats st;
	means base = analyze(p, NULL, 0, &st);
	printf("| skipped (unsound) | andersen mean | R0 mean | R0 change | sites of copies of unknown length | points-to s |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	row("nothing", base, base);
	if (by_function)
		per_function(p, base, top, by_callee);
	else
		per_site(p, base, &st);
	if (all)
		every_copy(p, base);
	ir_program_free(p);
	return 0;
}
