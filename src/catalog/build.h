/* build.h — `facet build`'s pipeline as one call: points-to (andersen, r0) →
 * refinement (rulesonly, rplus, rpm) → the C++ graphs (cha, rta, vta) →
 * vslot → the catalog, one call each, the data handed forward. The caller
 * reads and links the inputs (ingest) and renders what happened. */
#ifndef FACET_CATALOG_BUILD_H
#define FACET_CATALOG_BUILD_H

#include <stdbool.h>

#include "catalog/catalog.h"
#include "util/error.h"

typedef struct facet_oracle facet_oracle;   /* facet/facet.h */

/* What the pipeline tells its caller while it runs (each may be NULL). */
typedef struct catalog_build_hooks {
	void (*phase)(void *arg, const char *what);   /* a phase starts ("refinement") */
	void (*note)(void *arg, const char *note);    /* the refinement's note (facet_result.note) */
	void *arg;
} catalog_build_hooks;

/* Runs the pipeline over b->prog with tau b->tau and oracle (NULL: none),
 * then writes the catalog to out with b's other fields as the caller set
 * them. Sets b->seconds_pta and b->seconds_refine, and *seconds_write (the
 * catalog's writing). The graphs and the refinement are freed before it
 * returns (b's pointers to them are cleared). False + err when the catalog
 * could not be written. */
bool catalog_build_run(catalog_build *b, facet_oracle *oracle, const char *out, const catalog_build_hooks *h,
                       double *seconds_write, facet_error *err);

#endif
