/* report.h — an oracle's accounting (oracle_stats) for people and scripts:
 * the stderr line the analysing commands print and the "oracle" object of
 * their JSON (docs/oracle.md). */
#ifndef FACET_ORACLE_REPORT_H
#define FACET_ORACLE_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "oracle/oracle.h"

/* {backend, model, replay_only, opaque_fields, the counts..., first_error};
 * JSON null when o is NULL (no oracle). c is the configuration o was made
 * from. */
json_t *oracle_stats_json(const facet_oracle *o, const oracle_config *c);
/* One line (two with a failure), each starting with prefix; nothing when o is NULL. */
void oracle_stats_print(FILE *out, const char *prefix, const facet_oracle *o, const oracle_config *c);

#endif
