/* provenance.c — a catalog's provenance read back (provenance.h). */
#include "catalog/provenance.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"
#include "util/xalloc.h"


static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (s && strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static bool scalar(sqlite3 *db, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	if (ok)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return ok;
}

/* Reads the edges of graph `bit` into g, site by site. */
static bool read_graph(sqlite3 *db, int bit, cg_graph *g, unsigned n_functions)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT site, target FROM edges WHERE (graphs >> ?) & 1 ORDER BY site", -1, &st,
	                       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int(st, 1, bit);
	VEC(unsigned) buf = {0};
	long long cur = -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long site = sqlite3_column_int64(st, 0), target = sqlite3_column_int64(st, 1);
		if (site != cur && cur >= 0) {
			cg_set_targets(g, (unsigned)cur, buf.items, (unsigned)buf.len);
			VEC_CLEAR(&buf);
		}
		cur = site;
		if (site < 0 || (unsigned long long)site >= g->prog->n_sites || target < 0 || target >= n_functions) {
			rc = SQLITE_CORRUPT;
			break;
		}
		VEC_PUSH(&buf, (unsigned)target);
	}
	if (cur >= 0 && rc == SQLITE_DONE)
		cg_set_targets(g, (unsigned)cur, buf.items, (unsigned)buf.len);
	VEC_FREE(&buf);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE;
}

static bool read_decisions(sqlite3 *db, catalog_provenance *pv, facet_error *err)
{
	static const char *const facts[] = {"add", "prune"};
	static const char *const outcomes[] = {"supported", "rejected", "residual"};
	const char *rules[FACET_N_RULES];
	for (int r = 0; r < FACET_N_RULES; r++)
		rules[r] = facet_rule_name((facet_rule)r);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT site, function, fact, outcome, rule FROM decisions WHERE graph = 'rpm' ORDER BY id", -1, &st,
	                       NULL) != SQLITE_OK) {
		error_set(err, "no decisions table: %s", sqlite3_errmsg(db));
		return false;
	}
	int rc;
	unsigned cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long site = sqlite3_column_int64(st, 0), fn = sqlite3_column_int64(st, 1);
		int fact = lookup(facts, 2, (const char *)sqlite3_column_text(st, 2));
		int outcome = lookup(outcomes, 3, (const char *)sqlite3_column_text(st, 3));
		int rule = lookup(rules, FACET_N_RULES, (const char *)sqlite3_column_text(st, 4));
		if (site < 0 || (unsigned long long)site >= pv->shell.n_sites || fn < 0 ||
		    (unsigned long long)fn >= pv->shell.n_functions || fact < 0 || outcome < 0 || rule < 0) {
			error_set(err, "decision row %zu is not one facet writes", (size_t)pv->n_decisions + 1);
			sqlite3_finalize(st);
			return false;
		}
		facet_decision d = {.site = (unsigned)site, .function = (unsigned)fn, .fact = (fact_kind)fact,
		                    .outcome = (fact_outcome)outcome, .rule = (facet_rule)rule};
		if (pv->n_decisions == cap)
			pv->decisions = xrealloc(pv->decisions, (cap = cap ? 2 * cap : 256) * sizeof *pv->decisions);
		pv->decisions[pv->n_decisions++] = d;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		error_set(err, "reading decisions: %s", sqlite3_errmsg(db));
	return rc == SQLITE_DONE;
}

/* The functions' names (rows id, name) or the indirect sites (rows id).
 * A failed step is an error the caller sees, never the end of the rows
 * (issue 20.3); so is a negative id (a damaged catalog). */
static bool read_ids(sqlite3 *db, const char *sql, const char *what, catalog_provenance *pv, facet_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		if (id < 0)
			break;
		if (sqlite3_column_count(st) > 1)
			pv->names[id] = xstrdup((const char *)sqlite3_column_text(st, 1));
		else
			pv->indirect[id] = true;
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		error_set(err, "reading the %s: %s", what, rc == SQLITE_ROW ? "a negative id" : sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE;
}

bool catalog_provenance_read(catalog *c, int graph_bit, catalog_provenance *pv, facet_error *err)
{
	sqlite3 *db = catalog_db(c);
	long long ns = 0, nf = 0;
	if (!scalar(db, "SELECT coalesce(max(id), -1) + 1 FROM sites", &ns) ||
	    !scalar(db, "SELECT coalesce(max(id), -1) + 1 FROM functions", &nf)) {
		error_set(err, "cannot read sites and functions: %s", sqlite3_errmsg(db));
		return false;
	}
	pv->shell.n_sites = (unsigned)ns;
	pv->shell.n_functions = (unsigned)nf;
	pv->names = xcalloc((size_t)nf + 1, sizeof *pv->names);
	pv->indirect = xcalloc((size_t)ns + 1, sizeof *pv->indirect);
	if (!read_ids(db, "SELECT id, name FROM functions", "functions", pv, err) ||
	    !read_ids(db, "SELECT id FROM sites WHERE kind = 'indirect'", "sites", pv, err))
		return false;
	pv->r0 = cg_new(&pv->shell, "r0");
	pv->stored = cg_new(&pv->shell, "stored");
	if (!read_graph(db, CG_R0, pv->r0, (unsigned)nf) || !read_graph(db, graph_bit, pv->stored, (unsigned)nf)) {
		error_set(err, "reading the edges: %s", sqlite3_errmsg(db));
		return false;
	}
	return read_decisions(db, pv, err);
}

void catalog_provenance_free(catalog_provenance *pv)
{
	for (unsigned i = 0; pv->names && i < pv->shell.n_functions; i++)
		free(pv->names[i]);
	free(pv->names);
	free(pv->indirect);
	if (pv->r0)
		cg_free(pv->r0);
	if (pv->stored)
		cg_free(pv->stored);
	free(pv->decisions);
	memset(pv, 0, sizeof *pv);
}


unsigned catalog_provenance_differences(const catalog_provenance *pv, const cg_graph *g, unsigned *first, unsigned max_first)
{
	unsigned n = 0;
	for (unsigned s = 0; s < pv->shell.n_sites; s++) {
		if (!pv->indirect[s])
			continue;
		bool same = g->n_targets[s] == pv->stored->n_targets[s] &&
		            (!g->n_targets[s] ||
		             !memcmp(g->targets[s], pv->stored->targets[s], g->n_targets[s] * sizeof(unsigned)));
		if (!same && n < max_first)
			first[n] = s;
		n += !same;
	}
	return n;
}

void catalog_provenance_print(FILE *out, const catalog_provenance *pv, const cg_graph *g, const char *graph, unsigned tau, bool json)
{
	if (!json) {
		for (unsigned s = 0; s < pv->shell.n_sites; s++) {
			if (!pv->indirect[s])
				continue;
			fprintf(out, "site %u ->", s);
			for (unsigned i = 0; i < g->n_targets[s]; i++)
				fprintf(out, " %s", pv->names[g->targets[s][i]] ? pv->names[g->targets[s][i]] : "?");
			fprintf(out, "\n");
		}
		return;
	}
	json_t *top = json_object(), *sites = json_array();
	json_object_set_new(top, "graph", json_string(graph));
	json_object_set_new(top, "tau", json_integer(tau));
	for (unsigned s = 0; s < pv->shell.n_sites; s++) {
		if (!pv->indirect[s])
			continue;
		json_t *site = json_object(), *t = json_array();
		json_object_set_new(site, "id", json_integer(s));
		for (unsigned i = 0; i < g->n_targets[s]; i++)
			json_array_append_new(t, json_string(pv->names[g->targets[s][i]] ? pv->names[g->targets[s][i]] : "?"));
		json_object_set_new(site, "targets", t);
		json_array_append_new(sites, site);
	}
	json_object_set_new(top, "sites", sites);
	json_dumpf(top, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(top);
}

