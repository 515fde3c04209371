/* overlay.c — the overlay's records, their checks, and the file.
 *
 * The state is never edited in place: applying a batch replays the whole log
 * plus the batch into a fresh edge list and swaps it in only when every
 * record passed, which is what makes a batch all-or-nothing. Overlays are
 * small (records an agent or a person wrote by hand), so the replay costs
 * nothing that matters. */
#include "overlay/overlay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic.h"
#include "util/fsio.h"
#include "util/hash.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef VEC(overlay_edge) edge_vec;

struct overlay {
	const catalog *cat;
	int graph;                 /* the graph an add without "graph" is checked against */
	int default_graph;         /* the catalog's default graph */
	json_t *log;               /* applied records, normalized */
	edge_vec edges;
	bool dirty;
	/* What the file looked like when this overlay last read or wrote it:
	 * a save that finds other bytes there merges instead of replacing. */
	char *file_path;           /* NULL: never read or written */
	bool file_existed;
	uint64_t file_hash;        /* FNV-1a of its bytes */
	size_t n_synced;           /* log records that are in that file */
};

overlay_confidence overlay_confidence_parse(const char *s)
{
	if (!s)
		return 0;
	if (strcmp(s, "high") == 0)
		return CONF_HIGH;
	if (strcmp(s, "medium") == 0)
		return CONF_MEDIUM;
	if (strcmp(s, "low") == 0)
		return CONF_LOW;
	return 0;
}

const char *overlay_confidence_name(overlay_confidence c)
{
	return c == CONF_HIGH ? "high" : c == CONF_MEDIUM ? "medium" : c == CONF_LOW ? "low" : "?";
}

const char *overlay_verdict_name(overlay_verdict v)
{
	switch (v) {
	case VERDICT_NONE: return NULL;
	case VERDICT_CONFIRMED: return "confirmed";
	case VERDICT_REFUTED: return "refuted";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	}
	return NULL;
}

static void edge_free(overlay_edge *e)
{
	free(e->record);
	free(e->to_symbol);
	free(e->to_module);
	free(e->verdict_tool);
	free(e->sites);
	json_decref(e->provenance);
}

static overlay_edge edge_clone(const overlay_edge *e)
{
	overlay_edge c = *e;
	c.record = e->record ? xstrdup(e->record) : NULL;
	c.to_symbol = e->to_symbol ? xstrdup(e->to_symbol) : NULL;
	c.to_module = e->to_module ? xstrdup(e->to_module) : NULL;
	c.verdict_tool = e->verdict_tool ? xstrdup(e->verdict_tool) : NULL;
	c.sites = NULL;
	if (e->n_sites) {
		c.sites = xmalloc(e->n_sites * sizeof *c.sites);
		memcpy(c.sites, e->sites, e->n_sites * sizeof *c.sites);
	}
	json_incref(c.provenance);
	return c;
}

static void edges_free(edge_vec *v)
{
	for (size_t i = 0; i < v->len; i++)
		edge_free(&v->items[i]);
	VEC_FREE(v);
}

overlay *overlay_new(const catalog *c)
{
	overlay *o = xcalloc(1, sizeof *o);
	o->cat = c;
	o->default_graph = cg_graph_parse(catalog_default_graph(c));
	if (o->default_graph < 0)
		o->default_graph = CG_R0;
	o->graph = o->default_graph;
	o->log = json_array();
	return o;
}

void overlay_free(overlay *o)
{
	if (!o)
		return;
	edges_free(&o->edges);
	json_decref(o->log);
	free(o->file_path);
	free(o);
}

size_t overlay_n_edges(const overlay *o) { return o->edges.len; }
const overlay_edge *overlay_edge_at(const overlay *o, size_t i) { return &o->edges.items[i]; }
bool overlay_pending(const overlay *o) { return o->dirty; }
size_t overlay_n_records(const overlay *o) { return json_array_size(o->log); }

/* ---- checks against the catalog -------------------------------------------------------- */

/* The statements are static text: one that does not prepare means a
 * changed catalog (or a facet bug); the record fails with SQLite's reason
 * through step below (SQLite ignores binds on a NULL statement). */
static sqlite3_stmt *prep(const overlay *o, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(catalog_db(o->cat), sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* 1 on a row, 0 at the end, -1 (err set) when the statement did not
 * prepare or the step failed: never an error read as "no more rows". */
static int step(const overlay *o, sqlite3_stmt *st, facet_error *err)
{
	int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	error_set(err, "%s: damaged catalog: %s", catalog_path(o->cat), sqlite3_errmsg(catalog_db(o->cat)));
	return -1;
}

/* Resolves `to` — an exact linked name, a bare identifier naming one
 * definition, or {module_id, symbol} — to a defined function. On ambiguity
 * the message lists the candidates with their module ids. */
static bool resolve_to(const overlay *o, json_t *to, unsigned *id, char **sym, char **module, facet_error *err)
{
	const char *symbol = NULL, *module_id = NULL;
	if (json_is_string(to)) {
		symbol = json_string_value(to);
	} else if (json_is_object(to)) {
		symbol = json_string_value(json_object_get(to, "symbol"));
		module_id = json_string_value(json_object_get(to, "module_id"));
		if (!symbol || !module_id) {
			error_set(err, "'to' as an object needs string \"module_id\" and \"symbol\"");
			return false;
		}
	} else {
		error_set(err, "'to' must be a symbol or {\"module_id\", \"symbol\"}");
		return false;
	}
	if (!*symbol) {
		error_set(err, "'to' is an empty symbol");
		return false;
	}
	/* The linked name or the source name; a static defined in several
	 * modules needs its module_id. */
	sqlite3_stmt *st = prep(o, "SELECT id, name, module_id FROM functions WHERE defined AND (name = ?1 OR "
	                           "source_name = ?1) AND (?2 IS NULL OR module_id = ?2) ORDER BY id");
	if (!st) {
		error_set(err, "%s: damaged catalog", catalog_path(o->cat));
		return false;
	}
	sqlite3_bind_text(st, 1, symbol, -1, SQLITE_STATIC);
	if (module_id)
		sqlite3_bind_text(st, 2, module_id, -1, SQLITE_STATIC);
	VEC(unsigned) ids = {0};
	char cands[700] = "";
	size_t used = 0;
	int rc;
	while ((rc = step(o, st, err)) == 1) {
		unsigned fid = (unsigned)sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *mod = (const char *)sqlite3_column_text(st, 2);
		if (!name)
			name = "?";
		VEC_PUSH(&ids, fid);
		if (used < sizeof cands - 100)
			used += (size_t)snprintf(cands + used, sizeof cands - used, "%s{\"module_id\": \"%s\", \"symbol\": \"%s\"}",
			                         used ? ", " : "", mod ? mod : "", name);
	}
	sqlite3_finalize(st);
	bool ok = false;
	if (rc < 0) {
		/* step said why */
	} else if (ids.len == 0) {
		if (module_id)
			error_set(err, "no definition of '%s' in module '%s'", symbol, module_id);
		else
			error_set(err, "no defined function '%s' in the catalog", symbol);
	} else if (ids.len > 1) {
		error_set(err, "'%s' names %zu definitions; give one as 'to': %s", symbol, ids.len, cands);
	} else {
		*id = ids.items[0];
		st = prep(o, "SELECT name, module_id FROM functions WHERE id = ?1");
		sqlite3_bind_int64(st, 1, *id);
		if (step(o, st, err) == 1 && sqlite3_column_text(st, 0)) {
			*sym = xstrdup((const char *)sqlite3_column_text(st, 0));
			const char *m = (const char *)sqlite3_column_text(st, 1);
			*module = xstrdup(m ? m : "");
			ok = true;
		} else {
			error_set(err, "%s: damaged catalog: table functions, row %u: no name", catalog_path(o->cat), *id);
		}
		sqlite3_finalize(st);
	}
	VEC_FREE(&ids);
	return ok;
}

/* The unresolved indirect sites of field fid in the overlay's graph. */
static bool field_sites(const overlay *o, int graph, unsigned fid, unsigned **sites, unsigned *n, facet_error *err)
{
	sqlite3_stmt *st = prep(o, "SELECT id FROM sites WHERE field = ?1 AND kind = 'indirect' AND "
	                           "(resolved & ?2) = 0 ORDER BY id");
	sqlite3_bind_int64(st, 1, fid);
	sqlite3_bind_int64(st, 2, 1 << graph);
	VEC(unsigned) v = {0};
	int rc;
	while ((rc = step(o, st, err)) == 1)
		VEC_PUSH(&v, (unsigned)sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	*sites = v.items;
	*n = (unsigned)v.len;
	return rc == 0;
}

/* Fills the attachment of e from a record's via_field or site, checked
 * against the record's graph (default: the overlay's). */
static bool attach(const overlay *o, json_t *rec, overlay_edge *e, facet_error *err)
{
	json_t *vf = json_object_get(rec, "via_field"), *site = json_object_get(rec, "site");
	json_t *gj = json_object_get(rec, "graph");
	int graph = o->graph;
	if (gj) {
		graph = cg_graph_parse(json_string_value(gj));
		if (graph < 0 || !catalog_has_graph(o->cat, graph)) {
			error_set(err, "'graph' must name a graph of this catalog");
			return false;
		}
	}
	e->graph = graph;
	const char *g = cg_graph_name(graph);
	if ((vf != NULL) == (site != NULL)) {
		error_set(err, "give exactly one of 'via_field' and 'site'");
		return false;
	}
	if (vf) {
		const char *record = json_string_value(json_object_get(vf, "record"));
		json_t *off = json_object_get(vf, "offset");
		if (!json_is_object(vf) || !record || !json_is_integer(off) || json_integer_value(off) < 0) {
			error_set(err, "'via_field' must be {\"record\": NAME, \"offset\": BYTES}");
			return false;
		}
		if (!catalog_has_refinement(o->cat)) {
			error_set(err, "this catalog has no recovered fields (the refinement did not run); "
			               "record with 'site' instead");
			return false;
		}
		/* a C++ global's field by its label (record, as answers show it) or its symbol (key) */
		/* (the edge keeps the catalog's record, the label, whichever was given) */
		sqlite3_stmt *st = prep(o, "SELECT id, record FROM fields WHERE offset = ?2 AND (record = ?1 OR "
		                           "(kind <> 'struct' AND key = ?1)) ORDER BY id");
		sqlite3_bind_text(st, 1, record, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, json_integer_value(off));
		int rc = step(o, st, err);
		bool found = rc == 1;
		e->field = found ? (unsigned)sqlite3_column_int64(st, 0) : 0;
		char *shown = found && sqlite3_column_text(st, 1) ? xstrdup((const char *)sqlite3_column_text(st, 1)) : NULL;
		sqlite3_finalize(st);
		if (rc < 0)
			return false;
		if (!found) {
			error_set(err, "no field %s@%lld in the catalog (resolution_candidates lists the fields)", record,
			          (long long)json_integer_value(off));
			return false;
		}
		e->via_field = true;
		e->record = shown ? shown : xstrdup(record);
		e->offset = (uint64_t)json_integer_value(off);
		if (!field_sites(o, graph, e->field, &e->sites, &e->n_sites, err))
			return false;
		if (e->n_sites == 0) {
			error_set(err, "field %s@%llu has no unresolved indirect site in graph %s: its sites are bounded",
			          record, (unsigned long long)e->offset, g);
			return false;
		}
		return true;
	}
	if (!json_is_integer(site) || json_integer_value(site) < 0) {
		error_set(err, "'site' must be a site id (a non-negative integer)");
		return false;
	}
	sqlite3_stmt *st = prep(o, "SELECT kind, resolved, (SELECT count(*) FROM edges WHERE caller = sites.caller AND site = ?1 AND "
	                           "(graphs & ?2)) FROM sites WHERE id = ?1");
	sqlite3_bind_int64(st, 1, json_integer_value(site));
	sqlite3_bind_int64(st, 2, 1 << graph);
	bool ok = false;
	int rc = step(o, st, err);
	if (rc < 0) {
		/* step said why */
	} else if (rc == 0) {
		error_set(err, "no site %lld in the catalog", (long long)json_integer_value(site));
	} else if (!sqlite3_column_text(st, 0)) {
		error_set(err, "%s: damaged catalog: table sites, row %lld: kind is NULL", catalog_path(o->cat),
		          (long long)json_integer_value(site));
	} else if (strcmp((const char *)sqlite3_column_text(st, 0), "indirect") != 0) {
		error_set(err, "site %lld is a %s call, not an indirect one: edges attach only to unresolved indirect sites",
		          (long long)json_integer_value(site), (const char *)sqlite3_column_text(st, 0));
	} else if (sqlite3_column_int64(st, 1) & (1 << graph)) {
		error_set(err, "site %lld is bounded in graph %s (%lld targets): edges attach only to unresolved "
		               "indirect sites", (long long)json_integer_value(site), g, sqlite3_column_int64(st, 2));
	} else {
		ok = true;
		e->site = (unsigned)json_integer_value(site);
		e->sites = xmalloc(sizeof *e->sites);
		e->sites[0] = e->site;
		e->n_sites = 1;
	}
	sqlite3_finalize(st);
	return ok;
}

static bool check_keys(json_t *rec, const char *const *allowed, facet_error *err)
{
	const char *k;
	json_t *v;
	json_object_foreach(rec, k, v) {
		bool ok = false;
		for (size_t i = 0; allowed[i]; i++)
			ok = ok || strcmp(k, allowed[i]) == 0;
		if (!ok) {
			error_set(err, "unknown key '%s' in a '%s' record", k, json_string_value(json_object_get(rec, "op")));
			return false;
		}
	}
	return true;
}

/* Index of the live edge matching a verify/retract record's `edge` key. */
static bool find_edge(const overlay *o, edge_vec *v, json_t *key, size_t *index, facet_error *err)
{
	if (!json_is_object(key)) {
		error_set(err, "'edge' must be the key of an edge as list_overlay prints it");
		return false;
	}
	overlay_edge probe = {0};
	json_t *vf = json_object_get(key, "via_field"), *site = json_object_get(key, "site");
	if ((vf != NULL) == (site != NULL)) {
		error_set(err, "'edge' needs exactly one of 'via_field' and 'site'");
		return false;
	}
	if (!resolve_to(o, json_object_get(key, "to"), &probe.to, &probe.to_symbol, &probe.to_module, err))
		return false;
	const char *record = vf ? json_string_value(json_object_get(vf, "record")) : NULL;
	json_t *off = vf ? json_object_get(vf, "offset") : NULL;
	if (vf && (!record || !json_is_integer(off))) {
		error_set(err, "'edge.via_field' must be {\"record\": NAME, \"offset\": BYTES}");
		edge_free(&probe);
		return false;
	}
	if (site && !json_is_integer(site)) {
		error_set(err, "'edge.site' must be a site id");
		edge_free(&probe);
		return false;
	}
	for (size_t i = 0; i < v->len; i++) {
		const overlay_edge *e = &v->items[i];
		if (e->to != probe.to || e->via_field != (vf != NULL))
			continue;
		if (vf ? (strcmp(e->record, record) == 0 && e->offset == (uint64_t)json_integer_value(off))
		       : e->site == (unsigned)json_integer_value(site)) {
			*index = i;
			edge_free(&probe);
			return true;
		}
	}
	error_set(err, "no such edge in the overlay (to %s); list_overlay shows the keys", probe.to_symbol);
	edge_free(&probe);
	return false;
}

/* The record's provenance as a non-empty array of non-empty strings (a
 * string alone is one line), a new reference; NULL + err otherwise. */
static json_t *provenance_of(json_t *rec, facet_error *err)
{
	json_t *prov = json_object_get(rec, "provenance");
	if (json_is_string(prov))
		prov = json_pack("[O]", prov);
	else
		json_incref(prov);
	bool prov_ok = json_is_array(prov) && json_array_size(prov) > 0;
	for (size_t i = 0; prov_ok && i < json_array_size(prov); i++) {
		const char *p = json_string_value(json_array_get(prov, i));
		prov_ok = p && *p;
	}
	if (!prov_ok) {
		json_decref(prov);
		error_set(err, "'provenance' is required: the source lines behind the edge, as a non-empty "
		               "array of strings (\"file:line: text\")");
		return NULL;
	}
	return prov;
}

/* add: a new edge, or an existing one's confidence and provenance updated
 * (its verdict stays: only retract resets it). */
static bool apply_add(const overlay *o, edge_vec *v, json_t *rec, json_t **norm, facet_error *err)
{
	static const char *const keys[] = {"op", "via_field", "site", "to", "confidence", "provenance", "graph",
	                                   NULL};
	if (!check_keys(rec, keys, err))
		return false;
	overlay_confidence conf = overlay_confidence_parse(json_string_value(json_object_get(rec, "confidence")));
	if (!conf) {
		error_set(err, "'confidence' must be high, medium or low");
		return false;
	}
	json_t *prov = provenance_of(rec, err);
	if (!prov)
		return false;
	overlay_edge e = {.confidence = conf, .provenance = prov};
	if (!json_object_get(rec, "to")) {
		edge_free(&e);
		error_set(err, "missing 'to'");
		return false;
	}
	if (!attach(o, rec, &e, err) ||
	    !resolve_to(o, json_object_get(rec, "to"), &e.to, &e.to_symbol, &e.to_module, err)) {
		edge_free(&e);
		return false;
	}
	/* An add on an existing edge updates confidence and provenance; its
	 * verdict stays (only retract resets it). */
	size_t at = v->len;
	for (size_t i = 0; i < v->len && at == v->len; i++) {
		overlay_edge *x = &v->items[i];
		if (x->to == e.to && x->via_field == e.via_field &&
		    (e.via_field ? x->field == e.field : x->site == e.site))
			at = i;
	}
	if (at < v->len) {
		overlay_edge *x = &v->items[at];
		if (x->confidence == e.confidence && x->graph == e.graph && json_equal(x->provenance, e.provenance)) {
			edge_free(&e);   /* the same add again changes nothing: not logged twice */
			*norm = NULL;
			return true;
		}
		x->confidence = e.confidence;
		x->graph = e.graph;
		free(x->sites);
		x->sites = e.sites;
		x->n_sites = e.n_sites;
		e.sites = NULL;
		json_decref(x->provenance);
		x->provenance = json_incref(e.provenance);
		edge_free(&e);
	} else {
		VEC_PUSH(v, e);
	}
	const overlay_edge *x = &v->items[at];
	json_t *n = json_deep_copy(rec);
	json_object_set_new(n, "to", json_pack("{s:s, s:s}", "module_id", x->to_module, "symbol", x->to_symbol));
	json_object_set(n, "provenance", x->provenance);
	json_object_set_new(n, "graph", json_string(cg_graph_name(x->graph)));
	*norm = n;
	return true;
}

static bool apply_verify(const overlay *o, edge_vec *v, json_t *rec, json_t **norm, facet_error *err)
{
	static const char *const keys[] = {"op", "edge", "tool", "verdict", "note", NULL};
	if (!check_keys(rec, keys, err))
		return false;
	const char *tool = json_string_value(json_object_get(rec, "tool"));
	const char *verdict = json_string_value(json_object_get(rec, "verdict"));
	if (!tool || (strcmp(tool, "reread") && strcmp(tool, "svf") && strcmp(tool, "phasar"))) {
		error_set(err, "'tool' must be reread, svf or phasar");
		return false;
	}
	overlay_verdict vd = !verdict ? VERDICT_NONE
	                     : !strcmp(verdict, "confirmed") ? VERDICT_CONFIRMED
	                     : !strcmp(verdict, "refuted") ? VERDICT_REFUTED
	                     : !strcmp(verdict, "inconclusive") ? VERDICT_INCONCLUSIVE : VERDICT_NONE;
	if (vd == VERDICT_NONE) {
		error_set(err, "'verdict' must be confirmed, refuted or inconclusive");
		return false;
	}
	size_t i;
	if (!find_edge(o, v, json_object_get(rec, "edge"), &i, err))
		return false;
	overlay_edge *x = &v->items[i];
	x->verdict = vd;
	free(x->verdict_tool);
	x->verdict_tool = xstrdup(tool);
	json_t *n = json_deep_copy(rec);
	json_object_set_new(n, "edge", overlay_edge_key(x));
	*norm = n;
	return true;
}

static bool apply_retract(const overlay *o, edge_vec *v, json_t *rec, json_t **norm, facet_error *err)
{
	static const char *const keys[] = {"op", "edge", "reason", NULL};
	if (!check_keys(rec, keys, err))
		return false;
	const char *reason = json_string_value(json_object_get(rec, "reason"));
	if (!reason || !*reason) {
		error_set(err, "'reason' is required on a retract");
		return false;
	}
	size_t i;
	if (!find_edge(o, v, json_object_get(rec, "edge"), &i, err))
		return false;
	json_t *n = json_deep_copy(rec);
	json_object_set_new(n, "edge", overlay_edge_key(&v->items[i]));
	edge_free(&v->items[i]);
	memmove(&v->items[i], &v->items[i + 1], (v->len - i - 1) * sizeof *v->items);
	v->len--;
	*norm = n;
	return true;
}

/* Applies one record to v; on success *norm is the record as the log keeps
 * it (`to` resolved to {module_id, symbol}), NULL when it changed nothing. */
static bool apply_one(const overlay *o, edge_vec *v, json_t *rec, json_t **norm, facet_error *err)
{
	if (!json_is_object(rec)) {
		error_set(err, "a record must be a JSON object");
		return false;
	}
	const char *op = json_string_value(json_object_get(rec, "op"));
	if (!op) {
		error_set(err, "missing 'op' (add, verify or retract)");
		return false;
	}
	if (strcmp(op, "add") == 0)
		return apply_add(o, v, rec, norm, err);
	if (strcmp(op, "verify") == 0)
		return apply_verify(o, v, rec, norm, err);
	if (strcmp(op, "retract") == 0)
		return apply_retract(o, v, rec, norm, err);
	error_set(err, "unknown op '%s' (add, verify or retract)", op);
	return false;
}

json_t *overlay_edge_key(const overlay_edge *e)
{
	json_t *to = json_pack("{s:s, s:s}", "module_id", e->to_module ? e->to_module : "", "symbol",
	                       e->to_symbol ? e->to_symbol : "");
	if (e->via_field)
		return json_pack("{s:{s:s, s:I}, s:o}", "via_field", "record", e->record, "offset",
		                 (json_int_t)e->offset, "to", to);
	return json_pack("{s:I, s:o}", "site", (json_int_t)e->site, "to", to);
}

/* Applies batch on top of (edges, log) into a new state; swaps it in when
 * every record passed. Starting from the current state instead of
 * replaying the log keeps a batch's cost independent of the log's length.
 * A record that changes nothing (the same add again) is not logged;
 * *added counts the records logged. */
static bool apply_batch(overlay *o, const edge_vec *edges, json_t *log, json_t *batch, bool batch_is_file,
                        size_t *added, facet_error *err)
{
	edge_vec v = {0};
	for (size_t k = 0; k < edges->len; k++)
		VEC_PUSH(&v, edge_clone(&edges->items[k]));
	json_t *newlog = json_array();
	json_array_extend(newlog, log);
	size_t i, n_added = 0;
	json_t *rec;
	json_array_foreach(batch, i, rec) {
		json_t *n = NULL;
		facet_error e = {0};
		if (!apply_one(o, &v, rec, &n, &e)) {
			error_set(err, "record %zu%s: %s (no record of the batch was applied)", i,
			          batch_is_file ? " of the file" : "", e.msg);
			edges_free(&v);
			json_decref(newlog);
			return false;
		}
		if (n) {
			json_array_append_new(newlog, n);
			n_added++;
		}
	}
	edges_free(&o->edges);
	o->edges = v;
	json_decref(o->log);
	o->log = newlog;
	if (added)
		*added = n_added;
	return true;
}

bool overlay_apply(overlay *o, json_t *records, int graph, facet_error *err)
{
	o->graph = graph >= 0 && catalog_has_graph(o->cat, graph) ? graph : o->default_graph;
	if (!json_is_array(records)) {
		error_set(err, "'records' must be an array of records");
		return false;
	}
	size_t added = 0;
	if (!apply_batch(o, &o->edges, o->log, records, false, &added, err))
		return false;
	if (added > 0)
		o->dirty = true;
	return true;
}

/* ---- the file ------------------------------------------------------------------------- */

json_t *overlay_parse_lines(const char *text, size_t len, facet_error *err)
{
	json_t *arr = json_array();
	size_t line = 0;
	for (size_t pos = 0; pos < len;) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		line++;
		size_t a = pos, b = end;
		while (a < b && (text[a] == ' ' || text[a] == '\t' || text[a] == '\r'))
			a++;
		while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\r'))
			b--;
		if (b > a && text[a] != '#') {
			json_error_t je;
			json_t *rec = json_loadb(text + a, b - a, JSON_REJECT_DUPLICATES, &je);
			if (!rec) {
				/* jansson's text may quote the input ("near 'root'"): never
				 * echo a file's content, which may not be ours to show. */
				char why[160];
				snprintf(why, sizeof why, "%s", je.text);
				char *near = strstr(why, " near ");
				if (near)
					*near = 0;
				error_set(err, "line %zu: not JSON: %s (column %d)", line, why, je.column);
				json_decref(arr);
				return NULL;
			}
			if (!json_is_object(rec)) {
				error_set(err, "line %zu: a record must be a JSON object", line);
				json_decref(rec);
				json_decref(arr);
				return NULL;
			}
			json_array_append_new(arr, rec);
		}
		pos = end + 1;
	}
	return arr;
}

/* Overlays are hand-sized; a bigger file is not one (or is an attack). */
enum { OVERLAY_MAX_BYTES = 64 << 20 };

static bool is_overlay_file(const unsigned char *head, size_t n)
{
	const unsigned char *nl = memchr(head, '\n', n);
	size_t line = nl ? (size_t)(nl - head) : n;
	return line > 0 && head[0] == '{' && memmem(head, line, "\"facet_overlay\"", 15) != NULL;
}

static const atomic_target overlay_target = {.what = "the overlay", .kind = is_overlay_file,
                                             .kind_name = "a facet overlay"};

/* Parses an overlay file's text: the header checked against o's catalog,
 * the records returned (new reference). */
static json_t *parse_file(const overlay *o, const char *path, const char *text, size_t len, facet_error *err)
{
	facet_error e = {0};
	json_t *lines = overlay_parse_lines(text, len, &e);
	if (!lines) {
		error_set(err, "%s: not a facet overlay: %s", path, e.msg);
		return NULL;
	}
	json_t *head = json_array_get(lines, 0);
	json_t *ver = json_object_get(head, "facet_overlay");
	const char *fp = json_string_value(json_object_get(head, "catalog_fingerprint"));
	if (!head || !ver || !fp) {
		error_set(err, "%s: not a facet overlay (its first line must be the header with "
		               "\"facet_overlay\" and \"catalog_fingerprint\")", path);
		json_decref(lines);
		return NULL;
	}
	if (!json_is_integer(ver) || json_integer_value(ver) != 1) {
		error_set(err, "%s: overlay format version %s%s, this facet reads version 1", path,
		          json_is_integer(ver) ? "" : "(not an integer) ",
		          json_is_integer(ver) ? (json_integer_value(ver) == 2 ? "2" : "other than 1") : "");
		json_decref(lines);
		return NULL;
	}
	if (strcmp(fp, catalog_fingerprint_of(o->cat)) != 0) {
		error_set(err, "%s: recorded against catalog fingerprint %s, but %s has fingerprint %s (rebuilt from "
		               "other inputs or options); move or delete the overlay, or name another with --overlay, "
		               "and record again", path, fp, catalog_path(o->cat), catalog_fingerprint_of(o->cat));
		json_decref(lines);
		return NULL;
	}
	json_array_remove(lines, 0);
	return lines;
}

static void remember_file(overlay *o, const char *path, bool existed, const char *text, size_t len)
{
	if (!o->file_path || strcmp(o->file_path, path) != 0) {
		free(o->file_path);
		o->file_path = xstrdup(path);
	}
	o->file_existed = existed;
	o->file_hash = existed ? hash_fnv64(HASH_FNV64_INIT, text, len) : 0;
	o->n_synced = json_array_size(o->log);
}

static char *render(const overlay *o, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	json_t *head = json_pack("{s:i, s:s, s:s}", "facet_overlay", 1, "catalog_fingerprint",
	                         catalog_fingerprint_of(o->cat), "catalog", catalog_path(o->cat));
	json_dumpf(head, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(head);
	size_t i;
	json_t *rec;
	json_array_foreach(o->log, i, rec) {
		json_dumpf(rec, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputc('\n', f);
	}
	fclose(f);
	return text;
}

/* Holds PATH.lock exclusively: saves to one overlay are serialised, so
 * each sees the file the previous one wrote. -1 and err on failure. */
static int lock_file(const char *path, facet_error *err)
{
	size_t n = strlen(path) + 8;
	char *lp = xmalloc(n);
	snprintf(lp, n, "%s.lock", path);
	int fd = open(lp, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		error_set(err, "%s: cannot lock the overlay (%s): %s", path, lp,
		          fd < 0 ? strerror(errno) : "the lock is not a regular file");
		if (fd >= 0)
			close(fd);
		free(lp);
		return -1;
	}
	free(lp);
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			error_set(err, "%s: cannot lock the overlay: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Under the lock: when the file changed since o last read or wrote it
 * (another writer saved), o's state becomes the file's records followed by
 * o's records not yet in a file, so nothing either writer was told was
 * saved is dropped. False (and o unchanged) when ours no longer apply. */
static bool merge_disk(overlay *o, const char *path, facet_error *err)
{
	char *text = NULL;
	size_t len = 0;
	struct stat st;
	bool exists = lstat(path, &st) == 0;
	if (!exists)
		return true;   /* nothing to merge: atomic_open checks the kind of what is there */
	if (!S_ISREG(st.st_mode))
		return atomic_check_target(path, &overlay_target, err);
	if (!fsio_read_file(path, OVERLAY_MAX_BYTES, "the overlay", &text, &len, err))
		return false;
	bool same = o->file_path && strcmp(o->file_path, path) == 0 && o->file_existed &&
	            hash_fnv64(HASH_FNV64_INIT, text, len) == o->file_hash;
	if (same) {
		free(text);
		return true;
	}
	if (!is_overlay_file((const unsigned char *)text, len)) {
		free(text);
		return atomic_check_target(path, &overlay_target, err);
	}
	json_t *disk = parse_file(o, path, text, len, err);
	free(text);
	if (!disk)
		return false;
	/* Ours not in any file yet: all of them when the file is another one. */
	bool ours_file = o->file_path && strcmp(o->file_path, path) == 0;
	size_t from = ours_file ? o->n_synced : 0;
	json_t *mine = json_array();
	for (size_t i = from; i < json_array_size(o->log); i++)
		json_array_append(mine, json_array_get(o->log, i));
	overlay *fresh = overlay_new(o->cat);
	fresh->graph = o->graph;
	facet_error e = {0};
	bool ok = apply_batch(fresh, &fresh->edges, fresh->log, disk, true, NULL, &e);
	size_t n_disk = json_array_size(fresh->log);
	ok = ok && apply_batch(fresh, &fresh->edges, fresh->log, mine, false, NULL, &e);
	json_decref(disk);
	json_decref(mine);
	if (!ok) {
		error_set(err, "%s: changed since it was read (another writer saved) and cannot be merged: %s; "
		               "nothing was written, the records stay unsaved", path, e.msg);
		overlay_free(fresh);
		return false;
	}
	edges_free(&o->edges);
	o->edges = fresh->edges;
	fresh->edges = (edge_vec){0};
	json_decref(o->log);
	o->log = fresh->log;
	fresh->log = NULL;
	overlay_free(fresh);
	(void)n_disk;
	return true;
}

bool overlay_save(overlay *o, const char *path, facet_error *err)
{
	if (!atomic_check_target(path, &overlay_target, err))
		return false;
	int lock = lock_file(path, err);
	if (lock < 0)
		return false;
	bool ok = merge_disk(o, path, err);
	size_t len = 0;
	char *text = ok ? render(o, &len) : NULL;
	atomic_file af;
	ok = ok && atomic_open(&af, path, &overlay_target, err);
	if (ok && !(atomic_write(&af, text, len, err) && atomic_commit(&af, err))) {
		atomic_abort(&af);
		ok = false;
	}
	if (ok) {
		remember_file(o, path, true, text, len);
		o->dirty = false;
	}
	free(text);
	close(lock);   /* releases the lock */
	return ok;
}

bool overlay_load(overlay *o, const char *path, facet_error *err)
{
	char *text = NULL;
	size_t len = 0;
	if (!fsio_read_file(path, OVERLAY_MAX_BYTES, "the overlay", &text, &len, err))
		return false;
	json_t *lines = parse_file(o, path, text, len, err);
	if (!lines) {
		free(text);
		return false;
	}
	json_t *empty = json_array();
	edge_vec none = {0};
	facet_error e = {0};
	bool ok = apply_batch(o, &none, empty, lines, true, NULL, &e);
	json_decref(empty);
	json_decref(lines);
	if (!ok) {
		error_set(err, "%s: %s", path, e.msg);
		free(text);
		return false;
	}
	remember_file(o, path, true, text, len);
	free(text);
	o->dirty = false;
	return true;
}
