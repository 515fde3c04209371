/* table.c — rows of strings and the set formatters; see table.h. */
#include "oo/table.h"
#include "oo/set.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

oo_table *oo_table_new(const char *title, int ncols, const char *const *head)
{
	oo_table *t = xcalloc(1, sizeof *t);
	arena_init(&t->a);
	t->title = arena_strdup(&t->a, title);
	t->ncols = ncols;
	t->head = ARENA_ARRAY(&t->a, const char *, ncols);
	for (int i = 0; i < ncols; i++)
		t->head[i] = arena_strdup(&t->a, head[i] ? head[i] : "");
	return t;
}

void oo_table_add(oo_table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->rows = xrealloc(t->rows, sizeof *t->rows * (size_t)t->cap);
	}
	const char **row = ARENA_ARRAY(&t->a, const char *, t->ncols);
	for (int i = 0; i < t->ncols; i++)
		row[i] = arena_strdup(&t->a, cells[i] ? cells[i] : "");
	t->rows[t->nrows++] = row;
}

const char *oo_table_cell(const oo_table *t, int row, int col)
{
	if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return NULL;
	return t->rows[row][col];
}

void oo_table_free(oo_table *t)
{
	if (!t)
		return;
	free(t->rows);
	arena_free(&t->a);
	free(t);
}

const char *oo_fmt_bodies(arena *a, const oo_program *p, const int *bodies, int n)
{
	int *sorted = xmalloc(sizeof(int) * ((size_t)n + 1));
	if (n)
		memcpy(sorted, bodies, sizeof(int) * (size_t)n);
	oo_sort_by_name(p, sorted, n);
	oo_buf b = {0};
	for (int i = 0; i < n; i++)
		oo_buf_printf(&b, "%s%s", i ? ", " : "", p->bodies[sorted[i]].name);
	const char *s = arena_strdup(a, oo_buf_str(&b));
	oo_buf_free(&b);
	free(sorted);
	return s;
}

const char *oo_fmt_classes(arena *a, const oo_program *p, const uint64_t *classes)
{
	oo_buf b = {0};
	oo_buf_printf(&b, "{");
	int first = 1;
	for (int i = 0; i < p->nclasses; i++) {
		int c = p->cls_by_name[i];
		if (oo_set_has(classes, c)) {
			oo_buf_printf(&b, "%s%s", first ? "" : ", ", p->classes[c].name);
			first = 0;
		}
	}
	oo_buf_printf(&b, "}");
	const char *s = arena_strdup(a, oo_buf_str(&b));
	oo_buf_free(&b);
	return s;
}

void oo_buf_printf(oo_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void oo_buf_free(oo_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
