/* holders.c — the collapsed objects holding part of a set (holders.h). */
#include "pta/holders.h"

#include <stdlib.h>

#include "util/vec.h"
#include "util/xalloc.h"

static int by_held(const void *a, const void *b)
{
	const pta_holder *x = a, *y = b;
	if (x->held != y->held)
		return x->held < y->held ? 1 : -1;
	return (x->object > y->object) - (x->object < y->object);
}

static const sbitmap *content_of(const pta_result *r, unsigned o)
{
	if (!pta_object_collapsed(r->solver, o))
		return NULL;
	const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, o, 0));
	return content && !sbm_empty(content) ? content : NULL;
}

void pta_collapsed_init(const pta_result *r, pta_collapsed *c)
{
	c->n = 0;
	c->objects = xmalloc((r->n_objects + 1) * sizeof *c->objects);
	for (unsigned o = 0; o < r->n_objects; o++)
		if (content_of(r, o))
			c->objects[c->n++] = o;
}

void pta_collapsed_free(pta_collapsed *c)
{
	free(c->objects);
	c->objects = NULL;
	c->n = 0;
}

unsigned pta_collapsed_holders(const pta_result *r, const pta_collapsed *c, const sbitmap *set, pta_holder *out,
                               unsigned max)
{
	if (!set || sbm_empty(set))
		return 0;
	VEC(pta_holder) hs = {0};
	sbitmap both = {0};
	unsigned n_scan = c ? c->n : r->n_objects;
	for (unsigned i = 0; i < n_scan; i++) {
		unsigned o = c ? c->objects[i] : i;
		if (!pta_object_collapsed(r->solver, o))
			continue;
		const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, o, 0));
		if (!content || !sbm_intersects(content, set))
			continue;
		sbm_copy(&both, content);
		sbm_intersect(&both, set);
		pta_holder h = {.object = o, .held = (unsigned)sbm_count(&both),
		                .cause = pta_object_collapse_cause(r->solver, o)};
		VEC_PUSH(&hs, h);
	}
	sbm_free(&both);
	if (hs.len)
		qsort(hs.items, hs.len, sizeof *hs.items, by_held);
	for (size_t i = 0; i < hs.len && i < max; i++) {
		out[i] = hs.items[i];
		out[i].stmt = pta_collapse_stmt(r, out[i].object, &out[i].fn);
	}
	unsigned n = (unsigned)hs.len;
	VEC_FREE(&hs);
	return n;
}
