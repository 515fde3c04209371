/* holders.h — why a points-to set is wide: the collapsed objects whose one
 * location holds part of it (issue 15.3). A collapsed object has a single
 * location for all its fields, so everything stored anywhere in it is read
 * back from any of them; when a call site's callee set comes largely from
 * such an object, the object, what collapsed it and where are the answer
 * `facet pts --site` and `facet explain` give. */
#ifndef FACET_PTA_HOLDERS_H
#define FACET_PTA_HOLDERS_H

#include "pta/andersen.h"

typedef struct pta_holder {
	unsigned object;           /* the collapsed object (index in pta_result.objects) */
	unsigned held;             /* how many locations of the set its location holds */
	unsigned cause;            /* PTA_COLLAPSE_*: pta_collapse_cause_name */
	const ir_stmt *stmt;       /* the statement whose constraint collapsed it, NULL when unknown */
	const ir_function *fn;     /* the function holding stmt, NULL for a global initializer's */
} pta_holder;

/* The collapsed objects of a result that hold anything, found once for
 * callers that ask about many sets (explain --all). */
typedef struct pta_collapsed {
	unsigned *objects;
	unsigned n;
} pta_collapsed;
void pta_collapsed_init(const pta_result *r, pta_collapsed *c);
void pta_collapsed_free(pta_collapsed *c);

/* The collapsed objects whose location holds locations of set, widest first
 * (ties by object index): the first `max` into out. Returns how many there
 * are in all (0 for an empty or NULL set). c may be NULL (every object is
 * looked at). */
unsigned pta_collapsed_holders(const pta_result *r, const pta_collapsed *c, const sbitmap *set, pta_holder *out,
                               unsigned max);

#endif
