/* open.c — opening a catalog for reading, and the build fingerprint.
 *
 * Catalogs are only ever replaced whole (write.c renames a finished file over
 * the old one), never changed in place, so readers open them with SQLite's
 * immutable=1: no locks, no journal lookups, and a reader that opened the old
 * file keeps reading the old inode while a build renames a new one in. */
#include "catalog/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "util/fsio.h"
#include "util/hash.h"
#include "util/strmap.h"
#include "util/xalloc.h"

struct catalog {
	sqlite3 *db;
	char *path;
	char *fingerprint;
	char *default_graph;
	unsigned graphs_present;   /* bit i: graph i */
	bool refinement;
	strmap meta;               /* key -> value, both heap strings */
};

/* "file:" URI for path with the characters a URI reserves escaped. */
static char *uri_of(const char *path)
{
	size_t n = strlen(path);
	char *u = xmalloc(3 * n + 32), *q = u;
	q += sprintf(q, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20 || *p >= 0x7f)
			q += sprintf(q, "%%%02X", *p);
		else
			*q++ = (char)*p;
	}
	strcpy(q, "?mode=ro&immutable=1");
	return u;
}

static bool load_meta(catalog *c, facet_error *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(c->db, "SELECT key, value FROM meta", -1, &st, NULL) != SQLITE_OK) {
		error_set(err, "%s: not a facet catalog (%s)", c->path, sqlite3_errmsg(c->db));
		return false;
	}
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		if (k && !strmap_has(&c->meta, k))
			strmap_put(&c->meta, xstrdup(k), xstrdup(v ? v : ""));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		error_set(err, "%s: not a facet catalog (%s)", c->path, sqlite3_errmsg(c->db));
		return false;
	}
	return true;
}

catalog *catalog_open(const char *path, facet_error *err)
{
	/* A FIFO or device as the catalog would block SQLite or feed it forever. */
	int fd = fsio_open_regular(path, 0, "the catalog", err);
	if (fd < 0)
		return NULL;
	char head[16] = {0};
	ssize_t got = read(fd, head, sizeof head);
	close(fd);
	if (got < 16 || memcmp(head, "SQLite format 3", 16) != 0) {
		error_set(err, "%s: not a facet catalog (not an SQLite file; make one with 'facet build')", path);
		return NULL;
	}
	catalog *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	strmap_init(&c->meta);
	char *uri = uri_of(path);
	int rc = sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		error_set(err, "%s: cannot open the catalog: %s", path, c->db ? sqlite3_errmsg(c->db) : "out of memory");
		catalog_close(c);
		return NULL;
	}
	/* Walks touch pages all over the file: map it rather than copy pages in. */
	sqlite3_exec(c->db, "PRAGMA mmap_size=1073741824", NULL, NULL, NULL);
	if (!load_meta(c, err))
		goto bad;
	const char *format = strmap_get(&c->meta, "format");
	const char *version = strmap_get(&c->meta, "schema_version");
	if (!format || strcmp(format, "facet-catalog") != 0) {
		error_set(err, "%s: not a facet catalog (an SQLite file without facet's meta table)", path);
		goto bad;
	}
	if (!version || atoi(version) != CATALOG_SCHEMA_VERSION) {
		error_set(err, "%s: catalog schema version %s, this facet reads version %d; rebuild it with 'facet build'",
		          path, version ? version : "(none)", CATALOG_SCHEMA_VERSION);
		goto bad;
	}
	const char *fp = strmap_get(&c->meta, "fingerprint");
	const char *dg = strmap_get(&c->meta, "default_graph");
	const char *rf = strmap_get(&c->meta, "refinement");
	c->fingerprint = xstrdup(fp ? fp : "");
	c->default_graph = xstrdup(dg ? dg : "r0");
	c->refinement = rf && strcmp(rf, "built") == 0;

	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(c->db, "SELECT name FROM graphs WHERE present", -1, &st, NULL) != SQLITE_OK) {
		error_set(err, "%s: damaged catalog (%s)", path, sqlite3_errmsg(c->db));
		goto bad;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int i = cg_graph_parse((const char *)sqlite3_column_text(st, 0));
		if (i >= 0)
			c->graphs_present |= 1u << i;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		error_set(err, "%s: damaged catalog (%s)", path, sqlite3_errmsg(c->db));
		goto bad;
	}
	return c;
bad:
	catalog_close(c);
	return NULL;
}

void catalog_close(catalog *c)
{
	if (!c)
		return;
	sqlite3_close(c->db);
	for (size_t i = 0; i < c->meta.cap; i++)
		if (c->meta.slots[i].key) {
			free((char *)c->meta.slots[i].key);
			free(c->meta.slots[i].value);
		}
	strmap_free(&c->meta);
	free(c->path);
	free(c->fingerprint);
	free(c->default_graph);
	free(c);
}

sqlite3 *catalog_db(const catalog *c) { return c->db; }
const char *catalog_path(const catalog *c) { return c->path; }
const char *catalog_fingerprint_of(const catalog *c) { return c->fingerprint; }
const char *catalog_meta(const catalog *c, const char *key) { return strmap_get(&c->meta, key); }
bool catalog_has_graph(const catalog *c, int i) { return i >= 0 && i < CG_N_GRAPHS && (c->graphs_present >> i) & 1; }
const char *catalog_default_graph(const catalog *c) { return c->default_graph; }
bool catalog_has_refinement(const catalog *c) { return c->refinement; }

sqlite3_stmt *catalog_prepare(const catalog *c, const char *sql, facet_error *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) == SQLITE_OK)
		return st;
	error_set(err, "%s: damaged catalog: a statement does not prepare (a changed catalog, or a bug in facet): %s; "
	          "SQL: %.160s", c->path, sqlite3_errmsg(c->db), sql);
	sqlite3_finalize(st);
	return NULL;
}

bool catalog_step(const catalog *c, sqlite3_stmt *st, bool *ok, facet_error *err)
{
	if (!st) {
		*ok = false;   /* catalog_prepare said why */
		return false;
	}
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return true;
	if (rc != SQLITE_DONE) {
		error_set(err, "%s: damaged catalog: reading it failed: %s", c->path, sqlite3_errmsg(c->db));
		*ok = false;
	}
	return false;
}

/* ---- fingerprint ------------------------------------------------------------------------ */

/* FNV-1a 64 over the inputs' bytes: not cryptographic, but it tells one
 * build's inputs from another's, which is all the overlay needs. Inputs
 * are checked to be regular files first: /dev/zero never ends, a FIFO
 * blocks. */
bool catalog_fingerprint(const char *const *inputs, unsigned n, unsigned tau, const char *oracle,
                         char out[17], facet_error *err)
{
	uint64_t h = HASH_FNV64_INIT;
	char buf[1 << 16];
	for (unsigned i = 0; i < n; i++) {
		int fd = fsio_open_regular(inputs[i], 0, "the input", err);
		if (fd < 0)
			return false;
		ssize_t got;
		while ((got = read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR))
			if (got > 0)
				h = hash_fnv64(h, buf, (size_t)got);
		int e = errno;
		close(fd);
		if (got < 0) {
			error_set(err, "%s: cannot read: %s", inputs[i], strerror(e));
			return false;
		}
		h = hash_fnv64(h, "\0input\0", 7);
	}
	char opts[128];
	int len = snprintf(opts, sizeof opts, "schema=%d tau=%u oracle=%s", CATALOG_SCHEMA_VERSION, tau,
	                   oracle ? oracle : "none");
	h = hash_fnv64(h, opts, (size_t)len);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return true;
}

bool catalog_is_file(const char *path)
{
	char head[16] = {0};
	FILE *f = fopen(path, "rb");
	bool yes = f && fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, "SQLite format 3", 16) == 0;
	if (f)
		fclose(f);
	return yes;
}
