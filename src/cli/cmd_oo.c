/* cmd_oo.c — `facet oo`: the class-hierarchy lab of Lesson 20.1 (src/oo).
 *
 * Three modes: one algorithm on one program (--algo, with --trace for the
 * lesson's step and round tables), the comparison table over several
 * programs (--table), and the program generators (--generate). This file
 * only parses options, picks the output format and maps failures to exit
 * codes; everything else is in src/oo. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "oo/compare.h"
#include "oo/gen.h"
#include "oo/oo.h"
#include "oo/print.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: facet oo --algo A [--format text|json] [--trace] [--rta worklist|rounds] FILE.oo\n"
	        "       facet oo --table [--format text|json] FILE.oo...\n"
	        "       facet oo --generate [--seed N] [--difficulty easy|medium|hard] [--size N]\n"
	        "       facet oo --generate --pathological N [--factory]\n"
	        "\n"
	        "The class-hierarchy lab of Lesson 20.1: call graphs of .oo programs\n"
	        "(class C [extends D], global g: C, func f { }, method C.m { }; see docs/oo.md).\n"
	        "FILE may be - for standard input.\n"
	        "\n"
	        "  --algo A          cha, rta, xta, vta, pta (points-to, one object per new)\n"
	        "                    or dyn (every execution, both branches of each choose)\n"
	        "  --format F        text (default) or json: {\"algo\", \"reachable\", \"sites\", \"edges\"}\n"
	        "  --trace           also print the algorithm's table: CHA worklist steps,\n"
	        "                    RTA rounds (Inst, R), XTA sets per round, VTA/PTA rounds\n"
	        "  --rta MODE        worklist (default) or rounds; --trace implies rounds\n"
	        "  --max-states N    state budget of dyn (default %d)\n"
	        "  --table           targets per site of all six algorithms, edges and\n"
	        "                    reachable bodies, for each FILE and in total\n"
	        "  --generate        print a random type-correct program\n"
	        "  --seed N          generator seed (default 1)\n"
	        "  --difficulty D    easy, medium (default) or hard\n"
	        "  --size N          about N bodies instead of the difficulty's small shape\n"
	        "  --pathological N  print P_N of section 5 (n sites x.m(), n subclasses)\n"
	        "  --factory         with --pathological: add a function creating every D_k\n"
	        "\n"
	        "Exit codes: 0 success, 1 bad program or failed analysis (file:line:col: problem),\n"
	        "2 usage error.\n",
	        OO_DYN_MAX_STATES);
}

typedef struct opts {
	int algo, json, trace, table, generate, rta_rounds, factory, difficulty;
	long max_states, seed, size, pathological;
	const char **files;
	int nfiles;
} opts;

typedef struct args {
	const char *algo, *format, *rta, *max_states, *seed, *difficulty, *size, *pathological;
	bool trace, table, generate, factory;
} args;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--algo", args, algo), CLI_OPT_VALUE("--format", args, format), CLI_OPT_VALUE("--rta", args, rta),
	CLI_OPT_VALUE("--max-states", args, max_states), CLI_OPT_VALUE("--seed", args, seed),
	CLI_OPT_VALUE("--difficulty", args, difficulty), CLI_OPT_VALUE("--size", args, size),
	CLI_OPT_VALUE("--pathological", args, pathological), CLI_OPT_FLAG("--trace", args, trace),
	CLI_OPT_FLAG("--table", args, table), CLI_OPT_FLAG("--generate", args, generate),
	CLI_OPT_FLAG("--factory", args, factory), CLI_OPT_END,
};

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cli_error("oo", "%s (try 'facet oo --help')", msg);
	return EXIT_USAGE;
}

/* s as an integer lo..hi when given (out unchanged otherwise); false after the message. */
static bool number(const char *opt, const char *s, long lo, long hi, long *out)
{
	if (!s)
		return true;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo) {
		cli_error("oo", "%s wants an integer >= %ld, got '%s'", opt, lo, s);
		return false;
	}
	if (v > hi) {
		bad_usage("%s %s is too large", opt, s);
		return false;
	}
	*out = v;
	return true;
}

/* The arguments' values checked and converted; -1 on success, else the exit code. */
static int convert(const args *a, opts *o)
{
	if (a->algo && (o->algo = oo_algo_parse(a->algo)) < 0)
		return bad_usage("unknown algorithm '%s' (cha, rta, xta, vta, pta or dyn)", a->algo);
	if (a->format && strcmp(a->format, "json") != 0 && strcmp(a->format, "text") != 0)
		return bad_usage("unknown format '%s' (text or json)", a->format);
	if (a->rta && strcmp(a->rta, "worklist") != 0 && strcmp(a->rta, "rounds") != 0)
		return bad_usage("unknown RTA mode '%s' (worklist or rounds)", a->rta);
	if (a->difficulty && (o->difficulty = oo_difficulty_parse(a->difficulty)) < 0)
		return bad_usage("unknown difficulty '%s' (easy, medium or hard)", a->difficulty);
	if (!number("--max-states", a->max_states, 1, LONG_MAX, &o->max_states) ||
	    !number("--seed", a->seed, 0, LONG_MAX, &o->seed) || !number("--size", a->size, 1, 1000000, &o->size) ||
	    !number("--pathological", a->pathological, 1, 100000, &o->pathological))
		return EXIT_USAGE;
	o->json = a->format && !strcmp(a->format, "json");
	o->rta_rounds = a->rta && !strcmp(a->rta, "rounds");
	o->trace = a->trace;
	o->table = a->table;
	o->generate = a->generate;
	o->factory = a->factory;
	return -1;
}

/* Returns -1 on success, else the exit code. */
static int parse_args(int argc, char **argv, opts *o)
{
	*o = (opts){.algo = -1, .difficulty = OO_MEDIUM, .seed = 1, .pathological = -1};
	args a = {0};
	if (!cli_parse("oo", table, &a, argc, argv, &o->nfiles))
		return EXIT_USAGE;
	o->files = (const char **)argv + 1;
	int rc = convert(&a, o);
	if (rc >= 0)
		return rc;
	int modes = (o->algo >= 0) + o->table + o->generate;
	if (modes == 0)
		return bad_usage("give --algo A, --table or --generate");
	if (modes > 1)
		return bad_usage("--algo, --table and --generate exclude each other");
	if (o->generate && o->nfiles)
		return bad_usage("--generate takes no file, got '%s'", o->files[0]);
	if (o->algo >= 0 && o->nfiles == 0)
		return bad_usage("--algo needs a FILE.oo");
	if (o->algo >= 0 && o->nfiles > 1)
		return bad_usage("--algo reads one file, got %d (use --table to compare several)", o->nfiles);
	if (o->table && o->nfiles == 0)
		return bad_usage("--table needs at least one FILE.oo");
	if (o->factory && o->pathological < 0)
		return bad_usage("--factory only goes with --pathological N");
	if (!o->generate && (o->pathological >= 0 || o->size))
		return bad_usage("--pathological and --size only go with --generate");
	return -1;
}

static int run_generate(const opts *o)
{
	char *text = o->pathological > 0 ? oo_generate_pathological((int)o->pathological, o->factory)
	                                 : oo_generate((uint64_t)o->seed, (oo_difficulty)o->difficulty, (int)o->size);
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}

static int run_algo(const opts *o)
{
	facet_error err = {0};
	oo_program *p;
	if (oo_parse_file(o->files[0], &p, &err)) {
		cli_error("oo", "%s", err.msg);
		return EXIT_INPUT;
	}
	oo_options opt = {o->rta_rounds, o->max_states};
	oo_graph *g;
	oo_table *trace = NULL;
	if (oo_analyze(p, (oo_algo)o->algo, &opt, &g, o->trace ? &trace : NULL, &err)) {
		cli_error("oo", "%s", err.msg);
		oo_program_free(p);
		return EXIT_INPUT;
	}
	if (o->json) {
		oo_print_graph_json(stdout, g, trace);
	} else {
		if (trace) {
			oo_print_table(stdout, trace);
			fputc('\n', stdout);
		}
		oo_print_graph(stdout, g);
	}
	oo_table_free(trace);
	oo_graph_free(g);
	oo_program_free(p);
	return EXIT_OK;
}

static int run_table(const opts *o)
{
	oo_compare cmp;
	oo_compare_init(&cmp);
	int rc = EXIT_OK;
	oo_options opt = {0, o->max_states};
	for (int f = 0; f < o->nfiles && rc == EXIT_OK; f++) {
		facet_error err = {0};
		oo_program *p;
		if (oo_parse_file(o->files[f], &p, &err)) {
			cli_error("oo", "%s", err.msg);
			rc = EXIT_INPUT;
			break;
		}
		oo_graph *g[OO_NALGO] = {0};
		for (int a = 0; a < OO_NALGO && rc == EXIT_OK; a++)
			if (oo_analyze(p, (oo_algo)a, &opt, &g[a], NULL, &err)) {
				cli_error("oo", "%s", err.msg);
				rc = EXIT_INPUT;
			}
		if (rc == EXIT_OK)
			oo_compare_add(&cmp, o->files[f], g);
		for (int a = 0; a < OO_NALGO; a++)
			oo_graph_free(g[a]);
		oo_program_free(p);
	}
	if (rc == EXIT_OK) {
		oo_compare_finish(&cmp);
		if (o->json) {
			oo_print_table_json(stdout, cmp.t);
			fputc('\n', stdout);
		} else {
			oo_print_table(stdout, cmp.t);
		}
	}
	oo_compare_free(&cmp);
	return rc;
}

int cmd_oo(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	opts o;
	int rc = parse_args(argc, argv, &o);
	if (rc < 0)
		rc = o.generate ? run_generate(&o) : o.table ? run_table(&o) : run_algo(&o);
	return rc;
}
