/* report.c — an oracle's accounting printed (report.h). */
#include "oracle/report.h"

#include "facet/oracle.h"

json_t *oracle_stats_json(const facet_oracle *o, const oracle_config *c)
{
	const oracle_stats *s = oracle_stats_of(o);
	if (!s)
		return json_null();
	json_t *j = json_object();
	json_object_set_new(j, "backend", json_string(o->name));
	json_object_set_new(j, "model", c->model ? json_string(c->model)
	                                : c->command ? json_string(c->command) : json_null());
	json_object_set_new(j, "replay_only", json_boolean(c->replay_only));
	json_object_set_new(j, "opaque_fields", json_boolean(c->opaque_fields));
#define N(f) json_object_set_new(j, #f, json_integer((json_int_t)s->f))
	N(questions); N(queries); N(requests); N(retries); N(cache_hits); N(answered); N(unusable);
	N(failures); N(timeouts); N(invented); N(skipped_cap); N(replay_misses); N(missing_sources);
	N(prompt_tokens); N(completion_tokens);
#undef N
	const char *e = oracle_first_error(o);
	json_object_set_new(j, "first_error", e ? json_string(e) : json_null());
	return j;
}

void oracle_stats_print(FILE *out, const char *prefix, const facet_oracle *o, const oracle_config *c)
{
	const oracle_stats *s = oracle_stats_of(o);
	if (!s)
		return;
	fprintf(out, "%soracle %s%s%s%s: %u questions, %u queries (%u requests, %u retries), %u cache hits, "
	             "%u answered, %u unusable, %u failures (%u timeouts), %u invented names ignored, "
	             "%u over the caps, %u replay misses, %u sources missing, tokens %llu prompt + %llu completion\n",
	        prefix, o->name, c->model ? " (model " : "", c->model ? c->model : "",
	        c->model ? ")" : "", s->questions, s->queries, s->requests, s->retries, s->cache_hits, s->answered,
	        s->unusable, s->failures, s->timeouts, s->invented, s->skipped_cap, s->replay_misses,
	        s->missing_sources, s->prompt_tokens, s->completion_tokens);
	const char *e = oracle_first_error(o);
	if (e)
		fprintf(out, "%sfirst oracle failure: %s\n", prefix, e);
}

