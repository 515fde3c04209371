/* cmd_stats.c — `facet stats`: what a program is made of. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/andersen.h"
#include "pta/stats.h"
#include "cli/oracle_cli.h"
#include "facet/facet.h"

#include <jansson.h>
#include "util/xalloc.h"


static void print_json(const pta_program_stats *st, json_t *refine)
{
	printf("{\"debug_info\": %s, \"functions_defined\": %u, \"functions_declared\": %u, "
	       "\"intrinsics\": %u, \"address_taken\": %u, \"sites\": %u, \"sites_direct\": %u, "
	       "\"sites_indirect\": %u, \"sites_indirect_named\": %u, \"sites_asm\": %u, \"sites_with_location\": %u, "
	       "\"location_share\": %.4f, \"structs_with_fn_ptr_members\": %u, \"globals\": %u, "
	       "\"globals_holding_functions\": %u",
	       st->debug_info ? "true" : "false", st->defined, st->declared, st->intrinsics,
	       st->address_taken, st->sites, st->direct, st->indirect, st->named, st->asm_sites, st->sites_with_loc,
	       pta_share(st->sites_with_loc, st->sites), st->fp_structs, st->globals,
	       st->globals_with_fn_slots);
	printf(", \"sites_asm_goto\": %u, \"sites_asm_pointer_operands\": %u, \"aliases\": %u, "
	       "\"instructions_not_lowered\": %u, \"module_asm_statements\": %u, \"module_asm_entries\": %u, "
	       "\"module_asm_unparsed\": %u, \"asm_defined_functions\": %u, \"section_bounds\": %u, "
	       "\"section_bounds_by_stem\": %u, \"section_members\": %u, \"section_entries\": %u",
	       st->asm_goto, st->asm_pointer_sites, st->aliases, st->unlowered_insts, st->module_asm.statements,
	       st->module_asm.entries, st->module_asm.unparsed, st->module_asm.function_labels, st->section_bounds,
	       st->section_bounds_by_stem, st->section_members, st->section_entries);
	if (st->pta)
		printf(", \"section_members_static\": %u, \"relative_entries_followed\": %u",
		       st->section_members_static, st->relative_entries);
	if (st->pta)
		printf(", \"pta_seconds\": %.3f, \"pta_nodes\": %u, \"pta_constraints\": %zu, \"pta_objects\": %u, "
		       "\"pta_collapsed_objects\": %u, \"allocation_wrappers\": %u, "
		       "\"mean_targets_andersen\": %.4f, \"mean_targets_r0\": %.4f, \"empty_andersen\": %u, "
		       "\"empty_r0\": %u, \"unmodelled_externals\": %u",
		       st->pta_seconds, st->solver.nodes, st->solver.constraints, st->solver.objects,
		       st->solver.collapsed_objects, st->wrappers, pta_share(st->andersen_targets, st->indirect),
		       pta_share(st->r0_targets, st->indirect), st->andersen_empty, st->r0_empty, st->unmodelled);
	if (st->pta) {
		printf(", \"wrappers_via_pointer\": %u, \"wrapper_clones\": %u, \"wrapper_clones_refused\": %u, "
		       "\"pta_collapsed_by_cause\": {", st->wrappers_via_pointer, st->clones, st->clones_refused);
		for (unsigned c = 0; c < PTA_COLLAPSE_CAUSES; c++)
			printf("%s\"%s\": %u", c ? ", " : "", pta_collapse_cause_names[c], st->solver.collapsed_by[c]);
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
	pta_program_stats st = pta_program_stats_of(p);
	pta_result *r = pta ? pta_analyze(p, NULL) : NULL;
	if (r)
		pta_program_stats_add_pta(&st, p, r);
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
		pta_program_stats_print(stdout, p, &st);
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
