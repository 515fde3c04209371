/* resolve.c — the archive-member rule of ELF linkers, replayed on the
 * link's own inputs. */
#include "capture/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/spawn.h"
#include "util/strmap.h"
#include "util/xalloc.h"

typedef struct state {
	strmap defined, undefined;   /* keys borrowed from the syms kept in `keep` */
	VEC(capture_syms *) keep;
	capture_resolution *out;
	const char *nm;
} state;

char *capture_absolute(const char *cwd, const char *path)
{
	size_t n = strlen(cwd) + strlen(path) + 2;
	char *r = xmalloc(n);
	if (path[0] == '/')
		snprintf(r, n, "%s", path);
	else
		snprintf(r, n, "%s/%s", cwd, path);
	char *real = realpath(r, NULL);
	if (real) {
		free(r);
		return real;
	}
	return r;
}

bool capture_is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void note(state *s, const char *fmt, const char *a, const char *b)
{
	char buf[1200];
	snprintf(buf, sizeof buf, fmt, a, b ? b : "");
	VEC_PUSH(&s->out->notes, xstrdup(buf));
}

static void add_syms(state *s, capture_syms *syms)
{
	for (size_t i = 0; i < syms->defined.len; i++)
		strmap_put(&s->defined, syms->defined.items[i], (void *)1);
	for (size_t i = 0; i < syms->undefined.len; i++)
		if (!strmap_has(&s->undefined, syms->undefined.items[i]))
			strmap_put(&s->undefined, syms->undefined.items[i], (void *)1);
}

static bool needed(const state *s, const capture_syms *syms)
{
	for (size_t i = 0; i < syms->defined.len; i++) {
		const char *d = syms->defined.items[i];
		if (strmap_has(&s->undefined, d) && !strmap_has(&s->defined, d))
			return true;
	}
	return false;
}

static void use(state *s, const char *path, const char *member, const unsigned char *data, size_t n, int source,
                capture_syms *syms, bool gcc_lto)
{
	capture_input in = {.path = xstrdup(path), .member = member ? xstrdup(member) : NULL, .source = source,
	                    .gcc_lto = gcc_lto};
	if (data)
		capture_hash_mem(data, n, in.hash);
	VEC_PUSH(&s->out->used, in);
	if (syms)
		add_syms(s, syms);
}

/* A gcc -flto object without machine code: its .symtab holds only the
 * __gnu_lto_slim marker, the real symbols are in gcc's GIMPLE sections (read
 * by the linker plugin, not by facet). */
static bool gcc_lto_slim(const capture_syms *syms)
{
	for (size_t i = 0; i < syms->defined.len; i++)
		if (strcmp(syms->defined.items[i], "__gnu_lto_slim") == 0)
			return true;
	return false;
}

/* The symbols of a slim gcc -flto object, from the bitcode the capture made
 * of the same source (DIR/bc/HASH.bc: clang's view of the same globals);
 * false when the object was compiled outside the capture. */
static bool gcc_lto_syms(state *s, const unsigned char *d, size_t n, capture_syms *syms)
{
	const char *dir = getenv("FACET_CAPTURE_DIR");
	char hash[CAPTURE_HASH_HEX], bc[4400];
	capture_hash_mem(d, n, hash);
	if (!dir || snprintf(bc, sizeof bc, "%s/bc/%s.bc", dir, hash) >= (int)sizeof bc || !capture_is_regular(bc))
		return false;
	capture_syms_free(syms);
	memset(syms, 0, sizeof *syms);
	facet_error err = {0};
	return capture_bitcode_symbols(s->nm, bc, syms, &err);
}

/* Symbols of one object's bytes (ELF or bitcode); false when unreadable.
 * *gcc_lto is set for a slim gcc -flto object whose symbols could not be
 * read (compiled outside the capture). */
static bool object_syms(state *s, const char *what, const unsigned char *d, size_t n, capture_syms *syms,
                        bool *gcc_lto)
{
	facet_error err = {0};
	capture_filekind k = capture_file_kind(d, n);
	*gcc_lto = false;
	if (k == CAPTURE_FILE_OBJECT) {
		if (!capture_elf_symbols(d, n, what, syms, &err))
			return false;
		if (gcc_lto_slim(syms) && !gcc_lto_syms(s, d, n, syms))
			*gcc_lto = true;
		return true;
	}
	if (k == CAPTURE_FILE_BITCODE) {
		char tmpl[] = "/tmp/facet-capture-nm-XXXXXX";
		int fd = mkstemp(tmpl);
		if (fd < 0)
			return false;
		bool ok = write(fd, d, n) == (ssize_t)n;
		close(fd);
		ok = ok && capture_bitcode_symbols(s->nm, tmpl, syms, &err);
		unlink(tmpl);
		return ok;
	}
	return false;
}

typedef struct archive {
	char *path;
	unsigned char *data;
	capture_members members;
	capture_syms *syms;        /* per member */
	bool *used;
	bool *gcc_lto;             /* per member: a slim gcc -flto object whose symbols are unknown */
} archive;

static archive *archive_open(state *s, const char *path, unsigned char *data, size_t n)
{
	archive *a = xcalloc(1, sizeof *a);
	a->path = xstrdup(path);
	a->data = data;
	facet_error err = {0};
	if (!capture_archive_members(path, data, n, &a->members, &err))
		note(s, "%s%s", err.msg, NULL);
	a->syms = xcalloc(a->members.len + 1, sizeof *a->syms);
	a->used = xcalloc(a->members.len + 1, sizeof *a->used);
	a->gcc_lto = xcalloc(a->members.len + 1, sizeof *a->gcc_lto);
	for (size_t i = 0; i < a->members.len; i++) {
		char what[1100];
		snprintf(what, sizeof what, "%s(%s)", path, a->members.items[i].name);
		if (!object_syms(s, what, a->members.items[i].data, a->members.items[i].size, &a->syms[i],
		                 &a->gcc_lto[i]))
			note(s, "%s: member not read as an object (%s)", what, NULL);
		else if (a->gcc_lto[i])
			note(s, "%s: a gcc -flto object compiled outside the capture: which symbols it defines is "
			        "unknown, so it is counted as used (and missing)%s", what, NULL);
	}
	return a;
}

static void archive_free(archive *a)
{
	for (size_t i = 0; i < a->members.len; i++)
		capture_syms_free(&a->syms[i]);
	capture_members_free(&a->members);
	free(a->syms);
	free(a->used);
	free(a->gcc_lto);
	free(a->data);
	free(a->path);
	free(a);
}

/* One scan of an archive; true when it pulled a member. */
static bool archive_scan(state *s, archive *a, bool whole)
{
	bool pulled = false;
	for (size_t i = 0; i < a->members.len; i++) {
		/* an unreadable gcc -flto member may have been pulled: counted as
		 * used, so that extract names it rather than leaving it out unsaid */
		if (a->used[i] || !(whole || a->gcc_lto[i] || needed(s, &a->syms[i])))
			continue;
		a->used[i] = true;
		pulled = true;
		use(s, a->path, a->members.items[i].name, a->members.items[i].data, a->members.items[i].size, -1,
		    &a->syms[i], a->gcc_lto[i]);
	}
	return pulled;
}

/* -lNAME in the -L directories; NULL when not there (a system library). */
static char *find_lib(const capture_cmd *cmd, const char *cwd, const char *name, bool static_only)
{
	for (size_t i = 0; i < cmd->libdirs.len; i++) {
		char *dir = capture_absolute(cwd, cmd->libdirs.items[i]);
		char path[4096];
		const char *exts[] = {".so", ".a"};
		for (int e = static_only ? 1 : 0; e < 2; e++) {
			if (name[0] == ':')
				snprintf(path, sizeof path, "%s/%s", dir, name + 1);
			else
				snprintf(path, sizeof path, "%s/lib%s%s", dir, name, exts[e]);
			if (capture_is_regular(path)) {
				free(dir);
				return xstrdup(path);
			}
		}
		free(dir);
	}
	return NULL;
}

typedef VEC(archive *) archives;

/* One file input (object, archive, shared library); archives are kept in
 * `group` when inside a group, for the rescans at its end. */
static void file_input(state *s, const char *path, bool whole, bool in_group, archives *group, archives *all)
{
	facet_error err = {0};
	size_t n;
	unsigned char *d = capture_read_file(path, &n, &err);
	if (!d) {
		note(s, "%s%s", err.msg, NULL);
		return;
	}
	capture_filekind k = capture_file_kind(d, n);
	if (k == CAPTURE_FILE_OBJECT || k == CAPTURE_FILE_BITCODE) {
		capture_syms *syms = xcalloc(1, sizeof *syms);
		bool gcc_lto = false;
		if (!object_syms(s, path, d, n, syms, &gcc_lto))
			note(s, "%s: object not read (%s)", path, NULL);
		VEC_PUSH(&s->keep, syms);
		use(s, path, NULL, d, n, -1, syms, gcc_lto);
		free(d);
	} else if (k == CAPTURE_FILE_ARCHIVE || k == CAPTURE_FILE_THIN_ARCHIVE) {
		archive *a = archive_open(s, path, d, n);
		VEC_PUSH(all, a);
		while (archive_scan(s, a, whole) && !whole)
			;
		if (in_group)
			VEC_PUSH(group, a);
	} else if (k == CAPTURE_FILE_SHARED) {
		capture_input in = {.path = xstrdup(path), .source = -1};
		capture_hash_mem(d, n, in.hash);
		VEC_PUSH(&s->out->shared, in);
		capture_syms *syms = xcalloc(1, sizeof *syms);
		if (!capture_elf_symbols(d, n, path, syms, &err))
			note(s, "%s%s", err.msg, NULL);
		VEC_PUSH(&s->keep, syms);
		add_syms(s, syms);
		free(d);
	} else {
		free(d);   /* a linker script or an unknown file: not ours to follow */
	}
}

static bool is_archive(const char *path)
{
	FILE *f = fopen(path, "rb");
	char magic[8];
	bool yes = f && fread(magic, 1, 8, f) == 8 && (!memcmp(magic, "!<arch>\n", 8) || !memcmp(magic, "!<thin>\n", 8));
	if (f)
		fclose(f);
	return yes;
}

bool capture_link_reads_archives(const capture_cmd *cmd, const char *cwd)
{
	for (size_t i = 0; i < cmd->items.len; i++) {
		const capture_item *it = &cmd->items.items[i];
		char *p = it->kind == CAPTURE_ITEM_FILE  ? capture_absolute(cwd, it->arg)
		          : it->kind == CAPTURE_ITEM_LIB ? find_lib(cmd, cwd, it->arg, false)
		                                         : NULL;
		char *q = it->kind == CAPTURE_ITEM_LIB ? find_lib(cmd, cwd, it->arg, true) : NULL;
		bool yes = (p && is_archive(p)) || (q && is_archive(q));
		free(p);
		free(q);
		if (yes)
			return true;
	}
	return false;
}

void capture_resolve(const capture_cmd *cmd, const char *cwd, const capture_syms *source_syms,
                     capture_resolution *out)
{
	state s = {.out = out, .nm = getenv("FACET_CAPTURE_NM") ? getenv("FACET_CAPTURE_NM") : "llvm-nm"};
	strmap_init(&s.defined);
	strmap_init(&s.undefined);
	for (size_t i = 0; i < cmd->undefs.len; i++)
		strmap_put(&s.undefined, cmd->undefs.items[i], (void *)1);
	bool whole = false, in_group = false, static_only = cmd->static_link;
	archives group = {0}, all = {0};
	for (size_t i = 0; i < cmd->items.len; i++) {
		const capture_item *it = &cmd->items.items[i];
		switch (it->kind) {
		case CAPTURE_ITEM_SOURCE: {
			char *p = capture_absolute(cwd, it->arg);
			use(&s, p, NULL, NULL, 0, (int)it->source, (capture_syms *)&source_syms[it->source], false);
			free(p);
			break;
		}
		case CAPTURE_ITEM_FILE: {
			char *p = capture_absolute(cwd, it->arg);
			file_input(&s, p, whole, in_group, &group, &all);
			free(p);
			break;
		}
		case CAPTURE_ITEM_LIB: {
			char *p = find_lib(cmd, cwd, it->arg, static_only);
			if (p)
				file_input(&s, p, whole, in_group, &group, &all);
			free(p);
			break;
		}
		case CAPTURE_ITEM_WHOLE_ON: whole = true; break;
		case CAPTURE_ITEM_WHOLE_OFF: whole = false; break;
		case CAPTURE_ITEM_STATIC: static_only = true; break;
		case CAPTURE_ITEM_DYNAMIC: static_only = cmd->static_link; break;
		case CAPTURE_ITEM_GROUP_START: in_group = true; VEC_CLEAR(&group); break;
		case CAPTURE_ITEM_GROUP_END: {
			bool again = true;
			while (again) {
				again = false;
				for (size_t g = 0; g < group.len; g++)
					again |= archive_scan(&s, group.items[g], false);
			}
			in_group = false;
			VEC_CLEAR(&group);
			break;
		}
		}
	}
	for (size_t i = 0; i < all.len; i++)
		archive_free(all.items[i]);
	VEC_FREE(&all);
	VEC_FREE(&group);
	for (size_t i = 0; i < s.keep.len; i++) {
		capture_syms_free(s.keep.items[i]);
		free(s.keep.items[i]);
	}
	VEC_FREE(&s.keep);
	strmap_free(&s.defined);
	strmap_free(&s.undefined);
}

void capture_resolution_free(capture_resolution *r)
{
	for (size_t i = 0; i < r->used.len; i++) {
		free(r->used.items[i].path);
		free(r->used.items[i].member);
	}
	for (size_t i = 0; i < r->shared.len; i++)
		free(r->shared.items[i].path);
	for (size_t i = 0; i < r->notes.len; i++)
		free(r->notes.items[i]);
	VEC_FREE(&r->used);
	VEC_FREE(&r->shared);
	VEC_FREE(&r->notes);
}

/* llvm-nm --format=posix prints "NAME TYPE [VALUE SIZE]" per symbol: U is a
 * strong undefined reference, w/v weak undefined, an upper-case letter a
 * global definition, any other lower-case letter a local one. */
bool capture_bitcode_symbols(const char *nm, const char *path, capture_syms *out, facet_error *err)
{
	char *argv[] = {(char *)nm, "--format=posix", "--no-sort", (char *)path, NULL};
	char *text = NULL;
	int st = capture_run_collect(argv, &text);
	if (st != 0) {
		error_set(err, "%s: %s failed (status %d)", path, nm, st);
		free(text);
		return false;
	}
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		char *sp = strchr(line, ' ');
		if (sp && sp[1]) {
			*sp = 0;
			char t = sp[1];
			if (t == 'U')
				VEC_PUSH(&out->undefined, xstrdup(line));
			else if (t >= 'A' && t <= 'Z')
				VEC_PUSH(&out->defined, xstrdup(line));
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return true;
}
