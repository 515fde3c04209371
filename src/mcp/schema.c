/* schema.c — the JSON Schema subset of schema.h, applied recursively. */
#include "mcp/schema.h"

#include <stdio.h>
#include <string.h>

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

static bool has_type(const json_t *v, const char *t)
{
	if (strcmp(t, "object") == 0) return json_is_object(v);
	if (strcmp(t, "array") == 0) return json_is_array(v);
	if (strcmp(t, "string") == 0) return json_is_string(v);
	if (strcmp(t, "integer") == 0) return json_is_integer(v);
	if (strcmp(t, "number") == 0) return json_is_number(v);
	if (strcmp(t, "boolean") == 0) return json_is_boolean(v);
	if (strcmp(t, "null") == 0) return json_is_null(v);
	return false;
}

/* The place name for a message: "where" or, at the top, "arguments". */
static const char *place(const char *where)
{
	return where && *where ? where : "arguments";
}

static bool fail(char *why, size_t n, const char *where, const char *fmt, const char *a, const char *b)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a, b);
	snprintf(why, n, "%s: %s", place(where), msg);
	return false;
}

/* True when schema's "type" (a name or a list of names) admits v; a
 * schema without "type" admits anything. names[] receives the names. */
static bool type_admits(const json_t *schema, const json_t *v, char *names, size_t n)
{
	const json_t *t = json_object_get(schema, "type");
	if (names)
		*names = 0;
	if (!t)
		return true;
	if (json_is_string(t)) {
		if (names)
			snprintf(names, n, "%s", json_string_value(t));
		return has_type(v, json_string_value(t));
	}
	bool ok = false;
	size_t i;
	const json_t *e;
	json_array_foreach(t, i, e) {
		ok = ok || has_type(v, json_string_value(e));
		if (names && i > 0)
			strncat(names, " or ", n - strlen(names) - 1);
		if (names)
			strncat(names, json_string_value(e), n - strlen(names) - 1);
	}
	return ok;
}

static bool check_type(const json_t *schema, const json_t *v, const char *where, char *why, size_t n)
{
	char names[256];
	if (type_admits(schema, v, names, sizeof names))
		return true;
	return fail(why, n, where, "must be of type %s, not %s", names, type_name(v));
}

/* anyOf: v must satisfy one branch. facet's branches differ by type (a
 * function is a name or {module_id, symbol}), so the complaint worth
 * reading is that of the branch admitting v's type ("from: missing required
 * 'symbol'"); when no branch admits it, the message lists the types the
 * branches accept. */
static bool check_any_of(const json_t *schema, const json_t *v, const char *where, char *why, size_t n)
{
	const json_t *any = json_object_get(schema, "anyOf");
	if (!json_is_array(any))
		return true;
	const json_t *typed = NULL;
	char names[256] = "", one[128];
	size_t i;
	const json_t *b;
	json_array_foreach(any, i, b) {
		char scratch[8];
		if (mcp_schema_check(b, v, where, scratch, sizeof scratch))
			return true;
		if (type_admits(b, v, one, sizeof one) && !typed)
			typed = b;
		if (*names && *one)
			strncat(names, " or ", sizeof names - strlen(names) - 1);
		strncat(names, one, sizeof names - strlen(names) - 1);
	}
	if (typed)
		return mcp_schema_check(typed, v, where, why, n);
	return fail(why, n, where, "must be of type %s, not %s", names, type_name(v));
}

static bool check_enum(const json_t *schema, const json_t *v, const char *where, char *why, size_t n)
{
	const json_t *en = json_object_get(schema, "enum");
	if (!en)
		return true;
	size_t i;
	const json_t *e;
	json_array_foreach(en, i, e)
		if (json_equal(e, v))
			return true;
	char names[512] = "";
	json_array_foreach(en, i, e) {
		if (i > 0)
			strncat(names, ", ", sizeof names - strlen(names) - 1);
		char *t = json_dumps(e, JSON_ENCODE_ANY);
		if (t && json_is_string(e))
			strncat(names, json_string_value(e), sizeof names - strlen(names) - 1);
		else if (t)
			strncat(names, t, sizeof names - strlen(names) - 1);
		free(t);
	}
	return fail(why, n, where, "must be one of %s%s", names, "");
}

bool mcp_schema_check(const json_t *schema, const json_t *v, const char *where, char *why, size_t n)
{
	if (!json_is_object(schema))
		return true;
	if (!check_type(schema, v, where, why, n) || !check_any_of(schema, v, where, why, n) ||
	    !check_enum(schema, v, where, why, n))
		return false;
	char num[64];

	const json_t *min = json_object_get(schema, "minimum");
	if (min && json_is_number(v) && json_number_value(v) < json_number_value(min)) {
		snprintf(num, sizeof num, "%g", json_number_value(min));
		return fail(why, n, where, "must be at least %s%s", num, "");
	}
	const json_t *minlen = json_object_get(schema, "minLength");
	if (minlen && json_is_string(v) && json_string_length(v) < (size_t)json_integer_value(minlen))
		return fail(why, n, where, "must not be empty%s%s", "", "");

	if (json_is_array(v)) {
		const json_t *minitems = json_object_get(schema, "minItems");
		if (minitems && json_array_size(v) < (size_t)json_integer_value(minitems)) {
			snprintf(num, sizeof num, "%lld", (long long)json_integer_value(minitems));
			return fail(why, n, where, "must hold at least %s item(s)%s", num, "");
		}
		const json_t *items = json_object_get(schema, "items");
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			char sub[256];
			snprintf(sub, sizeof sub, "%s[%zu]", where ? where : "", i);
			if (!mcp_schema_check(items, e, sub, why, n))
				return false;
		}
	}

	if (json_is_object(v)) {
		const json_t *props = json_object_get(schema, "properties");
		const json_t *req = json_object_get(schema, "required");
		size_t i;
		const json_t *e;
		json_array_foreach(req, i, e)
			if (!json_object_get(v, json_string_value(e)))
				return fail(why, n, where, "missing required '%s'%s", json_string_value(e), "");
		const json_t *extra = json_object_get(schema, "additionalProperties");
		const char *key;
		const json_t *val;
		json_object_foreach((json_t *)v, key, val) {
			const json_t *ps = json_object_get(props, key);
			if (!ps) {
				if (json_is_false(extra)) {
					/* Name the accepted ones: the usual cause is a misspelling. */
					char names[512] = "";
					const char *k;
					const json_t *unused;
					json_object_foreach((json_t *)props, k, unused) {
						if (*names)
							strncat(names, ", ", sizeof names - strlen(names) - 1);
						strncat(names, k, sizeof names - strlen(names) - 1);
					}
					return fail(why, n, where, *names ? "unknown argument '%s' (accepted: %s)" : "unknown argument '%s'%s",
					            key, names);
				}
				continue;
			}
			char sub[256];
			snprintf(sub, sizeof sub, "%s%s%s", where && *where ? where : "", where && *where ? "." : "", key);
			if (!mcp_schema_check(ps, val, sub, why, n))
				return false;
		}
	}
	return true;
}
