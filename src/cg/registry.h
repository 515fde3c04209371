/* registry.h — the graphs facet knows, named once.
 *
 * Every stage that names a graph (the refinement deriving rplus, the catalog
 * storing graph i as bit 1 << i, the queries and the CLI parsing --graph,
 * the MCP schema's enum) reads this one table, so a new graph is one row
 * here. The ids are stable: catalogs store them as bit positions. */
#ifndef FACET_CG_REGISTRY_H
#define FACET_CG_REGISTRY_H

#include <stdbool.h>

typedef enum cg_graph_id {
	CG_DIRECT,                 /* the calls the IR names */
	CG_ANDERSEN,               /* + Andersen's points-to at indirect sites */
	CG_R0,                     /* andersen filtered by IR function type (the paper's R0) */
	CG_RULESONLY,              /* R0 \ Psym (Table 2's Rules-only) */
	CG_RPLUS,                  /* R+ = R0 ∪ [A_W]_c */
	CG_RPM,                    /* R± = (R0 \ (Psym ∪ [Pres]_c)) ∪ [A_W ∪ A_S ∪ A_res]_c */
	CG_SOURCE,                 /* name-resolved from C sources without a build (src/source/) */
	CG_CHA,                    /* C++ virtual calls by class hierarchy analysis (src/cxx) */
	CG_RTA,                    /* ... by rapid type analysis */
	CG_VTA,                    /* ... by the classes of the receiver's points-to objects */
	CG_VSLOT,                  /* cha refined on vtable slots by the points-to objects; R± elsewhere */
	CG_N_GRAPHS
} cg_graph_id;

typedef struct cg_graph_info {
	cg_graph_id id;
	const char *name;          /* "direct", ..., "rpm": what --graph and catalogs say */
	const char *description;   /* one line, for help texts and the MCP schema */
	bool needs_pta;            /* built from the points-to analysis */
	bool needs_model;          /* reads more than the call sites (ingest without sites_only) */
	bool refined;              /* derived by the refinement from R0 and the decisions */
	bool from_source;          /* built by `facet source` from C files, never from bitcode */
} cg_graph_info;

/* The row of graph id (id < CG_N_GRAPHS). */
const cg_graph_info *cg_graph_info_of(cg_graph_id id);
/* id's name ("?" for an id out of range). */
const char *cg_graph_name(int id);
/* The id of a graph name, -1 when it is not one facet knows (NULL too). */
int cg_graph_parse(const char *name);
/* "direct, andersen, r0, rulesonly, rplus, rpm, cha, rta, vta, vslot": the names for messages. */
const char *cg_graph_list(void);
/* The same separated by single spaces, for the completion script. */
const char *cg_graph_names(void);

#endif
