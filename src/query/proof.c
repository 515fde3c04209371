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
 *                 warranted by Add-Witness (f ∈ init(S.m))
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

#include <string.h>

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
 * before a residual answer (the strongest warrant labels the edge). */
static bool add_warrant(qctx *q, unsigned site, unsigned target, json_t *p, q_proof_kind *kind)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT rule, premise, evidence, source, outcome FROM decisions WHERE site = ?1 "
	                                "AND function = ?2 AND fact = 'add' AND outcome IN ('supported', 'residual') "
	                                "ORDER BY CASE rule WHEN 'Add-Witness' THEN 0 WHEN 'Add-Store' THEN 1 ELSE 2 END, "
	                                "CASE outcome WHEN 'supported' THEN 0 ELSE 1 END, id LIMIT 1");
	sqlite3_bind_int64(st, 1, site);
	sqlite3_bind_int64(st, 2, target);
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

/* The widest collapsed member set that holds target and shares functions
 * with site's callee set (tables collapsed_set_sites, collapsed_members),
 * named by its first object, as {object, id, kind, width, objects}; NULL
 * when none. Every set the site names must have an object: a dangling one
 * is damage (recorded), not a set that holds nothing. */
static json_t *collapsed_holder(qctx *q, unsigned site, unsigned target)
{
	sqlite3_stmt *st = q_stmt(q->s, "SELECT c.member_set, o.id, o.name, o.kind, o.width, (SELECT count(*) FROM "
	                                "collapsed_objects x WHERE x.member_set = c.member_set), EXISTS(SELECT 1 FROM "
	                                "collapsed_members m WHERE m.member_set = c.member_set AND m.function = ?2) "
	                                "FROM collapsed_set_sites c LEFT JOIN collapsed_objects o ON o.id = (SELECT "
	                                "min(id) FROM collapsed_objects y WHERE y.member_set = c.member_set) "
	                                "WHERE c.site = ?1 ORDER BY 7 DESC, o.width DESC, c.member_set");
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, site);
	sqlite3_bind_int64(st, 2, target);
	json_t *found = NULL;
	while (q_step(q->s, st)) {
		if (sqlite3_column_type(st, 1) == SQLITE_NULL || sqlite3_column_type(st, 2) != SQLITE_TEXT) {
			q_damaged(q->s, "table collapsed_set_sites names member_set %lld at site %u, which no whole row of "
			          "table collapsed_objects holds", (long long)sqlite3_column_int64(st, 0), site);
			json_decref(found);
			sqlite3_reset(st);
			return NULL;
		}
		if (!found && sqlite3_column_int(st, 6))
			found = json_pack("{s:s, s:I, s:s, s:I, s:I}", "object", (const char *)sqlite3_column_text(st, 2),
			                  "id", (json_int_t)sqlite3_column_int64(st, 1), "kind",
			                  sqlite3_column_text(st, 3) ? (const char *)sqlite3_column_text(st, 3) : "?",
			                  "width", (json_int_t)sqlite3_column_int64(st, 4), "objects",
			                  (json_int_t)sqlite3_column_int64(st, 5));
	}
	return found;
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
