/* source.c — the stage's driver (source.h): collect the units, parse each
 * through libclang, resolve, and write the catalog through the catalog's
 * own writer (the graph as CG_SOURCE, the warrants as decisions). */
#include "source/internal.h"

#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#include "catalog/catalog.h"
#include "source/inputs.h"
#include "util/xalloc.h"

const char *src_intern(src_facts *f, const char *s)
{
	if (!s)
		return NULL;
	const char *hit = strmap_get(&f->interned, s);
	if (hit)
		return hit;
	char *copy = arena_strdup(&f->arena, s);
	strmap_put(&f->interned, copy, copy);
	return copy;
}

static void facts_free(src_facts *f)
{
	if (!f)
		return;
	VEC_FREE(&f->defs);
	VEC_FREE(&f->calls);
	VEC_FREE(&f->args);
	VEC_FREE(&f->flows);
	VEC_FREE(&f->retofs);
	VEC_FREE(&f->taken);
	strmap_free(&f->taken_seen);
	VEC_FREE(&f->units);
	strmap_free(&f->def_by_key);
	strmap_free(&f->def_by_place);
	strmap_free(&f->renamed);
	strmap_free(&f->keys);
	strmap_free(&f->unit_defs);
	strmap_free(&f->alt_walked);
	strmap_free(&f->interned);
	arena_free(&f->arena);
	free(f);
}

static bool parse_all(src_facts *f, const source_options *o, src_inputs *in, source_counts *counts,
                      facet_error *err)
{
	CXIndex index = clang_createIndex(0, 0);
	bool ok = true;
	size_t n_un = in->standins.len;
	struct CXUnsavedFile *un = xcalloc(n_un ? n_un : 1, sizeof *un);
	for (size_t i = 0; i < n_un; i++) {
		un[i].Filename = in->standins.items[i].path;
		un[i].Contents = in->standins.items[i].text;
		un[i].Length = (unsigned long)in->standins.items[i].len;
	}
	src_switches *sw = &in->switches;
	if (sw->tested.len && in->units.len) {
		VEC_PUSH(&in->outside, 0);
		src_implementation_macros(index, (const char *const *)in->units.items[0].args, in->units.items[0].n_args,
		                          in->outside.items, sw);
		switches_finish(sw);
	}
	for (size_t i = 0; ok && i < in->units.len; i++) {
		const src_unit_cmd *u = &in->units.items[i];
		source_unit unit = {0};
		ok = src_parse_unit(f, index, u->file, (const char *const *)u->args, u->n_args, un, (unsigned)n_un,
		                    !o->no_assumed_constants, in->switches.n ? &in->switches : NULL, &unit, err);
		VEC_PUSH(&f->units, unit);
		counts->units++;
		counts->units_with_errors += unit.errors > 0;
		counts->switched_units += unit.switched;
	}
	counts->switches = in->switches.n;
	counts->first_switch = src_intern(f, in->switches.first);
	counts->switched_calls = f->switched_calls;
	clang_disposeIndex(index);
	free(un);
	return ok;
}

source_result *source_analyze(const source_options *o, facet_error *err)
{
	src_inputs in;
	if (!src_inputs_collect(o, &in, err)) {
		src_inputs_free(&in);
		return NULL;
	}
	src_facts *f = xcalloc(1, sizeof *f);
	arena_init(&f->arena);
	strmap_init(&f->interned);
	strmap_init(&f->def_by_key);
	strmap_init(&f->def_by_place);
	strmap_init(&f->renamed);
	strmap_init(&f->keys);
	strmap_init(&f->unit_defs);
	strmap_init(&f->taken_seen);
	strmap_init(&f->alt_walked);
	source_result *r = xcalloc(1, sizeof *r);
	r->counts.include_dirs = in.n_include_dirs;
	bool ok = parse_all(f, o, &in, &r->counts, err);
	r->n_standins = (unsigned)in.standins.len;
	r->standins = ARENA_ARRAY(&f->arena, source_standin, r->n_standins ? r->n_standins : 1);
	for (unsigned i = 0; i < r->n_standins; i++) {
		const src_standin *si = &in.standins.items[i];
		r->standins[i] = (source_standin){src_intern(f, si->path), src_intern(f, si->template_path),
		                                  si->counts.switches, si->counts.values, si->counts.host,
		                                  si->counts.host_off, si->shadows};
	}
	src_inputs_free(&in);
	if (!ok) {
		facts_free(f);
		free(r);
		return NULL;
	}
	src_resolve(f, o->fallback, r);
	r->n_units = (unsigned)f->units.len;
	r->units = f->units.items;   /* their strings live in the facts' arena, kept with them */
	r->owner = f;
	return r;
}

bool source_write_catalog(const source_result *r, const char *path, facet_error *err)
{
	char fp[17];
	if (!catalog_fingerprint(r->prog->inputs, r->prog->n_inputs, 0, "source", fp, err))
		return false;
	catalog_build b = {.prog = r->prog, .refine = r->resolution, .tau = r->resolution->options.tau,
	                   .oracle = "none", .fingerprint = fp};
	b.graphs[CG_SOURCE] = r->graph;
	return catalog_write(path, &b, err);
}

void source_result_free(source_result *r)
{
	if (!r)
		return;
	cg_free(r->graph);
	facet_result_free(r->resolution);
	ir_program_free(r->prog);
	facts_free(r->owner);
	free(r);
}
