/* binfile.c — ELF symbol tables and ar archives, read defensively. */
#include "capture/binfile.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/hash.h"
#include "util/xalloc.h"

/* Archive members are only 2-byte aligned: ELF structures are copied out,
 * never read in place. */
static bool read_ehdr(const unsigned char *d, size_t n, Elf64_Ehdr *h)
{
	if (n < sizeof *h || memcmp(d, ELFMAG, SELFMAG) != 0 || d[EI_CLASS] != ELFCLASS64)
		return false;
	memcpy(h, d, sizeof *h);
	return true;
}

capture_filekind capture_file_kind(const unsigned char *d, size_t n)
{
	if (n >= 8 && memcmp(d, "!<arch>\n", 8) == 0)
		return CAPTURE_FILE_ARCHIVE;
	if (n >= 8 && memcmp(d, "!<thin>\n", 8) == 0)
		return CAPTURE_FILE_THIN_ARCHIVE;
	if (n >= 4 && ((d[0] == 'B' && d[1] == 'C' && d[2] == 0xC0 && d[3] == 0xDE) ||
	               (d[0] == 0xDE && d[1] == 0xC0 && d[2] == 0x17 && d[3] == 0x0B)))
		return CAPTURE_FILE_BITCODE;
	Elf64_Ehdr h;
	if (read_ehdr(d, n, &h)) {
		switch (h.e_type) {
		case ET_REL: return CAPTURE_FILE_OBJECT;
		case ET_DYN: return CAPTURE_FILE_SHARED;
		case ET_EXEC: return CAPTURE_FILE_EXEC;
		default: break;
		}
	}
	return CAPTURE_FILE_OTHER;
}

void capture_syms_free(capture_syms *s)
{
	for (size_t i = 0; i < s->defined.len; i++)
		free(s->defined.items[i]);
	for (size_t i = 0; i < s->undefined.len; i++)
		free(s->undefined.items[i]);
	VEC_FREE(&s->defined);
	VEC_FREE(&s->undefined);
}

/* Section header i into *s; false when it lies outside the file. */
static bool section(const unsigned char *d, size_t n, const Elf64_Ehdr *h, unsigned i, Elf64_Shdr *s)
{
	if (h->e_shentsize != sizeof(Elf64_Shdr) || i >= h->e_shnum)
		return false;
	uint64_t off = h->e_shoff + (uint64_t)i * sizeof(Elf64_Shdr);
	if (h->e_shoff > n || off > n || n - off < sizeof(Elf64_Shdr))
		return false;
	memcpy(s, d + off, sizeof *s);
	return true;
}

static bool in_file(const Elf64_Shdr *s, size_t n)
{
	return s->sh_type == SHT_NOBITS || (s->sh_offset <= n && s->sh_size <= n - s->sh_offset);
}

bool capture_elf_symbols(const unsigned char *d, size_t n, const char *what, capture_syms *out, facet_error *err)
{
	capture_filekind k = capture_file_kind(d, n);
	Elf64_Ehdr h;
	if ((k != CAPTURE_FILE_OBJECT && k != CAPTURE_FILE_SHARED && k != CAPTURE_FILE_EXEC) || !read_ehdr(d, n, &h)) {
		error_set(err, "%s: not a 64-bit ELF object, executable or shared library", what);
		return false;
	}
	unsigned want = k == CAPTURE_FILE_OBJECT ? SHT_SYMTAB : SHT_DYNSYM;
	for (unsigned i = 0; i < h.e_shnum; i++) {
		Elf64_Shdr s, str;
		if (!section(d, n, &h, i, &s)) {
			error_set(err, "%s: section header %u lies outside the file", what, i);
			return false;
		}
		if (s.sh_type != want)
			continue;
		if (!section(d, n, &h, s.sh_link, &str) || !in_file(&s, n) || !in_file(&str, n) ||
		    s.sh_entsize != sizeof(Elf64_Sym) || str.sh_type == SHT_NOBITS) {
			error_set(err, "%s: malformed symbol table (section %u)", what, i);
			return false;
		}
		size_t count = s.sh_size / sizeof(Elf64_Sym);
		const char *strs = (const char *)(d + str.sh_offset);
		for (size_t j = 1; j < count; j++) {
			Elf64_Sym sym;
			memcpy(&sym, d + s.sh_offset + j * sizeof sym, sizeof sym);
			unsigned bind = ELF64_ST_BIND(sym.st_info);
			if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE)
				continue;
			if (sym.st_name >= str.sh_size || !memchr(strs + sym.st_name, 0, str.sh_size - sym.st_name)) {
				error_set(err, "%s: symbol %zu's name lies outside its string table", what, j);
				return false;
			}
			const char *name = strs + sym.st_name;
			if (!*name)
				continue;
			if (sym.st_shndx == SHN_UNDEF) {
				if (bind == STB_GLOBAL && k == CAPTURE_FILE_OBJECT)
					VEC_PUSH(&out->undefined, xstrdup(name));
			} else {
				VEC_PUSH(&out->defined, xstrdup(name));
			}
		}
		return true;
	}
	return true;   /* no symbol table: a stripped or empty file defines nothing */
}

void capture_members_free(capture_members *m)
{
	for (size_t i = 0; i < m->len; i++) {
		free(m->items[i].name);
		free(m->items[i].path);
		if (m->items[i].owned)
			free(m->items[i].data);
	}
	VEC_FREE(m);
}

static char *trim_name(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '/'))
		len--;
	char *r = xmalloc(len + 1);
	memcpy(r, s, len);
	r[len] = 0;
	return r;
}

/* A member name from a GNU "/OFFSET" reference into the long-name table. */
static char *long_name(const char *table, size_t tlen, const char *field, const char *arch, facet_error *err)
{
	char *end;
	unsigned long off = strtoul(field + 1, &end, 10);
	if (end == field + 1 || !table || off >= tlen) {
		error_set(err, "%s: member name '%.16s' refers outside the archive's name table", arch, field);
		return NULL;
	}
	size_t len = 0;
	while (off + len < tlen && table[off + len] != '\n')
		len++;
	return trim_name(table + off, len);
}

/* The member's data of a thin archive: the file named relative to the archive. */
static bool thin_data(const char *arch, capture_member *m, facet_error *err)
{
	const char *slash = strrchr(arch, '/');
	if (m->name[0] == '/' || !slash) {
		m->path = xstrdup(m->name);
	} else {
		size_t dl = (size_t)(slash - arch) + 1;
		m->path = xmalloc(dl + strlen(m->name) + 1);
		memcpy(m->path, arch, dl);
		strcpy(m->path + dl, m->name);
	}
	m->data = capture_read_file(m->path, &m->size, err);
	m->owned = true;
	return m->data != NULL;
}

bool capture_archive_members(const char *path, const unsigned char *d, size_t n, capture_members *out,
                             facet_error *err)
{
	capture_filekind k = capture_file_kind(d, n);
	if (k != CAPTURE_FILE_ARCHIVE && k != CAPTURE_FILE_THIN_ARCHIVE) {
		error_set(err, "%s: not an ar archive", path);
		return false;
	}
	bool thin = k == CAPTURE_FILE_THIN_ARCHIVE;
	const char *names = NULL;
	size_t names_len = 0, off = 8;
	while (off < n) {
		if (n - off < 60 || d[off + 58] != '`' || d[off + 59] != '\n') {
			error_set(err, "%s: malformed member header at byte %zu", path, off);
			return false;
		}
		const char *hdr = (const char *)d + off;
		char sizebuf[11];
		memcpy(sizebuf, hdr + 48, 10);
		sizebuf[10] = 0;
		char *end;
		unsigned long long size = strtoull(sizebuf, &end, 10);
		if (end == sizebuf) {
			error_set(err, "%s: member at byte %zu has no size", path, off);
			return false;
		}
		size_t data_off = off + 60;
		bool special = hdr[0] == '/' && (hdr[1] == ' ' || hdr[1] == '/' || memcmp(hdr, "/SYM64/", 7) == 0);
		/* Thin archives store only the symbol and name tables inline. */
		bool inline_data = !thin || special;
		if (inline_data && size > n - data_off) {
			error_set(err, "%s: member at byte %zu runs past the end of the file", path, off);
			return false;
		}
		if (hdr[0] == '/' && hdr[1] == '/') {
			names = (const char *)d + data_off;
			names_len = size;
		} else if (!special) {
			capture_member m = {0};
			size_t skip = 0;
			if (hdr[0] == '/') {
				m.name = long_name(names, names_len, hdr, path, err);
			} else if (memcmp(hdr, "#1/", 3) == 0) {   /* BSD: the name precedes the data */
				unsigned long nl = strtoul(hdr + 3, NULL, 10);
				if (nl > size) {
					error_set(err, "%s: BSD member name longer than its member", path);
					return false;
				}
				m.name = trim_name((const char *)d + data_off, strnlen((const char *)d + data_off, nl));
				skip = nl;
			} else {
				m.name = trim_name(hdr, 16);
			}
			if (!m.name)
				return false;
			if (thin) {
				if (!thin_data(path, &m, err)) {
					free(m.name);
					free(m.path);
					return false;
				}
			} else {
				m.data = (unsigned char *)d + data_off + skip;
				m.size = size - skip;
			}
			VEC_PUSH(out, m);
		}
		size_t adv = inline_data ? size : 0;
		off = data_off + adv + (adv & 1);
	}
	return true;
}
