/* strip.c — exported symbols, a program's roots, the two opt-22 runs. */
#include "capture/strip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/binfile.h"
#include "capture/hash.h"
#include "capture/spawn.h"
#include "util/xalloc.h"

void capture_names_free(capture_names *n)
{
	for (size_t i = 0; i < n->len; i++)
		free(n->items[i]);
	VEC_FREE(n);
}

/* Moves the strings of a capture_syms list to out. */
#define TAKE(out, names)                                      \
	do {                                                  \
		for (size_t i_ = 0; i_ < (names).len; i_++)   \
			VEC_PUSH(out, (names).items[i_]);     \
		VEC_FREE(&(names));                           \
	} while (0)

bool capture_exports(const char *path, const char *hash, capture_names *out, facet_error *err)
{
	size_t n;
	unsigned char *d = capture_read_file(path, &n, err);
	if (!d)
		return false;
	if (hash) {
		char h[CAPTURE_HASH_HEX];
		capture_hash_mem(d, n, h);
		if (strcmp(h, hash) != 0) {
			error_set(err, "%s: changed since it was linked (its hash differs from the capture's)", path);
			free(d);
			return false;
		}
	}
	capture_syms s = {0};
	bool ok = capture_elf_symbols(d, n, path, &s, err);
	free(d);
	TAKE(out, s.defined);
	capture_syms_free(&s);
	return ok;
}

/* The strong undefined references of one input without bitcode: an object
 * file, or a member of an archive. */
static bool input_references(const capture_ref *r, capture_names *out, facet_error *err)
{
	size_t n;
	unsigned char *d = capture_read_file(r->path, &n, err);
	if (!d)
		return false;
	bool ok = true;
	capture_syms s = {0};
	if (!r->member) {
		/* a linker script, a shared library: references nothing the rule needs */
		if (capture_file_kind(d, n) == CAPTURE_FILE_OBJECT)
			ok = capture_elf_symbols(d, n, r->path, &s, err);
	} else {
		capture_members mem = {0};
		ok = capture_archive_members(r->path, d, n, &mem, err);
		for (size_t i = 0; ok && i < mem.len; i++)
			if (strcmp(mem.items[i].name, r->member) == 0 &&
			    capture_file_kind(mem.items[i].data, mem.items[i].size) == CAPTURE_FILE_OBJECT) {
				char what[4400];
				snprintf(what, sizeof what, "%s(%s)", r->path, r->member);
				ok = capture_elf_symbols(mem.items[i].data, mem.items[i].size, what, &s, err);
				break;
			}
		capture_members_free(&mem);
	}
	free(d);
	TAKE(out, s.undefined);
	capture_syms_free(&s);
	return ok;
}

bool capture_input_roots(const capture_program *p, capture_names *out, facet_error *err)
{
	for (size_t i = 0; i < p->inputs.len; i++)
		if (p->inputs.items[i].status != CAPTURE_REF_BITCODE && !input_references(&p->inputs.items[i], out, err))
			return false;
	return true;
}

bool capture_program_roots(const capture_manifest *m, const capture_program *p, capture_names *out,
                           facet_error *err)
{
	(void)m;
	/* A linker script decides what the link keeps (KEEP, section layout),
	 * and it is not modelled: no root set would be the link's. */
	if (p->linker_script) {
		error_set(err, "%s was linked with a linker script (-T), whose KEEP and section rules are not modelled",
		          p->path);
		return false;
	}
	if (strcmp(p->type, "executable") == 0) {
		/* main for a compiler-driver link (crt1's _start calls it), the
		 * entry symbol for a direct ld link (-e ENTRY, ld's default _start) */
		VEC_PUSH(out, xstrdup("main"));
		VEC_PUSH(out, xstrdup(p->entry ? p->entry : "_start"));
	}
	return capture_exports(p->path, p->hash, out, err) && capture_input_roots(p, out, err);
}

static bool write_names(const char *path, const capture_names *names, facet_error *err)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		error_set(err, "%s: %s", path, strerror(errno));
		return false;
	}
	for (size_t i = 0; i < names->len; i++)
		fprintf(f, "%s\n", names->items[i]);
	if (fclose(f) != 0) {
		error_set(err, "%s: cannot write (%s)", path, strerror(errno));
		unlink(path);
		return false;
	}
	return true;
}

static bool run_tool(char *const *argv, const char *what, char **text, facet_error *err)
{
	char *t = NULL;
	int st = capture_run_collect(argv, &t);
	if (st != 0) {
		error_set(err, "%s failed (status %d) %s: %.600s", argv[0], st, what, t && *t ? t : "no output");
		free(t);
		return false;
	}
	if (text)
		*text = t;
	else
		free(t);
	return true;
}

bool capture_internalize(const char *opt, const char *in, const char *out, const capture_names *keep, bool dce,
                         facet_error *err)
{
	char list[4400], arg[4500], what[4500];
	snprintf(list, sizeof list, "%s.keep", out);
	if (!write_names(list, keep, err))
		return false;
	snprintf(arg, sizeof arg, "-internalize-public-api-file=%s", list);
	snprintf(what, sizeof what, "on %s", in);
	/* -discard-value-names: the local names clang keeps for IR input (the
	 * deferred pre-link runs, capture/prelink.h) go, as in a one-step compile */
	char *argv[] = {(char *)opt, dce ? "-passes=internalize,globaldce" : "-passes=internalize", arg,
	                "-discard-value-names", (char *)in, "-o", (char *)out, NULL};
	bool ok = run_tool(argv, what, NULL, err);
	unlink(list);
	if (!ok)
		unlink(out);
	return ok;
}

/* `llvm-nm --defined-only` of a module: every name it defines. */
static bool defined_names(const char *nm, const char *bc, capture_names *out, facet_error *err)
{
	char *argv[] = {(char *)nm, "--defined-only", "--format=just-symbols", (char *)bc, NULL};
	char *text = NULL;
	if (!run_tool(argv, "listing the live symbols", &text, err))
		return false;
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (*line)
			VEC_PUSH(out, xstrdup(line));
	}
	free(text);
	return true;
}

bool capture_strip(const char *bindir, const char *in, const char *out, const capture_names *roots,
                   facet_error *err)
{
	char opt[4200], nm[4200], live[4400];
	snprintf(opt, sizeof opt, "%s/opt", bindir);
	snprintf(nm, sizeof nm, "%s/llvm-nm", bindir);
	snprintf(live, sizeof live, "%s.live", out);
	/* Run 1 finds what is live; its own module has the live symbols made
	 * internal, which is not the link's linkage: only its names are used. */
	if (!capture_internalize(opt, in, live, roots, true, err))
		return false;
	capture_names names = {0};
	bool ok = defined_names(nm, live, &names, err);
	unlink(live);
	/* Run 2: only the dead are internal, and globaldce removes them. */
	ok = ok && capture_internalize(opt, in, out, &names, true, err);
	capture_names_free(&names);
	return ok;
}
