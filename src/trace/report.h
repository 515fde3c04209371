/* report.h — scores as facet score prints them: a table for people, or
 * JSON (docs/formats.md, "facet score"). */
#ifndef FACET_TRACE_REPORT_H
#define FACET_TRACE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "trace/graphs.h"

/* gs[0..ng-1] scored against o; indirect is the program's indirect site
 * count (-1: unknown); per_site adds every observed site's row. */
void trace_report_text(FILE *out, const trace_observed *o, long indirect, trace_scored *gs, unsigned ng,
                       bool per_site);
void trace_report_json(FILE *out, const trace_observed *o, long indirect, trace_scored *gs, unsigned ng,
                       bool per_site);

#endif
