/* collapsed.c — the collapsed points-to objects into the catalog, and back
 * (collapsed.h).
 *
 * Written from the points-to result the refinement ran on: every collapsed
 * object whose one location holds a function, the functions it holds, and
 * the indirect sites whose callee set (Andersen's) shares functions with
 * it. The analysis does not record how a function reached a site, so a
 * function that reaches it both through the object and another way counts
 * as held: the proof labels that read this (src/query/proof.c) err towards
 * "not proven". */
#include "catalog/collapsed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/internal.h"
#include "facet/facet.h"
#include "pta/andersen.h"
#include "util/hash.h"
#include "util/intmap.h"
#include "util/ptrmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

/* ---- writing -------------------------------------------------------------------------- */

typedef VEC(unsigned) uvec;

/* What an object is and where it was declared or allocated. */
typedef struct where {
	char name[512];
	const char *kind;
	const ir_loc *loc;
} where;

/* The function whose alloca defines value v (stack objects without a
 * #dbg_declare), found by one scan of the statements made on first use;
 * and the #dbg_declare naming v, by one scan of the bindings. */
typedef struct alloca_map {
	unsigned *fn;              /* value id -> function id, IR_NONE */
	bool built;
	unsigned *declare;         /* value id -> its first named #dbg_declare binding, IR_NONE */
} alloca_map;

static unsigned declare_of(const ir_program *p, alloca_map *m, unsigned v)
{
	if (!m->declare) {
		m->declare = xmalloc((p->n_values + 1) * sizeof *m->declare);
		for (unsigned i = 0; i <= p->n_values; i++)
			m->declare[i] = IR_NONE;
		for (unsigned i = p->n_bindings; i-- > 0;) {   /* backwards: the first one stays */
			const ir_dbg_binding *b = &p->bindings[i];
			if (b->declare && b->value < p->n_values && b->var && b->var->name)
				m->declare[b->value] = i;
		}
	}
	return v < p->n_values ? m->declare[v] : IR_NONE;
}

static unsigned alloca_function(const ir_program *p, alloca_map *m, unsigned v)
{
	if (!m->built) {
		m->built = true;
		m->fn = xmalloc((p->n_values + 1) * sizeof *m->fn);
		for (unsigned i = 0; i <= p->n_values; i++)
			m->fn[i] = IR_NONE;
		for (unsigned i = 0; i < p->n_functions; i++) {
			const ir_function *f = p->functions[i];
			for (unsigned k = 0; k < f->n_stmts; k++) {
				const ir_stmt *s = &p->stmts[f->first_stmt + k];
				if (s->op == ST_ALLOCA && s->dst < p->n_values)
					m->fn[s->dst] = i;
			}
		}
	}
	return v < p->n_values ? m->fn[v] : IR_NONE;
}

static void stack_where(const ir_program *p, alloca_map *m, unsigned v, where *w)
{
	w->kind = "stack";
	unsigned d = declare_of(p, m, v);
	if (d != IR_NONE) {
		const ir_dbg_binding *b = &p->bindings[d];
		snprintf(w->name, sizeof w->name, "stack:%s:%s", b->function ? b->function->name : "?", b->var->name);
		w->loc = &b->var->loc;
		return;
	}
	unsigned f = alloca_function(p, m, v);
	snprintf(w->name, sizeof w->name, "stack:%s:%%%u", f != IR_NONE ? p->functions[f]->name : "?", v);
	w->loc = f != IR_NONE ? &p->functions[f]->loc : NULL;
}

static void where_of(const pta_result *r, alloca_map *m, unsigned obj, where *w)
{
	const ir_program *p = r->prog;
	const pta_obj_info *o = &r->objects[obj];
	w->loc = NULL;
	switch (o->kind) {
	case OBJ_GLOBAL: {
		const ir_global *g = p->globals[o->index];
		w->kind = "global";
		snprintf(w->name, sizeof w->name, "%s", g->var && g->var->name ? g->var->name : ir_global_label(g));
		w->loc = g->var ? &g->var->loc : NULL;
		break;
	}
	case OBJ_STACK:
		stack_where(p, m, o->index, w);
		break;
	case OBJ_HEAP: {
		const ir_site *s = &p->sites[o->index];
		bool via = o->context != IR_NONE;
		w->kind = "heap";
		snprintf(w->name, sizeof w->name, "heap:%s:%u%s%s%s", s->loc.file ? s->loc.file : ir_function_label(s->caller),
		         s->loc.line, via ? " (via " : "", via ? ir_function_label(p->functions[o->context]) : "", via ? ")" : "");
		w->loc = &s->loc;
		break;
	}
	case OBJ_LIBRARY:
		w->kind = o->index == IR_NONE ? "outside" : "library";
		snprintf(w->name, sizeof w->name, "%s%s", o->index == IR_NONE ? "outside" : "lib:",
		         o->index == IR_NONE ? "" : p->functions[o->index]->name);
		break;
	case OBJ_VARARGS:
	case OBJ_FUNCTION:
		w->kind = o->kind == OBJ_VARARGS ? "varargs" : "function";
		snprintf(w->name, sizeof w->name, "%s%s", o->kind == OBJ_VARARGS ? "varargs:" : "function:",
		         p->functions[o->index]->name);
		w->loc = &p->functions[o->index]->loc;
		break;
	}
	if (w->loc && !w->loc->line)
		w->loc = NULL;
}

static int by_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* The functions in content (a collapsed object's), ascending. */
static void members_of(const pta_result *r, const sbitmap *content, uvec *out)
{
	VEC_CLEAR(out);
	unsigned loc;
	SBM_FOREACH(content, loc) {
		unsigned o = pta_loc_object(r->solver, loc);
		if (o < r->n_objects && r->objects[o].kind == OBJ_FUNCTION)
			VEC_PUSH(out, r->objects[o].index);
	}
	if (out->len > 1)
		qsort(out->items, out->len, sizeof *out->items, by_uint);
}

/* The distinct member sets: objects with the same functions share one
 * (on nginx 2,155 objects had 16 sets), so members and sites are stored
 * per set. */
typedef struct msets {
	VEC(uvec) sets;
	VEC(unsigned) next;        /* next set with the same hash, IR_NONE */
	intmap first;              /* hash -> first set */
} msets;

static uint64_t hash_of(const uvec *v)
{
	return hash_fnv64(HASH_FNV64_INIT, v->items, v->len * sizeof *v->items);
}

/* The set equal to *v (taking v's storage when new), by index. */
static unsigned intern_set(msets *m, uvec *v)
{
	uint64_t h = hash_of(v), at;
	unsigned last = IR_NONE;
	if (intmap_get(&m->first, h, &at))
		for (unsigned i = (unsigned)at; i != IR_NONE; last = i, i = m->next.items[i]) {
			const uvec *s = &m->sets.items[i];
			if (s->len == v->len && !memcmp(s->items, v->items, v->len * sizeof *v->items))
				return i;
		}
	unsigned id = (unsigned)m->sets.len;
	VEC_PUSH(&m->sets, *v);
	VEC_PUSH(&m->next, IR_NONE);
	*v = (uvec){0};
	if (last == IR_NONE)
		intmap_put(&m->first, h, id);
	else
		m->next.items[last] = id;
	return id;
}

static bool write_object(writer *w, sqlite3_stmt *st, const pta_result *r, alloca_map *m, unsigned id,
                         unsigned obj, unsigned set, unsigned width)
{
	where wh;
	where_of(r, m, obj, &wh);
	const ir_function *fn = NULL;
	const ir_stmt *cs = pta_collapse_stmt(r, obj, &fn);
	const ir_loc *at = cs && cs->loc && cs->loc->line ? cs->loc : fn && fn->loc.line ? &fn->loc : NULL;
	sqlite3_bind_int64(st, 1, id);
	catalog_w_text(st, 2, wh.name);
	catalog_w_text(st, 3, wh.kind);
	catalog_w_text(st, 4, wh.loc ? wh.loc->file : NULL);
	sqlite3_bind_int64(st, 5, wh.loc ? wh.loc->line : 0);
	catalog_w_text(st, 6, pta_collapse_cause_name(pta_object_collapse_cause(r->solver, obj)));
	catalog_w_text(st, 7, cs ? ir_stmt_op_name(cs->op) : NULL);
	catalog_w_text(st, 8, fn ? fn->name : NULL);
	catalog_w_text(st, 9, at ? at->file : NULL);
	sqlite3_bind_int64(st, 10, at ? at->line : 0);
	sqlite3_bind_int64(st, 11, set);
	sqlite3_bind_int64(st, 12, width);
	return catalog_w_step(w, st);
}

static bool write_members(writer *w, const msets *m)
{
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO collapsed_members VALUES(?1,?2)");
	bool ok = st != NULL;
	for (size_t i = 0; ok && i < m->sets.len; i++)
		for (size_t k = 0; ok && k < m->sets.items[i].len; k++) {
			sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
			sqlite3_bind_int64(st, 2, m->sets.items[i].items[k]);
			ok = catalog_w_step(w, st);
		}
	sqlite3_finalize(st);
	return ok;
}

/* collapsed_set_sites: per indirect site, how many of its callee functions
 * each set holds, counted through function -> sets lists (dovecot: 268,000
 * rows, in batches). */
static bool write_set_sites(writer *w, const pta_result *r, const msets *m)
{
	const ir_program *p = r->prog;
	unsigned n_sets = (unsigned)m->sets.len;
	unsigned *off = xcalloc(p->n_functions + 2, sizeof *off);
	for (unsigned i = 0; i < n_sets; i++)
		for (size_t k = 0; k < m->sets.items[i].len; k++)
			off[m->sets.items[i].items[k] + 1]++;
	for (unsigned f = 0; f < p->n_functions; f++)
		off[f + 1] += off[f];
	unsigned *holders = xmalloc((off[p->n_functions] + 1) * sizeof *holders);
	unsigned *fill = xmalloc((p->n_functions + 1) * sizeof *fill);
	memcpy(fill, off, p->n_functions * sizeof *fill);
	for (unsigned i = 0; i < n_sets; i++)
		for (size_t k = 0; k < m->sets.items[i].len; k++)
			holders[fill[m->sets.items[i].items[k]]++] = i;
	unsigned *held = xcalloc(n_sets + 1, sizeof *held);
	uvec touched = {0};
	catalog_rows rows;
	bool ok = catalog_rows_begin(&rows, w, "collapsed_set_sites", "(?,?,?)", 3, sizeof(catalog_row3),
	                             catalog_bind_row3);
	for (unsigned s = 0; ok && s < p->n_sites; s++) {
		if (p->sites[s].kind != SITE_INDIRECT)
			continue;
		for (unsigned t = 0; t < r->n_site_targets[s]; t++) {
			unsigned f = r->site_targets[s][t];
			for (unsigned k = f < p->n_functions ? off[f] : 0; f < p->n_functions && k < off[f + 1]; k++)
				if (held[holders[k]]++ == 0)
					VEC_PUSH(&touched, holders[k]);
		}
		if (touched.len > 1)
			qsort(touched.items, touched.len, sizeof *touched.items, by_uint);
		for (size_t i = 0; i < touched.len; i++) {
			if (ok) {
				catalog_row3 row = {{touched.items[i], s, held[touched.items[i]]}};   /* set, site, count */
				ok = catalog_rows_add(&rows, &row);
			}
			held[touched.items[i]] = 0;
		}
		VEC_CLEAR(&touched);
	}
	ok = catalog_rows_end(&rows, ok);
	VEC_FREE(&touched);
	free(held);
	free(fill);
	free(holders);
	free(off);
	return ok;
}

bool catalog_write_collapsed(writer *w, const pta_result *r)
{
	if (!r)
		return true;
	msets m = {0};
	intmap_init(&m.first);
	uvec members = {0};
	alloca_map am = {0};
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO collapsed_objects VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
	bool ok = st != NULL;
	/* The solver stores equal sets once, and thousands of collapsed objects
	 * hold the same one (every pool of a program whose pools all collapse):
	 * their members are found once per set, not per object. Keyed by the
	 * set's address, which nothing changes while this runs. */
	ptrmap by_content;   /* content -> its member set + 1 (IR_NONE + 1: no functions) */
	ptrmap_init(&by_content);
	unsigned id = 0;
	for (unsigned o = 0; ok && o < r->n_objects; o++) {
		if (!pta_object_collapsed(r->solver, o))
			continue;
		const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, o, 0));
		void *got = content ? ptrmap_get(&by_content, content) : NULL;
		unsigned set = IR_NONE;
		if (got) {
			set = (unsigned)((uintptr_t)got - 1);
		} else if (content) {
			members_of(r, content, &members);
			if (members.len)
				set = intern_set(&m, &members);
			ptrmap_put(&by_content, content, (void *)((uintptr_t)set + 1));
		}
		if (set != IR_NONE)
			ok = write_object(w, st, r, &am, id++, o, set, (unsigned)m.sets.items[set].len);
	}
	ptrmap_free(&by_content);
	sqlite3_finalize(st);
	ok = ok && write_members(w, &m) && write_set_sites(w, r, &m);
	for (size_t i = 0; i < m.sets.len; i++)
		VEC_FREE(&m.sets.items[i]);
	VEC_FREE(&m.sets);
	VEC_FREE(&m.next);
	intmap_free(&m.first);
	VEC_FREE(&members);
	free(am.fn);
	free(am.declare);
	return ok;
}

/* ---- reading -------------------------------------------------------------------------- */

typedef struct reader {
	catalog *c;
	sqlite3 *db;
	facet_error *err;
	bool bad;
} reader;

static bool damaged(reader *rd, const char *table, long long row, const char *what)
{
	if (!rd->bad)
		error_set(rd->err, "%s: damaged catalog (table %s, row %lld: %s)", catalog_path(rd->c), table, row, what);
	rd->bad = true;
	return false;
}

static sqlite3_stmt *prep(reader *rd, const char *table, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(rd->db, sql, -1, &st, NULL) != SQLITE_OK) {
		error_set(rd->err, "%s: damaged catalog (table %s: %s)", catalog_path(rd->c), table, sqlite3_errmsg(rd->db));
		rd->bad = true;
		return NULL;
	}
	return st;
}

/* The end of a table's rows: an error is damage, not the last row. */
static bool done(reader *rd, const char *table, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && !rd->bad) {
		error_set(rd->err, "%s: damaged catalog (table %s: %s)", catalog_path(rd->c), table, sqlite3_errmsg(rd->db));
		rd->bad = true;
	}
	return !rd->bad;
}

static char *text_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_type(st, col) == SQLITE_TEXT ? sqlite3_column_text(st, col) : NULL;
	return t ? xstrdup((const char *)t) : NULL;
}

/* Column col as an integer in [lo, hi], else damage naming it. */
static bool int_col(reader *rd, const char *table, long long row, sqlite3_stmt *st, int col, long long lo,
                    long long hi, long long *out)
{
	char what[96];
	if (sqlite3_column_type(st, col) != SQLITE_INTEGER) {
		snprintf(what, sizeof what, "%s is not an integer", sqlite3_column_name(st, col));
		return damaged(rd, table, row, what);
	}
	*out = sqlite3_column_int64(st, col);
	if (*out < lo || *out > hi) {
		snprintf(what, sizeof what, "%s %lld is out of range", sqlite3_column_name(st, col), *out);
		return damaged(rd, table, row, what);
	}
	return true;
}

static bool known_kind(const char *k)
{
	static const char *const kinds[] = {"global", "stack", "heap", "library", "outside", "varargs", "function"};
	for (size_t i = 0; k && i < sizeof kinds / sizeof *kinds; i++)
		if (strcmp(k, kinds[i]) == 0)
			return true;
	return false;
}

static int by_set_id(const void *key, const void *row)
{
	long long id = *(const long long *)key, other = ((const catalog_collapsed_set *)row)->id;
	return id < other ? -1 : id > other;
}

/* The member set id (cc->sets is in id order), NULL when none. */
static catalog_collapsed_set *set_of(catalog_collapsed *cc, long long id)
{
	return cc->n_sets ? bsearch(&id, cc->sets, cc->n_sets, sizeof *cc->sets, by_set_id) : NULL;
}

/* The member sets and their widths (the count of their members). */
static bool read_members(reader *rd, catalog_collapsed *cc, long long n_functions)
{
	static const char *T = "collapsed_members";
	sqlite3_stmt *st = prep(rd, T, "SELECT member_set, function, rowid FROM collapsed_members ORDER BY member_set, "
	                               "function");
	if (!st)
		return false;
	VEC(catalog_collapsed_set) v = {0};
	int rc = SQLITE_DONE;
	long long set, fn;
	while (!rd->bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long row = sqlite3_column_int64(st, 2);
		if (!int_col(rd, T, row, st, 0, 0, 0xfffffffeLL, &set) || !int_col(rd, T, row, st, 1, 0, n_functions - 1, &fn))
			break;
		if (!v.len || VEC_LAST(&v).id != set)
			VEC_PUSH(&v, ((catalog_collapsed_set){.id = (unsigned)set}));
		catalog_collapsed_set *ms = &VEC_LAST(&v);
		if (ms->width && ms->functions[ms->width - 1] == fn) {
			damaged(rd, T, row, "function is listed twice in its member_set");
			break;
		}
		ms->functions = xrealloc(ms->functions, (ms->width + 1) * sizeof *ms->functions);
		ms->functions[ms->width++] = (unsigned)fn;
	}
	cc->sets = v.items;
	cc->n_sets = (unsigned)v.len;
	return done(rd, T, st, rd->bad ? SQLITE_DONE : rc);
}

static bool read_objects(reader *rd, catalog_collapsed *cc)
{
	static const char *T = "collapsed_objects";
	sqlite3_stmt *st = prep(rd, T, "SELECT id, name, kind, file, line, cause, statement, in_function, cause_file, "
	                               "cause_line, member_set, width FROM collapsed_objects ORDER BY id");
	if (!st)
		return false;
	VEC(catalog_collapsed_object) v = {0};
	int rc = SQLITE_DONE;
	while (!rd->bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0), line = 0, cline = 0, set = 0, width = 0;
		if (!int_col(rd, T, id, st, 0, 0, 0xfffffffeLL, &id))
			break;
		catalog_collapsed_object o = {.id = (unsigned)id, .name = text_dup(st, 1), .kind = text_dup(st, 2),
		                              .file = text_dup(st, 3), .cause = text_dup(st, 5),
		                              .statement = text_dup(st, 6), .in_function = text_dup(st, 7),
		                              .cause_file = text_dup(st, 8)};
		catalog_collapsed_set *ms = NULL;
		if (!o.name || !o.cause)
			damaged(rd, T, id, !o.name ? "name is not text" : "cause is not text");
		else if (!known_kind(o.kind))
			damaged(rd, T, id, "kind is not one facet writes");
		else if (int_col(rd, T, id, st, 4, 0, 0xffffffffLL, &line) &&
		         int_col(rd, T, id, st, 9, 0, 0xffffffffLL, &cline) &&
		         int_col(rd, T, id, st, 10, 0, 0xfffffffeLL, &set) &&
		         int_col(rd, T, id, st, 11, 1, 0xffffffffLL, &width)) {
			if (!(ms = set_of(cc, set)))
				damaged(rd, T, id, "member_set has no rows in table collapsed_members");
			else if (ms->width != width)
				damaged(rd, T, id, "width is not the number of its member_set's functions");
			else
				ms->n_objects++;
		}
		o.line = (unsigned)line;
		o.cause_line = (unsigned)cline;
		o.width = (unsigned)width;
		o.set = ms;
		VEC_PUSH(&v, o);
	}
	cc->objects = v.items;
	cc->n = (unsigned)v.len;
	return done(rd, T, st, rd->bad ? SQLITE_DONE : rc);
}

static bool read_sites(reader *rd, catalog_collapsed *cc)
{
	static const char *T = "collapsed_set_sites";
	sqlite3_stmt *st = prep(rd, T, "SELECT c.member_set, c.site, c.held, s.kind, c.rowid FROM collapsed_set_sites c "
	                               "LEFT JOIN sites s ON s.id = c.site ORDER BY c.member_set, c.held DESC, c.site");
	if (!st)
		return false;
	int rc = SQLITE_DONE;
	long long set, site, held;
	while (!rd->bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long row = sqlite3_column_int64(st, 4);
		if (!int_col(rd, T, row, st, 0, 0, 0xfffffffeLL, &set) || !int_col(rd, T, row, st, 1, 0, 0xfffffffeLL, &site))
			break;
		catalog_collapsed_set *ms = set_of(cc, set);
		const unsigned char *kind = sqlite3_column_text(st, 3);
		if (!ms) {
			damaged(rd, T, row, "member_set has no rows in table collapsed_members");
		} else if (!kind || strcmp((const char *)kind, "indirect") != 0) {
			damaged(rd, T, row, "site is not an indirect site of table sites");
		} else if (int_col(rd, T, row, st, 2, 1, ms->width, &held)) {
			ms->sites = xrealloc(ms->sites, (ms->n_sites + 1) * sizeof *ms->sites);
			ms->sites[ms->n_sites++] = (catalog_collapsed_site){(unsigned)site, (unsigned)held};
		}
	}
	return done(rd, T, st, rd->bad ? SQLITE_DONE : rc);
}

static int by_width(const void *a, const void *b)
{
	const catalog_collapsed_object *x = a, *y = b;
	if (x->width != y->width)
		return x->width > y->width ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

bool catalog_collapsed_read(catalog *c, catalog_collapsed *out, facet_error *err)
{
	memset(out, 0, sizeof *out);
	reader rd = {.c = c, .db = catalog_db(c), .err = err};
	sqlite3_stmt *st = prep(&rd, "functions", "SELECT count(*) FROM functions");
	bool ok = true;   /* a failed count is damage, not an empty table */
	long long n_functions = st && catalog_step(c, st, &ok, err) ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	rd.bad = rd.bad || !ok;
	if (rd.bad || !read_members(&rd, out, n_functions) || !read_objects(&rd, out) || !read_sites(&rd, out))
		return false;
	for (unsigned i = 0; i < out->n_sets; i++)
		if (!out->sets[i].n_objects)
			return damaged(&rd, "collapsed_members", out->sets[i].id, "member_set no collapsed object holds");
	if (out->n > 1)
		qsort(out->objects, out->n, sizeof *out->objects, by_width);
	return true;
}

void catalog_collapsed_free(catalog_collapsed *cc)
{
	for (unsigned i = 0; i < cc->n; i++) {
		catalog_collapsed_object *o = &cc->objects[i];
		free(o->name);
		free(o->kind);
		free(o->file);
		free(o->cause);
		free(o->statement);
		free(o->in_function);
		free(o->cause_file);
	}
	for (unsigned i = 0; i < cc->n_sets; i++) {
		free(cc->sets[i].sites);
		free(cc->sets[i].functions);
	}
	free(cc->objects);
	free(cc->sets);
	memset(cc, 0, sizeof *cc);
}
