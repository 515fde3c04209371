/* rta.c — rapid type analysis, Algorithm 20.1.6 (Bacon & Sweeney), twice.
 *
 * oo_rta_rounds is the algorithm as the lesson writes it: rounds over the
 * bodies reachable when the round started, until nothing changes. It is the
 * one that explains itself (§3's round table), and it costs a full pass per
 * round: O(|C|·B·S·|C|h) in the worst case (§5).
 *
 * oo_rta is the worklist version §5 prices at O(S·|C|·h): a body is scanned
 * once, when it becomes reachable, and each scanned virtual site is filed
 * under its receiver's declared class. When a class C enters Inst, only the
 * sites filed under C's ancestors (the D with C ∈ sub(D)) are re-resolved, and
 * only for C; C is also listed under each ancestor D, so a site scanned later
 * walks exactly sub(D) ∩ Inst instead of scanning a bitmap of all classes.
 * Total work O(B + S + |C|·h + pairs (site, instantiated subclass)).
 * Both compute the least solution of the same constraints, so they must
 * agree; the unit and property tests check that they do. */
#include "oo/oo.h"
#include "oo/set.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- worklist -------------------------------------------------------------- */

typedef struct rta_state {
	const oo_program *p;
	oo_graph *g;
	uint64_t *inst;
	int *queue, tail;
	int *filed, *next_filed;     /* filed[D]: first scanned site with decl(recv) = D */
	int *below, *below_cls, *below_next, nbelow;   /* below[D]: list of C ∈ sub(D) ∩ Inst */
} rta_state;

static void rta_reach(rta_state *st, int body)
{
	if (oo_graph_reach(st->g, body))
		st->queue[st->tail++] = body;
}

static void rta_target(rta_state *st, int site, int cls)
{
	int t = oo_lookup(st->p, cls, st->p->sites[site].meth);
	st->g->work++;
	if (t < 0)
		return;
	oo_graph_add(st->g, site, t);
	rta_reach(st, t);
}

static void rta_instantiate(rta_state *st, int cls)
{
	if (!oo_set_add(st->inst, cls))
		return;
	for (int d = cls; d >= 0; d = st->p->classes[d].parent) {
		for (int c = st->filed[d]; c >= 0; c = st->next_filed[c])
			rta_target(st, c, cls);
		if (st->nbelow % 1024 == 0) {
			st->below_cls = xrealloc(st->below_cls, sizeof(int) * ((size_t)st->nbelow + 1024));
			st->below_next = xrealloc(st->below_next, sizeof(int) * ((size_t)st->nbelow + 1024));
		}
		st->below_cls[st->nbelow] = cls;
		st->below_next[st->nbelow] = st->below[d];
		st->below[d] = st->nbelow++;
	}
}

oo_graph *oo_rta(const oo_program *p)
{
	rta_state st = {0};
	st.p = p;
	st.g = oo_graph_new(p, OO_RTA);
	st.inst = xcalloc((size_t)p->cwords + 1, sizeof(uint64_t));
	st.queue = xmalloc(sizeof(int) * ((size_t)p->nbodies + 1));
	st.filed = xmalloc(sizeof(int) * ((size_t)p->nclasses + 1));
	st.next_filed = xmalloc(sizeof(int) * ((size_t)p->nsites + 1));
	st.below = xmalloc(sizeof(int) * ((size_t)p->nclasses + 1));
	for (int i = 0; i < p->nclasses; i++)
		st.filed[i] = st.below[i] = -1;
	rta_reach(&st, p->main_body);
	for (int head = 0; head < st.tail; head++) {
		const oo_body *b = &p->bodies[st.queue[head]];
		for (int pc = 0; pc < b->ncode; pc++) {
			const oo_stmt *s = &b->code[pc];
			st.g->work++;
			if (s->op == OO_NEW) {
				rta_instantiate(&st, s->cls);
			} else if (s->op == OO_CALL) {
				rta_reach(&st, s->callee);
			} else if (s->op == OO_VCALL) {
				int d = p->vars[p->sites[s->site].recv].type;
				st.next_filed[s->site] = st.filed[d];
				st.filed[d] = s->site;
				for (int k = st.below[d]; k >= 0; k = st.below_next[k])
					rta_target(&st, s->site, st.below_cls[k]);
			}
		}
	}
	free(st.inst);
	free(st.queue);
	free(st.filed);
	free(st.next_filed);
	free(st.below);
	free(st.below_cls);
	free(st.below_next);
	return st.g;
}

/* ---- rounds ---------------------------------------------------------------- */

/* "s3, s5 → {Shape.draw, Square.draw}; s4, s7 → {Circle.area, Square.area}":
 * a site whose set was empty before the round shows its new set, one that
 * grew shows what it gained; sites with the same text share a group, groups
 * in the order of their first site. */
static const char *changes_cell(arena *a, const oo_program *p, const oo_graph *g, const int *before)
{
	int n = p->nsites;
	const char **text = xcalloc((size_t)n + 1, sizeof *text);
	for (int c = 0; c < n; c++) {
		int k;
		const int *items = oo_graph_targets(g, c, &k);
		if (k == before[c])
			continue;
		/* sets only grow and keep insertion order: the gain is the tail */
		text[c] = before[c] == 0 ? arena_printf(a, "→ {%s}", oo_fmt_bodies(a, p, items, k))
		                         : arena_printf(a, "+= %s", oo_fmt_bodies(a, p, items + before[c], k - before[c]));
	}
	oo_buf b = {0};
	for (int c = 0; c < n; c++) {
		if (!text[c])
			continue;
		oo_buf_printf(&b, "%s%s", b.len ? "; " : "", p->sites[c].label);
		for (int d = c + 1; d < n; d++)
			if (text[d] && strcmp(text[d], text[c]) == 0) {
				oo_buf_printf(&b, ", %s", p->sites[d].label);
				text[d] = NULL;
			}
		oo_buf_printf(&b, " %s", text[c]);
	}
	const char *s = arena_strdup(a, b.len ? oo_buf_str(&b) : "none: fixed point");
	oo_buf_free(&b);
	free(text);
	return s;
}

oo_graph *oo_rta_rounds(const oo_program *p, oo_table **trace)
{
	oo_graph *g = oo_graph_new(p, OO_RTA);
	oo_table *t = NULL;
	if (trace) {
		static const char *const head[] = {"round", "bodies visited", "Inst after", "R after (+ new)", "targets changed"};
		t = *trace = oo_table_new("RTA rounds (Algorithm 20.1.6)", 5, head);
	}
	int nb = p->nbodies;
	uint64_t *inst = xcalloc((size_t)p->cwords + 1, sizeof(uint64_t));
	unsigned char *visit = xmalloc((size_t)nb + 1);
	unsigned char *reach_before = xmalloc((size_t)nb + 1);
	int *before = t ? xmalloc(sizeof(int) * ((size_t)p->nsites + 1)) : NULL;   /* |T(c)| at the round's start */
	oo_graph_reach(g, p->main_body);
	int changed;
	do {
		changed = 0;
		g->rounds++;
		memcpy(visit, g->reach, (size_t)nb);          /* R as it was when the round started */
		memcpy(reach_before, g->reach, (size_t)nb);
		if (before)
			for (int c = 0; c < p->nsites; c++)
				before[c] = oo_graph_count(g, c);
		for (int b = 0; b < nb; b++) {
			if (!visit[b])
				continue;
			const oo_body *body = &p->bodies[b];
			for (int pc = 0; pc < body->ncode; pc++) {
				const oo_stmt *s = &body->code[pc];
				g->work++;
				if (s->op == OO_NEW) {
					changed |= oo_set_add(inst, s->cls);
				} else if (s->op == OO_CALL) {
					changed |= oo_graph_reach(g, s->callee);
				} else if (s->op == OO_VCALL) {
					const oo_site *c = &p->sites[s->site];
					int d = p->vars[c->recv].type, end = p->classes[d].sub_end;
					for (int C = oo_set_next(inst, d, end); C >= 0; C = oo_set_next(inst, C + 1, end)) {
						int m = oo_lookup(p, C, c->meth);
						g->work++;
						if (m < 0)
							continue;
						changed |= oo_graph_add(g, s->site, m);
						changed |= oo_graph_reach(g, m);
					}
				}
			}
		}
		if (t) {
			oo_buf visited = {0}, r = {0};
			int grew = 0;
			for (int b = 0; b < nb; b++) {
				if (visit[b])
					oo_buf_printf(&visited, "%s%s", visited.len ? ", " : "", p->bodies[b].name);
				if (g->reach[b]) {
					grew |= !reach_before[b];
					oo_buf_printf(&r, "%s%s%s", r.len ? ", " : "", reach_before[b] ? "" : "+", p->bodies[b].name);
				}
			}
			const char *row[] = {arena_printf(&t->a, "%d", g->rounds), oo_buf_str(&visited),
			                     oo_fmt_classes(&t->a, p, inst), grew ? oo_buf_str(&r) : "(same)",
			                     changes_cell(&t->a, p, g, before)};
			oo_table_add(t, row);
			oo_buf_free(&visited);
			oo_buf_free(&r);
		}
	} while (changed);
	free(inst);
	free(visit);
	free(reach_before);
	free(before);
	return g;
}
