/* manifest.c — records joined into the manifest, and the manifest read back. */
#include "capture/manifest.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "capture/hash.h"
#include "capture/record.h"
#include "util/strmap.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------ assembling */

typedef struct joined {
	const char *root;
	json_t *units;             /* id -> unit record */
	json_t *by_hash;           /* object hash -> unit record (the latest) */
	json_t *reloc;             /* output hash -> relocatable link record */
	json_t *rewrites;          /* rewritten object's hash -> rewrite output (capture/rewrite.h) */
	json_t *by_object;         /* object path -> unit record (the latest) */
	json_t *used;              /* id -> true: units some program uses */
} joined;

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static long long jtime(json_t *o)
{
	return json_integer_value(json_object_get(o, "time"));
}

static int by_time(const void *a, const void *b)
{
	long long x = jtime(*(json_t *const *)a), y = jtime(*(json_t *const *)b);
	return x < y ? -1 : x > y;
}

static bool under(const char *root, const char *path)
{
	size_t n = strlen(root);
	return path && strncmp(path, root, n) == 0 && (path[n] == '/' || n == 1);
}

static void add_ref(json_t *out, json_t *in, json_t *unit, const char *status, const char *reason)
{
	json_t *r = json_pack("{s:O, s:O, s:O, s:s}", "path", json_object_get(in, "path"), "member",
	                      json_object_get(in, "member") ? json_object_get(in, "member") : json_null(), "hash",
	                      json_object_get(in, "hash") ? json_object_get(in, "hash") : json_null(), "status", status);
	json_object_set_new(r, "unit", unit ? json_string(jstr(unit, "id")) : json_null());
	json_object_set_new(r, "reason", reason ? json_string(reason) : json_null());
	json_array_append_new(out, r);
}

/* One link input, resolved to its unit; a relocatable link's output stands
 * for that link's own inputs. */
static void expand(joined *j, json_t *in, json_t *out, int depth)
{
	const char *uid = jstr(in, "unit"), *hash = jstr(in, "hash");
	json_t *unit = uid ? json_object_get(j->units, uid) : NULL;
	if (!unit && hash)
		unit = json_object_get(j->by_hash, hash);
	/* objcopy or strip rewrote it after the compile: back to what it was made from */
	json_t *rw = NULL, *changed = NULL, *step;
	for (int n = 0; !unit && hash && n < 16 && (step = json_object_get(j->rewrites, hash)); n++) {
		rw = step;
		if (!changed && !json_is_true(json_object_get(rw, "symbols_same")))
			changed = rw;
		hash = jstr(rw, "from");
		unit = json_object_get(j->by_hash, hash);
	}
	if (unit && rw) {
		char why[600];
		json_object_set_new(j->used, jstr(unit, "id"), json_true());
		if (changed) {
			snprintf(why, sizeof why, "rewritten by %s after it was compiled, and the rewrite changed its global "
			         "symbols (definitions or strong references): its bitcode no longer describes it",
			         jstr(changed, "tool"));
			add_ref(out, in, unit, "missing", why);
		} else if (json_is_string(json_object_get(unit, "bitcode"))) {
			add_ref(out, in, unit, "bitcode", NULL);
		} else {
			add_ref(out, in, unit, "missing", jstr(unit, "missing"));
		}
		return;
	}
	json_t *reloc = !unit && hash ? json_object_get(j->reloc, hash) : NULL;
	if (reloc && depth < 16) {
		size_t i;
		json_t *sub;
		json_array_foreach(json_object_get(reloc, "inputs"), i, sub)
			expand(j, sub, out, depth + 1);
		return;
	}
	if (unit) {
		json_object_set_new(j->used, jstr(unit, "id"), json_true());
		if (json_is_string(json_object_get(unit, "bitcode")))
			add_ref(out, in, unit, "bitcode", NULL);
		else
			add_ref(out, in, unit, "missing", jstr(unit, "missing"));
	} else if (json_is_true(json_object_get(in, "gcc_lto"))) {
		add_ref(out, in, NULL, "missing",
		        "a gcc -flto object (GIMPLE only, no machine code) compiled outside the capture: facet reads "
		        "neither its code nor its symbols; rebuild it under facet capture (its bitcode is then "
		        "made from its source), or without -flto");
	} else if (!json_is_string(json_object_get(in, "member")) && jstr(in, "path") &&
	           json_object_get(j->by_object, jstr(in, "path"))) {
		add_ref(out, in, NULL, "missing",
		        "changed in place after it was compiled (its hash is not the one its compile under capture "
		        "recorded): rewritten by a tool capture does not follow (it follows objcopy and strip), or "
		        "compiled again outside the capture; its bitcode may not describe it");
	} else if (under(j->root, jstr(in, "path"))) {
		add_ref(out, in, NULL, "missing",
		        "no capture record for this object: compiled outside the capture, by a compiler called by "
		        "absolute path with the exec hook off (--no-exec-hook, or a static program running it: "
		        "run make CC=gcc), prebuilt, or changed after it was compiled");
	} else {
		add_ref(out, in, NULL, "external", NULL);
	}
}

/* A rewrite record's outputs into rewrites (hash -> output), the latest kept. */
static void add_rewrites(json_t *rewrites, json_t *r)
{
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(r, "outputs"), i, o) {
		const char *h = jstr(o, "hash");
		json_t *old = h ? json_object_get(rewrites, h) : NULL;
		if (!h || !jstr(o, "from") || (old && jtime(old) > jtime(r)))
			continue;
		json_t *e = json_deep_copy(o);
		json_object_set(e, "time", json_object_get(r, "time"));
		json_object_set_new(rewrites, h, e);
	}
}

static bool read_records(const char *dir, json_t *units, json_t *links, json_t *rewrites, facet_error *err)
{
	char rdir[4200];
	snprintf(rdir, sizeof rdir, "%s/records", dir);
	DIR *d = opendir(rdir);
	if (!d) {
		if (errno == ENOENT)
			return true;
		error_set(err, "%s: %s", rdir, strerror(errno));
		return false;
	}
	struct dirent *e;
	bool ok = true;
	while (ok && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		char path[4500];
		snprintf(path, sizeof path, "%s/%s", rdir, e->d_name);
		json_error_t je;
		json_t *r = json_load_file(path, 0, &je);
		const char *kind = r ? jstr(r, "kind") : NULL;
		if (!r || !kind || !json_is_integer(json_object_get(r, "time"))) {
			error_set(err, "%s: not a capture record (%s)", path, r ? "no kind or time" : je.text);
			ok = false;
		} else if (strcmp(kind, "unit") == 0 && jstr(r, "id")) {
			json_object_set(units, jstr(r, "id"), r);
		} else if (strcmp(kind, "rewrite") == 0 && json_is_array(json_object_get(r, "outputs"))) {
			add_rewrites(rewrites, r);
		} else if (strcmp(kind, "link") == 0 && jstr(r, "output") && jstr(r, "output_hash") &&
		           json_is_array(json_object_get(r, "inputs"))) {
			json_array_append(links, r);
		} else {
			error_set(err, "%s: malformed %s record", path, kind);
			ok = false;
		}
		json_decref(r);
	}
	closedir(d);
	return ok;
}

bool capture_probe_output(const char *path)
{
	/* CMake links its compiler identification (CMakeFiles/VERSION/CompilerIdC/a.out,
	 * which it keeps) and its try_compile checks (CMakeFiles/CMakeScratch/...,
	 * CMakeFiles/CMakeTmp/...) under CMakeFiles/, where it never puts a
	 * target's executable or library (only their objects). */
	for (const char *p = path; (p = strstr(p, "CMakeFiles/")); p++)
		if (p == path || p[-1] == '/')
			return true;
	return false;
}

static bool file_is(const char *path, const char *hash)
{
	char h[CAPTURE_HASH_HEX];
	facet_error e = {0};
	return hash && capture_hash_file(path, h, &e) && strcmp(h, hash) == 0;
}

static json_t *program_json(joined *j, json_t *link, json_t *prog_by_hash)
{
	json_t *inputs = json_array(), *shared = json_array();
	size_t i;
	json_t *in;
	json_array_foreach(json_object_get(link, "inputs"), i, in)
		expand(j, in, inputs, 0);
	json_array_foreach(json_object_get(link, "shared"), i, in) {
		const char *prog = jstr(in, "hash") ? jstr(json_object_get(prog_by_hash, jstr(in, "hash")), "output") : NULL;
		json_array_append_new(shared, json_pack("{s:O, s:O, s:o}", "path", json_object_get(in, "path"), "hash",
		                                        json_object_get(in, "hash"),
		                                        "program", prog ? json_string(prog) : json_null()));
	}
	json_t *p = json_pack("{s:O, s:O, s:O, s:O, s:O, s:o, s:o, s:O}", "path", json_object_get(link, "output"),
	                      "hash", json_object_get(link, "output_hash"), "type", json_object_get(link, "type"), "cwd",
	                      json_object_get(link, "cwd"), "arguments", json_object_get(link, "arguments"), "inputs",
	                      inputs, "shared", shared, "notes",
	                      json_object_get(link, "notes") ? json_object_get(link, "notes") : json_null());
	json_t *entry = json_object_get(link, "entry");
	json_object_set_new(p, "entry", json_is_string(entry) ? json_incref(entry) : json_null());
	json_object_set_new(p, "linker_script", json_boolean(json_is_true(json_object_get(link, "linker_script"))));
	return p;
}

bool capture_assemble(const char *dir, const char *root, facet_error *err)
{
	joined j = {.root = root, .units = json_object(), .by_hash = json_object(), .reloc = json_object(),
	            .rewrites = json_object(), .by_object = json_object(), .used = json_object()};
	json_t *links = json_array(), *latest = json_object(), *prog_by_hash = json_object();
	bool ok = read_records(dir, j.units, links, j.rewrites, err);
	const char *key;
	json_t *v;
	json_object_foreach(j.units, key, v) {
		const char *h = jstr(v, "object_hash");
		json_t *old = h ? json_object_get(j.by_hash, h) : NULL;
		if (h && (!old || jtime(old) <= jtime(v)))
			json_object_set(j.by_hash, h, v);
		const char *o = jstr(v, "object");
		old = o ? json_object_get(j.by_object, o) : NULL;
		if (o && (!old || jtime(old) <= jtime(v)))
			json_object_set(j.by_object, o, v);
	}
	size_t nl = json_array_size(links);
	json_t **sorted = xcalloc(nl + 1, sizeof *sorted);
	for (size_t i = 0; i < nl; i++)
		sorted[i] = json_array_get(links, i);
	qsort(sorted, nl, sizeof *sorted, by_time);
	for (size_t i = 0; i < nl; i++) {
		if (jstr(sorted[i], "type") && strcmp(jstr(sorted[i], "type"), "relocatable") == 0)
			json_object_set(j.reloc, jstr(sorted[i], "output_hash"), sorted[i]);
		else
			json_object_set(latest, jstr(sorted[i], "output"), sorted[i]);
	}
	/* A program is a link whose output is still on disk as it was linked
	 * (configure's conftest programs are deleted right away) and not a
	 * build system's probe. */
	json_t *programs = json_array();
	json_object_foreach(latest, key, v) {
		if (!capture_probe_output(key) && file_is(key, jstr(v, "output_hash")))
			json_object_set(prog_by_hash, jstr(v, "output_hash"), v);
	}
	json_object_foreach(latest, key, v) {
		if (json_object_get(prog_by_hash, jstr(v, "output_hash")) == v)
			json_array_append_new(programs, program_json(&j, v, prog_by_hash));
	}
	json_t *units = json_array();
	json_object_foreach(j.units, key, v) {
		struct stat st;
		const char *obj = jstr(v, "object");
		if (json_object_get(j.used, key) || (obj && stat(obj, &st) == 0))
			json_array_append(units, v);
	}
	json_t *m = json_pack("{s:s, s:i, s:s, s:s, s:o, s:o}", "format", CAPTURE_FORMAT, "version", CAPTURE_VERSION,
	                      "root", root, "directory", dir, "units", units, "programs", programs);
	char path[4200];
	snprintf(path, sizeof path, "%s/manifest.json", dir);
	if (ok)
		ok = capture_json_write_atomic(path, m, err);
	json_decref(m);
	free(sorted);
	json_decref(links);
	json_decref(latest);
	json_decref(prog_by_hash);
	json_decref(j.units);
	json_decref(j.by_hash);
	json_decref(j.reloc);
	json_decref(j.rewrites);
	json_decref(j.by_object);
	json_decref(j.used);
	return ok;
}

/* ------------------------------------------------------------ reading back */

typedef struct reader {
	const char *file;
	facet_error *err;
	bool ok;
} reader;

/* The first failure names the file and the place; later ones add nothing. */
static void fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(reader *r, const char *fmt, ...)
{
	if (r->ok) {
		char what[900];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof what, fmt, ap);
		va_end(ap);
		error_set(r->err, "%s: %s", r->file, what);
	}
	r->ok = false;
}

/* where[i] must be an object. */
static bool want_object(reader *r, json_t *o, const char *where, size_t i)
{
	if (json_is_object(o))
		return true;
	fail(r, "%s[%zu]: expected an object", where, i);
	return false;
}

/* A string member (NULL allowed when !required); a wrong type fails naming
 * the file and the place. */
static char *get_str(reader *r, json_t *o, const char *where, size_t idx, const char *key, bool required)
{
	json_t *v = json_object_get(o, key);
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if ((!v || json_is_null(v)) && !required)
		return NULL;
	fail(r, "%s[%zu].%s: %s", where, idx, key, v ? "expected a string" : "missing");
	return NULL;
}

/* prelink_arguments: absent or null for a capture made before them (its
 * bitcode optimized in the build); else the command's words. */
static void read_prelink(reader *r, json_t *o, size_t i, capture_unit *u)
{
	json_t *a = json_object_get(o, "prelink_arguments");
	if (!a || json_is_null(a))
		return;
	size_t k;
	json_t *w;
	bool fine = json_is_array(a) && json_array_size(a) > 0;
	json_array_foreach(a, k, w)
		fine = fine && json_is_string(w);
	if (!fine) {
		if (r->ok)
			error_set(r->err, "%s: units[%zu].prelink_arguments: expected a non-empty array of strings", r->file, i);
		r->ok = false;
		return;
	}
	json_array_foreach(a, k, w)
		VEC_PUSH(&u->prelink, xstrdup(json_string_value(w)));
}

static void read_unit(reader *r, json_t *o, size_t i, capture_unit *u, const char *dir)
{
	if (!want_object(r, o, "units", i))
		return;
	u->id = get_str(r, o, "units", i, "id", true);
	u->source = get_str(r, o, "units", i, "source", true);
	u->language = get_str(r, o, "units", i, "language", false);
	u->object = get_str(r, o, "units", i, "object", false);
	u->object_hash = get_str(r, o, "units", i, "object_hash", false);
	char *bc = get_str(r, o, "units", i, "bitcode", false);
	u->bitcode_hash = get_str(r, o, "units", i, "bitcode_hash", bc != NULL);
	u->missing = get_str(r, o, "units", i, "missing", false);
	if (bc) {
		if (bc[0] == '/' || strstr(bc, ".."))
			fail(r, "units[%zu].bitcode: '%s' is not a path inside the capture directory", i, bc);
		size_t n = strlen(dir) + strlen(bc) + 2;
		u->bitcode = xmalloc(n);
		snprintf(u->bitcode, n, "%s/%s", dir, bc);
		free(bc);
	}
	json_t *dbg = json_object_get(o, "debug_info");
	if (!json_is_boolean(dbg))
		fail(r, "units[%zu].debug_info: expected true or false", i);
	u->debug_info = json_is_true(dbg);
	size_t k;
	json_t *f;
	json_array_foreach(json_object_get(o, "dropped_flags"), k, f)
		if (json_is_string(f))
			VEC_PUSH(&u->dropped, xstrdup(json_string_value(f)));
	u->cwd = get_str(r, o, "units", i, "cwd", false);
	read_prelink(r, o, i, u);
}

static void read_ref(reader *r, json_t *o, size_t pi, size_t i, const strmap *ids, capture_ref *ref)
{
	char where[64];
	snprintf(where, sizeof where, "programs[%zu].inputs", pi);
	if (!want_object(r, o, where, i))
		return;
	ref->path = get_str(r, o, where, i, "path", true);
	ref->member = get_str(r, o, where, i, "member", false);
	ref->hash = get_str(r, o, where, i, "hash", false);
	ref->reason = get_str(r, o, where, i, "reason", false);
	char *status = get_str(r, o, where, i, "status", true);
	char *unit = get_str(r, o, where, i, "unit", false);
	ref->unit = -1;
	if (unit) {
		void *idx = strmap_get(ids, unit);
		if (!idx)
			fail(r, "%s[%zu].unit: no unit '%s' in the manifest", where, i, unit);
		ref->unit = idx ? (int)((size_t)idx - 1) : -1;
	}
	if (status && !strcmp(status, "bitcode"))
		ref->status = CAPTURE_REF_BITCODE;
	else if (status && !strcmp(status, "missing"))
		ref->status = CAPTURE_REF_MISSING;
	else if (status && !strcmp(status, "external"))
		ref->status = CAPTURE_REF_EXTERNAL;
	else if (status)
		fail(r, "%s[%zu].status: '%s' is not bitcode, missing or external", where, i, status);
	if (ref->status == CAPTURE_REF_BITCODE && ref->unit < 0)
		fail(r, "%s[%zu]: status bitcode without a unit", where, i);
	free(status);
	free(unit);
}

static void read_program(reader *r, json_t *o, size_t i, const strmap *ids, capture_program *p)
{
	if (!want_object(r, o, "programs", i))
		return;
	p->path = get_str(r, o, "programs", i, "path", true);
	p->hash = get_str(r, o, "programs", i, "hash", true);
	p->type = get_str(r, o, "programs", i, "type", true);
	p->cwd = get_str(r, o, "programs", i, "cwd", false);
	p->entry = get_str(r, o, "programs", i, "entry", false);
	json_t *script = json_object_get(o, "linker_script");
	if (script && !json_is_boolean(script))
		fail(r, "programs[%zu].linker_script: expected true or false", i);
	p->linker_script = json_is_true(script);
	json_t *inputs = json_object_get(o, "inputs"), *shared = json_object_get(o, "shared");
	if (!json_is_array(inputs) || !json_is_array(shared)) {
		fail(r, "programs[%zu]: inputs and shared must be arrays", i);
		return;
	}
	size_t k;
	json_t *v;
	json_array_foreach(inputs, k, v) {
		capture_ref ref = {0};
		read_ref(r, v, i, k, ids, &ref);
		VEC_PUSH(&p->inputs, ref);
	}
	json_array_foreach(shared, k, v) {
		capture_shared s = {.program = -1};
		s.path = get_str(r, v, "shared", k, "path", true);
		s.hash = get_str(r, v, "shared", k, "hash", false);
		char *prog = get_str(r, v, "shared", k, "program", false);
		s.program = prog ? -2 : -1;   /* linked to its index once all programs are read */
		free(prog);
		VEC_PUSH(&p->shared, s);
	}
}

capture_manifest *capture_manifest_load(const char *dir, facet_error *err)
{
	capture_manifest *m = xcalloc(1, sizeof *m);
	size_t n = strlen(dir) + 16;
	m->file = xmalloc(n);
	snprintf(m->file, n, "%s/manifest.json", dir);
	m->dir = xstrdup(dir);
	json_error_t je;
	struct stat st;
	bool present = stat(m->file, &st) == 0;
	json_t *root = present ? json_load_file(m->file, 0, &je) : NULL;
	reader r = {.file = m->file, .err = err, .ok = true};
	if (!root) {
		if (!present)
			error_set(err, "%s: no capture here (run 'facet capture -o %s -- BUILD...' first)", m->file, dir);
		else
			error_set(err, "%s: not valid JSON: %s (line %d)", m->file, je.text, je.line);
		capture_manifest_free(m);
		return NULL;
	}
	const char *fmt = jstr(root, "format");
	json_t *units = json_object_get(root, "units"), *programs = json_object_get(root, "programs");
	if (!fmt || strcmp(fmt, CAPTURE_FORMAT) != 0 || !json_is_array(units) || !json_is_array(programs) ||
	    !jstr(root, "root")) {
		error_set(err, "%s: not a facet capture manifest (format, root, units and programs expected)", m->file);
		r.ok = false;
	} else if (json_integer_value(json_object_get(root, "version")) != CAPTURE_VERSION) {
		error_set(err, "%s: manifest version %lld, this facet reads version %d", m->file,
		          (long long)json_integer_value(json_object_get(root, "version")), CAPTURE_VERSION);
		r.ok = false;
	}
	strmap ids;
	strmap_init(&ids);
	if (r.ok) {
		m->root = xstrdup(jstr(root, "root"));
		size_t i;
		json_t *v;
		json_array_foreach(units, i, v) {
			capture_unit u = {0};
			read_unit(&r, v, i, &u, dir);
			VEC_PUSH(&m->units, u);
		}
		for (size_t k = 0; r.ok && k < m->units.len; k++)
			strmap_put(&ids, m->units.items[k].id, (void *)(k + 1));
		json_array_foreach(programs, i, v) {
			if (!r.ok)
				break;
			capture_program p = {0};
			read_program(&r, v, i, &ids, &p);
			VEC_PUSH(&m->programs, p);
		}
	}
	/* Shared libraries of this build point at their own program entry. */
	for (size_t i = 0; r.ok && i < m->programs.len; i++)
		for (size_t k = 0; k < m->programs.items[i].shared.len; k++) {
			capture_shared *s = &m->programs.items[i].shared.items[k];
			if (s->program != -2)
				continue;
			s->program = -1;
			for (size_t q = 0; s->hash && q < m->programs.len; q++)
				if (strcmp(m->programs.items[q].hash, s->hash) == 0)
					s->program = (int)q;
		}
	strmap_free(&ids);
	json_decref(root);
	if (!r.ok) {
		capture_manifest_free(m);
		return NULL;
	}
	return m;
}

void capture_manifest_free(capture_manifest *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->units.len; i++) {
		capture_unit *u = &m->units.items[i];
		free(u->id), free(u->source), free(u->language), free(u->object), free(u->object_hash);
		free(u->bitcode), free(u->bitcode_hash), free(u->missing);
		for (size_t k = 0; k < u->dropped.len; k++)
			free(u->dropped.items[k]);
		VEC_FREE(&u->dropped);
		for (size_t k = 0; k < u->prelink.len; k++)
			free(u->prelink.items[k]);
		VEC_FREE(&u->prelink);
		free(u->cwd);
	}
	for (size_t i = 0; i < m->programs.len; i++) {
		capture_program *p = &m->programs.items[i];
		free(p->path), free(p->hash), free(p->type), free(p->cwd), free(p->entry);
		for (size_t k = 0; k < p->inputs.len; k++) {
			free(p->inputs.items[k].path), free(p->inputs.items[k].member);
			free(p->inputs.items[k].hash), free(p->inputs.items[k].reason);
		}
		for (size_t k = 0; k < p->shared.len; k++)
			free(p->shared.items[k].path), free(p->shared.items[k].hash);
		VEC_FREE(&p->inputs);
		VEC_FREE(&p->shared);
	}
	VEC_FREE(&m->units);
	VEC_FREE(&m->programs);
	free(m->file);
	free(m->dir);
	free(m->root);
	free(m);
}

void capture_program_counts(const capture_program *p, unsigned *with_bitcode, unsigned *missing, unsigned *external)
{
	*with_bitcode = *missing = *external = 0;
	for (size_t i = 0; i < p->inputs.len; i++)
		switch (p->inputs.items[i].status) {
		case CAPTURE_REF_BITCODE: ++*with_bitcode; break;
		case CAPTURE_REF_MISSING: ++*missing; break;
		case CAPTURE_REF_EXTERNAL: ++*external; break;
		}
}

void capture_manifest_print_text(FILE *out, const capture_manifest *m)
{
	fprintf(out, "%-60s %-11s %6s %8s\n", "program", "type", "units", "missing");
	for (size_t i = 0; i < m->programs.len; i++) {
		const capture_program *p = &m->programs.items[i];
		unsigned bc, miss, ext;
		capture_program_counts(p, &bc, &miss, &ext);
		fprintf(out, "%-60s %-11s %6u %8u\n", p->path, p->type, bc + miss, miss);
		for (size_t k = 0; k < p->inputs.len; k++) {
			const capture_ref *r = &p->inputs.items[k];
			if (r->status != CAPTURE_REF_MISSING)
				continue;
			fprintf(out, "    no bitcode: %s%s%s%s%s: %s\n", r->path, r->member ? "(" : "", r->member ? r->member : "",
			       r->member ? ")" : "", r->unit >= 0 ? "" : "", r->reason ? r->reason : "?");
		}
		for (size_t k = 0; k < p->shared.len; k++)
			if (p->shared.items[k].program >= 0)
				fprintf(out, "    shared library of this build: %s\n", p->shared.items[k].path);
	}
}

void capture_manifest_print_json(FILE *out, const capture_manifest *m)
{
	json_t *progs = json_array();
	for (size_t i = 0; i < m->programs.len; i++) {
		const capture_program *p = &m->programs.items[i];
		unsigned bc, miss, ext;
		capture_program_counts(p, &bc, &miss, &ext);
		json_t *missing = json_array(), *shared = json_array();
		for (size_t k = 0; k < p->inputs.len; k++) {
			const capture_ref *r = &p->inputs.items[k];
			if (r->status != CAPTURE_REF_MISSING)
				continue;
			json_t *o = json_pack("{s:s, s:s}", "path", r->path, "reason", r->reason ? r->reason : "");
			json_object_set_new(o, "member", r->member ? json_string(r->member) : json_null());
			json_object_set_new(o, "source", r->unit >= 0 ? json_string(m->units.items[r->unit].source) : json_null());
			json_array_append_new(missing, o);
		}
		for (size_t k = 0; k < p->shared.len; k++)
			if (p->shared.items[k].program >= 0)
				json_array_append_new(shared, json_string(p->shared.items[k].path));
		json_array_append_new(progs, json_pack("{s:s, s:s, s:i, s:i, s:i, s:o, s:o}", "path", p->path, "type",
		                                       p->type, "units", (int)(bc + miss), "missing", (int)miss, "external",
		                                       (int)ext, "missing_units", missing, "shared", shared));
	}
	json_t *o = json_pack("{s:s, s:o}", "directory", m->dir, "programs", progs);
	char *s = json_dumps(o, JSON_INDENT(2));
	fputs(s, out);
	fputc('\n', out);
	free(s);
	json_decref(o);
}
