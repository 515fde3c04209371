/* overlay_verbs.c — record_edges, list_overlay, save_overlay, load_overlay:
 * the session's overlay through query_call. save_overlay is the only verb
 * that writes a file. */
#include "query/internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

/* Unresolved indirect sites of the graph, and how many live (non-refuted)
 * edges cover. */
static void coverage(qctx *q, unsigned *covered, unsigned *total)
{
	VEC_CLEAR(&q->agents);
	q_build_agents(q);
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id FROM sites WHERE kind = 'indirect' AND (resolved & ?1) = 0");
	sqlite3_bind_int64(st, 1, q->bit);
	*covered = *total = 0;
	while (q_step(q->s, st)) {
		unsigned site = (unsigned)sqlite3_column_int64(st, 0);
		(*total)++;
		bool cov = false;
		for (size_t i = 0; i < q->agents.len && !cov; i++)
			cov = q->agents.items[i].site == site;
		*covered += cov;
	}
}

static json_t *status(qctx *q)
{
	unsigned covered, total;
	coverage(q, &covered, &total);
	return json_pack("{s:s, s:s, s:b, s:I, s:I, s:{s:s, s:I, s:I}}", "path", q->s->overlay_path,
	                 "catalog_fingerprint", catalog_fingerprint_of(q->s->cat), "pending", overlay_pending(q->s->ov),
	                 "records", (json_int_t)overlay_n_records(q->s->ov), "edges",
	                 (json_int_t)overlay_n_edges(q->s->ov), "uncertainty", "graph",
	                 q->graph_name, "covered_sites", (json_int_t)covered, "unresolved_sites",
	                 (json_int_t)total);
}

json_t *qv_record_edges(qctx *q)
{
	json_t *records = json_object_get(q->args, "records");
	if (!records) {
		error_set(q->err, "missing argument 'records' (an array of add/verify/retract records)");
		return NULL;
	}
	if (q->s->overlay_error && overlay_n_records(q->s->ov) == 0) {
		error_set(q->err, "the overlay did not load: %s", q->s->overlay_error);
		return NULL;
	}
	if (!overlay_apply(q->s->ov, records, json_object_get(q->args, "graph") ? q->graph : -1, q->err))
		return NULL;
	json_t *r = status(q);
	json_object_set_new(r, "applied", json_integer((json_int_t)json_array_size(records)));
	return r;
}

json_t *qv_list_overlay(qctx *q)
{
	json_t *r = status(q);
	json_t *edges = json_array();
	for (size_t i = 0; i < overlay_n_edges(q->s->ov); i++) {
		const overlay_edge *e = overlay_edge_at(q->s->ov, i);
		json_t *o = q_agent_json(e);
		json_t *sites = json_array();
		for (unsigned k = 0; k < e->n_sites; k++)
			json_array_append_new(sites, json_integer(e->sites[k]));
		json_object_set_new(o, "sites", sites);
		json_object_set_new(o, "graph", json_string(cg_graph_name(e->graph)));
		json_array_append_new(edges, o);
	}
	json_object_set_new(r, "edges", edges);
	json_object_set_new(r, "load_error", q->s->overlay_error ? json_string(q->s->overlay_error) : json_null());
	return r;
}

json_t *qv_save_overlay(qctx *q)
{
	const char *path = q_str(q, "path");
	if (q->s->overlay_error && overlay_n_records(q->s->ov) == 0 && !path) {
		error_set(q->err, "refusing to overwrite %s, which did not load (%s); give another 'path'",
		          q->s->overlay_path, q->s->overlay_error);
		return NULL;
	}
	if (!overlay_save(q->s->ov, path ? path : q->s->overlay_path, q->err))
		return NULL;
	if (path) {
		free(q->s->overlay_path);
		q->s->overlay_path = xstrdup(path);
	}
	free(q->s->overlay_error);
	q->s->overlay_error = NULL;
	json_t *r = status(q);
	json_object_set_new(r, "saved", json_string(q->s->overlay_path));
	return r;
}

json_t *qv_load_overlay(qctx *q)
{
	const char *path = q_str(q, "path");
	if (overlay_pending(q->s->ov) && !q_bool(q, "discard_pending")) {
		error_set(q->err, "the overlay holds %zu records not saved; save_overlay first, or pass discard_pending",
		          overlay_n_records(q->s->ov));
		return NULL;
	}
	overlay *fresh = overlay_new(q->s->cat);
	const char *file = path ? path : q->s->overlay_path;
	bool create = q_bool(q, "create") && access(file, F_OK) != 0;   /* a new overlay file */
	if (!create && !overlay_load(fresh, file, q->err)) {
		overlay_free(fresh);
		return NULL;
	}
	overlay_free(q->s->ov);
	q->s->ov = fresh;
	if (path) {
		free(q->s->overlay_path);
		q->s->overlay_path = xstrdup(path);
	}
	free(q->s->overlay_error);
	q->s->overlay_error = NULL;
	json_t *r = status(q);
	json_object_set_new(r, create ? "created" : "loaded", json_string(q->s->overlay_path));
	return r;
}
