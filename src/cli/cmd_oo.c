/* cmd_oo.c — `facet oo`: the class-hierarchy lab of Lesson 20.1 (src/oo).
 *
 * Three modes: one algorithm on one program (--algo, with --trace for the
 * lesson's step and round tables), the comparison table over several
 * programs (--table), and the program generators (--generate). This file
 * only parses options, picks the output format and maps failures to exit
 * codes; the run itself is src/oo's (oo/run.h). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"
#include "oo/gen.h"
#include "oo/oo.h"
#include "oo/run.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char options[] = "--algo= --format= --rta= --max-states= --seed= --difficulty= --size= --pathological= "
                               "--trace --table --generate --factory";

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
static int convert(const args_set *a, oo_request *o)
{
	const char *algo = args_str(a, "--algo"), *format = args_str(a, "--format"), *rta = args_str(a, "--rta");
	const char *difficulty = args_str(a, "--difficulty");
	if (algo && (o->algo = oo_algo_parse(algo)) < 0)
		return bad_usage("unknown algorithm '%s' (cha, rta, xta, vta, pta or dyn)", algo);
	if (format && strcmp(format, "json") != 0 && strcmp(format, "text") != 0)
		return bad_usage("unknown format '%s' (text or json)", format);
	if (rta && strcmp(rta, "worklist") != 0 && strcmp(rta, "rounds") != 0)
		return bad_usage("unknown RTA mode '%s' (worklist or rounds)", rta);
	if (difficulty && (o->difficulty = oo_difficulty_parse(difficulty)) < 0)
		return bad_usage("unknown difficulty '%s' (easy, medium or hard)", difficulty);
	if (!number("--max-states", args_str(a, "--max-states"), 1, LONG_MAX, &o->max_states) ||
	    !number("--seed", args_str(a, "--seed"), 0, LONG_MAX, &o->seed) ||
	    !number("--size", args_str(a, "--size"), 1, 1000000, &o->size) ||
	    !number("--pathological", args_str(a, "--pathological"), 1, 100000, &o->pathological))
		return EXIT_USAGE;
	o->json = format && !strcmp(format, "json");
	o->rta_rounds = rta && !strcmp(rta, "rounds");
	o->trace = args_has(a, "--trace");
	o->table = args_has(a, "--table");
	o->generate = args_has(a, "--generate");
	o->factory = args_has(a, "--factory");
	return -1;
}

/* Returns -1 on success, else the exit code. */
static int parse_args(int argc, char **argv, oo_request *o)
{
	*o = (oo_request){.algo = -1, .difficulty = OO_MEDIUM, .seed = 1, .pathological = -1};
	args_set a;
	if (!cli_args_parse("oo", options, &a, argc, argv))
		return EXIT_USAGE;
	o->nfiles = a.n_pos;
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

int cmd_oo(int argc, char **argv)
{
	if (args_wants_help(argc, argv)) {
		char max[32];
		snprintf(max, sizeof max, "%d", OO_DYN_MAX_STATES);
		cli_help(stdout, "oo", (const template_value[]){{"max_states", max}, {NULL, NULL}});
		return EXIT_OK;
	}
	oo_request o;
	int rc = parse_args(argc, argv, &o);
	facet_error err = {0};
	if (rc < 0 && !oo_run(&o, stdout, &err)) {
		cli_error("oo", "%s", err.msg);
		return EXIT_INPUT;
	}
	return rc < 0 ? EXIT_OK : rc;
}
