/* catalog.h — the SQLite file one analysis run leaves behind.
 *
 * `facet build` runs the pipeline once and hands everything it computed to
 * catalog_write: the program model (functions, call sites with their source
 * positions and inlining chains, globals and their initializer slots, every
 * place a function's address is taken or stored), each call graph with
 * per-edge membership, and — when the refinement ran — its recovered fields,
 * assignment sets, decisions with warrants and residual questions. Every
 * later question (src/query/, the MCP server) opens the catalog and never
 * loads LLVM. docs/catalog.md documents the schema for people who query it
 * with sqlite3 directly.
 *
 * A catalog is written whole into a temporary file beside the target and
 * renamed over it, so a reader sees the old file or the new one, never half
 * of either; readers therefore open it immutable (no locks). */
#ifndef FACET_CATALOG_CATALOG_H
#define FACET_CATALOG_CATALOG_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "cg/graph.h"
#include "cg/registry.h"
#include "ir/model.h"
#include "util/error.h"

typedef struct facet_result facet_result;   /* facet/facet.h */
typedef struct facet_decision facet_decision;   /* facet/facet.h */
typedef struct oracle_cache oracle_cache;   /* oracle/cache.h */

#define CATALOG_SCHEMA_VERSION 8

/* The graphs a catalog may hold are cg/registry.h's; graph i is bit
 * (1 << i) of edges.graphs. */

/* What one run computed. Absent graphs are NULL; refine is NULL when the
 * refinement did not run (then refine_note says why). */
typedef struct catalog_build {
	const ir_program *prog;
	const cg_graph *graphs[CG_N_GRAPHS];
	const facet_result *refine;
	/* vslot's decisions (facet/vslot.h), written with graph 'vslot'; NULL: none */
	const facet_decision *vslot_decisions;
	unsigned n_vslot_decisions;
	const char *refine_note;
	unsigned tau;
	const char *oracle;        /* oracle backend name (":model" when one), NULL = "none" */
	const oracle_cache *oracle_answers;   /* stored as table oracle_answers; NULL = none */
	const char *fingerprint;   /* catalog_fingerprint's result */
	double seconds_ingest, seconds_pta, seconds_refine;
} catalog_build;

/* Fingerprint of a build: a hash of the input files' contents, their order,
 * the options and the schema version, as 16 hex digits in out. Two builds
 * with the same fingerprint give the same catalog. */
bool catalog_fingerprint(const char *const *inputs, unsigned n, unsigned tau, const char *oracle,
                         char out[17], facet_error *err);

/* Writes the catalog to path (temporary file + rename). */
bool catalog_write(const char *path, const catalog_build *b, facet_error *err);
/* Where a command writes its catalog when not told: input's name with its
 * extension, when one of exts ('\0'-separated), replaced by ".facet".
 * Beside the input for facet build ("dir/prog.bc" -> "dir/prog.facet");
 * with here, facet source's: the last name of a file or tree, in the
 * current directory ("src/" -> "src.facet", "a/b.c" -> "b.facet"; "." and
 * ".." are "source"). malloc'd. */
char *catalog_default_path(const char *input, const char *exts, bool here);

/* ---- reading ---------------------------------------------------------------------- */

typedef struct catalog catalog;

/* Opens a catalog read-only and checks it: an SQLite file, a facet catalog,
 * this schema version. NULL + err naming the file otherwise. */
catalog *catalog_open(const char *path, facet_error *err);
/* True when path starts with SQLite's header: a catalog, most likely (what
 * facet callgraph draws from instead of reading bitcode). */
bool catalog_is_file(const char *path);
void catalog_close(catalog *c);

sqlite3 *catalog_db(const catalog *c);
const char *catalog_path(const catalog *c);
const char *catalog_fingerprint_of(const catalog *c);
/* The name people read for a row T of table functions, as an SQL
 * expression over T.name and T.source_name: a C++ symbol's demangled
 * source_name (the catalog's copy of ir_function_label), else the linked
 * name. Every reader that shows a function uses it. */
#define CATALOG_FN_SHOWN(T) \
	"(CASE WHEN substr(" T ".name, 1, 2) = '_Z' AND " T ".source_name <> '' THEN " T ".source_name ELSE " T \
	".name END)"
/* The name people read for a row T of table globals: its source_name (the
 * catalog's copy of ir_global_label: "vtable for Circle", "A::count", a C
 * global's linked name). T.name is the linked symbol. */
#define CATALOG_GLOBAL_SHOWN(T) "(" T ".source_name)"
/* The key people read for a row T of table fields (facet_field_shown's
 * rule): a C++ global's field is keyed by the linked symbol (T.key) and
 * shown as its record, the label ("A::hook"); other keys as they are. */
#define CATALOG_FIELD_SHOWN(T) \
	"(CASE WHEN " T ".kind <> 'struct' AND substr(" T ".key, 1, 2) = '_Z' AND " T ".record <> '' THEN " T \
	".record ELSE " T ".key END)"

/* Reading the catalog's tables outside the query layer (whose q_stmt and
 * q_step do the same for its session), so that no reader takes a failure
 * for the end of the rows. catalog_prepare: the statement, or NULL with err
 * "PATH: damaged catalog: ..." (the statements are facet's own text: one
 * that does not prepare is a changed catalog or a bug). catalog_step:
 * true on a row; false at the end, and on an error, which also clears *ok
 * and sets err. A NULL st (a failed prepare) is an error too: start with
 * ok = true, loop `while (catalog_step(c, st, &ok, err))`, then check ok. */
sqlite3_stmt *catalog_prepare(const catalog *c, const char *sql, facet_error *err);
bool catalog_step(const catalog *c, sqlite3_stmt *st, bool *ok, facet_error *err);

/* A row of the meta table, NULL when absent (owned by the catalog). */
const char *catalog_meta(const catalog *c, const char *key);
/* True when the catalog holds graph i (cg_graph_parse). */
bool catalog_has_graph(const catalog *c, int i);
/* The graph queries use when none is named: rpm when built, else r0. */
const char *catalog_default_graph(const catalog *c);
/* True when the refinement's tables hold data. */
bool catalog_has_refinement(const catalog *c);

/* ---- a graph for walks (table adjacency) --------------------------------------------- */

#define CATALOG_NO_SET 0xffffffffu

/* One graph as arrays: function f's call sites are ids function_sites[f] ..
 * function_sites[f+1]-1; site s calls the functions of target set
 * site_sets[s] (CATALOG_NO_SET: none); set k is set_targets[set_offsets[k] ..
 * set_offsets[k+1]-1], ascending. Sets are distinct, so a walk that expands
 * each set once touches every target list once. */
typedef struct catalog_adjacency {
	unsigned n_functions, n_sites, n_sets;
	size_t n_members;
	uint32_t *function_sites;  /* n_functions + 1 */
	uint32_t *site_sets;       /* n_sites */
	uint32_t *set_offsets;     /* n_sets + 1 */
	uint32_t *set_targets;     /* n_members */
	/* Derived on load, for walks towards callers: */
	uint32_t *site_caller;     /* n_sites */
	uint32_t *target_offsets;  /* n_functions + 1: function f is in sets target_sets[target_offsets[f] ..] */
	uint32_t *target_sets;
	uint32_t *set_site_offsets;   /* n_sets + 1: set k is the target set of sites set_sites[set_site_offsets[k] ..] */
	uint32_t *set_sites;          /* ascending per set */
} catalog_adjacency;

/* Reads graph i's adjacency (cg_graph_parse; the graph must be
 * present) and checks that its arrays fit together. NULL + err naming the
 * file when they do not. */
catalog_adjacency *catalog_adjacency_load(catalog *c, int graph, facet_error *err);
void catalog_adjacency_free(catalog_adjacency *a);

#endif
