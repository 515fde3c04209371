/* libmodel.h — what external library functions do to pointers, as data.
 *
 * The solver knows nothing of libc: constraint extraction looks a declared
 * function up here and turns its effects into ordinary constraints. Adding a
 * function is adding a table row (libmodel.c), never a code path.
 *
 * Argument numbers are 0-based; RET is the return value. "Somewhere in"
 * (the `anywhere` flag) means a pointer to an unknown offset of what the
 * argument points to: bsearch returns some element of its base array, so
 * the analysis must not assume element 0 — the base object collapses. */
#ifndef FACET_PTA_LIBMODEL_H
#define FACET_PTA_LIBMODEL_H

#include <stdbool.h>

enum { LIB_RET = -1, LIB_NOARG = -2, LIB_MAX_EFFECTS = 4, LIB_MAX_CB_ARGS = 4 };

typedef enum lib_effect_kind {
	LIB_ALLOC,       /* `a` (RET or an out-parameter *arg) gets a fresh heap object per call site */
	LIB_STATIC,      /* RET points to one library-owned object per function (getenv, strerror) */
	LIB_ALIAS,       /* RET points where arg `b` points (somewhere in it if `anywhere`) */
	LIB_COPY_MEM,    /* the memory arg `a` points to receives the content of arg `b`'s memory */
	LIB_STORE,       /* *arg `a` = arg `b` (somewhere in it if `anywhere`): strtol's endptr */
	LIB_CALLBACK,    /* arg `a` is a function the library calls with `cb_args` */
	LIB_KEEP,        /* the library keeps arg `b` and RET returns what it kept before (signal) */
	LIB_KEEP_FIELD,  /* it keeps the first field of *arg `b` and writes what it kept into the first
	                    field of *arg `a` (sigaction's act and oldact) */
	LIB_OPEN,        /* RET is a handle (dlopen): the program's own when arg `a` is a null pointer,
	                    else one library object per function */
	LIB_SYMBOL,      /* RET is what a lookup by name in handle arg `a` finds (dlsym): code loaded at
	                    run time, and the program's externally visible function or global named by
	                    arg `b` when it is a constant string, else any of them when the handle may be
	                    the program's own (andersen.h, "symbol lookups") */
} lib_effect_kind;

typedef struct lib_effect {
	lib_effect_kind kind;
	int a, b;
	bool anywhere;
	/* LIB_CALLBACK: what each parameter of the callback receives: an argument
	 * number of the library call (pointing somewhere in it when cb_anywhere),
	 * or LIB_NOARG. */
	int cb_args[LIB_MAX_CB_ARGS];
	bool cb_anywhere[LIB_MAX_CB_ARGS];
} lib_effect;

typedef struct lib_model {
	const char *name;          /* exact symbol, or a prefix when it ends in '*' (llvm.memcpy.*) */
	unsigned n_effects;
	lib_effect effects[LIB_MAX_EFFECTS];
} lib_model;

/* The model of a declared function by its linked name; NULL when unmodelled.
 * A known function without pointer effects (strlen, printf) has a model with
 * no effects. */
const lib_model *lib_model_find(const char *name);
/* Number of rows, for tests and `facet stats`. */
unsigned lib_model_count(void);
/* The exact-name rows in lookup order (a test checks they are sorted). */
const lib_model *lib_model_exact_rows(unsigned *n);
/* The names known to move no pointer, in lookup order (a test checks they
 * are sorted and none is also an exact row). */
const char *const *lib_model_no_effect_names(unsigned *n);

#endif
