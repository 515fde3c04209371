/* schema.h — the catalog's tables, shared by the writer and docs/catalog.md
 * (which explains each column). Internal to src/catalog/. */
#ifndef FACET_CATALOG_SCHEMA_H
#define FACET_CATALOG_SCHEMA_H

/* Indexes are created after the rows are in (faster bulk load). */
static const char catalog_schema_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;\n"
	"CREATE TABLE inputs(id INTEGER PRIMARY KEY, path TEXT NOT NULL);\n"
	"CREATE TABLE functions(id INTEGER PRIMARY KEY, name TEXT NOT NULL, source_name TEXT NOT NULL,\n"
	"  module_id TEXT, file TEXT, dir TEXT, line INTEGER NOT NULL, linkage TEXT NOT NULL,\n"
	"  defined INTEGER NOT NULL, address_taken INTEGER NOT NULL, intrinsic INTEGER NOT NULL,\n"
	"  vararg INTEGER NOT NULL, ir_type TEXT, n_sites INTEGER NOT NULL);\n"
	"CREATE TABLE sites(id INTEGER PRIMARY KEY, caller INTEGER NOT NULL, kind TEXT NOT NULL,\n"
	"  callee INTEGER, call_type TEXT, file TEXT, line INTEGER NOT NULL, col INTEGER NOT NULL,\n"
	"  resolved INTEGER NOT NULL, field INTEGER, target_set INTEGER);\n"
	"CREATE TABLE site_inlined(site INTEGER NOT NULL, depth INTEGER NOT NULL, function TEXT,\n"
	"  file TEXT, line INTEGER NOT NULL, col INTEGER NOT NULL, PRIMARY KEY(site, depth)) WITHOUT ROWID;\n"
	"CREATE TABLE site_callbacks(site INTEGER NOT NULL, function INTEGER NOT NULL);\n"
	"CREATE TABLE globals(id INTEGER PRIMARY KEY, name TEXT NOT NULL, linkage TEXT NOT NULL,\n"
	"  defined INTEGER NOT NULL, constant INTEGER NOT NULL, size INTEGER NOT NULL, ir_type TEXT,\n"
	"  var_name TEXT, file TEXT, line INTEGER NOT NULL, source_name TEXT NOT NULL);\n"
	"CREATE TABLE global_slots(global INTEGER NOT NULL, offset INTEGER NOT NULL, kind TEXT NOT NULL,\n"
	"  function INTEGER, target_global INTEGER, addend INTEGER NOT NULL);\n"
	"CREATE TABLE address_uses(id INTEGER PRIMARY KEY, function INTEGER NOT NULL, kind TEXT NOT NULL,\n"
	"  in_function INTEGER, site INTEGER, global INTEGER, offset INTEGER, file TEXT,\n"
	"  line INTEGER NOT NULL, col INTEGER NOT NULL, field INTEGER);\n"
	"CREATE TABLE graphs(name TEXT PRIMARY KEY, bit INTEGER NOT NULL, present INTEGER NOT NULL,\n"
	"  edges INTEGER NOT NULL, indirect_edges INTEGER NOT NULL, unresolved_sites INTEGER NOT NULL,\n"
	"  note TEXT) WITHOUT ROWID;\n"
	/* A site's edges in every graph, as one list of (target, graphs) shared by
	 * all sites with the same list (sites.target_set); view edges expands
	 * them (edges.c says why). */
	"CREATE TABLE target_sets(id INTEGER NOT NULL, target INTEGER NOT NULL, graphs INTEGER NOT NULL,\n"
	"  PRIMARY KEY(id, target)) WITHOUT ROWID;\n"
	/* Each graph as little-endian u32 arrays, read whole by walks. */
	"CREATE TABLE adjacency(graph TEXT PRIMARY KEY, function_sites BLOB NOT NULL, site_sets BLOB NOT NULL,\n"
	"  set_offsets BLOB NOT NULL, set_targets BLOB NOT NULL);\n"
	"CREATE TABLE fields(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, record TEXT, offset INTEGER NOT NULL,\n"
	"  name TEXT, key TEXT NOT NULL, signature TEXT, n_sites INTEGER NOT NULL);\n"
	"CREATE TABLE field_assignments(field INTEGER NOT NULL, function INTEGER NOT NULL, form TEXT NOT NULL,\n"
	"  global TEXT, slot INTEGER, file TEXT, line INTEGER NOT NULL, col INTEGER NOT NULL, in_function TEXT);\n"
	/* Functions written into a field whose signature does not fit it: left
	 * out of F(S.m), kept so people see what the signature filter removed. */
	"CREATE TABLE field_rejected_assignments(field INTEGER NOT NULL, function INTEGER NOT NULL,\n"
	"  form TEXT NOT NULL, global TEXT, slot INTEGER, file TEXT, line INTEGER NOT NULL, col INTEGER NOT NULL,\n"
	"  in_function TEXT);\n"
	"CREATE TABLE dispatch(site INTEGER PRIMARY KEY, status TEXT NOT NULL, step TEXT, depth INTEGER NOT NULL,\n"
	"  field INTEGER, offset INTEGER NOT NULL, reason TEXT, base_type TEXT, n_r0 INTEGER NOT NULL,\n"
	"  n_sym INTEGER NOT NULL, abstains INTEGER NOT NULL, callee_type TEXT, callee_variable TEXT,\n"
	"  runtime_code INTEGER NOT NULL);\n"
	"CREATE TABLE decisions(id INTEGER PRIMARY KEY, site INTEGER NOT NULL, function INTEGER NOT NULL,\n"
	"  fact TEXT NOT NULL, outcome TEXT NOT NULL, rule TEXT NOT NULL, premise TEXT, source TEXT NOT NULL,\n"
	"  evidence TEXT, graph TEXT NOT NULL);\n"
	/* C++ virtual call sites: the receiver's static class (NULL: not known)
	 * and the slot (NULL: any, a member-function pointer). */
	"CREATE TABLE virtual_calls(site INTEGER PRIMARY KEY, class TEXT, slot INTEGER, class_from TEXT) WITHOUT ROWID;\n"
	"CREATE TABLE questions(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, site INTEGER NOT NULL,\n"
	"  field INTEGER, answered INTEGER NOT NULL);\n"
	"CREATE TABLE question_candidates(question INTEGER NOT NULL, function INTEGER NOT NULL);\n"
	/* The collapsed points-to objects holding functions (collapsed.h): what
	 * each is and what collapsed it; the functions it holds and the
	 * indirect sites whose callee sets share them are per member set
	 * (objects holding the same functions share one). */
	"CREATE TABLE collapsed_objects(id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, file TEXT,\n"
	"  line INTEGER NOT NULL, cause TEXT NOT NULL, statement TEXT, in_function TEXT, cause_file TEXT,\n"
	"  cause_line INTEGER NOT NULL, member_set INTEGER NOT NULL, width INTEGER NOT NULL);\n"
	"CREATE TABLE collapsed_members(member_set INTEGER NOT NULL, function INTEGER NOT NULL);\n"
	"CREATE TABLE collapsed_set_sites(member_set INTEGER NOT NULL, site INTEGER NOT NULL, held INTEGER NOT NULL);\n";

static const char catalog_index_sql[] =
	"CREATE INDEX functions_name ON functions(name);\n"
	"CREATE INDEX functions_source_name ON functions(source_name);\n"
	"CREATE INDEX sites_caller ON sites(caller);\n"
	"CREATE INDEX sites_callee ON sites(callee);\n"
	"CREATE INDEX sites_line ON sites(line);\n"
	"CREATE INDEX site_inlined_line ON site_inlined(line);\n"
	"CREATE INDEX globals_name ON globals(name);\n"
	"CREATE INDEX globals_var_name ON globals(var_name);\n"
	"CREATE INDEX address_uses_function ON address_uses(function);\n"
	"CREATE INDEX address_uses_line ON address_uses(line);\n"
	"CREATE INDEX sites_target_set ON sites(target_set);\n"
	"CREATE INDEX target_sets_target ON target_sets(target, id, graphs);\n"   /* edges by target */
	/* Small partial indexes for what every answer's uncertainty reads: the
	 * indirect sites (hundreds) and the address-taken functions, without
	 * scanning whole tables. */
	"CREATE INDEX sites_indirect ON sites(field, caller, id, resolved, call_type) WHERE kind = 'indirect';\n"
	"CREATE INDEX functions_intrinsic ON functions(id) WHERE intrinsic;\n"
	"CREATE INDEX functions_address_taken ON functions(id, ir_type) WHERE address_taken;\n"
	"CREATE INDEX field_assignments_field ON field_assignments(field);\n"
	"CREATE INDEX field_assignments_line ON field_assignments(line);\n"
	"CREATE INDEX field_rejected_assignments_field ON field_rejected_assignments(field);\n"
	"CREATE INDEX fields_key ON fields(key);\n"
	"CREATE INDEX dispatch_field ON dispatch(field);\n"
	"CREATE INDEX decisions_site ON decisions(site);\n"
	"CREATE INDEX collapsed_objects_set ON collapsed_objects(member_set, width);\n"
	"CREATE INDEX collapsed_members_set ON collapsed_members(member_set, function);\n"
	"CREATE INDEX collapsed_set_sites_site ON collapsed_set_sites(site, member_set);\n"
	"CREATE VIEW collapsed_sites AS SELECT o.id AS object, c.site AS site, c.held AS held\n"
	"  FROM collapsed_objects o JOIN collapsed_set_sites c ON c.member_set = o.member_set;\n"
	"CREATE VIEW edges AS SELECT s.id AS site, t.target AS target, s.caller AS caller, t.graphs AS graphs\n"
	"  FROM sites s JOIN target_sets t ON t.id = s.target_set;\n"
	"CREATE VIEW edges_direct AS SELECT site, caller, target FROM edges WHERE graphs & 1;\n"
	"CREATE VIEW edges_andersen AS SELECT site, caller, target FROM edges WHERE graphs & 2;\n"
	"CREATE VIEW edges_r0 AS SELECT site, caller, target FROM edges WHERE graphs & 4;\n"
	"CREATE VIEW edges_rulesonly AS SELECT site, caller, target FROM edges WHERE graphs & 8;\n"
	"CREATE VIEW edges_rplus AS SELECT site, caller, target FROM edges WHERE graphs & 16;\n"
	"CREATE VIEW edges_rpm AS SELECT site, caller, target FROM edges WHERE graphs & 32;\n"
	"CREATE VIEW edges_source AS SELECT site, caller, target FROM edges WHERE graphs & 64;\n"
	"CREATE VIEW edges_cha AS SELECT site, caller, target FROM edges WHERE graphs & 128;\n"
	"CREATE VIEW edges_rta AS SELECT site, caller, target FROM edges WHERE graphs & 256;\n"
	"CREATE VIEW edges_vta AS SELECT site, caller, target FROM edges WHERE graphs & 512;\n"
	"CREATE VIEW edges_vslot AS SELECT site, caller, target FROM edges WHERE graphs & 1024;\n";

#endif
