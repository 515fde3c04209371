/* test_solver.c — the Andersen solver on hand-computed systems, and a property
 * test against a naive reference solver (every constraint re-applied until
 * nothing changes, sets as plain byte arrays) on random systems, each also
 * solved in shuffled insertion orders with and without cycle detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pta/solver.h"

/* pts(node) equals the n locations given. */
static void expect_pts(pta_solver *s, unsigned node, const unsigned *want, size_t n, const char *what)
{
	const sbitmap *p = pta_pts(s, node);
	size_t got = sbm_count(p);
	for (size_t i = 0; i < n; i++)
		if (!sbm_test(p, want[i]))
			fail_msg("%s: location %u (object %u offset %lld) missing", what, want[i],
			         pta_loc_object(s, want[i]), (long long)pta_loc_offset(s, want[i]));
	if (got != n) {
		unsigned l;
		SBM_FOREACH(p, l) print_message("  %s has %u (object %u offset %lld)\n", what, l,
		                                pta_loc_object(s, l), (long long)pta_loc_offset(s, l));
		fail_msg("%s: %zu locations, expected %zu", what, got, n);
	}
}
#define EXPECT(s, node, ...) do { \
	unsigned want_[] = { __VA_ARGS__ }; \
	expect_pts((s), (node), want_, sizeof want_ / sizeof want_[0], #node); \
} while (0)
#define EXPECT_EMPTY(s, node) do { \
	if (!sbm_empty(pta_pts((s), (node)))) fail_msg("%s: expected empty", #node); \
} while (0)

/* ---- hand-made systems ---- */

static void copy_chain(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned a = pta_object(s, 4, 0), b = pta_object(s, 4, 0);
	unsigned la = pta_field(s, a, 0), lb = pta_field(s, b, 0);
	unsigned p = pta_node(s), q = pta_node(s), r = pta_node(s), t = pta_node(s), u = pta_node(s);
	pta_copy(s, r, q);               /* added before their sources have anything */
	pta_copy(s, q, p);
	pta_addr(s, p, la);
	pta_addr(s, q, lb);
	pta_copy(s, t, u);               /* t, u: nothing */
	pta_solve(s);
	EXPECT(s, p, la);
	EXPECT(s, q, la, lb);
	EXPECT(s, r, la, lb);
	EXPECT_EMPTY(s, t);
	assert_int_equal(pta_loc_object(s, la), a);
	assert_int_equal(pta_loc_object(s, p), PTA_NONE);
	pta_free(s);
}

static void double_pointers(void **state)
{
	(void)state;
	/* int x, y; int *p = &x; int **pp = &p; *pp = &y; int *q = *pp; int **pp2 = pp; int *r = *pp2; */
	pta_solver *s = pta_new(NULL, NULL);
	unsigned x = pta_object(s, 4, 0), y = pta_object(s, 4, 0), pm = pta_object(s, 8, 0);
	unsigned lx = pta_field(s, x, 0), ly = pta_field(s, y, 0), lp = pta_field(s, pm, 0);
	unsigned tx = pta_node(s), ty = pta_node(s), pp = pta_node(s), q = pta_node(s), pp2 = pta_node(s),
	         r = pta_node(s);
	pta_load(s, r, pp2, 0);
	pta_copy(s, pp2, pp);
	pta_load(s, q, pp, 0);
	pta_store(s, pp, ty, 0);
	pta_addr(s, ty, ly);
	pta_addr(s, tx, lx);
	pta_addr(s, pp, lp);
	pta_store(s, pp, tx, 0);         /* p = &x through the pointer too */
	pta_solve(s);
	EXPECT(s, lp, lx, ly);            /* the content of p */
	EXPECT(s, q, lx, ly);
	EXPECT(s, r, lx, ly);
	EXPECT(s, pp2, lp);
	pta_free(s);
}

static void fields_stay_apart(void **state)
{
	(void)state;
	/* struct S { void *a; void *b; } s; s.a = &x; s.b = &y; ra = s.a; rb = s.b; */
	pta_solver *s = pta_new(NULL, NULL);
	unsigned x = pta_object(s, 4, 0), y = pta_object(s, 4, 0), so = pta_object(s, 16, 0);
	unsigned lx = pta_field(s, x, 0), ly = pta_field(s, y, 0);
	unsigned ps = pta_node(s), pa = pta_node(s), pb = pta_node(s), tx = pta_node(s), ty = pta_node(s),
	         ra = pta_node(s), rb = pta_node(s), rb2 = pta_node(s);
	pta_addr(s, ps, pta_field(s, so, 0));
	pta_addr(s, tx, lx);
	pta_addr(s, ty, ly);
	pta_gep(s, pa, ps, 0);
	pta_gep(s, pb, ps, 8);
	pta_store(s, pa, tx, 0);
	pta_store(s, pb, ty, 0);
	pta_load(s, ra, ps, 0);
	pta_load(s, rb, ps, 8);           /* folded offset */
	pta_load(s, rb2, pa, 8);          /* through the field pointer: (s,0)+8 */
	pta_solve(s);
	unsigned sa = pta_field(s, so, 0), sb = pta_field(s, so, 8);
	assert_int_not_equal(sa, sb);
	EXPECT(s, pa, sa);
	EXPECT(s, pb, sb);
	EXPECT(s, ra, lx);
	EXPECT(s, rb, ly);
	EXPECT(s, rb2, ly);
	EXPECT(s, sa, lx);
	EXPECT(s, sb, ly);
	assert_false(pta_object_collapsed(s, so));
	assert_int_equal(pta_loc_offset(s, sb), 8);
	pta_free(s);
}

static void variable_index_collapses(void **state)
{
	(void)state;
	/* as above, then `char *c = (char *)&s + i;` */
	pta_solver *s = pta_new(NULL, NULL);
	unsigned x = pta_object(s, 4, 0), y = pta_object(s, 4, 0), so = pta_object(s, 16, 0);
	unsigned other = pta_object(s, 16, 0);
	unsigned lx = pta_field(s, x, 0), ly = pta_field(s, y, 0);
	unsigned ps = pta_node(s), pa = pta_node(s), pb = pta_node(s), tx = pta_node(s), ty = pta_node(s),
	         ra = pta_node(s), rb = pta_node(s), c = pta_node(s), po = pta_node(s), po8 = pta_node(s);
	pta_addr(s, ps, pta_field(s, so, 0));
	pta_addr(s, tx, lx);
	pta_addr(s, ty, ly);
	pta_gep(s, pa, ps, 0);
	pta_gep(s, pb, ps, 8);
	pta_store(s, pa, tx, 0);
	pta_store(s, pb, ty, 0);
	pta_load(s, ra, ps, 0);
	pta_load(s, rb, ps, 8);
	pta_gep_var(s, c, pb);            /* reaches the object through its field at 8 */
	pta_addr(s, po, pta_field(s, other, 0));
	pta_gep(s, po8, po, 8);
	pta_solve(s);
	assert_true(pta_object_collapsed(s, so));
	assert_false(pta_object_collapsed(s, other));
	unsigned base = pta_field(s, so, 0);
	assert_int_equal(pta_field(s, so, 8), base);   /* every (s, k) is now one location */
	assert_int_equal(pta_canon(s, base), base);
	EXPECT(s, c, base);
	EXPECT(s, pa, base);
	EXPECT(s, pb, base);              /* (s,8) was rewritten to the collapsed location */
	EXPECT(s, ra, lx, ly);
	EXPECT(s, rb, lx, ly);
	EXPECT(s, base, lx, ly);
	EXPECT(s, po8, pta_field(s, other, 8));
	pta_stats st;
	pta_get_stats(s, &st);
	assert_int_equal(st.collapsed_objects, 1);
	/* the memory figures: the sets' parts add up, every part that holds something is counted */
	assert_int_equal(st.set_bytes, st.pts_bytes + st.delta_bytes + st.succ_bytes + st.reported_bytes + st.locset_bytes);
	assert_true(st.locset_bytes >= sizeof(sbm_elem));   /* the collapsed object's other fields */
	assert_true(st.pts_bytes >= 3 * sizeof(sbm_elem));   /* c, pa, pb, ra, ... each hold an element */
	assert_true(st.node_bytes >= st.nodes * (sizeof(sbitmap) + 3 * sizeof(uint32_t)));   /* copy edges, pts and done ids, parent */
	assert_true(st.cx_bytes > 0 && st.map_bytes > 0);
	pta_free(s);
}

static void container_of_and_out_of_range(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned o = pta_object(s, 48, 0), o2 = pta_object(s, 48, 0), o3 = pta_object(s, 48, 0);
	unsigned unk = pta_object(s, 0, 0), forced = pta_object(s, 32, PTA_OBJ_COLLAPSED | 0x300);
	unsigned f16 = pta_field(s, o, 16);
	unsigned p = pta_node(s), q = pta_node(s), r = pta_node(s), p2 = pta_node(s), q2 = pta_node(s),
	         p3 = pta_node(s), q3 = pta_node(s), pu = pta_node(s), qu = pta_node(s);
	/* container_of(p, struct outer, member_at_16) */
	pta_addr(s, p, f16);
	pta_gep(s, q, p, -16);
	pta_gep(s, r, q, 40);             /* nested: (o,0)+40, still inside */
	/* before the start: collapses o2 */
	pta_addr(s, p2, pta_field(s, o2, 8));
	pta_gep(s, q2, p2, -16);
	/* one past the end: collapses o3 */
	pta_addr(s, p3, pta_field(s, o3, 40));
	pta_gep(s, q3, p3, 8);
	/* unknown size: one location from the start */
	pta_addr(s, pu, pta_field(s, unk, 24));
	pta_gep(s, qu, pu, 1000);
	pta_solve(s);

	EXPECT(s, q, pta_field(s, o, 0));
	EXPECT(s, r, pta_field(s, o, 40));
	assert_int_equal(pta_loc_offset(s, pta_field(s, o, 0)), 0);
	assert_false(pta_object_collapsed(s, o));
	assert_true(pta_object_collapsed(s, o2));
	EXPECT(s, p2, pta_field(s, o2, 0));
	EXPECT(s, q2, pta_field(s, o2, 0));
	assert_true(pta_object_collapsed(s, o3));
	EXPECT(s, q3, pta_field(s, o3, 0));
	assert_true(pta_object_collapsed(s, unk));
	assert_int_equal(pta_field(s, unk, 24), pta_field(s, unk, 0));
	EXPECT(s, pu, pta_field(s, unk, 0));
	EXPECT(s, qu, pta_field(s, unk, 0));
	assert_true(pta_object_collapsed(s, forced));
	assert_int_equal(pta_object_flags(s, forced), PTA_OBJ_COLLAPSED | 0x300);
	assert_int_equal(pta_object_size(s, o), 48);
	pta_free(s);
}

/* A bounded object (a global, a stack slot: PTA_OBJ_BOUNDED) that an offset
 * leaves names nothing there and keeps its fields: a pointer that may be
 * into a small one or into a larger one, moved by offsets that fit only the
 * larger (container_of, a field past the small one's end), reaches the
 * larger's fields only. One past the end is a location, not read or
 * written, and a step back from it is exact. An unbounded object of the
 * same size collapses as before. Should a bounded one collapse later (a
 * variable index, added after a first solve), the constraints that dropped
 * it get its one location, two loads of one offset included (the second
 * reuses the first's result). */
static void bounded_offsets_drop(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned small = pta_object(s, 8, PTA_OBJ_BOUNDED), big = pta_object(s, 40, PTA_OBJ_BOUNDED);
	unsigned plain = pta_object(s, 8, 0), late = pta_object(s, 8, PTA_OBJ_BOUNDED);
	unsigned fa = pta_object(s, 1, PTA_OBJ_CODE), fb = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned fc = pta_object(s, 1, PTA_OBJ_CODE), fd = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned a = pta_field(s, fa, 0), b = pta_field(s, fb, 0), c = pta_field(s, fc, 0), d = pta_field(s, fd, 0);
	pta_addr(s, pta_field(s, small, 0), a);
	pta_addr(s, pta_field(s, big, 24), b);
	pta_addr(s, pta_field(s, late, 0), c);
	unsigned p = pta_node(s), q = pta_node(s), r = pta_node(s), t = pta_node(s), u = pta_node(s), w = pta_node(s);
	unsigned x = pta_node(s), back = pta_node(s);
	pta_addr(s, p, pta_field(s, small, 0));
	pta_addr(s, p, pta_field(s, big, 16));
	pta_addr(s, p, pta_field(s, plain, 0));
	pta_gep(s, q, p, -16);                 /* container_of: big+0; before small's start; plain collapses */
	pta_gep(s, r, p, 8);                   /* small+8 (one past), big+24, plain */
	pta_load(s, t, r, 0);                  /* an access at one past small reads nothing of it */
	pta_gep(s, u, r, -8);                  /* back from one past: small+0, big+16, plain */
	pta_addr(s, x, d);
	pta_store(s, p, x, 16);                /* big+32; past small */
	pta_load(s, w, p, 16);
	pta_load(s, back, q, 0);               /* big+0 holds nothing */
	unsigned p2 = pta_node(s), v = pta_node(s), l1 = pta_node(s), l2 = pta_node(s), i = pta_node(s);
	pta_addr(s, p2, pta_field(s, late, 0));
	pta_gep(s, v, p2, -16);
	pta_load(s, l1, p2, 24);
	pta_load(s, l2, p2, 24);
	pta_solve(s);

	EXPECT(s, q, pta_field(s, big, 0), pta_field(s, plain, 0));
	EXPECT(s, r, pta_field(s, small, 8), pta_field(s, big, 24), pta_field(s, plain, 0));
	EXPECT(s, t, b, d);                    /* big+24's, and plain's one location (the store reached it) */
	EXPECT(s, u, pta_field(s, small, 0), pta_field(s, big, 16), pta_field(s, plain, 0));
	EXPECT(s, w, d);
	EXPECT(s, pta_field(s, small, 0), a);
	EXPECT(s, pta_field(s, big, 32), d);
	EXPECT(s, back, d);                    /* big+0 holds nothing; plain's one location d */
	assert_false(pta_object_collapsed(s, small));
	assert_false(pta_object_collapsed(s, big));
	assert_int_equal(pta_object_collapse_cause(s, plain), PTA_COLLAPSE_OFFSET);
	EXPECT_EMPTY(s, v);
	EXPECT_EMPTY(s, l1);
	EXPECT_EMPTY(s, l2);
	pta_stats st;
	pta_get_stats(s, &st);
	assert_int_equal(st.offset_dropped, 2);   /* small, late */
	assert_int_equal(pta_offset_dropped(s), 2);

	pta_gep_var(s, i, p2);                 /* late collapses now */
	pta_solve(s);
	assert_int_equal(pta_object_collapse_cause(s, late), PTA_COLLAPSE_INDEX);
	EXPECT(s, v, pta_field(s, late, 0));
	EXPECT(s, l1, c);
	EXPECT(s, l2, c);
	assert_int_equal(pta_offset_dropped(s), 1);
	pta_free(s);
}

/* On-the-fly call graph: fp's targets bind arguments and returns. */
typedef struct callctx {
	unsigned fobj[3], param[3], ret[3];   /* three functions: object, first parameter, return */
	unsigned arg, result, fp2_arg, fp2_result;
	unsigned calls[4][3];                 /* [tag][function] reports */
	unsigned other_reports;
	pta_solver *s;
} callctx;

static void bind_call(void *vctx, unsigned tag, unsigned loc)
{
	callctx *c = vctx;
	unsigned obj = pta_loc_object(c->s, loc);
	for (int f = 0; f < 3; f++) {
		if (obj != c->fobj[f])
			continue;
		c->calls[tag][f]++;
		if (tag == 1) {               /* site 1: r = fp(a) */
			pta_copy(c->s, c->param[f], c->arg);
			pta_copy(c->s, c->result, c->ret[f]);
		} else if (tag == 2) {        /* site 2: r2 = fp2(a2) */
			pta_copy(c->s, c->param[f], c->fp2_arg);
			pta_copy(c->s, c->fp2_result, c->ret[f]);
		}
		return;
	}
	c->other_reports++;
}

static void watch_binds_calls(void **state)
{
	(void)state;
	callctx c = {0};
	pta_solver *s = c.s = pta_new(bind_call, &c);
	for (int f = 0; f < 3; f++) {
		c.fobj[f] = pta_object(s, 1, 0);
		c.param[f] = pta_node(s);
		c.ret[f] = pta_node(s);
	}
	unsigned x = pta_object(s, 4, 0), y = pta_object(s, 4, 0);
	unsigned lx = pta_field(s, x, 0), ly = pta_field(s, y, 0);
	unsigned lf0 = pta_field(s, c.fobj[0], 0), lf1 = pta_field(s, c.fobj[1], 0), lf2 = pta_field(s, c.fobj[2], 0);
	unsigned fp = pta_node(s), fp2 = pta_node(s), table = pta_object(s, 16, 0), pt = pta_node(s);
	c.arg = pta_node(s);
	c.result = pta_node(s);
	c.fp2_arg = pta_node(s);
	c.fp2_result = pta_node(s);
	/* f0(p) returns p; f1(p) returns &y and its result is the fp of site 2 via memory;
	 * f2 is reached only once site 1 has resolved f1. */
	pta_copy(s, c.ret[0], c.param[0]);
	pta_addr(s, c.ret[1], ly);
	pta_copy(s, c.ret[2], c.param[2]);
	pta_addr(s, pt, pta_field(s, table, 8));
	pta_store(s, pt, c.param[1], 0);      /* table.f8 = f1's parameter */
	pta_load(s, fp2, pt, 0);              /* fp2 = table.f8 */
	pta_addr(s, fp, lf0);
	pta_addr(s, fp, lf1);
	pta_addr(s, c.arg, lx);
	pta_addr(s, c.arg, lf2);              /* site 1 passes f2 itself as the argument */
	pta_addr(s, c.fp2_arg, ly);
	pta_watch(s, fp, 1);
	pta_watch(s, fp2, 2);
	pta_solve(s);

	assert_int_equal(c.calls[1][0], 1);   /* each (tag, location) once */
	assert_int_equal(c.calls[1][1], 1);
	assert_int_equal(c.calls[1][2], 0);
	assert_int_equal(c.calls[2][2], 1);   /* fp2 gets f2 through f1's parameter and the table */
	assert_int_equal(c.calls[2][0], 0);
	assert_int_equal(c.other_reports, 1); /* fp2 also receives x, an int: reported, not bound */
	EXPECT(s, c.param[0], lx, lf2);
	EXPECT(s, c.param[1], lx, lf2);
	EXPECT(s, c.param[2], ly);
	EXPECT(s, fp2, lx, lf2);
	EXPECT(s, c.result, lx, lf2, ly);     /* f0 returns its argument, f1 returns &y */
	EXPECT(s, c.ret[2], ly);
	EXPECT(s, c.fp2_result, ly);          /* f2 returns its parameter, &y at site 2 */
	pta_stats st;
	pta_get_stats(s, &st);
	assert_int_equal(st.watches, 2);

	/* Incremental: a new target after the first solve is reported by the next. */
	unsigned f3 = pta_object(s, 1, 0);
	pta_addr(s, fp, pta_field(s, f3, 0));
	pta_solve(s);
	assert_int_equal(c.other_reports, 2);
	assert_int_equal(c.calls[1][0], 1);
	pta_free(s);
}

/* pta_watch_targets: only code and PTA_OBJ_NAMES_CODE memory, each once,
 * both from the delta (while solving) and from what the node already did
 * (a watch added after pta_solve); a plain watch on the same node sees all. */
typedef struct tgtctx { unsigned seen[3][8]; unsigned n[3]; } tgtctx;

static void note_report(void *vctx, unsigned tag, unsigned loc)
{
	tgtctx *c = vctx;
	assert_true(tag < 3 && c->n[tag] < 8);
	c->seen[tag][c->n[tag]++] = loc;
}

static void watch_targets_reports_code(void **state)
{
	(void)state;
	tgtctx c = {0};
	pta_solver *s = pta_new(note_report, &c);
	unsigned f = pta_object(s, 1, PTA_OBJ_CODE), g = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned data = pta_object(s, 16, 0), bound = pta_object(s, 16, PTA_OBJ_NAMES_CODE);
	unsigned lf = pta_field(s, f, 0), lg = pta_field(s, g, 0), ld = pta_field(s, data, 8);
	unsigned lb = pta_field(s, bound, 8);
	unsigned fp = pta_node(s), q = pta_node(s);
	pta_addr(s, q, lf);
	pta_addr(s, q, ld);
	pta_addr(s, q, lb);
	pta_copy(s, fp, q);
	pta_watch_targets(s, fp, 1);
	pta_watch(s, fp, 2);
	pta_solve(s);
	assert_int_equal(c.n[1], 2);          /* f and the bound's field, not the data */
	assert_int_equal(c.seen[1][0], lf);
	assert_int_equal(c.seen[1][1], lb);
	assert_int_equal(c.n[2], 3);
	/* Added after solving: what fp holds is reported at once; g later. */
	pta_watch_targets(s, fp, 0);
	assert_int_equal(c.n[0], 0);          /* reports wait for pta_solve */
	pta_addr(s, q, lg);
	pta_addr(s, q, pta_field(s, data, 0));
	pta_solve(s);
	assert_int_equal(c.n[0], 3);
	assert_int_equal(c.n[1], 3);
	assert_int_equal(c.seen[1][2], lg);
	assert_int_equal(c.n[2], 5);
	pta_free(s);
}

/* pta_unwatch from the callback: tag 1 ends at its first report (what was
 * queued with it is still delivered), tag 2 on the same node goes on. */
static pta_solver *unwatch_solver;
static unsigned unwatch_node;

static void unwatch_first(void *vctx, unsigned tag, unsigned loc)
{
	note_report(vctx, tag, loc);
	if (tag == 1)
		pta_unwatch(unwatch_solver, unwatch_node, 1);
}

static void unwatch_ends_reports(void **state)
{
	(void)state;
	tgtctx c = {0};
	pta_solver *s = unwatch_solver = pta_new(unwatch_first, &c);
	unsigned a = pta_object(s, 8, 0), b = pta_object(s, 8, 0), d = pta_object(s, 8, 0);
	unsigned p = pta_node(s), q = unwatch_node = pta_node(s);
	pta_addr(s, p, pta_field(s, a, 0));
	pta_addr(s, p, pta_field(s, b, 0));
	pta_copy(s, q, p);
	pta_watch(s, q, 1);
	pta_watch(s, q, 2);
	pta_solve(s);
	assert_int_equal(c.n[1], 2);          /* one delta: both were queued before the end */
	assert_int_equal(c.n[2], 2);
	pta_addr(s, p, pta_field(s, d, 0));
	pta_solve(s);
	assert_int_equal(c.n[1], 2);
	assert_int_equal(c.n[2], 3);
	EXPECT(s, q, pta_field(s, a, 0), pta_field(s, b, 0), pta_field(s, d, 0));
	pta_free(s);
}

static void cycle_collapses(void **state)
{
	(void)state;
	for (int cd = 0; cd <= 1; cd++) {
		pta_solver *s = pta_new(NULL, NULL);
		pta_set_cycle_detection(s, cd);
		unsigned x = pta_object(s, 4, 0), y = pta_object(s, 4, 0), z = pta_object(s, 4, 0);
		unsigned lx = pta_field(s, x, 0), ly = pta_field(s, y, 0), lz = pta_field(s, z, 0);
		unsigned a = pta_node(s), b = pta_node(s), c = pta_node(s), d = pta_node(s), e = pta_node(s);
		pta_copy(s, b, a);
		pta_copy(s, c, b);
		pta_copy(s, a, c);
		pta_copy(s, d, c);               /* out of the cycle */
		pta_copy(s, a, e);               /* into the cycle */
		pta_addr(s, a, lx);
		pta_addr(s, b, ly);
		pta_addr(s, e, lz);
		pta_solve(s);
		EXPECT(s, a, lx, ly, lz);
		EXPECT(s, b, lx, ly, lz);
		EXPECT(s, c, lx, ly, lz);
		EXPECT(s, d, lx, ly, lz);
		EXPECT(s, e, lz);
		pta_stats st;
		pta_get_stats(s, &st);
		if (cd) {
			assert_true(st.cycles >= 1);
			assert_true(st.merged >= 2);
		} else
			assert_int_equal(st.cycles, 0);
		pta_free(s);
	}
}

static void cycle_through_memory(void **state)
{
	(void)state;
	/* p = &m; *p = a; b = *p; a = b — a cycle that exists only once the load and
	 * store resolve; plus a location in a copy cycle with a variable. */
	pta_solver *s = pta_new(NULL, NULL);
	unsigned m = pta_object(s, 8, 0), x = pta_object(s, 4, 0), y = pta_object(s, 4, 0);
	unsigned lm = pta_field(s, m, 0), lx = pta_field(s, x, 0), ly = pta_field(s, y, 0);
	unsigned p = pta_node(s), a = pta_node(s), b = pta_node(s), v = pta_node(s);
	pta_addr(s, p, lm);
	pta_store(s, p, a, 0);
	pta_load(s, b, p, 0);
	pta_copy(s, a, b);
	pta_addr(s, a, lx);
	pta_copy(s, v, lm);
	pta_copy(s, lm, v);
	pta_addr(s, v, ly);
	pta_solve(s);
	EXPECT(s, a, lx, ly);
	EXPECT(s, b, lx, ly);
	EXPECT(s, lm, lx, ly);
	EXPECT(s, v, lx, ly);
	/* The location merged with variables in a cycle is still its own location. */
	EXPECT(s, p, lm);
	pta_free(s);
}

/* p = p + 1 in a loop over a 64 KiB buffer: the gep is on a cycle, so the
 * buffer collapses at once instead of being walked byte by byte. */
static void positive_cycle_collapses(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned o = pta_object(s, 65536, 0), st = pta_object(s, 32, 0);
	unsigned p = pta_node(s), q = pta_node(s), a = pta_node(s), b = pta_node(s), c = pta_node(s);
	pta_addr(s, p, pta_field(s, o, 0));
	pta_gep(s, q, p, 1);
	pta_copy(s, p, q);
	/* a chain of geps with no cycle stays field-sensitive */
	pta_addr(s, a, pta_field(s, st, 0));
	pta_gep(s, b, a, 8);
	pta_gep(s, c, b, 8);
	pta_solve(s);
	assert_true(pta_object_collapsed(s, o));
	EXPECT(s, p, pta_field(s, o, 0));
	EXPECT(s, q, pta_field(s, o, 0));
	assert_false(pta_object_collapsed(s, st));
	EXPECT(s, c, pta_field(s, st, 16));
	pta_stats stats;
	pta_get_stats(s, &stats);
	assert_int_equal(stats.pwc_geps, 1);
	assert_true(stats.locations < 10);
	pta_free(s);
}

/* The same cycle closed through memory (the pointer is stored and loaded
 * back each iteration): the cycle exists only once the load and the store
 * resolve, so it is found mid-solve, after a few steps, not 65536. */
static void positive_cycle_through_memory(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned buf = pta_object(s, 1 << 20, 0), slot = pta_object(s, 8, 0);
	unsigned m = pta_node(s), p = pta_node(s), q = pta_node(s), init = pta_node(s);
	pta_addr(s, m, pta_field(s, slot, 0));
	pta_addr(s, init, pta_field(s, buf, 0));
	pta_store(s, m, init, 0);         /* slot = buf */
	pta_load(s, p, m, 0);             /* p = slot */
	pta_gep(s, q, p, 16);             /* q = p + 16 */
	pta_store(s, m, q, 0);            /* slot = q */
	pta_solve(s);
	assert_true(pta_object_collapsed(s, buf));
	EXPECT(s, p, pta_field(s, buf, 0));
	EXPECT(s, pta_field(s, slot, 0), pta_field(s, buf, 0));
	pta_stats st;
	pta_get_stats(s, &st);
	assert_true(st.locations < 40);  /* not 65536 steps */
	pta_free(s);
}

/* Offsets that sum to zero around a cycle are still a cycle through geps:
 * collapsed (sound; the rule is about cycles, not their weight). */
static void zero_sum_cycle_collapses(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned o = pta_object(s, 32, 0);
	unsigned p = pta_node(s), q = pta_node(s);
	pta_addr(s, p, pta_field(s, o, 8));
	pta_gep(s, q, p, 8);
	pta_gep(s, p, q, -8);
	pta_solve(s);
	assert_true(pta_object_collapsed(s, o));
	EXPECT(s, p, pta_field(s, o, 0));
	pta_free(s);

	/* Closed through memory, the cycle appears only as the store and load
	 * resolve, and no step makes a new location: the fixpoint check finds it. */
	s = pta_new(NULL, NULL);
	o = pta_object(s, 32, 0);
	unsigned slot = pta_object(s, 8, 0);
	unsigned m = pta_node(s), r = pta_node(s), t = pta_node(s);
	p = pta_node(s);
	q = pta_node(s);
	pta_addr(s, m, pta_field(s, slot, 0));
	pta_addr(s, p, pta_field(s, o, 8));
	pta_gep(s, q, p, 8);
	pta_store(s, m, q, 0);
	pta_load(s, r, m, 0);
	pta_gep(s, t, r, -8);
	pta_copy(s, p, t);
	pta_solve(s);
	assert_true(pta_object_collapsed(s, o));
	EXPECT(s, p, pta_field(s, o, 0));
	EXPECT(s, t, pta_field(s, o, 0));
	pta_free(s);
}

/* Code objects (PTA_OBJ_CODE) are not memory: a pointer that may reach a
 * function as well as a struct loads and stores only through the struct, and
 * offsets or indexes applied to it do not collapse the function. */
static void code_holds_nothing(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned fn = pta_object(s, 1, PTA_OBJ_CODE), g = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned st = pta_object(s, 16, 0);
	unsigned p = pta_node(s), q = pta_node(s), v = pta_node(s), w = pta_node(s), i = pta_node(s);
	pta_addr(s, p, pta_field(s, fn, 0));
	pta_addr(s, p, pta_field(s, st, 0));   /* p: {fn, st} */
	pta_addr(s, v, pta_field(s, g, 0));
	pta_store(s, p, v, 8);                 /* *(p + 8) = &g */
	pta_load(s, w, p, 8);                  /* w = *(p + 8) */
	pta_gep(s, q, p, 8);                   /* an offset outside fn */
	pta_gep_var(s, i, p);                  /* an index: collapses st only */
	pta_solve(s);
	EXPECT(s, w, pta_field(s, g, 0));
	EXPECT_EMPTY(s, pta_field(s, fn, 0));
	assert_false(pta_object_collapsed(s, fn));
	assert_true(pta_object_collapsed(s, st));
	EXPECT(s, q, pta_field(s, fn, 0), pta_field(s, st, 0));
	pta_free(s);
}

/* Read-only memory keeps what it was made with: a store through a pointer
 * that reaches it and a writable object writes the writable one only, also
 * once the read-only object has collapsed (its one location is skipped too);
 * loads still read it, an empty field of it too (z: once the object
 * collapses, that field is the location holding f). */
static void readonly_keeps_initializer(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned ro = pta_object(s, 16, PTA_OBJ_READONLY), rw = pta_object(s, 16, 0);
	unsigned f = pta_object(s, 1, PTA_OBJ_CODE), g = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned p = pta_node(s), v = pta_node(s), w = pta_node(s), i = pta_node(s), u = pta_node(s), z = pta_node(s);
	pta_addr(s, pta_field(s, ro, 8), pta_field(s, f, 0));   /* initializer: ro+8 = &f */
	pta_addr(s, p, pta_field(s, ro, 0));
	pta_addr(s, p, pta_field(s, rw, 0));
	pta_addr(s, v, pta_field(s, g, 0));
	pta_store(s, p, v, 8);                 /* *(p + 8) = &g */
	pta_load(s, w, p, 8);                  /* w = *(p + 8) */
	pta_load(s, z, p, 0);                  /* z = *p: nothing yet */
	pta_solve(s);
	EXPECT_EMPTY(s, z);
	EXPECT(s, pta_field(s, ro, 8), pta_field(s, f, 0));
	EXPECT(s, pta_field(s, rw, 8), pta_field(s, g, 0));
	EXPECT(s, w, pta_field(s, f, 0), pta_field(s, g, 0));
	pta_gep_var(s, i, p);                  /* collapses both */
	pta_store(s, i, v, 0);
	pta_load(s, u, i, 0);
	pta_solve(s);
	assert_true(pta_object_collapsed(s, ro));
	EXPECT(s, pta_field(s, ro, 0), pta_field(s, f, 0));
	EXPECT(s, u, pta_field(s, f, 0), pta_field(s, g, 0));
	EXPECT(s, z, pta_field(s, f, 0), pta_field(s, g, 0));
	pta_free(s);
}

/* An array of two 16-byte elements {a, b}, {c, d}: constant offsets stay
 * exact until a stride of whole elements reaches it; then it folds (every
 * element the one element, fields kept apart) instead of collapsing. A
 * stride that is not a whole number of elements, or one reaching a plain
 * object, still collapses. Fed twice: before and after the strided gep. */
static void array_folds(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned fa = pta_object(s, 1, PTA_OBJ_CODE), fb = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned fc = pta_object(s, 1, PTA_OBJ_CODE), fd = pta_object(s, 1, PTA_OBJ_CODE);
	unsigned arr = pta_object(s, 32, 0);
	pta_object_elements(s, arr, 16);
	unsigned odd = pta_object(s, 32, 0), plain = pta_object(s, 32, 0);
	pta_object_elements(s, odd, 16);
	unsigned fns[4] = {fa, fb, fc, fd};
	unsigned p = pta_node(s), po = pta_node(s), pp = pta_node(s);
	pta_addr(s, p, pta_field(s, arr, 0));
	pta_addr(s, po, pta_field(s, odd, 0));
	pta_addr(s, pp, pta_field(s, plain, 0));
	for (unsigned k = 0; k < 4; k++) {
		unsigned f = pta_node(s);
		pta_addr(s, f, pta_field(s, fns[k], 0));
		pta_store(s, p, f, 8 * k);
		pta_store(s, po, f, 8 * k);
		pta_store(s, pp, f, 8 * k);
	}
	unsigned exact = pta_node(s);
	pta_load(s, exact, p, 24);               /* arr[1].second */
	pta_solve(s);
	EXPECT(s, exact, pta_field(s, fd, 0));
	assert_int_equal(pta_object_collapse_cause(s, arr), PTA_COLLAPSE_NONE);

	unsigned q = pta_node(s), r = pta_node(s), first = pta_node(s), second = pta_node(s);
	pta_gep_stride(s, q, p, 32);             /* &arr[2 * i] */
	pta_gep(s, r, q, 8);                     /* &arr[2 * i].second */
	pta_load(s, first, q, 0);
	pta_load(s, second, r, 0);
	unsigned v = pta_node(s), v2 = pta_node(s), walked = pta_node(s);
	pta_copy(s, v, p);                       /* for (v = arr; ...; v++) */
	pta_gep(s, v2, v, 16);
	pta_copy(s, v, v2);
	pta_load(s, walked, v, 8);               /* v->second */
	unsigned qo = pta_node(s), qp = pta_node(s), lo = pta_node(s), lp = pta_node(s);
	pta_gep_stride(s, qo, po, 8);            /* half elements: collapses */
	pta_gep_stride(s, qp, pp, 16);           /* no array: collapses */
	pta_load(s, lo, qo, 0);
	pta_load(s, lp, qp, 0);
	pta_solve(s);
	EXPECT(s, first, pta_field(s, fa, 0), pta_field(s, fc, 0));
	EXPECT(s, second, pta_field(s, fb, 0), pta_field(s, fd, 0));
	EXPECT(s, walked, pta_field(s, fb, 0), pta_field(s, fd, 0));
	EXPECT(s, exact, pta_field(s, fb, 0), pta_field(s, fd, 0));   /* folded: both elements */
	assert_false(pta_object_collapsed(s, arr));
	assert_int_equal(pta_canon(s, pta_field(s, arr, 24)), pta_canon(s, pta_field(s, arr, 8)));
	assert_true(pta_object_collapsed(s, odd));
	assert_true(pta_object_collapsed(s, plain));
	EXPECT(s, lo, pta_field(s, fa, 0), pta_field(s, fb, 0), pta_field(s, fc, 0), pta_field(s, fd, 0));
	EXPECT(s, lp, pta_field(s, fa, 0), pta_field(s, fb, 0), pta_field(s, fc, 0), pta_field(s, fd, 0));
	pta_free(s);
}

/* A collapse found while processing a field's content merges that very node
 * away; what it was pushing must still reach its successors. */
static void collapse_while_processing(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned o = pta_object(s, 16, 0);
	unsigned b = pta_field(s, o, 0), f = pta_field(s, o, 8);
	unsigned p = pta_node(s), q = pta_node(s), t = pta_node(s), z = pta_node(s);
	pta_addr(s, p, b);
	pta_store(s, p, p, 0);            /* (o,0) holds &(o,0), processed by the first solve */
	pta_solve(s);
	EXPECT(s, b, b);
	pta_copy(s, z, f);                /* z = (o,8) */
	pta_gep_var(s, t, f);             /* collapses o while (o,8) is being processed */
	pta_addr(s, q, f);
	pta_store(s, q, p, 0);            /* (o,8) holds &(o,0) */
	pta_solve(s);
	assert_true(pta_object_collapsed(s, o));
	EXPECT(s, t, b);
	EXPECT(s, z, b);
	EXPECT(s, q, b);
	EXPECT(s, f, b);
	pta_free(s);
}

/* The other way round: the node being processed survives a collapse that
 * merges the object's base into it. The base's successors held only what
 * the base held, not what the processed node had already passed on, so
 * they take all of its set: w, fed by (o,0), must see &x, which (o,8)
 * held before the collapse. (o,8) outranks (o,0) from the copy cycle it is
 * on with v; the second solve's delta is &(o,8), whose gep leaves o. w
 * holds that delta already, in a set of its own: joined only the delta in
 * place, it gained nothing, and the join's memo then took it for holding
 * all of (o,8) (found by the random systems once they read whole
 * objects). */
static void collapse_into_processing(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned o = pta_object(s, 16, 0), x = pta_object(s, 32, 0), y = pta_object(s, 8, 0);
	unsigned b = pta_field(s, o, 0), f = pta_field(s, o, 8), lx = pta_field(s, x, 0), ly = pta_field(s, y, 0);
	unsigned v = pta_node(s), w = pta_node(s), t = pta_node(s);
	pta_addr(s, f, lx);
	pta_copy(s, v, f);
	pta_copy(s, f, v);                /* a cycle: (o,8) and v merge */
	pta_copy(s, w, b);                /* w = (o,0) */
	pta_gep(s, t, f, 16);             /* (o,8) + 16 leaves o */
	pta_solve(s);
	assert_false(pta_object_collapsed(s, o));
	EXPECT_EMPTY(s, w);
	pta_addr(s, w, f);                /* w holds the delta already: joining it adds nothing */
	pta_addr(s, w, ly);               /* (and a set of its own, changed in place) */
	pta_addr(s, f, f);                /* now (o,8) points into o: the gep collapses it */
	pta_solve(s);
	assert_true(pta_object_collapsed(s, o));
	EXPECT(s, w, lx, ly, b);
	EXPECT(s, v, lx, b);
	pta_free(s);
}

/* Memory that many loads read gains a successor per load, and two such
 * nodes merge on a cycle through memory while both are wide. solver.c keeps
 * a wide dense set of successors as a plain bitmap of its id range beside a
 * sparse one for the rest: the loads' destinations below cross from the
 * sparse form to the bitmap, widen it up and down, put a location beside
 * it, and merge two of them; every load still gets all of it, each edge
 * counts once, and nothing else changes. */
static void wide_memory_successors(void **state)
{
	(void)state;
	enum { LOADS = 6000 };
	static unsigned d[LOADS], e[LOADS];
	for (int cd = 0; cd <= 1; cd++) {
		pta_solver *s = pta_new(NULL, NULL);
		pta_set_cycle_detection(s, cd);
		unsigned a = pta_object(s, 16, 0), x = pta_object(s, 8, 0), y = pta_object(s, 8, 0), z = pta_object(s, 8, 0);
		unsigned a0 = pta_field(s, a, 0), a8 = pta_field(s, a, 8);
		unsigned lx = pta_field(s, x, 0), ly = pta_field(s, y, 0), lz = pta_field(s, z, 0);
		unsigned p = pta_node(s), q = pta_node(s), vx = pta_node(s), vy = pta_node(s), low = pta_node(s);
		pta_addr(s, p, a0);
		pta_addr(s, q, a8);
		pta_addr(s, vx, lx);
		pta_addr(s, vy, ly);
		pta_store(s, p, vx, 0);          /* a.0 holds x, a.8 holds y */
		pta_store(s, q, vy, 0);
		for (int i = 0; i < LOADS; i++)
			d[i] = pta_node(s);
		for (int i = 0; i < LOADS; i++)
			e[i] = pta_node(s);
		/* The lower half in order (dense: the bitmap), then the rest from
		 * the top down (it widens), with a solve between. */
		for (int k = 0; k < LOADS; k++) {
			int i = k < LOADS / 2 ? k : LOADS - 1 - (k - LOADS / 2);
			pta_load(s, d[i], p, 0);
			pta_load(s, e[i], q, 0);
			if (k == LOADS / 2)
				pta_solve(s);
		}
		pta_copy(s, low, a0);            /* below the range: it widens down */
		pta_copy(s, lz, a0);             /* a location: beside the bitmap */
		pta_solve(s);
		for (int i = 0; i < LOADS; i++) {
			EXPECT(s, d[i], lx);
			EXPECT(s, e[i], ly);
		}
		EXPECT(s, low, lx);
		EXPECT(s, lz, lx);
		/* a.0 and a.8 copied into each other through t and u: one cycle. */
		unsigned t = pta_node(s), u = pta_node(s);
		pta_load(s, t, p, 0);
		pta_store(s, q, t, 0);
		pta_load(s, u, q, 0);
		pta_store(s, p, u, 0);
		unsigned late = pta_node(s);
		pta_load(s, late, q, 0);
		pta_solve(s);
		for (int i = 0; i < LOADS; i++) {
			EXPECT(s, d[i], lx, ly);
			EXPECT(s, e[i], lx, ly);
		}
		EXPECT(s, low, lx, ly);
		EXPECT(s, lz, lx, ly);
		EXPECT(s, late, lx, ly);
		pta_stats st;
		pta_get_stats(s, &st);
		/* the 2 stores, the 2 LOADS loads, low's and lz's copies, and t's,
		 * u's and late's 5 */
		if (!cd)
			assert_int_equal(st.edges, 2 + 2 * LOADS + 2 + 5);
		pta_free(s);
	}
}

/* ---- property test: random systems against a naive reference ---- */

static uint64_t rng_state;
static uint64_t rnd(void)   /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static int rndn(int n) { return (int)(rnd() % (uint64_t)n); }

#define MAXV 60
#define MAXO 8
#define MAXSLOT (MAXO * 49)   /* a bounded object has a slot for one past its end */
#define MAXN (MAXV + MAXSLOT)
#define MAXC 400
#define MAXTAG 3

enum { K_ADDR, K_COPY, K_LOAD, K_STORE, K_GEP, K_GEPVAR, K_LOADALL, K_STOREALL };

/* An operand is a variable (< nvars) or the location slot (operand - nvars). */
typedef struct con { int kind, a, b, off, pwc; } con;  /* addr: a = dst, b = slot */

typedef struct sys {
	int nvars, nobjs, nslots;
	int size[MAXO];
	unsigned flags[MAXO];
	int first[MAXO];                 /* first slot of each object */
	int nsl[MAXO];                   /* its slots: size (1 if 0), and one past the end if bounded */
	int slot_obj[MAXSLOT], slot_off[MAXSLOT];
	con c[MAXC];
	int nc;
	int nwatch, watch_node[MAXTAG];  /* watch tag t is on node watch_node[t] */
	con cond[MAXTAG][MAXO][3];       /* added when an object first reaches watch t */
	int ncond[MAXTAG][MAXO];
} sys;

static int slot_of(const sys *y, int obj, int off) { return y->first[obj] + off; }

/* A third of the systems are wild (offsets that leave objects, variable
 * indices, many geps: lots of collapses); the rest are tame, so that field
 * sensitivity is exercised on objects that stay whole. */
static int wild;

static int rand_off(void)
{
	static const int offs[] = { 0, 0, 0, 0, 0, 0, 8, 8, 8, 16, 16, 24, -8, -16, 4, 40 };
	if (!wild)
		return rndn(6) ? 0 : rndn(4) ? 8 : -8;
	return offs[rndn((int)(sizeof offs / sizeof offs[0]))];
}

static int rand_operand(const sys *y)
{
	if (rndn(10) == 0) {
		int o = rndn(y->nobjs);
		int sz = y->size[o] ? y->size[o] : 1;
		return y->nvars + slot_of(y, o, rndn(sz) / 8 * 8);
	}
	return rndn(y->nvars);
}

static con rand_con(const sys *y)
{
	con c = {0};
	int r = rndn(100);
	if (wild)
		c.kind = r < 18 ? K_ADDR : r < 50 ? K_COPY : r < 62 ? K_LOAD : r < 64 ? K_LOADALL : r < 76 ? K_STORE
		       : r < 78 ? K_STOREALL : r < 97 ? K_GEP : K_GEPVAR;
	else
		c.kind = r < 20 ? K_ADDR : r < 60 ? K_COPY : r < 75 ? K_LOAD : r < 78 ? K_LOADALL : r < 92 ? K_STORE
		       : r < 95 ? K_STOREALL : r < 99 ? K_GEP : K_GEPVAR;
	c.a = rand_operand(y);
	if (c.kind == K_ADDR) {
		int o = rndn(y->nobjs);
		int sz = y->size[o] ? y->size[o] : 1;
		c.b = slot_of(y, o, rndn(4) || !wild ? rndn(sz) / 8 * 8 : rndn(sz));
	} else
		c.b = rand_operand(y);
	if (c.kind == K_LOAD || c.kind == K_STORE || c.kind == K_GEP)
		c.off = rand_off();
	return c;
}

static void gen(sys *y, unsigned seed)
{
	rng_state = seed * 0x2545f4914f6cdd1dULL + 1;
	memset(y, 0, sizeof *y);
	wild = seed % 3 == 0;
	y->nvars = 10 + rndn(MAXV - 10 + 1);
	y->nobjs = 1 + rndn(MAXO);
	static const int sizes[] = { 8, 16, 16, 24, 32, 48, 48, 0 };
	for (int o = 0; o < y->nobjs; o++) {
		y->size[o] = sizes[rndn(8)];
		y->flags[o] = rndn(12) == 0 ? PTA_OBJ_COLLAPSED : rndn(3) == 0 && y->size[o] ? PTA_OBJ_BOUNDED : 0;
		y->first[o] = y->nslots;
		int n = y->size[o] ? y->size[o] : 1;
		if (y->flags[o] & PTA_OBJ_BOUNDED)
			n++;
		y->nsl[o] = n;
		for (int k = 0; k < n; k++) {
			y->slot_obj[y->nslots] = o;
			y->slot_off[y->nslots] = k;
			y->nslots++;
		}
	}
	y->nc = y->nvars + rndn(2 * y->nvars + 1);
	for (int i = 0; i < y->nc; i++)
		y->c[i] = rand_con(y);
	y->nwatch = rndn(MAXTAG + 1);
	for (int t = 0; t < y->nwatch; t++) {
		y->watch_node[t] = rand_operand(y);
		for (int o = 0; o < y->nobjs; o++) {
			y->ncond[t][o] = rndn(4);
			for (int k = 0; k < y->ncond[t][o]; k++)
				y->cond[t][o][k] = rand_con(y);
		}
	}
}

/* The reference: slots are (object, byte) pairs, sets are bytes. */
typedef struct ref {
	const sys *y;
	unsigned char pts[MAXN][MAXSLOT];
	unsigned char collapsed[MAXO];
	unsigned char fired[MAXTAG][MAXO];
	con act[MAXC + MAXTAG * MAXO * 3];
	int nact;
	int changed;
} ref;

static int ref_node(const ref *r, int n)   /* a collapsed object's fields share one content */
{
	if (n < r->y->nvars)
		return n;
	int sl = n - r->y->nvars, o = r->y->slot_obj[sl];
	return r->collapsed[o] ? r->y->nvars + r->y->first[o] : n;
}

static void ref_collapse(ref *r, int o)
{
	if (r->collapsed[o])
		return;
	const sys *y = r->y;
	r->collapsed[o] = 1;
	r->changed = 1;
	int base = y->first[o], n = y->nsl[o];
	for (int sl = base + 1; sl < base + n; sl++) {
		for (int l = 0; l < y->nslots; l++)   /* content of the fields joins the base */
			r->pts[y->nvars + base][l] |= r->pts[y->nvars + sl][l];
		for (int v = 0; v < y->nvars + y->nslots; v++)  /* and the fields become the base */
			if (r->pts[v][sl]) {
				r->pts[v][sl] = 0;
				r->pts[v][base] = 1;
			}
	}
}

/* The slot d bytes from sl (a load's or store's when access), -1 for none:
 * an offset that leaves a bounded object names nothing of it, except a
 * pointer (not an access) to one past its end. */
static int ref_shift(ref *r, int sl, int d, int access)
{
	const sys *y = r->y;
	int o = y->slot_obj[sl];
	if (r->collapsed[o])
		return y->first[o];
	int k = y->slot_off[sl] + d;
	if (k >= 0 && k < y->size[o])
		return y->first[o] + k;
	if (y->flags[o] & PTA_OBJ_BOUNDED)
		return k == y->size[o] && !access ? y->first[o] + k : -1;
	ref_collapse(r, o);
	return y->first[o];
}

static void ref_add(ref *r, int node, int slot)
{
	node = ref_node(r, node);
	int o = r->y->slot_obj[slot];
	if (r->collapsed[o])
		slot = r->y->first[o];
	if (!r->pts[node][slot])
		r->pts[node][slot] = 1, r->changed = 1;
}

static void ref_copy(ref *r, int dst, int src)
{
	src = ref_node(r, src);
	for (int l = 0; l < r->y->nslots; l++)
		if (r->pts[src][l])
			ref_add(r, dst, l);
}

static void ref_apply(ref *r, const con *c)
{
	int nv = r->y->nvars;
	switch (c->kind) {
	case K_ADDR:
		ref_add(r, c->a, c->b);
		break;
	case K_COPY:
		ref_copy(r, c->a, c->b);
		break;
	default:
		/* load/gep/gepvar read pts(b), store reads pts(a) */
		for (int l = 0; l < r->y->nslots; l++) {
			int from = c->kind == K_STORE || c->kind == K_STOREALL ? c->a : c->b;
			if (!r->pts[ref_node(r, from)][l])
				continue;
			int t;
			switch (c->kind) {
			case K_LOAD:
				if ((t = ref_shift(r, l, c->off, 1)) >= 0)
					ref_copy(r, c->a, nv + t);
				break;
			case K_STORE:
				if ((t = ref_shift(r, l, c->off, 1)) >= 0)
					ref_copy(r, nv + t, c->b);
				break;
			case K_GEP:
				if (!c->pwc) {
					if ((t = ref_shift(r, l, c->off, 0)) >= 0)
						ref_add(r, c->a, t);
					break;
				}
				ref_collapse(r, r->y->slot_obj[l]);   /* a gep on a cycle acts as gep_var */
				ref_add(r, c->a, r->y->first[r->y->slot_obj[l]]);
				break;
			case K_GEPVAR: {
				int o = r->y->slot_obj[l];
				ref_collapse(r, o);
				ref_add(r, c->a, r->y->first[o]);
				break;
			}
			case K_LOADALL:
			case K_STOREALL: {   /* every byte of the object from l on (one past the end aside) */
				int o = r->y->slot_obj[l];
				int k = r->collapsed[o] ? 0 : r->y->slot_off[l], end = r->collapsed[o] ? 1 : r->y->size[o];
				for (; k < end; k++) {
					if (c->kind == K_LOADALL)
						ref_copy(r, c->a, nv + r->y->first[o] + k);
					else
						ref_copy(r, nv + r->y->first[o] + k, c->b);
				}
				break;
			}
			}
		}
	}
}

/* The flow graph of the current state: copies, the copies loads and stores
 * resolve to, geps (also once found on a cycle; of offset 0, a copy). */
static int adj[MAXN][MAXN], nadj[MAXN];

static void ref_edge(ref *r, int from, int to)
{
	from = ref_node(r, from);
	to = ref_node(r, to);
	for (int i = 0; i < nadj[from]; i++)
		if (adj[from][i] == to)
			return;
	adj[from][nadj[from]++] = to;
}

/* A load's or store's slot without collapsing, for reading the graph
 * (collapses happen in ref_apply); -1 for none. */
static int ref_peek_shift(const ref *r, int sl, int d)
{
	const sys *y = r->y;
	int o = y->slot_obj[sl], k = y->slot_off[sl] + d;
	if (!r->collapsed[o] && (k < 0 || k >= y->size[o]) && (y->flags[o] & PTA_OBJ_BOUNDED))
		return -1;
	if (r->collapsed[o] || k < 0 || k >= y->size[o])
		return y->first[o];
	return y->first[o] + k;
}

static int ref_reaches(int from, int to, int nn)
{
	static int seen[MAXN], queue[MAXN];
	memset(seen, 0, sizeof(int) * (size_t)nn);
	int head = 0, tail = 0;
	queue[tail++] = from;
	seen[from] = 1;
	while (head < tail) {
		int v = queue[head++];
		for (int i = 0; i < nadj[v]; i++) {
			int w = adj[v][i];
			if (w == to)
				return 1;
			if (!seen[w])
				seen[w] = 1, queue[tail++] = w;
		}
	}
	return 0;
}

/* Marks the geps on a cycle of the flow graph; 1 if any was new. */
static int ref_find_pwc(ref *r)
{
	const sys *y = r->y;
	int nv = y->nvars, nn = nv + y->nslots;
	memset(nadj, 0, sizeof(int) * (size_t)nn);
	for (int i = 0; i < r->nact; i++) {
		const con *c = &r->act[i];
		int from = c->kind == K_STORE || c->kind == K_STOREALL ? c->a : c->b;
		switch (c->kind) {
		case K_COPY: ref_edge(r, c->b, c->a); break;
		case K_GEP: ref_edge(r, c->b, c->a); break;   /* offset 0: a copy (pta_gep) */
		case K_LOAD: case K_STORE:
			for (int l = 0; l < y->nslots; l++) {
				if (!r->pts[ref_node(r, from)][l])
					continue;
				int t = ref_peek_shift(r, l, c->off);
				if (t < 0)
					continue;
				t += nv;
				if (c->kind == K_LOAD)
					ref_edge(r, t, c->a);
				else
					ref_edge(r, c->b, t);
			}
			break;
		case K_LOADALL: case K_STOREALL:   /* every byte from l on (a collapsed object: its one) */
			for (int l = 0; l < y->nslots; l++) {
				if (!r->pts[ref_node(r, from)][l])
					continue;
				int o = y->slot_obj[l];
				int k = r->collapsed[o] ? 0 : y->slot_off[l], end = r->collapsed[o] ? 1 : y->size[o];
				for (; k < end; k++) {
					int t = nv + y->first[o] + k;
					if (c->kind == K_LOADALL)
						ref_edge(r, t, c->a);
					else
						ref_edge(r, c->b, t);
				}
			}
			break;
		}
	}
	int found = 0;
	for (int i = 0; i < r->nact; i++) {
		con *c = &r->act[i];
		if (c->kind != K_GEP || !c->off || c->pwc)
			continue;
		int src = ref_node(r, c->b), dst = ref_node(r, c->a);
		if (src == dst || ref_reaches(dst, src, nn))
			c->pwc = found = 1;
	}
	return found;
}

static void ref_solve(ref *r, const sys *y)
{
	memset(r, 0, sizeof *r);
	r->y = y;
	for (int o = 0; o < y->nobjs; o++)
		if (!y->size[o] || (y->flags[o] & PTA_OBJ_COLLAPSED))
			r->collapsed[o] = 1;
	for (int i = 0; i < y->nc; i++)
		r->act[r->nact++] = y->c[i];
	do {
		r->changed = 0;
		for (int i = 0; i < r->nact; i++)
			ref_apply(r, &r->act[i]);
		for (int t = 0; t < y->nwatch; t++)
			for (int l = 0; l < y->nslots; l++) {
				int o = y->slot_obj[l];
				if (!r->pts[ref_node(r, y->watch_node[t])][l] || r->fired[t][o])
					continue;
				r->fired[t][o] = 1;
				r->changed = 1;
				for (int k = 0; k < y->ncond[t][o]; k++)
					r->act[r->nact++] = y->cond[t][o][k];
			}
		if (!r->changed && ref_find_pwc(r))
			r->changed = 1;
	} while (r->changed);
}

/* The solver side: operands map through var_id / pta_field. */
typedef struct run {
	const sys *y;
	pta_solver *s;
	unsigned var_id[MAXV], obj_id[MAXO];
	unsigned char fired[MAXTAG][MAXO];
	int obj_of_id[MAXO];
} run;

static unsigned run_operand(run *u, int operand)
{
	const sys *y = u->y;
	if (operand < y->nvars)
		return u->var_id[operand];
	int sl = operand - y->nvars;
	return pta_field(u->s, u->obj_id[y->slot_obj[sl]], y->slot_off[sl]);
}

static void run_con(run *u, const con *c)
{
	pta_solver *s = u->s;
	unsigned a = run_operand(u, c->a);
	switch (c->kind) {
	case K_ADDR: {
		const sys *y = u->y;
		pta_addr(s, a, pta_field(s, u->obj_id[y->slot_obj[c->b]], y->slot_off[c->b]));
		break;
	}
	case K_COPY: pta_copy(s, a, run_operand(u, c->b)); break;
	case K_LOAD: pta_load(s, a, run_operand(u, c->b), c->off); break;
	case K_STORE: pta_store(s, a, run_operand(u, c->b), c->off); break;
	case K_GEP: pta_gep(s, a, run_operand(u, c->b), c->off); break;
	case K_GEPVAR: pta_gep_var(s, a, run_operand(u, c->b)); break;
	case K_LOADALL: pta_load_all(s, a, run_operand(u, c->b)); break;
	case K_STOREALL: pta_store_all(s, a, run_operand(u, c->b)); break;
	}
}

static void run_on_new(void *ctx, unsigned tag, unsigned loc)
{
	run *u = ctx;
	unsigned obj = pta_loc_object(u->s, loc);
	assert_true(obj != PTA_NONE);
	int o = u->obj_of_id[obj];
	assert_true(tag < (unsigned)u->y->nwatch);
	if (u->fired[tag][o])
		return;
	u->fired[tag][o] = 1;
	for (int k = 0; k < u->y->ncond[tag][o]; k++)
		run_con(u, &u->y->cond[tag][o][k]);
}

static void shuffle_ints(int *a, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = rndn(i + 1), t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

/* Solves y with the solver, in the given order, and compares with the reference,
 * failing with the seed; returns the number of cycles the solver merged. */
static unsigned run_and_compare(const sys *y, const ref *r, unsigned seed, int shuffled, int cd)
{
	static run u;
	memset(&u, 0, sizeof u);
	u.y = y;
	u.s = pta_new(run_on_new, &u);
	pta_set_cycle_detection(u.s, cd);
	int vorder[MAXV], oorder[MAXO], corder[MAXC];
	for (int i = 0; i < y->nvars; i++)
		vorder[i] = i;
	for (int i = 0; i < y->nobjs; i++)
		oorder[i] = i;
	for (int i = 0; i < y->nc; i++)
		corder[i] = i;
	if (shuffled) {
		shuffle_ints(vorder, y->nvars);
		shuffle_ints(oorder, y->nobjs);
		shuffle_ints(corder, y->nc);
	}
	/* interleave variable and object creation with the first constraints */
	for (int i = 0; i < y->nvars; i++)
		u.var_id[vorder[i]] = pta_node(u.s);
	for (int i = 0; i < y->nobjs; i++) {
		int o = oorder[i];
		u.obj_id[o] = pta_object(u.s, (uint64_t)y->size[o], y->flags[o]);
		u.obj_of_id[u.obj_id[o]] = o;
	}
	int watches_at = shuffled ? rndn(y->nc + 1) : 0;
	for (int i = 0; i <= y->nc; i++) {
		if (i == watches_at)
			for (int t = 0; t < y->nwatch; t++)
				pta_watch(u.s, run_operand(&u, y->watch_node[t]), (unsigned)t);
		if (i < y->nc)
			run_con(&u, &y->c[corder[i]]);
		if (shuffled && i == y->nc / 2 && rndn(2))
			pta_solve(u.s);         /* solve half-way, then go on incrementally */
	}
	pta_solve(u.s);

	const char *how = shuffled ? (cd ? "shuffled" : "shuffled, no cycle detection") : "in order";
	int differences = 0;
	for (int o = 0; o < y->nobjs; o++)
		if (pta_object_collapsed(u.s, u.obj_id[o]) != r->collapsed[o])
			fail_msg("seed %u (%s): object %d (size %d flags %u) collapsed: solver %d (cause %u), reference %d", seed, how, o, y->size[o], y->flags[o], pta_object_collapse_cause(u.s, u.obj_id[o]),
			         pta_object_collapsed(u.s, u.obj_id[o]), r->collapsed[o]);
	for (int n = 0; n < y->nvars + y->nslots; n++) {
		int own = n - y->nvars;
		if (n >= y->nvars && y->slot_off[own] == y->size[y->slot_obj[own]])
			continue;   /* one past a bounded object's end: no content, and pta_field would collapse it */
		unsigned id = run_operand(&u, n);
		unsigned char got[MAXSLOT] = {0};
		unsigned l;
		SBM_FOREACH(pta_pts(u.s, id), l) {
			unsigned obj = pta_loc_object(u.s, l);
			if (obj == PTA_NONE)
				fail_msg("seed %u (%s): node %d points to a variable", seed, how, n);
			int o = u.obj_of_id[obj];
			if (pta_object_collapsed(u.s, obj) && pta_loc_offset(u.s, l) != 0)
				fail_msg("seed %u (%s): node %d holds a non-canonical location", seed, how, n);
			got[slot_of(y, o, (int)pta_loc_offset(u.s, l))] = 1;
		}
		const unsigned char *want = r->pts[ref_node(r, n)];
		for (int sl = 0; sl < y->nslots; sl++)
			if (got[sl] != want[sl] && differences++ < 20)
				print_message("seed %u (%s): %s %d: location (object %d, offset %d): solver %d, reference %d\n",
				              seed, how, n < y->nvars ? "variable" : "slot", n < y->nvars ? n : n - y->nvars,
				              y->slot_obj[sl], y->slot_off[sl], got[sl], want[sl]);
	}
	if (differences)
		fail_msg("seed %u (%s): %d points-to entries differ from the reference", seed, how, differences);
	for (int t = 0; t < y->nwatch; t++)
		for (int o = 0; o < y->nobjs; o++)
			if (u.fired[t][o] != r->fired[t][o])
				fail_msg("seed %u (%s): watch %d object %d: solver fired %d, reference %d", seed, how, t, o,
				         u.fired[t][o], r->fired[t][o]);
	pta_stats st;
	pta_get_stats(u.s, &st);
	pta_free(u.s);
	return st.cycles;
}

/* The system, one line per object and constraint, and the reference's
 * sets (PTA_VERBOSE). */
static void dump_system(const sys *y, const ref *r)
{
	static const char *kinds[] = { "addr", "copy", "load", "store", "gep", "gepvar", "loadall", "storeall" };
	for (int o = 0; o < y->nobjs; o++)
		print_message("  object %d: size %d flags %u, slots from %d\n", o, y->size[o], y->flags[o], y->nvars + y->first[o]);
	for (int i = 0; i < y->nc; i++) {
		const con *c = &y->c[i];
		print_message("  %s a=%d b=%d off=%d\n", kinds[c->kind], c->a, c->b, c->off);
	}
	for (int t = 0; t < y->nwatch; t++)
		print_message("  watch %d on %d\n", t, y->watch_node[t]);
	for (int n = 0; n < y->nvars + y->nslots; n++) {
		int any = 0;
		for (int l = 0; l < y->nslots; l++) {
			if (!r->pts[ref_node(r, n)][l])
				continue;
			if (!any++)
				print_message("  reference pts %d:", n);
			print_message(" (%d,%d)", y->slot_obj[l], y->slot_off[l]);
		}
		if (any)
			print_message("\n");
	}
}

typedef struct tally { size_t systems, collapsed, objects, fired, cycles, entries; } tally;

/* Seed `seed`'s system against the reference: in order, twice shuffled,
 * and shuffled without cycle detection. */
static void check_seed(unsigned seed, tally *t)
{
	static sys y;
	static ref r;
	gen(&y, seed);
	ref_solve(&r, &y);
	if (getenv("PTA_VERBOSE")) {
		int nc = 0;
		for (int o = 0; o < y.nobjs; o++)
			nc += r.collapsed[o];
		print_message("seed %u wild %d: %d/%d collapsed\n", seed, wild, nc, y.nobjs);
		dump_system(&y, &r);
	}
	t->systems++;
	t->objects += (size_t)y.nobjs;
	for (int o = 0; o < y.nobjs; o++)
		t->collapsed += r.collapsed[o];
	for (int n = 0; n < y.nvars + y.nslots; n++)
		for (int l = 0; l < y.nslots; l++)
			t->entries += r.pts[n][l];
	for (int w = 0; w < y.nwatch; w++)
		for (int o = 0; o < y.nobjs; o++)
			t->fired += r.fired[w][o];
	t->cycles += run_and_compare(&y, &r, seed, 0, 1);
	t->cycles += run_and_compare(&y, &r, seed, 1, 1);
	run_and_compare(&y, &r, seed, 1, 1);
	run_and_compare(&y, &r, seed, 1, 0);
}

static void random_systems_match_reference(void **state)
{
	(void)state;
	unsigned first = 1, last = 400;
	const char *env = getenv("PTA_SEEDS");     /* e.g. PTA_SEEDS=20000 for a long run */
	if (env)
		last = (unsigned)strtoul(env, NULL, 10);
	if ((env = getenv("PTA_SEED")))           /* one seed, to look at */
		first = last = (unsigned)strtoul(env, NULL, 10);
	tally t = {0};
	for (unsigned seed = first; seed <= last; seed++)
		check_seed(seed, &t);
	print_message("  %zu systems: %zu of %zu objects collapsed, %zu watch firings, %zu pts entries, %zu cycles merged\n",
	              t.systems, t.collapsed, t.objects, t.fired, t.entries, t.cycles);
}

/* Each object records the first cause of its collapse, and the counts by
 * cause add up to the collapsed objects. */
static void collapse_causes(void **state)
{
	(void)state;
	pta_solver *s = pta_new(NULL, NULL);
	unsigned ext = pta_object(s, 0, 0);            /* unknown size */
	unsigned arr = pta_object(s, 64, 0);           /* reached by a variable index */
	unsigned st = pta_object(s, 16, 0);            /* an offset leaves it */
	unsigned fine = pta_object(s, 16, 0);
	unsigned p = pta_node(s), q = pta_node(s), r = pta_node(s), t = pta_node(s), u = pta_node(s);
	pta_addr(s, p, pta_field(s, arr, 0));
	pta_gep_var(s, q, p);
	pta_addr(s, r, pta_field(s, st, 8));
	pta_gep(s, t, r, 16);                          /* 8 + 16 is past 16 bytes */
	pta_addr(s, u, pta_field(s, fine, 8));
	pta_solve(s);
	assert_int_equal(pta_object_collapse_cause(s, ext), PTA_COLLAPSE_SIZE);
	assert_int_equal(pta_object_collapse_cause(s, arr), PTA_COLLAPSE_INDEX);
	assert_int_equal(pta_object_collapse_cause(s, st), PTA_COLLAPSE_OFFSET);
	assert_int_equal(pta_object_collapse_cause(s, fine), PTA_COLLAPSE_NONE);
	pta_stats stats;
	pta_get_stats(s, &stats);
	assert_int_equal(stats.collapsed_objects, 3);
	assert_int_equal(stats.collapsed_by[PTA_COLLAPSE_SIZE], 1);
	assert_int_equal(stats.collapsed_by[PTA_COLLAPSE_INDEX], 1);
	assert_int_equal(stats.collapsed_by[PTA_COLLAPSE_OFFSET], 1);
	assert_int_equal(stats.collapsed_by[PTA_COLLAPSE_CYCLE], 0);
	pta_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_chain),
		cmocka_unit_test(double_pointers),
		cmocka_unit_test(fields_stay_apart),
		cmocka_unit_test(variable_index_collapses),
		cmocka_unit_test(container_of_and_out_of_range),
		cmocka_unit_test(bounded_offsets_drop),
		cmocka_unit_test(watch_binds_calls),
		cmocka_unit_test(watch_targets_reports_code),
		cmocka_unit_test(unwatch_ends_reports),
		cmocka_unit_test(cycle_collapses),
		cmocka_unit_test(cycle_through_memory),
		cmocka_unit_test(positive_cycle_collapses),
		cmocka_unit_test(positive_cycle_through_memory),
		cmocka_unit_test(zero_sum_cycle_collapses),
		cmocka_unit_test(code_holds_nothing),
		cmocka_unit_test(readonly_keeps_initializer),
		cmocka_unit_test(array_folds),
		cmocka_unit_test(collapse_while_processing),
		cmocka_unit_test(collapse_into_processing),
		cmocka_unit_test(collapse_causes),
		cmocka_unit_test(wide_memory_successors),
		cmocka_unit_test(random_systems_match_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
