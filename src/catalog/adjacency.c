/* adjacency.c — catalog_adjacency_load: one graph's adjacency arrays (table
 * adjacency, written by edges.c; the format is in docs/catalog.md), checked
 * and completed in memory with the inverse walks towards callers need. */
#include "catalog/catalog.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void catalog_adjacency_free(catalog_adjacency *a)
{
	if (!a)
		return;
	free(a->function_sites);
	free(a->site_sets);
	free(a->set_offsets);
	free(a->set_targets);
	free(a->site_caller);
	free(a->target_offsets);
	free(a->target_sets);
	free(a->set_site_offsets);
	free(a->set_sites);
	free(a);
}

/* Column col as u32s; NULL (and *n untouched) when not a whole number of them. */
static uint32_t *column_u32s(sqlite3_stmt *st, int col, size_t *n)
{
	const unsigned char *p = sqlite3_column_blob(st, col);
	size_t bytes = (size_t)sqlite3_column_bytes(st, col);
	if (bytes % 4 || (bytes && !p))
		return NULL;
	*n = bytes / 4;
	uint32_t *a = xmalloc(bytes + 4);
	for (size_t i = 0; i < *n; i++)
		a[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
		       (uint32_t)p[4 * i + 3] << 24;
	return a;
}

/* Offsets from 0, ascending, ending at end. */
static bool offsets_ok(const uint32_t *off, size_t n, size_t end)
{
	if (n == 0 || off[0] != 0 || off[n - 1] != end)
		return false;
	for (size_t i = 1; i < n; i++)
		if (off[i] < off[i - 1])
			return false;
	return true;
}

/* Why the arrays do not fit together, NULL when they do. */
static const char *check(const catalog_adjacency *a)
{
	if (!offsets_ok(a->function_sites, a->n_functions + 1, a->n_sites))
		return "function_sites";
	if (!offsets_ok(a->set_offsets, a->n_sets + 1, a->n_members))
		return "set_offsets";
	for (unsigned s = 0; s < a->n_sites; s++)
		if (a->site_sets[s] != CATALOG_NO_SET && a->site_sets[s] >= a->n_sets)
			return "site_sets";
	for (size_t i = 0; i < a->n_members; i++)
		if (a->set_targets[i] >= a->n_functions)
			return "set_targets";
	return NULL;
}

/* CSR of the inverse relation: for each key k < n_keys, the values v with
 * key_of(v) = k, ascending in v (v < n_values; key NO_SET left out). */
static void invert(const uint32_t *key_of, size_t n_values, size_t n_keys, uint32_t **off_out, uint32_t **vals_out)
{
	uint32_t *off = xcalloc(n_keys + 2, sizeof *off);
	size_t n = 0;
	for (size_t v = 0; v < n_values; v++)
		if (key_of[v] != CATALOG_NO_SET) {
			off[key_of[v] + 2]++;
			n++;
		}
	for (size_t k = 2; k < n_keys + 2; k++)
		off[k] += off[k - 1];
	uint32_t *vals = xmalloc((n ? n : 1) * sizeof *vals);
	for (size_t v = 0; v < n_values; v++)
		if (key_of[v] != CATALOG_NO_SET)
			vals[off[key_of[v] + 1]++] = (uint32_t)v;
	*off_out = off;   /* off[k] .. off[k+1] */
	*vals_out = vals;
}

/* The inverse arrays walks towards callers use. */
static void derive(catalog_adjacency *a)
{
	a->site_caller = xmalloc((a->n_sites ? a->n_sites : 1) * sizeof *a->site_caller);
	for (unsigned f = 0; f < a->n_functions; f++)
		for (uint32_t s = a->function_sites[f]; s < a->function_sites[f + 1]; s++)
			a->site_caller[s] = f;
	invert(a->site_sets, a->n_sites, a->n_sets, &a->set_site_offsets, &a->set_sites);
	/* member i belongs to set set_of[i]; invert target -> members -> sets */
	uint32_t *member_set = xmalloc((a->n_members ? a->n_members : 1) * sizeof *member_set);
	for (unsigned k = 0; k < a->n_sets; k++)
		for (uint32_t i = a->set_offsets[k]; i < a->set_offsets[k + 1]; i++)
			member_set[i] = k;
	uint32_t *members;
	invert(a->set_targets, a->n_members, a->n_functions, &a->target_offsets, &members);
	for (size_t i = 0; i < a->n_members; i++)
		members[i] = member_set[members[i]];
	a->target_sets = members;
	free(member_set);
}

catalog_adjacency *catalog_adjacency_load(catalog *c, int graph, facet_error *err)
{
	const char *name = graph >= 0 && graph < CG_N_GRAPHS ? cg_graph_name(graph) : "?";
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(catalog_db(c), "SELECT function_sites, site_sets, set_offsets, set_targets FROM adjacency "
	                                      "WHERE graph = ?1", -1, &st, NULL) != SQLITE_OK) {
		error_set(err, "%s: damaged catalog (%s)", catalog_path(c), sqlite3_errmsg(catalog_db(c)));
		return NULL;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		error_set(err, "%s: damaged catalog (no adjacency for graph %s)", catalog_path(c), name);
		sqlite3_finalize(st);
		return NULL;
	}
	catalog_adjacency *a = xcalloc(1, sizeof *a);
	size_t nf = 0, ns = 0, no = 0;
	a->function_sites = column_u32s(st, 0, &nf);
	a->site_sets = column_u32s(st, 1, &ns);
	a->set_offsets = column_u32s(st, 2, &no);
	a->set_targets = column_u32s(st, 3, &a->n_members);
	sqlite3_finalize(st);
	const char *bad = !a->function_sites || nf == 0 ? "function_sites" : !a->site_sets ? "site_sets"
	                  : !a->set_offsets || no == 0 ? "set_offsets" : !a->set_targets ? "set_targets" : NULL;
	if (!bad) {
		a->n_functions = (unsigned)(nf - 1);
		a->n_sites = (unsigned)ns;
		a->n_sets = (unsigned)(no - 1);
		bad = check(a);
	}
	if (bad) {
		error_set(err, "%s: damaged catalog (adjacency of graph %s: bad %s); rebuild it with 'facet build'",
		          catalog_path(c), name, bad);
		catalog_adjacency_free(a);
		return NULL;
	}
	derive(a);
	return a;
}
