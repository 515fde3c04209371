/* table.h — the step and round tables of the lesson, as data.
 *
 * Algorithms that can explain themselves (CHA's worklist steps, RTA's and
 * XTA's rounds, ...) append rows of strings to an oo_table; print.h lays it
 * out as text or JSON. Tests read the cells directly and compare them with the
 * rows of §3. All strings live in the table's arena. */
#ifndef FACET_OO_TABLE_H
#define FACET_OO_TABLE_H

#include <stdint.h>

#include "oo/program.h"
#include "util/arena.h"

typedef struct oo_table {
	arena a;
	const char *title;
	int ncols, nrows, cap;
	const char **head;
	const char ***rows;
	const char *note;          /* one line printed after the table, may be NULL */
} oo_table;

oo_table   *oo_table_new(const char *title, int ncols, const char *const *head);
void        oo_table_add(oo_table *t, const char *const *cells);   /* copies ncols cells; NULL is "" */
const char *oo_table_cell(const oo_table *t, int row, int col);
void        oo_table_free(oo_table *t);

/* Cell helpers; results live in arena a. Sets print sorted by name. */
const char *oo_fmt_bodies(arena *a, const oo_program *p, const int *bodies, int n);     /* "A.m, f" */
const char *oo_fmt_classes(arena *a, const oo_program *p, const uint64_t *classes);     /* "{A, B}" */

/* A growable string for building cells. */
typedef struct oo_buf { char *s; size_t len, cap; } oo_buf;
void oo_buf_printf(oo_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void oo_buf_free(oo_buf *b);
static inline const char *oo_buf_str(const oo_buf *b) { return b->s ? b->s : ""; }

#endif
