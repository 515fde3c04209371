/* cmd_stats.c — `facet stats`: what a program is made of. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/andersen.h"
#include "cli/oracle_cli.h"
#include "facet/facet.h"

#include <jansson.h>
#include "util/strmap.h"
#include "util/xalloc.h"

#define WIDEST 5

typedef struct program_stats {
	unsigned defined, declared, intrinsics, address_taken;
	unsigned sites, direct, indirect, asm_sites, sites_with_loc;
	unsigned named;            /* of the indirect: calls naming their callee through a mismatched declaration */
	unsigned fp_structs;       /* distinct struct/union types with a function-pointer member */
	unsigned globals, globals_with_fn_slots;
	bool debug_info;
	/* With --pta: the Facet paper's Table 2 columns and the solver's counts. */
	bool pta;
	double pta_seconds;
	unsigned andersen_targets, r0_targets, andersen_empty, r0_empty;
	unsigned wrappers, unmodelled;
	unsigned wrappers_via_pointer, clones, clones_refused;
	pta_stats solver;
	/* Why sets are wide: the widest value sets, and how much of each is
	 * collapsed objects' one location (issue 16.3). */
	unsigned n_widest, widest[WIDEST], widest_size[WIDEST], widest_collapsed[WIDEST];
} program_stats;

static const char *const cause_names[PTA_COLLAPSE_CAUSES] = {"size", "index", "offset", "cycle"};

static bool has_fp_member(const di_type *t)
{
	for (unsigned i = 0; i < t->n_members; i++)
		if (di_is_function_pointer(t->members[i].type))
			return true;
	return false;
}

static program_stats compute(const ir_program *p)
{
	program_stats st = {0};
	st.debug_info = p->has_debug_info;
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (f->intrinsic)
			st.intrinsics++;
		else if (f->defined)
			st.defined++;
		else
			st.declared++;
		st.address_taken += f->address_taken;
	}
	bool *is_fn_value = xcalloc(p->n_values + 1, sizeof *is_fn_value);
	for (unsigned i = 0; i < p->n_functions; i++)
		if (p->functions[i]->value < p->n_values)
			is_fn_value[p->functions[i]->value] = true;
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		st.sites++;
		st.named += s->kind == SITE_INDIRECT && s->callee_value < p->n_values && is_fn_value[s->callee_value];
		st.direct += s->kind == SITE_DIRECT;
		st.indirect += s->kind == SITE_INDIRECT;
		st.asm_sites += s->kind == SITE_ASM;
		st.sites_with_loc += s->loc.line != 0;
	}
	free(is_fn_value);
	/* Linking C modules keeps one DICompositeType per translation unit; count
	 * a named struct once, an anonymous one per definition. */
	strmap names;
	strmap_init(&names);
	for (unsigned i = 0; i < p->n_types; i++) {
		const di_type *t = p->types[i];
		if ((t->kind != DI_STRUCT && t->kind != DI_UNION) || !has_fp_member(t))
			continue;
		if (t->name) {
			if (strmap_has(&names, t->name))
				continue;
			strmap_put(&names, t->name, (void *)t);
		}
		st.fp_structs++;
	}
	strmap_free(&names);
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		st.globals++;
		for (unsigned k = 0; k < g->n_slots; k++)
			if (g->slots[k].kind == SLOT_FUNCTION) {
				st.globals_with_fn_slots++;
				break;
			}
	}
	return st;
}

static double share(unsigned part, unsigned whole) { return whole ? (double)part / whole : 0.0; }

/* The WIDEST largest points-to sets of program values (insertion into a
 * short sorted array), with the part from collapsed objects. */
static void widest_sets(const ir_program *p, program_stats *st, const pta_result *r)
{
	for (unsigned v = 0; v < p->n_values; v++) {
		const sbitmap *set = pta_value_pts(r, v);
		unsigned n = set ? (unsigned)sbm_count(set) : 0;
		if (!n || (st->n_widest == WIDEST && n <= st->widest_size[WIDEST - 1]))
			continue;
		unsigned i = st->n_widest < WIDEST ? st->n_widest++ : WIDEST - 1;
		for (; i > 0 && st->widest_size[i - 1] < n; i--) {
			st->widest[i] = st->widest[i - 1];
			st->widest_size[i] = st->widest_size[i - 1];
		}
		st->widest[i] = v;
		st->widest_size[i] = n;
	}
	for (unsigned i = 0; i < st->n_widest; i++) {
		unsigned loc, k = 0;
		SBM_FOREACH(pta_value_pts(r, st->widest[i]), loc) {
			unsigned obj = pta_loc_object(r->solver, loc);
			k += obj != PTA_NONE && pta_object_collapsed(r->solver, obj);
		}
		st->widest_collapsed[i] = k;
	}
}

static void compute_pta(const ir_program *p, program_stats *st, const pta_result *r)
{
	cg_graph *andersen = pta_callgraph(r, false), *r0 = pta_callgraph(r, true);
	for (unsigned i = 0; i < p->n_sites; i++) {
		if (p->sites[i].kind != SITE_INDIRECT)
			continue;
		st->andersen_targets += andersen->n_targets[i];
		st->r0_targets += r0->n_targets[i];
		st->andersen_empty += andersen->n_targets[i] == 0;
		st->r0_empty += r0->n_targets[i] == 0;
	}
	cg_free(andersen);
	cg_free(r0);
	st->pta = true;
	st->pta_seconds = r->seconds;
	st->wrappers = r->n_wrappers;
	st->wrappers_via_pointer = r->n_wrappers_via_pointer;
	st->clones = r->n_clones;
	st->clones_refused = r->n_clones_refused;
	st->unmodelled = r->n_unmodelled;
	pta_get_stats(r->solver, &st->solver);
	widest_sets(p, st, r);
}

static void print_text(const ir_program *p, const program_stats *st)
{
	printf("input:                         ");
	for (unsigned i = 0; i < p->n_inputs; i++)
		printf("%s%s", i ? " " : "", p->inputs[i]);
	printf("\ndebug info:                    %s\n", st->debug_info ? "yes" : "no");
	printf("functions defined:             %u\n", st->defined);
	printf("functions declared:            %u\n", st->declared);
	printf("intrinsics declared:           %u\n", st->intrinsics);
	printf("address-taken functions:       %u\n", st->address_taken);
	printf("call sites:                    %u\n", st->sites);
	printf("  direct:                      %u\n", st->direct);
	printf("  indirect:                    %u\n", st->indirect);
	if (st->named)
		printf("    of which named through a mismatched or unprototyped declaration: %u\n", st->named);
	printf("  inline asm:                  %u\n", st->asm_sites);
	printf("call sites with a location:    %u (%.1f%%)\n", st->sites_with_loc,
	       100.0 * share(st->sites_with_loc, st->sites));
	printf("structs with fn-ptr members:   %u\n", st->fp_structs);
	printf("globals:                       %u\n", st->globals);
	printf("globals holding functions:     %u\n", st->globals_with_fn_slots);
	if (!st->pta)
		return;
	printf("points-to analysis:            %.3f s, %u nodes, %zu constraints, %u objects "
	       "(%u collapsed), %u cycles merged\n",
	       st->pta_seconds, st->solver.nodes, st->solver.constraints, st->solver.objects,
	       st->solver.collapsed_objects, st->solver.cycles);
	printf("  constraints by kind:         addr %zu, copy %zu, load %zu, store %zu, gep %zu, gep_var %zu\n",
	       st->solver.addr, st->solver.copy, st->solver.load, st->solver.store, st->solver.gep,
	       st->solver.gep_var);
	printf("  collapsed objects by cause:  ");
	for (unsigned c = 0; c < PTA_COLLAPSE_CAUSES; c++)
		printf("%s%s %u", c ? ", " : "", cause_names[c], st->solver.collapsed_by[c]);
	printf("\n  time by phase:               extraction %.3f s, solving %.3f s (whole-graph passes %.3f, "
	       "lazy cycle searches %.3f, propagation %.3f)\n",
	       st->pta_seconds - st->solver.seconds_solve, st->solver.seconds_solve, st->solver.seconds_flow,
	       st->solver.seconds_lcd, st->solver.seconds_solve - st->solver.seconds_flow - st->solver.seconds_lcd);
	for (unsigned i = 0; i < st->n_widest; i++)
		printf("  %s %%%u: %u locations, %u of collapsed objects\n", i ? "            " : "widest sets:",
		       st->widest[i], st->widest_size[i], st->widest_collapsed[i]);
	printf("allocation wrappers:           %u (%u through pointers; %u call sites cloned, %u sources uncloned "
	       "past the budget)\n", st->wrappers, st->wrappers_via_pointer, st->clones, st->clones_refused);
	printf("mean targets per indirect site: andersen %.2f, r0 %.2f\n",
	       share(st->andersen_targets, st->indirect), share(st->r0_targets, st->indirect));
	printf("empty indirect sites:          andersen %u, r0 %u\n", st->andersen_empty, st->r0_empty);
	printf("unmodelled external functions: %u\n", st->unmodelled);
}

static void print_json(const program_stats *st, json_t *refine)
{
	printf("{\"debug_info\": %s, \"functions_defined\": %u, \"functions_declared\": %u, "
	       "\"intrinsics\": %u, \"address_taken\": %u, \"sites\": %u, \"sites_direct\": %u, "
	       "\"sites_indirect\": %u, \"sites_indirect_named\": %u, \"sites_asm\": %u, \"sites_with_location\": %u, "
	       "\"location_share\": %.4f, \"structs_with_fn_ptr_members\": %u, \"globals\": %u, "
	       "\"globals_holding_functions\": %u",
	       st->debug_info ? "true" : "false", st->defined, st->declared, st->intrinsics,
	       st->address_taken, st->sites, st->direct, st->indirect, st->named, st->asm_sites, st->sites_with_loc,
	       share(st->sites_with_loc, st->sites), st->fp_structs, st->globals,
	       st->globals_with_fn_slots);
	if (st->pta)
		printf(", \"pta_seconds\": %.3f, \"pta_nodes\": %u, \"pta_constraints\": %zu, \"pta_objects\": %u, "
		       "\"pta_collapsed_objects\": %u, \"allocation_wrappers\": %u, "
		       "\"mean_targets_andersen\": %.4f, \"mean_targets_r0\": %.4f, \"empty_andersen\": %u, "
		       "\"empty_r0\": %u, \"unmodelled_externals\": %u",
		       st->pta_seconds, st->solver.nodes, st->solver.constraints, st->solver.objects,
		       st->solver.collapsed_objects, st->wrappers, share(st->andersen_targets, st->indirect),
		       share(st->r0_targets, st->indirect), st->andersen_empty, st->r0_empty, st->unmodelled);
	if (st->pta) {
		printf(", \"wrappers_via_pointer\": %u, \"wrapper_clones\": %u, \"wrapper_clones_refused\": %u, "
		       "\"pta_collapsed_by_cause\": {", st->wrappers_via_pointer, st->clones, st->clones_refused);
		for (unsigned c = 0; c < PTA_COLLAPSE_CAUSES; c++)
			printf("%s\"%s\": %u", c ? ", " : "", cause_names[c], st->solver.collapsed_by[c]);
		printf("}, \"pta_phase_seconds\": {\"extraction\": %.3f, \"solving\": %.3f, \"whole_graph_passes\": %.3f, "
		       "\"lazy_cycle_searches\": %.3f}, \"pta_widest_sets\": [",
		       st->pta_seconds - st->solver.seconds_solve, st->solver.seconds_solve, st->solver.seconds_flow,
		       st->solver.seconds_lcd);
		for (unsigned i = 0; i < st->n_widest; i++)
			printf("%s{\"value\": %u, \"size\": %u, \"collapsed\": %u}", i ? ", " : "", st->widest[i],
			       st->widest_size[i], st->widest_collapsed[i]);
		printf("]");
	}
	if (refine) {
		char *text = json_dumps(refine, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		printf(", \"refine\": %s", text ? text : "null");
		free(text);
	}
	puts("}");
}

/* --refine: the refinement's counts and the oracle's accounting (docs/oracle.md). */
static json_t *refine_stats(const facet_result *fr, const cli_oracle *orc)
{
	unsigned answered = 0;
	for (unsigned i = 0; i < fr->n_questions; i++)
		answered += fr->questions[i].answered;
	json_t *j = json_object();
	json_object_set_new(j, "seconds", json_real(fr->seconds));
	json_object_set_new(j, "fields", json_integer(fr->n_fields));
	json_object_set_new(j, "decisions", json_integer(fr->n_decisions));
	json_object_set_new(j, "questions", json_integer(fr->n_questions));
	json_object_set_new(j, "questions_answered", json_integer(answered));
	json_object_set_new(j, "oracle", cli_oracle_stats_json(orc));
	return j;
}

static void usage(FILE *out)
{
	fputs("usage: facet stats [--format text|json] [--pta] [--unmodelled] [--refine [ORACLE OPTIONS]]\n"
	      "                   [--no-verify] FILE...\n"
	      "\n"
	      "Links the bitcode/IR files and counts what the analyses work on:\n"
	      "functions defined/declared, call sites (direct, indirect, inline asm),\n"
	      "address-taken functions, struct types with function-pointer members,\n"
	      "the share of call sites with a debug location, and whether the module\n"
	      "has debug info.\n"
	      "\n"
	      "  --pta         also run the points-to analysis: its time and size, mean\n"
	      "                targets and empty sites under andersen and r0, allocation\n"
	      "                wrappers, unmodelled external functions\n"
	      "  --unmodelled  with --pta, list the unmodelled external functions called\n"
	      "  --refine      also run the refinement (implies --pta): its time, fields,\n"
	      "                decisions, residual questions and how many an oracle answered,\n"
	      "                and the oracle's accounting (queries, tokens, cache hits) when\n"
	      "                --oracle names one; the oracle options are facet fields --help's\n"
	      "\n"
	      "Exit codes: 0 success, 1 bad input, 2 usage error.\n",
	      out);
}

typedef struct options {
	const char *format;
	bool refine, no_verify, pta, unmodelled;
	cli_oracle_args oracle;
} options;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--format", options, format),
	CLI_OPT_FLAG("--refine", options, refine),
	CLI_OPT_FLAG("--no-verify", options, no_verify),
	CLI_OPT_FLAG("--pta", options, pta),
	CLI_OPT_FLAG("--unmodelled", options, unmodelled),
	CLI_OPT_TABLE(cli_oracle_opts, options, oracle),
	CLI_OPT_END,
};

int cmd_stats(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	options o = {.format = "text"};
	int nfiles;
	if (!cli_parse("stats", table, &o, argc, argv, &nfiles))
		return EXIT_USAGE;
	const char *format = o.format;
	bool verify = !o.no_verify, refine = o.refine, list_unmodelled = o.unmodelled;
	bool pta = o.pta || refine || list_unmodelled;
	cli_oracle_args oargs = o.oracle;
	char **files = argv + 1;
	if (nfiles == 0) {
		fputs("facet stats: no input files (see --help)\n", stderr);
		return EXIT_USAGE;
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		fprintf(stderr, "facet stats: unknown format '%s' (text, json)\n", format);
		return EXIT_USAGE;
	}
	if (oargs.backend && !refine) {
		fputs("facet stats: the oracle options need --refine\n", stderr);
		return EXIT_USAGE;
	}
	cli_oracle orc = {0};
	if (refine) {
		int orc_rc = cli_oracle_open("stats", &oargs, &orc);
		if (orc_rc != EXIT_OK)
			return orc_rc;
	}
	ir_program *p = cli_load("stats", files, nfiles, verify);
	if (!p) {
		if (refine)
			cli_oracle_close("stats", &orc);
		return EXIT_INPUT;
	}
	program_stats st = compute(p);
	pta_result *r = pta ? pta_analyze(p, NULL) : NULL;
	if (r)
		compute_pta(p, &st, r);
	json_t *rj = NULL;
	if (refine) {
		facet_options fo;
		facet_options_default(&fo);
		fo.oracle = orc.oracle;
		facet_result *fr = facet_refine(r, &fo);
		rj = refine_stats(fr, &orc);
		facet_result_free(fr);
	}
	if (strcmp(format, "json") == 0) {
		print_json(&st, rj);
	} else {
		print_text(p, &st);
		if (rj) {
			printf("refinement:                    %.3f s, %lld fields, %lld decisions, %lld residual questions "
			       "(%lld answered)\n",
			       json_real_value(json_object_get(rj, "seconds")),
			       (long long)json_integer_value(json_object_get(rj, "fields")),
			       (long long)json_integer_value(json_object_get(rj, "decisions")),
			       (long long)json_integer_value(json_object_get(rj, "questions")),
			       (long long)json_integer_value(json_object_get(rj, "questions_answered")));
			cli_oracle_print_stats(stdout, "oracle:                        ", &orc);
		}
	}
	json_decref(rj);
	if (refine)
		cli_oracle_close("stats", &orc);
	for (unsigned i = 0; list_unmodelled && i < r->n_unmodelled; i++)
		printf("  unmodelled: %s\n", r->unmodelled[i]);
	pta_result_free(r);
	ir_program_free(p);
	return EXIT_OK;
}
