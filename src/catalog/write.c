/* write.c — catalog_write: one run's results into one SQLite file.
 *
 * The file is built in "PATH.tmp-PID" (util/atomic.h) with journaling off
 * (nobody else can see it yet; a failure or SIGINT/SIGTERM removes it, and
 * a SIGKILLed build's is removed by the next build), fsync'ed and renamed
 * over PATH at the end, so PATH always holds a whole catalog. Only an SQLite
 * file, never an input or a device, is replaced.
 * The refinement's tables are read from the facet_result struct's fields
 * only, so this module does not depend on the refinement's code. */
#include "catalog/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

#include "catalog/internal.h"
#include "catalog/schema.h"
#include "facet/facet.h"
#include "oracle/cache.h"
#include "util/atomic.h"
#include "util/xalloc.h"

/* ---- statement helpers ---------------------------------------------------------------- */


bool catalog_w_fail(writer *w, const char *what)
{
	error_set(w->err, "%s: cannot write the catalog (%s): %s", w->path, what, sqlite3_errmsg(w->db));
	return false;
}

sqlite3_stmt *catalog_w_prep(writer *w, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(w->db, sql, -1, &st, NULL) != SQLITE_OK) {
		catalog_w_fail(w, sql);
		return NULL;
	}
	return st;
}

/* Binds NULL for a NULL string. */
void catalog_w_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

void catalog_w_id(sqlite3_stmt *st, int i, unsigned id)
{
	if (id == IR_NONE)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, id);
}

bool catalog_w_step(writer *w, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return catalog_w_fail(w, "insert");
	return true;
}

/* ---- rows in batches (internal.h) ---------------------------------------------------------- */

static sqlite3_stmt *prep_rows(writer *w, const char *table, const char *values, unsigned n)
{
	size_t len = strlen(values) + 1, cap = 32 + strlen(table) + n * len;
	char *sql = xmalloc(cap);
	size_t k = (size_t)snprintf(sql, cap, "INSERT INTO %s VALUES", table);
	for (unsigned i = 0; i < n; i++)
		k += (size_t)snprintf(sql + k, cap - k, "%s%s", i ? "," : "", values);
	sqlite3_stmt *st = catalog_w_prep(w, sql);
	free(sql);
	return st;
}

bool catalog_rows_begin(catalog_rows *r, writer *w, const char *table, const char *values, int cols, size_t size,
                        catalog_row_bind bind)
{
	*r = (catalog_rows){.w = w, .bind = bind, .cols = cols, .size = size};
	if (size > CATALOG_ROW_BYTES)
		return catalog_w_fail(w, "a row wider than CATALOG_ROW_BYTES");
	r->many = prep_rows(w, table, values, CATALOG_ROWS);
	r->one = r->many ? prep_rows(w, table, values, 1) : NULL;
	return r->one != NULL;
}

/* The waiting rows: one statement for a full batch, else a row at a time. */
static bool flush_rows(catalog_rows *r)
{
	bool ok = true, full = r->n == CATALOG_ROWS;
	for (unsigned i = 0; ok && i < r->n; i++) {
		r->bind(full ? r->many : r->one, full ? (int)i * r->cols : 0, r->buf + i * r->size);
		if (!full)
			ok = catalog_w_step(r->w, r->one);
	}
	ok = ok && (!full || catalog_w_step(r->w, r->many));
	r->n = 0;
	return ok;
}

bool catalog_rows_add(catalog_rows *r, const void *row)
{
	memcpy(r->buf + r->n * r->size, row, r->size);
	return ++r->n < CATALOG_ROWS || flush_rows(r);
}

void catalog_bind_row3(sqlite3_stmt *st, int col0, const void *row)
{
	const catalog_row3 *r = row;
	for (int i = 0; i < 3; i++)
		sqlite3_bind_int64(st, col0 + 1 + i, r->v[i]);
}

bool catalog_rows_end(catalog_rows *r, bool ok)
{
	ok = ok && flush_rows(r);
	sqlite3_finalize(r->many);
	sqlite3_finalize(r->one);
	r->many = r->one = NULL;
	return ok;
}

static bool meta(writer *w, const char *key, const char *value)
{
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO meta(key, value) VALUES(?1, ?2)");
	if (!st)
		return false;
	catalog_w_text(st, 1, key);
	catalog_w_text(st, 2, value);
	bool ok = catalog_w_step(w, st);
	sqlite3_finalize(st);
	return ok;
}

static bool meta_num(writer *w, const char *key, double v)
{
	char buf[64];
	if (v == (double)(long long)v)
		snprintf(buf, sizeof buf, "%lld", (long long)v);
	else
		snprintf(buf, sizeof buf, "%.3f", v);
	return meta(w, key, buf);
}

/* The module a definition came from, as the catalog names it: the source
 * file its debug info records (the linked module no longer says which input
 * held it). Empty string without debug info. */
static const char *module_id_of(const ir_function *f)
{
	return f->loc.file ? f->loc.file : "";
}

/* The source name of a function: its demangled name (C++: "Shape::area()"),
 * its DISubprogram name, else the linked name without the ".N" suffix LLVM
 * adds to colliding statics. */
static char *source_name_of(const ir_function *f)
{
	if (f->demangled)
		return xstrdup(f->demangled);
	if (f->di_name && *f->di_name)
		return xstrdup(f->di_name);
	char *s = xstrdup(f->name);
	char *dot = strrchr(s, '.');
	if (dot && dot != s && dot[1]) {
		char *q = dot + 1;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == 0)
			*dot = 0;
	}
	return s;
}

/* ---- the program model ------------------------------------------------------------------ */

static bool write_functions(writer *w, const ir_program *p)
{
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO functions VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)");
	if (!st)
		return false;
	bool ok = true;
	for (unsigned i = 0; ok && i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		char *src = source_name_of(f);
		sqlite3_bind_int64(st, 1, f->id);
		catalog_w_text(st, 2, f->name);
		catalog_w_text(st, 3, src);
		catalog_w_text(st, 4, f->defined ? module_id_of(f) : NULL);
		catalog_w_text(st, 5, f->loc.file);
		catalog_w_text(st, 6, f->loc.dir);
		sqlite3_bind_int64(st, 7, f->loc.line);
		catalog_w_text(st, 8, ir_linkage_name(f->linkage));
		sqlite3_bind_int(st, 9, f->defined);
		sqlite3_bind_int(st, 10, f->address_taken);
		sqlite3_bind_int(st, 11, f->intrinsic);
		sqlite3_bind_int(st, 12, f->vararg);
		catalog_w_text(st, 13, f->ir_type);
		sqlite3_bind_int64(st, 14, f->n_sites);
		ok = catalog_w_step(w, st);
		free(src);
	}
	sqlite3_finalize(st);
	return ok;
}

static bool write_sites(writer *w, const catalog_build *b, const catalog_edge_sets *es)
{
	const ir_program *p = b->prog;
	const facet_result *r = b->refine;
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO sites VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)");
	sqlite3_stmt *in = catalog_w_prep(w, "INSERT INTO site_inlined VALUES(?1,?2,?3,?4,?5,?6)");
	sqlite3_stmt *cb = catalog_w_prep(w, "INSERT INTO site_callbacks VALUES(?1,?2)");
	bool ok = st && in && cb;
	for (unsigned i = 0; ok && i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		unsigned resolved = 0;
		for (int g = 0; g < CG_N_GRAPHS; g++)
			if (b->graphs[g] && !cg_site_unresolved(b->graphs[g], i))
				resolved |= 1u << g;
		unsigned field = IR_NONE;
		if (r && r->site_index && r->site_index[i] != IR_NONE)
			field = r->sites[r->site_index[i]].field;
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_int64(st, 2, s->caller->id);
		catalog_w_text(st, 3, site_kind_name(s->kind));
		catalog_w_id(st, 4, s->kind == SITE_DIRECT && s->callee ? s->callee->id : IR_NONE);
		catalog_w_text(st, 5, s->call_type);
		catalog_w_text(st, 6, s->loc.file);
		sqlite3_bind_int64(st, 7, s->loc.line);
		sqlite3_bind_int64(st, 8, s->loc.col);
		sqlite3_bind_int64(st, 9, resolved);
		catalog_w_id(st, 10, field);
		uint32_t set = catalog_edge_set_of(es, i);
		if (set != CATALOG_NO_SET)
			sqlite3_bind_int64(st, 11, set);
		ok = catalog_w_step(w, st);
		for (unsigned k = 0; ok && k < s->n_inlined; k++) {
			const ir_inline_frame *fr = &s->inlined_at[k];
			sqlite3_bind_int64(in, 1, s->id);
			sqlite3_bind_int64(in, 2, k);
			catalog_w_text(in, 3, fr->function);
			catalog_w_text(in, 4, fr->loc.file);
			sqlite3_bind_int64(in, 5, fr->loc.line);
			sqlite3_bind_int64(in, 6, fr->loc.col);
			ok = catalog_w_step(w, in);
		}
		for (unsigned k = 0; ok && k < s->n_callbacks; k++) {
			sqlite3_bind_int64(cb, 1, s->id);
			sqlite3_bind_int64(cb, 2, s->callbacks[k]->id);
			ok = catalog_w_step(w, cb);
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(in);
	sqlite3_finalize(cb);
	return ok;
}

static bool write_globals(writer *w, const ir_program *p)
{
	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO globals VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)");
	sqlite3_stmt *sl = catalog_w_prep(w, "INSERT INTO global_slots VALUES(?1,?2,?3,?4,?5,?6)");
	bool ok = st && sl;
	for (unsigned i = 0; ok && i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		sqlite3_bind_int64(st, 1, g->id);
		catalog_w_text(st, 2, g->name);
		catalog_w_text(st, 3, ir_linkage_name(g->linkage));
		sqlite3_bind_int(st, 4, g->defined);
		sqlite3_bind_int(st, 5, g->constant);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)g->size);
		catalog_w_text(st, 7, g->ir_type);
		catalog_w_text(st, 8, g->var ? g->var->name : NULL);
		catalog_w_text(st, 9, g->var ? g->var->loc.file : NULL);
		sqlite3_bind_int64(st, 10, g->var ? g->var->loc.line : 0);
		catalog_w_text(st, 11, ir_global_label(g));
		ok = catalog_w_step(w, st);
		for (unsigned k = 0; ok && k < g->n_slots; k++) {
			const ir_init_slot *s = &g->slots[k];
			sqlite3_bind_int64(sl, 1, g->id);
			sqlite3_bind_int64(sl, 2, (sqlite3_int64)s->offset);
			catalog_w_text(sl, 3, s->kind == SLOT_FUNCTION ? "function" : "global");
			catalog_w_id(sl, 4, s->kind == SLOT_FUNCTION ? s->function->id : IR_NONE);
			catalog_w_id(sl, 5, s->kind == SLOT_GLOBAL ? s->global->id : IR_NONE);
			sqlite3_bind_int64(sl, 6, s->addend);
			ok = catalog_w_step(w, sl);
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(sl);
	return ok;
}

/* Where each function's address is taken or stored, from the model alone:
 * initializer slots ("init"), stores ("store", with the byte offset from the
 * stored-to pointer), call arguments ("arg", at the call's position), and
 * other moves ("copy", "return"). A store carries its source position;
 * other statements do not, so their line is 0 and their file the enclosing
 * function's. */
static bool write_address_uses(writer *w, const catalog_build *b)
{
	const ir_program *p = b->prog;
	unsigned *fn_of_value = xmalloc((p->n_values ? p->n_values : 1) * sizeof *fn_of_value);
	for (unsigned v = 0; v < p->n_values; v++)
		fn_of_value[v] = IR_NONE;
	for (unsigned i = 0; i < p->n_functions; i++)
		if (p->functions[i]->value < p->n_values)
			fn_of_value[p->functions[i]->value] = i;
#define FN_OF(v) ((v) < p->n_values ? fn_of_value[v] : IR_NONE)

	sqlite3_stmt *st = catalog_w_prep(w, "INSERT INTO address_uses(function, kind, in_function, site, global, offset, "
	                           "file, line, col, field) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
	bool ok = st != NULL;
	for (unsigned i = 0; ok && i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		for (unsigned k = 0; ok && k < g->n_slots; k++) {
			if (g->slots[k].kind != SLOT_FUNCTION)
				continue;
			sqlite3_bind_int64(st, 1, g->slots[k].function->id);
			catalog_w_text(st, 2, "init");
			sqlite3_bind_int64(st, 5, g->id);
			sqlite3_bind_int64(st, 6, (sqlite3_int64)g->slots[k].offset);
			catalog_w_text(st, 7, g->var ? g->var->loc.file : NULL);
			sqlite3_bind_int64(st, 8, g->var ? g->var->loc.line : 0);
			sqlite3_bind_int64(st, 9, 0);
			ok = catalog_w_step(w, st);
		}
	}
	for (unsigned i = 0; ok && i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		for (unsigned k = 0; ok && k < f->n_stmts; k++) {
			const ir_stmt *s = &p->stmts[f->first_stmt + k];
			if (s->op == ST_CALL) {
				const ir_site *site = &p->sites[s->site];
				for (unsigned a = 0; ok && a < site->n_args; a++) {
					unsigned fn = site->args[a] == IR_NONE ? IR_NONE : FN_OF(site->args[a]);
					if (fn == IR_NONE)
						continue;
					sqlite3_bind_int64(st, 1, fn);
					catalog_w_text(st, 2, "arg");
					sqlite3_bind_int64(st, 3, f->id);
					sqlite3_bind_int64(st, 4, site->id);
					sqlite3_bind_int64(st, 6, a);
					catalog_w_text(st, 7, site->loc.file);
					sqlite3_bind_int64(st, 8, site->loc.line);
					sqlite3_bind_int64(st, 9, site->loc.col);
					ok = catalog_w_step(w, st);
				}
				continue;
			}
			if (s->op != ST_STORE && s->op != ST_COPY && s->op != ST_RET)
				continue;
			unsigned fn = s->src == IR_NONE ? IR_NONE : FN_OF(s->src);
			if (fn == IR_NONE)
				continue;
			sqlite3_bind_int64(st, 1, fn);
			catalog_w_text(st, 2, s->op == ST_STORE ? "store" : s->op == ST_COPY ? "copy" : "return");
			sqlite3_bind_int64(st, 3, f->id);
			if (s->op == ST_STORE)
				sqlite3_bind_int64(st, 6, s->offset);
			/* Stores carry their own position; other statements none. */
			const ir_loc *loc = s->op == ST_STORE && s->loc && s->loc->line ? s->loc : NULL;
			catalog_w_text(st, 7, loc ? loc->file : f->loc.file);
			sqlite3_bind_int64(st, 8, loc ? loc->line : 0);
			sqlite3_bind_int64(st, 9, loc ? loc->col : 0);
			ok = catalog_w_step(w, st);
		}
	}
#undef FN_OF
	sqlite3_finalize(st);
	free(fn_of_value);
	return ok;
}

/* ---- graphs ----------------------------------------------------------------------------- */

/* Table graphs: what each graph holds (the edges themselves: edges.c). */
static bool write_graphs(writer *w, const catalog_build *b)
{
	const ir_program *p = b->prog;
	sqlite3_stmt *gs = catalog_w_prep(w, "INSERT INTO graphs VALUES(?1,?2,?3,?4,?5,?6,?7)");
	bool ok = gs != NULL;
	for (int g = 0; ok && g < CG_N_GRAPHS; g++) {
		const cg_graph *cg = b->graphs[g];
		unsigned long edges = 0, ind = 0, unresolved = 0;
		for (unsigned s = 0; cg && s < p->n_sites; s++) {
			edges += cg->n_targets[s];
			if (p->sites[s].kind == SITE_INDIRECT) {
				ind += cg->n_targets[s];
				unresolved += cg_site_unresolved(cg, s);
			}
		}
		const char *note = NULL;
		if (!cg && cg_graph_info_of((cg_graph_id)g)->from_source)
			note = "made from C files by facet source";
		else if (!cg && g >= CG_RULESONLY)
			note = b->refine_note ? b->refine_note : "the refinement did not run";
		catalog_w_text(gs, 1, cg_graph_name(g));
		sqlite3_bind_int64(gs, 2, 1u << g);
		sqlite3_bind_int(gs, 3, cg != NULL);
		sqlite3_bind_int64(gs, 4, (sqlite3_int64)edges);
		sqlite3_bind_int64(gs, 5, (sqlite3_int64)ind);
		sqlite3_bind_int64(gs, 6, (sqlite3_int64)unresolved);
		catalog_w_text(gs, 7, note);
		ok = catalog_w_step(w, gs);
	}
	sqlite3_finalize(gs);
	return ok;
}

/* ---- the file ------------------------------------------------------------------------- */

static bool exec(writer *w, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(w->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error_set(w->err, "%s: cannot write the catalog: %s", w->path, msg ? msg : "?");
		sqlite3_free(msg);
		return false;
	}
	return true;
}

static bool write_all(writer *w, const catalog_build *b)
{
	const ir_program *p = b->prog;
	char num[32];
	if (!exec(w, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192; BEGIN;") ||
	    !exec(w, catalog_schema_sql))
		return false;
	snprintf(num, sizeof num, "%d", CATALOG_SCHEMA_VERSION);
	bool ok = meta(w, "format", "facet-catalog") && meta(w, "schema_version", num) &&
	          meta(w, "facet_version", "0.1.0") && meta(w, "fingerprint", b->fingerprint) &&
	          meta(w, "triple", p->triple) && meta(w, "data_layout", p->data_layout) &&
	          meta_num(w, "pointer_size", p->pointer_size) && meta_num(w, "has_debug_info", p->has_debug_info) &&
	          meta_num(w, "tau", b->tau) && meta(w, "oracle", b->oracle ? b->oracle : "none") &&
	          meta(w, "refinement", b->refine ? "built" : "absent") &&
	          meta(w, "refinement_note", b->refine ? b->refine->note : b->refine_note) &&
	          meta_num(w, "seconds_ingest", b->seconds_ingest) && meta_num(w, "seconds_pta", b->seconds_pta) &&
	          meta_num(w, "seconds_refine", b->seconds_refine) &&
	          meta(w, "default_graph", b->graphs[CG_RPM] ? "rpm" : b->graphs[CG_R0] ? "r0" :
	                                        b->graphs[CG_SOURCE] ? "source" : "direct");
	sqlite3_stmt *in = ok ? catalog_w_prep(w, "INSERT INTO inputs VALUES(?1, ?2)") : NULL;
	ok = ok && in;
	for (unsigned i = 0; ok && i < p->n_inputs; i++) {
		sqlite3_bind_int64(in, 1, i);
		/* Absolute, so slice --emit-module can re-read them from anywhere. */
		char *abs = realpath(p->inputs[i], NULL);
		catalog_w_text(in, 2, abs ? abs : p->inputs[i]);
		ok = catalog_w_step(w, in);
		free(abs);
	}
	sqlite3_finalize(in);
	catalog_edge_sets *es = ok ? catalog_edge_sets_new(b) : NULL;
	ok = ok && write_functions(w, p) && write_sites(w, b, es) && write_globals(w, p) && write_address_uses(w, b) &&
	     catalog_write_edges(w, b, es) && write_graphs(w, b) &&
	     (!b->refine || catalog_write_refinement(w, b->refine)) && catalog_write_virtual(w, b) &&
	     catalog_write_collapsed(w, b->refine ? b->refine->pta : NULL) && exec(w, catalog_index_sql) &&
	     (!b->oracle_answers || oracle_cache_save_sqlite(b->oracle_answers, w->db, w->err)) &&
	     exec(w, "COMMIT;");
	catalog_edge_sets_free(es);
	return ok;
}

static bool is_sqlite_file(const unsigned char *head, size_t n)
{
	return n >= 16 && memcmp(head, "SQLite format 3", 16) == 0;
}

/* The temporary is created by util/atomic.h (O_EXCL|O_NOFOLLOW, so a
 * planted symlink cannot redirect it) and SQLite then opens that empty
 * file by name. synchronous=OFF is safe because nothing reads the file
 * before atomic_commit fsyncs it and its directory around the rename. */
bool catalog_write(const char *path, const catalog_build *b, facet_error *err)
{
	const char *const *inputs = b->prog ? b->prog->inputs : NULL;
	atomic_target t = {.what = "the catalog", .kind = is_sqlite_file, .kind_name = "a facet catalog",
	                   .protect = inputs, .n_protect = b->prog ? b->prog->n_inputs : 0};
	atomic_file af;
	if (!atomic_open(&af, path, &t, err))
		return false;
	writer w = {.path = path, .err = err};
	bool ok = false;
	if (sqlite3_open_v2(af.tmp, &w.db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		error_set(err, "%s: cannot create %s: %s", path, af.tmp, w.db ? sqlite3_errmsg(w.db) : "out of memory");
	} else {
		ok = write_all(&w, b);
	}
	if (w.db && sqlite3_close(w.db) != SQLITE_OK && ok) {
		error_set(err, "%s: cannot close %s", path, af.tmp);
		ok = false;
	}
	if (ok)
		return atomic_commit(&af, err);
	atomic_abort(&af);
	return false;
}

char *catalog_default_path(const char *input, const char *exts, bool here)
{
	char *s = xstrdup(input);
	size_t n = strlen(s);
	const char *base = s;
	if (here) {
		while (n > 1 && s[n - 1] == '/')
			s[--n] = 0;
		base = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
		if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
			base = "source";
	}
	char *out = xmalloc(strlen(base) + 8);
	strcpy(out, base);
	free(s);
	char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
	bool stem = dot && (here ? dot != out : !slash || dot > slash);   /* build's ".bc" is all extension */
	for (const char *e = exts; stem && *e; e += strlen(e) + 1)
		if (strcmp(dot, e) == 0) {
			*dot = 0;
			break;
		}
	strcat(out, ".facet");
	return out;
}
