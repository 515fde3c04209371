/* settings.h — an oracle from its settings as a user gives them (the
 * --oracle options of every analysing command, docs/oracle.md): the values
 * checked, the backend built, its cache file read, and at the end the cache
 * written back. Messages only through facet_error; nothing is printed. */
#ifndef FACET_ORACLE_SETTINGS_H
#define FACET_ORACLE_SETTINGS_H

#include <stdbool.h>

#include "oracle/oracle.h"

typedef struct oracle_settings {
	const char *backend;       /* NULL = none */
	const char *command, *url, *model, *key_env, *cache, *source_root;
	const char *max_queries, *max_tokens, *timeout_ms, *retries, *backoff_ms;   /* decimal text */
	bool replay_only, opaque_fields, no_schema;
	/* Set by a caller that stores answers elsewhere (facet build: the
	 * catalog): an in-memory cache is made even without a cache file, and
	 * replay_only is accepted without one. */
	bool want_cache;
} oracle_settings;

typedef struct oracle_run {
	facet_oracle *oracle;      /* NULL: the none backend */
	oracle_cache *cache;       /* the cache file's entries (or want_cache's), NULL without */
	const char *cache_path;
	oracle_config cfg;
} oracle_run;

/* What oracle_run_open found wrong: a setting (a usage error) or an input
 * (the cache file). */
typedef enum oracle_settings_status {
	ORACLE_SETTINGS_OK,
	ORACLE_SETTINGS_BAD_INPUT,
	ORACLE_SETTINGS_BAD_SETTING,
} oracle_settings_status;

/* Builds the oracle s names into r (r->oracle NULL for none); on a bad
 * setting or an unreadable cache, err says which and r holds nothing. */
oracle_settings_status oracle_run_open(const oracle_settings *s, oracle_run *r, facet_error *err);
/* Saves the cache file (unless replay only) and frees everything; false +
 * err when the cache could not be saved (r is freed either way). */
bool oracle_run_close(oracle_run *r, facet_error *err);

#endif
