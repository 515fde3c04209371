/* args.h — what a C/C++ compiler driver command line asks for.
 *
 * Classifies one gcc/clang driver invocation the way the driver itself does:
 * a pass-through (preprocess, assembly output, queries such as --version), a
 * compile (-c), or a link; and lists its sources, its output, its linker
 * inputs in command-line order, and the flags a separate bitcode compile of
 * the same sources should get (everything but outputs, -c, -x and the
 * dependency-file options, which would overwrite the native build's files). */
#ifndef FACET_CAPTURE_ARGS_H
#define FACET_CAPTURE_ARGS_H

#include <stdbool.h>

#include "util/vec.h"

typedef enum capture_mode { CAPTURE_PASS, CAPTURE_COMPILE, CAPTURE_LINK } capture_mode;

typedef enum capture_lang {
	CAPTURE_LANG_C, CAPTURE_LANG_CXX, CAPTURE_LANG_ASM, CAPTURE_LANG_OBJC, CAPTURE_LANG_STDIN,
} capture_lang;

typedef struct capture_source {
	const char *path;          /* as written (relative to the command's directory) */
	const char *xlang;         /* the -x value in effect, or NULL */
	capture_lang lang;
} capture_source;

typedef enum capture_item_kind {
	CAPTURE_ITEM_FILE,         /* a path given to the linker (object, archive, shared library, script) */
	CAPTURE_ITEM_LIB,          /* -lNAME (arg = NAME, or ":FILE") */
	CAPTURE_ITEM_SOURCE,       /* a source compiled by this command (arg = index into sources) */
	CAPTURE_ITEM_WHOLE_ON, CAPTURE_ITEM_WHOLE_OFF,
	CAPTURE_ITEM_GROUP_START, CAPTURE_ITEM_GROUP_END,
	CAPTURE_ITEM_STATIC, CAPTURE_ITEM_DYNAMIC,   /* -Bstatic / -Bdynamic */
} capture_item_kind;

typedef struct capture_item {
	capture_item_kind kind;
	const char *arg;
	unsigned source;
} capture_item;

typedef struct capture_cmd {
	capture_mode mode;
	const char *output;        /* -o, or NULL */
	VEC(capture_source) sources;
	VEC(const char *) flags;   /* for the bitcode compile */
	VEC(capture_item) items;   /* linker inputs in order */
	VEC(const char *) libdirs; /* -L, in order */
	VEC(const char *) undefs;  /* -u SYMBOL */
	VEC(char *) owned;         /* copies the items point into (response files' words) */
	const char *entry;         /* -e ENTRY, or NULL */
	bool shared, relocatable, static_link;
	bool script;               /* -T SCRIPT: the link's layout and KEEPs are a linker script's */
	bool query;                /* a linker's --version, -v, --help */
} capture_cmd;

/* Parses argv[0..argc) (the arguments after the compiler's name); @FILE
 * response files are read in place. Strings point into argv, which must
 * outlive cmd, or into cmd's own copies. */
void capture_cmd_parse(capture_cmd *cmd, int argc, char **argv);
/* The same for a direct linker command line (ld, ld.lld: `ld -r -o x.o
 * a.o`, `ld -o prog --whole-archive lib.a`): a link, or a pass-through for
 * --version and a command without inputs. */
void capture_ld_parse(capture_cmd *cmd, int argc, char **argv);
/* Whether a program name is a linker's: ld, ld.bfd, ld.gold, ld.lld, with a
 * version suffix (ld.lld-22) or a triplet prefix (x86_64-linux-gnu-ld). */
bool capture_is_linker_name(const char *name);
void capture_cmd_free(capture_cmd *cmd);

/* The language a file name's suffix means to the driver, or -1 for a
 * linker input. `cxx` is true for g++/clang++, which compile .c as C++. */
int capture_lang_of(const char *path, const char *xlang, bool cxx);

#endif
