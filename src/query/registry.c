/* registry.c — the verb registry (query.h): every verb once, with what
 * query_call needs to run it and what the CLI needs to show it. The facet
 * query and facet overlay commands, their --help, the MCP tool list's check
 * and the docs read this table; query.c dispatches through it. */
#include "query/internal.h"

#include <string.h>

#define ARGS0 {NULL, NULL}
const query_verb_info query_verb_table[] = {
	{"defs", "defs", {"name", NULL}, "NAME", QV_QUERY, qv_defs, false, false,
	 "definitions of a function or global (a linked\nname or a bare identifier; statics in several\nmodules are all listed)", "functions"},
	{"at", "at", {"location", NULL}, "FILE:LINE", QV_QUERY, qv_at, false, false,
	 "functions with code at that line, the call\nsites there, address uses and field assignments", NULL},
	{"callers", "callers", {"name", NULL}, "NAME", QV_QUERY, qv_callers, true, true,
	 "call sites that call NAME, by caller", "callers"},
	{"callees", "callees", {"name", NULL}, "NAME", QV_QUERY, qv_callees, true, true,
	 "NAME's call sites, classified, with targets", "sites"},
	{"uses", "uses", {"name", NULL}, "NAME", QV_QUERY, qv_uses, false, false,
	 "where NAME's address is taken or stored", "uses"},
	{"reach", "reach", {"from", "to"}, "FROM TO", QV_QUERY, qv_reach, true, true,
	 "one shortest path FROM -> TO, or its absence", NULL},
	{"closure", "closure", {"name", NULL}, "NAME --out|--in", QV_QUERY, qv_closure, true, true,
	 "everything NAME reaches / that reaches NAME", "functions"},
	{"slice", "slice", {"from", "to"}, "FROM TO", QV_QUERY, qv_slice, true, true,
	 "the functions on some path FROM -> TO\n[--emit-module OUT.bc writes their definitions]", "functions"},
	{"dominators", "dominators", {"from", "to"}, "FROM TO", QV_QUERY, qv_dominators, true, true,
	 "the functions every path FROM -> TO passes\nthrough (dominators: the fix points)", NULL},
	{"externals", "externals", ARGS0, "", QV_QUERY, qv_externals, false, false,
	 "declared but undefined symbols", "functions"},
	{"graph", "graph", ARGS0, "[--root FN|--focus F:L]", QV_QUERY, qv_graph, true,
	 true, "a part of the graph small enough to draw,\nedges labelled by proof (--format dot|graphml|json)", NULL},
	{"indirect_targets", "indirect-targets", {"location", NULL}, "FILE:LINE", QV_QUERY, qv_indirect_targets, true,
	 false, "targets of the indirect calls there, with warrants", "sites[].targets"},
	{"resolution_candidates", "resolution-candidates", ARGS0, "", QV_QUERY, qv_resolution_candidates, true, false,
	 "unresolved indirect sites grouped by field", "groups"},
	{"explain", "explain", {"site", NULL}, "SITE", QV_QUERY, qv_explain, true, false,
	 "one site: dispatch, targets per graph, warrants", "site.targets"},
	{"inventory", "inventory", ARGS0, "", QV_QUERY, qv_inventory, false, false,
	 "what the catalog holds", NULL},
	{"record_edges", "record", ARGS0, "", QV_OVERLAY, qv_record_edges, false, false,
	 "add, verify or retract agent edges (in memory until save_overlay)", NULL},
	{"list_overlay", "list", ARGS0, "", QV_OVERLAY, qv_list_overlay, false, false,
	 "the overlay's edges, keys, verdicts and covered sites", NULL},
	{"save_overlay", "save", ARGS0, "", QV_OVERLAY, qv_save_overlay, false, false,
	 "write the overlay file atomically", NULL},
	{"load_overlay", "load", ARGS0, "", QV_OVERLAY, qv_load_overlay, false, false,
	 "replace the in-memory overlay with a file's", NULL},
	{NULL, NULL, ARGS0, NULL, 0, NULL, false, false, NULL, NULL},
};

const query_verb_info *query_verb_find(const char *name)
{
	for (const query_verb_info *v = query_verb_table; name && v->name; v++)
		if (strcmp(name, v->name) == 0)
			return v;
	return NULL;
}

const query_verb_info *query_verb_find_cli(const char *name, query_verb_group group)
{
	for (const query_verb_info *v = query_verb_table; name && v->name; v++)
		if (v->group == group && (strcmp(name, v->cli) == 0 || strcmp(name, v->name) == 0))
			return v;
	return NULL;
}

unsigned query_verb_n_args(const query_verb_info *v)
{
	return (unsigned)(v->args[0] != NULL) + (unsigned)(v->args[1] != NULL);
}
