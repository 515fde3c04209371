/* internal.h — what the refinement's files share: the run's context, the
 * address resolution of §3.2.1 (dispatch.c) that both the load side (sites)
 * and the store side (Algorithm 1, assign.c) key on, and the field table. */
#ifndef FACET_FACET_INTERNAL_H
#define FACET_FACET_INTERNAL_H

#include "facet/facet.h"
#include "facet/sig.h"
#include "ir/index.h"
#include "util/ptrmap.h"
#include "util/strmap.h"
#include "util/vec.h"

/* Where a memory address resolves: a field key, or why not. */
typedef struct key_result {
	bool ok;
	field_kind kind;
	di_type *record;           /* FIELD_STRUCT: the struct or union keyed on */
	const char *record_name;   /* its name, or the global's linked name (the key) */
	uint64_t offset;           /* FIELD_STRUCT: the member's byte offset in record */
	const char *member;        /* member name, "@N" when unnamed, the global's label (ir_global_label) */
	di_type *member_type;      /* declared type of what is stored there */
	disp_step step;
	unsigned depth;
	const char *base_type;     /* what the base pointer was found to point to, for people */
	const char *why;           /* !ok: the reason */
	bool any_field;            /* !ok, but the address is inside `record` at an unknown offset */
	/* FIELD_STRUCT in an array of function pointers inside a record: the
	 * array's offset and size; whole_array when the index is not known (the
	 * key is then the whole array, `record@start[]`), else the key is the
	 * element's. */
	uint64_t array_start, array_bytes;
	bool whole_array;
	/* A slot of an untyped heap block (block.c): it holds function
	 * pointers though no type declares it (member_type NULL). */
	bool untyped;
} key_result;

/* The type of the memory an address points into: an object type and a byte
 * offset in it (internal to dispatch.c, exposed for form 2). */
typedef struct object_ref {
	bool ok;
	di_type *type;             /* the object's type (a struct, an array, a pointer...) */
	int64_t offset;            /* bytes from the object's start */
	bool var_index;            /* a variable index was crossed */
	unsigned n_var;            /* how many */
	bool var_typed;            /* the (first) variable GEP indexed a named struct: element stride */
	int64_t var_tail;          /* the constant bytes after the variable index; offset - var_tail
	                              is the constant part before it */
	ir_global *global;         /* the object is this global */
	disp_step step;
	unsigned depth;
	const char *why;
} object_ref;

typedef struct facet_ctx {
	const ir_program *prog;
	const pta_result *pta;
	facet_result *res;
	arena *arena;              /* res->arena */
	ir_index ix;               /* value-id lookups over the program model (ir/index.h) */
	unsigned *slot_store_start;   /* value id -> the stores into a private slot (CSR; dispatch.c) */
	unsigned *slot_stores;        /* statement indices */
	strmap record_by_name;     /* struct/union tag or typedef name -> di_type* (a definition) */
	ptrmap typedef_of_record;  /* anonymous struct/union -> the typedef name naming it */
	/* fields */
	strmap field_by_key;       /* key -> field index + 1 */
	VEC(facet_field) fields;
	VEC(facet_assign) *assigns;    /* per field, growing */
	sig_cache sigs;            /* canonical type spellings, for sig_compatible_cached */
	/* casts (cast.c): per function id, the places its address is cast to
	 * an incompatible function-pointer type; CSR, NULL before cast_collect */
	unsigned *cast_start;
	struct facet_cast *casts;
	unsigned n_casts;
	struct facet_varargs *va;  /* varargs.c: the va_list objects and what reaches them */
	struct facet_blocks *blocks;   /* block.c: the untyped heap blocks call sites dispatch through */
} facet_ctx;

/* dispatch.c */
void dispatch_init(facet_ctx *x);
void dispatch_free(facet_ctx *x);
/* The object type and offset that address value a (+off) points into. */
object_ref dispatch_object(facet_ctx *x, unsigned a, int64_t off, unsigned depth);
/* The field key of the memory at address value a (+off). */
key_result dispatch_key(facet_ctx *x, unsigned a, int64_t off);
/* The field key of byte `offset` of an object of type `type` (the global g
 * when the object is one). */
key_result dispatch_key_in(facet_ctx *x, di_type *type, int64_t offset, ir_global *g);
/* The name a struct or union is keyed by (a typedef name for an anonymous one). */
const char *dispatch_record_name(facet_ctx *x, di_type *record);
/* Recovers disp(c) for every indirect site into x->res->sites. */
void dispatch_sites(facet_ctx *x);

/* fields (facet.c) */
/* The field for a key, created on first use; IR_NONE when the key is not ok. */
/* A union's function pointers, its own members' and its anonymous
 * structs' (one location): their common signature, or NULL (*has_fp
 * says whether it holds any). */
di_type *facet_union_sig(facet_ctx *x, di_type *u, bool *has_fp);
unsigned facet_field_for(facet_ctx *x, const key_result *k);
/* The field for a key when one exists already (a site or a write made it), else IR_NONE. */
unsigned facet_field_find(facet_ctx *x, const key_result *k);

/* origin.c: where a stored value comes from, as the program declares it. */
typedef enum value_origin {
	ORIGIN_UNKNOWN,            /* nothing declared either way */
	ORIGIN_FUNCTION,           /* a function's address */
	ORIGIN_FN_TYPED,           /* declared a function pointer (a field, variable, parameter, return) */
	ORIGIN_DATA,               /* declared a data pointer, or returned by code outside the module */
} value_origin;
value_origin facet_value_origin(facet_ctx *x, unsigned v);

/* cast.c: a place where a function's address is converted, where it is
 * taken, to a function-pointer type its signature is not compatible with
 * (an explicit cast in C): the program means it for pointers of that type. */
typedef enum cast_place { CAST_ARGUMENT, CAST_INITIALIZER, CAST_STORE, CAST_VARIABLE, CAST_RETURN } cast_place;
typedef struct facet_cast {
	di_type *to;               /* the subroutine type converted to */
	ir_loc loc;                /* the call, store, initialised global, variable or function */
	cast_place place;
	const char *name;          /* the callee, global, function holding the store or return, variable,
	                              as people read them (ir_function_label, ir_global_label) */
	uint64_t n;                /* CAST_ARGUMENT: 1-based argument; CAST_INITIALIZER: byte offset */
} facet_cast;
/* Finds every such place (after dispatch_init: it keys stores and slots). */
void cast_collect(facet_ctx *x);
/* A cast of function f to a type compatible with sig, or NULL. */
const facet_cast *cast_fit(facet_ctx *x, unsigned f, di_type *sig);
/* "f's address is cast to T as argument 2 of g (file:line)", for a warrant. */
const char *cast_text(facet_ctx *x, unsigned f, const facet_cast *c);
/* sig(f) ~ sig, or f is cast to a type that is. */
bool cast_sig_fits(facet_ctx *x, unsigned f, di_type *sig);

/* varargs.c: functions passed through `...` into va_arg reads (issue 15.4). */
typedef struct facet_varargs facet_varargs;
typedef struct va_flow {
	unsigned function;         /* function id */
	bool established;          /* the argument is not declared as data (origin.c) */
	unsigned via;              /* the variadic function whose `...` it was passed through */
} va_flow;
typedef VEC(va_flow) va_flow_list;
/* Finds the va_list objects (after dispatch_init: it follows private slots). */
void varargs_collect(facet_ctx *x);
void varargs_free(facet_ctx *x);
/* When value v is a va_arg read, the functions that calls may pass to it
 * through `...` (into out, cleared first); their number. */
size_t varargs_reaching(facet_ctx *x, unsigned v, va_flow_list *out);

/* block.c: function-pointer slots of untyped heap blocks addressed by byte
 * offset (hook lists packed in one allocation; issue 15.5). */
typedef struct facet_blocks facet_blocks;
typedef VEC(unsigned) uvec;
/* Finds the blocks the sites load callees from, and their lists (after
 * dispatch_init, before dispatch_sites). */
void block_collect(facet_ctx *x);
void block_free(facet_ctx *x);
/* A site no field explains: its key in a block, or !ok with why (which says
 * so when the block is known but the offset is not). */
key_result block_site_key(facet_ctx *x, const ir_site *s);
/* The block fields a store at address addr (+off) may write (into out,
 * cleared first): its own, or every field of each block object it may
 * point into when its offset or path is not known; their number. */
size_t block_store_fields(facet_ctx *x, unsigned addr, int64_t off, uvec *out);
/* The block objects (0 .. block_objects-1): object i's fields (into
 * fields) and what its locations hold; NULL when no site dispatches
 * through it. */
size_t block_objects(const facet_ctx *x);
const sbitmap *block_object_at(facet_ctx *x, size_t i, uvec *fields);

/* assign.c: Algorithm 1; fills init, F and the evidence of every field. */
void assign_fields(facet_ctx *x);

/* classify.c: facts, rules, abstention, questions, the oracle. */
void classify_sites(facet_ctx *x);

#endif
