/* print.c — llvm, json and dot renderings of a call graph; see print.h. */
#include "cg/print.h"

#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/vec.h"
#include "util/xalloc.h"

/* ---- llvm: LLVM's CallGraph, edge for edge ------------------------------------------ */

/* One CallGraphNode edge: the call site (NULL = "None") and the callee (NULL = the
 * calls-external node). */
typedef struct llvm_edge { const ir_site *site; const ir_function *callee; } llvm_edge;
typedef VEC(llvm_edge) edge_vec;

static void add_edge(edge_vec *v, unsigned *uses, const ir_site *site, const ir_function *callee)
{
	llvm_edge e = {site, callee};
	VEC_PUSH(v, e);
	if (callee)
		uses[callee->id]++;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int by_name(const void *a, const void *b)
{
	const ir_function *x = *(const ir_function *const *)a, *y = *(const ir_function *const *)b;
	return strcmp(x->name, y->name);
}

/* Fake but stable addresses: node k prints as 0x1000+k, site s as 0x100000+s. */
#define NODE_ADDR(k) (0x1000u + (unsigned)(k))
#define SITE_ADDR(s) (0x100000u + (unsigned)(s))

static void print_edges(FILE *out, const edge_vec *v)
{
	for (size_t i = 0; i < v->len; i++) {
		const llvm_edge *e = &v->items[i];
		if (e->site)
			fprintf(out, "  CS<0x%x> calls ", SITE_ADDR(e->site->id));
		else
			fputs("  CS<None> calls ", out);
		if (e->callee)
			fprintf(out, "function '%s'\n", e->callee->name);
		else
			fputs("external node\n", out);
	}
	putc('\n', out);
}

void cg_print_llvm(FILE *out, const ir_program *p)
{
	unsigned nf = p->n_functions;
	unsigned *uses = xcalloc(nf ? nf : 1, sizeof *uses);
	edge_vec root = {0};
	edge_vec *edges = xcalloc(nf ? nf : 1, sizeof *edges);

	/* CallGraph::addToCallGraph, in module order. */
	for (unsigned i = 0; i < nf; i++) {
		const ir_function *f = p->functions[i];
		if (!ir_linkage_is_local(f->linkage) || f->address_taken)
			add_edge(&root, uses, NULL, f);
		if (!f->defined && !f->nocallback)
			add_edge(&edges[i], uses, NULL, NULL);
		for (unsigned k = 0; k < f->n_sites; k++) {
			const ir_site *s = &p->sites[f->first_site + k];
			if (s->asm_call)
				continue;   /* LLVM sees the asm's one call, not the calls its text makes */
			add_edge(&edges[i], uses, s, s->kind == SITE_DIRECT ? s->callee : NULL);
			for (unsigned c = 0; c < s->n_callbacks; c++)
				add_edge(&edges[i], uses, NULL, s->callbacks[c]);
		}
	}

	/* CallGraph::print: the null-function node first, then nodes by name. */
	fprintf(out, "Call graph node <<null function>><<0x%x>>  #uses=0\n", NODE_ADDR(0));
	print_edges(out, &root);
	const ir_function **sorted = xmalloc((nf ? nf : 1) * sizeof *sorted);
	memcpy(sorted, p->functions, nf * sizeof *sorted);
	qsort(sorted, nf, sizeof *sorted, by_name);
	for (unsigned i = 0; i < nf; i++) {
		const ir_function *f = sorted[i];
		fprintf(out, "Call graph node for function: '%s'<<0x%x>>  #uses=%u\n", f->name,
		        NODE_ADDR(f->id + 1), uses[f->id]);
		print_edges(out, &edges[f->id]);
	}

	for (unsigned i = 0; i < nf; i++)
		VEC_FREE(&edges[i]);
	VEC_FREE(&root);
	free(edges);
	free(sorted);
	free(uses);
}

/* Target names of a site in strcmp order: what people and scripts expect to
 * read, whatever order function ids have. The caller frees the array. */
static const char **target_names(const cg_graph *g, unsigned site, bool label)
{
	unsigned n = g->n_targets[site];
	const char **names = xmalloc((n ? n : 1) * sizeof *names);
	for (unsigned i = 0; i < n; i++) {
		const ir_function *f = g->prog->functions[g->targets[site][i]];
		names[i] = label ? ir_function_label(f) : f->name;
	}
	qsort(names, n, sizeof *names, by_string);
	return names;
}

/* ---- text ---------------------------------------------------------------------------- */

void cg_print_text(FILE *out, const cg_graph *g)
{
	const ir_program *p = g->prog;
	unsigned unresolved = 0, indirect = 0;
	fprintf(out, "call graph '%s': %u functions, %u call sites\n", g->name, p->n_functions, p->n_sites);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (!f->defined)
			continue;
		fprintf(out, "\n%s", ir_function_label(f));
		if (f->loc.file)
			fprintf(out, "  (%s:%u)", f->loc.file, f->loc.line);
		putc('\n', out);
		for (unsigned k = 0; k < f->n_sites; k++) {
			unsigned sid = f->first_site + k;
			const ir_site *s = &p->sites[sid];
			if (s->callee && s->callee->intrinsic)
				continue;   /* llvm.* markers: in json and llvm output, noise here */
			/* file:line:col, as compilers and editors read it (the file of
			 * the inlined call when inlined, which is where the call is) */
			fprintf(out, "  %s:%u:%u %-8s ->", s->loc.file ? s->loc.file : "?", s->loc.line, s->loc.col,
			        site_kind_name(s->kind));
			if (s->kind != SITE_DIRECT) {
				indirect++;
				unresolved += cg_site_unresolved(g, sid);
			}
			if (g->n_targets[sid] == 0 || (s->kind != SITE_DIRECT && cg_site_unresolved(g, sid)))
				fputs(s->kind == SITE_DIRECT ? " (external)" : " ? (unresolved)", out);
			const char **names = target_names(g, sid, true);
			for (unsigned t = 0; t < g->n_targets[sid]; t++)
				fprintf(out, g->n_targets[sid] > 1 && strchr(names[t], ' ') ? " {%s}" : " %s", names[t]);
			free(names);
			fprintf(out, "   [site %u]\n", sid);
		}
	}
	fprintf(out, "\n%u of %u indirect or asm call sites have no target%s in '%s'\n", unresolved, indirect,
	        g->open ? " or evidence incomplete" : "", g->name);
}

/* ---- json ---------------------------------------------------------------------------- */

static void print_loc_fields(FILE *out, const ir_loc *loc)
{
	fputs("\"file\": ", out);
	jsonw_string(out, loc->file);
	fprintf(out, ", \"line\": %u, \"column\": %u", loc->line, loc->col);
}

/* "virtual": {"class": ..., "slot": ..., "from": ...}, for a C++ virtual call. */
static void print_vcall(FILE *out, const ir_program *p, const ir_vcall *vc)
{
	fputs("\"virtual\": {\"class\": ", out);
	jsonw_string(out, vc->cls != IR_NONE ? p->classes[vc->cls]->name : NULL);
	if (vc->any_slot)
		fputs(", \"slot\": null", out);
	else
		fprintf(out, ", \"slot\": %lld", (long long)(vc->slot_offset / (int64_t)p->pointer_size));
	fputs(", \"class_from\": ", out);
	jsonw_string(out, vc->cls_from);
	fputs("}, ", out);
}

void cg_print_json(FILE *out, const cg_graph *g)
{
	const ir_program *p = g->prog;
	fputs("{\"graph\": ", out);
	jsonw_string(out, g->name);
	fputs(",\n \"functions\": [", out);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		jsonw_string(out, f->name);
		if (f->demangled) {
			fputs(", \"demangled\": ", out);
			jsonw_string(out, f->demangled);
		}
		fputs(", \"file\": ", out);
		jsonw_string(out, f->loc.file);
		fprintf(out, ", \"line\": %u, \"defined\": %s, \"address_taken\": %s, \"linkage\": \"%s\"}",
		        f->loc.line, f->defined ? "true" : "false", f->address_taken ? "true" : "false",
		        ir_linkage_name(f->linkage));
	}
	fputs("],\n \"sites\": [", out);
	for (unsigned i = 0; i < p->n_sites; i++) {
		const ir_site *s = &p->sites[i];
		fprintf(out, "%s  {\"id\": %u, \"caller\": ", i ? ",\n" : "\n", s->id);
		jsonw_string(out, s->caller->name);
		fputs(", ", out);
		print_loc_fields(out, &s->loc);
		fputs(", \"inlined_at\": [", out);
		for (unsigned k = 0; k < s->n_inlined; k++) {
			fputs(k ? ", {\"function\": " : "{\"function\": ", out);
			jsonw_string(out, s->inlined_at[k].function);
			fputs(", ", out);
			print_loc_fields(out, &s->inlined_at[k].loc);
			putc('}', out);
		}
		fprintf(out, "], \"kind\": \"%s\", ", site_kind_name(s->kind));
		if (s->vcall != IR_NONE)
			print_vcall(out, p, &p->vcalls[s->vcall]);
		if (g->open && g->open[i])   /* facet source: unresolved, whatever the targets (graph.h) */
			fputs("\"evidence_incomplete\": true, ", out);
		fputs("\"targets\": [", out);
		const char **names = target_names(g, i, false);
		for (unsigned k = 0; k < g->n_targets[i]; k++) {
			if (k)
				fputs(", ", out);
			jsonw_string(out, names[k]);
		}
		free(names);
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

/* ---- dot ------------------------------------------------------------------------------ */

static void dot_id(FILE *out, const char *name)
{
	jsonw_string(out, name);   /* a JSON string is a valid DOT quoted id */
}

void cg_print_dot(FILE *out, const cg_graph *g)
{
	const ir_program *p = g->prog;
	fprintf(out, "digraph \"%s\" {\n  node [shape=box, fontname=\"monospace\"];\n", g->name);
	bool unresolved_node = false;
	for (unsigned i = 0; i < p->n_functions; i++)
		if (p->functions[i]->demangled) {   /* ids stay the linked names: ctor and dtor variants differ */
			fputs("  ", out);
			dot_id(out, p->functions[i]->name);
			fputs(" [label=", out);
			dot_id(out, p->functions[i]->demangled);
			fputs("];\n", out);
		}
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		if (f->n_sites == 0)
			continue;
		/* One edge per distinct target of f: mark targets as seen per caller. */
		unsigned *seen = xcalloc(p->n_functions, sizeof *seen);
		for (unsigned k = 0; k < f->n_sites; k++) {
			unsigned sid = f->first_site + k;
			const ir_site *s = &p->sites[sid];
			if (s->kind != SITE_DIRECT && cg_site_unresolved(g, sid)) {
				fputs("  ", out);
				dot_id(out, f->name);
				fputs(" -> \"<unresolved>\" [style=dashed];\n", out);
				unresolved_node = true;
				if (g->n_targets[sid] == 0)
					continue;
			}
			for (unsigned c = 0; c < s->n_callbacks; c++) {
				/* A broker's callback (LLVM's CS<None> edge): the broker calls it. */
				fputs("  ", out);
				dot_id(out, f->name);
				fputs(" -> ", out);
				dot_id(out, s->callbacks[c]->name);
				fputs(" [style=dotted, label=\"callback\"];\n", out);
			}
			for (unsigned t = 0; t < g->n_targets[sid]; t++) {
				unsigned callee = g->targets[sid][t];
				if (seen[callee]++)
					continue;
				fputs("  ", out);
				dot_id(out, f->name);
				fputs(" -> ", out);
				dot_id(out, p->functions[callee]->name);
				fputs(s->kind == SITE_DIRECT ? ";\n" : " [color=blue];\n", out);
			}
		}
		free(seen);
	}
	if (unresolved_node)
		fputs("  \"<unresolved>\" [shape=ellipse, style=dashed];\n", out);
	fputs("}\n", out);
}
