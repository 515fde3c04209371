/* standin.h — a missing generated header stood in by the template its
 * configure step would fill (internal to src/source/; standin.c says the
 * rules: every configuration switch on, value placeholders made `1`). */
#ifndef FACET_SOURCE_STANDIN_H
#define FACET_SOURCE_STANDIN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

typedef struct standin_counts {
	unsigned switches;         /* #undef / #cmakedefine lines turned into #define NAME 1 */
	unsigned values;           /* @VAR@ / ${VAR} placeholders filled */
	unsigned host;             /* SIZEOF_T switches given the host's size */
	unsigned host_off;         /* HAVE_P_H switches left off: the host has no <p.h> */
} standin_counts;

/* The stand-in text (malloc'd, NUL-terminated, *len bytes without the NUL)
 * for the template at path; with host, sizes and headers as this host has
 * them (standin.c). False + err naming the file when it cannot be
 * read or is not text. */
bool standin_from_template(const char *path, bool host, char **text, size_t *len, standin_counts *counts,
                           facet_error *err);
/* A name written like a configuration switch or constant (HAVE_X, WITH_Y,
 * BMP_SUPPORTED, NGX_OFF_T_LEN): upper case, digits, `_`, a letter first. */
bool standin_switch_name(const char *s, size_t n);
/* When template_path names a header template (X.h.in, X.h.cmake.in,
 * X.h.cmake), the header it makes is its first *len bytes (X.h); else NULL. */
const char *standin_header_of(const char *template_path, size_t *len);

#endif
