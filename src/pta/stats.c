/* stats.c — the counts facet stats reports (stats.h). */
#include "pta/stats.h"

#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/strmap.h"
#include "util/xalloc.h"


const char *const pta_collapse_cause_names[PTA_COLLAPSE_CAUSES] = {"size", "index", "offset", "cycle"};

static bool has_fp_member(const di_type *t)
{
	for (unsigned i = 0; i < t->n_members; i++)
		if (di_is_function_pointer(t->members[i].type))
			return true;
	return false;
}

static double mib(size_t bytes) { return (double)bytes / 1048576.0; }

pta_program_stats pta_program_stats_of(const ir_program *p)
{
	pta_program_stats st = {0};
	st.debug_info = p->has_debug_info;
	st.model_bytes = p->arena.total;
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (f->intrinsic)
			st.intrinsics++;
		else if (f->defined)
			st.defined++;
		else
			st.declared++;
		st.address_taken += f->address_taken;
	}
	bool *is_fn_value = xcalloc(p->n_values + 1, sizeof *is_fn_value);
	for (unsigned i = 0; i < p->n_functions; i++)
		if (p->functions[i]->value < p->n_values)
			is_fn_value[p->functions[i]->value] = true;
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		st.sites++;
		st.named += s->kind == SITE_INDIRECT && s->callee_value < p->n_values && is_fn_value[s->callee_value];
		st.direct += s->kind == SITE_DIRECT;
		st.indirect += s->kind == SITE_INDIRECT;
		st.asm_sites += s->kind == SITE_ASM;
		st.sites_with_loc += s->loc.line != 0;
		st.asm_goto += s->kind == SITE_ASM && s->asm_goto;
		st.asm_pointer_sites += s->kind == SITE_ASM && s->asm_pointer_operands > 0;
		st.asm_calls_direct += s->asm_call && s->kind == SITE_DIRECT;
		st.asm_calls_indirect += s->asm_call && s->kind == SITE_INDIRECT;
		st.asm_calls_unread += s->kind == SITE_ASM ? s->asm_unread_calls : 0;
	}
	st.aliases = p->n_aliases;
	st.unlowered_insts = p->n_unmodelled_insts;
	st.module_asm = p->module_asm;
	st.section_bounds = p->n_bounds;
	for (unsigned i = 0; i < p->n_bounds; i++) {
		st.section_bounds_by_stem += p->bounds[i].by_stem;
		st.section_members += p->bounds[i].n_members;
		st.section_entries += p->bounds[i].n_entries;
	}
	free(is_fn_value);
	/* Linking C modules keeps one DICompositeType per translation unit; count
	 * a named struct once, an anonymous one per definition. */
	strmap names;
	strmap_init(&names);
	for (unsigned i = 0; i < p->n_types; i++) {
		const di_type *t = p->types[i];
		if ((t->kind != DI_STRUCT && t->kind != DI_UNION) || !has_fp_member(t))
			continue;
		if (t->name) {
			if (strmap_has(&names, t->name))
				continue;
			strmap_put(&names, t->name, (void *)t);
		}
		st.fp_structs++;
	}
	strmap_free(&names);
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		st.globals++;
		for (unsigned k = 0; k < g->n_slots; k++)
			if (g->slots[k].kind == SLOT_FUNCTION) {
				st.globals_with_fn_slots++;
				break;
			}
	}
	return st;
}

double pta_share(unsigned part, unsigned whole) { return whole ? (double)part / whole : 0.0; }

/* The function value v belongs to (an argument, a statement's or a call's
 * result); NULL for a global's or a constant's. */
static const char *value_function(const ir_program *p, unsigned v)
{
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (v >= f->first_arg && v < f->first_arg + f->n_args)
			return f->name;
		for (unsigned k = 0; k < f->n_stmts; k++)
			if (p->stmts[f->first_stmt + k].dst == v)
				return f->name;
		for (unsigned k = 0; k < f->n_sites; k++)
			if (p->sites[f->first_site + k].result == v)
				return f->name;
	}
	return NULL;
}

/* The PTA_STATS_WIDEST largest points-to sets of program values (insertion into a
 * short sorted array), with the part from collapsed objects. */
static void widest_sets(const ir_program *p, pta_program_stats *st, const pta_result *r)
{
	for (unsigned v = 0; v < p->n_values; v++) {
		const sbitmap *set = pta_value_pts(r, v);
		unsigned n = set ? (unsigned)sbm_count(set) : 0;
		if (!n || (st->n_widest == PTA_STATS_WIDEST && n <= st->widest_size[PTA_STATS_WIDEST - 1]))
			continue;
		unsigned i = st->n_widest < PTA_STATS_WIDEST ? st->n_widest++ : PTA_STATS_WIDEST - 1;
		for (; i > 0 && st->widest_size[i - 1] < n; i--) {
			st->widest[i] = st->widest[i - 1];
			st->widest_size[i] = st->widest_size[i - 1];
		}
		st->widest[i] = v;
		st->widest_size[i] = n;
	}
	for (unsigned i = 0; i < st->n_widest; i++) {
		unsigned loc, k = 0;
		SBM_FOREACH(pta_value_pts(r, st->widest[i]), loc) {
			unsigned obj = pta_loc_object(r->solver, loc);
			k += obj != PTA_NONE && pta_object_collapsed(r->solver, obj);
		}
		st->widest_collapsed[i] = k;
		st->widest_function[i] = value_function(p, st->widest[i]);
	}
}

/* Site s's position in its caller's own code: a call inlined into it
 * (a fortified memcpy) sits at the outermost inlining step. */
static ir_loc caller_position(const ir_site *s)
{
	return s->n_inlined ? s->inlined_at[s->n_inlined - 1].loc : s->loc;
}

static int by_copy_width(const void *a, const void *b)
{
	const struct pta_copy_stat *x = a, *y = b;
	if (x->src_size != y->src_size)
		return x->src_size < y->src_size ? 1 : -1;
	if (x->dst_size != y->dst_size)
		return x->dst_size < y->dst_size ? 1 : -1;
	return x->site < y->site ? -1 : x->site > y->site;
}

/* The sites of copies of unknown length, and the PTA_STATS_WIDEST of them
 * with the widest source sets (then destination sets). A wrapper's clones
 * repeat a site: it counts once, with its widest record. */
static void widest_copies(const ir_program *p, pta_program_stats *st, const pta_result *r)
{
	struct pta_copy_stat *per_site = xmalloc((r->n_copies ? r->n_copies : 1) * sizeof *per_site);
	unsigned n = 0, *slot = xcalloc(p->n_sites ? p->n_sites : 1, sizeof *slot);
	for (unsigned c = 0; c < r->n_copies; c++) {
		const pta_copy_site *cs = &r->copies[c];
		const sbitmap *src = pta_pts(r->solver, cs->src), *dst = pta_pts(r->solver, cs->dst);
		const ir_site *s = &p->sites[cs->site];
		struct pta_copy_stat now = {cs->site, s->caller->name, caller_position(s),
		                            src ? (unsigned)sbm_count(src) : 0, dst ? (unsigned)sbm_count(dst) : 0};
		if (!slot[cs->site]) {
			slot[cs->site] = ++n;
			per_site[n - 1] = now;
		} else if (by_copy_width(&now, &per_site[slot[cs->site] - 1]) < 0) {
			per_site[slot[cs->site] - 1] = now;
		}
	}
	qsort(per_site, n, sizeof *per_site, by_copy_width);
	st->copies = n;
	st->n_widest_copies = n < PTA_STATS_WIDEST ? n : PTA_STATS_WIDEST;
	memcpy(st->widest_copies, per_site, st->n_widest_copies * sizeof *per_site);
	free(slot);
	free(per_site);
}

void pta_program_stats_add_pta(pta_program_stats *st, const ir_program *p, const pta_result *r)
{
	cg_graph *andersen = pta_callgraph(r, false), *r0 = pta_callgraph(r, true);
	for (unsigned i = 0; i < p->n_sites; i++) {
		if (p->sites[i].kind != SITE_INDIRECT)
			continue;
		st->andersen_targets += andersen->n_targets[i];
		st->r0_targets += r0->n_targets[i];
		st->andersen_empty += andersen->n_targets[i] == 0;
		st->r0_empty += r0->n_targets[i] == 0;
	}
	cg_free(andersen);
	cg_free(r0);
	st->pta = true;
	st->pta_seconds = r->seconds;
	st->wrappers = r->n_wrappers;
	st->wrappers_via_pointer = r->n_wrappers_via_pointer;
	st->wrappers_carving = r->n_wrappers_carving;
	st->clones = r->n_clones;
	st->clones_refused = r->n_clones_refused;
	st->unmodelled = r->n_unmodelled;
	st->symbol_lookups = r->n_symbol_sites;
	st->symbol_named = r->n_symbol_named;
	st->symbol_found = r->n_symbol_found;
	st->symbol_any = r->n_symbol_any;
	for (unsigned i = 0; r->runtime_code != PTA_NONE && i < p->n_sites; i++)
		st->runtime_sites += pta_site_calls_runtime_code(r, i);
	st->section_members_static = r->n_section_members_static;
	st->relative_entries = r->n_relative_entries;
	pta_get_stats(r->solver, &st->solver);
	widest_sets(p, st, r);
	widest_copies(p, st, r);
}

void pta_program_stats_print(FILE *out, const ir_program *p, const pta_program_stats *st)
{
	fprintf(out, "input:                         ");
	for (unsigned i = 0; i < p->n_inputs; i++)
		fprintf(out, "%s%s", i ? " " : "", p->inputs[i]);
	fprintf(out, "\ndebug info:                    %s\n", st->debug_info ? "yes" : "no");
	fprintf(out, "functions defined:             %u\n", st->defined);
	fprintf(out, "functions declared:            %u\n", st->declared);
	fprintf(out, "intrinsics declared:           %u\n", st->intrinsics);
	fprintf(out, "address-taken functions:       %u\n", st->address_taken);
	fprintf(out, "call sites:                    %u\n", st->sites);
	fprintf(out, "  direct:                      %u\n", st->direct);
	fprintf(out, "  indirect:                    %u\n", st->indirect);
	if (st->named)
		fprintf(out, "    of which named through a mismatched or unprototyped declaration: %u\n", st->named);
	fprintf(out, "  inline asm:                  %u\n", st->asm_sites);
	fprintf(out, "call sites with a location:    %u (%.1f%%)\n", st->sites_with_loc,
	       100.0 * pta_share(st->sites_with_loc, st->sites));
	fprintf(out, "structs with fn-ptr members:   %u\n", st->fp_structs);
	fprintf(out, "globals:                       %u\n", st->globals);
	fprintf(out, "globals holding functions:     %u\n", st->globals_with_fn_slots);
	fprintf(out, "not modelled or approximated:  %u asm goto sites, %u asm sites with pointer operands, "
	        "%u aliases (read as their aliasees), %u instructions not lowered (va_arg)\n",
	        st->asm_goto, st->asm_pointer_sites, st->aliases, st->unlowered_insts);
	fprintf(out, "calls in inline asm text:      %u direct, %u through an operand (sites of their own), "
	        "%u not read\n", st->asm_calls_direct, st->asm_calls_indirect, st->asm_calls_unread);
	fprintf(out, "module asm:                    %u statements, %u section entries read, %u data directives "
	        "naming symbols not understood, %u functions defined in asm only\n",
	        st->module_asm.statements, st->module_asm.entries, st->module_asm.unparsed,
	        st->module_asm.function_labels);
	fprintf(out, "trampolines:                   %u patchable (jmp SYM or ret in module asm), %u calls to them "
	        "resolved as indirect sites\n", st->module_asm.trampolines, st->module_asm.trampoline_calls);
	fprintf(out, "section arrays:                %u bounds (%u matched by name stem), %u member globals, "
	        "%u asm entries\n", st->section_bounds, st->section_bounds_by_stem, st->section_members,
	        st->section_entries);
	if (!st->pta)
		return;
	fprintf(out, "points-to analysis:            %.3f s, %u nodes, %zu constraints, %u objects "
	       "(%u collapsed), %u cycles merged\n",
	       st->pta_seconds, st->solver.nodes, st->solver.constraints, st->solver.objects,
	       st->solver.collapsed_objects, st->solver.cycles);
	fprintf(out, "  constraints by kind:         addr %zu, copy %zu, load %zu, store %zu, gep %zu, gep_var %zu\n",
	       st->solver.addr, st->solver.copy, st->solver.load, st->solver.store, st->solver.gep,
	       st->solver.gep_var);
	const pta_stats *m = &st->solver;
	fprintf(out, "  memory (MiB):                nodes %.1f, points-to sets %.1f, deltas %.1f, copy edges %.1f, "
	        "watches' sets %.1f, location sets %.1f, constraints %.1f, maps and objects %.1f; program model %.1f\n",
	        mib(m->node_bytes), mib(m->pts_bytes), mib(m->delta_bytes), mib(m->succ_bytes), mib(m->reported_bytes),
	        mib(m->locset_bytes), mib(m->cx_bytes), mib(m->map_bytes), mib(st->model_bytes));
	fprintf(out, "  collapsed objects by cause:  ");
	for (unsigned c = 0; c < PTA_COLLAPSE_CAUSES; c++)
		fprintf(out, "%s%s %u", c ? ", " : "", pta_collapse_cause_names[c], st->solver.collapsed_by[c]);
	fprintf(out, "\n  offsets dropped, not collapsed: %u globals and stack slots an offset left",
	        st->solver.offset_dropped);
	fprintf(out, "\n  time by phase:               extraction %.3f s, solving %.3f s (whole-graph passes %.3f, "
	       "lazy cycle searches %.3f, propagation %.3f)\n",
	       st->pta_seconds - st->solver.seconds_solve, st->solver.seconds_solve, st->solver.seconds_flow,
	       st->solver.seconds_lcd, st->solver.seconds_solve - st->solver.seconds_flow - st->solver.seconds_lcd);
	for (unsigned i = 0; i < st->n_widest; i++)
		fprintf(out, "  %s %%%u in %s: %u locations, %u of collapsed objects\n", i ? "            " : "widest sets:",
		       st->widest[i], st->widest_function[i] ? st->widest_function[i] : "a global",
		       st->widest_size[i], st->widest_collapsed[i]);
	fprintf(out, "  copies of unknown length:    %u sites (each moves its source's fields into "
	        "each of its destination's, from the pointers on)%s\n",
	        st->copies, st->n_widest_copies ? "; the widest sources:" : "");
	for (unsigned i = 0; i < st->n_widest_copies; i++) {
		const struct pta_copy_stat *c = &st->widest_copies[i];
		fprintf(out, "                               site %u in %s", c->site, c->function);
		if (c->at.line)
			fprintf(out, " (%s:%u)", c->at.file ? c->at.file : "?", c->at.line);
		fprintf(out, ": source %u locations, destination %u\n", c->src_size, c->dst_size);
	}
	fprintf(out, "allocation wrappers:           %u (%u through pointers, %u carving from blocks; %u call sites cloned, "
	       "%u sources uncloned past the budget)\n", st->wrappers, st->wrappers_via_pointer, st->wrappers_carving,
	       st->clones, st->clones_refused);
	fprintf(out, "mean targets per indirect site: andersen %.2f, r0 %.2f\n",
	       pta_share(st->andersen_targets, st->indirect), pta_share(st->r0_targets, st->indirect));
	fprintf(out, "empty indirect sites:          andersen %u, r0 %u\n", st->andersen_empty, st->r0_empty);
	fprintf(out, "unmodelled external functions: %u\n", st->unmodelled);
	fprintf(out, "symbol lookups (dlsym):        %u (%u by a constant name, %u of them found in the module; "
	        "%u by a computed name that may search the program itself); indirect sites that may call code "
	        "loaded at run time: %u\n", st->symbol_lookups, st->symbol_named, st->symbol_found, st->symbol_any,
	        st->runtime_sites);
	fprintf(out, "section arrays in points-to:   %u members read from initializers only, %u relative entries "
	        "followed\n", st->section_members_static, st->relative_entries);
}


void pta_program_stats_print_json(FILE *out, const pta_program_stats *st, const char *key, const char *value)
{
	fprintf(out, "{\"debug_info\": %s, \"functions_defined\": %u, \"functions_declared\": %u, "
	       "\"intrinsics\": %u, \"address_taken\": %u, \"sites\": %u, \"sites_direct\": %u, "
	       "\"sites_indirect\": %u, \"sites_indirect_named\": %u, \"sites_asm\": %u, \"sites_with_location\": %u, "
	       "\"location_share\": %.4f, \"structs_with_fn_ptr_members\": %u, \"globals\": %u, "
	       "\"globals_holding_functions\": %u",
	       st->debug_info ? "true" : "false", st->defined, st->declared, st->intrinsics,
	       st->address_taken, st->sites, st->direct, st->indirect, st->named, st->asm_sites, st->sites_with_loc,
	       pta_share(st->sites_with_loc, st->sites), st->fp_structs, st->globals,
	       st->globals_with_fn_slots);
	fprintf(out, ", \"sites_asm_goto\": %u, \"sites_asm_pointer_operands\": %u, \"aliases\": %u, "
	       "\"instructions_not_lowered\": %u, \"module_asm_statements\": %u, \"module_asm_entries\": %u, "
	       "\"module_asm_unparsed\": %u, \"asm_defined_functions\": %u, \"section_bounds\": %u, "
	       "\"section_bounds_by_stem\": %u, \"section_members\": %u, \"section_entries\": %u, "
	       "\"trampolines\": %u, \"trampoline_calls\": %u, \"asm_calls_direct\": %u, "
	       "\"asm_calls_indirect\": %u, \"asm_calls_unread\": %u",
	       st->asm_goto, st->asm_pointer_sites, st->aliases, st->unlowered_insts, st->module_asm.statements,
	       st->module_asm.entries, st->module_asm.unparsed, st->module_asm.function_labels, st->section_bounds,
	       st->section_bounds_by_stem, st->section_members, st->section_entries, st->module_asm.trampolines,
	       st->module_asm.trampoline_calls, st->asm_calls_direct, st->asm_calls_indirect, st->asm_calls_unread);
	if (st->pta)
		fprintf(out, ", \"section_members_static\": %u, \"relative_entries_followed\": %u",
		       st->section_members_static, st->relative_entries);
	if (st->pta)
		fprintf(out, ", \"pta_seconds\": %.3f, \"pta_nodes\": %u, \"pta_constraints\": %zu, \"pta_objects\": %u, "
		       "\"pta_collapsed_objects\": %u, \"allocation_wrappers\": %u, "
		       "\"mean_targets_andersen\": %.4f, \"mean_targets_r0\": %.4f, \"empty_andersen\": %u, "
		       "\"empty_r0\": %u, \"unmodelled_externals\": %u",
		       st->pta_seconds, st->solver.nodes, st->solver.constraints, st->solver.objects,
		       st->solver.collapsed_objects, st->wrappers, pta_share(st->andersen_targets, st->indirect),
		       pta_share(st->r0_targets, st->indirect), st->andersen_empty, st->r0_empty, st->unmodelled);
	if (st->pta) {
		fprintf(out, ", \"wrappers_via_pointer\": %u, \"wrappers_carving\": %u, \"wrapper_clones\": %u, "
		        "\"wrapper_clones_refused\": %u, \"pta_collapsed_by_cause\": {", st->wrappers_via_pointer,
		        st->wrappers_carving, st->clones, st->clones_refused);
		for (unsigned c = 0; c < PTA_COLLAPSE_CAUSES; c++)
			fprintf(out, "%s\"%s\": %u", c ? ", " : "", pta_collapse_cause_names[c], st->solver.collapsed_by[c]);
		fprintf(out, "}, \"pta_offset_dropped\": %u", st->solver.offset_dropped);
		fprintf(out, ", \"symbol_lookups\": %u, \"symbol_lookups_named\": %u, \"symbol_lookups_found\": %u, "
		        "\"symbol_lookups_any\": %u, \"sites_calling_runtime_code\": %u", st->symbol_lookups,
		        st->symbol_named, st->symbol_found, st->symbol_any, st->runtime_sites);
		fprintf(out, ", \"pta_phase_seconds\": {\"extraction\": %.3f, \"solving\": %.3f, \"whole_graph_passes\": %.3f, "
		       "\"lazy_cycle_searches\": %.3f}, \"pta_widest_sets\": [",
		       st->pta_seconds - st->solver.seconds_solve, st->solver.seconds_solve, st->solver.seconds_flow,
		       st->solver.seconds_lcd);
		for (unsigned i = 0; i < st->n_widest; i++) {
			fprintf(out, "%s{\"value\": %u, \"function\": ", i ? ", " : "", st->widest[i]);
			if (st->widest_function[i])
				jsonw_string(out, st->widest_function[i]);
			else
				fputs("null", out);
			fprintf(out, ", \"size\": %u, \"collapsed\": %u}", st->widest_size[i], st->widest_collapsed[i]);
		}
		fprintf(out, "], \"pta_unbounded_copies\": %u, \"pta_widest_copies\": [", st->copies);
		for (unsigned i = 0; i < st->n_widest_copies; i++) {
			const struct pta_copy_stat *c = &st->widest_copies[i];
			fprintf(out, "%s{\"site\": %u, \"function\": ", i ? ", " : "", c->site);
			jsonw_string(out, c->function);
			fputs(", \"file\": ", out);
			if (c->at.line && c->at.file)
				jsonw_string(out, c->at.file);
			else
				fputs("null", out);
			fprintf(out, ", \"line\": %u, \"source\": %u, \"destination\": %u}", c->at.line, c->src_size,
			        c->dst_size);
		}
		const pta_stats *m = &st->solver;
		fprintf(out, "], \"pta_bytes\": {\"nodes\": %zu, \"pts\": %zu, \"delta\": %zu, \"succ\": %zu, "
		        "\"watches\": %zu, \"locsets\": %zu, \"constraints\": %zu, \"maps\": %zu, \"model\": %zu}",
		        m->node_bytes, m->pts_bytes, m->delta_bytes, m->succ_bytes, m->reported_bytes, m->locset_bytes,
		        m->cx_bytes, m->map_bytes, st->model_bytes);
	}
	if (key)
		fprintf(out, ", \"%s\": %s", key, value ? value : "null");
	fputs("}\n", out);
}
