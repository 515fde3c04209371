/* extract.c — program lookup, the missing-bitcode check, llvm-link. */
#include "capture/extract.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/hash.h"
#include "capture/prelink.h"
#include "capture/spawn.h"
#include "capture/strip.h"
#include "util/atomic.h"
#include "util/xalloc.h"

#ifndef FACET_LLVM_BINDIR
#define FACET_LLVM_BINDIR "/usr/lib/llvm-22/bin"
#endif

const char *capture_llvm_bindir(void)
{
	const char *e = getenv("FACET_CAPTURE_LLVM_BINDIR");
	return e && *e ? e : FACET_LLVM_BINDIR;
}

void capture_messages_free(capture_messages *w)
{
	for (size_t i = 0; i < w->len; i++)
		free(w->items[i]);
	VEC_FREE(w);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

const capture_program *capture_find_program(const capture_manifest *m, const char *name, facet_error *err)
{
	char *real = realpath(name, NULL);
	for (size_t i = 0; i < m->programs.len; i++)
		if (strcmp(m->programs.items[i].path, name) == 0 || (real && strcmp(m->programs.items[i].path, real) == 0)) {
			free(real);
			return &m->programs.items[i];
		}
	free(real);
	char hash[CAPTURE_HASH_HEX];
	facet_error ignore = {0};
	if (strchr(name, '/') && capture_hash_file(name, hash, &ignore))
		for (size_t i = 0; i < m->programs.len; i++)
			if (strcmp(m->programs.items[i].hash, hash) == 0)
				return &m->programs.items[i];
	const capture_program *found = NULL;
	char list[700] = "";
	unsigned n = 0;
	for (size_t i = 0; i < m->programs.len; i++)
		if (strcmp(base_name(m->programs.items[i].path), base_name(name)) == 0) {
			found = &m->programs.items[i];
			if (n++ < 4)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n > 1 ? ", " : "", found->path);
		}
	if (n == 1)
		return found;
	if (n > 1)
		error_set(err, "%s: %u programs of the capture in %s have this name (%s%s): give the path", name, n,
		          m->dir, list, n > 4 ? ", ..." : "");
	else
		error_set(err, "%s: no such program in the capture %s (see 'facet capture list %s')", name, m->dir, m->dir);
	return NULL;
}

typedef VEC(int) intvec;

/* One linked output the module is made of: the program, or (with_shared) a
 * shared library of the same build that it links, with its units in link
 * order. A unit linked into both stays in both, as at run time. */
typedef struct part {
	const capture_program *prog;
	intvec units;
	char tmp[4300];
} part;

typedef VEC(part) parts;

static void collect(const capture_manifest *m, const capture_program *p, bool with_shared, parts *out,
                    bool *seen_prog)
{
	seen_prog[p - m->programs.items] = true;
	part pt = {.prog = p};
	bool *seen_unit = xcalloc(m->units.len + 1, 1);
	for (size_t i = 0; i < p->inputs.len; i++) {
		int u = p->inputs.items[i].unit;
		if (u >= 0 && !seen_unit[u] && p->inputs.items[i].status == CAPTURE_REF_BITCODE) {
			seen_unit[u] = true;
			VEC_PUSH(&pt.units, u);
		}
	}
	free(seen_unit);
	VEC_PUSH(out, pt);
	if (!with_shared)
		return;
	for (size_t i = 0; i < p->shared.len; i++) {
		int q = p->shared.items[i].program;
		if (q >= 0 && !seen_prog[q])
			collect(m, &m->programs.items[q], with_shared, out, seen_prog);
	}
}

static void ref_name(const capture_ref *r, const capture_manifest *m, char *buf, size_t n)
{
	const char *src = r->unit >= 0 ? m->units.items[r->unit].source : NULL;
	if (r->member)
		snprintf(buf, n, "%s(%s)%s%s%s", r->path, r->member, src ? " from " : "", src ? src : "", "");
	else
		snprintf(buf, n, "%s%s%s", r->path, src ? " from " : "", src ? src : "");
}

/* Refuses (or, allowed, warns about) inputs without bitcode. */
static bool check_missing(const capture_manifest *m, const capture_program *p, const capture_extract_options *opt,
                          capture_messages *warnings, facet_error *err)
{
	char buf[900], list[900] = "";
	unsigned n = 0;
	for (size_t i = 0; i < p->inputs.len; i++) {
		const capture_ref *r = &p->inputs.items[i];
		if (r->status != CAPTURE_REF_MISSING)
			continue;
		ref_name(r, m, buf, sizeof buf);
		if (opt->allow_missing) {
			char w[2000];
			snprintf(w, sizeof w, "%s: linked without bitcode: %s", buf, r->reason ? r->reason : "no bitcode");
			VEC_PUSH(warnings, xstrdup(w));
		} else if (n++ < 3) {
			size_t used = strlen(list);
			if (snprintf(list + used, sizeof list - used, "%s%s (%s)", n > 1 ? "; " : "", buf,
			             r->reason ? r->reason : "no bitcode") < 0)
				list[used] = 0;
		}
	}
	if (n == 0)
		return true;
	error_set(err, "%s: %u of its linked units have no bitcode: %s%s (--allow-missing extracts the rest)", p->path, n,
	          list, n > 3 ? "; ..." : "");
	return false;
}

/* Every bitcode file must be the one the capture wrote. */
static bool check_bitcode(const capture_manifest *m, const capture_unit *u, facet_error *err)
{
	char h[CAPTURE_HASH_HEX];
	facet_error e = {0};
	if (!capture_hash_file(u->bitcode, h, &e)) {
		error_set(err, "%s: %s (unit %s of the capture in %s)", u->bitcode, e.msg, u->source, m->dir);
		return false;
	}
	if (strcmp(h, u->bitcode_hash) != 0) {
		error_set(err, "%s: does not match %s (its hash differs: changed after the capture, or a directory from "
		          "another build)", u->bitcode, m->file);
		return false;
	}
	return true;
}

static bool run_link(const char *tool, const capture_manifest *m, char *const *linked, const intvec *units,
                     const char *tmp, facet_error *err)
{
	/* The file list goes through a response file: a large program has
	 * thousands of units. */
	char rsp[4400];
	if (snprintf(rsp, sizeof rsp, "%s.rsp", tmp) >= (int)sizeof rsp) {
		error_set(err, "%s: path too long", tmp);
		return false;
	}
	FILE *f = fopen(rsp, "w");
	if (!f) {
		error_set(err, "%s: %s", rsp, strerror(errno));
		return false;
	}
	for (size_t i = 0; i < units->len; i++)
		fprintf(f, "\"%s\"\n", linked[units->items[i]]);
	bool wrote = fclose(f) == 0;
	char at[4410];
	snprintf(at, sizeof at, "@%s", rsp);
	char *argv[] = {(char *)tool, at, "-o", (char *)tmp, NULL};
	char *text = NULL;
	int st = wrote ? capture_run_collect(argv, &text) : 1;
	unlink(rsp);
	if (st != 0) {
		const char *e = text && *text ? text : "no output";
		error_set(err, "llvm-link failed (status %d) linking %zu units of the capture in %s: %.600s", st, units->len,
		          m->dir, e);
		free(text);
		unlink(tmp);
		return false;
	}
	free(text);
	return true;
}

/* A merged shared library's symbols that it does not export (hidden ones,
 * a version script's local:) are its own: made internal before the merge,
 * they cannot meet a program's symbol of the same name. */
static bool own_symbols_internal(const char *bindir, part *pt, facet_error *err)
{
	capture_names exports = {0};
	char opt[4200], tmp[4400];
	snprintf(opt, sizeof opt, "%s/opt", bindir);
	snprintf(tmp, sizeof tmp, "%s.i", pt->tmp);
	bool ok = capture_exports(pt->prog->path, pt->prog->hash, &exports, err) &&
	          capture_internalize(opt, pt->tmp, tmp, &exports, false, err);
	capture_names_free(&exports);
	if (ok && rename(tmp, pt->tmp) != 0) {
		error_set(err, "%s: cannot write (%s)", pt->tmp, strerror(errno));
		unlink(tmp);
		ok = false;
	}
	return ok;
}

/* Interposition, as the dynamic linker's lookup order has it: a program's
 * definition wins over its libraries', a library earlier in that order over
 * a later one's. Merged from the last part up, each earlier part linked in
 * with llvm-link --override; the result is parts[0].tmp. */
static bool merge_parts(const char *tool, parts *ps, facet_error *err)
{
	for (size_t k = ps->len - 1; k > 0; k--) {
		part *acc = &ps->items[k], *over = &ps->items[k - 1];
		char tmp[4400];
		snprintf(tmp, sizeof tmp, "%s.m", over->tmp);
		char *argv[] = {(char *)tool, acc->tmp, "--override", over->tmp, "-o", tmp, NULL};
		char *text = NULL;
		int st = capture_run_collect(argv, &text);
		if (st != 0 || rename(tmp, over->tmp) != 0) {
			error_set(err, "llvm-link failed (status %d) merging the shared library %s into %s: %.600s", st,
			          acc->prog->path, over->prog->path, text && *text ? text : "no output");
			free(text);
			unlink(tmp);
			return false;
		}
		free(text);
		unlink(acc->tmp);
	}
	return true;
}

/* Dead-symbol stripping (strip.h) of the module at tmp, in place; when the
 * roots cannot be read the module stays whole, with a warning. */
static bool strip_dead(const capture_manifest *m, const parts *ps, const char *tmp, capture_messages *warnings,
                       facet_error *err)
{
	capture_names roots = {0};
	facet_error why = {0};
	/* A merged library's exports are not roots: the module is what a static
	 * link of the program would keep. What its inputs without bitcode use is. */
	bool known = capture_program_roots(m, ps->items[0].prog, &roots, &why);
	for (size_t k = 1; known && k < ps->len; k++)
		known = capture_input_roots(ps->items[k].prog, &roots, &why);
	if (!known) {
		char w[1400];
		snprintf(w, sizeof w, "dead symbols kept (their roots are unknown): %s", why.msg);
		VEC_PUSH(warnings, xstrdup(w));
		capture_names_free(&roots);
		return true;
	}
	char out[4400];
	snprintf(out, sizeof out, "%s.s", tmp);
	bool ok = capture_strip(capture_llvm_bindir(), tmp, out, &roots, err);
	capture_names_free(&roots);
	if (ok && rename(out, tmp) != 0) {
		error_set(err, "%s: cannot write (%s)", tmp, strerror(errno));
		ok = false;
	}
	if (!ok)
		unlink(out);
	return ok;
}

static bool check_units(const capture_manifest *m, const parts *ps, capture_messages *warnings, facet_error *err)
{
	for (size_t k = 0; k < ps->len; k++)
		for (size_t i = 0; i < ps->items[k].units.len; i++) {
			const capture_unit *u = &m->units.items[ps->items[k].units.items[i]];
			if (!check_bitcode(m, u, err))
				return false;
			if (!u->debug_info) {
				char w[1200];
				snprintf(w, sizeof w, "%s: compiled without debug info (the refinement falls back to R0 there)",
				         u->source);
				VEC_PUSH(warnings, xstrdup(w));
			}
		}
	return true;
}

/* Every unit's bitcode to link, by unit index (capture/prelink.h): the
 * pre-link optimizer's output, run now for the units whose build left it. */
static char **optimized_units(const capture_manifest *m, const parts *ps, facet_error *err)
{
	bool *seen = xcalloc(m->units.len + 1, 1);
	intvec all = {0};
	for (size_t k = 0; k < ps->len; k++)
		for (size_t i = 0; i < ps->items[k].units.len; i++) {
			int u = ps->items[k].units.items[i];
			if (!seen[u])
				VEC_PUSH(&all, u);
			seen[u] = true;
		}
	free(seen);
	char **paths = xcalloc(all.len + 1, sizeof *paths), **linked = xcalloc(m->units.len + 1, sizeof *linked);
	size_t ran = 0;
	bool ok = capture_prelink(m, all.items, all.len, paths, &ran, err);
	for (size_t i = 0; ok && i < all.len; i++)
		linked[all.items[i]] = paths[i];
	free(paths);
	VEC_FREE(&all);
	if (!ok) {
		free(linked);
		return NULL;
	}
	return linked;
}

static void parts_free(parts *ps)
{
	for (size_t k = 0; k < ps->len; k++) {
		unlink(ps->items[k].tmp);
		VEC_FREE(&ps->items[k].units);
	}
	VEC_FREE(ps);
}

bool capture_extract(const capture_manifest *m, const capture_program *p, const capture_extract_options *opt,
                     const char *out, capture_messages *warnings, facet_error *err)
{
	if (!check_missing(m, p, opt, warnings, err))
		return false;
	parts ps = {0};
	bool *seen_prog = xcalloc(m->programs.len + 1, 1);
	collect(m, p, opt->with_shared, &ps, seen_prog);
	free(seen_prog);
	bool ok = ps.items[0].units.len > 0;
	if (!ok)
		error_set(err, "%s: no unit of this program has bitcode in the capture %s", p->path, m->dir);
	ok = ok && check_units(m, &ps, warnings, err);
	char tool[4200];
	if (opt->llvm_link)
		snprintf(tool, sizeof tool, "%s", opt->llvm_link);
	else
		snprintf(tool, sizeof tool, "%s/llvm-link", capture_llvm_bindir());
	for (size_t k = 0; k < ps.len; k++)
		if (snprintf(ps.items[k].tmp, sizeof ps.items[k].tmp, k ? "%s.tmp.%ld.%zu" : "%s.tmp.%ld", out,
		             (long)getpid(), k) >= (int)sizeof ps.items[k].tmp && ok) {
			error_set(err, "%s: path too long", out);
			ok = false;
		}
	char **linked = ok ? optimized_units(m, &ps, err) : NULL;
	ok = ok && linked;
	for (size_t k = 0; ok && k < ps.len; k++) {
		if (ps.items[k].units.len == 0)
			continue;   /* a library with no unit of its own: nothing to merge */
		ok = run_link(tool, m, linked, &ps.items[k].units, ps.items[k].tmp, err);
		if (ok && k > 0)
			ok = own_symbols_internal(capture_llvm_bindir(), &ps.items[k], err);
	}
	/* libraries without units drop out of the merge */
	size_t kept = 0;
	for (size_t k = 0; k < ps.len; k++)
		if (k == 0 || ps.items[k].units.len > 0)
			ps.items[kept++] = ps.items[k];
		else
			VEC_FREE(&ps.items[k].units);
	ps.len = kept;
	ok = ok && merge_parts(tool, &ps, err);
	if (ok && !opt->keep_dead)
		ok = strip_dead(m, &ps, ps.items[0].tmp, warnings, err);
	static const atomic_target bitcode = {"the extracted bitcode", NULL, NULL, NULL, 0};
	ok = ok && atomic_install(ps.items[0].tmp, out, &bitcode, err);
	if (linked)
		for (size_t u = 0; u < m->units.len; u++)
			free(linked[u]);
	free(linked);
	parts_free(&ps);
	return ok;
}
