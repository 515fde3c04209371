/* ctype.h — clang types as the program model's di_type (internal to src/source/). */
#ifndef FACET_SOURCE_CTYPE_H
#define FACET_SOURCE_CTYPE_H

#include <stdbool.h>

#include <clang-c/Index.h>

#include "ir/model.h"
#include "util/arena.h"

/* The subroutine type of a function type or of a pointer to one (through
 * typedefs), in a's memory; NULL when t is neither or when a part of it is
 * a type clang could not form (then nothing is known). */
di_type *ctype_signature(arena *a, CXType t);
/* A pointer to a function, or an array of them (any depth). */
bool ctype_is_function_pointer(CXType t);

#endif
