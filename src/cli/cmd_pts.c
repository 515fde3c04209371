/* cmd_pts.c — `facet pts`: points-to sets of the Andersen analysis, for
 * looking at why a call site got the targets it got. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/andersen.h"
#include "util/vec.h"

/* A set, wrapped at about 100 columns under the label, at most SHOW_MAX
 * names and then how many more (issue 15.3: one 2,900-character line said
 * nothing). */
#define SHOW_MAX 40
static void print_set(const pta_result *r, const sbitmap *set)
{
	unsigned count = 0, loc, col = 28;
	size_t total = set ? sbm_count(set) : 0;
	if (set) {
		SBM_FOREACH(set, loc) {
			if (count == SHOW_MAX)
				break;
			char *name = pta_loc_name(r, loc);
			size_t w = strlen(name) + 1;
			if (count && col + w > 100) {
				printf("\n    ");
				col = 4;
			} else if (count) {
				putchar(' ');
			}
			fputs(name, stdout);
			col += (unsigned)w;
			count++;
			free(name);
		}
	}
	if (!count)
		puts("(empty)");
	else if (total > count)
		printf("\n    ... and %zu more (%zu in all)\n", total - count, total);
	else
		putchar('\n');
}

typedef struct holder { unsigned obj, held; } holder;

static int by_held(const void *a, const void *b)
{
	const holder *x = a, *y = b;
	return x->held != y->held ? (x->held < y->held ? 1 : -1) : (x->obj > y->obj) - (x->obj < y->obj);
}

/* The collapsed objects whose one location holds locations of `set` (for a
 * callee, its targets): which object, what collapsed it and where, and how
 * much of the set it holds. The widest three, and how many there are. */
static void explain_collapsed(const ir_program *p, const pta_result *r, const sbitmap *set)
{
	if (!set || sbm_empty(set))
		return;
	VEC(holder) hs = {0};
	sbitmap both = {0};
	for (unsigned o = 0; o < r->n_objects; o++) {
		if (!pta_object_collapsed(r->solver, o))
			continue;
		const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, o, 0));
		if (!content || !sbm_intersects(content, set))
			continue;
		sbm_copy(&both, content);
		sbm_intersect(&both, set);
		holder h = {o, (unsigned)sbm_count(&both)};
		VEC_PUSH(&hs, h);
	}
	sbm_free(&both);
	if (hs.len)
		qsort(hs.items, hs.len, sizeof *hs.items, by_held);
	for (size_t i = 0; i < hs.len && i < 3; i++) {
		unsigned o = hs.items[i].obj;
		char *name = pta_loc_name(r, pta_field(r->solver, o, 0));
		const ir_function *fn = NULL;
		const ir_stmt *st = pta_collapse_stmt(r, o, &fn);
		printf("    collapsed object %s holds %u of these; collapsed by %s", name, hs.items[i].held,
		       pta_collapse_cause_name(pta_object_collapse_cause(r->solver, o)));
		if (st && st->loc && st->loc->line)
			printf(" (%s %%%u in %s at %s:%u)", ir_stmt_op_name(st->op), st->dst, fn ? fn->name : "?",
			       st->loc->file ? st->loc->file : "?", st->loc->line);
		else if (st && fn)
			printf(" (%s %%%u in %s, defined at %s:%u)", ir_stmt_op_name(st->op), st->dst, fn->name,
			       fn->loc.file ? fn->loc.file : "?", fn->loc.line);
		else if (st)
			printf(" (%s %%%u of a global's initializer)", ir_stmt_op_name(st->op), st->dst);
		putchar('\n');
		free(name);
	}
	if (hs.len > 3)
		printf("    ... and %zu more collapsed objects hold some of them\n", hs.len - 3);
	VEC_FREE(&hs);
	(void)p;
}

static int show_site(const ir_program *p, const pta_result *r, unsigned id)
{
	if (id >= p->n_sites) {
		fprintf(stderr, "facet pts: no call site %u (the program has %u)\n", id, p->n_sites);
		return EXIT_INPUT;
	}
	const ir_site *s = &p->sites[id];
	printf("site %u in %s at %s:%u:%u (%s)\n", id, s->caller->name, s->loc.file ? s->loc.file : "?",
	       s->loc.line, s->loc.col, site_kind_name(s->kind));
	printf("  callee operand points to: ");
	const sbitmap *callee = s->callee_value == IR_NONE ? NULL : pta_value_pts(r, s->callee_value);
	print_set(r, callee);
	explain_collapsed(p, r, callee);
	for (unsigned i = 0; i < s->n_args; i++) {
		if (s->args[i] == IR_NONE)
			continue;
		printf("  argument %u points to: ", i);
		print_set(r, pta_value_pts(r, s->args[i]));
	}
	return EXIT_OK;
}

static int show_global(const ir_program *p, const pta_result *r, const char *name)
{
	ir_global *g = ir_find_global(p, name);
	if (!g) {
		fprintf(stderr, "facet pts: no global named '%s'\n", name);
		return EXIT_INPUT;
	}
	unsigned obj = PTA_NONE;
	for (unsigned i = 0; i < r->n_objects && obj == PTA_NONE; i++)
		if (r->objects[i].kind == OBJ_GLOBAL && r->objects[i].index == g->id)
			obj = i;
	printf("global %s, %llu bytes%s\n", g->name, (unsigned long long)g->size,
	       pta_object_collapsed(r->solver, obj) ? " (collapsed: one location)" : "");
	uint64_t step = p->pointer_size, end = pta_object_collapsed(r->solver, obj) ? 1 : g->size;
	for (uint64_t k = 0; k < end; k += step) {
		const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, obj, (int64_t)k));
		if (!content || sbm_empty(content))
			continue;
		printf("  +%llu: ", (unsigned long long)k);
		print_set(r, content);
	}
	return EXIT_OK;
}

typedef struct options {
	const char *site, *global;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--site", options, site),
	CLI_OPT_VALUE("--global", options, global),
	CLI_OPT_END,
};

int cmd_pts(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs("usage: facet pts (--site ID | --global NAME) FILE...\n"
		      "\n"
		      "Runs Andersen's analysis on the linked files and prints a points-to set:\n"
		      "  --site ID      what the callee operand and the pointer arguments of call\n"
		      "                 site ID may point to (site ids as in `facet callgraph`)\n"
		      "  --global NAME  the content of each pointer-sized slot of a global\n"
		      "Locations print as NAME+OFFSET; stack:%V is the stack slot of value V,\n"
		      "heap:FILE:LINE an allocation site, lib:F memory owned by library\n"
		      "function F, and a '*' marks a collapsed object (one location). Long sets\n"
		      "wrap and show their first 40 names and how many more. Under a site's callee\n"
		      "set, the collapsed objects that hold its targets: the widest three, how many\n"
		      "targets each holds, why it collapsed and the statement that collapsed it.\n",
		      stdout);
		return EXIT_OK;
	}
	options o = {0};
	int nfiles;
	if (!cli_parse("pts", table, &o, argc, argv, &nfiles))
		return EXIT_USAGE;
	const char *site = o.site, *global = o.global;
	char **files = argv + 1;
	if (nfiles == 0 || (!site) == (!global)) {
		fputs("facet pts: give input files and exactly one of --site or --global (see --help)\n", stderr);
		return EXIT_USAGE;
	}
	char *end = NULL;
	unsigned long id = site ? strtoul(site, &end, 10) : 0;
	/* strtoul reads "-1" as ULONG_MAX: only digits are a site id. */
	if (site && (!*site || *end || *site < '0' || *site > '9' || id > UINT_MAX)) {
		fprintf(stderr, "facet pts: --site wants a number, not '%s'\n", site);
		return EXIT_USAGE;
	}
	ir_program *p = cli_load("pts", files, nfiles, true);
	if (!p)
		return EXIT_INPUT;
	pta_result *r = pta_analyze(p, NULL);
	int rc = site ? show_site(p, r, (unsigned)id) : show_global(p, r, global);
	pta_result_free(r);
	ir_program_free(p);
	return rc;
}
