/* schema.h — check a tool's arguments against its JSON Schema.
 *
 * MCP tools publish their input as JSON Schema; the server checks arguments
 * against the same schema before a query runs, so a client (or a model) that
 * sends a wrong argument gets one precise message naming the argument, and
 * the published schema cannot drift from what the server accepts.
 *
 * The subset understood is the one facet's tools use: type (a name or a list
 * of names), anyOf, properties, required, additionalProperties (false only),
 * items, enum, minimum, minLength, minItems. Other keywords (description,
 * title, default) are annotations and are ignored. An integer is a JSON
 * integer (1.0 is refused). For anyOf, the message is that of the one branch
 * that admits the value's type (e.g. "from: missing required 'symbol'"), or
 * lists the types the branches accept. */
#ifndef FACET_MCP_SCHEMA_H
#define FACET_MCP_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* True when value satisfies schema. Otherwise false, and why[] holds one
 * message naming the first offending place, e.g.
 * "records[1].confidence: must be one of high, medium, low". The place of
 * the value itself is `where` (may be "" for the top). */
bool mcp_schema_check(const json_t *schema, const json_t *value, const char *where,
                      char *why, size_t why_size);

#endif
