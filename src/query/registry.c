/* registry.c — the verb registry (query.h): every verb once, with what
 * query_call needs to run it, what the CLI needs to show it, and what agents
 * read in the MCP tool list (its title, description and arguments, each
 * argument's JSON Schema and description). The facet query and facet overlay
 * commands, their --help and completion, the MCP tools/list and its schema
 * checks, and the docs read this table; query.c dispatches through it.
 *
 * The descriptions are written for the model that reads tools/list: what the
 * verb answers, when to use it, and the discipline the overlay asks for
 * (seed 001: provenance always, patterns via fields, agent edges never
 * proven). */
#include "query/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the arguments, as agents see them -------------------------------------------------- */

/* Rows shared by several verbs. */

/* The graph names come from the graph registry (cg/registry.h): a schema
 * reader (mcp_tool_schema) replaces this placeholder enum with them. */
#define GRAPH_ENUM "{\"type\":\"string\",\"enum\":\"@graphs\"}"

/* A function argument: a name, or {module_id, symbol} naming one of the
 * definitions of a static that several modules define. The query layer
 * (q_function) and the overlay (resolve_to) take both forms and list the
 * candidates as such objects when a name is ambiguous, so the agent can send
 * one back. module_id may be empty: a definition without debug info has the
 * module id "" and the candidates say so. */
#define SCHEMA_FUNCTION \
	"{\"anyOf\":[" \
	"{\"type\":\"string\",\"minLength\":1,\"description\":\"The function's linked name as answers print " \
	"it (report.1) or its source name (report). Use this form unless the name was refused as ambiguous.\"}," \
	"{\"type\":\"object\",\"required\":[\"module_id\",\"symbol\"],\"additionalProperties\":false," \
	"\"properties\":{\"module_id\":{\"type\":\"string\",\"description\":\"The defining module: module_id " \
	"as answers and the ambiguity error give it (the source file of the definition).\"}," \
	"\"symbol\":{\"type\":\"string\",\"minLength\":1,\"description\":\"The function's linked or source " \
	"name.\"}},\"description\":\"One definition of a static function that several modules define: copy a " \
	"candidate from the error that refused the bare name, or module_id and name of a function from defs.\"}]}"

/* The argument schemas by name (JSON Schema text, as tools/list gives it). */
#define BOOLEAN "{\"type\":\"boolean\"}"
#define INTEGER(min) "{\"type\":\"integer\",\"minimum\":" #min "}"
#define INTEGER_TO(min, max) "{\"type\":\"integer\",\"minimum\":" #min ",\"maximum\":" #max "}"
#define STRING(min_length) "{\"type\":\"string\",\"minLength\":" #min_length "}"
#define IN_OUT "{\"type\":\"string\",\"enum\":[\"in\",\"out\"]}"
#define CONFIDENCE "{\"type\":\"string\",\"enum\":[\"high\",\"medium\",\"low\"]}"

static const query_arg a_name = {
	"name", SCHEMA_FUNCTION, true,
	"Function: its name, or {module_id, symbol} when a static of that name is defined in several "
	"modules (the bare name is then refused and the error lists those objects)."};
static const query_arg a_defs_name = {
	"name", STRING(1), true,
	"A function or global name, linked (report.1) or source (report). defs lists every definition "
	"of the name, each with its module_id, so it takes a name only, not {module_id, symbol}."};
static const query_arg a_file = {
	"file", STRING(1), true,
	"Source file as the debug info names it (a suffix such as 'src/ops.c' or 'ops.c' also matches)."};
static const query_arg a_line = {"line", INTEGER(1), true, "Line number (1-based)."};
static const query_arg a_from = {
	"from", SCHEMA_FUNCTION, true,
	"Start function: its name, or {module_id, symbol} when the name is refused as ambiguous."};
static const query_arg a_to = {
	"to", SCHEMA_FUNCTION, true,
	"End function: its name, or {module_id, symbol} when the name is refused as ambiguous."};
static const query_arg a_graph = {
	"graph", GRAPH_ENUM, false,
	"Call graph to use: direct (named calls only), andersen (points-to), r0 (points-to filtered by type), "
	"rulesonly (the paper's Rules-only ablation), rplus (refined, never loses an r0 edge), rpm "
	"(refined, for bug finding), source (name-resolved from C files by facet source). Omit for the "
	"default (rpm when built, else r0; source in a facet source catalog); every answer names the "
	"graph it used."};
static const query_arg a_include_overlay = {
	"include_overlay", BOOLEAN, false,
	"Also use the overlay's agent-recorded edges (never refuted ones) at the sites the graph leaves "
	"unresolved: walks may take them and site lists show them as agent targets. Answers then count "
	"agent steps in uncertainty; a path with agent steps is not proven."};
static const query_arg a_min_confidence = {
	"min_confidence", CONFIDENCE, false,
	"With include_overlay: ignore agent edges below this confidence."};
/* resolution_candidates lists every unresolved site whatever the overlay
 * says (qv_resolution_candidates reads no agent edge); the overlay only
 * enters its uncertainty.overlay counts. */
static const query_arg a_rc_include_overlay = {
	"include_overlay", BOOLEAN, false,
	"Count in uncertainty.overlay.covered_sites the unresolved sites an agent edge covers. The groups "
	"still list every site the graph leaves unresolved, covered or not."};
static const query_arg a_rc_min_confidence = {
	"min_confidence", CONFIDENCE, false,
	"With include_overlay: count only agent edges of at least this confidence."};
static const query_arg a_candidate_limit = {
	"candidate_limit", INTEGER(1), false,
	"List at most this many candidates per group without a recovered field, and rejected candidates per "
	"field group (default 50; answer_version 1 called this limit)."};
/* Every list answer's page (query.h): the list is cut, the counts are the whole list's. */
static const query_arg a_limit = {
	"limit", INTEGER(0), false,
	"Return at most this many items of the answer's list (the answer's page says which list, its "
	"total and what was returned); omit for all. Use it with offset on large programs."};
static const query_arg a_offset = {
	"offset", INTEGER(0), false,
	"Skip this many items of the answer's list first (default 0)."};
const query_arg query_arg_discard_pending = {
	"discard_pending", BOOLEAN, false,
	"Drop overlay records not yet saved instead of refusing. Unsaved records are lost."};

/* Rows of one verb. */

static const query_arg a_direction = {
	"direction", IN_OUT, false,
	"out: every function NAME may call, transitively (default); in: every function that may reach NAME."};
static const query_arg a_root = {
	"root", SCHEMA_FUNCTION, false,
	"The view's root function: its name, or {module_id, symbol} when the name is refused as ambiguous."};
static const query_arg a_depth = {"depth", INTEGER(0), false, "With root: calls away from it (default 2)."};
static const query_arg a_view_direction = {
	"direction", IN_OUT, false,
	"With root: out follows calls from it (default), in follows its callers."};
static const query_arg a_location = {
	"location", STRING(3), false,
	"FILE:LINE: view the call sites at that line and their targets instead of a root."};
static const query_arg a_view_site = {
	"site", INTEGER(0), false,
	"A site id: view that one site and its targets instead of a root."};
static const query_arg a_hide_external = {
	"hide_external", BOOLEAN, false, "Leave out functions the program only declares."};
static const query_arg a_max_nodes = {
	"max_nodes", INTEGER_TO(1, 100000), false,
	"Stop at this many functions (default 300); truncated says when the view was cut."};
static const query_arg a_emit_module = {
	"emit_module", STRING(1), false,
	"Write the slice's function definitions as one small bitcode file at this path (to re-read or to "
	"analyse with a points-to tool)."};
static const query_arg a_max_depth = {
	"max_depth", INTEGER_TO(1, 1000000), false,
	"Expand no function this many calls from the start: what lies past it is unknown (uncertainty.bounds), "
	"never unreachable."};
static const query_arg a_max_fanout = {
	"max_fanout", INTEGER_TO(1, 1000000), false,
	"Expand no function with more edges than this (a wide ambiguous or indirect set): past it, unknown."};
static const query_arg a_site = {
	"site", INTEGER(0), true,
	"Call-site id, as answers list it (sites of callees, at, resolution_candidates)."};
static const query_arg a_save_path = {
	"path", STRING(1), false,
	"Where to write; default: the file the overlay was loaded from (the catalog path + '.overlay')."};
static const query_arg a_record_graph = {
	"graph", GRAPH_ENUM, false,
	"The graph whose unresolved indirect sites the add records attach to (an edge on a site this graph "
	"resolves is refused); a record's own graph wins. Default: the catalog's default graph."};
static const query_arg a_load_path = {
	"path", STRING(1), false,
	"Overlay file to load; default: the catalog path + '.overlay'."};

/* The records of record_edges, as seed 001 defines them. The schema checks
 * shapes and vocabularies; the overlay checks the rest (an edge only on an
 * unresolved indirect site, `to` naming one definition, the fields each op
 * needs) and names the index of the first bad record. `to` is a function
 * argument like any other (SCHEMA_FUNCTION), also inside an edge key. */
#define SCHEMA_TO SCHEMA_FUNCTION
#define SCHEMA_VIA_FIELD \
	"{\"type\":\"object\",\"required\":[\"record\",\"offset\"],\"properties\":{\"record\":{\"type\":\"string\"," \
	"\"minLength\":1},\"offset\":{\"type\":\"integer\",\"minimum\":0}},\"additionalProperties\":false}"
static const query_arg a_records = {
	"records",
	"{\"type\":\"array\",\"minItems\":1,\"items\":{\"type\":\"object\",\"required\":[\"op\"],"
	"\"properties\":{"
	"\"op\":{\"type\":\"string\",\"enum\":[\"add\",\"verify\",\"retract\"]},"
	"\"via_field\":" SCHEMA_VIA_FIELD ","
	"\"site\":{\"type\":\"integer\",\"minimum\":0},"
	"\"to\":" SCHEMA_TO ","
	"\"confidence\":{\"type\":\"string\",\"enum\":[\"high\",\"medium\",\"low\"]},"
	"\"provenance\":{\"type\":[\"array\",\"string\"],\"minItems\":1,\"minLength\":1,"
	"\"items\":{\"type\":\"string\",\"minLength\":1}},"
	"\"graph\":" GRAPH_ENUM ","
	"\"edge\":{\"type\":\"object\",\"properties\":{\"via_field\":" SCHEMA_VIA_FIELD ","
	"\"site\":{\"type\":\"integer\",\"minimum\":0},\"to\":" SCHEMA_TO "},\"additionalProperties\":false},"
	"\"tool\":{\"type\":\"string\",\"enum\":[\"reread\",\"svf\",\"phasar\"]},"
	"\"verdict\":{\"type\":\"string\",\"enum\":[\"confirmed\",\"refuted\",\"inconclusive\"]},"
	"\"note\":{\"type\":\"string\"},"
	"\"reason\":{\"type\":\"string\",\"minLength\":1}"
	"},\"additionalProperties\":false}}",
	true,
	"Overlay records, applied in memory as one batch: all or none (the error names the first bad "
	"record's index). add: {op, via_field {record, offset} or site, to, confidence high|medium|low, "
	"provenance [\"file:line: text\", ...], optional graph}; to is a defined function's name, or "
	"{module_id, symbol} for a static that several modules define. verify: {op, edge (a key from "
	"list_overlay, verbatim), tool reread|svf|phasar, verdict confirmed|refuted|inconclusive, optional "
	"note}. retract: {op, edge, reason}."};

#define ARGS0 {NULL, NULL}
#define ARGS(...) ((const query_arg *const[]){__VA_ARGS__, NULL})
#define NO_ARGS ((const query_arg *const[]){NULL})

/* ---- the verbs, in the order tools/list and --help give them ----------------------------- */

const query_verb_info query_verb_table[] = {
	{.name = "inventory", .cli = "inventory", .args = ARGS0, .usage = "", .group = QV_QUERY, .run = qv_inventory,
	 .walks = false, .edges = false, .list = NULL, .writes = false,
	 .summary = "what the catalog holds",
	 .title = "What is loaded",
	 .description = "The loaded program: its input files, the graphs the catalog holds with their edge and "
	                "unresolved-site counts, counts of functions, call sites (all, indirect), globals, address "
	                "uses, fields and decisions, the fingerprint, the default graph, and in uncertainty.overlay the "
	                "overlay's edge count (list_overlay tells whether records are unsaved).",
	 .params = NO_ARGS},
	{.name = "defs", .cli = "defs", .args = {"name", NULL}, .usage = "NAME", .group = QV_QUERY, .run = qv_defs,
	 .walks = false, .edges = false, .list = "functions", .writes = false,
	 .summary = "definitions of a function or global (a linked\nname or a bare identifier; statics in several\nmodules are all listed)",
	 .title = "Find definitions",
	 .description = "Every function (and global) of a name: where it is defined (file, line, module_id), definitions "
	                "first, every one of them when a static name is defined in several modules (ambiguous: true). Its "
	                "module_id and name make the {module_id, symbol} the other tools take for such a static.",
	 .params = ARGS(&a_defs_name, &a_limit, &a_offset)},
	{.name = "at", .cli = "at", .args = {"location", NULL}, .usage = "FILE:LINE", .group = QV_QUERY, .run = qv_at,
	 .walks = false, .edges = false, .list = NULL, .writes = false,
	 .summary = "functions with code at that line, the call\nsites there, address uses and field assignments",
	 .title = "What runs at a line",
	 .description = "The functions with code at FILE:LINE, the call sites on that line with their targets, the "
	                "function addresses taken or stored there, and the field assignments the analysis recorded "
	                "there. Use it on an assignment's file and line to see what the line does.",
	 .params = ARGS(&a_file, &a_line, &a_graph)},
	{.name = "callers", .cli = "callers", .args = {"name", NULL}, .usage = "NAME", .group = QV_QUERY, .run = qv_callers,
	 .walks = true, .edges = true, .list = "callers", .writes = false,
	 .summary = "call sites that call NAME, by caller",
	 .title = "Who calls a function",
	 .description = "The call sites that may call NAME in the chosen graph, grouped by caller, each with its "
	                "location; with include_overlay also the sites an agent edge makes call it (agent: true).",
	 .params = ARGS(&a_name, &a_graph, &a_include_overlay, &a_min_confidence, &a_limit, &a_offset)},
	{.name = "callees", .cli = "callees", .args = {"name", NULL}, .usage = "NAME", .group = QV_QUERY, .run = qv_callees,
	 .walks = true, .edges = true, .list = "sites", .writes = false,
	 .summary = "NAME's call sites, classified, with targets",
	 .title = "What a function calls",
	 .description = "NAME's call sites, each classified (direct, asm, indirect-resolved, indirect-unresolved, "
	                "indirect-incomplete (graph source: targets, evidence incomplete), and with include_overlay "
	                "indirect-agent) with its targets in the chosen graph.",
	 .params = ARGS(&a_name, &a_graph, &a_include_overlay, &a_min_confidence, &a_limit, &a_offset)},
	{.name = "uses", .cli = "uses", .args = {"name", NULL}, .usage = "NAME", .group = QV_QUERY, .run = qv_uses,
	 .walks = false, .edges = false, .list = "uses", .writes = false,
	 .summary = "where NAME's address is taken or stored",
	 .title = "Where a function's address is taken",
	 .description = "Every place NAME's address is taken or stored: the function or global where, the offset it is "
	                "stored at and the record field when one was recovered; and the fields the analysis recorded it "
	                "as assigned to.",
	 .params = ARGS(&a_name, &a_limit, &a_offset)},
	{.name = "reach", .cli = "reach", .args = {"from", "to"}, .usage = "FROM TO", .group = QV_QUERY, .run = qv_reach,
	 .walks = true, .edges = true, .list = NULL, .writes = false,
	 .summary = "one shortest path FROM -> TO, or its absence",
	 .title = "Can FROM reach TO",
	 .description = "One shortest call path from FROM to TO with the sites on it, or its explicit absence. Each step "
	                "has proof {kind: direct | premise-free | premised | agent, graphs, rule, premise, evidence, "
	                "confidence, collapsed}; proof.label is proven only when every step is direct or premise-free "
	                "(Add-Witness, or a points-to edge the graph keeps), premised when a step rests on a premise "
	                "(Add-Store: pi_bind; collapsed: the target may come through a collapsed points-to object, named "
	                "in proof.collapsed; proof.premises lists them), agent when a step is an overlay edge; proven is true only for "
	                "label proven (answer_version 2; agent_free is version 1's proven: no agent step). uncertainty "
	                "counts the unresolved indirect sites that could hide a path, and with include_overlay the agent "
	                "steps (a path without agent steps is preferred when one exists).",
	 .params = ARGS(&a_from, &a_to, &a_graph, &a_include_overlay, &a_min_confidence, &a_max_depth, &a_max_fanout)},
	{.name = "closure", .cli = "closure", .args = {"name", NULL}, .usage = "NAME --out|--in", .group = QV_QUERY, .run = qv_closure,
	 .walks = true, .edges = true, .list = "functions", .writes = false,
	 .summary = "everything NAME reaches / that reaches NAME",
	 .title = "Everything reachable",
	 .description = "Every function NAME may reach (direction out) or that may reach NAME (direction in). With "
	                "include_overlay, uncertainty.agent_reached lists those reached only through agent edges.",
	 .params = ARGS(&a_name, &a_direction, &a_graph, &a_include_overlay, &a_min_confidence, &a_max_depth, &a_max_fanout, &a_limit, &a_offset)},
	{.name = "slice", .cli = "slice", .args = {"from", "to"}, .usage = "FROM TO", .group = QV_QUERY, .run = qv_slice,
	 .walks = true, .edges = true, .list = "functions", .writes = true,
	 .summary = "the functions on some path FROM -> TO\n[--emit-module OUT.bc writes their definitions]",
	 .title = "Functions between two",
	 .description = "The functions on some call path from FROM to TO. emit_module writes their definitions as one "
	                "small bitcode file, for verifying an edge by re-reading or a scoped points-to analysis.",
	 .params = ARGS(&a_from, &a_to, &a_graph, &a_include_overlay, &a_min_confidence, &a_emit_module, &a_max_depth, &a_max_fanout, &a_limit, &a_offset)},
	{.name = "dominators", .cli = "dominators", .args = {"from", "to"}, .usage = "FROM TO", .group = QV_QUERY, .run = qv_dominators,
	 .walks = true, .edges = true, .list = NULL, .writes = false,
	 .summary = "the functions every path FROM -> TO passes\nthrough (dominators: the fix points)",
	 .title = "The fix points between two",
	 .description = "The functions every call path from FROM to TO passes through (from the dominator tree of the "
	                "functions on such paths), FROM first and TO last; fix_points lists those between: one fix in any "
	                "of them covers every path. Unresolved indirect sites on the way (uncertainty) could open a path "
	                "around them; with a bound, uncertainty.bounds says what was not expanded.",
	 .params = ARGS(&a_from, &a_to, &a_graph, &a_include_overlay, &a_min_confidence, &a_max_depth, &a_max_fanout)},
	{.name = "graph", .cli = "graph", .args = ARGS0, .usage = "[--root FN|--focus F:L]", .group = QV_QUERY, .run = qv_graph,
	 .walks = true, .edges = true, .list = NULL, .writes = false,
	 .summary = "a part of the graph small enough to draw,\nedges labelled by proof (--format dot|graphml|json)",
	 .title = "A drawable part of the call graph",
	 .description = "Nodes and edges of a neighbourhood: root (with depth and direction) or location FILE:LINE (the "
	                "sites there, each a node, with their targets), else the whole graph up to max_nodes. One edge per "
	                "caller/callee pair with its strongest proof (kind direct, premise-free, premised with rule and "
	                "premise, agent) and the number of sites behind it. facet query graph --format dot|graphml|svg "
	                "draws the same answer.",
	 .params = ARGS(&a_root, &a_depth, &a_view_direction, &a_location, &a_view_site, &a_hide_external, &a_max_nodes, &a_graph, &a_include_overlay, &a_min_confidence)},
	{.name = "externals", .cli = "externals", .args = ARGS0, .usage = "", .group = QV_QUERY, .run = qv_externals,
	 .walks = false, .edges = false, .list = "functions", .writes = false,
	 .summary = "declared but undefined symbols",
	 .title = "The program's boundary",
	 .description = "Symbols called or referenced but not defined in the program (library functions, missing "
	                "modules).",
	 .params = ARGS(&a_limit, &a_offset)},
	{.name = "indirect_targets", .cli = "indirect-targets", .args = {"location", NULL}, .usage = "FILE:LINE", .group = QV_QUERY, .run = qv_indirect_targets,
	 .walks = true, .edges = false, .list = "sites[].targets", .writes = false,
	 .summary = "targets of the indirect calls there, with warrants",
	 .title = "Targets of an indirect call",
	 .description = "The indirect call sites at FILE:LINE with their targets in the chosen graph, each target with "
	                "the warrant (rule, evidence, premise) that added or kept it.",
	 .params = ARGS(&a_file, &a_line, &a_graph, &a_include_overlay, &a_min_confidence, &a_limit, &a_offset)},
	{.name = "resolution_candidates", .cli = "resolution-candidates", .args = ARGS0, .usage = "", .group = QV_QUERY, .run = qv_resolution_candidates,
	 .walks = true, .edges = false, .list = "groups", .writes = false,
	 .summary = "unresolved indirect sites grouped by field",
	 .title = "Unresolved sites and their candidates",
	 .description = "The indirect sites the chosen graph leaves unresolved, grouped by the record field they "
	                "dispatch through: field (record@offset), field_name, signature, sites, and candidates: the "
	                "functions the analysis recorded as assigned to that field, each with its module_id, its "
	                "assignments (file, line) and signature_matches: true for those whose signature fits the "
	                "field, then (at most limit; n_rejected_candidates counts them all) false for functions written "
	                "there whose signature does not fit (through a cast, say), which the analysis left out. uses "
	                "NAME shows every store of a function. Sites with no recovered field are grouped by call type (field null) with the "
	                "address-taken functions of that type as candidates (at most limit); candidates_basis says "
	                "which basis a group has. single_candidate: exactly one candidate fits, a hint to check, not "
	                "an answer. Start of the loop that completes the call graph: read each assignment (at, and the "
	                "source) before recording an edge; give record_edges' to as {module_id, symbol} when the "
	                "candidate's name is refused as ambiguous.",
	 .params = ARGS(&a_graph, &a_rc_include_overlay, &a_rc_min_confidence, &a_candidate_limit, &a_limit, &a_offset)},
	{.name = "explain", .cli = "explain", .args = {"site", NULL}, .usage = "SITE", .group = QV_QUERY, .run = qv_explain,
	 .walks = true, .edges = false, .list = "site.targets", .writes = false,
	 .summary = "one site: dispatch, targets per graph, warrants",
	 .title = "Why a site has its targets",
	 .description = "Call site SITE: its targets in the chosen graph, each with the graphs that have it and the "
	                "warrants (rule, evidence file:line, premise) behind it; the functions other graphs give it or "
	                "the refinement decided on, missing from the chosen graph (not_in_graph); the field it "
	                "dispatches through; the residual questions asked about it; with include_overlay its agent "
	                "targets.",
	 .params = ARGS(&a_site, &a_graph, &a_include_overlay, &a_min_confidence, &a_limit, &a_offset)},
	{.name = "record_edges", .cli = "record", .args = ARGS0, .usage = "", .group = QV_OVERLAY, .run = qv_record_edges,
	 .walks = false, .edges = false, .list = NULL, .writes = true,
	 .summary = "add, verify or retract agent edges (in memory until save_overlay)",
	 .title = "Record agent edges",
	 .description = "Add, verify or retract edges in the overlay, in memory; nothing is written until "
	                "save_overlay. Edges attach only to unresolved indirect sites; prefer via_field (covers every "
	                "site through the field) over site. provenance is required: quote each assignment as "
	                "'file:line: text'. Confidence high: the assignment stores this function into this field of "
	                "this record type and the signature matches; medium: one indirection away or a cast; low: by "
	                "name or signature only.",
	 .params = ARGS(&a_records, &a_record_graph)},
	{.name = "list_overlay", .cli = "list", .args = ARGS0, .usage = "", .group = QV_OVERLAY, .run = qv_list_overlay,
	 .walks = false, .edges = false, .list = NULL, .writes = false,
	 .summary = "the overlay's edges, keys, verdicts and covered sites",
	 .title = "The overlay's edges",
	 .description = "Every overlay edge with its key (copy it verbatim into verify and retract records), "
	                "confidence, provenance, verdict and the sites it covers; covered_sites of the default graph's "
	                "unresolved_sites; whether records are unsaved.",
	 .params = NO_ARGS},
	{.name = "save_overlay", .cli = "save", .args = ARGS0, .usage = "", .group = QV_OVERLAY, .run = qv_save_overlay,
	 .walks = false, .edges = false, .list = NULL, .writes = true,
	 .summary = "write the overlay file atomically",
	 .title = "Save the overlay",
	 .description = "Write the overlay file atomically (with slice's emit_module, the only tool that writes a "
	                "file). Save before unload_catalog, before reloading, and before the session ends: unsaved "
	                "records are not written on exit.",
	 .params = ARGS(&a_save_path)},
	{.name = "load_overlay", .cli = "load", .args = ARGS0, .usage = "", .group = QV_OVERLAY, .run = qv_load_overlay,
	 .walks = false, .edges = false, .list = NULL, .writes = true,
	 .summary = "replace the in-memory overlay with a file's",
	 .title = "Load an overlay",
	 .description = "Replace the in-memory overlay with a file's. Refuses while records are unsaved unless "
	                "discard_pending is true, and refuses an overlay recorded against another build (naming both "
	                "fingerprints).",
	 .params = ARGS(&a_load_path, &query_arg_discard_pending)},

	{.name = NULL},
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

char *query_verb_help(query_verb_group group, bool names_only)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	const char *sep = "";
	for (const query_verb_info *v = query_verb_table; mem && v->name; v++) {
		if (v->group != group)
			continue;
		if (names_only) {
			fprintf(mem, "%s%s", sep, v->cli);
			sep = " ";
			continue;
		}
		char head[64];
		snprintf(head, sizeof head, "%s%s%s", v->cli, *v->usage ? " " : "", v->usage);
		for (const char *line = v->summary; *line; head[0] = 0) {
			size_t n = strcspn(line, "\n");
			fprintf(mem, "%s  %-26s %.*s", sep, head, (int)n, line);
			sep = "\n";
			line += n + (line[n] == '\n');
		}
	}
	if (mem)
		fclose(mem);
	return text;
}
