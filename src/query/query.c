/* query.c — the session, argument helpers, rows as JSON, and the dispatch
 * from verb names to the verbs (verbs.c, walk.c, overlay_verbs.c).
 *
 * Every query reads SQLite only; statements are prepared once per session
 * and reused, and edges come from the graph's adjacency arrays, read once
 * per session (catalog.h), never from one SQL lookup per function: that kept
 * SQLite's VM busy for most of a walk. Nothing a query does on every call
 * scans a whole table. */
#include "query/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facet/explain.h"
#include "util/xalloc.h"

/* ---- session ------------------------------------------------------------------------- */

void q_damaged(query_session *s, const char *fmt, ...)
{
	if (s->damage.set)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->damage.msg, sizeof s->damage.msg, fmt, ap);
	va_end(ap);
	s->damage.set = 1;
}

/* The statements are static text: one that does not prepare is a facet bug
 * or a catalog whose tables were changed, never a condition to answer
 * around, so it fails the whole call (query_call) with SQLite's reason.
 * SQLite treats a NULL statement as a misuse and does nothing, so the
 * caller's binds and steps on it are harmless until then. */
sqlite3_stmt *q_stmt(query_session *s, const char *sql)
{
	sqlite3_stmt *st = strmap_get(&s->stmts, sql);
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return st;
	}
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		q_damaged(s, "a query statement does not prepare (a changed catalog, or a bug in facet): %s; SQL: %.160s",
		          sqlite3_errmsg(s->db), sql);
		sqlite3_finalize(st);
		return NULL;
	}
	strmap_put(&s->stmts, xstrdup(sql), st);
	return st;
}

bool q_step(query_session *s, sqlite3_stmt *st)
{
	if (!st)
		return false;   /* q_stmt recorded why */
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return true;
	if (rc != SQLITE_DONE)
		q_damaged(s, "reading the catalog failed: %s", sqlite3_errmsg(s->db));
	return false;
}

static bool count_rows(query_session *s, const char *sql, unsigned *out)
{
	sqlite3_stmt *st = q_stmt(s, sql);
	if (!st || !q_step(s, st))
		return false;
	*out = (unsigned)sqlite3_column_int64(st, 0);
	return true;
}

query_session *query_open(const char *catalog_path, facet_error *err)
{
	catalog *c = catalog_open(catalog_path, err);
	if (!c)
		return NULL;
	query_session *s = xcalloc(1, sizeof *s);
	s->cat = c;
	s->db = catalog_db(c);
	strmap_init(&s->stmts);
	/* Ids are dense, so max + 1 is the count, without reading every row. */
	if (!count_rows(s, "SELECT coalesce(max(id) + 1, 0) FROM functions", &s->n_functions) ||
	    !count_rows(s, "SELECT coalesce(max(id) + 1, 0) FROM sites", &s->n_sites)) {
		error_set(err, "%s: damaged catalog (%s)", catalog_path, sqlite3_errmsg(s->db));
		query_close(s);
		return NULL;
	}
	s->intrinsic = xcalloc(s->n_functions + 1, 1);
	sqlite3_stmt *st = q_stmt(s, "SELECT id FROM functions WHERE intrinsic");
	while (st && q_step(s, st)) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		if (id >= 0 && id < s->n_functions)
			s->intrinsic[id] = 1;
	}
	s->ov = overlay_new(c);
	size_t n = strlen(catalog_path) + 16;
	s->overlay_path = xmalloc(n);
	snprintf(s->overlay_path, n, "%s.overlay", catalog_path);
	if (access(s->overlay_path, F_OK) == 0) {
		facet_error oe = {0};
		if (!overlay_load(s->ov, s->overlay_path, &oe))
			s->overlay_error = xstrdup(oe.msg);
	}
	return s;
}

void query_close(query_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->stmts.cap; i++)
		if (s->stmts.slots[i].key) {
			sqlite3_finalize(s->stmts.slots[i].value);
			free((char *)s->stmts.slots[i].key);
		}
	strmap_free(&s->stmts);
	for (int g = 0; g < CG_N_GRAPHS; g++)
		catalog_adjacency_free(s->adj[g]);
	overlay_free(s->ov);
	q_collapsed_free(s->collapsed);
	catalog_close(s->cat);
	free(s->intrinsic);
	for (unsigned i = 0; s->names && i < s->n_functions; i++) {
		free(s->names[i]);
		free(s->symbols[i]);
	}
	free(s->names);
	free(s->symbols);
	free(s->overlay_path);
	free(s->overlay_error);
	free(s);
}

void query_set_module_writer(query_session *s, query_module_writer w)
{
	s->write_module = w;
}

bool query_overlay_pending(const query_session *s)
{
	return s && s->ov && overlay_pending(s->ov);
}

/* ---- arguments ----------------------------------------------------------------------- */

const char *q_str(qctx *q, const char *key)
{
	return json_string_value(json_object_get(q->args, key));
}

bool q_int(qctx *q, const char *key, long long *out, bool required)
{
	json_t *v = json_object_get(q->args, key);
	if (!v) {
		if (required)
			error_set(q->err, "missing argument '%s'", key);
		return false;
	}
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return true;
	}
	if (json_is_string(v)) {
		char *end;
		long long x = strtoll(json_string_value(v), &end, 10);
		if (*json_string_value(v) && *end == 0) {
			*out = x;
			return true;
		}
	}
	error_set(q->err, "argument '%s' must be an integer", key);
	return false;
}

bool q_bool(qctx *q, const char *key)
{
	json_t *v = json_object_get(q->args, key);
	return v && (json_is_true(v) || (json_is_integer(v) && json_integer_value(v)));
}

/* A function is named by its linked name or its source name (a bare
 * identifier), or by {"module_id", "symbol"} when a static of that name is
 * defined in several modules; anything naming several is refused with the
 * candidates listed. */
bool q_function(qctx *q, const char *key, unsigned *id)
{
	json_t *v = json_object_get(q->args, key);
	const char *name = json_string_value(v), *module = NULL;
	if (json_is_object(v)) {
		name = json_string_value(json_object_get(v, "symbol"));
		module = json_string_value(json_object_get(v, "module_id"));
		if (!name || !module) {
			error_set(q->err, "argument '%s' as an object needs string \"module_id\" and \"symbol\"", key);
			return false;
		}
	}
	if (!name || !*name) {
		error_set(q->err, "missing argument '%s' (a function name)", key);
		return false;
	}
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id, name, module_id FROM functions WHERE (name = ?1 OR source_name = ?1) "
	                                "AND (?2 IS NULL OR module_id = ?2) ORDER BY defined DESC, id");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	if (module)
		sqlite3_bind_text(st, 2, module, -1, SQLITE_TRANSIENT);
	unsigned n = 0, first = 0;
	char cands[800] = "";
	size_t used = 0;
	while (q_step(q->s, st)) {
		if (n++ == 0)
			first = (unsigned)sqlite3_column_int64(st, 0);
		const char *mod = (const char *)sqlite3_column_text(st, 2);
		if (used < sizeof cands - 120)
			used += (size_t)snprintf(cands + used, sizeof cands - used,
			                         "%s{\"module_id\": \"%s\", \"symbol\": \"%s\"}", used ? ", " : "",
			                         mod ? mod : "", (const char *)sqlite3_column_text(st, 1));
	}
	if (n == 1) {
		*id = first;
		return true;
	}
	if (n == 0 && module)
		error_set(q->err, "no function '%s' in module '%s'", name, module);
	else if (n == 0) {
		char near[512];
		q_suggest(q, name, near, sizeof near);
		if (*near)
			error_set(q->err, "no function '%s' in the catalog; did you mean %s?", name, near);
		else
			error_set(q->err, "no function '%s' in the catalog", name);
	}
	else
		error_set(q->err, "'%s' names %u functions; name one as {\"module_id\", \"symbol\"}: %s", name, n, cands);
	return false;
}

bool query_location_parse(const char *loc, char *file, size_t cap, long long *line)
{
	const char *colon = strrchr(loc, ':');
	char *end;
	long long l = colon ? strtoll(colon + 1, &end, 10) : 0;
	if (!colon || colon == loc || !colon[1] || *end || l <= 0 || (size_t)(colon - loc) >= cap)
		return false;
	memcpy(file, loc, (size_t)(colon - loc));
	file[colon - loc] = 0;
	*line = l;
	return true;
}

bool q_file_line(qctx *q, const char **file, long long *line)
{
	const char *loc = q_str(q, "location");
	char *buf = q->loc_file;
	if (loc && !q_str(q, "file")) {
		if (!query_location_parse(loc, buf, sizeof q->loc_file, line)) {
			error_set(q->err, "location '%s' is not FILE:LINE", loc);
			return false;
		}
		*file = buf;
		return true;
	}
	*file = q_str(q, "file");
	if (!*file || !**file) {
		error_set(q->err, "missing argument 'file' (or 'location' FILE:LINE)");
		return false;
	}
	if (!q_int(q, "line", line, true))
		return false;
	if (*line <= 0) {
		error_set(q->err, "argument 'line' must be positive");
		return false;
	}
	return true;
}

/* ---- rows as JSON --------------------------------------------------------------------- */

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? json_string((const char *)t) : json_null();
}

json_t *q_fn_json(qctx *q, unsigned id)
{
	q_fn_name(q, id);   /* the names first: loading them runs a statement of its own */
	sqlite3_stmt *st = q_stmt(q->s, "SELECT source_name, module_id, file, line, defined, linkage, "
	                                "address_taken FROM functions WHERE id = ?1");
	sqlite3_bind_int64(st, 1, id);
	if (!q_step(q->s, st)) {
		q_damaged(q->s, "table functions has no row %u (a row of another table names it)", id);
		return json_pack("{s:I, s:s}", "id", (json_int_t)id, "name", "?");
	}
	json_t *o = json_object();
	json_object_set_new(o, "id", json_integer(id));
	q_fn_name_set(q, o, "name", id);
	json_object_set_new(o, "source_name", text_or_null(st, 0));
	json_object_set_new(o, "module_id", text_or_null(st, 1));
	json_object_set_new(o, "file", text_or_null(st, 2));
	json_object_set_new(o, "line", json_integer(sqlite3_column_int64(st, 3)));
	json_object_set_new(o, "defined", json_boolean(sqlite3_column_int(st, 4)));
	json_object_set_new(o, "linkage", text_or_null(st, 5));
	json_object_set_new(o, "address_taken", json_boolean(sqlite3_column_int(st, 6)));
	return o;
}

static void load_names(query_session *s)
{
	s->names = xcalloc(s->n_functions + 1, sizeof *s->names);
	s->symbols = xcalloc(s->n_functions + 1, sizeof *s->symbols);
	/* one scan instead of a lookup per function a walk names */
	sqlite3_stmt *st = q_stmt(s, "SELECT id, " CATALOG_FN_SHOWN("functions") ", name FROM functions");
	while (st && q_step(s, st)) {
		sqlite3_int64 i = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *linked = (const char *)sqlite3_column_text(st, 2);
		if (!name || !linked)
			q_damaged(s, "table functions, row %lld: name is NULL", (long long)i);
		else if (i >= 0 && i < s->n_functions && !s->names[i]) {
			s->names[i] = xstrdup(name);
			s->symbols[i] = strcmp(name, linked) != 0 ? xstrdup(linked) : NULL;
		}
	}
}

const char *q_fn_name(qctx *q, unsigned id)
{
	if (!q->s->names)
		load_names(q->s);
	return id < q->s->n_functions && q->s->names[id] ? q->s->names[id] : "?";
}

const char *q_fn_symbol(qctx *q, unsigned id)
{
	if (!q->s->names)
		load_names(q->s);
	return id < q->s->n_functions ? q->s->symbols[id] : NULL;
}

void q_fn_name_set(qctx *q, json_t *o, const char *key, unsigned id)
{
	facet_xname_set(o, key, q_fn_name(q, id), q_fn_symbol(q, id));
}

json_t *q_site_json(qctx *q, unsigned id)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT s.kind, f.name, s.file, s.line, s.col, s.call_type, s.caller FROM sites s "
	                                "LEFT JOIN functions f ON f.id = s.caller WHERE s.id = ?1");
	sqlite3_bind_int64(st, 1, id);
	bool row = q_step(q->s, st);
	if (!row || sqlite3_column_type(st, 0) != SQLITE_TEXT || sqlite3_column_type(st, 1) != SQLITE_TEXT) {
		if (!row)
			q_damaged(q->s, "table sites has no row %u", id);
		else if (sqlite3_column_type(st, 0) != SQLITE_TEXT)
			q_damaged(q->s, "table sites, row %u: kind is not text", id);
		else
			q_damaged(q->s, "table sites, row %u: caller %lld is not a row of table functions", id,
			          (long long)sqlite3_column_int64(st, 6));
		/* A well-formed placeholder: the call fails anyway (query_call). */
		return json_pack("{s:I, s:s, s:s}", "id", (json_int_t)id, "kind", "?", "caller", "?");
	}
	json_t *o = json_object();
	json_object_set_new(o, "id", json_integer(id));
	unsigned caller = (unsigned)sqlite3_column_int64(st, 6);
	json_object_set_new(o, "kind", text_or_null(st, 0));
	json_object_set_new(o, "file", text_or_null(st, 2));
	json_object_set_new(o, "line", json_integer(sqlite3_column_int64(st, 3)));
	json_object_set_new(o, "column", json_integer(sqlite3_column_int64(st, 4)));
	json_object_set_new(o, "call_type", text_or_null(st, 5));
	/* the caller as every answer names functions: C++ demangled, its symbol beside it */
	q_fn_name_set(q, o, "caller", caller);
	json_t *chain = json_array();
	st = q_stmt(q->s, "SELECT function, file, line, col FROM site_inlined WHERE site = ?1 ORDER BY depth");
	sqlite3_bind_int64(st, 1, id);
	while (q_step(q->s, st))
		json_array_append_new(chain, json_pack("{s:o, s:o, s:I, s:I}", "function", text_or_null(st, 0), "file",
		                                       text_or_null(st, 1), "line",
		                                       (json_int_t)sqlite3_column_int64(st, 2), "column",
		                                       (json_int_t)sqlite3_column_int64(st, 3)));
	json_object_set_new(o, "inlined_at", chain);
	return o;
}

json_t *q_agent_json(const overlay_edge *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "key", overlay_edge_key(e));
	json_object_set_new(o, "confidence", json_string(overlay_confidence_name(e->confidence)));
	json_object_set(o, "provenance", e->provenance);
	const char *v = overlay_verdict_name(e->verdict);
	json_object_set_new(o, "verdict", v ? json_string(v) : json_null());
	if (e->verdict_tool)
		json_object_set_new(o, "verdict_tool", json_string(e->verdict_tool));
	return o;
}

/* ---- edges for walks ------------------------------------------------------------------ */

/* The agent edges of the overlay at sites the walked graph leaves
 * unresolved: refuted edges and those under min_confidence are skipped. */
void q_build_agents(qctx *q)
{
	overlay *ov = q->s->ov;
	for (size_t i = 0; i < overlay_n_edges(ov); i++) {
		const overlay_edge *e = overlay_edge_at(ov, i);
		if (e->verdict == VERDICT_REFUTED || e->confidence < q->min_conf)
			continue;
		sqlite3_stmt *st;
		if (e->via_field) {
			st = q_stmt(q->s, "SELECT id, caller FROM sites WHERE field = ?1 AND kind = 'indirect' AND "
			                  "(resolved & ?2) = 0");
			sqlite3_bind_int64(st, 1, e->field);
		} else {
			st = q_stmt(q->s, "SELECT id, caller FROM sites WHERE id = ?1 AND kind = 'indirect' AND "
			                  "(resolved & ?2) = 0");
			sqlite3_bind_int64(st, 1, e->site);
		}
		sqlite3_bind_int64(st, 2, q->bit);
		while (q_step(q->s, st)) {
			agent_step a = {(unsigned)sqlite3_column_int64(st, 0), (unsigned)sqlite3_column_int64(st, 1), e->to, e};
			VEC_PUSH(&q->agents, a);
		}
	}
}

bool q_intrinsic(const qctx *q, unsigned fn)
{
	return fn < q->s->n_functions && q->s->intrinsic[fn];
}

void q_out_edges(qctx *q, unsigned fn, bool with_agents, q_edge_vec *out)
{
	const catalog_adjacency *a = q->adj;
	VEC_CLEAR(out);
	for (uint32_t s = fn < a->n_functions ? a->function_sites[fn] : 0;
	     fn < a->n_functions && s < a->function_sites[fn + 1]; s++) {
		uint32_t k = a->site_sets[s];
		if (k == CATALOG_NO_SET)
			continue;
		for (uint32_t i = a->set_offsets[k]; i < a->set_offsets[k + 1]; i++)
			if (!q_intrinsic(q, a->set_targets[i])) {
				q_edge e = {s, a->set_targets[i], NULL};
				VEC_PUSH(out, e);
			}
	}
	if (with_agents)
		for (size_t i = 0; i < q->agents.len; i++)
			if (q->agents.items[i].caller == fn) {
				q_edge e = {q->agents.items[i].site, q->agents.items[i].target, q->agents.items[i].edge};
				VEC_PUSH(out, e);
			}
}

static int edge_site_cmp(const void *x, const void *y)
{
	const q_edge *a = x, *b = y;
	return a->site < b->site ? -1 : a->site > b->site;
}

void q_in_edges(qctx *q, unsigned fn, bool with_agents, q_edge_vec *out)
{
	const catalog_adjacency *a = q->adj;
	VEC_CLEAR(out);
	/* The sites whose target set holds fn: per set ascending, merged. */
	for (uint32_t i = fn < a->n_functions ? a->target_offsets[fn] : 0;
	     fn < a->n_functions && i < a->target_offsets[fn + 1]; i++) {
		uint32_t k = a->target_sets[i];
		for (uint32_t j = a->set_site_offsets[k]; j < a->set_site_offsets[k + 1]; j++) {
			q_edge e = {a->set_sites[j], a->site_caller[a->set_sites[j]], NULL};
			VEC_PUSH(out, e);
		}
	}
	if (out->len > 1)
		qsort(out->items, out->len, sizeof *out->items, edge_site_cmp);
	if (with_agents)
		for (size_t i = 0; i < q->agents.len; i++)
			if (q->agents.items[i].target == fn) {
				q_edge e = {q->agents.items[i].site, q->agents.items[i].caller, q->agents.items[i].edge};
				VEC_PUSH(out, e);
			}
}

static bool site_covered(qctx *q, unsigned site)
{
	for (size_t i = 0; i < q->agents.len; i++)
		if (q->agents.items[i].site == site)
			return true;
	return false;
}

static int unsigned_cmp(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
	return a < b ? -1 : a > b;
}

/* The distinct sites agent edges cover (q_build_agents keeps only sites the
 * graph leaves unresolved). */
static unsigned agent_sites(qctx *q)
{
	if (!q->agents.len)
		return 0;
	unsigned *sites = xmalloc(q->agents.len * sizeof *sites);
	for (size_t i = 0; i < q->agents.len; i++)
		sites[i] = q->agents.items[i].site;
	qsort(sites, q->agents.len, sizeof *sites, unsigned_cmp);
	unsigned n = 1;
	for (size_t i = 1; i < q->agents.len; i++)
		n += sites[i] != sites[i - 1];
	free(sites);
	return n;
}

/* The graph's unresolved indirect sites, read once per call (there are few:
 * hundreds on nginx) and kept sorted by caller. */
static void load_unresolved(qctx *q)
{
	q->unres_loaded = true;
	VEC(unsigned) callers = {0};
	VEC(unsigned) sites = {0};
	sqlite3_stmt *st = q_stmt(q->s, "SELECT caller, id FROM sites INDEXED BY sites_indirect WHERE kind = 'indirect' AND "
	                                "(resolved & ?1) = 0 "
	                                "ORDER BY caller, id");
	sqlite3_bind_int64(st, 1, q->bit);
	while (q_step(q->s, st)) {
		VEC_PUSH(&callers, (unsigned)sqlite3_column_int64(st, 0));
		VEC_PUSH(&sites, (unsigned)sqlite3_column_int64(st, 1));
	}
	q->unres_caller = callers.items;
	q->unres_site = sites.items;
	q->n_unres = callers.len;
	/* A direct site with edges and no one callee: a name several units
	 * define (only facet source writes them; sites_callee finds them). */
	VEC(unsigned) ac = {0};
	VEC(unsigned) as = {0};
	st = q_stmt(q->s, "SELECT caller, id FROM sites WHERE callee IS NULL AND kind = 'direct' "
	                  "AND target_set IS NOT NULL ORDER BY caller, id");
	while (q_step(q->s, st)) {
		VEC_PUSH(&ac, (unsigned)sqlite3_column_int64(st, 0));
		VEC_PUSH(&as, (unsigned)sqlite3_column_int64(st, 1));
	}
	q->amb_caller = ac.items;
	q->amb_site = as.items;
	q->n_amb = ac.len;
}

/* The first index of fn's run in callers[0..n) (sorted). */
static size_t first_of(const unsigned *callers, size_t n, unsigned fn)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (callers[mid] < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}



void q_unresolved_sites(qctx *q, unsigned fn, json_t *ids, unsigned *n, unsigned *covered)
{
	if (!q->unres_loaded)
		load_unresolved(q);
	for (size_t i = first_of(q->amb_caller, q->n_amb, fn); i < q->n_amb && q->amb_caller[i] == fn; i++) {
		q->n_ambiguous_seen++;
		if (!q->ambiguous_ids)
			q->ambiguous_ids = json_array();
		if (json_array_size(q->ambiguous_ids) < 50)
			json_array_append_new(q->ambiguous_ids, json_integer(q->amb_site[i]));
	}
	size_t lo = 0, hi = q->n_unres;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (q->unres_caller[mid] < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < q->n_unres && q->unres_caller[i] == fn; i++) {
		unsigned site = q->unres_site[i];
		(*n)++;
		q_note_fallback(q, site);
		if (covered && q->include_overlay && site_covered(q, site))
			(*covered)++;
		if (ids && json_array_size(ids) < 50)
			json_array_append_new(ids, json_integer(site));
	}
}

void q_note_fallback(qctx *q, unsigned site)
{
	if (!q->fb_loaded) {
		q->fb_loaded = true;
		VEC(unsigned) v = {0};
		sqlite3_stmt *st = q_stmt(q->s, "SELECT DISTINCT site FROM decisions WHERE rule = 'Type-Fallback' "
		                                "ORDER BY site");
		while (q_step(q->s, st))
			VEC_PUSH(&v, (unsigned)sqlite3_column_int64(st, 0));
		q->fb_site = v.items;
		q->n_fb = v.len;
	}
	size_t i = first_of(q->fb_site, q->n_fb, site);
	if (i == q->n_fb || q->fb_site[i] != site)
		return;
	q->n_fallback_seen++;
	if (!q->fallback_ids)
		q->fallback_ids = json_array();
	if (json_array_size(q->fallback_ids) < 50)
		json_array_append_new(q->fallback_ids, json_integer(site));
}

json_t *q_uncertainty(qctx *q, unsigned n_unresolved, json_t *unresolved_ids)
{
	json_t *u = json_object();
	json_object_set_new(u, "graph", json_string(q->graph_name));
	json_object_set_new(u, "indirect_call_sites", json_integer(n_unresolved));
	json_object_set_new(u, "unresolved_site_ids", unresolved_ids ? unresolved_ids : json_array());
	/* Direct calls of a name several units define (graph source): edges
	 * to each definition, only one of which a build would keep. */
	json_object_set_new(u, "ambiguous_call_sites", json_integer(q->n_ambiguous_seen));
	json_object_set_new(u, "ambiguous_site_ids", q->ambiguous_ids ? json_incref(q->ambiguous_ids) : json_array());
	/* Of the unresolved sites, those whose evidence is incomplete and which
	 * the type fallback gave targets (graph source, Type-Fallback). */
	json_object_set_new(u, "type_fallback_sites", json_integer(q->n_fallback_seen));
	json_object_set_new(u, "type_fallback_site_ids", q->fallback_ids ? json_incref(q->fallback_ids) : json_array());
	/* Whole-program overlay coverage in this graph: the build counted the
	 * unresolved sites, and agent edges attach only to those. */
	unsigned total = 0;
	sqlite3_stmt *st = q_stmt(q->s, "SELECT unresolved_sites FROM graphs WHERE name = ?1");
	sqlite3_bind_text(st, 1, q->graph_name, -1, SQLITE_STATIC);
	if (q_step(q->s, st))
		total = (unsigned)sqlite3_column_int64(st, 0);
	unsigned covered = q->include_overlay ? agent_sites(q) : 0;
	json_object_set_new(u, "overlay", json_pack("{s:b, s:s, s:I, s:I, s:I}", "included", q->include_overlay,
	                                            "min_confidence", overlay_confidence_name(q->min_conf),
	                                            "edges", (json_int_t)overlay_n_edges(q->s->ov),
	                                            "covered_sites", (json_int_t)covered,
	                                            "unresolved_sites", (json_int_t)total));
	return u;
}

/* ---- dispatch ------------------------------------------------------------------------- */

/* Graph i's adjacency, read on first use and kept for the session. */
static const catalog_adjacency *adjacency(query_session *s, int i, facet_error *err)
{
	if (s->adj[i])
		return s->adj[i];
	catalog_adjacency *a = catalog_adjacency_load(s->cat, i, err);
	if (a && (a->n_functions != s->n_functions || a->n_sites != s->n_sites)) {
		error_set(err, "%s: damaged catalog (adjacency of graph %s: %u functions and %u sites, tables %u and %u)",
		          catalog_path(s->cat), cg_graph_name(i), a->n_functions, a->n_sites, s->n_functions,
		          s->n_sites);
		catalog_adjacency_free(a);
		a = NULL;
	}
	return s->adj[i] = a;
}

/* max_depth / max_fanout: absent is 0 (no bound), else 1..1000000. */
static bool walk_bound(qctx *q, const char *key, unsigned *out)
{
	long long v = 0;
	if (!json_object_get(q->args, key))
		return true;
	if (!q_int(q, key, &v, true))
		return false;
	if (v < 1 || v > 1000000) {
		error_set(q->err, "argument '%s' must be from 1 to 1000000", key);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

json_t *query_call(query_session *s, const char *verb_name, json_t *args, facet_error *err)
{
	const query_verb_info *v = query_verb_find(verb_name);
	if (!v) {
		error_set(err, "unknown query verb '%s'", verb_name ? verb_name : "(null)");
		return NULL;
	}
	if (args && !json_is_object(args)) {
		error_set(err, "%s: the arguments must be a JSON object", verb_name);
		return NULL;
	}
	json_t *empty = args ? NULL : json_object();
	qctx q = {.s = s, .args = args ? args : empty, .err = err, .min_conf = CONF_LOW};
	error_clear(&s->damage);
	json_t *result = NULL;

	const char *graph = q_str(&q, "graph");
	if (json_object_get(q.args, "graph") && !graph) {
		error_set(err, "argument 'graph' must be a graph name");
		goto out;
	}
	if (!graph)
		graph = catalog_default_graph(s->cat);
	q.graph = cg_graph_parse(graph);
	if (q.graph < 0) {
		error_set(err, "unknown graph '%s' (%s)", graph, cg_graph_list());
		goto out;
	}
	if (!catalog_has_graph(s->cat, q.graph)) {
		const char *note = catalog_meta(s->cat, "refinement_note");
		char have[128] = "";
		for (int i = 0, n = 0; i < CG_N_GRAPHS; i++)
			if (catalog_has_graph(s->cat, i))
				n += snprintf(have + n, sizeof have - (size_t)n, "%s%s", n ? " " : "", cg_graph_name(i));
		error_set(err, "graph %s is not in this catalog (%s); this catalog has: %s", graph,
		          note && *note ? note : "not built", have);
		goto out;
	}
	q.bit = 1u << q.graph;
	q.graph_name = cg_graph_name(q.graph);
	q.include_overlay = q_bool(&q, "include_overlay");
	const char *mc = q_str(&q, "min_confidence");
	if (json_object_get(q.args, "min_confidence")) {
		q.min_conf = overlay_confidence_parse(mc);
		if (!q.min_conf) {
			error_set(err, "min_confidence must be high, medium or low");
			goto out;
		}
	}
	if (v->edges && !(q.adj = adjacency(s, q.graph, err)))
		goto out;
	if (!walk_bound(&q, "max_depth", &q.max_depth) || !walk_bound(&q, "max_fanout", &q.max_fanout))
		goto out;
	if (q.include_overlay && v->walks) {
		if (s->overlay_error && overlay_n_records(s->ov) == 0) {
			error_set(err, "the overlay did not load: %s", s->overlay_error);
			goto out;
		}
		q_build_agents(&q);
	}
	result = v->run(&q);
	if (result && !json_object_get(result, "graph"))
		json_object_set_new(result, "graph", json_string(q.graph_name));
	if (result && v->list && !q_page(&q, v->list, result)) {
		json_decref(result);
		result = NULL;
	}
	if (result)   /* the answers' shape: docs/queries.md "Answer versions" */
		json_object_set_new(result, "answer_version", json_integer(QUERY_ANSWER_VERSION));
out:
	VEC_FREE(&q.agents);
	free(q.unres_caller);
	free(q.unres_site);
	free(q.amb_caller);
	free(q.amb_site);
	json_decref(q.ambiguous_ids);
	free(q.fb_site);
	json_decref(q.fallback_ids);
	json_decref(empty);
	if (s->damage.set) {   /* an answer read past a failure may be short: none at all */
		json_decref(result);
		result = NULL;
		error_clear(err);
		error_set(err, "%s: damaged catalog: %s", catalog_path(s->cat), s->damage.msg);
	}
	if (!result && !err->set)
		error_set(err, "%s failed", verb_name);
	return result;
}
