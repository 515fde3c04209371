/* main.c — the facet driver: pick a subcommand, hand it the arguments. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/registry.h"
#include "ir/slice.h"
#include "query/query.h"

static int cmd_query(int argc, char **argv) { return cli_query(argc, argv, ir_slice_write); }
static int cmd_completion(int argc, char **argv);

typedef struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} command;

static const command commands[] = {
	{"callgraph", cmd_callgraph, "print a call graph of LLVM bitcode (llvm, json or dot)"},
	{"stats",     cmd_stats,     "count functions, call sites and debug info of a program"},
	{"pts",       cmd_pts,       "points-to sets of Andersen's analysis (a site's callee, a global)"},
	{"dump",      cmd_dump,      "print the program model (pointer statements), for debugging"},
	{"explain",   cmd_explain,   "why a call site has its targets: dispatched field, warrants, questions"},
	{"rederive",  cmd_rederive,  "derive R+/R± again from a catalog's provenance under another tau"},
	{"fields",    cmd_fields,    "what the refinement recovered: fields, assignments, mean targets"},
	{"trace",     cmd_trace,     "build an instrumented executable that records indirect calls"},
	{"score",     cmd_score,     "score call graphs against observed edges (macro P/R/F1, targets per site)"},
	{"build",     cmd_build,     "run the whole analysis once and write the catalog (SQLite)"},
	{"source",    cmd_source,    "a catalog (graph 'source') from C files that have no build, through clang"},
	{"query",     cmd_query,     "ask a catalog: callers, callees, reach, closure, slice, at, uses, ..."},
	{"overlay",   cli_overlay,   "record and list agent edges beside a catalog (the overlay)"},
	{"report",    cmd_report,    "write a catalog as HTML pages: numbers, figure, sites, warrants, search"},
	{"mcp",       cmd_mcp,       "serve the catalog queries and the overlay to AI agents (MCP on stdio)"},
	{"capture",   cmd_capture,   "run a build observing its compiles and links; list and extract its programs' bitcode"},
	{"oo",        cmd_oo,        "class-hierarchy lab: CHA, RTA, XTA, VTA, points-to, dynamic"},
	{"completion", cmd_completion, "print a bash completion script (source <(facet completion bash))"},
};

/* The commands as --help lists them ("  NAME summary" lines), or their names alone. */
static char *command_list(bool names)
{
	char *s = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&s, &n);
	for (size_t i = 0; mem && i < sizeof commands / sizeof *commands; i++) {
		if (names)
			fprintf(mem, "%s%s", i ? " " : "", commands[i].name);
		else
			fprintf(mem, "%s  %-10s %s", i ? "\n" : "", commands[i].name, commands[i].summary);
	}
	if (mem)
		fclose(mem);
	return s;
}

/* The commands, verbs and graphs from their tables (this one, the verb
 * registry, cg/registry.h) in docs/help/completion-bash.txt; a command's
 * options from its own --help, read when completing, so the script never
 * lists an option twice. */
static int cmd_completion(int argc, char **argv)
{
	if (args_wants_help(argc, argv)) {
		puts("usage: facet completion bash\n\nPrints a bash completion script for facet: source <(facet completion bash)");
		return EXIT_OK;
	}
	if (argc != 2 || strcmp(argv[1], "bash") != 0) {
		fputs("facet completion: error: name the shell: facet completion bash\n", stderr);
		return EXIT_USAGE;
	}
	char *names = command_list(true), *query = query_verb_help(QV_QUERY, true),
	     *overlay = query_verb_help(QV_OVERLAY, true);
	cli_help(stdout, "completion-bash",
	         (const template_value[]){{"commands", names}, {"graphs", cg_graph_names()},
	                                  {"query_verbs", query}, {"overlay_verbs", overlay}, {NULL, NULL}});
	free(names);
	free(query);
	free(overlay);
	return EXIT_OK;
}

static void usage(FILE *out)
{
	char *list = command_list(false);
	cli_help(out, "facet", (const template_value[]){{"commands", list}, {NULL, NULL}});
	free(list);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2 && strcmp(argv[2], "concepts") == 0) {
		fputs(cli_concepts_text, stdout);
		return cli_flush("help") ? EXIT_OK : EXIT_INPUT;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2) {   /* facet help CMD = facet CMD --help */
		char *av[] = {argv[2], "--help", NULL};
		for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
			if (strcmp(argv[2], commands[i].name) == 0) {
				int rc = commands[i].run(2, av);
				fputs(cli_rpm_note, stdout);
				return rc;
			}
		fprintf(stderr, "facet: error: no help on '%s' (commands, or 'concepts')\n", argv[2]);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		fputs(cli_rpm_note, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("facet 0.1.0\n");
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			int rc = commands[i].run(argc - 1, argv + 1);
			if (args_wants_help(argc - 1, argv + 1))   /* every --help says what R± may lose */
				fputs(cli_rpm_note, stdout);
			return rc;
		}
	fprintf(stderr, "facet: error: unknown command '%s' (try 'facet --help')\n", argv[1]);
	return EXIT_USAGE;
}
