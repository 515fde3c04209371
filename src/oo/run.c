/* run.c — one run of the lab (run.h): the analysis or generator the request
 * names, and its answer printed. */
#include "oo/run.h"

#include <stdint.h>
#include <stdlib.h>

#include "oo/compare.h"
#include "oo/gen.h"
#include "oo/oo.h"
#include "oo/print.h"

static bool run_generate(const oo_request *r, FILE *out)
{
	char *text = r->pathological > 0 ? oo_generate_pathological((int)r->pathological, r->factory)
	                                 : oo_generate((uint64_t)r->seed, (oo_difficulty)r->difficulty, (int)r->size);
	fputs(text, out);
	free(text);
	return true;
}

static bool run_algo(const oo_request *r, FILE *out, facet_error *err)
{
	oo_program *p;
	if (oo_parse_file(r->files[0], &p, err))
		return false;
	oo_options opt = {r->rta_rounds, r->max_states};
	oo_graph *g;
	oo_table *trace = NULL;
	if (oo_analyze(p, (oo_algo)r->algo, &opt, &g, r->trace ? &trace : NULL, err)) {
		oo_program_free(p);
		return false;
	}
	if (r->json) {
		oo_print_graph_json(out, g, trace);
	} else {
		if (trace) {
			oo_print_table(out, trace);
			fputc('\n', out);
		}
		oo_print_graph(out, g);
	}
	oo_table_free(trace);
	oo_graph_free(g);
	oo_program_free(p);
	return true;
}

static bool run_table(const oo_request *r, FILE *out, facet_error *err)
{
	oo_options opt = {0, r->max_states};
	oo_table *t = oo_compare_files(r->files, (unsigned)r->nfiles, &opt, err);
	if (!t)
		return false;
	if (r->json) {
		oo_print_table_json(out, t);
		fputc('\n', out);
	} else {
		oo_print_table(out, t);
	}
	oo_table_free(t);
	return true;
}

bool oo_run(const oo_request *r, FILE *out, facet_error *err)
{
	return r->generate ? run_generate(r, out) : r->table ? run_table(r, out, err) : run_algo(r, out, err);
}
