/* cmd_pts.c — `facet pts`: points-to sets of the Andersen analysis, for
 * looking at why a call site got the targets it got. */
#include "cli/cli.h"
#include "cli/load.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/andersen.h"

static void print_set(const pta_result *r, const sbitmap *set)
{
	unsigned count = 0, loc;
	if (set) {
		SBM_FOREACH(set, loc) {
			char *name = pta_loc_name(r, loc);
			printf("%s%s", count++ ? " " : "", name);
			free(name);
		}
	}
	printf("%s\n", count ? "" : "(empty)");
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
	print_set(r, s->callee_value == IR_NONE ? NULL : pta_value_pts(r, s->callee_value));
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
		      "function F, and a '*' marks a collapsed object (one location).\n",
		      stdout);
		return EXIT_OK;
	}
	const char *site = NULL, *global = NULL;
	char **files = argv + 1;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		int r;
		if ((r = cli_option("pts", argc, argv, &i, "--site", &site)) ||
		    (r = cli_option("pts", argc, argv, &i, "--global", &global))) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "facet pts: unknown option '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		} else {
			files[nfiles++] = argv[i];
		}
	}
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
