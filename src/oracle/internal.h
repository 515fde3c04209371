/* internal.h — what the oracle's modules share: the backend interface. */
#ifndef FACET_ORACLE_INTERNAL_H
#define FACET_ORACLE_INTERNAL_H

#include <stdbool.h>

#include "oracle/oracle.h"
#include "oracle/prompt.h"

/* What one backend call returned. */
typedef struct oracle_reply {
	char *content;             /* the answer text (malloc'd), NULL when none */
	unsigned prompt_tokens, completion_tokens;
} oracle_reply;

typedef enum oracle_call_status {
	CALL_OK,                   /* content holds the model's answer: cacheable */
	CALL_FAILED,               /* no answer: err says why */
	CALL_TIMEOUT,              /* no answer in time */
} oracle_call_status;

typedef struct oracle_backend {
	const char *name;          /* "command", "openai" */
	const char *model;         /* the cache's model label */
	void *ctx;
	/* Asks once (with the backend's own retries); counts requests and retries in st. */
	oracle_call_status (*call)(struct oracle_backend *b, const oracle_prompt *p, oracle_reply *out,
	                           oracle_stats *st, facet_error *err);
	void (*free)(struct oracle_backend *b);
} oracle_backend;

oracle_backend *oracle_command_backend(const oracle_config *c, facet_error *err);
oracle_backend *oracle_openai_backend(const oracle_config *c, facet_error *err);

#endif
