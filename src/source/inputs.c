/* inputs.c — which files to parse, and with which arguments.
 *
 * Without a compile_commands.json a tree has no record of its include
 * path, so it is guessed: every `#include "X"` or `#include <X>` of every
 * file is looked up among the tree's headers, and the directory that makes
 * X resolve (D for D/X) becomes a -I. A name no header of the tree
 * matches is a system header or a missing one; either way the unit is
 * still parsed. A directory that holds a copy of a standard header (a C99
 * shim for a compiler that lacks one: jemalloc's msvc_compat/C99/stdint.h)
 * is searched after the system's headers (-idirafter), as every build on a
 * system that has the header does: the tree's other headers there still
 * resolve, and the shim no longer replaces the system's stdint.h in every
 * unit. With a compile_commands.json each unit gets its own
 * recorded arguments (the compiler, -c, -o and the file itself removed),
 * run from its recorded directory. */
#include "source/inputs.h"

#include <stdint.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "util/fsio.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#define MAX_SOURCE_BYTES (64u << 20)   /* a generated C file can be large; none is this large */

typedef VEC(char *) str_vec;

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static char *copy_prefix(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

static bool is_template(const char *path)
{
	size_t hl;
	return standin_header_of(path, &hl) != NULL;
}

/* Every .c and .h under dir, and the header templates (standin.h), not
 * through symbolic links to directories, not into hidden directories. */
static void walk_dir(const char *dir, str_vec *c_files, str_vec *h_files, str_vec *t_files, int depth)
{
	if (depth > 64)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	str_vec names = {0};
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		if (e->d_name[0] != '.')
			VEC_PUSH(&names, xstrdup(e->d_name));
	closedir(d);
	for (size_t i = 0; i < names.len; i++) {
		size_t n = strlen(dir) + strlen(names.items[i]) + 2;
		char *path = xmalloc(n);
		snprintf(path, n, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", names.items[i]);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk_dir(path, c_files, h_files, t_files, depth + 1);
			free(path);
		} else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && has_suffix(path, ".c")) {
			VEC_PUSH(c_files, path);
		} else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && has_suffix(path, ".h")) {
			VEC_PUSH(h_files, path);
		} else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && is_template(path)) {
			VEC_PUSH(t_files, path);
		} else {
			free(path);
		}
		free(names.items[i]);
	}
	VEC_FREE(&names);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A C file is text: a NUL byte in it means a binary file with a .c name. */
static bool check_text(const char *path, char **text, facet_error *err)
{
	size_t len;
	if (!fsio_read_file(path, MAX_SOURCE_BYTES, "the C file", text, &len, err))
		return false;
	if (memchr(*text, 0, len)) {
		error_set(err, "%s: not a C source file (it holds binary data)", path);
		free(*text);
		*text = NULL;
		return false;
	}
	return true;
}

static bool collect_paths(const source_options *o, str_vec *c_files, str_vec *h_files, str_vec *t_files,
                          facet_error *err)
{
	for (unsigned i = 0; i < o->n_paths; i++) {
		const char *p = o->paths[i];
		struct stat st;
		if (stat(p, &st) != 0) {
			error_set(err, "%s: no such file or directory", p);
			return false;
		}
		if (S_ISDIR(st.st_mode))
			walk_dir(p, c_files, h_files, t_files, 0);
		else if (S_ISREG(st.st_mode) && has_suffix(p, ".c"))
			VEC_PUSH(c_files, xstrdup(p));
		else if (S_ISREG(st.st_mode) && has_suffix(p, ".h"))
			VEC_PUSH(h_files, xstrdup(p));
		else {
			error_set(err, "%s: not a C file or a directory (facet source reads .c and .h files)", p);
			return false;
		}
	}
	if (c_files->len == 0) {
		error_set(err, "%s: no .c file there", o->n_paths ? o->paths[0] : "(no path)");
		return false;
	}
	qsort(c_files->items, c_files->len, sizeof *c_files->items, str_cmp);
	if (h_files->len > 1)   /* a tree without headers has no array at all */
		qsort(h_files->items, h_files->len, sizeof *h_files->items, str_cmp);
	return true;
}

/* ---- the include path, guessed ----------------------------------------------------------- */

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The tree's headers grouped by base name: by_base maps a base name to
 * its run [start, start + n) of sorted. */
struct run { size_t start, n; };
typedef struct header_index {
	const char **sorted;       /* header paths ordered by base name */
	strmap by_base;            /* base name -> run* */
	VEC(struct run *) runs;
} header_index;

static int base_cmp(const void *a, const void *b)
{
	int c = strcmp(base_name(*(const char *const *)a), base_name(*(const char *const *)b));
	return c ? c : strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void index_headers(header_index *hx, const str_vec *h_files)
{
	hx->sorted = xmalloc((h_files->len + 1) * sizeof *hx->sorted);
	for (size_t i = 0; i < h_files->len; i++)
		hx->sorted[i] = h_files->items[i];
	if (h_files->len > 1)
		qsort(hx->sorted, h_files->len, sizeof *hx->sorted, base_cmp);
	strmap_init(&hx->by_base);
	memset(&hx->runs, 0, sizeof hx->runs);
	for (size_t i = 0; i < h_files->len;) {
		size_t j = i;
		while (j < h_files->len && strcmp(base_name(hx->sorted[j]), base_name(hx->sorted[i])) == 0)
			j++;
		struct run *r = xmalloc(sizeof *r);
		r->start = i;
		r->n = j - i;
		VEC_PUSH(&hx->runs, r);
		strmap_put(&hx->by_base, base_name(hx->sorted[i]), r);
		i = j;
	}
}

static void index_free(header_index *hx)
{
	for (size_t i = 0; i < hx->runs.len; i++)
		free(hx->runs.items[i]);
	VEC_FREE(&hx->runs);
	strmap_free(&hx->by_base);
	free(hx->sorted);
}

/* Headers of the C standard library and the POSIX ones trees most often
 * carry a replacement of: a system here has its own. */
static const char *const standard_headers[] = {
	"assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
	"limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
	"stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h",
	"threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h", "strings.h", "unistd.h", "dirent.h",
	"fcntl.h", "pthread.h", "sys/types.h", "sys/stat.h", "sys/time.h",
};

/* A directory that holds a copy of a standard header. */
static bool holds_standard_header(const char *dir)
{
	char path[4200];
	struct stat st;
	for (size_t i = 0; i < sizeof standard_headers / sizeof *standard_headers; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, standard_headers[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

/* The directory D that makes "name" resolve to header h (h = D/name), added
 * once; false when h is not D/name. */
static bool add_dir(const char *h, const char *name, strmap *dirs, str_vec *order)
{
	size_t hl = strlen(h), nl = strlen(name);
	if (hl <= nl || h[hl - nl - 1] != '/' || strcmp(h + hl - nl, name) != 0)
		return false;
	char *dir = xstrdup(h);
	dir[hl - nl - 1] = 0;
	if (strmap_has(dirs, dir)) {
		free(dir);
		return true;
	}
	strmap_put(dirs, dir, dir);
	VEC_PUSH(order, dir);
	return true;
}

/* The included name on a line `# include "X"` or `<X>`, into name; false otherwise. */
static bool include_line(const char *p, char *name, size_t size)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '#')
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "include", 7) != 0)
		return false;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
	if (!close)
		return false;
	size_t n = 0;
	for (p++; p[n] && p[n] != close && p[n] != '\n'; n++)
		;
	if (p[n] != close || n == 0 || n >= size)
		return false;
	memcpy(name, p, n);
	name[n] = 0;
	return true;
}

/* The value of an included name in guess_includes' map: some header of the
 * tree resolves it (else NULL: missing), or stand_ins has stood it in. */
static char found_in_tree, stood_in;

/* Every directory that makes some include of some file resolve, in the
 * order first needed (the files are sorted, so the order is stable); every
 * included name into `included`, found in the tree or not. */
static void guess_includes(const str_vec *c_files, const str_vec *h_files, str_vec *dirs_out, strmap *included,
                           src_switches *sw)
{
	header_index hx;
	index_headers(&hx, h_files);
	strmap dirs;
	strmap_init(&dirs);
	str_vec order = {0};
	for (size_t f = 0; f < c_files->len + h_files->len; f++) {
		const char *path = f < c_files->len ? c_files->items[f] : h_files->items[f - c_files->len];
		char *text = NULL;
		size_t len;
		facet_error e = {0};
		if (!fsio_read_file(path, MAX_SOURCE_BYTES, "a C file", &text, &len, &e))
			continue;   /* units are checked when they are parsed; headers are only hints */
		struct stat st;
		if (sw && stat(path, &st) == 0)
			switches_scan(sw, text, len, false, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
		char name[1024];
		for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			if (!include_line(l, name, sizeof name))
				continue;
			struct run *r = strmap_get(&hx.by_base, base_name(name));
			bool found = false;
			for (size_t k = 0; r && k < r->n; k++)
				found |= add_dir(hx.sorted[r->start + k], name, &dirs, &order);
			if (!strmap_has(included, name))
				strmap_put(included, xstrdup(name), found ? &found_in_tree : NULL);
		}
		free(text);
	}
	*dirs_out = order;
	strmap_free(&dirs);
	index_free(&hx);
}

/* Moves dir (in order) before the first directory that holds its own
 * `name`: the stand-in, not another platform's copy, is what the build uses. */
static void put_before_copies(str_vec *order, const char *dir, const char *name)
{
	size_t at = order->len;
	for (size_t k = 0; k < order->len && at == order->len; k++)
		if (strcmp(order->items[k], dir) == 0)
			at = k;
	for (size_t k = 0; k < at; k++) {
		char p[4200];
		struct stat st;
		snprintf(p, sizeof p, "%s/%s", order->items[k], name);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		char *d = order->items[at];
		memmove(order->items + k + 1, order->items + k, (at - k) * sizeof *order->items);
		order->items[k] = d;
		return;
	}
}

/* A header some file includes whose template D/X.h.in (the first in sorted
 * order) is in the tree and D/X.h is not: the build generates D/X.h, so it
 * is stood in there, whose directory goes on the include path (the
 * directory that makes the name resolve there). That holds whether the
 * name is missing or another directory has a header of that name (a
 * checked-in config.h for another platform: win32/config.h): then the
 * stand-in's directory is searched before that one. */
static void stand_ins(const str_vec *t_files, strmap *included, bool host, src_inputs *in, strmap *dirs,
                      str_vec *order)
{
	for (size_t t = 0; t < t_files->len; t++) {
		size_t hl;
		const char *tp = t_files->items[t];
		if (!standin_header_of(tp, &hl))
			continue;
		char *header = copy_prefix(tp, hl);
		struct stat st;
		char *path = NULL;
		for (size_t i = 0; i < included->cap && !path && stat(header, &st) != 0; i++) {
			const char *name = included->slots[i].key;
			size_t nl = name ? strlen(name) : 0;
			if (!name || included->slots[i].value == &stood_in || hl <= nl || header[hl - nl - 1] != '/' ||
			    strcmp(header + hl - nl, name) != 0)
				continue;
			bool shadowed = included->slots[i].value == &found_in_tree;
			path = xstrdup(header);   /* spelled as the include directory is: libclang matches the string */
			included->slots[i].value = &stood_in;   /* one template per name */
			src_standin si = {.path = path, .template_path = xstrdup(tp), .shadows = shadowed};
			facet_error e = {0};
			if (!standin_from_template(tp, host, &si.text, &si.len, &si.counts, &e)) {
				free(si.path);
				free(si.template_path);
				continue;   /* an unreadable template: the header stays as without one */
			}
			VEC_PUSH(&in->standins, si);
			add_dir(path, name, dirs, order);
			if (shadowed) {
				char *dir = copy_prefix(header, hl - nl - 1);
				put_before_copies(order, dir, name);
				free(dir);
			}
		}
		free(header);
	}
}

/* ---- the arguments -------------------------------------------------------------------------- */

/* Errors libclang's clang raises by default for old C that still parses
 * into a usable tree: warnings here, so error counts mean what is lost. */
static const char *const lenient[] = {
	"-ferror-limit=0", "-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
	"-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types",
	"-Wno-error=incompatible-pointer-types", "-Wno-error=return-type",
};

static void push_arg(str_vec *v, const char *a)
{
	VEC_PUSH(v, xstrdup(a));
}

static void common_args(const source_options *o, str_vec *v)
{
	for (size_t i = 0; i < sizeof lenient / sizeof *lenient; i++)
		push_arg(v, lenient[i]);
	for (unsigned i = 0; i < o->n_includes; i++) {
		push_arg(v, "-I");
		push_arg(v, o->includes[i]);
	}
	for (unsigned i = 0; i < o->n_defines; i++) {
		size_t n = strlen(o->defines[i]) + 3;
		char *d = xmalloc(n);
		snprintf(d, n, "-D%s", o->defines[i]);
		VEC_PUSH(v, d);
	}
}

static void add_unit(src_inputs *in, char *file, str_vec *args)
{
	src_unit_cmd u = {file, args->items, (unsigned)args->len};
	VEC_PUSH(&in->units, u);
}

/* Splits a shell command line: blanks separate words, quotes group, a
 * backslash escapes (as compile_commands.json's "command" is written). */
static void shell_split(const char *s, str_vec *out)
{
	size_t n = strlen(s);
	char *word = xmalloc(n + 1);
	size_t len = 0;
	bool in_word = false;
	char quote = 0;
	for (const char *p = s; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else if (*p == '\\' && quote == '"' && p[1])
				word[len++] = *++p;
			else
				word[len++] = *p;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			in_word = true;
		} else if (*p == '\\' && p[1]) {
			word[len++] = *++p;
			in_word = true;
		} else if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (in_word) {
				word[len] = 0;
				push_arg(out, word);
				len = 0;
				in_word = false;
			}
		} else {
			word[len++] = *p;
			in_word = true;
		}
	}
	if (in_word) {
		word[len] = 0;
		push_arg(out, word);
	}
	free(word);
}

static void free_strs(str_vec *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->items[i]);
	VEC_FREE(v);
}

/* One entry's arguments: the recorded ones without the compiler, -c, -o X,
 * dependency outputs and the file, run from the recorded directory. */
static void entry_args(const source_options *o, const char *dir, const char *file, str_vec *words, str_vec *args)
{
	push_arg(args, "-working-directory");
	push_arg(args, dir);
	for (size_t i = 1; i < words->len; i++) {
		const char *a = words->items[i];
		if (!strcmp(a, "-o") || !strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ")) {
			i++;
			continue;
		}
		if (!strcmp(a, "-c") || !strcmp(a, "-MD") || !strcmp(a, "-MMD") || !strcmp(a, file) ||
		    !strncmp(a, "-o", 2))
			continue;
		push_arg(args, a);
	}
	common_args(o, args);
}

static bool compile_commands(const source_options *o, src_inputs *in, facet_error *err)
{
	const char *path = o->compile_commands;
	char *text;
	size_t len;
	if (!fsio_read_file(path, MAX_SOURCE_BYTES, "the compile_commands.json", &text, &len, err))
		return false;
	json_error_t je;
	json_t *db = json_loadb(text, len, 0, &je);
	free(text);
	if (!db) {
		error_set(err, "%s:%d:%d: not a valid compile_commands.json: %s", path, je.line, je.column, je.text);
		return false;
	}
	bool ok = json_is_array(db);
	if (!ok)
		error_set(err, "%s: not a valid compile_commands.json: the top level is not an array", path);
	size_t i;
	json_t *e;
	json_array_foreach(db, i, e) {
		if (!ok)
			break;
		const char *dir = json_string_value(json_object_get(e, "directory"));
		const char *file = json_string_value(json_object_get(e, "file"));
		json_t *arguments = json_object_get(e, "arguments");
		const char *command = json_string_value(json_object_get(e, "command"));
		if (!json_is_object(e) || !dir || !file || (!json_is_array(arguments) && !command)) {
			error_set(err, "%s: entry %zu is not an object with string \"directory\" and \"file\" and "
			               "\"arguments\" or \"command\"", path, i);
			ok = false;
			break;
		}
		str_vec words = {0}, args = {0};
		if (json_is_array(arguments)) {
			size_t k;
			json_t *a;
			json_array_foreach(arguments, k, a) {
				if (!json_is_string(a)) {
					error_set(err, "%s: entry %zu: \"arguments\"[%zu] is not a string", path, i, k);
					ok = false;
					break;
				}
				push_arg(&words, json_string_value(a));
			}
		} else {
			shell_split(command, &words);
		}
		if (ok && has_suffix(file, ".c")) {
			entry_args(o, dir, file, &words, &args);
			size_t n = strlen(dir) + strlen(file) + 2;
			char *full = xmalloc(n);
			snprintf(full, n, "%s%s%s", file[0] == '/' ? "" : dir, file[0] == '/' ? "" : "/", file);
			add_unit(in, full, &args);
		} else {
			free_strs(&args);
		}
		free_strs(&words);
	}
	json_decref(db);
	if (ok && in->units.len == 0) {
		error_set(err, "%s: no entry compiles a .c file", path);
		ok = false;
	}
	return ok;
}

bool src_inputs_collect(const source_options *o, src_inputs *in, facet_error *err)
{
	memset(in, 0, sizeof *in);
	switches_init(&in->switches);
	if (o->compile_commands) {
		if (!compile_commands(o, in, err))
			return false;
		for (size_t i = 0; i < in->units.len; i++) {
			char *text;
			if (!check_text(in->units.items[i].file, &text, err))
				return false;
			free(text);
		}
		return true;
	}
	str_vec c_files = {0}, h_files = {0}, t_files = {0}, dirs = {0};
	strmap included;
	strmap_init(&included);
	bool ok = collect_paths(o, &c_files, &h_files, &t_files, err);
	for (size_t i = 0; ok && i < c_files.len; i++) {
		char *text;
		ok = check_text(c_files.items[i], &text, err);
		if (ok)
			free(text);
	}
	if (ok) {
		src_switches *sw = o->no_assumed_switches ? NULL : &in->switches;
		guess_includes(&c_files, &h_files, &dirs, &included, sw);
		for (size_t t = 0; sw && t < t_files.len; t++) {
			char *text;
			size_t len;
			facet_error e = {0};
			if (fsio_read_file(t_files.items[t], MAX_SOURCE_BYTES, "a template", &text, &len, &e)) {
				switches_scan(sw, text, len, true, 0, 0);
				free(text);
			}
		}
		for (unsigned k = 0; sw && k < o->n_defines; k++)
			switches_define(sw, o->defines[k]);
		for (size_t i = 0; sw && i < included.cap; i++) {   /* the headers the tree does not hold */
			const char *name = included.slots[i].key;
			if (!name || included.slots[i].value)
				continue;
			size_t need = in->outside.len + strlen(name) + 16;
			VEC_RESERVE(&in->outside, need);
			in->outside.len += (size_t)snprintf(in->outside.items + in->outside.len, need - in->outside.len,
			                                    "#include <%s>\n", name);
		}
		if (t_files.len > 1)
			qsort(t_files.items, t_files.len, sizeof *t_files.items, str_cmp);
		strmap known;
		strmap_init(&known);
		for (size_t k = 0; k < dirs.len; k++)
			strmap_put(&known, dirs.items[k], dirs.items[k]);
		stand_ins(&t_files, &included, !o->no_host_config, in, &known, &dirs);
		strmap_free(&known);
		in->n_include_dirs = (unsigned)dirs.len;
		bool *after = xmalloc((dirs.len + 1) * sizeof *after);
		for (size_t k = 0; k < dirs.len; k++)
			after[k] = holds_standard_header(dirs.items[k]);
		for (size_t i = 0; i < c_files.len; i++) {
			str_vec args = {0};
			common_args(o, &args);
			for (size_t k = 0; k < dirs.len; k++) {
				push_arg(&args, after[k] ? "-idirafter" : "-I");
				push_arg(&args, dirs.items[k]);
			}
			add_unit(in, c_files.items[i], &args);
			c_files.items[i] = NULL;
		}
		free(after);
	}
	for (size_t i = 0; i < c_files.len; i++)
		free(c_files.items[i]);
	VEC_FREE(&c_files);
	free_strs(&h_files);
	free_strs(&t_files);
	free_strs(&dirs);
	for (size_t i = 0; i < included.cap; i++)
		free((char *)included.slots[i].key);
	strmap_free(&included);
	return ok;
}

void src_inputs_free(src_inputs *in)
{
	for (size_t i = 0; i < in->units.len; i++) {
		free(in->units.items[i].file);
		for (unsigned k = 0; k < in->units.items[i].n_args; k++)
			free(in->units.items[i].args[k]);
		free(in->units.items[i].args);
	}
	VEC_FREE(&in->units);
	for (size_t i = 0; i < in->standins.len; i++) {
		free(in->standins.items[i].path);
		free(in->standins.items[i].template_path);
		free(in->standins.items[i].text);
	}
	VEC_FREE(&in->standins);
	switches_free(&in->switches);
	VEC_FREE(&in->outside);
}
