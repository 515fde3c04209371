/* resolve.h — which inputs a native link used, decided as the linker does.
 *
 * Run by the wrapper right after a successful link, while every input is on
 * disk as the linker saw it. Objects given to the link are used; an archive
 * member is used when it defines a symbol still undefined at that point of
 * the command line (the archive is rescanned until nothing more is pulled,
 * a --start-group/--end-group group as a whole; --whole-archive takes every
 * member); -lNAME is searched in the -L directories (shared before static
 * unless -static/-Bstatic), a library not found there is the system's.
 * A slim gcc -flto object (GIMPLE only) has no usable .symtab: its symbols
 * are read from the bitcode the capture made of it, and one compiled outside
 * the capture is counted as used, marked gcc_lto (its symbols are unknown).
 * Which definition wins among the used ones (strong over weak, common,
 * COMDAT) is llvm-link's job at extract: it follows the same rules. */
#ifndef FACET_CAPTURE_RESOLVE_H
#define FACET_CAPTURE_RESOLVE_H

#include <stdbool.h>

#include "capture/args.h"
#include "capture/binfile.h"
#include "capture/hash.h"
#include "util/error.h"

typedef struct capture_input {
	char *path;                /* absolute */
	char *member;              /* archive member name, or NULL */
	char hash[CAPTURE_HASH_HEX];
	int source;                /* index into the command's sources, or -1 */
	bool gcc_lto;              /* a slim gcc -flto object compiled outside the capture (symbols unknown) */
} capture_input;

typedef struct capture_resolution {
	VEC(capture_input) used;   /* in link order */
	VEC(capture_input) shared; /* shared libraries linked */
	VEC(char *) notes;         /* inputs that could not be read (the link record lists them) */
} capture_resolution;

/* Resolves cmd's link run in directory cwd. source_syms[i] holds the symbols
 * of cmd's source i (from its bitcode; empty when it has none). */
void capture_resolve(const capture_cmd *cmd, const char *cwd, const capture_syms *source_syms,
                     capture_resolution *out);
/* The path as the manifest shows it: resolved (no "..", no symlinked
 * directories) when it exists, else joined to cwd; malloc'd. */
char *capture_absolute(const char *cwd, const char *path);
/* Whether path names a regular file (following links). */
bool capture_is_regular(const char *path);
void capture_resolution_free(capture_resolution *r);

/* True when some input of cmd's link (a path or an -l found in the -L
 * directories) is an archive: only then do the sources' symbols matter. */
bool capture_link_reads_archives(const capture_cmd *cmd, const char *cwd);

/* Symbols of an LLVM bitcode file through llvm-nm (path in `nm`). */
bool capture_bitcode_symbols(const char *nm, const char *path, capture_syms *out, facet_error *err);

#endif
