/* print.c — see print.h. The text forms are for people (aligned columns,
 * the lesson's dashes and arrows); the JSON forms are for scripts. */
#include "oo/print.h"
#include "oo/oo.h"
#include "util/jsonw.h"
#include "util/xalloc.h"

#include <string.h>

/* Display width of UTF-8 text: one column per code point. */
static size_t width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

void oo_print_table(FILE *out, const oo_table *t)
{
	size_t *w = xcalloc((size_t)t->ncols + 1, sizeof *w);
	for (int c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (int r = 0; r < t->nrows; r++) {
			size_t x = width(t->rows[r][c]);
			if (x > w[c])
				w[c] = x;
		}
	}
	if (t->title && *t->title)
		fprintf(out, "%s\n", t->title);
	for (int r = -1; r < t->nrows; r++) {
		const char *const *cells = r < 0 ? t->head : t->rows[r];
		int last = t->ncols - 1;
		while (last > 0 && !*cells[last])
			last--;
		for (int c = 0; c <= last; c++) {
			fputs(cells[c], out);
			if (c < last)
				fprintf(out, "%*s", (int)(w[c] - width(cells[c]) + 2), "");
		}
		fputc('\n', out);
	}
	if (t->note)
		fprintf(out, "%s\n", t->note);
	free(w);
}

void oo_print_table_json(FILE *out, const oo_table *t)
{
	fputs("{\"title\": ", out);
	jsonw_string(out, t->title ? t->title : "");
	fputs(", \"columns\": [", out);
	for (int c = 0; c < t->ncols; c++) {
		fputs(c ? ", " : "", out);
		jsonw_string(out, t->head[c]);
	}
	fputs("], \"rows\": [", out);
	for (int r = 0; r < t->nrows; r++) {
		fputs(r ? ", [" : "[", out);
		for (int c = 0; c < t->ncols; c++) {
			fputs(c ? ", " : "", out);
			jsonw_string(out, t->rows[r][c]);
		}
		fputc(']', out);
	}
	fputs("]}", out);
}

/* Targets of a site in name order. */
static void names_json(FILE *out, const oo_graph *g, int site)
{
	const oo_program *p = g->p;
	int *sorted = xmalloc(sizeof(int) * ((size_t)oo_graph_count(g, site) + 1));
	int n = oo_graph_sorted(g, site, sorted);
	fputc('[', out);
	for (int i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		jsonw_string(out, p->bodies[sorted[i]].name);
	}
	fputc(']', out);
	free(sorted);
}

void oo_print_graph_json(FILE *out, const oo_graph *g, const oo_table *trace)
{
	const oo_program *p = g->p;
	fputs("{\"algo\": ", out);
	jsonw_string(out, oo_algo_name(g->algo));
	fputs(", \"reachable\": [", out);
	int first = 1;
	for (int b = 0; b < p->nbodies; b++)
		if (g->reach[b]) {
			fputs(first ? "" : ", ", out);
			jsonw_string(out, p->bodies[b].name);
			first = 0;
		}
	fputs("], \"sites\": [", out);
	for (int c = 0; c < p->nsites; c++) {
		fputs(c ? ", {\"label\": " : "{\"label\": ", out);
		jsonw_string(out, p->sites[c].label);
		fputs(", \"body\": ", out);
		jsonw_string(out, p->bodies[p->sites[c].body].name);
		fputs(", \"targets\": ", out);
		names_json(out, g, c);
		fputc('}', out);
	}
	fprintf(out, "], \"edges\": %ld, \"file\": ", g->edges);
	jsonw_string(out, p->file);
	if (g->rounds)
		fprintf(out, ", \"rounds\": %d", g->rounds);
	if (trace) {
		fputs(", \"trace\": ", out);
		oo_print_table_json(out, trace);
	}
	fputs("}\n", out);
}

void oo_print_graph(FILE *out, const oo_graph *g)
{
	const oo_program *p = g->p;
	static const char *const head[] = {"site", "body", "targets"};
	oo_table *t = oo_table_new("", 3, head);
	t->title = arena_printf(&t->a, "%s: %ld edges, %d reachable bodies (%s)", oo_algo_name(g->algo), g->edges,
	                        oo_graph_nreach(g), p->file);
	for (int c = 0; c < p->nsites; c++) {
		const oo_site *s = &p->sites[c];
		int n;
		const int *items = oo_graph_targets(g, c, &n);
		const char *targets = !g->reach[s->body] ? "(body unreachable)"
		                      : n ? oo_fmt_bodies(&t->a, p, items, n)
		                          : "(none)";
		const char *row[] = {s->label, p->bodies[s->body].name, targets};
		oo_table_add(t, row);
	}
	oo_print_table(out, t);
	fputs("reachable:", out);
	int first = 1;
	for (int b = 0; b < p->nbodies; b++)
		if (g->reach[b]) {
			fprintf(out, "%s %s", first ? "" : ",", p->bodies[b].name);
			first = 0;
		}
	fputc('\n', out);
	oo_table_free(t);
}
