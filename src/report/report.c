/* report.c — facet report: the catalog as HTML pages (report.h). The
 * numbers come from the catalog's tables in a few aggregate statements; a
 * site page is the query layer's explain and graph answers (the same JSON
 * the CLI and MCP give), drawn. */
#include "report/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "catalog/catalog.h"
#include "cg/registry.h"
#include "query/query.h"
#include "util/atomic.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef struct rsite {
	unsigned id, width[CG_N_GRAPHS];
	char *caller, *file, *field, *field_name, *status;
	unsigned line, col, n_add_witness, n_add_store, n_prune, n_other;
} rsite;

typedef struct rctx {
	catalog *cat;
	query_session *qs;
	const char *graph, *dir, *program;
	int graph_id;
	rsite *sites;
	unsigned n_sites;
	facet_error *err;
	bool ok;                   /* false once a read of the catalog failed (err says why) */
} rctx;

/* The catalog's statements through catalog_prepare/catalog_step: a failed
 * read fails the report instead of drawing a page from part of the rows. */
static sqlite3_stmt *stmt(rctx *r, const char *sql)
{
	return catalog_prepare(r->cat, sql, r->err);
}

static bool step(rctx *r, sqlite3_stmt *st)
{
	return catalog_step(r->cat, st, &r->ok, r->err);
}

static char *col_dup(sqlite3_stmt *st, int c)
{
	const unsigned char *t = sqlite3_column_text(st, c);
	return t ? xstrdup((const char *)t) : NULL;
}

static bool html_kind(const unsigned char *head, size_t n)
{
	return n >= 15 && memcmp(head, "<!DOCTYPE html>", 15) == 0;
}

/* Writes the page text[0..len) to DIR/name atomically. */
static bool put_page(rctx *r, const char *name, const char *text, size_t len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", r->dir, name);
	static const atomic_target t = {"a report page", html_kind, "an HTML page", NULL, 0};
	atomic_file a;
	if (!atomic_open(&a, path, &t, r->err))
		return false;
	if (!atomic_write(&a, text, len, r->err)) {
		atomic_abort(&a);
		return false;
	}
	return atomic_commit(&a, r->err);
}

static int by_id(const void *key, const void *row)
{
	unsigned id = *(const unsigned *)key, other = ((const rsite *)row)->id;
	return id < other ? -1 : id > other;
}

/* The indirect site id (r->sites is in id order), NULL when not one. */
static rsite *find_site(rctx *r, unsigned id)
{
	return r->n_sites ? bsearch(&id, r->sites, r->n_sites, sizeof *r->sites, by_id) : NULL;
}

static bool load_sites(rctx *r)
{
	/* C++ callers and global fields demangled, as the query answers name them */
	const char *sql = "SELECT s.id, " CATALOG_FN_SHOWN("f") ", s.file, s.line, s.col, " CATALOG_FIELD_SHOWN("fl")
	                  ", fl.name, d.status FROM sites s JOIN "
	                  "functions f ON f.id = s.caller LEFT JOIN dispatch d ON d.site = s.id LEFT JOIN fields fl "
	                  "ON fl.id = d.field WHERE s.kind = 'indirect' ORDER BY s.id";
	sqlite3_stmt *st = stmt(r, sql);
	VEC(rsite) v = {0};
	while (step(r, st)) {
		rsite x = {.id = (unsigned)sqlite3_column_int64(st, 0), .caller = col_dup(st, 1), .file = col_dup(st, 2),
		           .line = (unsigned)sqlite3_column_int64(st, 3), .col = (unsigned)sqlite3_column_int64(st, 4),
		           .field = col_dup(st, 5), .field_name = col_dup(st, 6), .status = col_dup(st, 7)};
		VEC_PUSH(&v, x);
	}
	sqlite3_finalize(st);
	r->sites = v.items;
	r->n_sites = (unsigned)v.len;
	/* widths per graph and decisions per rule, one statement each */
	st = stmt(r, "SELECT e.site, e.graphs FROM edges e JOIN sites s ON s.id = e.site WHERE s.kind = 'indirect'");
	while (step(r, st)) {
		rsite *x = find_site(r, (unsigned)sqlite3_column_int64(st, 0));
		unsigned bits = (unsigned)sqlite3_column_int64(st, 1);
		for (int g = 0; x && g < CG_N_GRAPHS; g++)
			x->width[g] += (bits >> g) & 1;
	}
	sqlite3_finalize(st);
	st = stmt(r, "SELECT site, rule, fact, outcome FROM decisions WHERE graph = 'rpm' ORDER BY site");
	while (step(r, st)) {
		rsite *x = find_site(r, (unsigned)sqlite3_column_int64(st, 0));
		if (!x)
			continue;
		const char *rule = (const char *)sqlite3_column_text(st, 1), *outcome = (const char *)sqlite3_column_text(st, 3);
		bool supported = outcome && strcmp(outcome, "supported") == 0;
		if (supported && rule && strcmp(rule, "Add-Witness") == 0)
			x->n_add_witness++;
		else if (supported && rule && strcmp(rule, "Add-Store") == 0)
			x->n_add_store++;
		else if (supported && rule && strncmp(rule, "Prune", 5) == 0)
			x->n_prune++;
		else
			x->n_other++;
	}
	sqlite3_finalize(st);
	return r->ok;
}

static void free_sites(rctx *r)
{
	for (unsigned i = 0; i < r->n_sites; i++) {
		free(r->sites[i].caller);
		free(r->sites[i].file);
		free(r->sites[i].field);
		free(r->sites[i].field_name);
		free(r->sites[i].status);
	}
	free(r->sites);
}

static long long count(rctx *r, const char *sql)
{
	sqlite3_stmt *st = stmt(r, sql);
	long long n = 0;
	if (step(r, st))
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void row_num(FILE *out, const char *what, long long n, const char *note)
{
	fputs("<tr><th>", out);
	rp_text(out, what);
	fprintf(out, "</th><td class=\"n\">%lld</td><td class=\"note\">", n);
	rp_text(out, note);
	fputs("</td></tr>\n", out);
}

/* Table 1's columns: the program; Table 2's: each graph's targets. */
static void tables(rctx *r, FILE *out)
{
	fputs("<h2 id=\"program\">The program</h2>\n<table>\n", out);
	row_num(out, "functions defined", count(r, "SELECT count(*) FROM functions WHERE defined"), "");
	row_num(out, "call sites", count(r, "SELECT count(*) FROM sites"), "");
	row_num(out, "indirect call sites", r->n_sites, "calls through a function pointer");
	row_num(out, "address-taken functions", count(r, "SELECT count(*) FROM functions WHERE address_taken"),
	        "the candidates of an unresolved call");
	row_num(out, "sites with a dispatched struct field", count(r, "SELECT count(*) FROM dispatch WHERE status = 'field'"),
	        "the field each call reads its pointer from, recovered from debug info");
	row_num(out, "sites through a global", count(r, "SELECT count(*) FROM dispatch WHERE status = 'global'"), "");
	row_num(out, "sites without a recovered field", count(r, "SELECT count(*) FROM dispatch WHERE status = "
	                                                        "'unrecovered'"), "R± keeps R0 there");
	const char *tau = catalog_meta(r->cat, "tau");
	fprintf(out, "<tr><th>abstention threshold &tau;</th><td class=\"n\">%s</td><td class=\"note\">a site whose "
	        "R0 minus refutations keeps 1..&tau; targets keeps those refutations and takes no addition and no "
	        "residual removal</td></tr>\n</table>\n", tau ? tau : "-");
	fputs("<h2 id=\"graphs\">The graphs</h2>\n<table><tr><th>graph</th><th>edges</th><th>indirect edges</th>"
	      "<th>mean targets per indirect site</th><th>unresolved indirect sites</th><th>what it is</th></tr>\n", out);
	for (int g = 0; g < CG_N_GRAPHS; g++) {
		if (!catalog_has_graph(r->cat, g))
			continue;
		unsigned long sum = 0;
		unsigned empty = 0;
		for (unsigned i = 0; i < r->n_sites; i++) {
			sum += r->sites[i].width[g];
			empty += r->sites[i].width[g] == 0;
		}
		char sql[160];
		snprintf(sql, sizeof sql, "SELECT edges FROM graphs WHERE name = '%s'", cg_graph_name(g));
		long long edges = count(r, sql);
		snprintf(sql, sizeof sql, "SELECT indirect_edges FROM graphs WHERE name = '%s'", cg_graph_name(g));
		fprintf(out, "<tr><td><b>%s</b></td><td class=\"n\">%lld</td><td class=\"n\">%lld</td><td class=\"n\">%.2f"
		        "</td><td class=\"n\">%u</td><td class=\"note\">", cg_graph_name(g), edges, count(r, sql),
		        r->n_sites ? (double)sum / r->n_sites : 0.0, empty);
		rp_text(out, cg_graph_info_of((cg_graph_id)g)->description);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void figure(rctx *r, FILE *out)
{
	static const int shown[] = {CG_ANDERSEN, CG_R0, CG_RPLUS, CG_RPM};
	const char *names[4];
	unsigned counts[4][RP_BUCKETS];
	memset(counts, 0, sizeof counts);
	unsigned n = 0;
	for (unsigned k = 0; k < 4; k++) {
		if (!catalog_has_graph(r->cat, shown[k]))
			continue;
		names[n] = cg_graph_name(shown[k]);
		for (unsigned i = 0; i < r->n_sites; i++)
			counts[n][rp_bucket_of(r->sites[i].width[shown[k]])]++;
		n++;
	}
	fputs("<h2 id=\"distribution\">Targets per indirect site</h2>\n<p class=\"note\">How many functions each "
	      "indirect call may call, per graph: fewer is more precise; 0 is a site the graph leaves "
	      "unresolved.</p>\n",
	      out);
	rp_figure(out, names, n, counts);
}

static int by_width(const void *a, const void *b, void *arg)
{
	int g = *(const int *)arg;
	const rsite *x = a, *y = b;
	if (x->width[g] != y->width[g])
		return x->width[g] > y->width[g] ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void sites_table(rctx *r, FILE *out, const rsite *sorted)
{
	fprintf(out, "<h2 id=\"sites\">Indirect sites by width in %s</h2>\n<table id=\"site-table\"><tr><th>site</th>"
	        "<th>caller</th><th>where</th><th>dispatched field</th><th>r0</th><th>%s</th><th>warrants</th></tr>\n",
	        r->graph, r->graph);
	for (unsigned i = 0; i < r->n_sites; i++) {
		const rsite *s = &sorted[i];
		fprintf(out, "<tr><td><a href=\"site-%u.html\">%u</a></td><td class=\"mono\">", s->id, s->id);
		rp_text(out, s->caller);
		fputs("</td><td class=\"mono\">", out);
		rp_text(out, s->file);
		fprintf(out, ":%u:%u</td><td class=\"mono\">", s->line, s->col);
		if (s->field_name || s->field) {
			rp_text(out, s->field);
			if (s->field_name) {
				fputs(" (", out);
				rp_text(out, s->field_name);
				fputc(')', out);
			}
		} else {
			rp_text(out, s->status ? s->status : "-");
		}
		fprintf(out, "</td><td class=\"n\">%u</td><td class=\"n\">%u</td><td>", s->width[CG_R0],
		        s->width[r->graph_id]);
		if (s->n_add_witness)
			fprintf(out, "<span class=\"kind-premise-free\">Add-Witness %u</span> ", s->n_add_witness);
		if (s->n_add_store)
			fprintf(out, "<span class=\"kind-premised\">Add-Store %u</span> ", s->n_add_store);
		if (s->n_prune)
			fprintf(out, "Prune %u ", s->n_prune);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void questions(rctx *r, FILE *out)
{
	fputs("<h2 id=\"questions\">Residual questions</h2>\n<p class=\"note\">What the rules could not decide: a "
	      "site left empty (completion) or several same-signature candidates (disambiguation). An oracle or a "
	      "person may answer them (docs/oracle.md, the overlay).</p>\n<table><tr><th>question</th><th>kind</th>"
	      "<th>site</th><th>candidates</th><th>answered</th></tr>\n",
	      out);
	sqlite3_stmt *st = stmt(r, "SELECT q.id, q.kind, q.site, q.answered, (SELECT count(*) FROM question_candidates "
	                           "c WHERE c.question = q.id) FROM questions q ORDER BY q.id");
	unsigned n = 0;
	while (step(r, st)) {
		fprintf(out, "<tr><td>%lld</td><td>", sqlite3_column_int64(st, 0));
		rp_text(out, (const char *)sqlite3_column_text(st, 1));
		fprintf(out, "</td><td><a href=\"site-%lld.html\">%lld</a></td><td class=\"n\">%lld</td><td>%s</td></tr>\n",
		        sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 4),
		        sqlite3_column_int(st, 3) ? "yes" : "no");
		n++;
	}
	sqlite3_finalize(st);
	fprintf(out, "</table>\n<p class=\"note\">%u questions.</p>\n", n);
}

/* The search index: every defined function and every indirect site. */
static json_t *search_index(rctx *r)
{
	json_t *idx = json_array();
	/* a C++ function is shown demangled and found by either name */
	sqlite3_stmt *st = stmt(r, "SELECT " CATALOG_FN_SHOWN("functions") " AS shown, file, line, name FROM functions "
	                           "WHERE defined ORDER BY shown");
	while (step(r, st)) {
		const char *name = (const char *)sqlite3_column_text(st, 0), *file = (const char *)sqlite3_column_text(st, 1);
		const char *linked = (const char *)sqlite3_column_text(st, 3);
		char d[600], key[1200];
		bool other = name && linked && strcmp(name, linked) != 0;
		snprintf(d, sizeof d, "function, %s:%lld%s%s", file ? file : "?", sqlite3_column_int64(st, 2),
		         other ? ", " : "", other ? linked : "");
		snprintf(key, sizeof key, "%s %s", name ? name : "", other ? linked : "");
		json_array_append_new(idx, json_pack("{s:s, s:s, s:s, s:s}", "t", "function", "k", key, "l",
		                                     name ? name : "", "d", d));
	}
	sqlite3_finalize(st);
	for (unsigned i = 0; i < r->n_sites; i++) {
		const rsite *s = &r->sites[i];
		char l[64], d[900], u[64];
		snprintf(l, sizeof l, "site %u", s->id);
		snprintf(d, sizeof d, "in %s at %s:%u:%u%s%s, %u targets", s->caller ? s->caller : "?", s->file ? s->file : "?",
		         s->line, s->col, s->field ? ", field " : "", s->field ? s->field : "", s->width[r->graph_id]);
		snprintf(u, sizeof u, "site-%u.html", s->id);
		char key[1200];
		snprintf(key, sizeof key, "%s %s %s %s", l, d, s->field_name ? s->field_name : "", s->caller ? s->caller : "");
		json_array_append_new(idx, json_pack("{s:s, s:s, s:s, s:s, s:s}", "t", "site", "k", key, "l", l, "d", d,
		                                     "u", u));
	}
	return idx;
}

static bool write_index(rctx *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	rp_page_start(out, "facet report", r->program, true);
	fputs("<p><input id=\"search\" type=\"search\" placeholder=\"search functions and sites\" autofocus>"
	      "</p>\n<ul id=\"results\"></ul>\n",
	      out);
	fprintf(out, "<p class=\"note\">Graph shown: <b>%s</b>. Jump to: <a href=\"#graphs\">graphs</a> &middot; <a "
	        "href=\"#distribution\">distribution</a> &middot; <a href=\"#sites\">sites</a> &middot; <a "
	        "href=\"#questions\">questions</a> &middot; <a href=\"#collapsed\">collapsed objects</a></p>\n", r->graph);
	tables(r, out);
	figure(r, out);
	rsite *sorted = xmalloc((r->n_sites + 1) * sizeof *sorted);
	memcpy(sorted, r->sites, r->n_sites * sizeof *sorted);
	qsort_r(sorted, r->n_sites, sizeof *sorted, by_width, &r->graph_id);
	sites_table(r, out, sorted);
	free(sorted);
	questions(r, out);
	catalog_collapsed cc;
	bool ok = catalog_collapsed_read(r->cat, &cc, r->err);
	if (ok)
		rp_collapsed(out, &cc);
	catalog_collapsed_free(&cc);
	json_t *idx = search_index(r);
	rp_json_block(out, "index", idx);
	json_decref(idx);
	rp_page_end(out, true);
	fclose(out);
	ok = ok && r->ok && put_page(r, "index.html", text, len);
	free(text);
	return ok;
}

bool report_write(const char *catalog_path, const char *dir, const report_options *o, report_result *res,
                  facet_error *err)
{
	static const report_options none = {0};
	if (!o)
		o = &none;
	struct stat sb;
	if (stat(dir, &sb) != 0 && (errno != ENOENT || mkdir(dir, 0755) != 0)) {
		error_set(err, "%s: cannot create the report directory: %s", dir, strerror(errno));
		return false;
	}
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		error_set(err, "%s: not a directory (the report writes index.html and site pages there)", dir);
		return false;
	}
	rctx r = {.dir = dir, .err = err, .ok = true};
	if (!(r.cat = catalog_open(catalog_path, err)))
		return false;
	if (!(r.qs = query_open(catalog_path, err))) {
		catalog_close(r.cat);
		return false;
	}
	r.graph = o->graph ? o->graph : catalog_default_graph(r.cat);
	r.graph_id = cg_graph_parse(r.graph);
	sqlite3_stmt *st = stmt(&r, "SELECT group_concat(path, ' ') FROM inputs");
	char *program = step(&r, st) ? col_dup(st, 0) : NULL;
	sqlite3_finalize(st);
	r.program = program ? program : catalog_path;
	bool ok = r.ok;
	if (r.graph_id < 0 || !catalog_has_graph(r.cat, r.graph_id)) {
		error_set(err, "%s: graph %s is not in this catalog", catalog_path, r.graph);
		ok = false;
	}
	ok = ok && load_sites(&r) && write_index(&r);
	unsigned pages = 0, want = o->max_site_pages && o->max_site_pages < r.n_sites ? o->max_site_pages : r.n_sites;
	for (unsigned i = 0; ok && i < want; i++) {
		char *text = NULL, name[64];
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		ok = rp_site_page(r.qs, r.graph, r.program, r.sites[i].id, out, err);
		fclose(out);
		snprintf(name, sizeof name, "site-%u.html", r.sites[i].id);
		ok = ok && put_page(&r, name, text, len);
		free(text);
		pages += ok;
		if (o->progress)
			o->progress(o->progress_arg, i + 1, want);
	}
	if (res) {
		res->site_pages = pages;
		res->sites_indirect = r.n_sites;
	}
	free_sites(&r);
	free(program);
	query_close(r.qs);
	catalog_close(r.cat);
	return ok;
}
