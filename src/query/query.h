/* query.h — questions over a catalog, as one generic entry point.
 *
 * A query session opens one catalog (catalog.h; SQLite, no LLVM) and answers
 * verbs with JSON objects in and out, so the CLI (`facet query`, `facet
 * overlay`) and the MCP server (src/mcp/) share every verb, argument name and
 * result shape: the MCP tools are thin wrappers over query_call. docs/queries.md
 * documents each verb's arguments and result.
 *
 * The session also holds the overlay (overlay.h): agent-recorded edges kept in
 * memory until "save_overlay" writes them (the only write a session makes,
 * atomic). By default the overlay file is the catalog path + ".overlay"; it is
 * loaded on open when it exists and matches the catalog's fingerprint.
 *
 * Every answer names the graph it used ("graph") and carries "uncertainty".
 * The session is not thread-safe; one session per thread. */
#ifndef FACET_QUERY_QUERY_H
#define FACET_QUERY_QUERY_H

#include <stdbool.h>

#include <jansson.h>

#include "util/error.h"

typedef struct query_session query_session;

/* Opens the catalog at catalog_path (read-only) and, when it exists, its
 * default overlay. NULL + err (naming the file and the problem: not a
 * catalog, wrong schema version, unreadable) on failure. An overlay that
 * exists but does not match is not an error here: the session starts with an
 * empty overlay and "list_overlay" reports why in "load_error". */
query_session *query_open(const char *catalog_path, facet_error *err);
void query_close(query_session *s);

/* Runs VERB with a JSON object of arguments (NULL = {}); returns the JSON
 * result (the caller json_decref's) or NULL with err set (bad arguments,
 * unknown symbol, a graph the catalog lacks: the message says which).
 *
 * The verbs and their arguments are query_verb_table's (below): each
 * verb's params, the names the MCP tools use (snake_case). "location"
 * (FILE:LINE) stands for "file" and "line" wherever they are taken; the
 * CLI's facet overlay passes "create" to load_overlay.
 *
 * A verb with a list (query_verb_info.list) takes "limit" (at most that
 * many items; absent: all) and "offset" (skip that many, default 0); the
 * object holding the list gets "page": {list, total, offset, limit,
 * returned}. Everything else in the answer (counts, uncertainty) is of the
 * whole list. */
json_t *query_call(query_session *s, const char *verb, json_t *args, facet_error *err);

/* Every answer carries "answer_version": this number. 2: "proven" means
 * every step direct or premise-free (1: no agent step, now "agent_free");
 * edges carry "proof"; list answers take "limit"/"offset" and say "page". */
#define QUERY_ANSWER_VERSION 2

/* True when the overlay holds records not yet saved. */
bool query_overlay_pending(const query_session *s);

/* A location "FILE:LINE" split at its last colon into file (cap bytes) and
 * a line >= 1; false when it is not that shape (or FILE does not fit). The
 * one reading of the "location" argument, for the CLI's FILE:LINE too. */
bool query_location_parse(const char *loc, char *file, size_t cap, long long *line);

/* Writes the definitions of functions[] from the catalog's inputs as one
 * module at out (src/ir/slice.h's ir_slice_write has this shape). */
typedef bool (*query_module_writer)(const char *const *inputs, unsigned n_inputs, const char *const *functions,
                                    unsigned n_functions, const char *out, facet_error *err);
/* Lets "slice" honour "emit_module". The query library does not link LLVM
 * (its start-up alone costs ~0.1 s per process), so a program that wants
 * modules written passes ir_slice_write here; without a writer, emit_module
 * is refused with a message saying so. */
void query_set_module_writer(query_session *s, query_module_writer w);

/* The verb registry: every verb query_call knows, once. The CLI's query and
 * overlay commands, their --help and completion, and the MCP server's tools
 * (their list, schemas and checks) render from it. */
typedef enum query_verb_group {
	QV_QUERY,                  /* facet query VERB (read-only questions) */
	QV_OVERLAY,                /* the overlay's verbs (facet overlay, MCP) */
} query_verb_group;

/* One JSON argument of a verb as agents see it (an MCP tool's inputSchema):
 * its name, its JSON Schema as a JSON text ("enum": "@graphs" stands for the
 * graph registry's names), whether it is required, and a description written
 * for the model that fills it. */
typedef struct query_arg {
	const char *name;
	const char *schema;
	bool required;
	const char *description;
} query_arg;
/* load_overlay's discard_pending, which the MCP session's own tools
 * (load_catalog, unload_catalog) take too. */
extern const query_arg query_arg_discard_pending;

struct qctx;                   /* query/internal.h */
typedef struct query_verb_info {
	const char *name;          /* query_call's and the MCP tool's name: "indirect_targets" */
	const char *cli;           /* the command line's: "indirect-targets" */
	/* The command line's positional arguments, by their JSON names (NULL-padded).
	 * "location" is FILE:LINE, which query_call takes for "file" and "line". */
	const char *args[2];
	const char *usage;         /* what --help shows after cli: "FILE:LINE" */
	query_verb_group group;
	json_t *(*run)(struct qctx *q);   /* internal: the verb */
	bool walks;                /* honours include_overlay / min_confidence on walks */
	bool edges;                /* reads the graph's adjacency */
	const char *list;          /* the list "limit"/"offset" page: a key of the answer, "a.b" inside
	                            * object a, "a[].b" inside each element of array a; NULL: none */
	bool writes;               /* changes the session's overlay or writes a file (else read-only) */
	const char *summary;       /* for --help; lines separated by '\n' */
	const char *title;         /* for agents: a few words */
	const char *description;   /* for agents: what it answers and when to use it */
	const query_arg *const *params;   /* its JSON arguments as agents give them, NULL-terminated */
} query_verb_info;

/* Terminated by a row with name NULL. */
extern const query_verb_info query_verb_table[];
/* The verb named name (query_call's name), NULL when none. */
const query_verb_info *query_verb_find(const char *name);
/* The verb of group whose cli or query_call name is name, NULL when none. */
const query_verb_info *query_verb_find_cli(const char *name, query_verb_group group);
/* How many positional arguments v takes on the command line (0..2). */
unsigned query_verb_n_args(const query_verb_info *v);
/* The --help lines of group's verbs ("  CLI USAGE  summary", one per summary
 * line, '\n' between, none after the last), or their cli names space-separated
 * (completion); malloc'd. */
char *query_verb_help(query_verb_group group, bool names_only);

#endif
