/* manifest.h — DIR/manifest.json: what a capture saw (docs/formats.md).
 *
 * capture_assemble joins the wrapper's records into the manifest: every
 * translation unit with its source, flags, object, bitcode and its hash;
 * every executable and shared library the build produced (its output still
 * on disk with the content it was linked with — configure's conftest
 * programs are gone by then — and not under CMakeFiles/, where CMake links
 * its compiler identification and try_compile checks) with the inputs its native link used, each
 * resolved to a unit by the object's content hash, through relocatable
 * (-r) links to their own inputs. An input without bitcode is `missing`
 * when it lies under the capture's root directory (assembly, a prebuilt or
 * modified object), `external` otherwise (a system library). */
#ifndef FACET_CAPTURE_MANIFEST_H
#define FACET_CAPTURE_MANIFEST_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"
#include "util/vec.h"

#define CAPTURE_FORMAT "facet-capture"
#define CAPTURE_VERSION 1

typedef struct capture_unit {
	char *id, *source, *language, *object, *object_hash;
	char *bitcode;             /* absolute path, or NULL */
	char *bitcode_hash;
	char *missing;             /* why there is no bitcode, or NULL */
	bool debug_info;
	VEC(char *) dropped;       /* flags dropped for the bitcode compile */
	char *cwd;                 /* the compile's directory, or NULL */
	/* The pre-link optimizer's command (capture/prelink.h), without its
	 * input and output; empty when the bitcode is optimized already. */
	VEC(char *) prelink;
} capture_unit;

typedef enum capture_ref_status { CAPTURE_REF_BITCODE, CAPTURE_REF_MISSING, CAPTURE_REF_EXTERNAL } capture_ref_status;

typedef struct capture_ref {
	char *path, *member, *hash;
	int unit;                  /* index into units, or -1 */
	capture_ref_status status;
	char *reason;              /* for a missing input */
} capture_ref;

typedef struct capture_shared {
	char *path, *hash;
	int program;               /* the same build's shared library, index into programs, or -1 (system) */
} capture_shared;

typedef struct capture_program {
	char *path, *hash, *type, *cwd;
	char *entry;               /* the link's -e ENTRY, or NULL */
	bool linker_script;        /* linked with -T SCRIPT */
	VEC(capture_ref) inputs;   /* link order */
	VEC(capture_shared) shared;
} capture_program;

typedef struct capture_manifest {
	char *file;                /* DIR/manifest.json */
	char *dir, *root;
	VEC(capture_unit) units;
	VEC(capture_program) programs;
} capture_manifest;

/* Reads DIR/records and writes DIR/manifest.json (atomically). */
bool capture_assemble(const char *dir, const char *root, facet_error *err);
/* Reads and checks DIR/manifest.json; every problem names the file. */
capture_manifest *capture_manifest_load(const char *dir, facet_error *err);
void capture_manifest_free(capture_manifest *m);

/* Whether a link's output is a build system's probe, not a program:
 * anything under a CMakeFiles/ directory (CMake's compiler identification
 * and try_compile). */
bool capture_probe_output(const char *path);

/* Counts of one program: units with bitcode, missing inputs, external ones. */
void capture_program_counts(const capture_program *p, unsigned *with_bitcode, unsigned *missing, unsigned *external);

/* `facet capture list`: each program with its units and what has no
 * bitcode, as a table for people or as JSON (docs/formats.md). */
void capture_manifest_print_text(FILE *out, const capture_manifest *m);
void capture_manifest_print_json(FILE *out, const capture_manifest *m);

#endif
