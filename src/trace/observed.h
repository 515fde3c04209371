/* observed.h — read observed-edges files (what instrumented programs append;
 * format in docs/formats.md, "Observed edges").
 *
 * Several files, and the many blocks one file accumulates over runs, merge
 * into one set of (site, function) pairs with summed counts. Every block must
 * carry the same program key, site count and function count: a trace of
 * another build is refused, not mixed in. */
#ifndef FACET_TRACE_OBSERVED_H
#define FACET_TRACE_OBSERVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct trace_edge {
	unsigned site;
	char *name;                /* linked function name (decoded); NULL = unknown callee */
	uint64_t count;
} trace_edge;

typedef struct trace_observed {
	bool have_key;
	uint64_t key;              /* ir_key_* fingerprint of the traced program */
	unsigned n_sites, n_functions;
	char *key_file;            /* the first file that set the key, for messages */
	unsigned blocks;           /* header lines read (process exits, exec, _exit) */
	uint64_t dropped;          /* hits a runtime could not store */
	/* After trace_observed_finish: named edges sorted by (site, name), one per
	 * pair; unknown-callee hits apart. */
	trace_edge *edges;
	size_t n_edges, cap_edges;
	uint64_t hits;             /* sum of the named edges' counts */
	uint64_t unknown_hits;
	unsigned unknown_sites;    /* sites with an unknown-callee hit */
	/* Observed sites: those with at least one named edge, ascending; site i's
	 * edges are edges[site_first[i] .. site_first[i+1]-1]. */
	unsigned *sites;
	size_t *site_first;
	unsigned n_obs_sites;
} trace_observed;

/* Adds the blocks of one file. False and err ("FILE:LINE: problem") on a
 * malformed file or one whose key differs from the files read before. */
bool trace_observed_read(trace_observed *o, const char *path, facet_error *err);
/* Sorts and merges what was read; call once, after the last read. False
 * and err when summed counts overflow 64 bits (never wrapped silently). */
bool trace_observed_finish(trace_observed *o, facet_error *err);
/* Checks the traces against the program they are scored with: the
 * headers' site and function counts, and every observed callee a function
 * of it (names[0..n_functions-1]); err names the first mismatch. */
bool trace_observed_check_program(const trace_observed *o, unsigned n_sites, const char *const *names,
                                  unsigned n_functions, const char *program, facet_error *err);
void trace_observed_free(trace_observed *o);

#endif
