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

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "facet oo: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (try 'facet oo --help')\n");
	va_end(ap);
	return EXIT_USAGE;
}

static int parse_long(const char *opt, const char *s, long lo, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo) {
		fprintf(stderr, "facet oo: %s wants an integer >= %ld, got '%s'\n", opt, lo, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* Returns -1 on success, else the exit code. */
static int parse_args(int argc, char **argv, opts *o)
{
	*o = (opts){.algo = -1, .difficulty = OO_MEDIUM, .seed = 1, .pathological = -1};
	o->files = calloc((size_t)argc + 1, sizeof *o->files);
	int only_files = 0;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
			o->files[o->nfiles++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_files = 1;
			continue;
		}
		/* --opt=value and --opt value both work */
		char *val = NULL, *eq = strchr(a, '=');
		char name[64];
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		if (len >= sizeof name)
			return bad_usage("unknown option '%s'", a);
		memcpy(name, a, len);
		name[len] = 0;
		static const char *const with_value[] = {"--algo", "--format", "--rta", "--max-states", "--seed",
		                                         "--difficulty", "--size", "--pathological"};
		int wants = 0;
		for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
			wants |= strcmp(name, with_value[k]) == 0;
		if (wants) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return bad_usage("%s needs a value", name);
		} else if (eq) {
			return bad_usage("option '%s' takes no value", name);
		}
		if (strcmp(name, "--algo") == 0) {
			if ((o->algo = oo_algo_parse(val)) < 0)
				return bad_usage("unknown algorithm '%s' (cha, rta, xta, vta, pta or dyn)", val);
		} else if (strcmp(name, "--format") == 0) {
			if (strcmp(val, "json") != 0 && strcmp(val, "text") != 0)
				return bad_usage("unknown format '%s' (text or json)", val);
			o->json = strcmp(val, "json") == 0;
		} else if (strcmp(name, "--rta") == 0) {
			if (strcmp(val, "worklist") != 0 && strcmp(val, "rounds") != 0)
				return bad_usage("unknown RTA mode '%s' (worklist or rounds)", val);
			o->rta_rounds = strcmp(val, "rounds") == 0;
		} else if (strcmp(name, "--difficulty") == 0) {
			if ((o->difficulty = oo_difficulty_parse(val)) < 0)
				return bad_usage("unknown difficulty '%s' (easy, medium or hard)", val);
		} else if (strcmp(name, "--max-states") == 0) {
			if (parse_long(name, val, 1, &o->max_states))
				return EXIT_USAGE;
		} else if (strcmp(name, "--seed") == 0) {
			if (parse_long(name, val, 0, &o->seed))
				return EXIT_USAGE;
		} else if (strcmp(name, "--size") == 0) {
			if (parse_long(name, val, 1, &o->size) || (o->size > 1000000 && bad_usage("--size %s is too large", val)))
				return EXIT_USAGE;
		} else if (strcmp(name, "--pathological") == 0) {
			if (parse_long(name, val, 1, &o->pathological) ||
			    (o->pathological > 100000 && bad_usage("--pathological %s is too large", val)))
				return EXIT_USAGE;
		} else if (strcmp(name, "--trace") == 0) {
			o->trace = 1;
		} else if (strcmp(name, "--table") == 0) {
			o->table = 1;
		} else if (strcmp(name, "--generate") == 0) {
			o->generate = 1;
		} else if (strcmp(name, "--factory") == 0) {
			o->factory = 1;
		} else {
			return bad_usage("unknown option '%s'", a);
		}
	}
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

/* A file, or standard input for "-" (so `facet oo --generate | facet oo --algo dyn -` works). */
static int load(const char *path, oo_program **p, facet_error *err)
{
	if (strcmp(path, "-") != 0)
		return oo_parse_file(path, p, err);
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	do {
		if (len + 65536 > cap) {
			cap = cap ? 2 * cap : 65536 * 2;
			char *grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				error_set(err, "<stdin>: out of memory");
				return -1;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, stdin);
		len += n;
	} while (n > 0);
	int rc = ferror(stdin) ? (error_set(err, "<stdin>: read error"), -1) : oo_parse(buf ? buf : "", len, "<stdin>", p, err);
	free(buf);
	return rc;
}

static int run_algo(const opts *o)
{
	facet_error err = {0};
	oo_program *p;
	if (load(o->files[0], &p, &err)) {
		fprintf(stderr, "facet oo: %s\n", err.msg);
		return EXIT_INPUT;
	}
	oo_options opt = {o->rta_rounds, o->max_states};
	oo_graph *g;
	oo_table *trace = NULL;
	if (oo_analyze(p, (oo_algo)o->algo, &opt, &g, o->trace ? &trace : NULL, &err)) {
		fprintf(stderr, "facet oo: %s\n", err.msg);
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
		if (load(o->files[f], &p, &err)) {
			fprintf(stderr, "facet oo: %s\n", err.msg);
			rc = EXIT_INPUT;
			break;
		}
		oo_graph *g[OO_NALGO] = {0};
		for (int a = 0; a < OO_NALGO && rc == EXIT_OK; a++)
			if (oo_analyze(p, (oo_algo)a, &opt, &g[a], NULL, &err)) {
				fprintf(stderr, "facet oo: %s\n", err.msg);
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
	free(o.files);
	return rc;
}
