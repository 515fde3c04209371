/* source.h — a name-resolved call graph from C sources that have no LLVM
 * build (seed 002's design, done with clang's own parse: macros expand,
 * types are real).
 *
 * Each .c file is parsed on its own through libclang, with its command from
 * a compile_commands.json when one is given, else with the include
 * directories guessed from the tree (every directory that holds a header
 * some file includes) and the system headers. A missing header or an
 * unknown type costs only what it touches: the unit is parsed, its
 * diagnostics counted per file, never fatal. A missing header whose
 * template the tree holds (X.h.in, X.h.cmake.in) is stood in by it, every
 * configuration switch on (standin.c). A switch no file of the tree
 * defines and no template decides (a build's -D, a header a shell script
 * writes) is unknown: a unit that tests one is parsed a second time with
 * every such switch on and the edges are united (switches.h).
 *
 * Direct calls resolve by seed 002's order: a definition in the calling
 * unit (a static, or one of an included header), else the one external
 * definition of the name, else an edge to every external definition,
 * flagged ambiguous; a name nothing defines is an external (undefined)
 * function, as the bitcode graph names libc. Indirect calls resolve by the
 * location the callee is read from: a struct field (keyed by struct and
 * member from clang's types: typedefs resolved, an anonymous union one
 * location, an embedded struct its own), a variable, a parameter, what a
 * named function returns (`lookup(name)(x)`, `(*get_handler())(x)`), what
 * either arm of a conditional callee is (`(c ? f : g)(x)`), the
 * memory pointers to function pointers reach (one location per type), or,
 * read through a cast of other memory, every location of the type read.
 * Its candidates are the functions written there anywhere in the tree:
 * initializers (designated and positional, nested, arrays of structs),
 * assignments, returns, memcpy/memmove, copies from other locations, and
 * the functions passed for a parameter at the calls of its function, direct
 * or through a location (a registration, also through an ops table). A
 * function converted to `void *` is followed there and back: a `void *`
 * location written with a function holds it, and a `void *` read into a
 * function-pointer location through a cast copies what it holds (a `void *`
 * copied to another `void *` is generic data, not followed). Each
 * candidate carries a warrant (Add-Witness for an initializer, Add-Store
 * otherwise) or is refuted (Prune-Sig: its signature does not fit the
 * call's, by facet/sig.h's relation). A call with no candidate is an
 * unresolved site: kept, never dropped.
 *
 * Over-approximate by design (never infer safety): at a site whose
 * evidence is incomplete (no candidate; or its location also receives what
 * the tree does not name: an expression that is no function, a copy of a
 * location nothing in the tree writes, a parameter no call in the tree
 * passes anything, or a copy of such a location) the site stays unresolved
 * (cg_graph.open: counted so in the catalog and in every answer's
 * uncertainty) and, unless turned off, also gets the type fallback: every
 * function whose name the tree uses other than as a direct callee whose
 * type fits the call's, each edge warranted Type-Fallback with the premise
 * pi_open and why the evidence is incomplete. Two rules of fit: C's
 * (the canonical function types are equal: typedefs resolved, qualifiers
 * dropped; an unprototyped side by C11 6.7.6.3p15) or the IR shape's
 * (clang's x86-64 lowering: every pointer alike, integers by width, as the
 * bitcode's R0 filter compares function types).
 *
 * The result is the program model shape the catalog stores (graph
 * `source`), with the warrants as the refinement's decisions, so every
 * query verb, the overlay and MCP read it unchanged. */
#ifndef FACET_SOURCE_SOURCE_H
#define FACET_SOURCE_SOURCE_H

#include <stdbool.h>

#include "cg/graph.h"
#include "ir/model.h"
#include "util/error.h"

typedef struct facet_result facet_result;   /* facet/facet.h */

/* The type fallback's rule of fit (the head); SOURCE_FALLBACK_C is the default. */
typedef enum source_fallback { SOURCE_FALLBACK_C, SOURCE_FALLBACK_IR, SOURCE_FALLBACK_OFF } source_fallback;

typedef struct source_options {
	const char *const *paths;  /* files (.c, .h) and directories (searched for them) */
	unsigned n_paths;
	const char *compile_commands;   /* a compile_commands.json, NULL: guess the include directories */
	const char *const *includes;    /* -I DIR, added to every unit */
	unsigned n_includes;
	const char *const *defines;     /* -D NAME[=V] */
	unsigned n_defines;
	source_fallback fallback;       /* the type fallback's rule, or none */
	bool no_assumed_constants;      /* no second parse with undeclared constants declared */
	bool no_host_config;            /* stand-ins: every switch on, sizes 1 (no host checks) */
	bool no_assumed_switches;       /* no second parse with the configuration switches on (switches.h) */
} source_options;

/* One parsed .c file. */
typedef struct source_unit {
	const char *file;
	bool parsed;               /* false: libclang could not parse it at all */
	unsigned errors, warnings; /* its diagnostics (missing headers, unknown types ...) */
	const char *first_error;   /* "file:line: message" of the first error, NULL when none */
	unsigned constants;        /* undeclared constants declared for a second parse (undeclared.c) */
	const char *first_constant;
	bool switched;             /* parsed again with the configuration switches on (switches.h) */
} source_unit;

/* A header the tree includes and its template's directory lacks, stood in
 * by the template (a configure step's config.h.in, jconfig.h.in ...) with
 * every configuration switch on: more code parsed than one build compiles. */
typedef struct source_standin {
	const char *header;        /* the stand-in's path */
	const char *template_path;
	unsigned switches, values; /* switches turned on, placeholders filled */
	unsigned host, host_off;   /* sizes from the host; header switches the host leaves off */
	bool shadows;              /* searched before the tree's other header of that name */
} source_standin;

typedef struct source_counts {
	unsigned units, units_with_errors, include_dirs;
	unsigned direct, ambiguous, external;   /* direct call sites by how their name resolved */
	unsigned indirect, unresolved;          /* indirect sites; those with no target */
	unsigned indirect_edges, pruned_sig;    /* targets at indirect sites; candidates Prune-Sig refuted */
	unsigned open, open_named;              /* sites whose evidence is incomplete; of them, with named targets too */
	unsigned fallback_sites, fallback_edges; /* sites with Type-Fallback targets; those targets */
	unsigned switches, switched_units;      /* configuration switches turned on; units parsed again with them */
	const char *first_switch;               /* the first switch in sorted order */
	unsigned switched_calls;                /* call sites only the parse with the switches on has */
} source_counts;

typedef struct source_result {
	ir_program *prog;          /* functions (one per definition, then the undefined names), sites */
	cg_graph *graph;           /* "source" */
	facet_result *resolution;  /* the fields, each site's location and the warrants (decisions) */
	source_unit *units;
	unsigned n_units;
	source_standin *standins;  /* missing headers stood in (include directories guessed only) */
	unsigned n_standins;
	source_counts counts;
	void *owner;               /* internal */
} source_result;

/* Collects, parses and resolves. NULL + err naming the file for what makes
 * the run impossible: a path that does not exist or holds no C file, a
 * compile_commands.json that does not read, a .c file that is not text. */
source_result *source_analyze(const source_options *o, facet_error *err);
/* Writes r as a catalog at path (catalog.h: temporary file + rename). */
bool source_write_catalog(const source_result *r, const char *path, facet_error *err);
void source_result_free(source_result *r);

#endif
