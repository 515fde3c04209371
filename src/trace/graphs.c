/* graphs.c — the graphs scoring compares (graphs.h). */
#include "trace/graphs.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cg/registry.h"
#include "ir/instrument.h"
#include "util/xalloc.h"


static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void scored_alloc(trace_scored *sc, unsigned n_sites)
{
	sc->targets = xcalloc(n_sites ? n_sites : 1, sizeof *sc->targets);
	sc->n_targets = xcalloc(n_sites ? n_sites : 1, sizeof *sc->n_targets);
	sc->g.n_sites = n_sites;
	sc->g.targets = (const char **const *)sc->targets;
	sc->g.n_targets = sc->n_targets;
	sc->g.label = sc->label;
}

void trace_scored_free(trace_scored *sc)
{
	for (unsigned i = 0; i < sc->g.n_sites; i++)
		free(sc->targets[i]);
	free(sc->targets);
	free(sc->n_targets);
	for (size_t i = 0; i < sc->n_strings; i++)
		free(sc->strings[i]);
	free(sc->strings);
	free(sc->label);
	trace_score_free(&sc->s);
}

void trace_scored_from_cg(trace_scored *sc, const char *label, const cg_graph *g, const trace_observed *o)
{
	const ir_program *p = g->prog;
	sc->label = xstrdup(label);
	scored_alloc(sc, p->n_sites);
	/* The names are copied, once per function: the caller frees the program
	 * (and its arena of names) before it scores. */
	char **copy = xcalloc(p->n_functions ? p->n_functions : 1, sizeof *copy);
	sc->strings = xcalloc(p->n_functions ? p->n_functions : 1, sizeof *sc->strings);
	for (unsigned i = 0; i < o->n_obs_sites; i++) {
		unsigned s = o->sites[i], n = g->n_targets[s];
		const char **names = xcalloc(n ? n : 1, sizeof *names);
		for (unsigned k = 0; k < n; k++) {
			unsigned f = g->targets[s][k];
			if (!copy[f])
				copy[f] = sc->strings[sc->n_strings++] = xstrdup(p->functions[f]->name);
			names[k] = copy[f];
		}
		qsort(names, n, sizeof *names, cmp_str);
		sc->targets[s] = names;
		sc->n_targets[s] = n;
	}
	free(copy);
}

bool trace_scored_read_json(trace_scored *sc, const char *path, const trace_observed *o, unsigned *indirect,
                            bool *unchecked, facet_error *err)
{
	*unchecked = false;
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root) {
		error_set(err, "%s:%d: not a JSON call graph: %s", path, jerr.line, jerr.text);
		return false;
	}
	json_t *sites = json_object_get(root, "sites");
	if (!json_is_object(root) || !json_is_array(sites)) {
		error_set(err, "%s: not a facet call graph (no \"sites\" array)", path);
		json_decref(root);
		return false;
	}
	json_t *gname = json_object_get(root, "graph");
	sc->label = xstrdup(json_is_string(gname) ? json_string_value(gname) : path);
	size_t n = json_array_size(sites);
	unsigned max_id = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *id = json_object_get(json_array_get(sites, i), "id");
		if (!json_is_integer(id) || json_integer_value(id) < 0 || json_integer_value(id) >= (1LL << 31)) {
			error_set(err, "%s: site #%zu has no valid \"id\"", path, i);
			json_decref(root);
			return false;
		}
		if ((unsigned)json_integer_value(id) + 1 > max_id)
			max_id = (unsigned)json_integer_value(id) + 1;
	}
	scored_alloc(sc, max_id);
	*indirect = 0;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		json_t *site = json_array_get(sites, i);
		unsigned id = (unsigned)json_integer_value(json_object_get(site, "id"));
		json_t *kind = json_object_get(site, "kind"), *t = json_object_get(site, "targets");
		if (json_is_string(kind) && strcmp(json_string_value(kind), "indirect") == 0)
			++*indirect;
		if (t && !json_is_array(t)) {
			error_set(err, "%s: site %u: \"targets\" is not an array", path, id);
			ok = false;
			break;
		}
		size_t nt = json_array_size(t);
		if (sc->targets[id]) {
			error_set(err, "%s: site %u listed twice", path, id);
			ok = false;
			break;
		}
		const char **names = xcalloc(nt ? nt : 1, sizeof *names);
		sc->targets[id] = names;
		for (size_t k = 0; k < nt; k++) {
			json_t *name = json_array_get(t, k);
			if (!json_is_string(name)) {
				error_set(err, "%s: site %u: a target is not a string", path, id);
				ok = false;
				break;
			}
			sc->strings = xrealloc(sc->strings, (sc->n_strings + 1) * sizeof *sc->strings);
			sc->strings[sc->n_strings++] = xstrdup(json_string_value(name));
			names[sc->n_targets[id]++] = sc->strings[sc->n_strings - 1];
		}
		qsort(names, sc->n_targets[id], sizeof *names, cmp_str);
		/* Duplicate names would count twice in |R|. */
		unsigned w = 0;
		for (unsigned k = 0; k < sc->n_targets[id]; k++)
			if (w == 0 || strcmp(names[w - 1], names[k]) != 0)
				names[w++] = names[k];
		sc->n_targets[id] = w;
	}
	/* A file that lists the whole program (facet's own output: every
	 * function, direct sites too) must carry the trace's fingerprint. */
	json_t *fns = json_object_get(root, "functions");
	bool has_direct = false;
	for (size_t i = 0; i < n && !has_direct; i++) {
		json_t *kind = json_object_get(json_array_get(sites, i), "kind");
		has_direct = json_is_string(kind) && strcmp(json_string_value(kind), "direct") == 0;
	}
	if (ok && o->have_key && json_is_array(fns) && json_array_size(fns) > 0 && has_direct) {
		uint64_t key = ir_key_begin((unsigned)n);
		for (size_t i = 0; i < json_array_size(fns); i++) {
			json_t *name = json_object_get(json_array_get(fns, i), "name");
			key = ir_key_add(key, json_is_string(name) ? json_string_value(name) : "");
		}
		if (key != o->key) {
			error_set(err, "%s describes another program than the one %s traced "
			                "(fingerprint %016llx, %zu sites; trace %016llx, %u sites)",
			        path, o->key_file, (unsigned long long)key, n, (unsigned long long)o->key, o->n_sites);
			ok = false;
		}
	} else if (ok && o->have_key) {
		*unchecked = true;
	}
	json_decref(root);
	return ok;
}


bool trace_observed_matches(const trace_observed *o, const ir_program *p, const char *prog, facet_error *err)
{
	uint64_t key = ir_key_begin(p->n_sites);
	for (unsigned i = 0; i < p->n_functions; i++)
		key = ir_key_add(key, p->functions[i]->name);
	if (o->have_key && key != o->key) {
		error_set(err, "%s was traced from another program than %s (trace fingerprint %016llx, %u sites; "
		          "program %016llx, %u sites)", o->key_file, prog, (unsigned long long)o->key, o->n_sites,
		          (unsigned long long)key, p->n_sites);
		return false;
	}
	for (unsigned i = 0; i < o->n_obs_sites; i++)
		if (p->sites[o->sites[i]].kind != SITE_INDIRECT) {
			error_set(err, "%s: site %u is not an indirect call in %s", o->key_file, o->sites[i], prog);
			return false;
		}
	const char **names = xcalloc(p->n_functions + 1, sizeof *names);
	for (unsigned i = 0; i < p->n_functions; i++)
		names[i] = p->functions[i]->name;
	bool ok = trace_observed_check_program(o, p->n_sites, names, p->n_functions, prog, err);
	free(names);
	return ok;
}

bool trace_graphs_need_model(const char *const *graphs, unsigned n)
{
	bool need = false;
	for (unsigned i = 0; i < n; i++)
		need |= cg_graph_info_of((cg_graph_id)cg_graph_parse(graphs[i]))->needs_model;
	return need;
}

bool trace_scored_from_program(trace_scored *gs, unsigned *ng, const char *const *graphs, unsigned n,
                               const ir_program *p, const char *prog, const trace_observed *o,
                               const facet_graph_options *opt, long *indirect, char **note, facet_error *err)
{
	*note = NULL;
	*indirect = 0;
	for (unsigned i = 0; i < p->n_sites; i++)
		*indirect += p->sites[i].kind == SITE_INDIRECT;
	if (!trace_observed_matches(o, p, prog, err))
		return false;
	facet_graphs *set = facet_graphs_new(p, opt);
	bool ok = true;
	for (unsigned i = 0; ok && i < n; i++) {
		cg_graph *g = facet_graphs_get(set, graphs[i], err);
		const char *said = facet_graphs_note(set);
		if (said && !*note)
			*note = xstrdup(said);
		if ((ok = g != NULL))
			trace_scored_from_cg(&gs[(*ng)++], graphs[i], g, o);
		cg_free(g);
	}
	facet_graphs_free(set);
	return ok;
}
