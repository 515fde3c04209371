/* view.c — "graph": a part of the call graph small enough to draw, as nodes
 * and labelled edges (query.h; docs/queries.md). src/report renders it as
 * DOT, GraphML or SVG.
 *
 *   root NAME [depth N] [direction out|in]   the functions within N calls of
 *                                            NAME (breadth-first, default 2)
 *   focus FILE:LINE                           the call sites at that line, one
 *                                            node each, with their targets
 *   site ID                                   the same for one site
 *   neither                                   every function with an edge
 *
 * Edges join two functions (or a focus site and a target) and carry the
 * strongest proof among the sites behind them (proof.c): a pair called once
 * through a direct call and once through a premised one is known directly.
 * hide_external drops functions the program only declares. The view stops
 * at max_nodes (default 300) and says so ("truncated"), so a request for a
 * whole program never becomes a 25,000-pixel drawing by accident. */
#include "query/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct view {
	qctx *q;
	unsigned *node_of;         /* per function: node index + 1, 0 = not in the view */
	json_t *nodes, *edges;
	json_t *pair_index;        /* "caller>callee" -> edge index */
	unsigned max_nodes;
	bool hide_external, truncated;
} view;

static bool external(qctx *q, unsigned fn)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT defined FROM functions WHERE id = ?1");
	sqlite3_bind_int64(st, 1, fn);
	return q_step(q->s, st) && !sqlite3_column_int(st, 0);
}

/* fn's node, added when there is room; 0 when left out. */
static unsigned fn_node(view *v, unsigned fn, const char *role)
{
	if (fn >= v->q->s->n_functions)
		return 0;
	if (v->node_of[fn])
		return v->node_of[fn];
	if (v->hide_external && external(v->q, fn))
		return 0;
	if (json_array_size(v->nodes) >= v->max_nodes) {
		v->truncated = true;
		return 0;
	}
	json_t *f = q_fn_json(v->q, fn);
	json_t *n = json_pack("{s:s}", "kind", "function");
	q_fn_name_set(v->q, n, "name", fn);
	json_object_update_new(n, json_pack("{s:O, s:O, s:O, s:O, s:s}", "file", json_object_get(f, "file"), "line",
	                                    json_object_get(f, "line"), "defined", json_object_get(f, "defined"),
	                                    "address_taken", json_object_get(f, "address_taken"), "role", role));
	json_decref(f);
	char id[32];
	snprintf(id, sizeof id, "f%u", fn);
	json_object_set_new(n, "id", json_string(id));
	json_array_append_new(v->nodes, n);
	return v->node_of[fn] = (unsigned)json_array_size(v->nodes);
}

static const char *node_id(view *v, unsigned node)
{
	return json_string_value(json_object_get(json_array_get(v->nodes, node - 1), "id"));
}

/* The edge from node a to node b through site (target fn, agent or NULL):
 * one per pair, the strongest proof kept, the sites counted. */
static void add_edge(view *v, unsigned a, unsigned b, unsigned site, unsigned target, const overlay_edge *agent)
{
	char key[80];
	snprintf(key, sizeof key, "%s>%s", node_id(v, a), node_id(v, b));
	q_proof_kind k;
	json_t *proof = q_proof_json(v->q, site, target, agent, &k);
	json_t *at = json_object_get(v->pair_index, key);
	if (at) {
		json_t *e = json_array_get(v->edges, (size_t)json_integer_value(at));
		json_object_set_new(e, "sites", json_integer(json_integer_value(json_object_get(e, "sites")) + 1));
		if ((int)k < (int)json_integer_value(json_object_get(e, "rank"))) {
			json_object_set_new(e, "proof", proof);
			json_object_set_new(e, "rank", json_integer(k));
			json_object_set_new(e, "site", json_integer(site));
		} else {
			json_decref(proof);
		}
		return;
	}
	json_object_set_new(v->pair_index, key, json_integer((json_int_t)json_array_size(v->edges)));
	json_array_append_new(v->edges, json_pack("{s:s, s:s, s:I, s:I, s:o, s:I}", "from", node_id(v, a), "to",
	                                          node_id(v, b), "site", (json_int_t)site, "sites", (json_int_t)1,
	                                          "proof", proof, "rank", (json_int_t)k));
}

/* Breadth-first from root, depth calls, one direction. */
static void from_root(view *v, unsigned root, long long depth, bool forward)
{
	qctx *q = v->q;
	unsigned n = q->s->n_functions;
	unsigned *dist = xmalloc((n + 1) * sizeof *dist), *queue = xmalloc((n + 1) * sizeof *queue);
	for (unsigned i = 0; i < n; i++)
		dist[i] = ~0u;
	unsigned head = 0, tail = 0;
	dist[root] = 0;
	queue[tail++] = root;
	fn_node(v, root, "root");
	q_edge_vec ev = {0};
	while (head < tail) {
		unsigned f = queue[head++];
		if (dist[f] >= depth || !v->node_of[f])
			continue;
		if (forward)
			q_out_edges(q, f, q->include_overlay, &ev);
		else
			q_in_edges(q, f, q->include_overlay, &ev);
		for (size_t i = 0; i < ev.len; i++) {
			unsigned g = ev.items[i].other;
			unsigned gn = fn_node(v, g, "reached");
			if (!gn)
				continue;
			if (forward)
				add_edge(v, v->node_of[f], gn, ev.items[i].site, g, ev.items[i].agent);
			else
				add_edge(v, gn, v->node_of[f], ev.items[i].site, f, ev.items[i].agent);
			if (g < n && dist[g] == ~0u) {
				dist[g] = dist[f] + 1;
				queue[tail++] = g;
			}
		}
	}
	VEC_FREE(&ev);
	free(dist);
	free(queue);
}

/* The sites at FILE:LINE, each a node between its caller and its targets. */
static bool from_focus(view *v)
{
	qctx *q = v->q;
	const char *file;
	long long line, one = -1;
	if (json_object_get(q->args, "site")) {
		if (!q_int(q, "site", &one, true))
			return false;
		if (one < 0 || one >= q->s->n_sites) {
			error_set(q->err, "no site %lld in the catalog", one);
			return false;
		}
		file = "";
		line = 0;
	} else if (!q_file_line(q, &file, &line)) {
		return false;
	}
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id, caller FROM sites WHERE line = ?2 AND (file = ?1 OR file LIKE "
	                                "'%/' || ?1) UNION SELECT s.id, s.caller FROM site_inlined i JOIN sites s ON "
	                                "s.id = i.site WHERE i.line = ?2 AND (i.file = ?1 OR i.file LIKE '%/' || ?1) "
	                                "ORDER BY 1");
	sqlite3_bind_text(st, 1, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, line);
	VEC(unsigned) sites = {0};
	VEC(unsigned) callers = {0};
	if (one >= 0) {
		st = q_stmt(q->s, "SELECT id, caller FROM sites WHERE id = ?1");
		sqlite3_bind_int64(st, 1, one);
	}
	while (q_step(q->s, st)) {
		VEC_PUSH(&sites, (unsigned)sqlite3_column_int64(st, 0));
		VEC_PUSH(&callers, (unsigned)sqlite3_column_int64(st, 1));
	}
	q_edge_vec ev = {0};
	for (size_t i = 0; i < sites.len; i++) {
		unsigned c = fn_node(v, callers.items[i], "caller");
		json_t *sj = q_site_json(q, sites.items[i]);
		char id[32];
		snprintf(id, sizeof id, "s%u", sites.items[i]);
		json_object_set_new(sj, "kind_of_call", json_object_get(sj, "kind") ? json_incref(json_object_get(sj, "kind"))
		                                                                     : json_null());
		json_object_set_new(sj, "kind", json_string("site"));
		json_object_set_new(sj, "id", json_string(id));
		json_object_set_new(sj, "site", json_integer(sites.items[i]));
		json_object_set_new(sj, "role", json_string("focus"));
		json_array_append_new(v->nodes, sj);
		unsigned sn = (unsigned)json_array_size(v->nodes);
		if (c)
			json_array_append_new(v->edges, json_pack("{s:s, s:s, s:I, s:I, s:{s:s}}", "from", node_id(v, c), "to",
			                                          id, "site", (json_int_t)sites.items[i], "sites",
			                                          (json_int_t)1, "proof", "kind", "call"));
		q_out_edges(q, callers.items[i], q->include_overlay, &ev);
		unsigned n_targets = 0;
		for (size_t k = 0; k < ev.len; k++) {
			if (ev.items[k].site != sites.items[i])
				continue;
			unsigned t = fn_node(v, ev.items[k].other, "target");
			if (t)
				add_edge(v, sn, t, sites.items[i], ev.items[k].other, ev.items[k].agent);
			n_targets++;
		}
		json_object_set_new(json_array_get(v->nodes, sn - 1), "targets", json_integer(n_targets));
	}
	VEC_FREE(&ev);
	VEC_FREE(&sites);
	VEC_FREE(&callers);
	return true;
}

/* Every function with an edge, up to max_nodes. */
static void whole(view *v)
{
	qctx *q = v->q;
	q_edge_vec ev = {0};
	for (unsigned f = 0; f < q->s->n_functions && !v->truncated; f++) {
		if (q_intrinsic(q, f))
			continue;
		q_out_edges(q, f, q->include_overlay, &ev);
		for (size_t i = 0; i < ev.len; i++) {
			unsigned a = fn_node(v, f, "function"), b = a ? fn_node(v, ev.items[i].other, "function") : 0;
			if (a && b)
				add_edge(v, a, b, ev.items[i].site, ev.items[i].other, ev.items[i].agent);
		}
	}
	VEC_FREE(&ev);
}

json_t *qv_graph(qctx *q)
{
	long long depth = 2, max_nodes = 300;
	if ((json_object_get(q->args, "depth") && !q_int(q, "depth", &depth, false)) ||
	    (json_object_get(q->args, "max_nodes") && !q_int(q, "max_nodes", &max_nodes, false)))
		return NULL;
	if (depth < 0 || max_nodes < 1 || max_nodes > 100000) {
		error_set(q->err, depth < 0 ? "depth must be 0 or more" : "max_nodes must be 1 to 100000");
		return NULL;
	}
	const char *dir = q_str(q, "direction");
	if (dir && strcmp(dir, "in") != 0 && strcmp(dir, "out") != 0) {
		error_set(q->err, "direction must be \"in\" or \"out\", not '%s'", dir);
		return NULL;
	}
	bool focus = json_object_get(q->args, "location") || json_object_get(q->args, "file") ||
	             json_object_get(q->args, "site");
	bool rooted = json_object_get(q->args, "root") != NULL;
	if (focus && rooted) {
		error_set(q->err, "give root or a focus location, not both");
		return NULL;
	}
	unsigned root = 0;
	if (rooted && !q_function(q, "root", &root))
		return NULL;
	view v = {.q = q, .nodes = json_array(), .edges = json_array(), .pair_index = json_object(),
	          .max_nodes = (unsigned)max_nodes, .hide_external = q_bool(q, "hide_external")};
	v.node_of = xcalloc(q->s->n_functions + 1, sizeof *v.node_of);
	bool ok = true;
	if (rooted)
		from_root(&v, root, depth, !dir || strcmp(dir, "out") == 0);
	else if (focus)
		ok = from_focus(&v);
	else
		whole(&v);
	free(v.node_of);
	json_decref(v.pair_index);
	if (!ok) {
		json_decref(v.nodes);
		json_decref(v.edges);
		return NULL;
	}
	size_t i;
	json_t *e;
	json_array_foreach(v.edges, i, e) json_object_del(e, "rank");
	json_t *r = json_pack("{s:s, s:o, s:o, s:b, s:I}", "mode", rooted ? "root" : focus ? "focus" : "whole", "nodes",
	                      v.nodes, "edges", v.edges, "truncated", v.truncated, "max_nodes", (json_int_t)max_nodes);
	if (rooted) {
		json_object_set_new(r, "root", json_string(q_fn_name(q, root)));
		json_object_set_new(r, "depth", json_integer(depth));
		json_object_set_new(r, "direction", json_string(dir ? dir : "out"));
	}
	json_object_set_new(r, "uncertainty", q_uncertainty(q, 0, NULL));
	return r;
}
