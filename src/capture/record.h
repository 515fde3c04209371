/* record.h — the wrapper's records: one small JSON file per observed
 * compile or link under DIR/records, each written to a temporary name and
 * renamed, so parallel builds never interleave and a killed build leaves
 * whole records only. `facet capture` joins them into the manifest. */
#ifndef FACET_CAPTURE_RECORD_H
#define FACET_CAPTURE_RECORD_H

#include <stdbool.h>

#include <jansson.h>

#include "util/error.h"

/* Writes obj as DIR/records/NAME.json. */
bool capture_record_write(const char *dir, const char *name, json_t *obj, facet_error *err);
/* Writes obj to path through path.tmp.PID: written, fsync'ed, renamed, the
 * directory fsync'ed (the records, the manifest, capture.json). */
bool capture_json_write_atomic(const char *path, json_t *obj, facet_error *err);

#endif
