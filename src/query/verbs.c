/* verbs.c — the lookup verbs: defs, at, callers, callees, uses, externals,
 * indirect_targets, explain, resolution_candidates, inventory.
 * docs/queries.md documents each one's arguments and result. */
#include "query/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facet/explain.h"
#include "util/xalloc.h"

static const char *col_str(sqlite3_stmt *st, int col) { return (const char *)sqlite3_column_text(st, col); }

static json_t *col_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? json_string((const char *)t) : json_null();
}

/* A global named in an answer: o[key] is the name people read (column
 * shown: CATALOG_GLOBAL_SHOWN) and o[KEY_symbol] the linked name (column
 * linked) when it differs (a C++ symbol: "vtable for Circle" beside
 * "_ZTV6Circle"), facet_xname_set's rule. NULL columns give null. */
static void global_set(json_t *o, const char *key, sqlite3_stmt *st, int shown, int linked)
{
	if (!col_str(st, shown) || !col_str(st, linked))
		json_object_set_new(o, key, col_text(st, linked));
	else
		facet_xname_set(o, key, col_str(st, shown), col_str(st, linked));
}

/* o[key]: a field's key as people read it (column shown, CATALOG_FIELD_SHOWN)
 * with the key itself beside as KEY_symbol when it differs (column key);
 * null when the row has no field. */
static void field_set(json_t *o, const char *key, sqlite3_stmt *st, int shown, int linked)
{
	if (!col_str(st, shown))
		json_object_set_new(o, key, col_text(st, linked));
	else
		facet_xname_set(o, key, col_str(st, shown), col_str(st, linked));
}

/* The shown name of a field assignment's global (a linked name, column C). */
#define ASSIGNED_GLOBAL_SHOWN(C) \
	"(SELECT " CATALOG_GLOBAL_SHOWN("ag") " FROM globals ag WHERE ag.name = " C " LIMIT 1)"

/* A field assignment's in_function (a linked name, column C) as a function id. */
#define ASSIGNED_FN_ID(C) "(SELECT af.id FROM functions af WHERE af.name = " C " LIMIT 1)"

/* o[key] = a field assignment's in_function: the function of id column idc
 * (q_fn_name_set: a C++ one demangled, its symbol beside), else the recorded
 * text of column textc ("?": not known; null). */
static void assigned_fn_set(qctx *q, json_t *o, const char *key, sqlite3_stmt *st, int idc, int textc)
{
	if (sqlite3_column_type(st, idc) == SQLITE_NULL)
		json_object_set_new(o, key, col_text(st, textc));
	else
		q_fn_name_set(q, o, key, (unsigned)sqlite3_column_int64(st, idc));
}

/* A file argument matches a recorded path exactly or as its trailing path
 * components ("ngx_http.c" matches "src/http/ngx_http.c"). */
#define FILE_MATCH(col, arg) "(" col " = " arg " OR " col " LIKE '%/' || " arg ")"

json_t *qv_defs(qctx *q)
{
	const char *name = q_str(q, "name");
	if (!name || !*name) {
		error_set(q->err, "missing argument 'name'");
		return NULL;
	}
	json_t *fns = json_array();
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id FROM functions WHERE name = ?1 OR source_name = ?1 "
	                                "ORDER BY defined DESC, id");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	VEC(unsigned) ids = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&ids, (unsigned)sqlite3_column_int64(st, 0));
	for (size_t i = 0; i < ids.len; i++)
		json_array_append_new(fns, q_fn_json(q, ids.items[i]));
	VEC_FREE(&ids);
	json_t *globals = json_array();
	st = q_stmt(q->s, "SELECT name, linkage, defined, constant, file, line, ir_type, " CATALOG_GLOBAL_SHOWN("globals")
	                  " FROM globals WHERE name = ?1 OR var_name = ?1 OR source_name = ?1 ORDER BY id");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	while (q_step(q->s, st)) {
		json_t *g = json_object();
		global_set(g, "name", st, 7, 0);
		json_object_update_new(g, json_pack("{s:o, s:b, s:b, s:o, s:I, s:o}", "linkage", col_text(st, 1), "defined",
		                                    sqlite3_column_int(st, 2), "constant", sqlite3_column_int(st, 3), "file",
		                                    col_text(st, 4), "line", (json_int_t)sqlite3_column_int64(st, 5),
		                                    "ir_type", col_text(st, 6)));
		json_array_append_new(globals, g);
	}
	size_t n_def = 0;
	size_t i;
	json_t *f;
	json_array_foreach(fns, i, f) n_def += json_is_true(json_object_get(f, "defined"));
	return json_pack("{s:s, s:o, s:o, s:b, s:o}", "name", name, "functions", fns, "globals", globals,
	                 "ambiguous", n_def > 1, "uncertainty", q_uncertainty(q, 0, NULL));
}

json_t *qv_at(qctx *q)
{
	const char *file;
	long long line;
	if (!q_file_line(q, &file, &line))
		return NULL;
	json_t *sites = json_array(), *fns = json_array(), *uses = json_array(), *assigns = json_array();
	VEC(unsigned) callers = {0};
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id, caller FROM sites WHERE line = ?2 AND " FILE_MATCH("file", "?1")
	                                " UNION SELECT s.id, s.caller FROM site_inlined i JOIN sites s ON s.id = i.site "
	                                "WHERE i.line = ?2 AND " FILE_MATCH("i.file", "?1") " ORDER BY 1");
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	VEC(unsigned) site_ids = {0};
	while (q_step(q->s, st)) {
		VEC_PUSH(&site_ids, (unsigned)sqlite3_column_int64(st, 0));
		unsigned c = (unsigned)sqlite3_column_int64(st, 1);
		bool seen = false;
		for (size_t k = 0; k < callers.len; k++)
			seen = seen || callers.items[k] == c;
		if (!seen)
			VEC_PUSH(&callers, c);
	}
	unsigned n_unres = 0;
	json_t *unres = json_array();
	for (size_t k = 0; k < site_ids.len; k++) {
		json_t *sj = q_site_json(q, site_ids.items[k]);
		json_t *targets = json_array();
		sqlite3_stmt *t = q_stmt(q->s, "SELECT f.id FROM edges e JOIN functions f ON f.id = e.target "
		                               "WHERE e.caller = (SELECT caller FROM sites WHERE id = ?1) AND e.site = ?1 AND (e.graphs & ?2) AND NOT f.intrinsic ORDER BY f.name");
		sqlite3_bind_int64(t, 1, site_ids.items[k]);
		sqlite3_bind_int64(t, 2, q->bit);
		while (q_step(q->s, t))   /* names people read; the objects naming them carry their symbols */
			json_array_append_new(targets, json_string(q_fn_name(q, (unsigned)sqlite3_column_int64(t, 0))));
		if (strcmp(json_string_value(json_object_get(sj, "kind")), "indirect") == 0 && json_array_size(targets) == 0) {
			n_unres++;
			json_array_append_new(unres, json_integer(site_ids.items[k]));
		}
		json_object_set_new(sj, "targets", targets);
		json_array_append_new(sites, sj);
	}
	/* Functions whose definition starts here, then those with calls here. */
	st = q_stmt(q->s, "SELECT id FROM functions WHERE defined AND line = ?2 AND " FILE_MATCH("file", "?1"));
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	VEC(unsigned) defs = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&defs, (unsigned)sqlite3_column_int64(st, 0));
	for (size_t k = 0; k < defs.len; k++) {
		json_t *fj = q_fn_json(q, defs.items[k]);
		json_object_set_new(fj, "why", json_string("defined here"));
		json_array_append_new(fns, fj);
	}
	/* Functions that store a function address at that line. */
	st = q_stmt(q->s, "SELECT DISTINCT in_function FROM address_uses WHERE line = ?2 AND in_function IS NOT NULL "
	                  "AND " FILE_MATCH("file", "?1"));
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	VEC(unsigned) storers = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&storers, (unsigned)sqlite3_column_int64(st, 0));
	for (size_t k = 0; k < storers.len; k++) {
		bool seen = false;
		for (size_t d = 0; d < callers.len; d++)
			seen = seen || callers.items[d] == storers.items[k];
		if (!seen)
			VEC_PUSH(&callers, storers.items[k]);
	}
	VEC_FREE(&storers);
	for (size_t k = 0; k < callers.len; k++) {
		bool dup = false;
		for (size_t d = 0; d < defs.len; d++)
			dup = dup || defs.items[d] == callers.items[k];
		if (dup)
			continue;
		json_t *fj = q_fn_json(q, callers.items[k]);
		json_object_set_new(fj, "why", json_string("has code here"));
		json_array_append_new(fns, fj);
	}
	st = q_stmt(q->s, "SELECT u.kind, u.function, g.name, u.offset, u.file, u.line, u.col, u.in_function, d.key, "
	                  CATALOG_GLOBAL_SHOWN("g") ", " CATALOG_FIELD_SHOWN("d") " FROM "
	                  "address_uses u JOIN functions f ON f.id = u.function LEFT JOIN globals g ON g.id = u.global "
	                  "LEFT JOIN functions i ON i.id = u.in_function LEFT JOIN fields d ON d.id = u.field "
	                  "WHERE u.line = ?2 AND " FILE_MATCH("u.file", "?1") " ORDER BY u.id");
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	while (q_step(q->s, st)) {
		json_t *u = json_pack("{s:o}", "kind", col_text(st, 0));
		q_fn_name_set(q, u, "function", (unsigned)sqlite3_column_int64(st, 1));
		global_set(u, "global", st, 9, 2);
		if (sqlite3_column_type(st, 7) == SQLITE_NULL)
			json_object_set_new(u, "in_function", json_null());
		else
			q_fn_name_set(q, u, "in_function", (unsigned)sqlite3_column_int64(st, 7));
		field_set(u, "field", st, 10, 8);
		json_object_set_new(u, "column", json_integer(sqlite3_column_int64(st, 6)));
		json_array_append_new(uses, u);
	}
	st = q_stmt(q->s, "SELECT d.key, d.name, a.function, a.form, a.global, a.in_function, " ASSIGNED_GLOBAL_SHOWN("a.global")
	                  ", " ASSIGNED_FN_ID("a.in_function") ", " CATALOG_FIELD_SHOWN("d") " FROM field_assignments a "
	                  "JOIN fields d ON d.id = a.field JOIN functions f ON f.id = a.function WHERE a.line = ?2 AND "
	                  FILE_MATCH("a.file", "?1"));
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	while (q_step(q->s, st)) {
		json_t *a = json_object();
		field_set(a, "field", st, 8, 0);
		json_object_set_new(a, "field_name", col_text(st, 1));
		q_fn_name_set(q, a, "function", (unsigned)sqlite3_column_int64(st, 2));
		json_object_set_new(a, "form", col_text(st, 3));
		global_set(a, "global", st, 6, 4);
		assigned_fn_set(q, a, "in_function", st, 7, 5);
		json_array_append_new(assigns, a);
	}
	VEC_FREE(&callers);
	VEC_FREE(&site_ids);
	VEC_FREE(&defs);
	return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o}", "file", file, "line", (json_int_t)line, "functions",
	                 fns, "sites", sites, "address_uses", uses, "field_assignments", assigns, "uncertainty",
	                 q_uncertainty(q, n_unres, unres));
}

json_t *qv_callers(qctx *q)
{
	unsigned fn;
	if (!q_function(q, "name", &fn))
		return NULL;
	q_edge_vec in = {0};
	q_in_edges(q, fn, q->include_overlay, &in);
	json_t *callers = json_array();
	unsigned n_agent = 0;
	/* Group by caller, in the order the edges come (site order). */
	json_t **group_of = xcalloc(q->s->n_functions + 1, sizeof *group_of);
	for (size_t i = 0; i < in.len; i++) {
		unsigned c = in.items[i].other < q->s->n_functions ? in.items[i].other : q->s->n_functions;
		json_t *group = group_of[c];
		if (!group) {
			group = group_of[c] = json_pack("{s:o, s:[]}", "function", q_fn_json(q, in.items[i].other), "sites");
			json_array_append_new(callers, group);
		}
		json_t *sj = q_site_json(q, in.items[i].site);
		json_object_set_new(sj, "agent", json_boolean(in.items[i].agent != NULL));
		json_object_set_new(sj, "proof", q_proof_json(q, in.items[i].site, fn, in.items[i].agent, NULL));
		if (in.items[i].agent) {
			json_object_set_new(sj, "overlay_edge", q_agent_json(in.items[i].agent));
			n_agent++;
		}
		json_array_append_new(json_object_get(group, "sites"), sj);
	}
	free(group_of);
	VEC_FREE(&in);
	/* What the graph cannot rule out: indirect sites it leaves unresolved
	 * whose IR type matches this function's (they may call it). */
	unsigned n = 0;
	json_t *ids = json_array();
	sqlite3_stmt *st = q_stmt(q->s, "SELECT s.id FROM sites s INDEXED BY sites_indirect, functions f WHERE f.id = ?1 "
	                                "AND f.address_taken AND s.kind = 'indirect' AND (s.resolved & ?2) = 0 "
	                                "AND s.call_type = f.ir_type ORDER BY s.id");
	sqlite3_bind_int64(st, 1, fn);
	sqlite3_bind_int64(st, 2, q->bit);
	while (q_step(q->s, st)) {
		n++;
		if (json_array_size(ids) < 50)
			json_array_append_new(ids, json_integer(sqlite3_column_int64(st, 0)));
	}
	json_t *u = q_uncertainty(q, n, ids);
	json_object_set_new(u, "agent_edges", json_integer(n_agent));
	return json_pack("{s:o, s:o, s:I, s:o}", "function", q_fn_json(q, fn), "callers", callers, "count",
	                 (json_int_t)json_array_size(callers), "uncertainty", u);
}

json_t *qv_callees(qctx *q)
{
	unsigned fn;
	if (!q_function(q, "name", &fn))
		return NULL;
	json_t *sites = json_array(), *unres = json_array();
	unsigned n_unres = 0;
	sqlite3_stmt *st = q_stmt(q->s, "SELECT s.id, s.kind, s.callee, s.resolved FROM sites s WHERE s.caller = ?1 "
	                                "ORDER BY s.id");
	sqlite3_bind_int64(st, 1, fn);
	VEC(unsigned) ids = {0};
	VEC(int) direct_intrinsic = {0};
	VEC(int) no_callee = {0};
	VEC(int) unresolved = {0};   /* an indirect site the graph leaves unresolved, targets or not */
	while (q_step(q->s, st)) {
		sqlite3_int64 callee = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 2);
		VEC_PUSH(&unresolved, strcmp((const char *)sqlite3_column_text(st, 1), "indirect") == 0 &&
		                      (sqlite3_column_int64(st, 3) & q->bit) == 0);
		VEC_PUSH(&ids, (unsigned)sqlite3_column_int64(st, 0));
		VEC_PUSH(&direct_intrinsic, callee >= 0 && callee < q->s->n_functions && q->s->intrinsic[callee]);
		VEC_PUSH(&no_callee, callee < 0);
	}
	q_edge_vec out = {0};
	q_out_edges(q, fn, q->include_overlay, &out);
	for (size_t i = 0; i < ids.len; i++) {
		if (direct_intrinsic.items[i])
			continue;   /* llvm.* intrinsics are not program functions */
		json_t *sj = q_site_json(q, ids.items[i]);
		const char *kind = json_string_value(json_object_get(sj, "kind"));
		json_t *targets = json_array(), *agents = json_array(), *proofs = json_array();
		for (size_t k = 0; k < out.len; k++) {
			if (out.items[k].site != ids.items[i])
				continue;
			json_t *proof = q_proof_json(q, out.items[k].site, out.items[k].other, out.items[k].agent, NULL);
			if (out.items[k].agent) {
				json_t *a = q_agent_json(out.items[k].agent);
				q_fn_name_set(q, a, "name", out.items[k].other);
				json_object_set_new(a, "proof", proof);
				json_array_append_new(agents, a);
			} else {
				json_array_append_new(targets, json_string(q_fn_name(q, out.items[k].other)));
				q_fn_name_set(q, proof, "target", out.items[k].other);
				json_array_append_new(proofs, proof);
			}
		}
		/* a direct site without one callee: a name several units define (graph source) */
		bool ambiguous = strcmp(kind, "direct") == 0 && no_callee.items[i] && json_array_size(targets) > 0;
		if (ambiguous) {
			q->n_ambiguous_seen++;
			if (!q->ambiguous_ids)
				q->ambiguous_ids = json_array();
			json_array_append_new(q->ambiguous_ids, json_integer(ids.items[i]));
		}
		const char *cls = ambiguous ? "direct-ambiguous" : strcmp(kind, "direct") == 0 ? "direct"
		                  : strcmp(kind, "asm") == 0 ? "asm"
		                  : json_array_size(targets) && unresolved.items[i] ? "indirect-incomplete"
		                  : json_array_size(targets) ? "indirect-resolved"
		                  : json_array_size(agents) ? "indirect-agent" : "indirect-unresolved";
		if (strcmp(kind, "indirect") == 0 && (json_array_size(targets) == 0 || unresolved.items[i])) {
			n_unres++;
			json_array_append_new(unres, json_integer(ids.items[i]));
			q_note_fallback(q, ids.items[i]);
		}
		json_object_set_new(sj, "class", json_string(cls));
		json_object_set_new(sj, "targets", targets);
		json_object_set_new(sj, "target_proofs", proofs);
		if (q->include_overlay)
			json_object_set_new(sj, "agent_targets", agents);
		else
			json_decref(agents);
		json_array_append_new(sites, sj);
	}
	VEC_FREE(&out);
	VEC_FREE(&ids);
	VEC_FREE(&direct_intrinsic);
	VEC_FREE(&no_callee);
	VEC_FREE(&unresolved);
	return json_pack("{s:o, s:o, s:o}", "function", q_fn_json(q, fn), "sites", sites, "uncertainty",
	                 q_uncertainty(q, n_unres, unres));
}

json_t *qv_uses(qctx *q)
{
	unsigned fn;
	if (!q_function(q, "name", &fn))
		return NULL;
	json_t *uses = json_array();
	sqlite3_stmt *st = q_stmt(q->s, "SELECT u.kind, u.in_function, u.site, g.name, u.offset, u.file, u.line, u.col, d.key, "
	                                "d.name, " CATALOG_GLOBAL_SHOWN("g") ", " CATALOG_FIELD_SHOWN("d") " FROM address_uses u "
	                                "LEFT JOIN globals g ON g.id = u.global LEFT JOIN fields d ON d.id = u.field "
	                                "WHERE u.function = ?1 ORDER BY u.id");
	sqlite3_bind_int64(st, 1, fn);
	while (q_step(q->s, st)) {
		json_t *o = json_pack("{s:o}", "kind", col_text(st, 0));
		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			json_object_set_new(o, "in_function", json_null());
		else
			q_fn_name_set(q, o, "in_function", (unsigned)sqlite3_column_int64(st, 1));
		global_set(o, "global", st, 10, 3);
		json_object_update_new(o, json_pack("{s:o, s:I, s:I}", "file", col_text(st, 5), "line",
		                                    (json_int_t)sqlite3_column_int64(st, 6), "column",
		                                    (json_int_t)sqlite3_column_int64(st, 7)));
		json_object_set_new(o, "site", sqlite3_column_type(st, 2) == SQLITE_NULL ? json_null()
		                                                                        : json_integer(sqlite3_column_int64(st, 2)));
		json_object_set_new(o, "offset", sqlite3_column_type(st, 4) == SQLITE_NULL ? json_null()
		                                                                          : json_integer(sqlite3_column_int64(st, 4)));
		field_set(o, "field", st, 11, 8);
		json_object_set_new(o, "field_name", col_text(st, 9));
		json_array_append_new(uses, o);
	}
	/* The fields the refinement found it assigned to, with their evidence. */
	json_t *fields = json_array();
	st = q_stmt(q->s, "SELECT d.key, d.record, d.offset, d.name, a.form, a.global, a.slot, a.file, a.line, "
	                  "a.in_function, " ASSIGNED_GLOBAL_SHOWN("a.global") ", " ASSIGNED_FN_ID("a.in_function")
	                  ", " CATALOG_FIELD_SHOWN("d") " FROM field_assignments a JOIN fields d "
	                  "ON d.id = a.field WHERE a.function = ?1 ORDER BY d.key, a.line");
	sqlite3_bind_int64(st, 1, fn);
	while (q_step(q->s, st)) {
		json_t *a = json_object();
		field_set(a, "field", st, 12, 0);
		json_object_update_new(a, json_pack("{s:o, s:I, s:o, s:o}", "record", col_text(st, 1), "offset",
		                                    (json_int_t)sqlite3_column_int64(st, 2), "field_name", col_text(st, 3),
		                                    "form", col_text(st, 4)));
		global_set(a, "global", st, 10, 5);
		json_object_update_new(a, json_pack("{s:o, s:I}", "file", col_text(st, 7), "line",
		                                    (json_int_t)sqlite3_column_int64(st, 8)));
		assigned_fn_set(q, a, "in_function", st, 11, 9);
		json_array_append_new(fields, a);
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "function", q_fn_json(q, fn), "uses", uses, "field_assignments",
	                 fields, "uncertainty", q_uncertainty(q, 0, NULL));
}

json_t *qv_externals(qctx *q)
{
	json_t *fns = json_array(), *globals = json_array();
	sqlite3_stmt *st = q_stmt(q->s, "SELECT f.id, f.address_taken, (SELECT count(*) FROM sites s WHERE "
	                                "s.callee = f.id) FROM functions f WHERE NOT f.defined AND NOT f.intrinsic "
	                                "ORDER BY f.name");
	while (q_step(q->s, st)) {
		json_t *f = json_object();
		q_fn_name_set(q, f, "name", (unsigned)sqlite3_column_int64(st, 0));
		json_object_update_new(f, json_pack("{s:b, s:I}", "address_taken", sqlite3_column_int(st, 1), "call_sites",
		                                    (json_int_t)sqlite3_column_int64(st, 2)));
		json_array_append_new(fns, f);
	}
	/* globals: the names people read; a C++ one's linked symbol in
	 * globals_symbol (shown name -> symbol), present only when one differs */
	json_t *symbols = json_object();
	st = q_stmt(q->s, "SELECT name, " CATALOG_GLOBAL_SHOWN("globals") " FROM globals WHERE NOT defined ORDER BY name");
	while (q_step(q->s, st)) {
		const char *linked = col_str(st, 0), *shown = col_str(st, 1) ? col_str(st, 1) : linked;
		json_array_append_new(globals, shown ? json_string(shown) : json_null());
		if (linked && shown && strcmp(linked, shown) != 0)
			json_object_set_new(symbols, shown, json_string(linked));
	}
	json_t *out = json_pack("{s:o, s:o, s:I, s:o}", "functions", fns, "globals", globals, "count",
	                        (json_int_t)(json_array_size(fns) + json_array_size(globals)), "uncertainty",
	                        q_uncertainty(q, 0, NULL));
	if (json_object_size(symbols))
		json_object_set_new(out, "globals_symbol", symbols);
	else
		json_decref(symbols);
	return out;
}

/* Decisions the refinement recorded for (site, function), as warrants. */
static json_t *warrants(qctx *q, unsigned site, unsigned fn)
{
	json_t *arr = json_array();
	sqlite3_stmt *st = q_stmt(q->s, "SELECT fact, outcome, rule, premise, source, evidence, graph FROM decisions "
	                                "WHERE site = ?1 AND function = ?2 ORDER BY id");
	sqlite3_bind_int64(st, 1, site);
	sqlite3_bind_int64(st, 2, fn);
	while (q_step(q->s, st)) {
		facet_xwarrant w = {col_str(st, 0), col_str(st, 1), col_str(st, 2), col_str(st, 3), col_str(st, 4),
		                    col_str(st, 5), col_str(st, 6)};
		json_array_append_new(arr, facet_xwarrant_json(&w));
	}
	return arr;
}

/* Everything known about one indirect site: its dispatch, its targets in
 * the graph with warrants, the functions other graphs give it that this
 * one drops, and agent edges. */
static json_t *site_detail(qctx *q, unsigned site)
{
	json_t *sj = q_site_json(q, site);
	sqlite3_stmt *st = q_stmt(q->s, "SELECT d.status, d.step, d.depth, " CATALOG_FIELD_SHOWN("f") ", f.name, "
	                                "f.signature, d.reason, d.base_type, d.n_r0, d.n_sym, d.abstains, d.callee_type, "
	                                "d.callee_variable, f.key, d.runtime_code FROM dispatch d LEFT JOIN fields f ON f.id = d.field WHERE d.site = ?1");
	sqlite3_bind_int64(st, 1, site);
	if (q_step(q->s, st)) {
		/* the catalog writes no step as "": null, as facet explain says it */
		const char *step = col_str(st, 1);
		facet_xdispatch d = {.status = col_str(st, 0), .step = step && *step ? step : NULL,
		                     .depth = sqlite3_column_int64(st, 2), .field = col_str(st, 3), .field_name = col_str(st, 4),
		                     .signature = col_str(st, 5), .reason = col_str(st, 6), .base_type = col_str(st, 7),
		                     .n_r0 = sqlite3_column_int64(st, 8), .n_sym = sqlite3_column_int64(st, 9),
		                     .abstains = sqlite3_column_int(st, 10), .callee_type = col_str(st, 11),
		                     .callee_variable = col_str(st, 12), .field_symbol = col_str(st, 13),
		                     .runtime_code = sqlite3_column_int(st, 14)};
		json_object_set_new(sj, "dispatch", facet_xdispatch_json(&d));
	}
	else
		json_object_set_new(sj, "dispatch", json_null());
	/* A C++ virtual call: else the C++ graphs are not listed in in_graphs (they copy others' there). */
	st = q_stmt(q->s, "SELECT class, slot FROM virtual_calls WHERE site = ?1");
	sqlite3_bind_int64(st, 1, site);
	bool virt = q_step(q->s, st);
	json_object_set_new(sj, "virtual", virt ? facet_xvirtual_json(col_str(st, 0), sqlite3_column_type(st, 1) == SQLITE_NULL
	                                                                           ? -1 : sqlite3_column_int64(st, 1))
	                                        : json_null());
	json_t *targets = json_array(), *dropped = json_array();
	st = q_stmt(q->s, "SELECT e.target, e.graphs FROM edges e WHERE e.caller = (SELECT caller FROM sites WHERE id = ?1) "
	                  "AND e.site = ?1 ORDER BY e.target");
	sqlite3_bind_int64(st, 1, site);
	VEC(unsigned) ts = {0};
	VEC(unsigned) bits = {0};
	while (q_step(q->s, st)) {
		VEC_PUSH(&ts, (unsigned)sqlite3_column_int64(st, 0));
		VEC_PUSH(&bits, (unsigned)sqlite3_column_int64(st, 1));
	}
	for (size_t i = 0; i < ts.len; i++) {
		json_t *t = facet_xtarget_json(q_fn_name(q, ts.items[i]), q_fn_symbol(q, ts.items[i]), bits.items[i], virt,
		                               warrants(q, site, ts.items[i]));
		if (bits.items[i] & q->bit)
			json_object_set_new(t, "proof", q_proof_json(q, site, ts.items[i], NULL, NULL));
		json_array_append_new((bits.items[i] & q->bit) ? targets : dropped, t);
	}
	/* Decisions on functions no graph gives this site (rejected adds...). */
	st = q_stmt(q->s, "SELECT DISTINCT function FROM decisions WHERE site = ?1 AND function NOT IN "
	                  "(SELECT target FROM edges WHERE caller = (SELECT caller FROM sites WHERE id = ?1) AND site = ?1) "
	                  "ORDER BY function");
	sqlite3_bind_int64(st, 1, site);
	VEC(unsigned) others = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&others, (unsigned)sqlite3_column_int64(st, 0));
	for (size_t i = 0; i < others.len; i++)
		json_array_append_new(dropped,
		                      facet_xtarget_json(q_fn_name(q, others.items[i]), q_fn_symbol(q, others.items[i]), 0, virt,
		                                         warrants(q, site, others.items[i])));
	json_object_set_new(sj, "targets", targets);
	json_object_set_new(sj, "not_in_graph", dropped);
	json_t *agents = json_array();
	for (size_t i = 0; i < q->agents.len; i++)
		if (q->agents.items[i].site == site) {
			json_t *a = q_agent_json(q->agents.items[i].edge);
			q_fn_name_set(q, a, "name", q->agents.items[i].target);
			json_array_append_new(agents, a);
		}
	json_object_set_new(sj, "agent_targets", agents);
	VEC_FREE(&ts);
	VEC_FREE(&bits);
	VEC_FREE(&others);
	return sj;
}

json_t *qv_indirect_targets(qctx *q)
{
	const char *file;
	long long line;
	if (!q_file_line(q, &file, &line))
		return NULL;
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id FROM sites WHERE kind = 'indirect' AND line = ?2 AND "
	                                FILE_MATCH("file", "?1") " UNION SELECT s.id FROM site_inlined i JOIN sites s "
	                                "ON s.id = i.site WHERE s.kind = 'indirect' AND i.line = ?2 AND "
	                                FILE_MATCH("i.file", "?1") " ORDER BY 1");
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	VEC(unsigned) ids = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&ids, (unsigned)sqlite3_column_int64(st, 0));
	json_t *sites = json_array(), *unres = json_array();
	unsigned n_unres = 0;
	for (size_t i = 0; i < ids.len; i++) {
		json_t *d = site_detail(q, ids.items[i]);
		if (json_array_size(json_object_get(d, "targets")) == 0) {
			n_unres++;
			json_array_append_new(unres, json_integer(ids.items[i]));
		}
		json_array_append_new(sites, d);
	}
	VEC_FREE(&ids);
	return json_pack("{s:s, s:I, s:o, s:o}", "file", file, "line", (json_int_t)line, "sites", sites, "uncertainty",
	                 q_uncertainty(q, n_unres, unres));
}

/* The residual questions asked about site, each with its candidates. */
static json_t *questions(qctx *q, unsigned site)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id, kind, answered FROM questions WHERE site = ?1 ORDER BY id");
	sqlite3_bind_int64(st, 1, site);
	json_t *qs = json_array();
	while (q_step(q->s, st))
		json_array_append_new(qs, facet_xquestion_json(sqlite3_column_int64(st, 0), col_str(st, 1), json_array(),
		                                               sqlite3_column_int(st, 2)));
	size_t i;
	json_t *one;
	json_array_foreach(qs, i, one) {
		st = q_stmt(q->s, "SELECT function FROM question_candidates WHERE question = ?1 ORDER BY rowid");
		sqlite3_bind_int64(st, 1, json_integer_value(json_object_get(one, "id")));
		while (q_step(q->s, st))
			json_array_append_new(json_object_get(one, "candidates"),
			                      json_string(q_fn_name(q, (unsigned)sqlite3_column_int64(st, 0))));
	}
	return qs;
}

json_t *qv_explain(qctx *q)
{
	long long site;
	if (!q_int(q, "site", &site, true))
		return NULL;
	if (site < 0 || site >= q->s->n_sites) {
		error_set(q->err, "no site %lld in the catalog (sites 0..%u)", site, q->s->n_sites ? q->s->n_sites - 1 : 0);
		return NULL;
	}
	json_t *d = site_detail(q, (unsigned)site);
	json_object_set_new(d, "questions", questions(q, (unsigned)site));
	bool unresolved = strcmp(json_string_value(json_object_get(d, "kind")), "indirect") == 0 &&
	                  json_array_size(json_object_get(d, "targets")) == 0;
	json_t *ids = json_array();
	if (unresolved)
		json_array_append_new(ids, json_integer(site));
	return json_pack("{s:o, s:o}", "site", d, "uncertainty", q_uncertainty(q, unresolved, ids));
}

/* Appends field's candidates to cands: the functions Algorithm 1 accepted
 * into F (signature_matches true), or with rejected those it saw written
 * there but refused for an incompatible signature (false), each with the
 * places it was assigned. Rejected ones can be hundreds (a copy through an
 * untyped pointer reaches every address-taken function), so at most limit
 * of them are listed, direct initialisers and stores before copies.
 * Returns how many there are. */
static unsigned field_candidates(qctx *q, unsigned field, bool rejected, long long limit, json_t *cands)
{
	sqlite3_stmt *st = q_stmt(q->s, rejected ? "SELECT function, min(CASE form WHEN 'copy' THEN 1 ELSE 0 END) AS k "
	                                           "FROM field_rejected_assignments WHERE field = ?1 GROUP BY function "
	                                           "ORDER BY k, function"
	                                         : "SELECT DISTINCT function FROM field_assignments WHERE field = ?1 "
	                                           "ORDER BY 1");
	sqlite3_bind_int64(st, 1, field);
	VEC(unsigned) fids = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&fids, (unsigned)sqlite3_column_int64(st, 0));
	for (size_t k = 0; k < fids.len && (!rejected || (long long)k < limit); k++) {
		json_t *c = q_fn_json(q, fids.items[k]);
		json_t *as = json_array();
		st = q_stmt(q->s, rejected ? "SELECT form, global, file, line, in_function, " ASSIGNED_GLOBAL_SHOWN("global")
		                             ", " ASSIGNED_FN_ID("in_function") " FROM field_rejected_assignments "
		                             "WHERE field = ?1 AND function = ?2 ORDER BY line"
		                           : "SELECT form, global, file, line, in_function, " ASSIGNED_GLOBAL_SHOWN("global")
		                             ", " ASSIGNED_FN_ID("in_function") " FROM field_assignments "
		                             "WHERE field = ?1 AND function = ?2 ORDER BY line");
		sqlite3_bind_int64(st, 1, field);
		sqlite3_bind_int64(st, 2, fids.items[k]);
		while (q_step(q->s, st)) {
			json_t *a = json_pack("{s:o}", "form", col_text(st, 0));
			global_set(a, "global", st, 5, 1);
			json_object_update_new(a, json_pack("{s:o, s:I}", "file", col_text(st, 2), "line",
			                                    (json_int_t)sqlite3_column_int64(st, 3)));
			assigned_fn_set(q, a, "in_function", st, 6, 4);
			json_array_append_new(as, a);
		}
		json_object_set_new(c, "assignments", as);
		json_object_set_new(c, "signature_matches", json_boolean(!rejected));
		json_array_append_new(cands, c);
	}
	unsigned n = (unsigned)fids.len;
	VEC_FREE(&fids);
	return n;
}

/* Unresolved indirect sites grouped by the field they dispatch through
 * (seed 001's resolution_candidates). A field's candidates are the functions
 * assigned to it, those whose signature fits first; only they count for
 * single_candidate. A site without a recovered field is grouped with the
 * others of its IR call type, and its candidates are the address-taken
 * definitions of that type (a weaker basis, said so). */
json_t *qv_resolution_candidates(qctx *q)
{
	long long limit = 50;   /* candidates per group (answer version 1 called it "limit") */
	if (json_object_get(q->args, "candidate_limit") && !q_int(q, "candidate_limit", &limit, false))
		return NULL;
	json_t *groups = json_array();
	unsigned n_sites = 0;
	/* Field groups. */
	sqlite3_stmt *st = q_stmt(q->s, "SELECT DISTINCT s.field FROM sites s INDEXED BY sites_indirect WHERE "
	                                "s.kind = 'indirect' AND (s.resolved & ?1) = 0 AND s.field IS NOT NULL "
	                                "ORDER BY s.field");
	sqlite3_bind_int64(st, 1, q->bit);
	VEC(unsigned) fields = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&fields, (unsigned)sqlite3_column_int64(st, 0));
	for (size_t i = 0; i < fields.len; i++) {
		st = q_stmt(q->s, "SELECT key, record, offset, name, signature, kind, " CATALOG_FIELD_SHOWN("fields")
		                  " FROM fields WHERE id = ?1");
		sqlite3_bind_int64(st, 1, fields.items[i]);
		if (!q_step(q->s, st))
			continue;
		json_t *g = json_object();
		field_set(g, "field", st, 6, 0);
		json_object_update_new(g, json_pack("{s:o, s:I, s:o, s:o, s:o, s:s}", "record", col_text(st, 1), "offset",
		                                    (json_int_t)sqlite3_column_int64(st, 2), "field_name", col_text(st, 3),
		                                    "signature", col_text(st, 4), "field_kind", col_text(st, 5),
		                                    "candidates_basis", "assignments"));
		json_t *sites = json_array();
		st = q_stmt(q->s, "SELECT id FROM sites WHERE field = ?1 AND kind = 'indirect' AND "
		                  "(resolved & ?2) = 0 ORDER BY id");
		sqlite3_bind_int64(st, 1, fields.items[i]);
		sqlite3_bind_int64(st, 2, q->bit);
		VEC(unsigned) sids = {0};
		while (q_step(q->s, st))
			VEC_PUSH(&sids, (unsigned)sqlite3_column_int64(st, 0));
		for (size_t k = 0; k < sids.len; k++)
			json_array_append_new(sites, q_site_json(q, sids.items[k]));
		n_sites += (unsigned)sids.len;
		VEC_FREE(&sids);
		json_t *cands = json_array();
		unsigned matching = field_candidates(q, fields.items[i], false, limit, cands);
		unsigned n_rejected = field_candidates(q, fields.items[i], true, limit, cands);
		json_object_set_new(g, "sites", sites);
		json_object_set_new(g, "candidates", cands);
		json_object_set_new(g, "n_rejected_candidates", json_integer(n_rejected));
		json_object_set_new(g, "single_candidate", json_boolean(matching == 1));
		json_array_append_new(groups, g);
	}
	VEC_FREE(&fields);
	/* Sites without a field, by call type. */
	st = q_stmt(q->s, "SELECT DISTINCT call_type FROM sites INDEXED BY sites_indirect WHERE kind = 'indirect' AND "
	                  "(resolved & ?1) = 0 AND field IS NULL ORDER BY call_type");
	sqlite3_bind_int64(st, 1, q->bit);
	VEC(char *) types = {0};
	while (q_step(q->s, st))
		VEC_PUSH(&types, xstrdup(sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : ""));
	for (size_t i = 0; i < types.len; i++) {
		json_t *sites = json_array(), *cands = json_array();
		st = q_stmt(q->s, "SELECT id FROM sites INDEXED BY sites_indirect WHERE kind = 'indirect' AND (resolved & ?1) = 0 "
		                  "AND field IS NULL "
		                  "AND call_type = ?2 ORDER BY id");
		sqlite3_bind_int64(st, 1, q->bit);
		sqlite3_bind_text(st, 2, types.items[i], -1, SQLITE_TRANSIENT);
		VEC(unsigned) sids = {0};
		while (q_step(q->s, st))
			VEC_PUSH(&sids, (unsigned)sqlite3_column_int64(st, 0));
		for (size_t k = 0; k < sids.len; k++)
			json_array_append_new(sites, q_site_json(q, sids.items[k]));
		n_sites += (unsigned)sids.len;
		VEC_FREE(&sids);
		st = q_stmt(q->s, "SELECT id FROM functions WHERE defined AND address_taken AND ir_type = ?1 ORDER BY name");
		sqlite3_bind_text(st, 1, types.items[i], -1, SQLITE_TRANSIENT);
		VEC(unsigned) fids = {0};
		while (q_step(q->s, st))
			VEC_PUSH(&fids, (unsigned)sqlite3_column_int64(st, 0));
		for (size_t k = 0; k < fids.len && (long long)k < limit; k++) {
			json_t *c = q_fn_json(q, fids.items[k]);
			json_object_set_new(c, "assignments", json_array());
			json_object_set_new(c, "signature_matches", json_true());
			json_array_append_new(cands, c);
		}
		json_array_append_new(groups, json_pack("{s:n, s:n, s:s, s:o, s:o, s:I, s:b, s:s}", "field", "field_name",
		                                        "signature", types.items[i], "sites", sites, "candidates", cands,
		                                        "n_candidates", (json_int_t)fids.len, "single_candidate",
		                                        fids.len == 1, "candidates_basis",
		                                        "address-taken functions of the call's IR type"));
		VEC_FREE(&fids);
		free(types.items[i]);
	}
	VEC_FREE(&types);
	return json_pack("{s:o, s:I, s:o}", "groups", groups, "sites", (json_int_t)n_sites, "uncertainty",
	                 q_uncertainty(q, n_sites, NULL));
}

json_t *qv_inventory(qctx *q)
{
	json_t *meta = json_object();
	sqlite3_stmt *st = q_stmt(q->s, "SELECT key, value FROM meta ORDER BY key");
	while (q_step(q->s, st))
		json_object_set_new(meta, (const char *)sqlite3_column_text(st, 0), col_text(st, 1));
	json_t *graphs = json_array();
	st = q_stmt(q->s, "SELECT name, present, edges, indirect_edges, unresolved_sites, note FROM graphs ORDER BY bit");
	while (q_step(q->s, st))
		json_array_append_new(graphs, json_pack("{s:o, s:b, s:I, s:I, s:I, s:o}", "name", col_text(st, 0), "present",
		                                        sqlite3_column_int(st, 1), "edges",
		                                        (json_int_t)sqlite3_column_int64(st, 2), "indirect_edges",
		                                        (json_int_t)sqlite3_column_int64(st, 3), "unresolved_sites",
		                                        (json_int_t)sqlite3_column_int64(st, 4), "note", col_text(st, 5)));
	json_t *counts = json_object();
	static const char *const tables[][2] = {
		{"functions", "SELECT count(*) FROM functions"},
		{"functions_defined", "SELECT count(*) FROM functions WHERE defined"},
		{"sites", "SELECT count(*) FROM sites"},
		{"sites_indirect", "SELECT count(*) FROM sites INDEXED BY sites_indirect WHERE kind = 'indirect'"},
		{"globals", "SELECT count(*) FROM globals"},
		{"address_uses", "SELECT count(*) FROM address_uses"},
		{"fields", "SELECT count(*) FROM fields"},
		{"decisions", "SELECT count(*) FROM decisions"},
	};
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
		st = q_stmt(q->s, tables[i][1]);
		if (st && q_step(q->s, st))
			json_object_set_new(counts, tables[i][0], json_integer(sqlite3_column_int64(st, 0)));
	}
	json_t *inputs = json_array();
	st = q_stmt(q->s, "SELECT path FROM inputs ORDER BY id");
	while (q_step(q->s, st))
		json_array_append_new(inputs, col_text(st, 0));
	return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "catalog", catalog_path(q->s->cat), "fingerprint",
	                 catalog_fingerprint_of(q->s->cat), "default_graph", catalog_default_graph(q->s->cat), "inputs",
	                 inputs, "meta", meta, "graphs", graphs, "counts", counts, "uncertainty",
	                 q_uncertainty(q, 0, NULL));
}
