/* collapsed.c — the index page's collapsed-objects section, from the
 * catalog's tables (catalog/collapsed.h). One row per member set (the
 * objects holding the same functions: on nginx 2,155 objects had 16),
 * widest first: how many functions, the objects with where each was
 * declared and what collapsed it, and links to the indirect sites whose
 * callee sets share the functions. */
#include "report/internal.h"

#include <string.h>

enum { OBJECTS_SHOWN = 8, SITES_SHOWN = 40 };   /* per set; the rest are counted */

static void place(FILE *out, const char *file, unsigned line)
{
	if (!file) {
		fputs("not recorded", out);
		return;
	}
	fputs("<span class=\"mono\">", out);
	rp_text(out, file);
	fprintf(out, ":%u</span>", line);
}

static void object_item(FILE *out, const catalog_collapsed_object *o)
{
	fputs("<li class=\"collapsed-object\"><span class=\"mono\">", out);
	rp_text(out, o->name);
	fputs("</span> (", out);
	rp_text(out, o->kind);
	fputs(", at ", out);
	place(out, o->file, o->line);
	fputs("): ", out);
	rp_text(out, o->cause);
	if (o->statement) {
		fputs(", <code>", out);
		rp_text(out, o->statement);
		fputs("</code>", out);
	}
	if (o->in_function) {
		fputs(" in <span class=\"mono\">", out);
		rp_text(out, o->in_function);
		fputs("</span>", out);
	}
	fputs(" at ", out);
	place(out, o->cause_file, o->cause_line);
	fputs("</li>", out);
}

/* The objects of set ms (cc->objects is widest first, then by id): the
 * first few, then how many more of each kind. */
static void objects_cell(FILE *out, const catalog_collapsed *cc, const catalog_collapsed_set *ms)
{
	static const char *const kinds[] = {"global", "stack", "heap", "library", "outside", "varargs", "function"};
	unsigned shown = 0, more[sizeof kinds / sizeof *kinds] = {0};
	fputs("<ul>", out);
	for (unsigned i = 0; i < cc->n; i++) {
		const catalog_collapsed_object *o = &cc->objects[i];
		if (o->set != ms)
			continue;
		if (shown++ < OBJECTS_SHOWN) {
			object_item(out, o);
			continue;
		}
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
			more[k] += strcmp(o->kind, kinds[k]) == 0;
	}
	fputs("</ul>", out);
	if (shown > OBJECTS_SHOWN) {
		fprintf(out, "and %u more:", shown - OBJECTS_SHOWN);
		for (size_t k = 0, first = 1; k < sizeof kinds / sizeof *kinds; k++)
			if (more[k]) {
				fprintf(out, "%s %u %s", first ? "" : ",", more[k], kinds[k]);
				first = 0;
			}
	}
}

static void set_row(FILE *out, const catalog_collapsed *cc, const catalog_collapsed_set *ms)
{
	fprintf(out, "<tr class=\"collapsed-set\"><td class=\"n\">%u</td><td class=\"n\">%u</td><td>", ms->width,
	        ms->n_objects);
	objects_cell(out, cc, ms);
	fputs("</td><td>", out);
	for (unsigned i = 0; i < ms->n_sites && i < SITES_SHOWN; i++)
		fprintf(out, "%s<a href=\"site-%u.html\">%u</a> (%u)", i ? ", " : "", ms->sites[i].site, ms->sites[i].site,
		        ms->sites[i].held);
	if (ms->n_sites > SITES_SHOWN)
		fprintf(out, " and %u more", ms->n_sites - SITES_SHOWN);
	if (!ms->n_sites)
		fputs("none", out);
	fputs("</td></tr>\n", out);
}

static int by_width(const void *a, const void *b)
{
	const catalog_collapsed_set *x = *(const catalog_collapsed_set *const *)a, *y = *(const catalog_collapsed_set *const *)b;
	if (x->width != y->width)
		return x->width > y->width ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

void rp_collapsed(FILE *out, const catalog_collapsed *cc)
{
	fputs("<h2 id=\"collapsed\">Collapsed objects</h2>\n<p class=\"note\">Objects the points-to analysis gave "
	      "one location for all their fields (a variable index, an offset outside them, memory of unknown "
	      "size), so every function stored anywhere in one reaches every call that reads it. Only objects "
	      "holding functions are listed, grouped by the functions they hold, widest first. An edge whose target "
	      "may come through one is <span class=\"kind-premised\">premised</span> (premise <code>collapsed</code>) "
	      "unless an initializer of the site's field names the target (docs/queries.md, Proof labels). Sites: "
	      "the indirect sites whose callee set shares functions with the objects, with how many.</p>\n",
	      out);
	if (!cc->n) {
		fputs("<p class=\"note\" id=\"collapsed-none\">No collapsed object holds a function.</p>\n", out);
		return;
	}
	const catalog_collapsed_set **sets = malloc((cc->n_sets + 1) * sizeof *sets);
	for (unsigned i = 0; i < cc->n_sets; i++)
		sets[i] = &cc->sets[i];
	qsort(sets, cc->n_sets, sizeof *sets, by_width);
	fputs("<table id=\"collapsed-table\"><tr><th>functions held</th><th>objects</th><th>the objects: where "
	      "declared or allocated, what collapsed them</th><th>indirect sites (functions held)</th></tr>\n",
	      out);
	for (unsigned i = 0; i < cc->n_sets; i++)
		set_row(out, cc, sets[i]);
	free(sets);
	fprintf(out, "</table>\n<p class=\"note\">%u collapsed objects hold functions, in %u groups.</p>\n", cc->n,
	        cc->n_sets);
}
