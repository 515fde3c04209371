/* answer.h — reading an oracle's answer: yes or no per listed candidate.
 *
 * The expected answer is {"answers": {"NAME": "yes"|"no", ...}}. The parser
 * is tolerant of what models do around it: prose or a ```json fence around
 * the object, booleans for yes/no, "keep"/"prune" and "target"/"not", an
 * array [{"name": N, "answer": A}] instead of the map, a bare map without
 * the "answers" key. It is strict about names: only the listed candidates
 * count; any other name is ignored and counted (invented). */
#ifndef FACET_ORACLE_ANSWER_H
#define FACET_ORACLE_ANSWER_H

#include <stdbool.h>

#include "facet/oracle.h"

typedef struct oracle_answer_info {
	unsigned matched;          /* listed candidates given a yes or no */
	unsigned invented;         /* names not in the list */
	unsigned bad_values;       /* listed names whose value is neither yes nor no */
} oracle_answer_info;

/* Parses text against the candidate names[0..n-1]; verdicts[i] is set for
 * names[i] (VERDICT_UNKNOWN when the answer leaves it out). Returns false —
 * no usable answer — when the text holds no answer object or no listed
 * candidate got a yes or no. */
bool oracle_parse_answer(const char *text, const char *const *names, unsigned n, oracle_verdict *verdicts,
                         oracle_answer_info *info);

#endif
