/* overlay.h — edges people and agents record beside a catalog (seed 001).
 *
 * The catalog never changes; hypotheses about indirect calls it leaves
 * unresolved go into an overlay: JSON-lines records
 *   add     {via_field {record, offset} | site, to, confidence, provenance}
 *   verify  {edge, tool reread|svf|phasar, verdict confirmed|refuted|inconclusive}
 *   retract {edge, reason}
 * An overlay is the log of the records applied so far; its state (the live
 * edges with their confidence, provenance and verdict) is the replay of that
 * log. A batch is applied whole or not at all: every record is checked
 * against the catalog (edges attach only to indirect sites the record's
 * graph leaves unresolved; `to` names exactly one definition) and the
 * first bad one is reported by its index. overlay_save is the only write
 * (temporary file + rename); the file's first line carries the catalog's
 * fingerprint and overlay_load refuses a file recorded against another
 * build. docs/overlay.md has the format. */
#ifndef FACET_OVERLAY_OVERLAY_H
#define FACET_OVERLAY_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "catalog/catalog.h"
#include "util/error.h"

typedef enum overlay_confidence { CONF_LOW = 1, CONF_MEDIUM = 2, CONF_HIGH = 3 } overlay_confidence;
typedef enum overlay_verdict { VERDICT_NONE, VERDICT_CONFIRMED, VERDICT_REFUTED, VERDICT_INCONCLUSIVE } overlay_verdict;

typedef struct overlay_edge {
	bool via_field;
	char *record;              /* via_field: the struct (fields.record) */
	uint64_t offset;           /* via_field: byte offset */
	unsigned field;            /* via_field: catalog field id */
	unsigned site;             /* site form: the site id */
	unsigned to;               /* function id */
	char *to_symbol;           /* its linked name */
	char *to_module;           /* its module id (fields of functions.module_id) */
	overlay_confidence confidence;
	json_t *provenance;        /* array of strings */
	overlay_verdict verdict;
	char *verdict_tool;        /* NULL without a verdict */
	int graph;                 /* the graph it was checked against (catalog graph index) */
	unsigned *sites;           /* the unresolved indirect sites it covers in that graph */
	unsigned n_sites;
} overlay_edge;

typedef struct overlay overlay;

/* An empty overlay over catalog c (which must outlive it). */
overlay *overlay_new(const catalog *c);
void overlay_free(overlay *o);

/* Applies records (a JSON array of objects) as one batch: all of them or
 * none. On failure err reads "record I: ..." with I the 0-based index. An
 * add is checked against its "graph", else graph (a catalog graph index;
 * -1 = the catalog's default graph): edges attach only to indirect sites
 * that graph leaves unresolved. */
bool overlay_apply(overlay *o, json_t *records, int graph, facet_error *err);

/* The live edges (retracted ones are gone). */
size_t overlay_n_edges(const overlay *o);
const overlay_edge *overlay_edge_at(const overlay *o, size_t i);
/* The key of edge i as list_overlay prints it and verify/retract take it:
 * {"via_field": {record, offset}, "to": {module_id, symbol}} or
 * {"site": N, "to": {...}}. New reference. */
json_t *overlay_edge_key(const overlay_edge *e);
/* Records applied since the last save or load. */
bool overlay_pending(const overlay *o);
size_t overlay_n_records(const overlay *o);

/* Writes the header and the record log to path atomically. */
bool overlay_save(overlay *o, const char *path, facet_error *err);
/* Replaces o's contents with the file's (refusing another build's file,
 * naming both fingerprints). On failure o is unchanged. */
bool overlay_load(overlay *o, const char *path, facet_error *err);

/* Parses JSON lines (blank lines and lines starting with '#' skipped) into
 * an array of records; err names the line of the first bad one. */
json_t *overlay_parse_lines(const char *text, size_t len, facet_error *err);

/* "high", "medium", "low" -> confidence; 0 when none of them. */
overlay_confidence overlay_confidence_parse(const char *s);
const char *overlay_confidence_name(overlay_confidence c);
const char *overlay_verdict_name(overlay_verdict v);

#endif
