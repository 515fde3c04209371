/* vslot.h — facet's refinement on vtable slots as decisions of the
 * provenance (cxx/cxx.h's vslot and its reasons), so explain, the catalog
 * and proof labels say why each vslot target is there or not.
 *
 * At a reachable virtual site x->m() (static class D, slot s), for each
 * function f some class C ⪯ D places in s (cha's targets):
 *   Add-Witness   f is in slot s of C's vtable (the initialiser): premise-free
 *   Prune-Class   every object the receiver points to has a known class, and
 *                 none of those classes' vtables places f in s: premise
 *                 π_class (an object's dynamic class is the one its
 *                 allocation constructs)
 * vslot(c) = the witnessed functions minus the supported prunes; at every
 * other site vslot takes R±'s targets and records nothing of its own. */
#ifndef FACET_FACET_VSLOT_H
#define FACET_FACET_VSLOT_H

#include "cxx/cxx.h"
#include "facet/facet.h"

typedef struct facet_vslot {
	cg_graph *graph;           /* vslot (owned) */
	facet_decision *decisions; /* by site; evidence in why's arena */
	unsigned n_decisions;
	cxx_slot_reasons why;
} facet_vslot;

/* vslot over pta with rpm for the non-virtual sites, with its decisions. */
void facet_vslot_run(const pta_result *pta, const cg_graph *rpm, facet_vslot *out);
void facet_vslot_free(facet_vslot *v);

#endif
