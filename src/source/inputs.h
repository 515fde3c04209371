/* inputs.h — the units to parse and their arguments (internal to src/source/). */
#ifndef FACET_SOURCE_INPUTS_H
#define FACET_SOURCE_INPUTS_H

#include "source/source.h"
#include "source/standin.h"
#include "source/switches.h"
#include "util/vec.h"

typedef struct src_unit_cmd {
	char *file;                /* the .c file as libclang is to open it */
	char **args;               /* the compiler arguments, without the compiler and the file */
	unsigned n_args;
} src_unit_cmd;

/* A header some file includes that its template's directory lacks, stood in by its
 * template (standin.h): given to libclang as an unsaved file at `path`. */
typedef struct src_standin {
	char *path;                /* absolute: the template's directory and the header's name */
	char *template_path;       /* as found in the tree */
	char *text;
	size_t len;
	standin_counts counts;
	bool shadows;              /* the tree has a header of that name elsewhere (another platform's) */
} src_standin;

typedef struct src_inputs {
	VEC(src_unit_cmd) units;   /* sorted by file (without compile_commands.json: as found) */
	unsigned n_include_dirs;   /* guessed -I directories */
	VEC(src_standin) standins; /* only when the include directories are guessed */
	src_switches switches;     /* the configuration switches (switches.h): none with a compile_commands.json;
	                              switches_finish is the caller's, after the implementation's names */
	VEC(char) outside;         /* `#include <X>` of each header the tree includes and does not hold */
} src_inputs;

/* From o's paths, or o's compile_commands.json. False + err naming the
 * file: a path that does not exist, no .c file, a .c file with binary
 * content, a compile_commands.json that is not valid or lacks a field. */
bool src_inputs_collect(const source_options *o, src_inputs *in, facet_error *err);
void src_inputs_free(src_inputs *in);

#endif
