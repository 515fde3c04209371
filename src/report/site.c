/* site.c — one indirect site's page: the query layer's explain answer (its
 * dispatch, each target with its proof and warrants, what other graphs give
 * it) and its graph view drawn as SVG. */
#include "report/internal.h"

#include <string.h>

#include "query/query.h"

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static void warrant_rows(FILE *out, json_t *warrants)
{
	size_t i;
	json_t *w;
	json_array_foreach(warrants, i, w) {
		fputs("<div class=\"warrant mono\">", out);
		rp_text(out, str(w, "fact"));
		fputc(' ', out);
		rp_text(out, str(w, "outcome"));
		fputs(" &middot; <b>", out);
		rp_text(out, str(w, "rule"));
		fputs("</b>", out);
		if (*str(w, "premise") && strcmp(str(w, "premise"), "true") != 0) {
			fputs(" &middot; premise ", out);
			rp_text(out, str(w, "premise"));
		}
		if (*str(w, "evidence")) {
			fputs(" &middot; ", out);
			rp_text(out, str(w, "evidence"));
		}
		fputs("</div>", out);
	}
}

static void target_table(FILE *out, json_t *targets, bool in_graph)
{
	fprintf(out, "<table class=\"%s\"><tr><th>function</th>%s<th>graphs</th><th>warrants</th></tr>\n",
	        in_graph ? "targets" : "dropped", in_graph ? "<th>proof</th>" : "");
	size_t i;
	json_t *t;
	json_array_foreach(targets, i, t) {
		fputs("<tr><td class=\"mono\">", out);
		rp_text(out, str(t, "name"));
		fputs("</td>", out);
		if (in_graph) {
			json_t *p = json_object_get(t, "proof");
			fprintf(out, "<td class=\"kind-%s\">", str(p, "kind"));
			rp_text(out, str(p, "kind"));
			if (*str(p, "rule")) {
				fputs(" (", out);
				rp_text(out, str(p, "rule"));
				if (*str(p, "premise")) {
					fputs(", ", out);
					rp_text(out, str(p, "premise"));
				}
				fputc(')', out);
			}
			json_t *held = json_object_get(p, "collapsed");
			if (json_is_object(held)) {   /* the collapsed object the target may come through */
				fputs("<br><span class=\"note\">through collapsed <a href=\"index.html#collapsed\" "
				      "class=\"mono\">", out);
				rp_text(out, str(held, "object"));
				fprintf(out, "</a> (%lld functions)</span>",
				        (long long)json_integer_value(json_object_get(held, "width")));
			}
			fputs("</td>", out);
		}
		fputs("<td class=\"mono\">", out);
		size_t k;
		json_t *g;
		json_array_foreach(json_object_get(t, "in_graphs"), k, g) {
			fputs(k ? " " : "", out);
			rp_text(out, json_string_value(g));
		}
		fputs("</td><td>", out);
		warrant_rows(out, json_object_get(t, "warrants"));
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void dispatch_block(FILE *out, json_t *d)
{
	fputs("<h2>Dispatched field</h2>\n", out);
	if (!json_is_object(d)) {
		fputs("<p class=\"note\">No dispatch record (a direct or asm site).</p>\n", out);
		return;
	}
	fputs("<table>", out);
	static const char *const keys[] = {"status", "step", "field", "field_name", "signature", "base_type", "reason",
	                                   "callee_variable", NULL};
	for (size_t i = 0; keys[i]; i++) {
		if (!*str(d, keys[i]))
			continue;
		fprintf(out, "<tr><th>%s</th><td class=\"mono\">", keys[i]);
		rp_text(out, str(d, keys[i]));
		fputs("</td></tr>", out);
	}
	fprintf(out, "<tr><th>R0 targets</th><td>%lld</td></tr><tr><th>refuted</th><td>%lld</td></tr>"
	        "<tr><th>abstains (&tau;)</th><td>%s</td></tr></table>\n",
	        json_integer_value(json_object_get(d, "n_r0")), json_integer_value(json_object_get(d, "n_sym")),
	        json_is_true(json_object_get(d, "abstains")) ? "yes: the refutations kept, no addition and no residual removal" : "no");
}

bool rp_site_page(query_session *qs, const char *graph, const char *program, unsigned site, FILE *out,
                  facet_error *err)
{
	json_t *args = json_pack("{s:I, s:s}", "site", (json_int_t)site, "graph", graph);
	json_t *ex = query_call(qs, "explain", args, err);
	json_t *view = ex ? query_call(qs, "graph", args, err) : NULL;
	json_decref(args);
	if (!ex || !view) {
		json_decref(ex);
		return false;
	}
	json_t *s = json_object_get(ex, "site");
	char title[128];
	snprintf(title, sizeof title, "site %u", site);
	rp_page_start(out, title, program, false);
	fprintf(out, "<p class=\"mono\">%s call in <b>", str(s, "kind"));
	rp_text(out, str(s, "caller"));
	fputs("</b> at ", out);
	rp_text(out, str(s, "file"));
	fprintf(out, ":%lld:%lld</p>\n", json_integer_value(json_object_get(s, "line")),
	        json_integer_value(json_object_get(s, "column")));
	dispatch_block(out, json_object_get(s, "dispatch"));
	json_t *targets = json_object_get(s, "targets");
	fprintf(out, "<h2 id=\"targets\">Targets in %s (%zu)</h2>\n<p class=\"note\">Each target with how it is known "
	        "(proof) and every decision the refinement recorded for it (warrants: rule, premise, evidence).</p>\n",
	        graph, json_array_size(targets));
	target_table(out, targets, true);
	json_t *dropped = json_object_get(s, "not_in_graph");
	if (json_array_size(dropped)) {
		fprintf(out, "<h2 id=\"dropped\">Not in %s (%zu)</h2>\n<p class=\"note\">Functions other graphs give this "
		        "site, or the refinement decided on, that %s leaves out: where R&plusmn; may lose a true edge if "
		        "the premise of the refutation fails.</p>\n", graph, json_array_size(dropped), graph);
		target_table(out, dropped, false);
	}
	fputs("<h2 id=\"view\">Neighbourhood</h2>\n<div class=\"fig\">", out);
	report_view_options vo = {.legend = true};
	report_view_svg(out, view, &vo);
	fputs("</div>\n", out);
	json_t *qsn = json_object_get(s, "questions");
	if (json_array_size(qsn))
		fprintf(out, "<p class=\"note\">%zu residual question(s) were asked about this site.</p>\n",
		        json_array_size(qsn));
	rp_page_end(out, false);
	json_decref(ex);
	json_decref(view);
	return true;
}
