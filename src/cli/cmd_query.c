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

/* The query verbs' --help lines, from the verb registry. */
static void usage(FILE *out)
{
	char *verbs = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&verbs, &len);
	const char *sep = "";   /* the text's {{verbs}} line has its own newline */
	for (const query_verb_info *v = query_verb_table; mem && v->name; v++) {
		if (v->group != QV_QUERY)
			continue;
		char head[64];
		snprintf(head, sizeof head, "%s%s%s", v->cli, *v->usage ? " " : "", v->usage);
		for (const char *line = v->summary; *line; head[0] = 0) {
			size_t n = strcspn(line, "\n");
			fprintf(mem, "%s  %-26s %.*s", sep, head, (int)n, line);
			sep = "\n";
			line += n + (line[n] == '\n');
		}
	}
	if (mem)
		fclose(mem);
	cli_help(out, "query", (const cli_help_value[]){{"verbs", verbs ? verbs : ""}, {"graphs", cg_graph_list()}, {NULL, NULL}});
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

typedef struct common {
	const char *catalog, *graph, *format, *min_conf, *overlay, *emit, *limit, *offset, *candidate_limit;
	const char *max_depth, *max_fanout;
	bool include_overlay, in, out;
	cli_view_options view;
	char **pos;
	int n_pos;
} common;

static const cli_opt table[] = {
	CLI_OPT_VALUE("--catalog", common, catalog),
	CLI_OPT_VALUE("--graph", common, graph),
	CLI_OPT_VALUE("--format", common, format),
	CLI_OPT_VALUE("--min-confidence", common, min_conf),
	CLI_OPT_VALUE("--overlay", common, overlay),
	CLI_OPT_VALUE("--emit-module", common, emit),
	CLI_OPT_VALUE("--limit", common, limit),
	CLI_OPT_VALUE("--offset", common, offset),
	CLI_OPT_VALUE("--candidate-limit", common, candidate_limit),
	CLI_OPT_VALUE("--max-depth", common, max_depth),
	CLI_OPT_VALUE("--max-fanout", common, max_fanout),
	CLI_OPT_FLAG("--include-overlay", common, include_overlay),
	CLI_OPT_FLAG("--in", common, in),
	CLI_OPT_FLAG("--out", common, out),
	CLI_OPT_TABLE(cli_view_opts, common, view),
	CLI_OPT_END,
};

/* facet overlay's own: the query options above mean nothing to it. */
static const cli_opt overlay_table[] = {
	CLI_OPT_VALUE("--catalog", common, catalog),
	CLI_OPT_VALUE("--graph", common, graph),
	CLI_OPT_VALUE("--format", common, format),
	CLI_OPT_VALUE("--overlay", common, overlay),
	CLI_OPT_END,
};

const cli_opt cli_view_opts[] = {
	CLI_OPT_VALUE("--root", cli_view_options, root),
	CLI_OPT_VALUE("--depth", cli_view_options, depth),
	CLI_OPT_VALUE("--direction", cli_view_options, direction),
	CLI_OPT_VALUE("--focus", cli_view_options, focus),
	CLI_OPT_VALUE("--cluster", cli_view_options, cluster),
	CLI_OPT_VALUE("--max-nodes", cli_view_options, max_nodes),
	CLI_OPT_FLAG("--hide-external", cli_view_options, hide_external),
	CLI_OPT_FLAG("--no-legend", cli_view_options, no_legend),
	CLI_OPT_END,
};

bool cli_view_args(const char *cmd, const cli_view_options *o, json_t *args)
{
	if (o->root)
		json_object_set_new(args, "root", json_string(o->root));
	if (o->focus)
		json_object_set_new(args, "location", json_string(o->focus));
	if (o->depth)
		json_object_set_new(args, "depth", json_string(o->depth));
	if (o->max_nodes)
		json_object_set_new(args, "max_nodes", json_string(o->max_nodes));
	if (o->direction)
		json_object_set_new(args, "direction", json_string(o->direction));
	if (o->hide_external)
		json_object_set_new(args, "hide_external", json_true());
	if (o->cluster && strcmp(o->cluster, "file") != 0) {
		cli_error(cmd, "--cluster takes 'file' (the one grouping there is), not '%s'", o->cluster);
		return false;
	}
	return true;
}

int cli_view_print(const cli_view_options *o, json_t *view, const char *format, const char *title)
{
	report_view_options ro = {.cluster_file = o->cluster != NULL, .legend = !o->no_legend, .title = title};
	if (strcmp(format, "dot") == 0)
		report_view_dot(stdout, view, &ro);
	else if (strcmp(format, "graphml") == 0)
		report_view_graphml(stdout, view, &ro);
	else
		report_view_svg(stdout, view, &ro);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

/* Parses the options every verb shares; false after the message. */
static bool parse_common(const char *cmd, const cli_opt *options, int argc, char **argv, common *c)
{
	if (!cli_parse(cmd, options, c, argc, argv, &c->n_pos))
		return false;
	c->pos = argv + 1;
	if (!c->catalog) {
		cli_error(cmd, "--catalog FILE is required (make one with 'facet build')");
		return false;
	}
	if (!c->format)
		c->format = "text";
	return cli_choice(cmd, "format", c->format, "text\0json\0dot\0graphml\0svg\0");
}

/* Opens the session and switches to --overlay PATH when given. */
static query_session *open_session(const char *cmd, const common *c, bool overlay_may_be_new)
{
	facet_error err = {0};
	query_session *s = query_open(c->catalog, &err);
	if (!s) {
		cli_error(cmd, "%s", err.msg);
		return NULL;
	}
	if (c->overlay) {
		json_t *args = json_pack("{s:s, s:b, s:b}", "path", c->overlay, "discard_pending", 1, "create",
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
static json_t *verb_args(const query_verb_info *v, const common *c)
{
	json_t *args = json_object();
	for (int i = 0; i < c->n_pos; i++) {
		/* {"module_id": ..., "symbol": ...} names one of several statics */
		json_t *x = c->pos[i][0] == '{' ? json_loads(c->pos[i], 0, NULL) : NULL;
		json_object_set_new(args, v->args[i], x ? x : json_string(c->pos[i]));
	}
	if (c->graph)
		json_object_set_new(args, "graph", json_string(c->graph));
	if (c->include_overlay)
		json_object_set_new(args, "include_overlay", json_true());
	if (c->min_conf)
		json_object_set_new(args, "min_confidence", json_string(c->min_conf));
	if (c->in || c->out)
		json_object_set_new(args, "direction", json_string(c->in ? "in" : "out"));
	if (c->emit)
		json_object_set_new(args, "emit_module", json_string(c->emit));
	if (c->limit)
		json_object_set_new(args, "limit", json_string(c->limit));
	else if (v->list && strcmp(c->format, "text") == 0)   /* people read the first page; page says the rest */
		json_object_set_new(args, "limit", json_integer(TEXT_LIMIT));
	if (c->offset)
		json_object_set_new(args, "offset", json_string(c->offset));
	if (c->candidate_limit)
		json_object_set_new(args, "candidate_limit", json_string(c->candidate_limit));
	if (c->max_depth)
		json_object_set_new(args, "max_depth", json_string(c->max_depth));
	if (c->max_fanout)
		json_object_set_new(args, "max_fanout", json_string(c->max_fanout));
	return args;
}

/* Writing bitcode needs LLVM: without a module writer (facet-query), the
 * facet binary beside this one answers the whole command. */
static int hand_to_facet(int argc, char **argv)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
	char *slash = n > 0 ? memrchr(self, '/', (size_t)n) : NULL;
	if (slash) {
		strcpy(slash + 1, "facet");
		char **av = calloc((size_t)argc + 2, sizeof *av);
		av[0] = self;
		av[1] = "query";
		for (int i = 1; i < argc; i++)
			av[i + 1] = argv[i];
		fflush(NULL);
		execv(self, av);
		free(av);
	}
	cli_error("query", "--emit-module needs the facet binary (not found beside this one)");
	return EXIT_INPUT;
}

int cli_query(int argc, char **argv, query_module_writer writer)
{
	if (cli_wants_help(argc, argv) || argc < 2) {
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
	common c = {0};
	int rc = EXIT_USAGE;
	unsigned want = query_verb_n_args(v);
	if (!parse_common("query", table, argc - 1, vargv, &c))
		goto out;
	if ((unsigned)c.n_pos != want) {
		cli_error("query", "%s takes %u argument%s, got %d (see --help)", v->cli, want, want == 1 ? "" : "s",
		          c.n_pos);
		goto out;
	}
	if (c.in && c.out) {
		cli_error("query", "give one of --in and --out");
		goto out;
	}
	c.include_overlay = c.include_overlay || c.overlay;   /* naming an overlay means using it */
	if (c.emit && !writer) {
		rc = hand_to_facet(argc, argv);
		goto out;
	}
	rc = EXIT_INPUT;
	query_session *s = open_session("query", &c, false);
	if (s) {
		query_set_module_writer(s, writer);
		json_t *args = verb_args(v, &c);
		facet_error err = {0};
		char cmd[64];
		snprintf(cmd, sizeof cmd, "query %s", v->cli);
		bool drawing = strcmp(c.format, "dot") == 0 || strcmp(c.format, "graphml") == 0 ||
		               strcmp(c.format, "svg") == 0;
		json_t *r = NULL;
		if (drawing && strcmp(v->name, "graph") != 0)
			cli_error(cmd, "--format %s draws the graph verb's answer only (text or json here)", c.format);
		else if (cli_view_args(cmd, &c.view, args) && !(r = query_call(s, v->name, args, &err)))
			cli_error(cmd, "%s", err.msg);
		else if (r && drawing)
			rc = cli_view_print(&c.view, r, c.format, NULL);
		else if (r)
			rc = print_result(r, v->name, strcmp(c.format, "json") == 0);
		json_decref(r);
		json_decref(args);
		query_close(s);
	}
out:
	free(vargv);
	return rc;
}

int cli_view_catalog(const char *cmd, const char *path, const char *graph, const cli_view_options *o,
                     const char *format)
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
			rc = cli_view_print(o, r, format, NULL);
	}
	json_decref(r);
	json_decref(args);
	query_close(s);
	return rc;
}

/* ---- facet overlay ---------------------------------------------------------------------- */

static char *read_stdin(size_t *len)
{
	char *text = NULL;
	FILE *mem = open_memstream(&text, len);
	char buf[8192];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, stdin)) > 0)
		fwrite(buf, 1, got, mem);
	fclose(mem);
	return text;
}

int cli_overlay(int argc, char **argv)
{
	if (cli_wants_help(argc, argv) || argc < 2) {
		cli_help(argc < 2 ? stderr : stdout, "overlay", NULL);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	const char *sub = argv[1];
	bool record = strcmp(sub, "record") == 0;
	if (!record && strcmp(sub, "list") != 0) {
		cli_error("overlay", "unknown subcommand '%s' (record, list)", sub);
		return EXIT_USAGE;
	}
	common c = {0};
	if (!parse_common("overlay", overlay_table, argc - 1, argv + 1, &c))
		return EXIT_USAGE;
	if (c.n_pos) {
		cli_error("overlay", "unexpected argument '%s' (records come on stdin)", c.pos[0]);
		return EXIT_USAGE;
	}
	query_session *s = open_session("overlay", &c, record);
	if (!s)
		return EXIT_INPUT;
	facet_error err = {0};
	json_t *r = NULL;
	int rc = EXIT_INPUT;
	if (record) {
		size_t len = 0;
		char *text = read_stdin(&len);
		json_t *records = overlay_parse_lines(text ? text : "", len, &err);
		free(text);
		if (!records) {
			cli_error("overlay record", "stdin %s", err.msg);
			goto out;
		}
		json_t *args = json_pack("{s:o}", "records", records);
		if (c.graph)
			json_object_set_new(args, "graph", json_string(c.graph));
		r = query_call(s, "record_edges", args, &err);
		json_decref(args);
		if (!r) {
			cli_error("overlay record", "%s", err.msg);
			goto out;
		}
		json_decref(r);
		args = c.overlay ? json_pack("{s:s}", "path", c.overlay) : json_object();
		if (c.graph)
			json_object_set_new(args, "graph", json_string(c.graph));
		r = query_call(s, "save_overlay", args, &err);
		json_decref(args);
		if (!r) {
			cli_error("overlay record", "%s", err.msg);
			goto out;
		}
	} else {
		json_t *args = c.graph ? json_pack("{s:s}", "graph", c.graph) : NULL;
		r = query_call(s, "list_overlay", args, &err);
		json_decref(args);
		if (!r) {
			cli_error("overlay list", "%s", err.msg);
			goto out;
		}
	}
	rc = print_result(r, sub, strcmp(c.format, "json") == 0);
	json_decref(r);
out:
	query_close(s);
	return rc;
}
