/* cache.h — the oracle's answers, keyed by backend, model and prompt hash.
 *
 * A rebuild that asks the same question of the same model replays the
 * cached answer instead of running the backend, so a run is reproducible
 * offline (`--oracle-replay-only` never runs it at all). The cache lives in
 * memory during a run; it is loaded from and saved to SQLite: the catalog
 * passes its own open database (table `oracle_answers`, created on save),
 * and commands without a catalog use a standalone SQLite file holding the
 * same table (oracle_cache_load_file / oracle_cache_save_file).
 *
 * Table oracle_answers(backend TEXT, model TEXT, prompt_hash TEXT (SHA-256,
 * hex), answer TEXT (the backend's raw answer text), prompt_tokens INTEGER,
 * completion_tokens INTEGER, PRIMARY KEY(backend, model, prompt_hash)). */
#ifndef FACET_ORACLE_CACHE_H
#define FACET_ORACLE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

typedef struct sqlite3 sqlite3;
typedef struct oracle_cache oracle_cache;

typedef struct oracle_cache_entry {
	const char *backend, *model, *prompt_hash;
	const char *answer;        /* the raw answer text as the backend returned it */
	unsigned prompt_tokens, completion_tokens;
} oracle_cache_entry;

oracle_cache *oracle_cache_new(void);
void oracle_cache_free(oracle_cache *c);

/* NULL when absent. The entry lives until the cache is freed or the key is put again. */
const oracle_cache_entry *oracle_cache_get(const oracle_cache *c, const char *backend, const char *model,
                                           const char *prompt_hash);
/* Adds or replaces; copies every string. */
void oracle_cache_put(oracle_cache *c, const oracle_cache_entry *e);
size_t oracle_cache_size(const oracle_cache *c);
/* Entries i = 0 .. size-1, in insertion order. */
const oracle_cache_entry *oracle_cache_at(const oracle_cache *c, size_t i);

/* Adds the entries of db's oracle_answers table (none when the table is absent). */
bool oracle_cache_load_sqlite(oracle_cache *c, sqlite3 *db, facet_error *err);
/* Creates oracle_answers if needed and inserts or replaces every entry. Runs
 * inside the caller's transaction when one is open, else in its own. */
bool oracle_cache_save_sqlite(const oracle_cache *c, sqlite3 *db, facet_error *err);

/* The same on a standalone SQLite file: a missing file loads as empty; save
 * creates the file. */
bool oracle_cache_load_file(oracle_cache *c, const char *path, facet_error *err);
bool oracle_cache_save_file(const oracle_cache *c, const char *path, facet_error *err);

#endif
