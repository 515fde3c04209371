/* adjacency.c — how the catalog stores call edges, and how walks read them.
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
 * graph's target set of each site, and the sets' members. A reader maps
 * them in once per process (catalog_adjacency_load) and derives the inverse
 * (which sites call a function) in memory. */
#include "catalog/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/internal.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef VEC(uint32_t) u32_vec;

/* ---- interning lists of words ------------------------------------------------------------ */

/* Distinct u32 lists get dense ids in the order first seen; list id's words
 * are words[offsets[id] .. offsets[id+1]). */
typedef struct interner {
	u32_vec words;
	u32_vec offsets;
	uint32_t *slots;           /* open addressing: id + 1, 0 empty */
	size_t cap;                /* power of two, at least twice the ids */
} interner;

static uint64_t hash_words(const uint32_t *w, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= w[i];
		h *= 0x100000001b3ull;
	}
	return h ^ (h >> 29);
}

static void interner_init(interner *in)
{
	memset(in, 0, sizeof *in);
	in->cap = 256;
	in->slots = xcalloc(in->cap, sizeof *in->slots);
	VEC_PUSH(&in->offsets, 0);
}

static void interner_free(interner *in)
{
	VEC_FREE(&in->words);
	VEC_FREE(&in->offsets);
	free(in->slots);
}

static size_t interner_n(const interner *in)
{
	return in->offsets.len - 1;
}

static const uint32_t *interner_list(const interner *in, uint32_t id, size_t *n)
{
	*n = in->offsets.items[id + 1] - in->offsets.items[id];
	return in->words.items + in->offsets.items[id];
}

static void interner_grow(interner *in)
{
	free(in->slots);
	in->cap *= 2;
	in->slots = xcalloc(in->cap, sizeof *in->slots);
	for (uint32_t id = 0; id < interner_n(in); id++) {
		size_t n;
		const uint32_t *w = interner_list(in, id, &n);
		size_t i = (size_t)hash_words(w, n) & (in->cap - 1);
		while (in->slots[i])
			i = (i + 1) & (in->cap - 1);
		in->slots[i] = id + 1;
	}
}

static uint32_t intern(interner *in, const uint32_t *w, size_t n)
{
	if (2 * (interner_n(in) + 1) > in->cap)
		interner_grow(in);
	size_t i = (size_t)hash_words(w, n) & (in->cap - 1);
	for (; in->slots[i]; i = (i + 1) & (in->cap - 1)) {
		size_t m;
		const uint32_t *x = interner_list(in, in->slots[i] - 1, &m);
		if (m == n && memcmp(x, w, n * sizeof *w) == 0)
			return in->slots[i] - 1;
	}
	uint32_t id = (uint32_t)interner_n(in);
	VEC_RESERVE(&in->words, in->words.len + n);
	memcpy(in->words.items + in->words.len, w, n * sizeof *w);
	in->words.len += n;
	VEC_PUSH(&in->offsets, (uint32_t)in->words.len);
	in->slots[i] = id + 1;
	return id;
}

/* ---- the build's target sets ---------------------------------------------------------------- */

struct catalog_edge_sets {
	unsigned n_sites;
	uint32_t *site_set;        /* per site: its list's id, CATALOG_NO_SET without a target in any graph */
	interner lists;            /* words: target, graphs bitmask, target, graphs, ... (targets ascending) */
};

/* Site s's (target, graphs) pairs into out, targets ascending: a merge of
 * the graphs' target lists (each ascending, cg/graph.h). */
static void site_pairs(const catalog_build *b, unsigned s, u32_vec *out)
{
	unsigned pos[CATALOG_N_GRAPHS] = {0};
	VEC_CLEAR(out);
	for (;;) {
		uint32_t t = UINT32_MAX, bits = 0;
		for (int g = 0; g < CATALOG_N_GRAPHS; g++) {
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
		for (int g = 0; g < CATALOG_N_GRAPHS; g++)
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
	interner_init(&e->lists);
	u32_vec pairs = {0};
	for (unsigned s = 0; s < e->n_sites; s++) {
		site_pairs(b, s, &pairs);
		e->site_set[s] = pairs.len ? intern(&e->lists, pairs.items, pairs.len) : CATALOG_NO_SET;
	}
	VEC_FREE(&pairs);
	return e;
}

void catalog_edge_sets_free(catalog_edge_sets *e)
{
	if (!e)
		return;
	free(e->site_set);
	interner_free(&e->lists);
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

static bool write_target_sets(writer *w, const catalog_edge_sets *e)
{
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO target_sets VALUES(?1,?2,?3)");
	bool ok = st != NULL;
	for (uint32_t id = 0; ok && id < interner_n(&e->lists); id++) {
		size_t n;
		const uint32_t *p = interner_list(&e->lists, id, &n);
		for (size_t k = 0; ok && k < n; k += 2) {
			sqlite3_bind_int64(st, 1, id);
			sqlite3_bind_int64(st, 2, p[k]);
			sqlite3_bind_int64(st, 3, p[k + 1]);
			ok = catalog_w_step(w, st);
		}
	}
	sqlite3_finalize(st);
	return ok;
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
	size_t n_lists = interner_n(&e->lists);
	uint32_t *map = xmalloc((n_lists ? n_lists : 1) * sizeof *map);
	interner sets;
	interner_init(&sets);
	u32_vec members = {0};
	for (uint32_t id = 0; id < n_lists; id++) {
		size_t n;
		const uint32_t *pairs = interner_list(&e->lists, id, &n);
		VEC_CLEAR(&members);
		for (size_t k = 0; k < n; k += 2)
			if (pairs[k + 1] & (1u << g))
				VEC_PUSH(&members, pairs[k]);
		map[id] = members.len ? intern(&sets, members.items, members.len) : CATALOG_NO_SET;
	}
	uint32_t *site_sets = xmalloc((p->n_sites ? p->n_sites : 1) * sizeof *site_sets);
	for (unsigned s = 0; s < p->n_sites; s++)
		site_sets[s] = e->site_set[s] == CATALOG_NO_SET ? CATALOG_NO_SET : map[e->site_set[s]];
	catalog_w_text(st, 1, catalog_graph_names[g]);
	bind_u32s(st, 2, fsites, p->n_functions + 1);
	bind_u32s(st, 3, site_sets, p->n_sites);
	bind_u32s(st, 4, sets.offsets.items, sets.offsets.len);
	bind_u32s(st, 5, sets.words.items, sets.words.len);
	bool ok = catalog_w_step(w, st);
	free(site_sets);
	VEC_FREE(&members);
	interner_free(&sets);
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
	for (int g = 0; ok && g < CATALOG_N_GRAPHS; g++)
		if (b->graphs[g])
			ok = write_graph_adjacency(w, st, b, e, g, fsites);
	sqlite3_finalize(st);
	free(fsites);
	return ok;
}

/* ---- reading ---------------------------------------------------------------------------- */

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
	const char *name = graph >= 0 && graph < CATALOG_N_GRAPHS ? catalog_graph_names[graph] : "?";
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
