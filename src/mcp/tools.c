/* tools.c — the tools facet serves, and the schemas built from them.
 *
 * Two tools manage the session itself (load_catalog, unload_catalog); every
 * other is a verb of the query registry (query.h), listed in its order under
 * its name with its title, description and arguments: no verb and no
 * argument is written down here a second time. So an answer over MCP and one
 * from `facet query` are the same object. */
#include "mcp/tools.h"

#include "cg/registry.h"
#include "query/query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const query_arg a_catalog_path = {
	"path", "{\"type\":\"string\",\"minLength\":1}", true,
	"Catalog file written by `facet build PROG.bc -o PROG.facet`."};
static const query_arg a_catalog_overlay = {
	"overlay", "{\"type\":\"string\",\"minLength\":1}", false,
	"Overlay file to load instead of the default (the catalog path + '.overlay'); it must have been "
	"recorded against this catalog's fingerprint."};
#define ARGS(...) ((const query_arg *const[]){__VA_ARGS__, NULL})

static const mcp_tool session_tools[] = {
	{"load_catalog", "Load a catalog",
	 "Open a program's catalog (made by `facet build`) for every other tool; its overlay "
	 "(catalog path + '.overlay', or `overlay`) is loaded when it exists and matches. Replaces a "
	 "loaded catalog, refusing while that one has unsaved overlay records unless discard_pending is "
	 "true. Answers with the inventory: program, graphs, counts, fingerprint.",
	 MCP_TOOL_LOAD_CATALOG, 0, ARGS(&a_catalog_path, &a_catalog_overlay, &query_arg_discard_pending)},
	{"unload_catalog", "Unload the catalog",
	 "Close the loaded catalog. Refuses while the overlay holds unsaved records (save_overlay first) "
	 "unless discard_pending is true.",
	 MCP_TOOL_UNLOAD_CATALOG, MCP_NEEDS_CATALOG, ARGS(&query_arg_discard_pending)},
};
#define N_SESSION (sizeof session_tools / sizeof *session_tools)

/* The session's tools, then one per registry verb: built once. */
static mcp_tool tools[N_SESSION + 64];
static size_t n_tools;

static void build(void)
{
	if (n_tools)
		return;
	memcpy(tools, session_tools, sizeof session_tools);
	n_tools = N_SESSION;
	for (const query_verb_info *v = query_verb_table; v->name && n_tools < sizeof tools / sizeof *tools; v++)
		tools[n_tools++] = (mcp_tool){v->name, v->title, v->description, MCP_TOOL_VERB,
		                              MCP_NEEDS_CATALOG | (v->writes ? 0 : MCP_READ_ONLY), v->params};
}

size_t mcp_tool_count(void)
{
	build();
	return n_tools;
}

const mcp_tool *mcp_tool_at(size_t i)
{
	build();
	return i < n_tools ? &tools[i] : NULL;
}

const mcp_tool *mcp_tool_find(const char *name)
{
	build();
	for (size_t i = 0; name && i < n_tools; i++)
		if (strcmp(tools[i].name, name) == 0)
			return &tools[i];
	return NULL;
}

/* Every "enum": "@graphs" inside s becomes the registry's graph names. */
static void graph_enums(json_t *s)
{
	const char *key;
	json_t *v;
	size_t i;
	if (json_is_array(s))
		json_array_foreach(s, i, v)
			graph_enums(v);
	if (!json_is_object(s))
		return;
	json_object_foreach(s, key, v) {
		if (strcmp(key, "enum") == 0 && json_is_string(v) && strcmp(json_string_value(v), "@graphs") == 0) {
			json_t *names = json_array();
			for (int g = 0; g < CG_N_GRAPHS; g++)
				json_array_append_new(names, json_string(cg_graph_name(g)));
			json_object_set_new(s, key, names);
		} else {
			graph_enums(v);
		}
	}
}

json_t *mcp_tool_schema(const mcp_tool *t)
{
	json_t *props = json_object();
	json_t *req = json_array();
	for (const query_arg *const *a = t->args; *a; a++) {
		json_error_t jerr;
		json_t *s = json_loads((*a)->schema, 0, &jerr);
		if (!s) {
			/* A typo in an argument row (src/query/registry.c, or the session's
			 * above); test_mcp's tool table test catches it. */
			fprintf(stderr, "facet mcp: bad schema for %s.%s: %s\n", t->name, (*a)->name, jerr.text);
			abort();
		}
		graph_enums(s);
		json_object_set_new(s, "description", json_string((*a)->description));
		json_object_set_new(props, (*a)->name, s);
		if ((*a)->required)
			json_array_append_new(req, json_string((*a)->name));
	}
	json_t *schema = json_object();
	json_object_set_new(schema, "type", json_string("object"));
	json_object_set_new(schema, "properties", props);
	if (json_array_size(req) > 0)
		json_object_set_new(schema, "required", req);
	else
		json_decref(req);
	json_object_set_new(schema, "additionalProperties", json_false());
	return schema;
}

json_t *mcp_tool_describe(const mcp_tool *t)
{
	json_t *d = json_object();
	json_object_set_new(d, "name", json_string(t->name));
	json_object_set_new(d, "title", json_string(t->title));
	json_object_set_new(d, "description", json_string(t->description));
	json_object_set_new(d, "inputSchema", mcp_tool_schema(t));
	json_t *ann = json_object();
	json_object_set_new(ann, "title", json_string(t->title));
	json_object_set_new(ann, "readOnlyHint", json_boolean(t->flags & MCP_READ_ONLY));
	/* Nothing facet does destroys data: save_overlay replaces the overlay
	 * file only with the records the session holds. */
	json_object_set_new(ann, "destructiveHint", json_false());
	json_object_set_new(ann, "idempotentHint", json_boolean(t->flags & MCP_READ_ONLY));
	json_object_set_new(ann, "openWorldHint", json_false());
	json_object_set_new(d, "annotations", ann);
	return d;
}
