/* print.c — points-to sets as text (print.h). */
#include "pta/print.h"

#include <stdlib.h>
#include <string.h>

#include "pta/holders.h"

/* A set, wrapped at about 100 columns under its label, at most SHOW_MAX
 * names and then how many more (issue 15.3: one 2,900-character line said
 * nothing). */
enum { SHOW_MAX = 40, HOLDERS_SHOWN = 3 };

static void print_set(FILE *out, const pta_result *r, const sbitmap *set)
{
	unsigned count = 0, loc, col = 28;
	size_t total = set ? sbm_count(set) : 0;
	if (set) {
		SBM_FOREACH(set, loc) {
			if (count == SHOW_MAX)
				break;
			char *name = pta_loc_name(r, loc, false);   /* a list split at spaces: linked names */
			size_t w = strlen(name) + 1;
			if (count && col + w > 100) {
				fputs("\n    ", out);
				col = 4;
			} else if (count) {
				fputc(' ', out);
			}
			fputs(name, out);
			col += (unsigned)w;
			count++;
			free(name);
		}
	}
	if (!count)
		fputs("(empty)\n", out);
	else if (total > count)
		fprintf(out, "\n    ... and %zu more (%zu in all)\n", total - count, total);
	else
		fputc('\n', out);
}

/* The collapsed objects holding part of the set: which, what collapsed it
 * and where, how much of the set each holds; the widest three. */
static void print_holders(FILE *out, const pta_result *r, const sbitmap *set)
{
	pta_holder hs[HOLDERS_SHOWN];
	unsigned n = pta_collapsed_holders(r, NULL, set, hs, HOLDERS_SHOWN);
	for (unsigned i = 0; i < n && i < HOLDERS_SHOWN; i++) {
		char *name = pta_loc_name(r, pta_field(r->solver, hs[i].object, 0), true);
		fprintf(out, "    collapsed object %s holds %u of these; collapsed by %s", name, hs[i].held,
		        pta_collapse_cause_name(hs[i].cause));
		const ir_stmt *st = hs[i].stmt;
		const ir_function *fn = hs[i].fn;
		if (st && st->loc && st->loc->line)
			fprintf(out, " (%s %%%u in %s at %s:%u)", ir_stmt_op_name(st->op), st->dst, fn ? fn->name : "?",
			        st->loc->file ? st->loc->file : "?", st->loc->line);
		else if (st && fn)
			fprintf(out, " (%s %%%u in %s, defined at %s:%u)", ir_stmt_op_name(st->op), st->dst, ir_function_label(fn),
			        fn->loc.file ? fn->loc.file : "?", fn->loc.line);
		else if (st)
			fprintf(out, " (%s %%%u of a global's initializer)", ir_stmt_op_name(st->op), st->dst);
		fputc('\n', out);
		free(name);
	}
	if (n > HOLDERS_SHOWN)
		fprintf(out, "    ... and %u more collapsed objects hold some of them\n", n - HOLDERS_SHOWN);
}

bool pta_print_site(FILE *out, const ir_program *p, const pta_result *r, unsigned id, facet_error *err)
{
	if (id >= p->n_sites) {
		error_set(err, "no call site %u (the program has %u)", id, p->n_sites);
		return false;
	}
	const ir_site *s = &p->sites[id];
	fprintf(out, "site %u in %s at %s:%u:%u (%s)\n", id, ir_function_label(s->caller), s->loc.file ? s->loc.file : "?",
	       s->loc.line, s->loc.col, site_kind_name(s->kind));
	fprintf(out, "  callee operand points to: ");
	const sbitmap *callee = s->callee_value == IR_NONE ? NULL : pta_value_pts(r, s->callee_value);
	print_set(out, r, callee);
	print_holders(out, r, callee);
	for (unsigned i = 0; i < s->n_args; i++) {
		if (s->args[i] == IR_NONE)
			continue;
		fprintf(out, "  argument %u points to: ", i);
		const sbitmap *set = pta_value_pts(r, s->args[i]);
		if (!pta_value_modelled(r, s->args[i]) && (!set || sbm_empty(set)))
			fputs("(not computed: nothing reads or writes a pointer through it)\n", out);
		else
			print_set(out, r, set);
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
	unsigned obj = pta_global_object(r, g);
	if (obj == PTA_NONE) {
		fprintf(out, "global %s, %llu bytes: not in the analysis\n", g->name, (unsigned long long)g->size);
		return true;
	}
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

