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
/* A function definition's signature: ctype_signature of its type, except
 * that a definition without a prototype (`T f()`, K&R parameters) has the
 * parameters it defines: `T f() {}` takes none, as `T f(void)`. */
di_type *ctype_definition_signature(arena *a, CXCursor def);
/* A pointer to a function, or an array of them (any depth); also a
 * function type itself, which is what libclang gives for a parameter
 * declared `handler_fn h` with a function typedef (adjusted to a pointer). */
bool ctype_is_function_pointer(CXType t);
/* A function pointer, or a pointer (any levels, through arrays) to one:
 * `handler_fn **tbl`, `apply_fn *fns`. Such a location is modelled as
 * holding what its pointees hold (pointer levels merged: over-approximate). */
bool ctype_holds_function_pointer(CXType t);

#endif
