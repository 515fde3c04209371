/* cmd_callgraph.c — `facet callgraph`: print one call graph of the input. */
#include "cli/cli.h"
#include "cli/load.h"
#include "cli/oracle_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cg/graph.h"
#include "cg/print.h"

static void usage(FILE *out)
{
	fputs("usage: facet callgraph [--graph G] [--format F] [--no-verify] FILE...\n"
	      "\n"
	      "Reads LLVM bitcode (.bc) or textual IR (.ll) files, links them into one\n"
	      "module and prints its call graph on stdout.\n"
	      "\n"
	      "  --graph G     direct (default): only the calls the IR names\n"
	      "                andersen: indirect calls resolved by Andersen's points-to\n"
	      "                   analysis (field-sensitive, on-the-fly call graph)\n"
	      "                r0: andersen filtered by IR function type (the Facet\n"
	      "                   paper's R0)\n"
	      "                rulesonly: R0 minus the targets Prune-Store and Prune-Sig\n"
	      "                   refute\n"
	      "                rplus: R+, R0 plus the premise-free (Add-Witness) targets\n"
	      "                   of each site's dispatched field: never loses an R0 edge\n"
	      "                rpm: R±, the refined graph: refutations and every\n"
	      "                   warranted addition adopted (see facet explain)\n"
	      "  --tau N       abstention threshold for rplus/rpm (default 2): a site\n"
	      "                whose R0 minus refutations holds 1..N targets gets no\n"
	      "                addition and no residual removal\n"
	      "  --format F    text: per function, its call sites and targets (default)\n"
	      "                json: {\"graph\", \"functions\", \"sites\"}, see docs/formats.md\n"
	      "                llvm: the text of `opt -passes=print-callgraph` (node\n"
	      "                   addresses are stable fake values); direct graph only\n"
	      "                dot:  Graphviz, one edge per caller/callee pair\n"
	      "  --capture DIR PROGRAM  in place of FILE...: PROGRAM's module from a\n"
	      "                'facet capture' directory (see facet capture --help)\n"
	      "  --no-verify   skip LLVM's module verifier\n"
	      "  -h, --help    this text\n"
	      "\n"
	      "The residual oracle (rpm only: R+ never takes an oracle's answer; the\n"
	      "accounting goes to stderr):\n",
	      out);
	fputs(cli_oracle_help, out);
	fputs("\n"
	      "Exit codes: 0 success, 1 bad input, 2 usage error. A module without\n"
	      "debug info is read with a warning on stderr.\n",
	      out);
}

int cmd_callgraph(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	const char *graph = "direct", *format = "text", *tau = NULL;
	bool verify = true;
	const char *capture_dir = NULL, *capture_prog = NULL;   /* --capture DIR PROGRAM */
	char **files = argv + 1;
	int nfiles = 0;
	cli_oracle_args oargs = {0};
	for (int i = 1; i < argc; i++) {
		int r;
		if ((r = cli_oracle_option("callgraph", argc, argv, &i, &oargs)) ||
		    (r = cli_option("callgraph", argc, argv, &i, "--graph", &graph)) ||
		    (r = cli_option("callgraph", argc, argv, &i, "--format", &format)) ||
		    (r = cli_option("callgraph", argc, argv, &i, "--tau", &tau))) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (strcmp(argv[i], "--capture") == 0) {
			if (i + 2 >= argc) {
				fputs("facet callgraph: --capture needs a capture directory and a program\n", stderr);
				return EXIT_USAGE;
			}
			capture_dir = argv[i + 1];
			capture_prog = argv[i + 2];
			i += 2;
		} else if (strcmp(argv[i], "--no-verify") == 0) {
			verify = false;
		} else if (strcmp(argv[i], "--") == 0) {
			for (i++; i < argc; i++)
				files[nfiles++] = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1] != 0) {
			fprintf(stderr, "facet callgraph: unknown option '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (capture_dir && nfiles > 0) {
		fputs("facet callgraph: give either --capture DIR PROGRAM or bitcode files\n", stderr);
		return EXIT_USAGE;
	}
	if (nfiles == 0 && !capture_dir) {
		fputs("facet callgraph: no input files (see --help)\n", stderr);
		return EXIT_USAGE;
	}
	if (!cli_graph_known(graph)) {
		fprintf(stderr, "facet callgraph: unknown graph '%s' (direct, andersen, r0, rulesonly, rplus, rpm)\n", graph);
		return EXIT_USAGE;
	}
	bool want_pta = cli_graph_needs_pta(graph);
	cli_graph_options gopt = {0};
	if (tau) {
		if (!cli_parse_tau("callgraph", tau, &gopt.tau))
			return EXIT_USAGE;
		gopt.tau_set = true;
	}
	bool llvm = !strcmp(format, "llvm"), json = !strcmp(format, "json"), dot = !strcmp(format, "dot");
	bool text = !strcmp(format, "text");
	if (!llvm && !json && !dot && !text) {
		fprintf(stderr, "facet callgraph: unknown format '%s' (text, json, dot, llvm)\n", format);
		return EXIT_USAGE;
	}
	if (llvm && want_pta) {
		fputs("facet callgraph: --format llvm prints LLVM's own (direct) call graph only\n", stderr);
		return EXIT_USAGE;
	}

	cli_oracle oracle;
	int orc = cli_oracle_open("callgraph", &oargs, &oracle);
	if (orc != EXIT_OK)
		return orc;
	gopt.oracle = oracle.oracle;
	char *captured = NULL;   /* --capture: the extracted module, removed once read */
	if (capture_dir) {
		if (!(captured = cli_capture_module("callgraph", capture_dir, capture_prog))) {
			cli_oracle_close("callgraph", &oracle);
			return EXIT_INPUT;
		}
		files[nfiles++] = captured;
	}
	ir_program *p = want_pta ? cli_load("callgraph", files, nfiles, verify)
	                         : cli_load_sites("callgraph", files, nfiles, verify);
	if (captured)
		unlink(captured);
	free(captured);
	if (!p) {
		cli_oracle_close("callgraph", &oracle);
		return EXIT_INPUT;
	}
	if (llvm) {
		cg_print_llvm(stdout, p);
	} else {
		cg_graph *g = cli_graph("callgraph", p, graph, &gopt);
		if (!g) {
			ir_program_free(p);
			cli_oracle_close("callgraph", &oracle);
			return EXIT_USAGE;
		}
		if (text)
			cg_print_text(stdout, g);
		else if (json)
			cg_print_json(stdout, g);
		else
			cg_print_dot(stdout, g);
		cg_free(g);
	}
	ir_program_free(p);
	bool cache_ok = cli_oracle_close("callgraph", &oracle);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("facet callgraph: writing output");
		return EXIT_INPUT;
	}
	if (!cache_ok)
		return EXIT_INPUT;
	return EXIT_OK;
}
