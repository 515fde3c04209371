/* cident.h — the characters of a C identifier (ASCII: the letters, digits and
 * `_` the C standard's basic character set gives). One home for the readers
 * of C text: the .oo lab's parser, the source stage's directive scanners.
 * (Assembler symbols also allow `.` and `$`: src/ir/sections.c, asmcall.c.) */
#ifndef FACET_UTIL_CIDENT_H
#define FACET_UTIL_CIDENT_H

#include <stdbool.h>

static inline bool c_ident_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static inline bool c_ident_char(int c)
{
	return c_ident_start(c) || (c >= '0' && c <= '9');
}

#endif
