/* print.h — points-to sets as text, for looking at why a call site got the
 * targets it got (facet pts). Locations print as NAME+OFFSET; stack:%V is
 * the stack slot of value V, heap:FILE:LINE an allocation site, lib:F memory
 * owned by library function F, and '*' marks a collapsed object. A set
 * wraps at about 100 columns and shows 40 names, then how many more; under a
 * callee set, the widest three collapsed objects holding part of it
 * (holders.h) with what collapsed each and where. */
#ifndef FACET_PTA_PRINT_H
#define FACET_PTA_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "pta/andersen.h"
#include "util/error.h"

/* What call site id's callee operand and pointer arguments may point to.
 * False + err when there is no such site. */
bool pta_print_site(FILE *out, const ir_program *p, const pta_result *r, unsigned id, facet_error *err);
/* The content of each pointer-sized slot of the global named name. False +
 * err when there is none. */
bool pta_print_global(FILE *out, const ir_program *p, const pta_result *r, const char *name, facet_error *err);

#endif
