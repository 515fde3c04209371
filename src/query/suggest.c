/* suggest.c — "did you mean": the catalog's function names closest to a
 * name that matched none, by edit distance (insertions, deletions,
 * substitutions and swaps of neighbours each cost 1). Only the error path
 * runs this, so one pass over the functions table is fine. */
#include "query/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Optimal-string-alignment distance of a and b, or limit + 1 as soon as it
 * must exceed limit (rows of length |b| + 1; names are short). */
static unsigned distance(const char *a, const char *b, unsigned limit)
{
	size_t n = strlen(a), m = strlen(b);
	if ((n > m ? n - m : m - n) > limit || m > 4096)
		return limit + 1;
	unsigned *prev2 = xmalloc((m + 1) * sizeof *prev2), *prev = xmalloc((m + 1) * sizeof *prev),
	         *cur = xmalloc((m + 1) * sizeof *cur);
	for (size_t j = 0; j <= m; j++)
		prev[j] = (unsigned)j;
	unsigned result = 0;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = (unsigned)i;
		unsigned row_min = cur[0];
		for (size_t j = 1; j <= m; j++) {
			unsigned sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;
			unsigned d = sub < del ? sub : del;
			d = d < ins ? d : ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			row_min = d < row_min ? d : row_min;
		}
		unsigned *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
		if (row_min > limit) {
			result = limit + 1;
			break;
		}
	}
	if (!result)
		result = prev[m];
	free(prev2);
	free(prev);
	free(cur);
	return result;
}

typedef struct cand { unsigned d; char *name; } cand;

static int cand_cmp(const void *x, const void *y)
{
	const cand *a = x, *b = y;
	return a->d != b->d ? (a->d < b->d ? -1 : 1) : strcmp(a->name, b->name);
}

void q_suggest(qctx *q, const char *name, char *buf, size_t size)
{
	buf[0] = 0;
	size_t len = strlen(name);
	/* A third of the name, at least 1 and at most 4: "fast_rnu" finds
	 * "fast_run", "x" does not find every one-letter name's neighbours. */
	unsigned limit = len < 3 ? 1 : len / 3 > 4 ? 4 : (unsigned)(len / 3);
	VEC(cand) best = {0};
	sqlite3_stmt *st = q_stmt(q->s, "SELECT name, source_name FROM functions WHERE NOT intrinsic ORDER BY id");
	while (q_step(q->s, st)) {
		for (int col = 0; col < 2; col++) {
			const char *n = (const char *)sqlite3_column_text(st, col);
			if (!n || (col == 1 && strcmp(n, (const char *)sqlite3_column_text(st, 0)) == 0))
				continue;
			unsigned d = distance(name, n, limit);
			if (d > limit)
				continue;
			bool dup = false;
			for (size_t i = 0; i < best.len && !dup; i++)
				dup = strcmp(best.items[i].name, n) == 0;
			if (!dup) {
				cand c = {d, xstrdup(n)};
				VEC_PUSH(&best, c);
			}
		}
	}
	if (best.len)
		qsort(best.items, best.len, sizeof *best.items, cand_cmp);
	size_t used = 0;
	for (size_t i = 0; i < best.len; i++) {
		if (i < 3 && used + strlen(best.items[i].name) + 8 < size)
			used += (size_t)snprintf(buf + used, size - used, "%s'%s'", i ? ", " : "", best.items[i].name);
		free(best.items[i].name);
	}
	VEC_FREE(&best);
}
