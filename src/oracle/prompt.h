/* prompt.h — one question as the oracle sees it (§3.4.1): the call site's
 * surrounding code, the dispatched field as context when recovered, and
 * every candidate by name and body, read from the source files the debug
 * info names. Built twice over: as chat messages (system, user) and as the
 * JSON object the `command` backend reads (docs/oracle.md). */
#ifndef FACET_ORACLE_PROMPT_H
#define FACET_ORACLE_PROMPT_H

#include <stdbool.h>

#include "facet/facet.h"

/* Source files read so far, by path (each read once per run). */
typedef struct oracle_sources oracle_sources;
/* root: a directory to look in when a recorded path does not exist (moved
 * trees); NULL for none. */
oracle_sources *oracle_sources_new(const char *root);
void oracle_sources_free(oracle_sources *s);

typedef struct oracle_prompt {
	char *system, *user;       /* the chat messages */
	char *question_json;       /* the command backend's stdin */
	const char **names;        /* candidate names, in q->candidates' order */
	unsigned n;
	char hash[65];             /* SHA-256 of system and user: the cache key */
	unsigned missing_sources;  /* files the prompt could not read (noted in it) */
} oracle_prompt;

/* Builds the prompt of q; opaque replaces field names by tokens. */
void oracle_prompt_build(oracle_sources *s, const facet_result *r, const facet_question *q, bool opaque,
                         oracle_prompt *out);
void oracle_prompt_free(oracle_prompt *p);

/* The opaque token of a field name: "field_" and 8 hex digits of its hash. */
void oracle_opaque_token(const char *name, char out[16]);

#endif
