/* internal.h — what the catalog writer's files share. Not a public header. */
#ifndef FACET_CATALOG_INTERNAL_H
#define FACET_CATALOG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"

typedef struct writer {
	sqlite3 *db;
	const char *path;
	facet_error *err;
} writer;

bool catalog_w_fail(writer *w, const char *what);
sqlite3_stmt *catalog_w_prep(writer *w, const char *sql);
void catalog_w_text(sqlite3_stmt *st, int i, const char *s);   /* NULL binds NULL */
void catalog_w_id(sqlite3_stmt *st, int i, unsigned id);       /* IR_NONE binds NULL */
bool catalog_w_step(writer *w, sqlite3_stmt *st);              /* step, reset, clear */

/* Rows of one table written CATALOG_ROWS to an INSERT: a statement's step,
 * reset and clearing cost about what a row's insertion does, and the big
 * tables have hundreds of thousands of rows. Rows go in the order they are
 * added; the last partial batch goes one row at a time. A row is a struct
 * of at most CATALOG_ROW_BYTES bytes that bind puts at parameters col0 + 1,
 * col0 + 2, ... (its pointers must stay valid until catalog_rows_end). */
#define CATALOG_ROWS 64
#define CATALOG_ROW_BYTES 32
typedef void (*catalog_row_bind)(sqlite3_stmt *st, int col0, const void *row);
typedef struct catalog_rows {
	writer *w;
	sqlite3_stmt *many, *one;
	catalog_row_bind bind;
	int cols;
	size_t size;
	unsigned n;                                        /* rows waiting in buf */
	/* Row structs at multiples of size: aligned for any of them. */
	_Alignas(max_align_t) unsigned char buf[CATALOG_ROWS * CATALOG_ROW_BYTES];
} catalog_rows;
/* values: one row's VALUES tuple, "(?,?,?)", with cols parameters. False and
 * the error set when the statements cannot be prepared. */
bool catalog_rows_begin(catalog_rows *r, writer *w, const char *table, const char *values, int cols, size_t size,
                        catalog_row_bind bind);
bool catalog_rows_add(catalog_rows *r, const void *row);
bool catalog_rows_end(catalog_rows *r, bool ok);   /* the rest (when ok), then the statements freed */
/* The common row: three integers (a set and its members, a set and a site). */
typedef struct catalog_row3 { uint32_t v[3]; } catalog_row3;
void catalog_bind_row3(sqlite3_stmt *st, int col0, const void *row);   /* a catalog_row_bind */

/* edges.c: every site's (target, graphs) list, interned. */
typedef struct catalog_edge_sets catalog_edge_sets;
catalog_edge_sets *catalog_edge_sets_new(const catalog_build *b);
void catalog_edge_sets_free(catalog_edge_sets *e);
/* Site's list id (sites.target_set), CATALOG_NO_SET when no graph gives it a target. */
uint32_t catalog_edge_set_of(const catalog_edge_sets *e, unsigned site);
/* Tables target_sets and adjacency. */
bool catalog_write_edges(writer *w, const catalog_build *b, const catalog_edge_sets *e);

/* refine.c: fields, assignments, dispatch, decisions, questions. */
bool catalog_write_refinement(writer *w, const facet_result *r);
/* refine.c: the virtual call sites and vslot's decisions (after the refinement's). */
bool catalog_write_virtual(writer *w, const catalog_build *b);

/* collapsed.c: tables collapsed_objects, collapsed_members, collapsed_sites
 * from the points-to result (nothing when r is NULL). */
typedef struct pta_result pta_result;
bool catalog_write_collapsed(writer *w, const pta_result *r);

#endif
