/* print.c — points-to sets as text (print.h). */
#include "pta/print.h"

#include <stdlib.h>

static void print_set(FILE *out, const pta_result *r, const sbitmap *set)
{
	unsigned count = 0, loc;
	if (set) {
		SBM_FOREACH(set, loc) {
			char *name = pta_loc_name(r, loc);
			fprintf(out, "%s%s", count++ ? " " : "", name);
			free(name);
		}
	}
	fprintf(out, "%s\n", count ? "" : "(empty)");
}

bool pta_print_site(FILE *out, const ir_program *p, const pta_result *r, unsigned id, facet_error *err)
{
	if (id >= p->n_sites) {
		error_set(err, "no call site %u (the program has %u)", id, p->n_sites);
		return false;
	}
	const ir_site *s = &p->sites[id];
	fprintf(out, "site %u in %s at %s:%u:%u (%s)\n", id, s->caller->name, s->loc.file ? s->loc.file : "?",
	       s->loc.line, s->loc.col, site_kind_name(s->kind));
	fprintf(out, "  callee operand points to: ");
	print_set(out, r, s->callee_value == IR_NONE ? NULL : pta_value_pts(r, s->callee_value));
	for (unsigned i = 0; i < s->n_args; i++) {
		if (s->args[i] == IR_NONE)
			continue;
		fprintf(out, "  argument %u points to: ", i);
		print_set(out, r, pta_value_pts(r, s->args[i]));
	}
	return true;
}

bool pta_print_global(FILE *out, const ir_program *p, const pta_result *r, const char *name, facet_error *err)
{
	ir_global *g = ir_find_global(p, name);
	if (!g) {
		error_set(err, "no global named '%s'", name);
		return false;
	}
	unsigned obj = PTA_NONE;
	for (unsigned i = 0; i < r->n_objects && obj == PTA_NONE; i++)
		if (r->objects[i].kind == OBJ_GLOBAL && r->objects[i].index == g->id)
			obj = i;
	fprintf(out, "global %s, %llu bytes%s\n", g->name, (unsigned long long)g->size,
	       pta_object_collapsed(r->solver, obj) ? " (collapsed: one location)" : "");
	uint64_t step = p->pointer_size, end = pta_object_collapsed(r->solver, obj) ? 1 : g->size;
	for (uint64_t k = 0; k < end; k += step) {
		const sbitmap *content = pta_pts(r->solver, pta_field(r->solver, obj, (int64_t)k));
		if (!content || sbm_empty(content))
			continue;
		fprintf(out, "  +%llu: ", (unsigned long long)k);
		print_set(out, r, content);
	}
	return true;
}

