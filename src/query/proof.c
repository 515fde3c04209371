/* proof.c — how an answer's edge is known: its proof label (query.h,
 * docs/queries.md "Proof labels").
 *
 * An edge's label comes from the catalog alone: the site's kind, the graphs
 * the edge is in (target_sets.graphs) and the add decisions the refinement
 * recorded for it (table decisions), or the overlay edge an agent recorded.
 *
 *   direct        the IR names the callee
 *   premise-free  an indirect edge of the points-to graph R0 (Andersen's
 *                 over-approximation) that the graph keeps, or an addition
 *                 warranted by Add-Witness (f ∈ init(S.m); vslot's: a vtable
 *                 places f in the slot)
 *   premised      an addition whose warrant rests on a premise (Add-Store:
 *                 π_bind; an adopted residual answer: the oracle), an edge
 *                 the catalog records no warrant for, or a points-to edge
 *                 whose target may come through a collapsed object
 *                 (premise "collapsed": the object's one location mixes
 *                 all its fields) that no initializer of the site's field
 *                 witnesses. Any collapsed object counts, however narrow:
 *                 one holding two functions already mixes two fields.
 *   agent         an overlay edge (confidence and provenance attached)
 *
 * A path is proven only when each of its steps is direct or premise-free
 * (q_proof_summary). Prunes never label an edge that is present; what they
 * risk (a true edge dropped) is in the answer's uncertainty. */
#include "query/internal.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/collapsed.h"
#include "util/xalloc.h"
#include "cxx/cxx.h"

static const char *const kind_names[] = {"direct", "premise-free", "premised", "agent"};

const char *q_proof_kind_name(q_proof_kind k)
{
	return (unsigned)k < sizeof kind_names / sizeof *kind_names ? kind_names[k] : "?";
}

static json_t *text_col(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? json_string((const char *)t) : json_null();
}

static json_t *graph_names(unsigned bits)
{
	json_t *arr = json_array();
	for (int g = 0; g < CG_N_GRAPHS; g++)
		if (bits & (1u << g))
			json_array_append_new(arr, json_string(cg_graph_name(g)));
	return arr;
}

/* The adopted add decision for (site, target): Add-Witness before Add-Store
 * before a residual answer (the strongest warrant labels the edge). The
 * refinement's decisions, and under a C++ graph vslot's too (a vtable
 * placing the target in the slot witnesses the edge in cha, rta, vta and
 * vslot alike). */
static bool add_warrant(qctx *q, unsigned site, unsigned target, json_t *p, q_proof_kind *kind)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT rule, premise, evidence, source, outcome FROM decisions WHERE site = ?1 "
	                                "AND function = ?2 AND fact = 'add' AND outcome IN ('supported', 'residual') "
	                                "AND (graph = 'rpm' OR ?3) "
	                                "ORDER BY CASE rule WHEN 'Add-Witness' THEN 0 WHEN 'Add-Store' THEN 1 ELSE 2 END, "
	                                "CASE outcome WHEN 'supported' THEN 0 ELSE 1 END, id LIMIT 1");
	sqlite3_bind_int64(st, 1, site);
	sqlite3_bind_int64(st, 2, target);
	sqlite3_bind_int(st, 3, cxx_is_virtual_graph(q->graph));
	if (!q_step(q->s, st))
		return false;
	const char *rule = (const char *)sqlite3_column_text(st, 0);
	const char *premise = (const char *)sqlite3_column_text(st, 1);
	bool free_of_premise = rule && strcmp(rule, "Add-Witness") == 0 && (!premise || strcmp(premise, "true") == 0);
	*kind = free_of_premise ? PROOF_PREMISE_FREE : PROOF_PREMISED;
	json_object_set_new(p, "rule", text_col(st, 0));
	json_object_set_new(p, "premise", free_of_premise ? json_null()
	                                  : premise && strcmp(premise, "true") != 0 ? json_string(premise)
	                                  : json_string("oracle"));
	json_object_set_new(p, "evidence", text_col(st, 2));
	json_object_set_new(p, "source", text_col(st, 3));
	return true;
}

/* The catalog's collapsed objects (catalog/collapsed.h), read and checked
 * once per session: per indirect site the member sets sharing its
 * callees, widest first, and per set its first object by id. */
struct q_collapsed {
	catalog_collapsed cc;
	char *damage;              /* why the tables cannot be read, or NULL */
	uint32_t *site_off;        /* n_sites + 1: site s's sets are site_sets[site_off[s] ..] */
	uint32_t *site_sets;       /* indices in cc.sets */
	const catalog_collapsed_object **first;   /* per set: its object with the lowest id */
};

void q_collapsed_free(q_collapsed *c)
{
	if (!c)
		return;
	catalog_collapsed_free(&c->cc);
	free(c->damage);
	free(c->site_off);
	free(c->site_sets);
	free(c->first);
	free(c);
}

static int set_by_width(const void *a, const void *b, void *ctx)
{
	const catalog_collapsed *cc = ctx;
	const catalog_collapsed_set *x = &cc->sets[*(const uint32_t *)a], *y = &cc->sets[*(const uint32_t *)b];
	if (x->width != y->width)
		return x->width > y->width ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static void index_sites(q_collapsed *c, unsigned n_sites)
{
	catalog_collapsed *cc = &c->cc;
	c->site_off = xcalloc(n_sites + 2, sizeof *c->site_off);
	size_t n = 0;
	for (unsigned i = 0; i < cc->n_sets; i++)
		for (unsigned k = 0; k < cc->sets[i].n_sites; k++)
			if (cc->sets[i].sites[k].site < n_sites) {
				c->site_off[cc->sets[i].sites[k].site + 1]++;
				n++;
			}
	for (unsigned s = 0; s < n_sites; s++)
		c->site_off[s + 1] += c->site_off[s];
	c->site_sets = xmalloc((n + 1) * sizeof *c->site_sets);
	uint32_t *fill = xmalloc((n_sites + 1) * sizeof *fill);
	memcpy(fill, c->site_off, n_sites * sizeof *fill);
	for (unsigned i = 0; i < cc->n_sets; i++)
		for (unsigned k = 0; k < cc->sets[i].n_sites; k++)
			if (cc->sets[i].sites[k].site < n_sites)
				c->site_sets[fill[cc->sets[i].sites[k].site]++] = i;
	free(fill);
	for (unsigned s = 0; s < n_sites; s++)
		qsort_r(c->site_sets + c->site_off[s], c->site_off[s + 1] - c->site_off[s], sizeof *c->site_sets,
		        set_by_width, cc);
	c->first = xcalloc(cc->n_sets + 1, sizeof *c->first);
	for (unsigned i = 0; i < cc->n; i++) {
		const catalog_collapsed_object *o = &cc->objects[i];
		size_t k = (size_t)(o->set - cc->sets);
		if (!c->first[k] || o->id < c->first[k]->id)
			c->first[k] = o;
	}
}

static q_collapsed *collapsed_tables(qctx *q)
{
	query_session *s = q->s;
	if (!s->collapsed) {
		s->collapsed = xcalloc(1, sizeof *s->collapsed);
		facet_error err = {0};
		if (!catalog_collapsed_read(s->cat, &s->collapsed->cc, &err)) {
			/* "PATH: damaged catalog (table T, row N: WHAT)": q_damaged adds the path */
			const char *m = err.msg, *cut = strstr(m, ": damaged catalog ");
			s->collapsed->damage = xstrdup(cut ? cut + strlen(": damaged catalog ") : m);
			catalog_collapsed_free(&s->collapsed->cc);
		} else {
			index_sites(s->collapsed, s->n_sites);
		}
	}
	if (s->collapsed->damage) {
		q_damaged(s, "%s", s->collapsed->damage);
		return NULL;
	}
	return s->collapsed;
}

static bool holds(const catalog_collapsed_set *ms, unsigned f)
{
	unsigned lo = 0, hi = ms->width;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (ms->functions[mid] == f)
			return true;
		if (ms->functions[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The widest collapsed member set that holds target and shares functions
 * with site's callee set, named by its first object, as {object, id, kind,
 * width, objects}; NULL when none (or damaged tables, recorded). */
static json_t *collapsed_holder(qctx *q, unsigned site, unsigned target)
{
	q_collapsed *c = collapsed_tables(q);
	if (!c || site >= q->s->n_sites)
		return NULL;
	for (uint32_t k = c->site_off[site]; k < c->site_off[site + 1]; k++) {
		const catalog_collapsed_set *ms = &c->cc.sets[c->site_sets[k]];
		const catalog_collapsed_object *o = c->first[c->site_sets[k]];
		if (o && holds(ms, target))
			return json_pack("{s:s, s:I, s:s, s:I, s:I}", "object", o->name, "id", (json_int_t)o->id, "kind",
			                 o->kind, "width", (json_int_t)ms->width, "objects", (json_int_t)ms->n_objects);
	}
	return NULL;
}

/* True when target is in the initializers of the field site dispatches
 * (field_assignments, form init): a witness that does not rest on the
 * points-to analysis, so a collapse does not weaken the edge. */
static bool witnessed(qctx *q, unsigned site, unsigned target)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT 1 FROM sites s JOIN field_assignments a ON a.field = s.field AND "
	                                "a.function = ?2 AND a.form = 'init' WHERE s.id = ?1 LIMIT 1");
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, site);
	sqlite3_bind_int64(st, 2, target);
	return q_step(q->s, st);
}

/* An edge the points-to graphs give (R0, andersen): premise-free, unless
 * its target may come through a collapsed object and no initializer of
 * the site's field witnesses it; then premised, premise "collapsed". */
static q_proof_kind points_to_label(qctx *q, unsigned site, unsigned target, unsigned bits, json_t *p)
{
	json_object_set_new(p, "rule", json_string(bits & (1u << CG_R0) ? "R0" : "andersen"));
	json_t *held = collapsed_holder(q, site, target);
	if (!held)
		return PROOF_PREMISE_FREE;
	json_object_set_new(p, "collapsed", held);
	if (witnessed(q, site, target)) {
		json_object_set_new(p, "evidence", json_string("in an initializer of the site's field"));
		return PROOF_PREMISE_FREE;
	}
	json_object_set_new(p, "premise", json_string("collapsed"));
	return PROOF_PREMISED;
}

json_t *q_proof_json(qctx *q, unsigned site, unsigned target, const overlay_edge *agent, q_proof_kind *kind_out)
{
	json_t *p = json_object();
	q_proof_kind kind = PROOF_PREMISED;
	if (agent) {
		kind = PROOF_AGENT;
		json_object_set_new(p, "graphs", json_pack("[s]", "overlay"));
		json_object_set_new(p, "confidence", json_string(overlay_confidence_name(agent->confidence)));
	} else {
		unsigned bits = 0;
		const char *skind = "";
		sqlite3_stmt *st = q_stmt(q->s, "SELECT s.kind, t.graphs FROM sites s LEFT JOIN target_sets t ON "
		                                "t.id = s.target_set AND t.target = ?2 WHERE s.id = ?1");
		sqlite3_bind_int64(st, 1, site);
		sqlite3_bind_int64(st, 2, target);
		char kbuf[16] = "";
		if (q_step(q->s, st)) {
			const char *k = (const char *)sqlite3_column_text(st, 0);
			snprintf(kbuf, sizeof kbuf, "%s", k ? k : "");
			bits = (unsigned)sqlite3_column_int64(st, 1);
		}
		skind = kbuf;
		json_object_set_new(p, "graphs", graph_names(bits));
		if (strcmp(skind, "direct") == 0) {
			kind = PROOF_DIRECT;
		} else if (add_warrant(q, site, target, p, &kind)) {
			/* an addition: its warrant labels it, even where R0 also has it */
			if (bits & (1u << CG_R0) && kind == PROOF_PREMISED) {
				/* R0 has it anyway: the premise is not needed, unless R0
				 * has it only through a collapse */
				json_t *keep = json_deep_copy(p);
				kind = points_to_label(q, site, target, bits, p);
				if (kind == PROOF_PREMISED) {
					json_object_set(keep, "collapsed", json_object_get(p, "collapsed"));
					json_object_update(p, keep);
				} else {
					json_object_set_new(p, "premise", json_null());
				}
				json_decref(keep);
			}
		} else if (bits & ((1u << CG_R0) | (1u << CG_ANDERSEN))) {
			kind = points_to_label(q, site, target, bits, p);
		} else {
			json_object_set_new(p, "rule", json_null());
			json_object_set_new(p, "premise", json_string("no warrant recorded for this edge"));
		}
	}
	json_object_set_new(p, "kind", json_string(q_proof_kind_name(kind)));
	if (kind_out)
		*kind_out = kind;
	return p;
}

void q_proof_summary_init(q_proof_summary *sum)
{
	memset(sum, 0, sizeof *sum);
	sum->premises = json_array();
}

void q_proof_summary_add(q_proof_summary *sum, q_proof_kind k, json_t *proof, unsigned site)
{
	sum->n[k]++;
	if (k != PROOF_PREMISED)
		return;
	json_t *e = json_pack("{s:I, s:O, s:O}", "site", (json_int_t)site, "rule", json_object_get(proof, "rule"),
	                      "premise", json_object_get(proof, "premise"));
	json_t *held = json_object_get(proof, "collapsed");
	if (json_is_object(held))   /* the collapsed object the edge may come through */
		json_object_set(e, "collapsed", json_object_get(held, "object"));
	json_array_append_new(sum->premises, e);
}

const char *q_proof_summary_label(const q_proof_summary *sum)
{
	return sum->n[PROOF_AGENT] ? "agent" : sum->n[PROOF_PREMISED] ? "premised" : "proven";
}

json_t *q_proof_summary_json(q_proof_summary *sum)
{
	json_t *counts = json_object();
	for (int k = 0; k < PROOF_N_KINDS; k++)
		json_object_set_new(counts, kind_names[k], json_integer(sum->n[k]));
	json_t *r = json_pack("{s:s, s:o, s:o}", "label", q_proof_summary_label(sum), "steps", counts, "premises",
	                      sum->premises);
	sum->premises = NULL;
	return r;
}
