/* render.c — a graph view as DOT, GraphML or SVG (render.h). The view is
 * the "graph" verb's JSON; nothing here reads the catalog. */
#include "report/render.h"

#include <stdlib.h>
#include <string.h>

const report_edge_style report_edge_styles[] = {
	{"direct", "#222222", "solid", "", "direct call: the IR names the callee"},
	{"premise-free", "#1f5fbf", "solid", "", "premise-free: points-to edge kept, or Add-Witness (initializer)"},
	{"premised", "#d2691e", "dashed", "6,4", "premised: Add-Store (pi_bind) or an oracle answer"},
	{"agent", "#c0392b", "dotted", "2,3", "agent: an overlay edge (confidence as recorded)"},
	{"call", "#888888", "solid", "", "the call at a focus site"},
	{NULL, NULL, NULL, NULL, NULL},
};

const report_edge_style *report_edge_style_of(const char *kind)
{
	for (const report_edge_style *s = report_edge_styles; kind && s->kind; s++)
		if (strcmp(s->kind, kind) == 0)
			return s;
	return &report_edge_styles[2];   /* unknown: drawn as premised, the cautious reading */
}

void report_xml_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc('?', out);   /* XML 1.0 has no other control characters */
			else
				fputc(*s, out);
		}
	}
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* A DOT quoted id or label: backslash and quote escaped, newlines as \n. */
static void dot_q(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* A node's label: the function and where it is defined; a site and where. */
static void node_label(json_t *n, char *buf, size_t size)
{
	if (strcmp(str(n, "kind"), "site") == 0)
		snprintf(buf, size, "site %lld (%s)\n%s:%lld:%lld", json_integer_value(json_object_get(n, "site")),
		         str(n, "kind_of_call"), str(n, "file"), json_integer_value(json_object_get(n, "line")),
		         json_integer_value(json_object_get(n, "column")));
	else if (*str(n, "file"))
		snprintf(buf, size, "%s\n%s:%lld", str(n, "name"), str(n, "file"),
		         json_integer_value(json_object_get(n, "line")));
	else
		snprintf(buf, size, "%s\n(%s)", str(n, "name"),
		         json_is_true(json_object_get(n, "defined")) ? "no debug location" : "external");
}

/* An edge's label: the rule and premise when premised, the confidence of an agent edge. */
static void edge_label(json_t *e, char *buf, size_t size)
{
	json_t *p = json_object_get(e, "proof");
	const char *kind = str(p, "kind");
	buf[0] = 0;
	if (strcmp(kind, "premised") == 0)
		snprintf(buf, size, "%s%s%s", *str(p, "rule") ? str(p, "rule") : "no warrant", *str(p, "premise") ? ", " : "",
		         str(p, "premise"));
	else if (strcmp(kind, "agent") == 0)
		snprintf(buf, size, "agent, %s", str(p, "confidence"));
	else if (strcmp(kind, "premise-free") == 0 && strcmp(str(p, "rule"), "Add-Witness") == 0)
		snprintf(buf, size, "Add-Witness");
	long long n = json_integer_value(json_object_get(e, "sites"));
	if (n > 1) {
		size_t used = strlen(buf);
		snprintf(buf + used, size - used, "%s%lld sites", used ? ", " : "", n);
	}
}

/* ---- dot --------------------------------------------------------------------------------- */

static void dot_node(FILE *out, json_t *n, const char *indent)
{
	char label[1024];
	node_label(n, label, sizeof label);
	fprintf(out, "%s", indent);
	dot_q(out, str(n, "id"));
	fputs(" [label=", out);
	dot_q(out, label);
	const char *role = str(n, "role");
	if (strcmp(str(n, "kind"), "site") == 0)
		fputs(", shape=ellipse, style=filled, fillcolor=\"#fff3c4\"", out);
	else if (strcmp(role, "root") == 0 || strcmp(role, "caller") == 0)
		fputs(", style=\"bold,filled\", fillcolor=\"#dde8f7\"", out);
	else if (!json_is_true(json_object_get(n, "defined")))
		fputs(", style=dashed, fontcolor=\"#666666\"", out);
	fputs("];\n", out);
}

static void dot_legend(FILE *out)
{
	fputs("  subgraph cluster_legend {\n    label=\"legend: how each edge is known\"; style=dashed; "
	      "fontname=\"monospace\"; fontsize=10;\n",
	      out);
	int i = 0;
	for (const report_edge_style *s = report_edge_styles; s->kind; s++, i++) {
		fprintf(out, "    \"legend_%d_from\" [shape=point, width=0.05, label=\"\"];\n", i);
		fprintf(out, "    \"legend_%d\" [shape=plaintext, fontsize=10, label=", i);
		dot_q(out, s->meaning);
		fputs("];\n", out);
		fprintf(out, "    \"legend_%d_from\" -> \"legend_%d\" [style=%s, color=\"%s\", proof=\"%s\"];\n", i, i,
		        s->dot_style, s->color, s->kind);
	}
	fputs("  }\n", out);
}

void report_view_dot(FILE *out, json_t *view, const report_view_options *o)
{
	fputs("digraph \"facet\" {\n  graph [rankdir=LR, fontname=\"monospace\", fontsize=11", out);
	if (o->title) {
		fputs(", labelloc=t, label=", out);
		dot_q(out, o->title);
	}
	fputs("];\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", "
	      "fontsize=9];\n",
	      out);
	json_t *nodes = json_object_get(view, "nodes");
	size_t i;
	json_t *n;
	if (o->cluster_file) {
		/* one cluster per file, in the order files first appear */
		json_t *files = json_array();
		json_array_foreach(nodes, i, n) {
			bool seen = false;
			size_t k;
			json_t *f;
			json_array_foreach(files, k, f) seen = seen || strcmp(json_string_value(f), str(n, "file")) == 0;
			if (!seen)
				json_array_append_new(files, json_string(str(n, "file")));
		}
		size_t k;
		json_t *f;
		json_array_foreach(files, k, f) {
			const char *file = json_string_value(f);
			if (*file) {
				fprintf(out, "  subgraph \"cluster_file_%zu\" {\n    label=", k);
				dot_q(out, file);
				fputs("; style=rounded; color=\"#999999\"; fontname=\"monospace\";\n", out);
			}
			json_array_foreach(nodes, i, n) if (strcmp(str(n, "file"), file) == 0) dot_node(out, n, *file ? "    " : "  ");
			if (*file)
				fputs("  }\n", out);
		}
		json_decref(files);
	} else {
		json_array_foreach(nodes, i, n) dot_node(out, n, "  ");
	}
	json_t *e;
	json_array_foreach(json_object_get(view, "edges"), i, e) {
		const char *kind = str(json_object_get(e, "proof"), "kind");
		const report_edge_style *s = report_edge_style_of(kind);
		char label[512];
		edge_label(e, label, sizeof label);
		fputs("  ", out);
		dot_q(out, str(e, "from"));
		fputs(" -> ", out);
		dot_q(out, str(e, "to"));
		fprintf(out, " [style=%s, color=\"%s\", proof=\"%s\", site=%lld", s->dot_style, s->color, s->kind,
		        json_integer_value(json_object_get(e, "site")));
		if (*label) {
			fputs(", label=", out);
			dot_q(out, label);
		}
		fputs("];\n", out);
	}
	if (json_is_true(json_object_get(view, "truncated")))
		fprintf(out, "  \"truncated\" [shape=note, label=\"cut at %lld functions (max_nodes)\"];\n",
		        json_integer_value(json_object_get(view, "max_nodes")));
	if (o->legend)
		dot_legend(out);
	fputs("}\n", out);
}

/* ---- graphml ------------------------------------------------------------------------------ */

static void gml_data(FILE *out, const char *key, const char *value)
{
	fprintf(out, "      <data key=\"%s\">", key);
	report_xml_text(out, value);
	fputs("</data>\n", out);
}

void report_view_graphml(FILE *out, json_t *view, const report_view_options *o)
{
	static const char *const keys[][4] = {
		{"label", "node", "label", "string"}, {"kind", "node", "kind", "string"},
		{"file", "node", "file", "string"},   {"line", "node", "line", "int"},
		{"role", "node", "role", "string"},   {"defined", "node", "defined", "boolean"},
		{"cluster", "node", "cluster", "string"}, {"proof", "edge", "proof", "string"},
		{"rule", "edge", "rule", "string"},   {"premise", "edge", "premise", "string"},
		{"site", "edge", "site", "int"},      {"sites", "edge", "sites", "int"},
		{"color", "edge", "color", "string"},
	};
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n",
	      out);
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
		fprintf(out, "  <key id=\"%s\" for=\"%s\" attr.name=\"%s\" attr.type=\"%s\"/>\n", keys[k][0], keys[k][1],
		        keys[k][2], keys[k][3]);
	fputs("  <graph id=\"facet\" edgedefault=\"directed\">\n", out);
	if (o->title) {
		fputs("    <desc>", out);
		report_xml_text(out, o->title);
		fputs("</desc>\n", out);
	}
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(view, "nodes"), i, n) {
		fputs("    <node id=\"", out);
		report_xml_text(out, str(n, "id"));
		fputs("\">\n", out);
		gml_data(out, "label", strcmp(str(n, "kind"), "site") == 0 ? str(n, "id") : str(n, "name"));
		gml_data(out, "kind", str(n, "kind"));
		gml_data(out, "file", str(n, "file"));
		fprintf(out, "      <data key=\"line\">%lld</data>\n", json_integer_value(json_object_get(n, "line")));
		gml_data(out, "role", str(n, "role"));
		if (strcmp(str(n, "kind"), "function") == 0)
			gml_data(out, "defined", json_is_true(json_object_get(n, "defined")) ? "true" : "false");
		if (o->cluster_file)
			gml_data(out, "cluster", str(n, "file"));
		fputs("    </node>\n", out);
	}
	json_t *e;
	json_array_foreach(json_object_get(view, "edges"), i, e) {
		json_t *p = json_object_get(e, "proof");
		fprintf(out, "    <edge id=\"e%zu\" source=\"", i);
		report_xml_text(out, str(e, "from"));
		fputs("\" target=\"", out);
		report_xml_text(out, str(e, "to"));
		fputs("\">\n", out);
		gml_data(out, "proof", str(p, "kind"));
		if (*str(p, "rule"))
			gml_data(out, "rule", str(p, "rule"));
		if (*str(p, "premise"))
			gml_data(out, "premise", str(p, "premise"));
		fprintf(out, "      <data key=\"site\">%lld</data>\n", json_integer_value(json_object_get(e, "site")));
		fprintf(out, "      <data key=\"sites\">%lld</data>\n", json_integer_value(json_object_get(e, "sites")));
		gml_data(out, "color", report_edge_style_of(str(p, "kind"))->color);
		fputs("    </edge>\n", out);
	}
	fputs("  </graph>\n</graphml>\n", out);
}

void report_view_draw(FILE *out, json_t *view, const char *format, const report_view_options *o)
{
	if (strcmp(format, "dot") == 0)
		report_view_dot(out, view, o);
	else if (strcmp(format, "graphml") == 0)
		report_view_graphml(out, view, o);
	else
		report_view_svg(out, view, o);
}
