/* compare.h — the comparison table of §3: targets per site per algorithm,
 * edges and reachable bodies, over one or several programs. */
#ifndef FACET_OO_COMPARE_H
#define FACET_OO_COMPARE_H

#include "oo/oo.h"

typedef struct oo_compare {
	oo_table *t;                 /* columns: file, site, cha ... dyn */
	long edges[OO_NALGO], reach[OO_NALGO];
	int files;
} oo_compare;

void oo_compare_init(oo_compare *c);
/* Adds one program: a row per site whose body CHA reaches (the others have
 * no target anywhere), then its "edges" and "reachable" rows. g[a] is the
 * graph of algorithm a on that program. */
void oo_compare_add(oo_compare *c, const char *label, oo_graph *const g[OO_NALGO]);
void oo_compare_finish(oo_compare *c);   /* "all files" totals when there were several */
void oo_compare_free(oo_compare *c);

/* The table over every program of files[0..n-1] (parsed, then every
 * algorithm run on it); NULL + err at the first that fails to parse or whose
 * analysis fails. The caller frees it (oo_table_free). */
oo_table *oo_compare_files(const char *const *files, unsigned n, const oo_options *opt, facet_error *err);

#endif
