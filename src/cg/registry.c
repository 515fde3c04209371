/* registry.c — the graph table (registry.h). */
#include "cg/registry.h"

#include <string.h>

static const cg_graph_info graphs[CG_N_GRAPHS] = {
	{CG_DIRECT, "direct", "named calls only", false, false, false, false},
	{CG_ANDERSEN, "andersen", "indirect calls resolved by Andersen's points-to analysis", true, true, false, false},
	{CG_R0, "r0", "andersen filtered by IR function type (the Facet paper's R0)", true, true, false, false},
	{CG_RULESONLY, "rulesonly", "R0 minus the targets Prune-Store and Prune-Sig refute (the paper's Rules-only)",
	 true, true, true, false},
	{CG_RPLUS, "rplus", "R+: R0 plus the premise-free additions; never loses an R0 edge", true, true, true, false},
	{CG_RPM, "rpm", "R±: the refined graph, every warranted decision adopted (for bug finding)", true, true, true,
	 false},
	{CG_SOURCE, "source", "name-resolved from C sources without a build (facet source): ambiguous and unresolved edges explicit",
	 false, false, false, true},
	{CG_CHA, "cha", "C++ virtual calls by class hierarchy analysis: every subclass's vtable slot", false, true, false,
	 false},
	{CG_RTA, "rta", "C++ virtual calls by rapid type analysis: the slots of classes reachable code instantiates",
	 false, true, false, false},
	{CG_VTA, "vta", "C++ virtual calls by the classes of the receiver's points-to objects (R0 elsewhere)", true,
	 true, false, false},
	{CG_VSLOT, "vslot", "cha refined on vtable slots: targets the receiver's objects exclude refuted (R± elsewhere)",
	 true, true, false, false},
};

const cg_graph_info *cg_graph_info_of(cg_graph_id id)
{
	return &graphs[id];
}

const char *cg_graph_name(int id)
{
	return id >= 0 && id < CG_N_GRAPHS ? graphs[id].name : "?";
}

int cg_graph_parse(const char *name)
{
	for (int i = 0; name && i < CG_N_GRAPHS; i++)
		if (strcmp(name, graphs[i].name) == 0)
			return i;
	return -1;
}

/* Written out, not joined at run time (no mutable state); the contract
 * test (tests/cg/test_registry.c) checks it against the table. */
const char *cg_graph_list(void)
{
	return "direct, andersen, r0, rulesonly, rplus, rpm, source, cha, rta, vta, vslot";
}

const char *cg_graph_names(void)
{
	return "direct andersen r0 rulesonly rplus rpm source cha rta vta vslot";
}
