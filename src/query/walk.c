/* walk.c — the graph walks: reach (one shortest supporting path), closure
 * (everything reachable, either direction) and slice (the functions on some
 * path). Walks run over the graph's adjacency arrays (catalog.h), in
 * memory. A target set is expanded once per walk: after the first site that
 * calls it, every function in it has been reached, so wide Andersen sets
 * shared by thousands of sites cost one pass each.
 *
 * With the overlay included, agent edges count only where the graph leaves a
 * site unresolved. reach looks for a proven path first and uses agent edges
 * only when none exists: a breadth-first search over both kinds could return
 * an equal-length agent path and under-claim (seed 001). */
#include "query/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/dom.h"
#include "util/xalloc.h"

typedef struct bfs {
	unsigned n;
	unsigned *prev;            /* predecessor function, UNSEEN when unvisited */
	unsigned *site;            /* the site of the step into it */
	const overlay_edge **agent;
	unsigned *order;           /* visit order */
	unsigned n_order;
	unsigned char *expanded;   /* per target set of the graph: already expanded in this walk */
	VEC(unsigned) sites;       /* scratch: the sites calling one function */
	unsigned *depth;           /* calls from the start */
	unsigned max_depth, max_fanout;   /* the walk's bounds (seed 002), 0 = none */
	VEC(unsigned) cut;         /* functions left unexpanded by a bound: what lies past them is unknown */
} bfs;

#define UNSEEN 0xffffffffu

static void bfs_init(qctx *q, bfs *b, unsigned n)
{
	memset(b, 0, sizeof *b);
	b->n = n;
	b->prev = xmalloc((n + 1) * sizeof *b->prev);
	b->site = xmalloc((n + 1) * sizeof *b->site);
	b->agent = xcalloc(n + 1, sizeof *b->agent);
	b->order = xmalloc((n + 1) * sizeof *b->order);
	b->expanded = xcalloc(q->adj->n_sets + 1, 1);
	b->depth = xcalloc(n + 1, sizeof *b->depth);
	b->max_depth = q->max_depth;
	b->max_fanout = q->max_fanout;
	for (unsigned i = 0; i < n; i++)
		b->prev[i] = UNSEEN;
}

static void bfs_free(bfs *b)
{
	free(b->prev);
	free(b->site);
	free(b->agent);
	free(b->order);
	free(b->expanded);
	free(b->depth);
	VEC_FREE(&b->sites);
	VEC_FREE(&b->cut);
}

/* g reached from f through site (agent: the overlay edge, or NULL). */
static void bfs_reach(bfs *b, unsigned g, unsigned f, unsigned site, const overlay_edge *agent)
{
	if (g >= b->n || b->prev[g] != UNSEEN)
		return;
	b->prev[g] = f;
	b->site[g] = site;
	b->agent[g] = agent;
	b->depth[g] = b->depth[f] + 1;
	b->order[b->n_order++] = g;
}

/* How many edges leave f (forward) or enter it (backward), counting each
 * site's targets: what --max-fanout bounds. */
static unsigned fanout(const qctx *q, unsigned f, bool forward)
{
	const catalog_adjacency *a = q->adj;
	unsigned n = 0;
	if (f >= a->n_functions)
		return 0;
	if (forward) {
		for (uint32_t s = a->function_sites[f]; s < a->function_sites[f + 1]; s++)
			if (a->site_sets[s] != CATALOG_NO_SET)
				n += a->set_offsets[a->site_sets[s] + 1] - a->set_offsets[a->site_sets[s]];
	} else {
		for (uint32_t i = a->target_offsets[f]; i < a->target_offsets[f + 1]; i++)
			n += a->set_site_offsets[a->target_sets[i] + 1] - a->set_site_offsets[a->target_sets[i]];
	}
	return n;
}

/* True when a bound stops the walk at f (then f is listed as cut). */
static bool bounded(qctx *q, bfs *b, unsigned f, bool forward)
{
	if ((b->max_depth && b->depth[f] >= b->max_depth) || (b->max_fanout && fanout(q, f, forward) > b->max_fanout)) {
		VEC_PUSH(&b->cut, f);
		return true;
	}
	return false;
}

/* f's callees, in (site, target) order, as q_out_edges gives them. */
static void step_out(qctx *q, bfs *b, unsigned f)
{
	const catalog_adjacency *a = q->adj;
	for (uint32_t s = f < a->n_functions ? a->function_sites[f] : 0; f < a->n_functions && s < a->function_sites[f + 1];
	     s++) {
		uint32_t k = a->site_sets[s];
		if (k == CATALOG_NO_SET || b->expanded[k])
			continue;
		b->expanded[k] = 1;
		for (uint32_t i = a->set_offsets[k]; i < a->set_offsets[k + 1]; i++)
			if (!q_intrinsic(q, a->set_targets[i]))
				bfs_reach(b, a->set_targets[i], f, s, NULL);
	}
}

static int site_cmp(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, c = *(const unsigned *)y;
	return a < c ? -1 : a > c;
}

/* f's callers, in site order, as q_in_edges gives them; the sites of sets
 * expanded before only lead to callers already reached. */
static void step_in(qctx *q, bfs *b, unsigned f)
{
	const catalog_adjacency *a = q->adj;
	VEC_CLEAR(&b->sites);
	for (uint32_t i = f < a->n_functions ? a->target_offsets[f] : 0; f < a->n_functions && i < a->target_offsets[f + 1];
	     i++) {
		uint32_t k = a->target_sets[i];
		if (b->expanded[k])
			continue;
		b->expanded[k] = 1;
		for (uint32_t j = a->set_site_offsets[k]; j < a->set_site_offsets[k + 1]; j++)
			VEC_PUSH(&b->sites, a->set_sites[j]);
	}
	if (b->sites.len > 1)
		qsort(b->sites.items, b->sites.len, sizeof *b->sites.items, site_cmp);
	for (size_t i = 0; i < b->sites.len; i++)
		bfs_reach(b, a->site_caller[b->sites.items[i]], f, b->sites.items[i], NULL);
}

/* Breadth-first from start (forward: callees; backward: callers), agent
 * edges after the graph's at each function; stops early when stop is
 * reached (stop = UNSEEN: never). */
static void bfs_run(qctx *q, bfs *b, unsigned start, bool forward, bool agents, unsigned stop)
{
	b->prev[start] = start;
	b->site[start] = UNSEEN;
	b->order[b->n_order++] = start;
	for (unsigned head = 0; head < b->n_order; head++) {
		unsigned f = b->order[head];
		if (f == stop)
			break;
		if (bounded(q, b, f, forward))
			continue;
		if (forward)
			step_out(q, b, f);
		else
			step_in(q, b, f);
		for (size_t i = 0; agents && i < q->agents.len; i++) {
			const agent_step *a = &q->agents.items[i];
			if (forward && a->caller == f)
				bfs_reach(b, a->target, f, a->site, a->edge);
			else if (!forward && a->target == f)
				bfs_reach(b, a->caller, f, a->site, a->edge);
		}
	}
}

/* uncertainty.bounds: the bounds and the functions they left unexpanded
 * (in one or two walks): a target past them is unknown, not unreachable. */
static unsigned bounds_json(qctx *q, json_t *u, const bfs *a, const bfs *b)
{
	json_t *names = json_array();
	unsigned n = 0;
	for (int w = 0; w < 2; w++) {
		const bfs *x = w ? b : a;
		for (size_t i = 0; x && i < x->cut.len; i++, n++)
			if (json_array_size(names) < 50)
				json_array_append_new(names, json_string(q_fn_name(q, x->cut.items[i])));
	}
	json_object_set_new(u, "bounds", json_pack("{s:I, s:I, s:b, s:I, s:o}", "max_depth", (json_int_t)q->max_depth,
	                                          "max_fanout", (json_int_t)q->max_fanout, "complete", n == 0,
	                                          "n_unexpanded", (json_int_t)n, "unexpanded", names));
	return n;
}

static bool walk_args(qctx *q, unsigned *from, unsigned *to)
{
	return q_function(q, "from", from) && q_function(q, "to", to);
}

/* FROM's forward walk and TO's backward one (slice, dominators): a function
 * on some path FROM -> TO is seen by both. With back_bounded false only
 * FROM's walk is bounded: TO's keeps everything that reaches TO. */
static bool walks_between(qctx *q, unsigned *from, unsigned *to, bool *agents, bfs *fw, bfs *bw, bool back_bounded)
{
	if (!walk_args(q, from, to))
		return false;
	*agents = q->include_overlay && q->agents.len;
	bfs_init(q, fw, q->s->n_functions);
	bfs_init(q, bw, q->s->n_functions);
	if (!back_bounded)
		bw->max_depth = bw->max_fanout = 0;
	bfs_run(q, fw, *from, true, *agents, UNSEEN);
	bfs_run(q, bw, *to, false, *agents, UNSEEN);
	return true;
}

json_t *qv_reach(qctx *q)
{
	unsigned from, to;
	if (!walk_args(q, &from, &to))
		return NULL;
	unsigned n = q->s->n_functions;
	bfs b;
	bfs_init(q, &b, n);
	bfs_run(q, &b, from, true, false, to);
	bool via_agents = false;
	if (b.prev[to] == UNSEEN && q->include_overlay && q->agents.len) {
		bfs proven = b;
		bfs_init(q, &b, n);
		bfs_run(q, &b, from, true, true, to);
		via_agents = b.prev[to] != UNSEEN;
		if (!via_agents) {   /* report the proven exploration's uncertainty */
			bfs_free(&b);
			b = proven;
		} else {
			bfs_free(&proven);
		}
	}
	json_t *path = json_array(), *steps = json_array(), *ids = json_array();
	unsigned agent_steps = 0, n_unres = 0, covered = 0;
	bool found = b.prev[to] != UNSEEN;
	q_proof_summary sum;
	q_proof_summary_init(&sum);
	if (found) {
		VEC(unsigned) chain = {0};
		for (unsigned f = to;; f = b.prev[f]) {
			VEC_PUSH(&chain, f);
			if (f == from)
				break;
		}
		for (size_t i = chain.len; i-- > 0;) {
			unsigned f = chain.items[i];
			json_array_append_new(path, json_string(q_fn_name(q, f)));
			if (f != to)
				q_unresolved_sites(q, f, ids, &n_unres, &covered);
			if (i + 1 < chain.len) {
				json_t *st = json_object();
				q_fn_name_set(q, st, "caller", chain.items[i + 1]);
				q_fn_name_set(q, st, "callee", f);
				json_object_set_new(st, "site", q_site_json(q, b.site[f]));
				json_object_set_new(st, "agent", json_boolean(b.agent[f] != NULL));
				if (b.agent[f]) {
					agent_steps++;
					json_object_set_new(st, "overlay_edge", q_agent_json(b.agent[f]));
				}
				q_proof_kind k;
				json_t *proof = q_proof_json(q, b.site[f], f, b.agent[f], &k);
				q_proof_summary_add(&sum, k, proof, b.site[f]);
				json_object_set_new(st, "proof", proof);
				json_array_append_new(steps, st);
			}
		}
		VEC_FREE(&chain);
	} else {
		/* No path: the unresolved sites of everything FROM reaches are
		 * where a missing edge could hide. */
		for (unsigned i = 0; i < b.n_order; i++)
			q_unresolved_sites(q, b.order[i], ids, &n_unres, &covered);
	}
	json_t *u = q_uncertainty(q, n_unres, ids);
	json_object_set_new(u, "agent_path_steps", json_integer(agent_steps));
	json_object_set_new(u, "explored_functions", json_integer(b.n_order));
	unsigned cut = bounds_json(q, u, &b, NULL);
	unsigned distance = found ? b.depth[to] : 0;
	bfs_free(&b);
	/* Answer version 2: "proven" means every step direct or premise-free;
	 * version 1's "no agent step" is "agent_free" (docs/queries.md). */
	bool proven = found && strcmp(q_proof_summary_label(&sum), "proven") == 0;
	json_t *summary = q_proof_summary_json(&sum);
	if (!found)
		json_object_set_new(summary, "label", json_null());
	/* Past a bound nothing is known: "unknown", never "unreachable" (seed 002). */
	json_t *r = json_pack("{s:o, s:o, s:b, s:b, s:b, s:o, s:o, s:o, s:I, s:o}", "from", q_fn_json(q, from), "to",
	                      q_fn_json(q, to), "reachable", found, "proven", proven, "agent_free",
	                      found && agent_steps == 0, "proof", summary, "path", path, "steps", steps, "length",
	                      (json_int_t)json_array_size(steps), "uncertainty", u);
	json_object_set_new(r, "verdict", json_string(found ? "reachable" : cut ? "unknown" : "unreachable"));
	json_object_set_new(r, "distance", found ? json_integer(distance) : json_string(cut ? "unknown" : "none"));
	return r;
}

static bool direction_forward(qctx *q, bool *forward)
{
	const char *d = q_str(q, "direction");
	if (!d || strcmp(d, "out") == 0) {
		*forward = true;
		return true;
	}
	if (strcmp(d, "in") == 0) {
		*forward = false;
		return true;
	}
	error_set(q->err, "direction must be \"in\" or \"out\", not '%s'", d);
	return false;
}

/* The unresolved indirect sites that may call into set (backward walks):
 * those whose IR type is that of an address-taken function in it. */
static void unresolved_into(qctx *q, const bfs *b, json_t *ids, unsigned *n)
{
	strmap types;
	strmap_init(&types);
	VEC(char *) owned = {0};
	/* One pass over the address-taken functions (a partial index), not a
	 * lookup per function of the closure. */
	sqlite3_stmt *st = q_stmt(q->s, "SELECT id, ir_type FROM functions WHERE address_taken");
	while (q_step(q->s, st)) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		const char *t = (const char *)sqlite3_column_text(st, 1);
		if (!t || id < 0 || id >= b->n || b->prev[id] == UNSEEN || strmap_has(&types, t))
			continue;
		char *c = xstrdup(t);
		VEC_PUSH(&owned, c);
		strmap_put(&types, c, c);
	}
	st = q_stmt(q->s, "SELECT id, call_type FROM sites INDEXED BY sites_indirect WHERE kind = 'indirect' AND "
	                                "(resolved & ?1) = 0 ORDER BY id");
	sqlite3_bind_int64(st, 1, q->bit);
	while (q_step(q->s, st)) {
		const char *t = (const char *)sqlite3_column_text(st, 1);
		if (t && strmap_has(&types, t)) {
			(*n)++;
			if (json_array_size(ids) < 50)
				json_array_append_new(ids, json_integer(sqlite3_column_int64(st, 0)));
		}
	}
	for (size_t i = 0; i < owned.len; i++)
		free(owned.items[i]);
	VEC_FREE(&owned);
	strmap_free(&types);
}

json_t *qv_closure(qctx *q)
{
	unsigned fn;
	bool forward;
	if (!q_function(q, "name", &fn) || !direction_forward(q, &forward))
		return NULL;
	unsigned n = q->s->n_functions;
	bfs proven;
	bfs_init(q, &proven, n);
	bfs_run(q, &proven, fn, forward, false, UNSEEN);
	bfs all = proven;
	bool two = q->include_overlay && q->agents.len;
	if (two) {
		bfs_init(q, &all, n);
		bfs_run(q, &all, fn, forward, true, UNSEEN);
	}
	json_t *fns = json_array(), *agent_reached = json_array(), *ids = json_array();
	unsigned n_unres = 0, covered = 0;
	for (unsigned i = 0; i < all.n_order; i++) {
		unsigned f = all.order[i];
		json_array_append_new(fns, json_string(q_fn_name(q, f)));
		if (two && proven.prev[f] == UNSEEN)
			json_array_append_new(agent_reached, json_string(q_fn_name(q, f)));
		if (forward)
			q_unresolved_sites(q, f, ids, &n_unres, &covered);
	}
	if (!forward)
		unresolved_into(q, &all, ids, &n_unres);
	json_t *u = q_uncertainty(q, n_unres, ids);
	json_object_set_new(u, "agent_reached", agent_reached);
	bounds_json(q, u, &all, NULL);
	json_t *r = json_pack("{s:o, s:s, s:o, s:I, s:o}", "function", q_fn_json(q, fn), "direction",
	                      forward ? "out" : "in", "functions", fns, "count", (json_int_t)all.n_order, "uncertainty", u);
	if (two)
		bfs_free(&all);
	bfs_free(&proven);
	return r;
}

json_t *qv_slice(qctx *q)
{
	unsigned from, to, n = q->s->n_functions;
	bool agents;
	bfs fw, bw;
	if (!walks_between(q, &from, &to, &agents, &fw, &bw, true))
		return NULL;
	json_t *fns = json_array(), *edges = json_array(), *ids = json_array();
	VEC(unsigned) in = {0};
	for (unsigned i = 0; i < fw.n_order; i++)
		if (bw.prev[fw.order[i]] != UNSEEN)
			VEC_PUSH(&in, fw.order[i]);
	unsigned n_unres = 0, covered = 0, agent_edges = 0;
	q_edge_vec ev = {0};
	q_proof_summary sum;
	q_proof_summary_init(&sum);
	for (size_t i = 0; i < in.len; i++) {
		json_array_append_new(fns, q_fn_json(q, in.items[i]));
		if (in.items[i] != to)
			q_unresolved_sites(q, in.items[i], ids, &n_unres, &covered);
		q_out_edges(q, in.items[i], agents, &ev);
		for (size_t k = 0; k < ev.len; k++) {
			unsigned g = ev.items[k].other;
			if (g >= n || fw.prev[g] == UNSEEN || bw.prev[g] == UNSEEN)
				continue;
			json_t *e = json_object();
			q_fn_name_set(q, e, "caller", in.items[i]);
			q_fn_name_set(q, e, "callee", g);
			json_object_update_new(e, json_pack("{s:I, s:b}", "site", (json_int_t)ev.items[k].site, "agent",
			                                    ev.items[k].agent != NULL));
			q_proof_kind pk;
			json_t *proof = q_proof_json(q, ev.items[k].site, g, ev.items[k].agent, &pk);
			q_proof_summary_add(&sum, pk, proof, ev.items[k].site);
			json_object_set_new(e, "proof", proof);
			agent_edges += ev.items[k].agent != NULL;
			json_array_append_new(edges, e);
		}
	}
	VEC_FREE(&ev);
	json_t *u = q_uncertainty(q, n_unres, ids);
	json_object_set_new(u, "agent_edges", json_integer(agent_edges));
	bounds_json(q, u, &fw, &bw);
	json_t *r = json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:o}", "from", q_fn_json(q, from), "to", q_fn_json(q, to),
	                      "functions", fns, "edges", edges, "proof", q_proof_summary_json(&sum), "count",
	                      (json_int_t)in.len, "uncertainty", u);
	const char *emit = q_str(q, "emit_module");
	if (r && emit && *emit && !q->s->write_module) {
		error_set(q->err, "this program cannot write bitcode (emit_module needs the facet binary: "
		                  "'facet query slice FROM TO --emit-module OUT.bc')");
		json_decref(r);
		r = NULL;
	}
	if (r && emit && *emit) {
		VEC(const char *) names = {0};
		size_t i;
		json_t *f;
		json_array_foreach(fns, i, f)
			if (json_is_true(json_object_get(f, "defined")))
				VEC_PUSH(&names, json_string_value(json_object_get(f, json_object_get(f, "symbol") ? "symbol" : "name")));
		VEC(char *) inputs = {0};
		sqlite3_stmt *st = q_stmt(q->s, "SELECT path FROM inputs ORDER BY id");
		while (q_step(q->s, st))
			VEC_PUSH(&inputs, xstrdup((const char *)sqlite3_column_text(st, 0)));
		bool ok = q->s->write_module((const char *const *)inputs.items, (unsigned)inputs.len, names.items,
		                         (unsigned)names.len, emit, q->err);
		for (size_t k = 0; k < inputs.len; k++)
			free(inputs.items[k]);
		VEC_FREE(&inputs);
		VEC_FREE(&names);
		if (!ok) {
			json_decref(r);
			r = NULL;
		} else {
			json_object_set_new(r, "emitted_module", json_string(emit));
		}
	}
	VEC_FREE(&in);
	bfs_free(&fw);
	bfs_free(&bw);
	return r;
}

/* ---- dominators: the fix points of FROM -> TO (seed 002) ----------------------------------- */

/* The functions on some path FROM -> TO as a small graph (index local[f]),
 * its edges those between them, for cg_dominators. */
typedef struct subgraph {
	VEC(unsigned) nodes;       /* function ids */
	unsigned *local;           /* function id -> index, UNSEEN outside */
	VEC(uint32_t) off, succ;
} subgraph;

static void subgraph_build(qctx *q, subgraph *g, const bfs *fw, const bfs *bw, bool agents)
{
	unsigned n = q->s->n_functions;
	g->local = xmalloc((n + 1) * sizeof *g->local);
	for (unsigned i = 0; i < n; i++)
		g->local[i] = UNSEEN;
	for (unsigned i = 0; i < fw->n_order; i++)
		if (bw->prev[fw->order[i]] != UNSEEN) {
			g->local[fw->order[i]] = (unsigned)g->nodes.len;
			VEC_PUSH(&g->nodes, fw->order[i]);
		}
	q_edge_vec ev = {0};
	for (size_t i = 0; i < g->nodes.len; i++) {
		VEC_PUSH(&g->off, (uint32_t)g->succ.len);
		/* a function the walk did not expand has no known edges */
		bool cut = false;
		for (size_t k = 0; k < fw->cut.len; k++)
			cut |= fw->cut.items[k] == g->nodes.items[i];
		if (cut)
			continue;
		q_out_edges(q, g->nodes.items[i], agents, &ev);
		for (size_t k = 0; k < ev.len; k++)
			if (ev.items[k].other < n && g->local[ev.items[k].other] != UNSEEN)
				VEC_PUSH(&g->succ, g->local[ev.items[k].other]);
	}
	VEC_PUSH(&g->off, (uint32_t)g->succ.len);
	VEC_FREE(&ev);
}

static void subgraph_free(subgraph *g)
{
	VEC_FREE(&g->nodes);
	VEC_FREE(&g->off);
	VEC_FREE(&g->succ);
	free(g->local);
}

json_t *qv_dominators(qctx *q)
{
	unsigned from, to;
	bool agents;
	bfs fw, bw;
	/* TO's walk only keeps what reaches TO; FROM's walk is the bounded one */
	if (!walks_between(q, &from, &to, &agents, &fw, &bw, false))
		return NULL;
	bool found = fw.prev[to] != UNSEEN;
	json_t *doms = json_array(), *fix = json_array(), *ids = json_array();
	unsigned n_unres = 0, covered = 0;
	subgraph g = {0};
	if (found) {
		subgraph_build(q, &g, &fw, &bw, agents);
		unsigned *out = xmalloc((g.nodes.len + 1) * sizeof *out);
		unsigned k = cg_dominators((unsigned)g.nodes.len, g.off.items, g.succ.items, g.local[from], g.local[to], out);
		for (unsigned i = 0; i < k; i++) {
			unsigned f = g.nodes.items[out[i]];
			json_array_append_new(doms, q_fn_json(q, f));
			if (f != from && f != to)
				json_array_append_new(fix, json_string(q_fn_name(q, f)));
		}
		free(out);
		/* the unresolved sites inside the slice could open a way around them */
		for (size_t i = 0; i < g.nodes.len; i++)
			if (g.nodes.items[i] != to)
				q_unresolved_sites(q, g.nodes.items[i], ids, &n_unres, &covered);
	} else {
		for (unsigned i = 0; i < fw.n_order; i++)
			q_unresolved_sites(q, fw.order[i], ids, &n_unres, &covered);
	}
	json_t *u = q_uncertainty(q, n_unres, ids);
	unsigned cut = bounds_json(q, u, &fw, NULL);
	json_t *r = json_pack("{s:o, s:o, s:b, s:s, s:o, s:o, s:I, s:I, s:o}", "from", q_fn_json(q, from), "to",
	                      q_fn_json(q, to), "reachable", found, "verdict",
	                      found ? "reachable" : cut ? "unknown" : "unreachable", "dominators", doms, "fix_points", fix,
	                      "count", (json_int_t)json_array_size(doms), "slice_functions", (json_int_t)g.nodes.len,
	                      "uncertainty", u);
	subgraph_free(&g);
	bfs_free(&fw);
	bfs_free(&bw);
	return r;
}
