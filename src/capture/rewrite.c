/* rewrite.c — objcopy/strip runs: native run, then a record of what they rewrote. */
#include "capture/rewrite.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "capture/binfile.h"
#include "capture/hash.h"
#include "capture/record.h"
#include "capture/resolve.h"
#include "capture/spawn.h"
#include "util/xalloc.h"

static bool tool_match(const char *p)
{
	if (strncmp(p, "llvm-", 5) == 0)
		p += 5;
	size_t n = strncmp(p, "objcopy", 7) == 0 ? 7 : strncmp(p, "strip", 5) == 0 ? 5 : 0;
	if (!n)
		return false;
	p += n;
	if (!*p)
		return true;
	if (*p++ != '-' || !*p)
		return false;
	while (*p && ((*p >= '0' && *p <= '9') || *p == '.'))
		p++;
	return !*p;
}

bool capture_is_rewriter_name(const char *name)
{
	/* the whole name, or what follows a triplet's dashes */
	for (const char *p = name; p; p = strchr(p, '-') ? strchr(p, '-') + 1 : NULL)
		if (tool_match(p))
			return true;
	return false;
}

/* One file argument of the tool, as it was before the run. */
typedef struct file_arg {
	char *abs;
	bool object;               /* an ELF relocatable object before the run */
	char hash[CAPTURE_HASH_HEX];
	capture_syms syms;
} file_arg;

static bool read_object(const char *path, char hash[CAPTURE_HASH_HEX], capture_syms *syms)
{
	if (!capture_is_regular(path))
		return false;
	facet_error err = {0};
	size_t n;
	unsigned char *d = capture_read_file(path, &n, &err);
	bool ok = d && capture_file_kind(d, n) == CAPTURE_FILE_OBJECT &&
	          capture_elf_symbols(d, n, path, syms, &err);
	if (ok)
		capture_hash_mem(d, n, hash);
	free(d);
	return ok;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool same_names(char **a, size_t na, char **b, size_t nb)
{
	if (na != nb)
		return false;
	if (na == 0)   /* an empty VEC's items are NULL, which qsort must not get */
		return true;
	qsort(a, na, sizeof *a, by_string);
	qsort(b, nb, sizeof *b, by_string);
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

static bool same_symbols(capture_syms *a, capture_syms *b)
{
	return same_names(a->defined.items, a->defined.len, b->defined.items, b->defined.len) &&
	       same_names(a->undefined.items, a->undefined.len, b->undefined.items, b->undefined.len);
}

/* The output a rewrite of `from` made at path `to` into outs (nothing when
 * the file is not an object or did not change). */
static void add_output(json_t *outs, file_arg *from, const char *to, const char *tool)
{
	char hash[CAPTURE_HASH_HEX];
	capture_syms syms = {0};
	if (read_object(to, hash, &syms) && strcmp(hash, from->hash) != 0)
		json_array_append_new(outs, json_pack("{s:s, s:s, s:s, s:b, s:s}", "path", to, "hash", hash, "from",
		                                      from->hash, "symbols_same", same_symbols(&from->syms, &syms),
		                                      "tool", tool));
	capture_syms_free(&syms);
}

/* strip's -o OUT, -oOUT, --output-file=OUT, --output-file OUT: OUT's index
 * (the argument itself when joined), or 0. */
static int output_option(int argc, char **argv, int i, const char **joined)
{
	const char *a = argv[i];
	*joined = NULL;
	if ((strcmp(a, "-o") == 0 || strcmp(a, "--output-file") == 0) && i + 1 < argc)
		return i + 1;
	if (strncmp(a, "--output-file=", 14) == 0)
		*joined = a + 14;
	else if (strncmp(a, "-o", 2) == 0 && a[2])
		*joined = a + 2;
	return *joined ? i : 0;
}

/* What the run wrote, from the arguments' state before it. objcopy IN [OUT]:
 * the first object argument is the input; a later plain argument is the
 * output, else the input is rewritten in place. strip FILE...: each object
 * in place, or with -o OUT the one input into OUT. */
static json_t *outputs(const char *cwd, const char *tool, int argc, char **argv, file_arg *files)
{
	json_t *outs = json_array();
	bool strip = strstr(tool, "strip") != NULL;
	char *out = NULL;
	int first = -1, last_plain = -1, objects = 0;
	for (int i = 1; i < argc; i++) {
		const char *joined;
		int o = strip ? output_option(argc, argv, i, &joined) : 0;
		if (o) {
			free(out);
			out = capture_absolute(cwd, joined ? joined : argv[o]);
			i = o;
			continue;
		}
		if (argv[i][0] == '-')
			continue;
		if (files[i].object) {
			objects++;
			if (first < 0)
				first = i;
		}
		last_plain = i;
	}
	if (strip && !out) {
		for (int i = 1; i < argc; i++)
			if (files[i].object)
				add_output(outs, &files[i], files[i].abs, tool);
	} else if (strip && objects == 1) {
		add_output(outs, &files[first], out, tool);
	} else if (!strip && first >= 0) {
		add_output(outs, &files[first], last_plain > first ? files[last_plain].abs : files[first].abs, tool);
	}
	free(out);
	return outs;
}

static void write_record(const char *dir, const char *cwd, const char *name, int argc, char **argv, long long t,
                         json_t *outs)
{
	json_t *args = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(args, json_string(argv[i]));
	json_t *r = json_pack("{s:s, s:I, s:s, s:s, s:o, s:O}", "kind", "rewrite", "time", (json_int_t)t, "cwd", cwd,
	                      "tool", name, "arguments", args, "outputs", outs);
	char rec[120];
	snprintf(rec, sizeof rec, "r-%lld-%ld", t, (long)getpid());
	facet_error err = {0};
	capture_record_write(dir, rec, r, &err);
	json_decref(r);
}

int capture_rewrite_run(const char *dir, const char *cwd, const char *name, int argc, char **argv, char **real,
                        long long t)
{
	file_arg *files = xcalloc((size_t)argc + 1, sizeof *files);
	for (int i = 1; i < argc; i++) {
		files[i].abs = capture_absolute(cwd, argv[i]);
		files[i].object = argv[i][0] != '-' && read_object(files[i].abs, files[i].hash, &files[i].syms);
	}
	int status = capture_wait(capture_spawn(real, -1, -1));
	/* The record is written by a child, as a compile's are (capture/wrap.c):
	 * nothing that goes wrong there reaches the build's status or streams. */
	pid_t rec = status == 0 ? fork() : -1;
	if (rec == 0) {
		char log[4200];
		snprintf(log, sizeof log, "%s/errors.log", dir);
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666), null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		if (fd >= 0 || null >= 0)
			dup2(fd >= 0 ? fd : null, STDERR_FILENO);
		json_t *outs = outputs(cwd, name, argc, argv, files);
		if (json_array_size(outs))
			write_record(dir, cwd, name, argc, argv, t, outs);
		json_decref(outs);
		_exit(0);
	}
	if (rec > 0)
		capture_wait(rec);
	for (int i = 1; i < argc; i++) {
		free(files[i].abs);
		capture_syms_free(&files[i].syms);
	}
	free(files);
	return status;
}
