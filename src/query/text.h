/* text.h — a query answer for people: the JSON query_call returns, laid out
 * as indented text (sites and functions on one line each), and reach as a
 * path to follow. The JSON stays the contract (docs/queries.md); this is
 * only its reading. */
#ifndef FACET_QUERY_TEXT_H
#define FACET_QUERY_TEXT_H

#include <stdio.h>

#include <jansson.h>

/* Writes answer (of any verb) to out. */
void query_print_text(FILE *out, json_t *answer);
/* Writes reach's answer as a path of calls with the uncertainty. */
void query_print_reach(FILE *out, json_t *answer);

#endif
