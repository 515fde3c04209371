/* svg.c — a graph view drawn as SVG without Graphviz (render.h): nodes in
 * columns by their distance from the view's root (or focus caller), edges
 * as curves styled by proof kind, a legend underneath. Views are small (the
 * "graph" verb stops at max_nodes), so the simple layout reads well. */
#include "report/render.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define COL_GAP 90
#define ROW_H 46
#define BOX_H 34
#define CHAR_W 7
#define MARGIN 16

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static size_t node_index(json_t *nodes, const char *id)
{
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) if (strcmp(str(n, "id"), id) == 0) return i;
	return (size_t)-1;
}

/* Two lines per node: name (or "site N") and where. */
static void lines_of(json_t *n, char *a, char *b, size_t size)
{
	if (strcmp(str(n, "kind"), "site") == 0) {
		snprintf(a, size, "site %lld (%s)", json_integer_value(json_object_get(n, "site")), str(n, "kind_of_call"));
		snprintf(b, size, "%s:%lld:%lld", str(n, "file"), json_integer_value(json_object_get(n, "line")),
		         json_integer_value(json_object_get(n, "column")));
	} else {
		snprintf(a, size, "%s", str(n, "name"));
		if (*str(n, "file"))
			snprintf(b, size, "%s:%lld", str(n, "file"), json_integer_value(json_object_get(n, "line")));
		else
			snprintf(b, size, "%s", json_is_true(json_object_get(n, "defined")) ? "" : "(external)");
	}
}

/* Layers: breadth-first over edges in both directions from the root or
 * focus nodes (else from every node without an incoming edge). */
static void layers(json_t *nodes, json_t *edges, int *layer)
{
	size_t nn = json_array_size(nodes), ne = json_array_size(edges);
	size_t *from = xmalloc((ne + 1) * sizeof *from), *to = xmalloc((ne + 1) * sizeof *to);
	size_t *queue = xmalloc((nn + 1) * sizeof *queue), head = 0, tail = 0;
	bool *has_in = xcalloc(nn + 1, sizeof *has_in);
	for (size_t i = 0; i < ne; i++) {
		from[i] = node_index(nodes, str(json_array_get(edges, i), "from"));
		to[i] = node_index(nodes, str(json_array_get(edges, i), "to"));
		if (to[i] < nn)
			has_in[to[i]] = true;
	}
	for (size_t i = 0; i < nn; i++) {
		const char *role = str(json_array_get(nodes, i), "role");
		layer[i] = -1;
		if (strcmp(role, "root") == 0 || strcmp(role, "caller") == 0) {
			layer[i] = 0;
			queue[tail++] = i;
		}
	}
	for (int round = 0; round < 2; round++) {
		while (head < tail) {
			size_t f = queue[head++];
			for (size_t e = 0; e < ne; e++) {
				size_t g = from[e] == f ? to[e] : to[e] == f ? from[e] : (size_t)-1;
				if (g < nn && layer[g] < 0) {
					layer[g] = layer[f] + 1;
					queue[tail++] = g;
				}
			}
		}
		for (size_t i = 0; i < nn && round == 0; i++)   /* what the roots do not reach */
			if (layer[i] < 0 && !has_in[i]) {
				layer[i] = 0;
				queue[tail++] = i;
			}
	}
	for (size_t i = 0; i < nn; i++)
		if (layer[i] < 0)
			layer[i] = 0;
	free(from);
	free(to);
	free(queue);
	free(has_in);
}

static void svg_text(FILE *out, int x, int y, const char *cls, const char *s)
{
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"%s\">", x, y, cls);
	report_xml_text(out, s);
	fputs("</text>", out);
}

void report_view_svg(FILE *out, json_t *view, const report_view_options *o)
{
	json_t *nodes = json_object_get(view, "nodes"), *edges = json_object_get(view, "edges");
	size_t nn = json_array_size(nodes);
	int *layer = xcalloc(nn + 1, sizeof *layer), *row = xcalloc(nn + 1, sizeof *row);
	int *x = xcalloc(nn + 1, sizeof *x), *w = xcalloc(nn + 1, sizeof *w);
	layers(nodes, edges, layer);
	bool mirror = strcmp(str(view, "direction"), "in") == 0;   /* callers to the left of their callee */
	int max_layer = 0;
	for (size_t i = 0; i < nn; i++)
		max_layer = layer[i] > max_layer ? layer[i] : max_layer;
	int *col_w = xcalloc((size_t)max_layer + 2, sizeof *col_w), *col_n = xcalloc((size_t)max_layer + 2, sizeof *col_n);
	char a[512], b[512];
	for (size_t i = 0; i < nn; i++) {
		if (mirror)
			layer[i] = max_layer - layer[i];
		lines_of(json_array_get(nodes, i), a, b, sizeof a);
		size_t chars = strlen(a) > strlen(b) ? strlen(a) : strlen(b);
		w[i] = (int)(chars > 60 ? 60 : chars) * CHAR_W + 16;
		col_w[layer[i]] = w[i] > col_w[layer[i]] ? w[i] : col_w[layer[i]];
		row[i] = col_n[layer[i]]++;
	}
	int width = MARGIN, rows = 0;
	int *col_x = xcalloc((size_t)max_layer + 2, sizeof *col_x);
	for (int l = 0; l <= max_layer; l++) {
		col_x[l] = width;
		width += col_w[l] + COL_GAP;
		rows = col_n[l] > rows ? col_n[l] : rows;
	}
	for (size_t i = 0; i < nn; i++)
		x[i] = col_x[layer[i]];
	int legend_h = o->legend ? 20 + 18 * 5 : 0, title_h = o->title ? 24 : 0;
	int height = title_h + MARGIN + rows * ROW_H + legend_h + MARGIN;
	width = width - COL_GAP + MARGIN < 360 ? 360 : width - COL_GAP + MARGIN;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"facet-view\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"11\">\n",
	        width, height, width, height);
	fputs("<style>.n{fill:#222}.w{fill:#666;font-size:10px}.el{fill:#444;font-size:9px}</style>\n<defs>", out);
	for (const report_edge_style *s = report_edge_styles; s->kind; s++)
		fprintf(out, "<marker id=\"arrow-%s\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
		        "markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"%s\"/></marker>",
		        s->kind, s->color);
	fputs("</defs>\n", out);
	if (o->title)
		svg_text(out, MARGIN, 18, "n", o->title);
	int top = title_h + MARGIN;
	size_t i;
	json_t *e;
	json_array_foreach(edges, i, e) {
		size_t f = node_index(nodes, str(e, "from")), t = node_index(nodes, str(e, "to"));
		if (f >= nn || t >= nn)
			continue;
		json_t *p = json_object_get(e, "proof");
		const report_edge_style *s = report_edge_style_of(str(p, "kind"));
		bool back = x[t] <= x[f];
		int x1 = back ? x[f] : x[f] + w[f], y1 = top + row[f] * ROW_H + BOX_H / 2;
		int x2 = back ? x[t] + w[t] : x[t], y2 = top + row[t] * ROW_H + BOX_H / 2;
		int bend = back ? -40 : 40;
		fprintf(out, "<path class=\"edge\" data-proof=\"%s\" d=\"M%d,%d C%d,%d %d,%d %d,%d\" fill=\"none\" "
		        "stroke=\"%s\" stroke-width=\"1.3\"%s%s%s marker-end=\"url(#arrow-%s)\"><title>",
		        s->kind, x1, y1, x1 + bend, y1, x2 - bend, y2, x2, y2, s->color, *s->svg_dash ? " stroke-dasharray=\"" : "",
		        s->svg_dash, *s->svg_dash ? "\"" : "", s->kind);
		report_xml_text(out, s->kind);
		if (*str(p, "rule")) {
			fputs(": ", out);
			report_xml_text(out, str(p, "rule"));
		}
		if (*str(p, "premise")) {
			fputs(", premise ", out);
			report_xml_text(out, str(p, "premise"));
		}
		if (*str(p, "evidence")) {
			fputs(" (", out);
			report_xml_text(out, str(p, "evidence"));
			fputc(')', out);
		}
		fputs("</title></path>\n", out);
		if (strcmp(s->kind, "premised") == 0 || strcmp(s->kind, "agent") == 0) {
			const char *lab = strcmp(s->kind, "agent") == 0 ? str(p, "confidence") : str(p, "rule");
			svg_text(out, (x1 + x2) / 2 - (int)strlen(lab) * 3, (y1 + y2) / 2 - 3, "el", lab);
			fputc('\n', out);
		}
	}
	json_t *n;
	json_array_foreach(nodes, i, n) {
		lines_of(n, a, b, sizeof a);
		int y = top + row[i] * ROW_H;
		bool site = strcmp(str(n, "kind"), "site") == 0;
		const char *role = str(n, "role");
		const char *fill = site ? "#fff3c4"
		                   : strcmp(role, "root") == 0 || strcmp(role, "caller") == 0 ? "#dde8f7"
		                   : json_is_true(json_object_get(n, "defined")) ? "#ffffff" : "#f2f2f2";
		fprintf(out, "<g class=\"node\" data-id=\"");
		report_xml_text(out, str(n, "id"));
		fprintf(out, "\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\" fill=\"%s\" stroke=\"#555\"%s/>",
		        x[i], y, w[i], BOX_H, site ? 14 : 3, fill,
		        json_is_true(json_object_get(n, "defined")) || site ? "" : " stroke-dasharray=\"3,2\"");
		svg_text(out, x[i] + 8, y + 14, "n", a);
		svg_text(out, x[i] + 8, y + 27, "w", b);
		fputs("</g>\n", out);
	}
	if (o->legend) {
		int y = top + rows * ROW_H + 14;
		svg_text(out, MARGIN, y, "n", "how each edge is known:");
		int k = 0;
		for (const report_edge_style *s = report_edge_styles; s->kind; s++, k++) {
			int ly = y + 16 + k * 18;
			fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\"%s%s%s/>",
			        MARGIN, ly - 4, MARGIN + 40, ly - 4, s->color, *s->svg_dash ? " stroke-dasharray=\"" : "",
			        s->svg_dash, *s->svg_dash ? "\"" : "");
			svg_text(out, MARGIN + 50, ly, "w", s->meaning);
			fputc('\n', out);
		}
	}
	fputs("</svg>\n", out);
	free(layer);
	free(row);
	free(x);
	free(w);
	free(col_w);
	free(col_n);
	free(col_x);
}
