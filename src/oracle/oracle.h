/* oracle.h — the residual oracle's backends (§3.4 of the Facet paper) behind
 * src/facet/oracle.h's one interface.
 *
 * oracle_new builds a facet_oracle for a backend: `command` (an external
 * program reads the question as JSON on stdin and answers JSON on stdout) or
 * `openai` (an OpenAI-compatible chat-completions endpoint, through
 * libcurl). The `none` backend is a NULL oracle: the refinement then asks
 * nothing. Every question becomes one prompt (prompt.h) listing the bounded
 * candidates by name and body; the answer is yes/no per listed candidate
 * (answer.h); a name outside the list is ignored and counted. Answers are
 * kept in a cache (cache.h) keyed by backend, model and the prompt's hash, so
 * a rebuild replays them offline; replay_only never runs the backend. The
 * oracle counts what it did (oracle_stats) for the CLI to print. */
#ifndef FACET_ORACLE_ORACLE_H
#define FACET_ORACLE_ORACLE_H

#include <stdbool.h>

#include "facet/oracle.h"
#include "oracle/cache.h"
#include "util/error.h"

typedef enum oracle_backend_kind { ORACLE_NONE, ORACLE_COMMAND, ORACLE_OPENAI } oracle_backend_kind;

typedef struct oracle_config {
	oracle_backend_kind backend;
	const char *command;       /* command: run with /bin/sh -c */
	const char *url;           /* openai: base URL (".../v1"); "/chat/completions" is appended */
	const char *model;         /* openai: the model; command: a label for the cache (default: the command) */
	const char *api_key;       /* openai: sent as a bearer token; NULL = no Authorization header */
	unsigned timeout_ms;       /* per request or command run; 0 = 60000 */
	unsigned retries;          /* openai: retries on 429 and 5xx after the first request */
	unsigned backoff_ms;       /* first retry's delay, doubled each time (Retry-After wins when larger, up to 60 s) */
	unsigned max_queries;      /* questions sent to the backend per run (cache hits are free); 0 = unlimited */
	unsigned long long max_tokens;  /* prompt + completion tokens per run; 0 = unlimited */
	bool replay_only;          /* answer from the cache only, never run the backend */
	bool no_schema;            /* openai: do not ask for a JSON-schema constrained answer */
	const char *source_root;   /* where to look for sources the debug info names, when moved */
	bool opaque_fields;        /* replace field names in prompts with opaque tokens (leakage check) */
	oracle_cache *cache;       /* borrowed; NULL = none */
} oracle_config;

void oracle_config_default(oracle_config *c);

/* Per-run accounting. */
typedef struct oracle_stats {
	unsigned questions;        /* questions the refinement asked */
	unsigned queries;          /* questions sent to the backend (not answered from the cache) */
	unsigned requests;         /* HTTP requests or command runs, retries included */
	unsigned retries;          /* requests repeated after 429/5xx or a schema refusal */
	unsigned cache_hits;       /* questions answered from the cache */
	unsigned answered;         /* usable answers (from the backend or the cache) */
	unsigned unusable;         /* answers with no verdict on a listed candidate: abstained */
	unsigned failures;         /* backend failures: exit status, HTTP error after retries, timeout, bad envelope */
	unsigned timeouts;         /* of which timeouts */
	unsigned invented;         /* names outside the candidate list, ignored */
	unsigned skipped_cap;      /* questions not sent: the query or token cap was reached */
	unsigned replay_misses;    /* replay_only and not in the cache */
	unsigned missing_sources;  /* source files the prompts could not read */
	unsigned long long prompt_tokens, completion_tokens;   /* as the backend reports them (cache hits excluded) */
} oracle_stats;

/* Builds an oracle; NULL with err set when the configuration is unusable
 * (no command, no URL or model, a backend of kind ORACLE_NONE). */
facet_oracle *oracle_new(const oracle_config *c, facet_error *err);
void oracle_free(facet_oracle *o);

/* Valid from oracle_new to oracle_free; o may be NULL (then NULL). */
const oracle_stats *oracle_stats_of(const facet_oracle *o);
/* The first failure's message (for people), or NULL. */
const char *oracle_first_error(const facet_oracle *o);
/* "none", "command", "openai"; oracle_backend_parse returns false on an unknown name. */
const char *oracle_backend_name(oracle_backend_kind k);
bool oracle_backend_parse(const char *name, oracle_backend_kind *k);

#endif
