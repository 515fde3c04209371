/* index.c — value-id lookups over a program model; see index.h. */
#include "ir/index.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void ir_csr_build(const ir_program *p, ir_stmt_key key, const void *aux, unsigned **start, unsigned **items)
{
	unsigned nv = p->n_values;
	unsigned *first = xcalloc(nv + 1, sizeof *first);
	for (unsigned i = 0; i < p->n_stmts; i++) {
		unsigned v = key(&p->stmts[i], aux);
		if (v < nv)
			first[v + 1]++;
	}
	for (unsigned v = 0; v < nv; v++)
		first[v + 1] += first[v];
	unsigned *list = xmalloc((first[nv] + 1) * sizeof *list);
	unsigned *fill = xmalloc((nv + 1) * sizeof *fill);
	memcpy(fill, first, (nv + 1) * sizeof *fill);
	for (unsigned i = 0; i < p->n_stmts; i++) {
		unsigned v = key(&p->stmts[i], aux);
		if (v < nv)
			list[fill[v]++] = i;
	}
	free(fill);
	*start = first;
	*items = list;
}

/* The statements defining a value (stores and returns define none). */
static unsigned def_key(const ir_stmt *st, const void *aux)
{
	(void)aux;
	return st->op != ST_STORE && st->op != ST_RET ? st->dst : IR_NONE;
}

/* The constant GEPs based on a value. */
static unsigned gep_key(const ir_stmt *st, const void *aux)
{
	(void)aux;
	return st->op == ST_GEP && !st->var_offset ? st->src : IR_NONE;
}

static void index_bindings(const ir_program *p, ir_index *ix)
{
	unsigned nv = p->n_values;
	ix->value_binding = xcalloc(nv + 1, sizeof *ix->value_binding);
	ix->next_binding = xcalloc(p->n_bindings + 1, sizeof *ix->next_binding);
	ix->slot_binding = xcalloc(nv + 1, sizeof *ix->slot_binding);
	ix->fragment_binding = xcalloc(nv + 1, sizeof *ix->fragment_binding);
	intmap_init(&ix->offset_binding);
	for (unsigned i = 0; i < p->n_bindings; i++) {
		const ir_dbg_binding *b = &p->bindings[i];
		if (!b->var || !b->var->type || b->value >= nv)
			continue;
		if (b->fragment && !b->declare) {
			if (!ix->fragment_binding[b->value])
				ix->fragment_binding[b->value] = b;
			continue;
		}
		if (b->offset && !b->declare) {
			if (!intmap_get(&ix->offset_binding, b->value, NULL))
				intmap_put(&ix->offset_binding, b->value, (uint64_t)i + 1);
			continue;
		}
		if (!b->empty_expr)
			continue;
		if (b->declare) {
			if (!ix->slot_binding[b->value])
				ix->slot_binding[b->value] = b;
		} else {
			/* After inlining one pointer carries every variable it was passed
			 * as (`struct archive *_a` and `struct archive_read *a`): keep
			 * them all; the reader picks among them. */
			ix->next_binding[i] = ix->value_binding[b->value];
			ix->value_binding[b->value] = i + 1;
		}
	}
}

const ir_dbg_binding *ir_index_offset_binding(const ir_program *p, const ir_index *ix, unsigned v)
{
	uint64_t i = intmap_get_or(&ix->offset_binding, v, 0);
	return i ? &p->bindings[i - 1] : NULL;
}

void ir_index_build(const ir_program *p, ir_index *ix)
{
	unsigned nv = p->n_values;
	memset(ix, 0, sizeof *ix);
	ir_csr_build(p, def_key, NULL, &ix->def_start, &ix->defs);
	ir_csr_build(p, gep_key, NULL, &ix->gep_start, &ix->geps);
	ix->stmt_function = xmalloc((p->n_stmts + 1) * sizeof *ix->stmt_function);
	for (unsigned i = 0; i < p->n_stmts; i++)
		ix->stmt_function[i] = IR_NONE;
	for (unsigned f = 0; f < p->n_functions; f++)
		for (unsigned i = 0; i < p->functions[f]->n_stmts; i++)
			ix->stmt_function[p->functions[f]->first_stmt + i] = f;
	ix->global_of_value = xcalloc(nv + 1, sizeof *ix->global_of_value);
	for (unsigned g = 0; g < p->n_globals; g++)
		if (p->globals[g]->value < nv)
			ix->global_of_value[p->globals[g]->value] = p->globals[g];
	ix->function_of_value = xcalloc(nv + 1, sizeof *ix->function_of_value);
	for (unsigned f = 0; f < p->n_functions; f++)
		if (p->functions[f]->value < nv)
			ix->function_of_value[p->functions[f]->value] = p->functions[f];
	index_bindings(p, ix);
}

void ir_index_free(ir_index *ix)
{
	free(ix->def_start);
	free(ix->defs);
	free(ix->gep_start);
	free(ix->geps);
	free(ix->stmt_function);
	free(ix->global_of_value);
	free(ix->function_of_value);
	free(ix->value_binding);
	free(ix->next_binding);
	free(ix->slot_binding);
	free(ix->fragment_binding);
	intmap_free(&ix->offset_binding);
	memset(ix, 0, sizeof *ix);
}

unsigned ir_index_n_defs(const ir_program *p, const ir_index *ix, unsigned v)
{
	return v < p->n_values ? ix->def_start[v + 1] - ix->def_start[v] : 0;
}

const ir_stmt *ir_index_def(const ir_program *p, const ir_index *ix, unsigned v, unsigned i)
{
	return &p->stmts[ix->defs[ix->def_start[v] + i]];
}
