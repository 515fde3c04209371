/* text.c — query answers as text (text.h). */
#include "query/text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void render(FILE *out, json_t *v, int indent);

#define WRAP 100                /* columns a list of names wraps at */

static void print_scalar(FILE *out, json_t *v)
{
	if (json_is_string(v))
		fputs(json_string_value(v), out);
	else if (json_is_null(v))
		fputs("-", out);
	else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		fputs(s ? s : "?", out);
		free(s);
	}
}

/* A function's linked name beside the name people read ("symbol",
 * "caller_symbol"): JSON keeps it, text shows the demangled name only. */
static bool symbol_key(const char *k)
{
	size_t n = strlen(k);
	return strcmp(k, "symbol") == 0 || (n > 7 && strcmp(k + n - 7, "_symbol") == 0);
}

static bool is_scalar(json_t *v) { return !json_is_object(v) && !json_is_array(v); }

static void render_value(FILE *out, json_t *v, int indent);

/* A site in one line, "file:line:col [site N, kind in caller]", then what
 * else the answer says about it (targets, class, dispatch...). */
static bool print_site_line(FILE *out, json_t *s, int indent)
{
	if (!json_is_object(s) || !json_object_get(s, "call_type") || !json_object_get(s, "kind"))
		return false;
	json_t *file = json_object_get(s, "file");
	fprintf(out, "%s:%lld:%lld [site %lld, %s%s%s]", json_is_string(file) ? json_string_value(file) : "?",
	       json_integer_value(json_object_get(s, "line")), json_integer_value(json_object_get(s, "column")),
	       json_integer_value(json_object_get(s, "id")), json_string_value(json_object_get(s, "kind")),
	       json_object_get(s, "caller") ? " in " : "",
	       json_object_get(s, "caller") ? json_string_value(json_object_get(s, "caller")) : "");
	bool first = true;
	static const char *const plain[] = {"id", "caller", "kind", "file", "line", "column", "call_type", "inlined_at", NULL};
	const char *k;
	json_t *x;
	json_object_foreach(s, k, x) {
		bool skip = false;
		for (size_t i = 0; plain[i]; i++)
			skip = skip || strcmp(k, plain[i]) == 0;
		skip = skip || symbol_key(k);
		if (skip)
			continue;
		if (first) {
			fputc('\n', out);
			first = false;
		}
		fprintf(out, "%*s%s: ", indent + 2, "", k);
		if (is_scalar(x) || json_is_array(x))
			render_value(out, x, indent + 2);
		else {
			fputc('\n', out);
			render(out, x, indent + 4);
		}
	}
	if (first)
		fputc('\n', out);
	return true;
}

/* A function in one line: "name (file:line)". */
static bool print_fn_line(FILE *out, json_t *f)
{
	if (!json_is_object(f) || !json_object_get(f, "name") || !json_object_get(f, "linkage"))
		return false;
	json_t *file = json_object_get(f, "file");
	fprintf(out, "%s", json_string_value(json_object_get(f, "name")));
	if (json_is_string(file))
		fprintf(out, " (%s:%lld)", json_string_value(file), json_integer_value(json_object_get(f, "line")));
	else if (!json_is_true(json_object_get(f, "defined")))
		fprintf(out, " (declared)");
	fputc('\n', out);
	return true;
}

static bool all_scalar_object(json_t *o)
{
	const char *k;
	json_t *x;
	json_object_foreach(o, k, x) if (!is_scalar(x)) return false;
	return true;
}

static void render_value(FILE *out, json_t *v, int indent)
{
	if (is_scalar(v)) {
		print_scalar(out, v);
		fputc('\n', out);
	} else if (json_is_array(v)) {
		size_t n = json_array_size(v);
		bool all_scalar = true;
		for (size_t i = 0; i < n; i++)
			all_scalar = all_scalar && is_scalar(json_array_get(v, i));
		if (all_scalar) {
			/* wrapped at WRAP columns, continued under the first item */
			size_t col = (size_t)indent + 12;
			for (size_t i = 0; i < n; i++) {
				char *item = is_scalar(json_array_get(v, i)) && json_is_string(json_array_get(v, i))
				                     ? NULL
				                     : json_dumps(json_array_get(v, i), JSON_COMPACT | JSON_ENCODE_ANY);
				const char *txt = item ? item : json_string_value(json_array_get(v, i));
				size_t w = strlen(txt ? txt : "") + 2;
				if (i && col + w > WRAP) {
					fprintf(out, ",\n%*s", indent + 4, "");
					col = (size_t)indent + 4;
				} else if (i) {
					fputs(", ", out);
				}
				fputs(txt ? txt : "-", out);
				col += w;
				free(item);
			}
			if (n == 0)
				fputs("(none)", out);
			fputc('\n', out);
			return;
		}
		fputc('\n', out);
		for (size_t i = 0; i < n; i++) {
			json_t *e = json_array_get(v, i);
			fprintf(out, "%*s- ", indent + 2, "");
			if (print_fn_line(out, e) || print_site_line(out, e, indent + 2))
				continue;
			if (is_scalar(e)) {
				print_scalar(out, e);
				fputc('\n', out);
			} else if (json_is_object(e) && all_scalar_object(e)) {
				const char *k;
				json_t *x;
				int first = 1;
				json_object_foreach(e, k, x) {
					if (symbol_key(k))
						continue;
					fprintf(out, "%s%s=", first ? "" : " ", k);
					print_scalar(out, x);
					first = 0;
				}
				fputc('\n', out);
			} else {
				fputc('\n', out);
				render(out, e, indent + 4);
			}
		}
	} else {
		if (print_fn_line(out, v) || print_site_line(out, v, indent))
			return;
		fputc('\n', out);
		render(out, v, indent + 2);
	}
}

/* A page (query.h) as one line people can act on. */
static bool print_page(FILE *out, const char *key, json_t *p)
{
	if (strcmp(key, "page") != 0 || !json_is_object(p) || !json_object_get(p, "total"))
		return false;
	long long total = json_integer_value(json_object_get(p, "total"));
	long long off = json_integer_value(json_object_get(p, "offset"));
	long long got = json_integer_value(json_object_get(p, "returned"));
	const char *list = json_string_value(json_object_get(p, "list"));
	if (got == total)
		fprintf(out, "all %lld %s\n", total, list ? list : "");
	else if (got == 0)
		fprintf(out, "none of %lld %s shown (offset %lld)\n", total, list ? list : "", off);
	else
		fprintf(out, "%lld-%lld of %lld %s%s\n", off + 1, off + got, total, list ? list : "",
		        off + got < total ? " (--offset and --limit show more)" : "");
	return true;
}

static void render(FILE *out, json_t *v, int indent)
{
	const char *k;
	json_t *x;
	json_object_foreach(v, k, x) {
		if (symbol_key(k))
			continue;
		fprintf(out, "%*s%s: ", indent, "", k);
		if (!print_page(out, k, x))
			render_value(out, x, indent);
	}
}

/* reach, the most read answer, as a path people can follow. */
void query_print_reach(FILE *out, json_t *r)
{
	json_t *u = json_object_get(r, "uncertainty");
	fprintf(out, "graph %s: ", json_string_value(json_object_get(r, "graph")));
	if (!json_is_true(json_object_get(r, "reachable"))) {
		fprintf(out, "no path from %s to %s\n", json_string_value(json_object_get(json_object_get(r, "from"), "name")),
		       json_string_value(json_object_get(json_object_get(r, "to"), "name")));
	} else {
		json_t *proof = json_object_get(r, "proof");
		const char *label = json_string_value(json_object_get(proof, "label"));
		fprintf(out, "path of %lld calls, %s", json_integer_value(json_object_get(r, "length")), label ? label : "?");
		if (label && strcmp(label, "agent") == 0)
			fputs(" (NOT PROVEN: uses agent edges)", out);
		else if (label && strcmp(label, "premised") == 0) {
			fputs(" (NOT PROVEN: rests on", out);
			size_t k;
			json_t *p;
			json_array_foreach(json_object_get(proof, "premises"), k, p) {
				fprintf(out, "%s %s", k ? "," : "", json_string_value(json_object_get(p, "rule")));
				if (json_is_string(json_object_get(p, "premise")))
					fprintf(out, " (%s", json_string_value(json_object_get(p, "premise")));
				if (json_is_string(json_object_get(p, "premise")) && json_is_string(json_object_get(p, "collapsed")))
					fprintf(out, " %s", json_string_value(json_object_get(p, "collapsed")));
				if (json_is_string(json_object_get(p, "premise")))
					fputc(')', out);
				fprintf(out, " at site %lld", json_integer_value(json_object_get(p, "site")));
			}
			fputc(')', out);
		}
		fputc('\n', out);
		size_t i;
		json_t *st;
		json_array_foreach(json_object_get(r, "steps"), i, st) {
			json_t *sp = json_object_get(st, "proof");
			fprintf(out, "  %s -> %s [%s", json_string_value(json_object_get(st, "caller")),
			       json_string_value(json_object_get(st, "callee")), json_string_value(json_object_get(sp, "kind")));
			if (json_is_string(json_object_get(sp, "rule")))
				fprintf(out, " %s", json_string_value(json_object_get(sp, "rule")));
			if (json_is_string(json_object_get(sp, "premise")))
				fprintf(out, ", premise %s", json_string_value(json_object_get(sp, "premise")));
			json_t *held = json_object_get(sp, "collapsed");
			if (json_is_object(held))
				fprintf(out, ", through collapsed %s (%lld functions)",
				        json_string_value(json_object_get(held, "object")),
				        json_integer_value(json_object_get(held, "width")));
			fputc(']', out);
			if (json_is_true(json_object_get(st, "agent"))) {
				json_t *e = json_object_get(st, "overlay_edge");
				fprintf(out, " (agent edge, confidence %s, provenance:",
				       json_string_value(json_object_get(e, "confidence")));
				size_t k;
				json_t *p;
				json_array_foreach(json_object_get(e, "provenance"), k, p) fprintf(out, " \"%s\"", json_string_value(p));
				fputc(')', out);
			}
			fprintf(out, " at ");
			print_site_line(out, json_object_get(st, "site"), 2);
		}
	}
	fprintf(out, "uncertainty: ");
	render_value(out, u, 0);
}


void query_print_text(FILE *out, json_t *answer)
{
	render(out, answer, 0);
}
