/* page.c — "limit" and "offset" on a verb's list (query.h): the list is cut
 * after the verb has built the whole answer, so the counts and the
 * uncertainty beside it stay those of the whole list, and "page" says what
 * was cut. */
#include "query/internal.h"

#include <string.h>

/* Cuts arr to [offset, offset + limit) (limit < 0: to the end) and returns
 * the page object. */
static json_t *cut(json_t *arr, const char *key, long long offset, long long limit)
{
	size_t total = json_array_size(arr);
	size_t from = (size_t)offset < total ? (size_t)offset : total;
	size_t to = limit < 0 || (size_t)limit > total - from ? total : from + (size_t)limit;
	json_t *kept = json_array();
	for (size_t i = from; i < to; i++)
		json_array_append(kept, json_array_get(arr, i));
	json_array_clear(arr);
	json_array_extend(arr, kept);
	json_decref(kept);
	return json_pack("{s:s, s:I, s:I, s:o, s:I}", "list", key, "total", (json_int_t)total, "offset",
	                 (json_int_t)offset, "limit", limit < 0 ? json_null() : json_integer(limit), "returned",
	                 (json_int_t)(to - from));
}

/* Applies the page at path ("a", "a.b", "a[].b") below obj. */
static void page_at(json_t *obj, const char *path, long long offset, long long limit)
{
	const char *dot = strchr(path, '.');
	if (!json_is_object(obj))
		return;
	if (!dot) {
		json_t *arr = json_object_get(obj, path);
		if (json_is_array(arr))
			json_object_set_new(obj, "page", cut(arr, path, offset, limit));
		return;
	}
	char head[64];
	size_t n = (size_t)(dot - path);
	if (n >= sizeof head)
		return;
	memcpy(head, path, n);
	head[n] = 0;
	bool each = n > 2 && strcmp(head + n - 2, "[]") == 0;
	if (each)
		head[n - 2] = 0;
	json_t *inner = json_object_get(obj, head);
	if (!each) {
		page_at(inner, dot + 1, offset, limit);
		return;
	}
	size_t i;
	json_t *e;
	json_array_foreach(inner, i, e) page_at(e, dot + 1, offset, limit);
}

bool q_page(qctx *q, const char *path, json_t *answer)
{
	long long offset = 0, limit = -1;
	if (json_object_get(q->args, "offset") && !q_int(q, "offset", &offset, false))
		return false;
	if (json_object_get(q->args, "limit") && !q_int(q, "limit", &limit, false))
		return false;
	if (offset < 0 || (json_object_get(q->args, "limit") && limit < 0)) {
		error_set(q->err, "%s must be 0 or more", offset < 0 ? "offset" : "limit");
		return false;
	}
	page_at(answer, path, offset, limit);
	return true;
}
