/* cxx.h — call graphs of C++ virtual calls over the program model's class
 * hierarchy, vtables and virtual call sites (ir/model.h, src/ir/cxx.c).
 *
 * A virtual site c: x->m() has its receiver's static class D and a slot; the
 * target for an object of class C ⪯ D is the function C's vtable group holds
 * in that slot at the address point a D pointer sees (lookup(C, m)).
 *   cha    every C ⪯ D (Dean, Grove, Chambers), over the bodies reachable
 *          from the roots;
 *   rta    C ⪯ D that reachable code instantiates (Bacon, Sweeney), the
 *          reachable bodies and instantiated classes one fixed point;
 *   vta    the classes of the objects the receiver points to in Andersen's
 *          solution (the allocation sites' classes); an object no type
 *          names (placement new into raw storage) takes the most derived
 *          class whose vtable is stored at the receiver's location (its
 *          vptr); an object whose class is still not known contributes no
 *          target, as in the lesson's VTA;
 *   vslot  facet's refinement on vtable slots: field key (D, slot), its
 *          assignment set the functions the vtables of D's subclasses place
 *          there (Add-Witness from the vtable initialiser, = cha), a target
 *          refuted when every object the receiver points to has a known
 *          class whose vtable does not place it there; no refutation when
 *          the receiver points to nothing or to an object of unknown class.
 * Sites that are not virtual: cha and rta give the function a call through
 * an alias names, else every function whose address is taken outside
 * vtables and whose type fits the call (pta_type_fits);
 * vta gives R0's targets; vslot R±'s (the rpm graph passed in).
 * Roots: main when defined (else every externally visible defined
 * function), the llvm.global_ctors/dtors entries, and every function whose
 * address is taken outside vtables (external code may call it). Targets are
 * given at reachable sites only; direct sites keep their callee. */
#ifndef FACET_CXX_CXX_H
#define FACET_CXX_CXX_H

#include "cg/graph.h"
#include "cg/registry.h"
#include "pta/andersen.h"
#include "util/arena.h"

cg_graph *cxx_cha(const ir_program *p);
cg_graph *cxx_rta(const ir_program *p);
cg_graph *cxx_vta(const pta_result *pta, const cg_graph *r0);
cg_graph *cxx_vslot(const pta_result *pta, const cg_graph *rpm);

/* Why vslot holds or drops each of cha's targets at a reachable virtual
 * site (facet records them as vslot's decisions, facet/vslot.h): for every
 * target, the vtable that places it in the slot (refuted false: the
 * witness); for each target vslot drops, the classes of the receiver's
 * points-to objects that exclude it (refuted true). Ordered by site. */
typedef struct cxx_slot_reason {
	unsigned site, function;
	bool refuted;
	const char *evidence;      /* for people, in the reasons' arena */
} cxx_slot_reason;
typedef struct cxx_slot_reasons {
	cxx_slot_reason *items;
	unsigned n, cap;
	arena arena;
} cxx_slot_reasons;

/* vslot, and its reasons into why (initialised here; cxx_slot_reasons_free). */
cg_graph *cxx_vslot_reasons(const pta_result *pta, const cg_graph *rpm, cxx_slot_reasons *why);
void cxx_slot_reasons_free(cxx_slot_reasons *why);

/* True for the graphs whose own rule applies at virtual sites only (cha,
 * rta, vta, vslot: elsewhere they take another graph's targets). */
bool cxx_is_virtual_graph(int id);

/* Graph id (CG_CHA .. CG_VSLOT) of p; pta, r0 and rpm are needed by vta
 * and vslot only (NULL otherwise). NULL for another id. */
cg_graph *cxx_graph(int id, const ir_program *p, const pta_result *pta, const cg_graph *r0, const cg_graph *rpm);

#endif
