/* oracle.c — the facet_oracle every backend is asked through: builds the
 * prompt, answers from the cache when it can, keeps to the caps, runs the
 * backend, parses the answer and counts everything (oracle.h). */
#include "oracle/oracle.h"

#include <string.h>

#include "oracle/answer.h"
#include "oracle/internal.h"
#include "util/xalloc.h"

typedef struct oracle_state {
	oracle_config cfg;
	oracle_backend *backend;
	oracle_sources *sources;
	oracle_stats stats;
	facet_error first_error;
	facet_oracle iface;
} oracle_state;

void oracle_config_default(oracle_config *c)
{
	memset(c, 0, sizeof *c);
	c->timeout_ms = 60000;
	c->retries = 3;
	c->backoff_ms = 1000;
}

const char *oracle_backend_name(oracle_backend_kind k)
{
	switch (k) {
	case ORACLE_NONE: return "none";
	case ORACLE_COMMAND: return "command";
	case ORACLE_OPENAI: return "openai";
	}
	return "?";
}

bool oracle_backend_parse(const char *name, oracle_backend_kind *k)
{
	for (int i = ORACLE_NONE; i <= ORACLE_OPENAI; i++)
		if (!strcmp(name, oracle_backend_name((oracle_backend_kind)i))) {
			*k = (oracle_backend_kind)i;
			return true;
		}
	return false;
}

static void note_error(oracle_state *s, const facet_error *e)
{
	if (e->set && !s->first_error.set)
		error_set(&s->first_error, "%s", e->msg);
}

/* Parses an answer text into verdicts, counting; true when usable. */
static bool take_answer(oracle_state *s, const char *text, const oracle_prompt *p, oracle_verdict *v)
{
	oracle_answer_info info;
	bool ok = oracle_parse_answer(text, p->names, p->n, v, &info);
	s->stats.invented += info.invented;
	if (ok) {
		s->stats.answered++;
	} else {
		s->stats.unusable++;
		facet_error e = {0};
		error_set(&e, "oracle %s: an answer with no yes or no for a listed candidate", s->backend->name);
		note_error(s, &e);
	}
	return ok;
}

static bool ask(facet_oracle *o, const facet_result *r, const facet_question *q, oracle_verdict *verdicts)
{
	oracle_state *s = o->ctx;
	s->stats.questions++;
	oracle_prompt p;
	oracle_prompt_build(s->sources, r, q, s->cfg.opaque_fields, &p);
	s->stats.missing_sources += p.missing_sources;
	bool ok = false;
	const oracle_cache_entry *hit = oracle_cache_get(s->cfg.cache, s->backend->name, s->backend->model, p.hash);
	if (hit) {
		s->stats.cache_hits++;
		ok = take_answer(s, hit->answer, &p, verdicts);
		goto done;
	}
	if (s->cfg.replay_only) {
		s->stats.replay_misses++;
		goto done;
	}
	if ((s->cfg.max_queries && s->stats.queries >= s->cfg.max_queries) ||
	    (s->cfg.max_tokens && s->stats.prompt_tokens + s->stats.completion_tokens >= s->cfg.max_tokens)) {
		s->stats.skipped_cap++;
		goto done;
	}
	s->stats.queries++;
	oracle_reply reply;
	facet_error err = {0};
	oracle_call_status st = s->backend->call(s->backend, &p, &reply, &s->stats, &err);
	s->stats.prompt_tokens += reply.prompt_tokens;
	s->stats.completion_tokens += reply.completion_tokens;
	if (st != CALL_OK) {
		s->stats.failures++;
		s->stats.timeouts += st == CALL_TIMEOUT;
		note_error(s, &err);
		free(reply.content);
		goto done;
	}
	/* The model's answer, usable or not, is what it said to this prompt:
	 * cached so that a rebuild replays exactly this run. */
	if (s->cfg.cache) {
		oracle_cache_entry e = {.backend = s->backend->name, .model = s->backend->model, .prompt_hash = p.hash,
		                        .answer = reply.content ? reply.content : "",
		                        .prompt_tokens = reply.prompt_tokens, .completion_tokens = reply.completion_tokens};
		oracle_cache_put(s->cfg.cache, &e);
	}
	ok = take_answer(s, reply.content, &p, verdicts);
	free(reply.content);
done:
	if (!ok)
		for (unsigned i = 0; i < q->n_candidates; i++)
			verdicts[i] = VERDICT_UNKNOWN;
	oracle_prompt_free(&p);
	return ok;
}

facet_oracle *oracle_new(const oracle_config *c, facet_error *err)
{
	oracle_backend *b = NULL;
	switch (c->backend) {
	case ORACLE_NONE:
		error_set(err, "the none oracle is no oracle: pass NULL to the refinement");
		return NULL;
	case ORACLE_COMMAND:
		b = oracle_command_backend(c, err);
		break;
	case ORACLE_OPENAI:
		b = oracle_openai_backend(c, err);
		break;
	}
	if (!b)
		return NULL;
	oracle_state *s = xcalloc(1, sizeof *s);
	s->cfg = *c;
	s->backend = b;
	s->sources = oracle_sources_new(c->source_root);
	s->iface.name = b->name;
	s->iface.ctx = s;
	s->iface.ask = ask;
	return &s->iface;
}

void oracle_free(facet_oracle *o)
{
	if (!o)
		return;
	oracle_state *s = o->ctx;
	s->backend->free(s->backend);
	oracle_sources_free(s->sources);
	free(s);
}

const oracle_stats *oracle_stats_of(const facet_oracle *o)
{
	return o ? &((const oracle_state *)o->ctx)->stats : NULL;
}

const char *oracle_first_error(const facet_oracle *o)
{
	if (!o)
		return NULL;
	const oracle_state *s = o->ctx;
	return s->first_error.set ? s->first_error.msg : NULL;
}
