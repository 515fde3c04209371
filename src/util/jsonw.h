/* jsonw.h — write JSON text to a stream without building a tree.
 *
 * Call graphs of real programs have tens of thousands of sites; streaming
 * keeps output memory flat. The caller writes the punctuation; this module
 * only gets strings right (escaping, UTF-8 passed through, control bytes as
 * \u00XX). */
#ifndef FACET_UTIL_JSONW_H
#define FACET_UTIL_JSONW_H

#include <stdio.h>

/* Writes s as a JSON string literal, quotes included; NULL writes null. */
void jsonw_string(FILE *out, const char *s);

#endif
