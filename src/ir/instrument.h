/* instrument.h — the trace instrumentation: a bitcode writer beside ingest.
 *
 * Links the inputs exactly as ir_ingest does and, before every indirect call,
 * inserts `call void @__facet_trace_hit(i32 SITE, ptr CALLEE)`, SITE being the
 * id that ir_ingest (and so `facet callgraph --format json`) gives the site
 * (@__facet_trace_hit_tramp at a call of a patchable trampoline, whose jump
 * the runtime reads to name the function that runs).
 * It also emits the table the runtime (src/trace/runtime/facet_rt.c) maps
 * callee addresses with: @__facet_trace_fns (the address of function id i, or
 * null where none can be taken), @__facet_trace_names (its linked name),
 * @__facet_trace_nfns, @__facet_trace_nsites and @__facet_trace_key (the
 * program fingerprint, trace_program_key in src/trace/observed.h). Calls to
 * exec* and _exit/_Exit get a `call void @__facet_trace_flush()` before them,
 * since atexit handlers and destructors do not run there. */
#ifndef FACET_IR_INSTRUMENT_H
#define FACET_IR_INSTRUMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

typedef struct ir_instrument_stats {
	unsigned sites;            /* all call sites (ids 0..sites-1) */
	unsigned indirect;         /* indirect sites instrumented */
	unsigned functions;        /* function ids 0..functions-1 */
	unsigned flushes;          /* exec/_exit calls given a flush before them */
	uint64_t key;              /* program fingerprint written into the module */
} ir_instrument_stats;

/* Reads and links paths[0..n-1] (verified when verify), instruments the
 * module and writes it as bitcode to out (through a temporary file renamed
 * into place). False and err set on failure. */
bool ir_instrument(const char *const *paths, unsigned n, bool verify, const char *out,
                   ir_instrument_stats *stats, facet_error *err);

/* FNV-1a 64 over the decimal site count, then each function name, each
 * followed by a newline: the fingerprint that ties an observed-edges file to
 * one linked program. Callers feed it in module order. */
uint64_t ir_key_begin(unsigned n_sites);
uint64_t ir_key_add(uint64_t key, const char *name);

#endif
