/* binfile.h — what a linker input is, and the symbols the linker sees in it.
 *
 * Reads ELF relocatable objects (.symtab) and shared libraries (.dynsym),
 * ar archives (GNU and BSD names, thin archives) and nothing else; every
 * offset is bounds-checked, since inputs are whatever the build produced. */
#ifndef FACET_CAPTURE_BINFILE_H
#define FACET_CAPTURE_BINFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"
#include "util/vec.h"

typedef enum capture_filekind {
	CAPTURE_FILE_OTHER,        /* linker script, text, unknown */
	CAPTURE_FILE_OBJECT,       /* ELF ET_REL */
	CAPTURE_FILE_SHARED,       /* ELF ET_DYN */
	CAPTURE_FILE_EXEC,         /* ELF ET_EXEC */
	CAPTURE_FILE_ARCHIVE,      /* !<arch> */
	CAPTURE_FILE_THIN_ARCHIVE, /* !<thin> */
	CAPTURE_FILE_BITCODE,      /* LLVM bitcode (an -flto object) */
} capture_filekind;

capture_filekind capture_file_kind(const unsigned char *data, size_t n);

/* The global symbols of one linker input, as the archive-member rule uses
 * them: `undefined` holds strong undefined references only (a weak reference
 * does not pull a member); `defined` holds every non-local definition,
 * common symbols included. Strings are malloc'd, freed by capture_syms_free. */
typedef struct capture_syms {
	VEC(char *) defined;
	VEC(char *) undefined;
} capture_syms;

/* Symbols of an ELF object (.symtab), or of a shared library or executable
 * (.dynsym, definitions only: what it exports). False with err (naming `what`) when the ELF is malformed. */
bool capture_elf_symbols(const unsigned char *data, size_t n, const char *what, capture_syms *out, facet_error *err);
void capture_syms_free(capture_syms *s);

/* One archive member: its name and bytes (for thin archives, read from the
 * member's own file; `path` is then that file, else NULL). */
typedef struct capture_member {
	char *name;
	char *path;
	unsigned char *data;
	size_t size;
	bool owned;                /* data is malloc'd (thin members) */
} capture_member;

typedef VEC(capture_member) capture_members;

/* The members of the archive at `path` (bytes data[0..n)), symbol and name
 * tables skipped. False with err naming the archive when it is malformed. */
bool capture_archive_members(const char *path, const unsigned char *data, size_t n, capture_members *out,
                             facet_error *err);
void capture_members_free(capture_members *m);

#endif
