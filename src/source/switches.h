/* switches.h — configuration switches a tree tests and never defines
 * (internal to src/source/; switches.c says the rules).
 *
 * A build says its configuration through -D flags or headers it writes
 * (nginx's ngx_auto_config.h, CMake's BMP_SUPPORTED); an unbuilt tree
 * does not, so code under `#if (HAVE_X)` is not parsed at all. Such a
 * switch is unknown, and over-approximating (seed 002: never infer
 * safety) means reading that code too: each unit that tests one is parsed
 * a second time with every switch on and the edges are united (parse.c). */
#ifndef FACET_SOURCE_SWITCHES_H
#define FACET_SOURCE_SWITCHES_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strmap.h"
#include "util/vec.h"

typedef struct src_switches {
	strmap tested;             /* names a conditional tests -> NULL (keys owned) */
	strmap defined;            /* names a file defines (or a template switches) -> NULL (keys owned) */
	strmap called;             /* names a conditional calls (`GCC_VERSION(4, 2)`) -> NULL (keys owned) */
	VEC(char *) file_names;    /* per scanned file: "DEV:INO\x01NAME\x01NAME..." (owned) */
	strmap on;                 /* after switches_finish: the switches -> NULL (keys in `tested`) */
	strmap testing;            /* after switches_finish: "DEV:INO" of files testing one (keys owned) */
	char *header;              /* after switches_finish: `#define NAME 1` per switch, sorted; NULL when none */
	unsigned n;
	const char *first;         /* the first in sorted order */
} src_switches;

void switches_init(src_switches *s);
/* Reads one file's directives: the names its #if/#ifdef/#ifndef/#elif test,
 * the names it #defines; a template's (X.h.in) #undef/#cmakedefine names
 * count as defined (the stand-in decides them). dev/ino identify the file. */
void switches_scan(src_switches *s, const char *text, size_t len, bool is_template, unsigned long long dev,
                   unsigned long long ino);
/* A -D NAME[=V] the user gives: defined. */
void switches_define(src_switches *s, const char *def);
/* Decides the switches: tested, defined nowhere, written like a
 * configuration name (upper case: not the implementation's `_X`/`__x`, not a
 * lower-case predefine), not another platform's (switches_foreign) and no
 * debugging switch (switches_debug). */
void switches_finish(src_switches *s);
/* Whether the file dev/ino tests a switch (after switches_finish). */
bool switches_file_tests(const src_switches *s, unsigned long long dev, unsigned long long ino);
/* Whether name is one of the switches (after switches_finish). */
bool switches_is(const src_switches *s, const char *name);
/* Whether the name selects another platform than the one facet runs on
 * (a word of it, split at `_`, names one: WIN32, MSDOS, DARWIN, ...). */
bool switches_foreign(const char *name);
/* Whether the name is a debugging switch (a word of it is DEBUG or DEBUGGING). */
bool switches_debug(const char *name);
void switches_free(src_switches *s);

#endif
