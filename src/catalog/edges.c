/* edges.c — how the catalog stores call edges (the reading side: adjacency.c).
 *
 * Andersen's sets are wide and few: on sqlite its 3.2 M edges come from 21
 * distinct target sets. So edges are not stored one row each: every site's
 * list of (target, graphs) pairs is interned, each distinct list is written
 * once (table target_sets) and the site names its list (sites.target_set);
 * the view `edges` joins them back into one row per (site, target).
 *
 * Walks need the graph whole and fast, not through one SQL lookup per
 * function. Table adjacency holds each graph as four arrays of
 * little-endian u32 (docs/catalog.md): which sites each function has, the
 * graph's target set of each site, and the sets' members. A reader loads
 * them once per process (adjacency.c).
 *
 * The writer lives apart from the reader so that facet-query, which only
 * reads, does not link the writer and through it the program model. */
#include "catalog/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/internal.h"
#include "util/interner.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef VEC(uint32_t) u32_vec;

/* ---- the build's target sets ---------------------------------------------------------------- */

struct catalog_edge_sets {
	unsigned n_sites;
	uint32_t *site_set;        /* per site: its list's id, CATALOG_NO_SET without a target in any graph */
	u32_interner lists;            /* words: target, graphs bitmask, target, graphs, ... (targets ascending) */
};

/* Site s's (target, graphs) pairs into out, targets ascending: a merge of
 * the graphs' target lists (each ascending, cg/graph.h). */
static void site_pairs(const catalog_build *b, unsigned s, u32_vec *out)
{
	unsigned pos[CG_N_GRAPHS] = {0};
	VEC_CLEAR(out);
	for (;;) {
		uint32_t t = UINT32_MAX, bits = 0;
		for (int g = 0; g < CG_N_GRAPHS; g++) {
			const cg_graph *cg = b->graphs[g];
			if (cg && pos[g] < cg->n_targets[s] && cg->targets[s][pos[g]] <= t) {
				if (cg->targets[s][pos[g]] < t)
					bits = 0;
				t = cg->targets[s][pos[g]];
				bits |= 1u << g;
			}
		}
		if (!bits)
			return;
		for (int g = 0; g < CG_N_GRAPHS; g++)
			if (bits & (1u << g))
				pos[g]++;
		VEC_PUSH(out, t);
		VEC_PUSH(out, bits);
	}
}

catalog_edge_sets *catalog_edge_sets_new(const catalog_build *b)
{
	catalog_edge_sets *e = xcalloc(1, sizeof *e);
	e->n_sites = b->prog->n_sites;
	e->site_set = xmalloc((e->n_sites ? e->n_sites : 1) * sizeof *e->site_set);
	u32_interner_init(&e->lists);
	u32_vec pairs = {0};
	for (unsigned s = 0; s < e->n_sites; s++) {
		site_pairs(b, s, &pairs);
		e->site_set[s] = pairs.len ? u32_intern(&e->lists, pairs.items, pairs.len) : CATALOG_NO_SET;
	}
	VEC_FREE(&pairs);
	return e;
}

void catalog_edge_sets_free(catalog_edge_sets *e)
{
	if (!e)
		return;
	free(e->site_set);
	u32_interner_free(&e->lists);
	free(e);
}

uint32_t catalog_edge_set_of(const catalog_edge_sets *e, unsigned site)
{
	return site < e->n_sites ? e->site_set[site] : CATALOG_NO_SET;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* a[0..n) as little-endian bytes, for sqlite3_bind_blob(..., free). */
static unsigned char *le32_bytes(const uint32_t *a, size_t n)
{
	unsigned char *p = xmalloc(n * 4 + 1);
	for (size_t i = 0; i < n; i++) {
		p[4 * i] = (unsigned char)a[i];
		p[4 * i + 1] = (unsigned char)(a[i] >> 8);
		p[4 * i + 2] = (unsigned char)(a[i] >> 16);
		p[4 * i + 3] = (unsigned char)(a[i] >> 24);
	}
	return p;
}

static void bind_u32s(sqlite3_stmt *st, int col, const uint32_t *a, size_t n)
{
	sqlite3_bind_blob64(st, col, le32_bytes(a, n), (sqlite3_uint64)n * 4, free);
}

/* dovecot's are 694,005 rows: written in batches (catalog_rows). */
static bool write_target_sets(writer *w, const catalog_edge_sets *e)
{
	catalog_rows rows;
	bool ok = catalog_rows_begin(&rows, w, "target_sets", "(?,?,?)", 3, sizeof(catalog_row3), catalog_bind_row3);
	for (uint32_t id = 0; ok && id < u32_interner_count(&e->lists); id++) {
		size_t n;
		const uint32_t *p = u32_interner_list(&e->lists, id, &n);
		for (size_t k = 0; ok && k < n; k += 2) {
			catalog_row3 r = {{id, p[k], p[k + 1]}};   /* set, target, graphs */
			ok = catalog_rows_add(&rows, &r);
		}
	}
	return catalog_rows_end(&rows, ok);
}

/* function_sites of the adjacency: site ids run in caller order (ingest
 * numbers a function's sites consecutively), so offsets suffice. False when
 * the model breaks that order. */
static bool function_sites(const ir_program *p, uint32_t *off)
{
	unsigned s = 0;
	for (unsigned f = 0; f < p->n_functions; f++) {
		off[f] = s;
		while (s < p->n_sites && p->sites[s].caller->id == f)
			s++;
	}
	off[p->n_functions] = s;
	return s == p->n_sites;
}

/* Graph g's adjacency row: the build's lists filtered to g's bit and
 * interned again, so each of g's distinct target sets appears once. */
static bool write_graph_adjacency(writer *w, sqlite3_stmt *st, const catalog_build *b, const catalog_edge_sets *e,
                                  int g, const uint32_t *fsites)
{
	const ir_program *p = b->prog;
	size_t n_lists = u32_interner_count(&e->lists);
	uint32_t *map = xmalloc((n_lists ? n_lists : 1) * sizeof *map);
	u32_interner sets;
	u32_interner_init(&sets);
	u32_vec members = {0};
	for (uint32_t id = 0; id < n_lists; id++) {
		size_t n;
		const uint32_t *pairs = u32_interner_list(&e->lists, id, &n);
		VEC_CLEAR(&members);
		for (size_t k = 0; k < n; k += 2)
			if (pairs[k + 1] & (1u << g))
				VEC_PUSH(&members, pairs[k]);
		map[id] = members.len ? u32_intern(&sets, members.items, members.len) : CATALOG_NO_SET;
	}
	uint32_t *site_sets = xmalloc((p->n_sites ? p->n_sites : 1) * sizeof *site_sets);
	for (unsigned s = 0; s < p->n_sites; s++)
		site_sets[s] = e->site_set[s] == CATALOG_NO_SET ? CATALOG_NO_SET : map[e->site_set[s]];
	catalog_w_text(st, 1, cg_graph_name(g));
	bind_u32s(st, 2, fsites, p->n_functions + 1);
	bind_u32s(st, 3, site_sets, p->n_sites);
	bind_u32s(st, 4, sets.offsets.items, sets.offsets.len);
	bind_u32s(st, 5, sets.words.items, sets.words.len);
	bool ok = catalog_w_step(w, st);
	free(site_sets);
	VEC_FREE(&members);
	u32_interner_free(&sets);
	free(map);
	return ok;
}

bool catalog_write_edges(writer *w, const catalog_build *b, const catalog_edge_sets *e)
{
	const ir_program *p = b->prog;
	uint32_t *fsites = xmalloc((p->n_functions + 1) * sizeof *fsites);
	bool ok = function_sites(p, fsites);
	if (!ok)
		error_set(w->err, "%s: cannot write the catalog: call sites are not numbered in caller order", w->path);
	ok = ok && write_target_sets(w, e);
	sqlite3_stmt *st = ok ? catalog_w_prep(w, "INSERT INTO adjacency VALUES(?1,?2,?3,?4,?5)") : NULL;
	ok = ok && st;
	for (int g = 0; ok && g < CG_N_GRAPHS; g++)
		if (b->graphs[g])
			ok = write_graph_adjacency(w, st, b, e, g, fsites);
	sqlite3_finalize(st);
	free(fsites);
	return ok;
}
