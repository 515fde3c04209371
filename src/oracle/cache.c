/* cache.c — the oracle's answer cache: an in-memory map saved to and loaded
 * from an SQLite table (the catalog's database or a standalone file). */
#include "oracle/cache.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef struct owned_entry {
	oracle_cache_entry e;
	char *key;                 /* backend \x1f model \x1f hash: the map's key */
} owned_entry;

struct oracle_cache {
	VEC(owned_entry *) items;
	strmap index;              /* key -> owned_entry * */
};

static char *make_key(const char *backend, const char *model, const char *hash)
{
	size_t n = strlen(backend) + strlen(model) + strlen(hash) + 3;
	char *k = xmalloc(n);
	snprintf(k, n, "%s\x1f%s\x1f%s", backend, model, hash);
	return k;
}

oracle_cache *oracle_cache_new(void)
{
	oracle_cache *c = xcalloc(1, sizeof *c);
	strmap_init(&c->index);
	return c;
}

static void entry_free(owned_entry *o)
{
	free((char *)o->e.backend);
	free((char *)o->e.model);
	free((char *)o->e.prompt_hash);
	free((char *)o->e.answer);
	free(o->key);
	free(o);
}

void oracle_cache_free(oracle_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->items.len; i++)
		entry_free(c->items.items[i]);
	VEC_FREE(&c->items);
	strmap_free(&c->index);
	free(c);
}

const oracle_cache_entry *oracle_cache_get(const oracle_cache *c, const char *backend, const char *model,
                                           const char *prompt_hash)
{
	if (!c)
		return NULL;
	char *k = make_key(backend, model, prompt_hash);
	owned_entry *o = strmap_get(&c->index, k);
	free(k);
	return o ? &o->e : NULL;
}

void oracle_cache_put(oracle_cache *c, const oracle_cache_entry *e)
{
	char *k = make_key(e->backend, e->model, e->prompt_hash);
	owned_entry *o = strmap_get(&c->index, k);
	if (o) {   /* replace the answer in place: the key string stays the map's key */
		free(k);
		free((char *)o->e.answer);
		o->e.answer = xstrdup(e->answer ? e->answer : "");
		o->e.prompt_tokens = e->prompt_tokens;
		o->e.completion_tokens = e->completion_tokens;
		return;
	}
	o = xcalloc(1, sizeof *o);
	o->key = k;
	o->e.backend = xstrdup(e->backend);
	o->e.model = xstrdup(e->model);
	o->e.prompt_hash = xstrdup(e->prompt_hash);
	o->e.answer = xstrdup(e->answer ? e->answer : "");
	o->e.prompt_tokens = e->prompt_tokens;
	o->e.completion_tokens = e->completion_tokens;
	VEC_PUSH(&c->items, o);
	strmap_put(&c->index, o->key, o);
}

size_t oracle_cache_size(const oracle_cache *c)
{
	return c ? c->items.len : 0;
}

const oracle_cache_entry *oracle_cache_at(const oracle_cache *c, size_t i)
{
	return i < c->items.len ? &c->items.items[i]->e : NULL;
}

static const char *const create_sql =
	"CREATE TABLE IF NOT EXISTS oracle_answers ("
	" backend TEXT NOT NULL, model TEXT NOT NULL, prompt_hash TEXT NOT NULL, answer TEXT NOT NULL,"
	" prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY (backend, model, prompt_hash))";

bool oracle_cache_load_sqlite(oracle_cache *c, sqlite3 *db, facet_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'oracle_answers'",
	                            -1, &st, NULL);
	if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
		error_set(err, "oracle cache: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return false;
	}
	bool present = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	if (!present)
		return true;
	rc = sqlite3_prepare_v2(db, "SELECT backend, model, prompt_hash, answer, prompt_tokens, completion_tokens"
	                            " FROM oracle_answers ORDER BY rowid", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		error_set(err, "oracle cache: %s", sqlite3_errmsg(db));
		return false;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		oracle_cache_entry e = {
			.backend = (const char *)sqlite3_column_text(st, 0),
			.model = (const char *)sqlite3_column_text(st, 1),
			.prompt_hash = (const char *)sqlite3_column_text(st, 2),
			.answer = (const char *)sqlite3_column_text(st, 3),
			.prompt_tokens = (unsigned)sqlite3_column_int64(st, 4),
			.completion_tokens = (unsigned)sqlite3_column_int64(st, 5),
		};
		if (e.backend && e.model && e.prompt_hash)
			oracle_cache_put(c, &e);
	}
	bool ok = rc == SQLITE_DONE;
	if (!ok)
		error_set(err, "oracle cache: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return ok;
}

bool oracle_cache_save_sqlite(const oracle_cache *c, sqlite3 *db, facet_error *err)
{
	bool own_txn = sqlite3_get_autocommit(db) != 0;
	char *msg = NULL;
	if (own_txn && sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	if (sqlite3_exec(db, create_sql, NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO oracle_answers VALUES (?, ?, ?, ?, ?, ?)", -1, &st, NULL) !=
	    SQLITE_OK)
		goto fail;
	for (size_t i = 0; i < oracle_cache_size(c); i++) {
		const oracle_cache_entry *e = oracle_cache_at(c, i);
		sqlite3_bind_text(st, 1, e->backend, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, e->model, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, e->prompt_hash, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, e->answer, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, e->prompt_tokens);
		sqlite3_bind_int64(st, 6, e->completion_tokens);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			goto fail;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (own_txn && sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	return true;
fail:
	error_set(err, "oracle cache: %s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	if (own_txn && !sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return false;
}

bool oracle_cache_load_file(oracle_cache *c, const char *path, facet_error *err)
{
	struct stat sb;
	if (stat(path, &sb) != 0)
		return true;   /* a first run: nothing cached yet */
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		error_set(err, "%s: cannot open the oracle cache: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return false;
	}
	facet_error e2 = {0};
	bool ok = oracle_cache_load_sqlite(c, db, &e2);
	if (!ok)
		error_set(err, "%s: %s", path, e2.msg);
	sqlite3_close(db);
	return ok;
}

bool oracle_cache_save_file(const oracle_cache *c, const char *path, facet_error *err)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		error_set(err, "%s: cannot write the oracle cache: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return false;
	}
	sqlite3_busy_timeout(db, 5000);
	facet_error e2 = {0};
	bool ok = oracle_cache_save_sqlite(c, db, &e2);
	if (!ok)
		error_set(err, "%s: %s", path, e2.msg);
	if (sqlite3_close(db) != SQLITE_OK && ok) {
		error_set(err, "%s: closing the oracle cache failed", path);
		ok = false;
	}
	return ok;
}
