/* collapsed.h — the collapsed points-to objects a catalog records, read
 * back (tables collapsed_objects, collapsed_members, collapsed_sites;
 * docs/catalog.md).
 *
 * A collapsed object has one location for all its fields, so a function
 * stored anywhere in it is read back from any of them: an indirect site
 * whose callee set shares functions with such an object may have been
 * given them by the collapse, not by the field it reads (pta/holders.h).
 * The catalog keeps the objects holding at least one function: what each
 * is, where it was declared or allocated, what collapsed it, the functions
 * it holds and the indirect sites whose callee sets share them (the last
 * two per member set: objects holding the same functions share one). */
#ifndef FACET_CATALOG_COLLAPSED_H
#define FACET_CATALOG_COLLAPSED_H

#include <stdbool.h>

#include "catalog/catalog.h"

typedef struct catalog_collapsed_site {
	unsigned site;             /* an indirect site (sites.id) */
	unsigned held;             /* how many of its callee set's functions the set holds, >= 1 */
} catalog_collapsed_site;

/* The functions some objects hold (objects holding the same functions
 * share one set) and the sites whose callee sets share them. */
typedef struct catalog_collapsed_set {
	unsigned id;
	unsigned width;            /* functions it holds (rows of collapsed_members) */
	unsigned *functions;       /* those function ids, ascending */
	unsigned n_objects;        /* the objects holding exactly these */
	catalog_collapsed_site *sites;   /* widest held first, then by site id */
	unsigned n_sites;
} catalog_collapsed_set;

typedef struct catalog_collapsed_object {
	unsigned id;
	char *name;                /* "table", "stack:main:ops", "heap:a.c:12", "lib:getenv", "outside", "function:f" */
	char *kind;                /* global, stack, heap, library, outside, varargs, function */
	char *file;                /* where declared or allocated; NULL when unknown */
	unsigned line;             /* 0 when unknown */
	char *cause;               /* what collapsed it, in words (pta_collapse_cause_name) */
	char *statement;           /* the statement that collapsed it (gep, store, ...), NULL when unknown */
	char *in_function;         /* the function holding that statement, NULL when unknown */
	char *cause_file;          /* the statement's position (else its function's), NULL when unknown */
	unsigned cause_line;
	unsigned width;            /* functions it holds: its set's width */
	const catalog_collapsed_set *set;
} catalog_collapsed_object;

typedef struct catalog_collapsed {
	catalog_collapsed_object *objects;   /* widest first, then by id */
	unsigned n;
	catalog_collapsed_set *sets;         /* by id */
	unsigned n_sets;
} catalog_collapsed;

/* Reads and checks the three tables: every column facet writes present and
 * in range, every set, function and site a row names a row of its table
 * (a site an indirect one), each width the number of its set's members.
 * False + err ("PATH: damaged catalog (table T, row N: WHAT)") otherwise;
 * free out either way. */
bool catalog_collapsed_read(catalog *c, catalog_collapsed *out, facet_error *err);
void catalog_collapsed_free(catalog_collapsed *cc);

#endif
