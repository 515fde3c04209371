/* internal.h — what the source stage's files share: the facts one pass over
 * the parsed units collects (parse.c), which resolve.c turns into the
 * program model, the graph and the warrants. Not a public header.
 *
 * Nothing here holds a libclang handle: a unit is parsed, its facts copied
 * out (strings interned in the facts' arena), and the unit disposed before
 * the next is parsed, so memory stays one unit's AST plus the facts. */
#ifndef FACET_SOURCE_INTERNAL_H
#define FACET_SOURCE_INTERNAL_H

#include <stdbool.h>

#include "facet/facet.h"
#include "ir/model.h"
#include "source/source.h"
#include "source/switches.h"
#include "util/arena.h"
#include "util/strmap.h"
#include "util/vec.h"

#define SRC_NONE 0xffffffffu

/* A function definition, once per place it is written (file, line, name):
 * a static inline in a header is one definition however many units include it. */
typedef struct src_def {
	const char *name;          /* the source name */
	const char *key;           /* "file:line:name", unique */
	const char *file;
	unsigned line;
	bool is_static;
	unsigned unit;             /* the first unit that parsed it */
	di_type *sig;              /* its function type, NULL when unknown (an invalid declaration) */
	unsigned fn;               /* function id (resolve.c) */
	bool walked;               /* its body was read (by the first unit holding it) */
	unsigned walk_unit;        /* the unit whose first parse read it */
} src_def;

/* A function named in the code: the called or stored name, and the
 * definition the naming unit itself holds (SRC_NONE: none there). */
typedef struct src_fnref {
	const char *name;
	unsigned local_def;
	bool builtin;              /* __builtin_*: not a call of the program */
	unsigned unit;             /* the naming unit: its own definitions come first */
} src_fnref;

typedef enum src_callee_kind {
	CALLEE_NAME,               /* a function's name: resolved by name (seed 002's order) */
	CALLEE_KEY,                /* a field, a variable or a parameter holding function pointers */
	CALLEE_UNKNOWN,            /* anything else (a call's result, a computed address): unresolved */
} src_callee_kind;

/* What a function-pointer location is (the key's first word). */
typedef enum src_key_kind { KEY_FIELD, KEY_VAR, KEY_PARAM, KEY_LOCAL, KEY_RET } src_key_kind;

typedef struct src_keyinfo {
	src_key_kind kind;
	const char *record;        /* KEY_FIELD: the struct ("S", "@file:line:col" when anonymous) */
	const char *name;          /* the member, variable or parameter as written */
	const char *type;          /* its declared type as spelled */
	const char *canon;         /* the canonical type of one element (arrays stripped) */
	bool by_type;              /* a read from memory cast to a function-pointer type: every location of that type */
} src_keyinfo;

/* A value written somewhere or passed: a function's name, or the contents
 * of another location (a copy: `x->f = y->g`, `x->f = param`); or, naming
 * no function, a constant (`NULL`, `SIG_IGN`: the location is written, with
 * nothing) or an expression facet source cannot follow (`(fn_t) dlsym(..)`,
 * `ops->lookup(name)`: the location's evidence is incomplete, resolve.c's
 * type fallback). */
typedef struct src_value {
	bool is_key;
	bool constant;             /* a constant: no function */
	const char *opaque;        /* non-NULL: an expression naming no function or location, what it is */
	src_fnref fn;
	const char *key;
} src_value;

/* A value naming a function, the one kind resolve_ref reads. */
static inline bool src_value_names_fn(const src_value *v)
{
	return !v->is_key && !v->constant && !v->opaque;
}

typedef struct src_call {
	unsigned caller;           /* def index */
	unsigned unit;
	const char *file;          /* where the call is written (its macro's expansion place) */
	unsigned line, col;
	src_callee_kind kind;
	src_fnref fn;              /* CALLEE_NAME */
	const char *key;           /* CALLEE_KEY */
	const char *reason;        /* CALLEE_UNKNOWN: why, for people */
	di_type *sig;              /* the callee's function type, NULL when unknown */
	unsigned first_arg, n_args;   /* function values among the arguments: facts.args[..] */
	unsigned n_written;        /* the arguments the call passes */
} src_call;

/* Argument `index` of a call is a function value (a registration). */
typedef struct src_arg {
	unsigned index;
	src_value value;
} src_arg;

/* `key` receives `value`: an initializer, an assignment or a copy. */
typedef struct src_flow {
	const char *key;
	src_value value;
	assign_form form;          /* FORM_INIT for initializers, FORM_STORE for assignments */
	const char *file;
	unsigned line, col;
	unsigned in_def;           /* the function holding it, SRC_NONE at file scope */
	const char *global;        /* FORM_INIT: the initialised variable, when one is named */
	unsigned unit;
	bool by_type;              /* resolve.c's copy into a by-type read, not a write in the code */
} src_flow;

/* A call's result used as a location (`lookup(name)(x)`, `*get_handler() = h`):
 * `key` stands for what the functions the name resolves to return; resolve.c
 * links it with each definition's return location (src_ret_key) both ways,
 * since a returned pointer to a function pointer is that pointer's target. */
typedef struct src_retof {
	const char *key;
	src_fnref fn;
	const char *file;          /* the first call read this way, for the evidence */
	unsigned line, col, in_def;
} src_retof;

/* A function named other than as a direct callee (its address is taken),
 * once per unit and name: the type fallback's candidates. */
typedef struct src_taken {
	src_fnref fn;
	di_type *sig;              /* the declaration's type as the naming unit sees it, NULL when unknown */
	const char *file;          /* the first place it is named */
	unsigned line;
} src_taken;

typedef struct src_facts {
	arena arena;
	strmap interned;           /* string -> itself, in the arena */
	VEC(src_def) defs;
	strmap def_by_key;         /* key -> (void *)(index + 1) */
	strmap def_by_place;       /* "file:line:col" -> (void *)(index + 1) of the first definition there */
	strmap renamed;            /* a name a macro gives a definition in a second parse -> def index + 1 */
	VEC(src_call) calls;
	VEC(src_arg) args;
	VEC(src_flow) flows;
	VEC(src_retof) retofs;
	VEC(src_taken) taken;
	strmap taken_seen;         /* "UNIT\x01name" of taken[] */
	strmap keys;               /* key -> src_keyinfo* */
	strmap unit_defs;          /* "UNIT\x01name" -> def index + 1: what each unit defines */
	strmap alt_walked;         /* "file:line:name" of bodies read by a parse with the switches on */
	unsigned switched_calls;   /* calls only such a parse found */
	VEC(source_unit) units;
} src_facts;

const char *src_intern(src_facts *f, const char *s);
/* The location of parameter i of definition d ("param:KEY:i"). */
const char *src_param_key(src_facts *f, const src_def *d, unsigned i);
/* The location of what definition d returns ("ret:KEY"). */
const char *src_ret_key(src_facts *f, const src_def *d);
/* The definition of name that unit holds, SRC_NONE when none. */
unsigned src_unit_def(src_facts *f, unsigned unit, const char *name);

/* Parses one unit (args: the compiler arguments without the file) and adds
 * its facts (unsaved: n_unsaved struct CXUnsavedFile, the stand-in
 * headers); the unit's diagnostics go to unit. With assume_constants a
 * unit that uses undeclared constants is parsed once more with them
 * declared (undeclared.c), counted in unit. With switches (NULL: none), a
 * unit that includes a file testing one is parsed a second time with every
 * switch on and the calls, writes and definitions only that parse has are
 * added (the first parse stays the source of everything else). False + err only when
 * libclang cannot parse at all (then unit->parsed is false). */
bool src_parse_unit(src_facts *f, void *index, const char *file, const char *const *args, unsigned n_args,
                    void *unsaved, unsigned n_unsaved, bool assume_constants, const src_switches *switches,
                    source_unit *unit, facet_error *err);

/* Every macro the implementation defines where the tree's headers are read
 * (the compiler's predefines, the system headers: includes is `#include
 * <X>` of each header the tree includes and does not hold, parsed with a
 * unit's args) is defined for sw: no switch (EPOLLIN, a system header's
 * enumerator spelled as a macro too, would break that header). */
void src_implementation_macros(void *index, const char *const *args, unsigned n_args, const char *includes,
                               src_switches *sw);

/* The upper-case names a parsed unit's (CXTranslationUnit) diagnostics call
 * undeclared identifiers, as the text of a header declaring each an
 * enumerator of its own value (malloc'd; NULL when none), their number and the first
 * (malloc'd) (undeclared.c says why). */
char *src_undeclared_constants(void *tu, unsigned *n_names, char **first);

/* The type fallback's candidates (fallback.c): functions whose address is
 * taken, each added once with its type, and the ones that fit a call's
 * type under the rule (ascending id, in a buffer valid until the next call;
 * n_written: the arguments the call passes). */
typedef struct src_fallback src_fallback;
src_fallback *src_fallback_new(source_fallback rule);
void src_fallback_add(src_fallback *fb, unsigned fn, di_type *sig);
unsigned src_fallback_fits(src_fallback *fb, di_type *call, unsigned n_written, const unsigned **out);
const char *src_fallback_rule_name(source_fallback rule);   /* "C's rule", "the IR shape" */
void src_fallback_free(src_fallback *fb);

/* The graph from the facts (resolve.c): fills r's program, graph and
 * resolution; fallback is the type fallback's rule (source.h). */
void src_resolve(src_facts *f, source_fallback fallback, source_result *r);

#endif
