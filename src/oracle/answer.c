/* answer.c — the tolerant reader of yes/no answers (answer.h). */
#include "oracle/answer.h"

#include <ctype.h>
#include <jansson.h>
#include <string.h>
#include <strings.h>

/* The first JSON object in text: the whole text, else inside a ``` fence,
 * else from the first '{' to the last '}'. */
static json_t *find_object(const char *text)
{
	json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
	if (json_is_object(j))
		return j;
	json_decref(j);
	const char *open = strchr(text, '{'), *close = strrchr(text, '}');
	if (!open || !close || close < open)
		return NULL;
	j = json_loadb(open, (size_t)(close - open + 1), 0, NULL);
	if (json_is_object(j))
		return j;
	json_decref(j);
	/* Prose after the object may hold a stray brace: try each '}' backwards. */
	for (const char *c = close - 1; c > open; c--) {
		if (*c != '}')
			continue;
		j = json_loadb(open, (size_t)(c - open + 1), 0, NULL);
		if (json_is_object(j))
			return j;
		json_decref(j);
	}
	return NULL;
}

static oracle_verdict verdict_of(json_t *v)
{
	if (json_is_true(v))
		return VERDICT_YES;
	if (json_is_false(v))
		return VERDICT_NO;
	if (json_is_object(v)) {   /* {"answer": "yes", "reason": ...} */
		static const char *const keys[] = {"answer", "verdict", "target", "decision", "keep"};
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
			if (json_object_get(v, keys[i]))
				return verdict_of(json_object_get(v, keys[i]));
		return VERDICT_UNKNOWN;
	}
	if (!json_is_string(v))
		return VERDICT_UNKNOWN;
	char w[16];
	const char *s = json_string_value(v);
	while (isspace((unsigned char)*s))
		s++;
	size_t n = 0;
	while (n + 1 < sizeof w && isalpha((unsigned char)s[n])) {
		w[n] = s[n];
		n++;
	}
	w[n] = 0;
	static const char *const yes[] = {"yes", "y", "true", "keep", "target", "add"};
	static const char *const no[] = {"no", "n", "false", "prune", "not", "remove", "drop"};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		if (!strcasecmp(w, yes[i]))
			return VERDICT_YES;
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (!strcasecmp(w, no[i]))
			return VERDICT_NO;
	return VERDICT_UNKNOWN;
}

/* Index of name among names, or -1. A trailing "()" is forgiven. */
static int lookup(const char *name, const char *const *names, unsigned n)
{
	size_t len = strlen(name);
	if (len > 2 && !strcmp(name + len - 2, "()"))
		len -= 2;
	for (unsigned i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return (int)i;
	return -1;
}

static void take(const char *name, json_t *value, const char *const *names, unsigned n, oracle_verdict *verdicts,
                 oracle_answer_info *info)
{
	int k = lookup(name, names, n);
	if (k < 0) {
		info->invented++;
		return;
	}
	oracle_verdict v = verdict_of(value);
	if (v == VERDICT_UNKNOWN) {
		info->bad_values++;
		return;
	}
	if (verdicts[k] == VERDICT_UNKNOWN)
		info->matched++;
	verdicts[k] = v;
}

bool oracle_parse_answer(const char *text, const char *const *names, unsigned n, oracle_verdict *verdicts,
                         oracle_answer_info *info)
{
	oracle_answer_info dummy;
	if (!info)
		info = &dummy;
	memset(info, 0, sizeof *info);
	for (unsigned i = 0; i < n; i++)
		verdicts[i] = VERDICT_UNKNOWN;
	if (!text)
		return false;
	json_t *top = find_object(text);
	if (!top)
		return false;
	json_t *a = json_object_get(top, "answers");
	if (!a)
		a = json_object_get(top, "answer");
	if (!a)
		a = top;   /* a bare {"NAME": "yes"} */
	if (json_is_object(a)) {
		const char *key;
		json_t *v;
		json_object_foreach(a, key, v)
			take(key, v, names, n, verdicts, info);
	} else if (json_is_array(a)) {
		size_t i;
		json_t *e;
		json_array_foreach(a, i, e) {
			json_t *name = json_object_get(e, "name");
			if (!name)
				name = json_object_get(e, "function");
			if (!name)
				name = json_object_get(e, "candidate");
			if (!json_is_string(name)) {
				info->bad_values++;
				continue;
			}
			take(json_string_value(name), e, names, n, verdicts, info);
		}
	}
	json_decref(top);
	return info->matched > 0;
}
