/* tools.h — the MCP tools facet serves: names, descriptions, input schemas.
 *
 * One row per tool. Every query verb (the registry in query.h) is a tool of
 * its name, with its title, description and arguments, passed straight to
 * query_call; two manage the session itself (load_catalog, unload_catalog). A verb's own
 * guards (load_overlay refusing to drop unsaved records) are the query
 * layer's, so `facet query` and MCP refuse alike. The input schema of each
 * tool is built from its argument rows, and the server checks every call
 * against it (schema.h), so what tools/list publishes is what is enforced. */
#ifndef FACET_MCP_TOOLS_H
#define FACET_MCP_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "query/query.h"

typedef enum mcp_tool_kind {
	MCP_TOOL_VERB,            /* query_call(verb = tool name, arguments) */
	MCP_TOOL_LOAD_CATALOG,    /* open a catalog (and an overlay), replacing the loaded one */
	MCP_TOOL_UNLOAD_CATALOG,  /* close the loaded catalog */
} mcp_tool_kind;

enum {
	MCP_NEEDS_CATALOG = 1,    /* refused (a tool error) while no catalog is loaded */
	MCP_READ_ONLY = 2,        /* writes nothing: annotations.readOnlyHint */
};

typedef struct mcp_tool {
	const char *name;
	const char *title;
	const char *description;
	mcp_tool_kind kind;
	unsigned flags;           /* MCP_NEEDS_CATALOG, MCP_READ_ONLY */
	const query_arg *const *args;   /* NULL-terminated (query.h's rows) */
} mcp_tool;

/* The tools, in the order tools/list gives them: load_catalog,
 * unload_catalog, then the registry's verbs in its order. */
size_t mcp_tool_count(void);
const mcp_tool *mcp_tool_at(size_t i);   /* NULL past the end */

/* The tool named name, or NULL. */
const mcp_tool *mcp_tool_find(const char *name);

/* The tool's inputSchema: {"type":"object","properties":{...},"required":[...],
 * "additionalProperties":false}. New reference. */
json_t *mcp_tool_schema(const mcp_tool *t);

/* The tool as tools/list describes it: name, title, description,
 * inputSchema, annotations. New reference. */
json_t *mcp_tool_describe(const mcp_tool *t);

#endif
