/* observed.c — parse and merge observed-edges files; see observed.h.
 *
 * The reader is strict: the files are written by our own runtime, so any line
 * it would not write means a truncated, foreign or hand-edited file, and the
 * score of a graph against it would mean nothing. */
#include "trace/observed.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fsio.h"
#include "util/strmap.h"
#include "util/xalloc.h"

/* Parses a decimal unsigned integer covering all of s. */
static bool parse_u64(const char *s, uint64_t *out)
{
	if (!*s || *s < '0' || *s > '9')
		return false;
	uint64_t v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool parse_hex64(const char *s, uint64_t *out)
{
	if (!*s || strlen(s) > 16)
		return false;
	uint64_t v = 0;
	for (; *s; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
		if (d < 0)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return true;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes %XX escapes in place; false on a broken escape. */
static bool decode_name(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (*r != '%') {
			*w++ = *r;
			continue;
		}
		int hi = hexval(r[1]), lo = hi < 0 ? -1 : hexval(r[2]);
		if (lo < 0 || (hi == 0 && lo == 0))
			return false;
		*w++ = (char)(hi << 4 | lo);
		r += 2;
	}
	*w = 0;
	return w != s;
}

/* Splits line into at most max whitespace-separated fields; returns the count
 * (max + 1 when there are more). */
static unsigned split(char *line, char **f, unsigned max)
{
	unsigned n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return max + 1;
		f[n++] = t;
	}
	return n;
}

/* "name=value" with the expected name; the value or NULL. */
static const char *field(const char *f, const char *name)
{
	size_t n = strlen(name);
	return strncmp(f, name, n) == 0 && f[n] == '=' ? f + n + 1 : NULL;
}

static bool read_header(trace_observed *o, const char *path, unsigned long lineno, char **f, unsigned nf,
                        facet_error *err)
{
	const char *k, *s, *fn, *pid, *dr;
	uint64_t key, sites, fns, p, dropped;
	if (nf != 7 || strcmp(f[1], "1") != 0) {
		if (nf >= 2 && strcmp(f[1], "1") != 0)
			error_set(err, "%s:%lu: observed-edges format version %s, this facet reads version 1", path, lineno,
			          f[1]);
		else
			error_set(err, "%s:%lu: malformed header (want: facet-trace 1 key=HEX sites=N functions=N pid=N "
			               "dropped=N)", path, lineno);
		return false;
	}
	if (!(k = field(f[2], "key")) || !(s = field(f[3], "sites")) || !(fn = field(f[4], "functions")) ||
	    !(pid = field(f[5], "pid")) || !(dr = field(f[6], "dropped")) || !parse_hex64(k, &key) ||
	    !parse_u64(s, &sites) || !parse_u64(fn, &fns) || !parse_u64(pid, &p) || !parse_u64(dr, &dropped) ||
	    sites > UINT32_MAX || fns > UINT32_MAX) {
		error_set(err, "%s:%lu: malformed header (want: facet-trace 1 key=HEX sites=N functions=N pid=N "
		               "dropped=N)", path, lineno);
		return false;
	}
	if (!o->have_key) {
		o->have_key = true;
		o->key = key;
		o->n_sites = (unsigned)sites;
		o->n_functions = (unsigned)fns;
		o->key_file = xstrdup(path);
	} else if (o->key != key || o->n_sites != sites || o->n_functions != fns) {
		error_set(err, "%s:%lu: traced from another program (key %016" PRIx64 ", %" PRIu64 " sites) than %s "
		               "(key %016" PRIx64 ", %u sites)", path, lineno, key, sites, o->key_file, o->key,
		          o->n_sites);
		return false;
	}
	o->blocks++;
	if (__builtin_add_overflow(o->dropped, dropped, &o->dropped)) {
		error_set(err, "%s:%lu: dropped-hit counts overflow 64 bits", path, lineno);
		return false;
	}
	return true;
}

bool trace_observed_read(trace_observed *o, const char *path, facet_error *err)
{
	/* A FIFO or a device would block or never end. */
	int fd = fsio_open_regular(path, 0, "the trace", err);
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!in) {
		if (fd >= 0) {
			error_set(err, "%s: cannot read: %s", path, strerror(errno));
			close(fd);
		}
		return false;
	}
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	bool in_block = false, ok = true;
	ssize_t len;
	while (ok && (len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		if ((size_t)len != strlen(line)) {
			error_set(err, "%s:%lu: NUL byte in line (not an observed-edges file)", path, lineno);
			ok = false;
			break;
		}
		char *f[8];
		unsigned nf = split(line, f, 7);
		if (nf == 0 || f[0][0] == '#')
			continue;
		if (strcmp(f[0], "facet-trace") == 0) {
			ok = read_header(o, path, lineno, f, nf, err);
			in_block = ok;
			continue;
		}
		if (!in_block) {
			error_set(err, "%s:%lu: edge before any 'facet-trace' header (not an observed-edges file?)", path,
			          lineno);
			ok = false;
			break;
		}
		uint64_t site, count;
		if (nf != 3 || !parse_u64(f[0], &site) || !parse_u64(f[2], &count) || count == 0) {
			error_set(err, "%s:%lu: malformed edge (want: SITE FUNCTION COUNT, COUNT > 0)", path, lineno);
			ok = false;
			break;
		}
		if (site >= o->n_sites) {
			error_set(err, "%s:%lu: site %" PRIu64 " out of range (the program has %u sites)", path, lineno, site,
			          o->n_sites);
			ok = false;
			break;
		}
		bool unknown = strcmp(f[1], "?") == 0;
		if (!unknown && !decode_name(f[1])) {
			error_set(err, "%s:%lu: malformed function name '%s'", path, lineno, f[1]);
			ok = false;
			break;
		}
		if (o->n_edges == o->cap_edges) {
			o->cap_edges = o->cap_edges ? o->cap_edges * 2 : 256;
			o->edges = xrealloc(o->edges, o->cap_edges * sizeof *o->edges);
		}
		o->edges[o->n_edges++] = (trace_edge){(unsigned)site, unknown ? NULL : xstrdup(f[1]), count};
	}
	if (ok && ferror(in)) {
		error_set(err, "%s: read error: %s", path, strerror(errno));
		ok = false;
	}
	if (ok && lineno > 0 && !o->have_key) {
		error_set(err, "%s: no 'facet-trace' header (not an observed-edges file?)", path);
		ok = false;
	}
	free(line);
	fclose(in);
	return ok;
}

/* Unknown callees (NULL) sort after every name of their site. */
static int edge_cmp(const void *a, const void *b)
{
	const trace_edge *x = a, *y = b;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	if (!x->name || !y->name)
		return (x->name == NULL) - (y->name == NULL);
	return strcmp(x->name, y->name);
}

bool trace_observed_finish(trace_observed *o, facet_error *err)
{
	bool overflow = false;
	if (o->n_edges)
		qsort(o->edges, o->n_edges, sizeof *o->edges, edge_cmp);
	size_t w = 0;
	for (size_t r = 0; r < o->n_edges; r++) {
		trace_edge *e = &o->edges[r];
		if (w > 0 && edge_cmp(&o->edges[w - 1], e) == 0) {
			overflow |= __builtin_add_overflow(o->edges[w - 1].count, e->count, &o->edges[w - 1].count);
			free(e->name);
			continue;
		}
		o->edges[w++] = *e;
	}
	o->n_edges = w;
	/* Unknown-callee edges move out of the named list. */
	size_t named = 0;
	unsigned last_unknown_site = UINT32_MAX;
	for (size_t r = 0; r < o->n_edges; r++) {
		trace_edge e = o->edges[r];
		if (!e.name) {
			overflow |= __builtin_add_overflow(o->unknown_hits, e.count, &o->unknown_hits);
			if (e.site != last_unknown_site)
				o->unknown_sites++;
			last_unknown_site = e.site;
			continue;
		}
		overflow |= __builtin_add_overflow(o->hits, e.count, &o->hits);
		o->edges[named++] = e;
	}
	o->n_edges = named;
	o->sites = xcalloc(named + 1, sizeof *o->sites);
	o->site_first = xcalloc(named + 2, sizeof *o->site_first);
	unsigned ns = 0;
	for (size_t i = 0; i < named; i++)
		if (i == 0 || o->edges[i].site != o->edges[i - 1].site) {
			o->sites[ns] = o->edges[i].site;
			o->site_first[ns++] = i;
		}
	o->site_first[ns] = named;
	o->n_obs_sites = ns;
	if (overflow) {
		error_set(err, "%s: hit counts overflow 64 bits when summed (a corrupt or forged trace)",
		          o->key_file ? o->key_file : "the traces");
		return false;
	}
	return true;
}

bool trace_observed_check_program(const trace_observed *o, unsigned n_sites, const char *const *names,
                                  unsigned n_functions, const char *program, facet_error *err)
{
	if (!o->have_key)
		return true;
	if (o->n_sites != n_sites || o->n_functions != n_functions) {
		error_set(err, "%s: its header says sites=%u functions=%u, but %s has %u sites and %u functions",
		          o->key_file, o->n_sites, o->n_functions, program, n_sites, n_functions);
		return false;
	}
	strmap known;
	strmap_init(&known);
	for (unsigned i = 0; i < n_functions; i++)
		strmap_put(&known, names[i], (void *)names[i]);
	bool ok = true;
	for (size_t i = 0; i < o->n_edges && ok; i++)
		if (!strmap_has(&known, o->edges[i].name)) {
			error_set(err, "%s: site %u calls '%s', which is not a function of %s", o->key_file,
			          o->edges[i].site, o->edges[i].name, program);
			ok = false;
		}
	strmap_free(&known);
	return ok;
}

void trace_observed_free(trace_observed *o)
{
	for (size_t i = 0; i < o->n_edges; i++)
		free(o->edges[i].name);
	free(o->edges);
	free(o->sites);
	free(o->site_first);
	free(o->key_file);
	memset(o, 0, sizeof *o);
}
