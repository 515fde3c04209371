/* mix_core.c — the few statements that make a program's points-to sets mix
 * functions with heap data.
 *
 * In a well-typed C program a pointer points to code or to data, not to
 * both; a set holding many functions and many heap objects at once is the
 * mark of the analysis mixing unrelated memory, and on dovecot such sets
 * end up holding most of the program (bench/RESULTS.md, issue 16). Their
 * fixpoint sustains itself, so the widest sets say little about where the
 * mixing starts. This searches for a small part of the program that mixes
 * on its own: the analysis is re-run on subsets (pta_options.keep_functions
 * and keep_stmts, unsound knobs for measuring only), first removing whole
 * functions, then statements of the functions left, in halving chunks
 * (delta debugging: the result mixes, and removing any one chunk of the
 * last size tried does not). Global initializers are always analysed.
 *
 *   mix_core [--functions F] [--heap H] [--global NAME] [--start FILE] [--no-functions] BITCODE
 *
 * The test: some value's set holds at least F function locations and at
 * least H heap locations (default 10 and 10). --global NAME: instead, some
 * pointer-sized slot of that global holds them (a global whose fields fill
 * with what the program never stores there: which statements put it
 * there). --start FILE: begin from the
 * functions named in FILE (one per line, as a previous run printed them)
 * rather than all; --no-functions: skip the function phase. Prints the
 * functions left, then the statements left with their functions and source
 * lines, then what the small system gives: its mixing value and its
 * collapsed objects. On dovecot the function phase is about 1,900 runs of
 * the analysis (25 min), the statement phase a few hundred (a minute). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ingest.h"
#include "pta/andersen.h"
#include "util/sbitmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef struct search {
	const ir_program *p;
	unsigned min_functions, min_heap;
	const ir_global *global;   /* --global: test that global's slots, not every value */
	bool *keep_fn, *keep_stmt;
	unsigned runs;
} search;

typedef VEC(unsigned) id_list;

/* Whether set holds at least the test's functions and heap objects. */
static bool set_mixes(const search *sc, const pta_result *r, const sbitmap *set)
{
	if (!set || sbm_count(set) < sc->min_functions + sc->min_heap)
		return false;
	unsigned fns = 0, heap = 0, loc;
	SBM_FOREACH(set, loc) {
		unsigned obj = pta_loc_object(r->solver, loc);
		if (obj < r->n_objects) {
			fns += r->objects[obj].kind == OBJ_FUNCTION;
			heap += r->objects[obj].kind == OBJ_HEAP;
		}
	}
	return fns >= sc->min_functions && heap >= sc->min_heap;
}

/* The first set that mixes, or NULL; what it is goes to label. Without
 * --global: a value's set, in id order. With it: the content of one of the
 * global's pointer-sized slots (its one location once collapsed). */
static const sbitmap *mixing_set(const search *sc, const pta_result *r, char *label, size_t size)
{
	if (sc->global) {
		unsigned obj = pta_global_object(r, sc->global);
		if (obj == PTA_NONE)
			return NULL;
		bool one = pta_object_collapsed(r->solver, obj);
		uint64_t step = sc->p->pointer_size, end = one ? 1 : sc->global->size;
		for (uint64_t k = 0; k < end; k += step) {
			const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, obj, (int64_t)k));
			if (set_mixes(sc, r, content)) {
				snprintf(label, size, "%s+%llu%s", sc->global->name, (unsigned long long)k,
				         one ? " (collapsed)" : "");
				return content;
			}
		}
		return NULL;
	}
	for (unsigned v = 0; v < sc->p->n_values; v++) {
		const sbitmap *set = pta_value_pts(r, v);
		if (set_mixes(sc, r, set)) {
			snprintf(label, size, "value %%%u", v);
			return set;
		}
	}
	return NULL;
}

static pta_result *analyze(search *sc)
{
	pta_options o;
	pta_options_default(&o);
	o.keep_functions = sc->keep_fn;
	o.keep_stmts = sc->keep_stmt;
	sc->runs++;
	return pta_analyze(sc->p, &o);
}

static bool mixes(search *sc)
{
	pta_result *r = analyze(sc);
	char label[256];
	bool yes = mixing_set(sc, r, label, sizeof label) != NULL;
	pta_result_free(r);
	return yes;
}

/* Removes chunks of items (flags in keep) while the program still mixes,
 * halving the chunk down to one item. */
static void reduce(search *sc, const id_list *items, bool *keep, const char *what)
{
	id_list removed = {0};
	for (size_t chunk = items->len / 2; chunk >= 1; chunk /= 2) {
		for (size_t start = 0; start < items->len; start += chunk) {
			removed.len = 0;
			for (size_t k = start; k < start + chunk && k < items->len; k++)
				if (keep[items->items[k]]) {
					keep[items->items[k]] = false;
					VEC_PUSH(&removed, items->items[k]);
				}
			if (removed.len && !mixes(sc))
				for (size_t k = 0; k < removed.len; k++)
					keep[removed.items[k]] = true;
		}
		size_t left = 0;
		for (size_t k = 0; k < items->len; k++)
			left += keep[items->items[k]];
		fprintf(stderr, "mix_core: chunks of %zu %s: %zu left, %u analyses\n", chunk, what, left, sc->runs);
	}
	VEC_FREE(&removed);
}

static const ir_function *function_of_stmt(const ir_program *p, unsigned stmt)
{
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (stmt >= f->first_stmt && stmt < f->first_stmt + f->n_stmts)
			return f;
	}
	return NULL;
}

static void print_stmt(const ir_program *p, unsigned k)
{
	const ir_stmt *st = &p->stmts[k];
	const ir_function *f = function_of_stmt(p, k);
	printf("  %u %s: %s", k, f ? f->name : "?", ir_stmt_op_name(st->op));
	if (st->op == ST_CALL) {
		const ir_site *s = &p->sites[st->site];
		printf(" site %u (%s%s%s)", s->id, site_kind_name(s->kind), s->callee ? " " : "", s->callee ? s->callee->name : "");
		if (s->loc.line)
			printf(" at %s:%u", s->loc.file ? s->loc.file : "?", s->loc.line);
	} else {
		printf(" dst %%%u src %%%u offset %lld%s", st->dst, st->src, (long long)st->offset,
		       st->var_offset ? " (variable)" : "");
		if (st->loc && st->loc->line)
			printf(" at %s:%u", st->loc->file ? st->loc->file : "?", st->loc->line);
	}
	printf("\n");
}

/* What the small system gives: its first mixing value and collapsed objects. */
static void report(search *sc)
{
	const ir_program *p = sc->p;
	pta_result *r = analyze(sc);
	char label[256];
	const sbitmap *set = mixing_set(sc, r, label, sizeof label);
	if (set) {
		printf("mixing %s: %zu locations, the first:", label, sbm_count(set));
		unsigned loc, n = 0;
		SBM_FOREACH(set, loc) {
			if (n++ == 8)
				break;
			char *name = pta_loc_name(r, loc, true);
			printf(" %s", name);
			free(name);
		}
		printf("\n");
	}
	for (unsigned o = 0; o < r->n_objects; o++) {
		if (!pta_object_collapsed(r->solver, o) || r->objects[o].kind == OBJ_FUNCTION)
			continue;
		const ir_function *fn = NULL;
		const ir_stmt *st = pta_collapse_stmt(r, o, &fn);
		char *name = pta_loc_name(r, pta_field(r->solver, o, 0), true);
		printf("collapsed %s: %s", name, pta_collapse_cause_name(pta_object_collapse_cause(r->solver, o)));
		if (st)
			printf(", statement %ld in %s", (long)(st - p->stmts), fn ? fn->name : "?");
		printf("\n");
		free(name);
	}
	pta_result_free(r);
}

static bool read_start(const ir_program *p, const char *path, bool *keep_fn)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		perror(path);
		return false;
	}
	char line[4096];
	unsigned n = 0;
	while (fgets(line, sizeof line, in)) {
		line[strcspn(line, " \t\r\n")] = 0;
		ir_function *f = line[0] ? ir_find_function(p, line) : NULL;
		if (f) {
			keep_fn[f->id] = true;
			n++;
		}
	}
	fclose(in);
	if (!n)
		fprintf(stderr, "mix_core: %s names no function of the program\n", path);
	return n > 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: mix_core [--functions F] [--heap H] [--global NAME] [--start FILE] [--no-functions] BITCODE\n");
	return 2;
}

int main(int argc, char **argv)
{
	search sc = {.min_functions = 10, .min_heap = 10};
	const char *start = NULL, *global = NULL;
	bool function_phase = true;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--functions") == 0 && i + 1 < argc)
			sc.min_functions = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--heap") == 0 && i + 1 < argc)
			sc.min_heap = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--global") == 0 && i + 1 < argc)
			global = argv[++i];
		else if (strcmp(argv[i], "--start") == 0 && i + 1 < argc)
			start = argv[++i];
		else if (strcmp(argv[i], "--no-functions") == 0)
			function_phase = false;
		else
			return usage();
	}
	if (i + 1 != argc)
		return usage();
	ingest_options io = {.verify = true};
	facet_error err = {0};
	ir_program *p = ir_ingest((const char *const *)argv + i, 1, &io, NULL, &err);
	if (!p) {
		fprintf(stderr, "mix_core: %s\n", err.msg);
		return 1;
	}
	sc.p = p;
	if (global && !(sc.global = ir_find_global(p, global))) {
		fprintf(stderr, "mix_core: %s: no global named '%s'\n", argv[i], global);
		return 1;
	}
	sc.keep_fn = xcalloc(p->n_functions ? p->n_functions : 1, sizeof *sc.keep_fn);
	sc.keep_stmt = xcalloc(p->n_stmts ? p->n_stmts : 1, sizeof *sc.keep_stmt);
	if (start && !read_start(p, start, sc.keep_fn))
		return 1;
	id_list fns = {0}, stmts = {0};
	for (unsigned f = 0; f < p->n_functions; f++)
		if (p->functions[f]->n_stmts && (!start || sc.keep_fn[f])) {
			sc.keep_fn[f] = true;
			VEC_PUSH(&fns, f);
		}
	for (unsigned k = 0; k < p->n_stmts; k++)
		sc.keep_stmt[k] = true;
	if (!mixes(&sc)) {
		printf("no %s holds %u functions and %u heap objects: nothing to reduce\n",
		       sc.global ? "slot of the global" : "set", sc.min_functions, sc.min_heap);
		return 0;
	}
	if (function_phase)
		reduce(&sc, &fns, sc.keep_fn, "functions");
	printf("functions left:\n");
	for (size_t k = 0; k < fns.len; k++)
		if (sc.keep_fn[fns.items[k]]) {
			const ir_function *f = p->functions[fns.items[k]];
			printf("%s\n", f->name);
			for (unsigned s = 0; s < f->n_stmts; s++)
				VEC_PUSH(&stmts, f->first_stmt + s);
		}
	reduce(&sc, &stmts, sc.keep_stmt, "statements");
	printf("statements left:\n");
	for (size_t k = 0; k < stmts.len; k++)
		if (sc.keep_stmt[stmts.items[k]])
			print_stmt(p, stmts.items[k]);
	report(&sc);
	printf("%u analyses\n", sc.runs);
	VEC_FREE(&fns);
	VEC_FREE(&stmts);
	free(sc.keep_fn);
	free(sc.keep_stmt);
	ir_program_free(p);
	return 0;
}
