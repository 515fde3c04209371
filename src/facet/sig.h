/* sig.h — source-level types of function pointers and functions, as the
 * debug info records them, and the compatibility relation of the Facet paper
 * (§2.3): same return type, same arity, and each parameter pair equal or one
 * of the two `void *`.
 *
 * Type equality is decided on a canonical spelling (docs/facet.md):
 *   - typedefs are resolved and qualifiers (const, volatile, restrict,
 *     _Atomic) dropped at every level, so `const ngx_str_t *` equals
 *     `struct ngx_str_t *` when ngx_str_t names that struct;
 *   - structs, unions and enums are equal by tag; an anonymous one takes the
 *     name of the typedef that names it (`typedef struct {...} T`), the way
 *     clang names its IR type, so the same type seen by two compile units is
 *     one type;
 *   - base types are equal by name (`int` ≠ `long` ≠ `unsigned int`), arrays
 *     as pointers to their element (a parameter decays), pointers by what they
 *     point to, function types by return type and parameters;
 *   - a vararg list is part of the arity: `int (const char *, ...)` and
 *     `int (const char *)` differ;
 *   - an unprototyped type (`int (*hash)()` before C23; the debug info spells
 *     it `int (...)`) declares no parameters: a list with the same return
 *     type fits it when it ends in no `...` and each of its types survives
 *     the default argument promotions (no float, char, short, _Bool), the
 *     rule of C11 6.7.6.3p15, whatever its length;
 *   - a field or variable of type `void (*)(void)`, C's generic function
 *     pointer (sqlite3_syscall_ptr), holds any function; a function whose
 *     own type is `void (void)` fits only such fields and its own kind.
 * "void *" means a pointer to void after qualifiers are dropped
 * (`const void *` counts). An unknown signature (no debug info for the
 * function) is compatible with everything: no evidence, no refutation. */
#ifndef FACET_FACET_SIG_H
#define FACET_FACET_SIG_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/model.h"
#include "util/ptrmap.h"
#include "util/strmap.h"

/* The subroutine type a function-pointer type points to (through typedefs,
 * qualifiers and one pointer), or NULL when t is not a function pointer. */
di_type *sig_of_pointer(di_type *t);
/* sig(f) ~ sig(S.m); either may be NULL (unknown: compatible). */
bool sig_compatible(di_type *fn, di_type *field);
/* The same, remembering each type's canonical spelling: large programs ask
 * about the same few hundred types millions of times. */
typedef struct sig_cache {
	ptrmap spelling;           /* di_type* -> interned canonical spelling */
	strmap interned;           /* spelling -> itself (owned) */
} sig_cache;
void sig_cache_init(sig_cache *c);
void sig_cache_free(sig_cache *c);
bool sig_compatible_cached(sig_cache *c, di_type *fn, di_type *field);

/* Canonical equality of two types, as above. */
bool sig_type_equal(di_type *a, di_type *b);
/* The canonical spelling equality compares, into buf (NUL-terminated). */
const char *sig_canonical(di_type *t, char *buf, size_t size);
/* The type as the source spells it ("void *(ngx_conf_t *)" for a subroutine),
 * written into buf (always NUL-terminated, truncated with "..."). */
const char *sig_text(di_type *t, char *buf, size_t size);

#endif
