/* cmd_query.c — `facet query` and `facet overlay`: the query verbs on the
 * command line. Each command turns its arguments into the JSON object
 * query_call takes (the same names the MCP tools use), and prints the answer
 * as JSON or as text for people. The verbs, their arguments and their help
 * lines are the verb registry's (query.h). No LLVM here: facet-query
 * (src/query/bin/) links this file too, without a module writer. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cg/registry.h"
#include "overlay/overlay.h"
#include "query/query.h"
#include "query/text.h"
#include "report/render.h"
#include "util/fsio.h"

/* The query verbs' --help lines, from the verb registry. */
static void usage(FILE *out)
{
	char *verbs = query_verb_help(QV_QUERY, false);
	cli_help(out, "query", (const template_value[]){{"verbs", verbs ? verbs : ""}, {"graphs", cg_graph_list()}, {NULL, NULL}});
	free(verbs);
}

static int print_result(json_t *r, const char *verb, bool json)
{
	if (json) {
		json_dumpf(r, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		putchar('\n');
	} else if (strcmp(verb, "reach") == 0) {
		query_print_reach(stdout, r);
	} else {
		query_print_text(stdout, r);
	}
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

const char cli_rpm_note[] =
	"\nR± (graph rpm, the default of queries and callgraph) may lose a true edge:\n"
	"it drops targets by refutations whose premise (pi_proj: every write into\n"
	"the field was seen; pi_sig: no call through a mismatched type) can fail.\n"
	"R+ (rplus) never drops an R0 edge. 'facet help concepts' explains.\n";

/* ---- facet query ------------------------------------------------------------------------ */

/* The query options: what has a JSON name goes to the verb's arguments as it is. */
static const char options[] = "--catalog= --graph=:graph --format= --min-confidence=:min_confidence --overlay= "
	"--emit-module=:emit_module --limit=:limit --offset=:offset --candidate-limit=:candidate_limit "
	"--max-depth=:max_depth --max-fanout=:max_fanout --include-overlay:include_overlay --in --out @view";
/* facet overlay's own: the query options above mean nothing to it. */
static const char overlay_options[] = "--catalog= --graph= --format= --overlay=";

bool cli_view_args(const char *cmd, const args_set *a, json_t *args)
{
	cli_args_json(a, args);
	const char *cluster = args_str(a, "--cluster");
	if (cluster && strcmp(cluster, "file") != 0) {
		cli_error(cmd, "--cluster takes 'file' (the one grouping there is), not '%s'", cluster);
		return false;
	}
	return true;
}

/* Draws view (the graph verb's answer) as format dot, graphml or svg on stdout. */
static int draw(const args_set *a, json_t *view, const char *format)
{
	report_view_options ro = {.cluster_file = args_has(a, "--cluster"), .legend = !args_has(a, "--no-legend")};
	report_view_draw(stdout, view, format, &ro);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

/* Parses the options every verb shares; false after the message. */
static bool parse_common(const char *cmd, const char *spec, int argc, char **argv, args_set *a)
{
	if (!cli_args_parse(cmd, spec, a, argc, argv))
		return false;
	if (!args_str(a, "--catalog")) {
		cli_error(cmd, "--catalog FILE is required (make one with 'facet build')");
		return false;
	}
	return cli_choice(cmd, "format", args_str_or(a, "--format", "text"), "text\0json\0dot\0graphml\0svg\0");
}

/* Opens the session and switches to --overlay PATH when given. */
static query_session *open_session(const char *cmd, const args_set *a, bool overlay_may_be_new)
{
	facet_error err = {0};
	query_session *s = query_open(args_str(a, "--catalog"), &err);
	if (!s) {
		cli_error(cmd, "%s", err.msg);
		return NULL;
	}
	if (args_str(a, "--overlay")) {
		json_t *args = json_pack("{s:s, s:b, s:b}", "path", args_str(a, "--overlay"), "discard_pending", 1, "create",
		                         overlay_may_be_new);
		json_t *r = query_call(s, "load_overlay", args, &err);
		json_decref(args);
		if (!r) {
			cli_error(cmd, "%s", err.msg);
			query_close(s);
			return NULL;
		}
		json_decref(r);
	}
	return s;
}

/* The text form's page when --limit is not given (--format json: all). */
#define TEXT_LIMIT 100

/* The JSON arguments of verb v from the command line. */
static json_t *verb_args(const query_verb_info *v, const args_set *a)
{
	json_t *args = json_object();
	for (int i = 0; i < a->n_pos; i++) {
		/* {"module_id": ..., "symbol": ...} names one of several statics */
		json_t *x = a->pos[i][0] == '{' ? json_loads(a->pos[i], 0, NULL) : NULL;
		json_object_set_new(args, v->args[i], x ? x : json_string(a->pos[i]));
	}
	cli_args_json(a, args);
	if (args_has(a, "--overlay"))   /* naming an overlay means using it */
		json_object_set_new(args, "include_overlay", json_true());
	if (args_has(a, "--in") || args_has(a, "--out"))
		json_object_set_new(args, "direction", json_string(args_has(a, "--in") ? "in" : "out"));
	if (!args_has(a, "--limit") && v->list && strcmp(args_str_or(a, "--format", "text"), "text") == 0)
		json_object_set_new(args, "limit", json_integer(TEXT_LIMIT));   /* people read the first page; page says the rest */
	return args;
}

/* Runs verb v as the options say and prints its answer: the exit code. */
static int run_verb(const query_verb_info *v, const args_set *a, query_module_writer writer)
{
	query_session *s = open_session("query", a, false);
	if (!s)
		return EXIT_INPUT;
	query_set_module_writer(s, writer);
	json_t *args = verb_args(v, a);
	facet_error err = {0};
	char cmd[64];
	snprintf(cmd, sizeof cmd, "query %s", v->cli);
	const char *format = args_str_or(a, "--format", "text");
	bool drawing = strcmp(format, "dot") == 0 || strcmp(format, "graphml") == 0 || strcmp(format, "svg") == 0;
	json_t *r = NULL;
	int rc = EXIT_INPUT;
	if (drawing && strcmp(v->name, "graph") != 0)
		cli_error(cmd, "--format %s draws the graph verb's answer only (text or json here)", format);
	else if (cli_view_args(cmd, a, args) && !(r = query_call(s, v->name, args, &err)))
		cli_error(cmd, "%s", err.msg);
	else if (r && drawing)
		rc = draw(a, r, format);
	else if (r)
		rc = print_result(r, v->name, strcmp(format, "json") == 0);
	json_decref(r);
	json_decref(args);
	query_close(s);
	return rc;
}

int cli_query(int argc, char **argv, query_module_writer writer)
{
	if (args_wants_help(argc, argv) || argc < 2) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;   /* the facet binary adds cli_rpm_note */
	}
	const query_verb_info *v = query_verb_find_cli(argv[1], QV_QUERY);
	if (!v) {
		cli_error("query", "unknown verb '%s' (see --help)", argv[1]);
		return EXIT_USAGE;
	}
	char **vargv = calloc((size_t)argc, sizeof *vargv);   /* parsing packs the positionals in place */
	memcpy(vargv, argv + 1, (size_t)(argc - 1) * sizeof *vargv);
	args_set a;
	int rc = EXIT_USAGE;
	unsigned want = query_verb_n_args(v);
	if (!parse_common("query", options, argc - 1, vargv, &a))
		;
	else if ((unsigned)a.n_pos != want)
		cli_error("query", "%s takes %u argument%s, got %d (see --help)", v->cli, want, want == 1 ? "" : "s",
		          a.n_pos);
	else if (args_has(&a, "--in") && args_has(&a, "--out"))
		cli_error("query", "give one of --in and --out");
	else
		rc = run_verb(v, &a, writer);
	args_free(&a);
	free(vargv);
	return rc;
}

int cli_view_catalog(const char *cmd, const char *path, const char *graph, const args_set *o, const char *format)
{
	if (!cli_choice(cmd, "format for a catalog", format, "dot\0graphml\0svg\0json\0"))
		return EXIT_USAGE;
	facet_error err = {0};
	query_session *s = query_open(path, &err);
	if (!s) {
		cli_error(cmd, "%s", err.msg);
		return EXIT_INPUT;
	}
	json_t *args = json_object();
	if (graph)
		json_object_set_new(args, "graph", json_string(graph));
	int rc = EXIT_USAGE;
	json_t *r = NULL;
	if (cli_view_args(cmd, o, args)) {
		rc = EXIT_INPUT;
		if (!(r = query_call(s, "graph", args, &err)))
			cli_error(cmd, "%s", err.msg);
		else if (strcmp(format, "json") == 0)
			rc = print_result(r, "graph", true);
		else
			rc = draw(o, r, format);
	}
	json_decref(r);
	json_decref(args);
	query_close(s);
	return rc;
}

/* ---- facet overlay ---------------------------------------------------------------------- */

int cli_overlay(int argc, char **argv)
{
	if (args_wants_help(argc, argv) || argc < 2) {
		cli_help(argc < 2 ? stderr : stdout, "overlay", NULL);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	const char *sub = argv[1];
	bool record = strcmp(sub, "record") == 0;
	if (!record && strcmp(sub, "list") != 0) {
		cli_error("overlay", "unknown subcommand '%s' (record, list)", sub);
		return EXIT_USAGE;
	}
	args_set c;
	if (!parse_common("overlay", overlay_options, argc - 1, argv + 1, &c))
		return EXIT_USAGE;
	if (c.n_pos) {
		cli_error("overlay", "unexpected argument '%s' (records come on stdin)", c.pos[0]);
		return EXIT_USAGE;
	}
	query_session *s = open_session("overlay", &c, record);
	if (!s)
		return EXIT_INPUT;
	const char *graph = args_str(&c, "--graph"), *ov = args_str(&c, "--overlay");
	facet_error err = {0};
	json_t *r = NULL;
	int rc = EXIT_INPUT;
	if (record) {
		size_t len = 0;
		char *text = NULL;
		bool read = fsio_read_fd(STDIN_FILENO, "stdin", 0, "the overlay records", &text, &len, &err);
		json_t *records = read ? overlay_parse_lines(text, len, &err) : NULL;
		free(text);
		if (!records) {
			cli_error("overlay record", read ? "stdin %s" : "%s", err.msg);
			goto out;
		}
		json_t *args = json_pack("{s:o}", "records", records);
		if (graph)
			json_object_set_new(args, "graph", json_string(graph));
		r = query_call(s, "record_edges", args, &err);
		json_decref(args);
		if (!r) {
			cli_error("overlay record", "%s", err.msg);
			goto out;
		}
		json_decref(r);
		args = ov ? json_pack("{s:s}", "path", ov) : json_object();
		if (graph)
			json_object_set_new(args, "graph", json_string(graph));
		r = query_call(s, "save_overlay", args, &err);
		json_decref(args);
		if (!r) {
			cli_error("overlay record", "%s", err.msg);
			goto out;
		}
	} else {
		json_t *args = graph ? json_pack("{s:s}", "graph", graph) : NULL;
		r = query_call(s, "list_overlay", args, &err);
		json_decref(args);
		if (!r) {
			cli_error("overlay list", "%s", err.msg);
			goto out;
		}
	}
	rc = print_result(r, sub, strcmp(args_str_or(&c, "--format", "text"), "json") == 0);
	json_decref(r);
out:
	query_close(s);
	return rc;
}
