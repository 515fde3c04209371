/* model.h — facet's program model: what the analyses know of a linked module.
 *
 * Ingest (ingest.h) lowers an LLVM module into these structs and then lets the
 * module go; nothing past src/ir/ sees an LLVM type. Every node lives in the
 * program's arena and is freed with it (ir_program_free). Ids are dense
 * indices into the program's arrays, assigned in module order, so the same
 * input always gives the same ids: site ids are what every output and the
 * catalog use to name a call site. */
#ifndef FACET_IR_MODEL_H
#define FACET_IR_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/strmap.h"

typedef struct di_type di_type;

/* A source position as the debug info records it; line 0 = unknown. */
typedef struct ir_loc {
	const char *file;    /* DIFile filename, relative paths stay relative; NULL if unknown */
	const char *dir;     /* DIFile directory */
	unsigned line, col;
} ir_loc;

typedef enum ir_linkage {
	LINK_EXTERNAL, LINK_AVAILABLE_EXTERNALLY, LINK_LINKONCE, LINK_WEAK,
	LINK_APPENDING, LINK_INTERNAL, LINK_PRIVATE, LINK_EXTERN_WEAK, LINK_COMMON,
	LINK_OTHER
} ir_linkage;

const char *ir_linkage_name(ir_linkage l);
bool ir_linkage_is_local(ir_linkage l);   /* internal or private, as LLVM's hasLocalLinkage */

/* ---- debug-info types (DWARF as LLVM records it) ---------------------------------- */

typedef enum di_kind {
	DI_BASIC, DI_POINTER, DI_TYPEDEF, DI_CONST, DI_VOLATILE, DI_RESTRICT, DI_ATOMIC,
	DI_STRUCT, DI_UNION, DI_ARRAY, DI_ENUM, DI_SUBROUTINE, DI_MEMBER, DI_OTHER
} di_kind;

typedef struct di_member {
	const char *name;          /* NULL for an anonymous member (an unnamed union or struct) */
	uint64_t offset_bits, size_bits;
	di_type *type;
	bool bitfield;
	bool base;                 /* a C++ base class (DW_TAG_inheritance), not a field */
	bool virtual_base;         /* a virtual base: offset_bits holds its vbase-offset offset in bytes */
} di_member;

struct di_type {
	unsigned id;
	di_kind kind;
	const char *name;          /* NULL when anonymous */
	uint64_t size_bits;
	di_type *base;             /* pointee, typedef'd, qualified, array element; NULL = void */
	di_member *members;        /* struct, union */
	unsigned n_members;
	di_type **params;          /* subroutine: params[0] is the return type (NULL = void) */
	unsigned n_params;         /* counts the return slot; a trailing NULL entry marks varargs */
	uint64_t *dims;            /* array: element counts per dimension (0 = unknown) */
	unsigned n_dims;
	ir_loc loc;                /* where it is declared */
	bool forward_decl;         /* declared but not defined in this unit */
	const char *identifier;    /* struct/class: the ODR identifier C++ gives it ("_ZTS5Shape"), else NULL;
	                              also the key of the one class of the module whose name is
	                              scoped_name when clang gave none (src/ir/cxx.c) */
	const char *scoped_name;   /* struct/class without an identifier: its name qualified by the
	                              namespaces and classes around it ("re2::CoalesceWalker",
	                              "(anonymous namespace)::Foo"); NULL otherwise */
};

const char *di_kind_name(di_kind k);
/* The type with typedefs and qualifiers peeled off (NULL stays NULL). */
di_type *di_strip(di_type *t);
/* True when t (after stripping) is a pointer to a subroutine type. */
bool di_is_function_pointer(di_type *t);

/* A source variable: a local, a parameter or a global. */
typedef struct di_variable {
	const char *name;
	di_type *type;
	ir_loc loc;
	unsigned arg;              /* 1-based parameter number, 0 for non-parameters */
} di_variable;

/* ---- values ------------------------------------------------------------------------- */

/* Every function, global, argument and instruction of the module has a value
 * id; the points-to analysis keys its nodes on them. */
typedef enum ir_value_kind { VAL_FUNCTION, VAL_GLOBAL, VAL_ARGUMENT, VAL_INSTRUCTION } ir_value_kind;

typedef struct ir_function ir_function;
typedef struct ir_global ir_global;

/* A #dbg_value or #dbg_declare record binding a source variable to a value. */
typedef struct ir_dbg_binding {
	ir_function *function;     /* where the record sits */
	di_variable *var;
	unsigned value;            /* value id the record names */
	bool declare;              /* #dbg_declare (the value is the variable's address) */
	bool empty_expr;           /* DIExpression() — the value is the variable itself */
	bool fragment;             /* DIExpression(DW_OP_LLVM_fragment, off, size) alone: the value is
	                              those bits of the variable (a field of a split-up local struct) */
	bool offset;               /* a constant offset alone (dinfo_expr_offset): the variable is the
	                              value + offset_bytes, a pointer the optimiser kept only as that sum */
	union {                    /* one record per binding, so the expression is one of the two */
		struct { uint64_t fragment_offset_bits, fragment_size_bits; };
		int64_t offset_bytes;
	};
} ir_dbg_binding;

/* ---- call sites ---------------------------------------------------------------------- */

typedef enum site_kind { SITE_DIRECT, SITE_INDIRECT, SITE_ASM } site_kind;
const char *site_kind_name(site_kind k);

/* An IR function type as data (what R0's filter compares): ingest reads it
 * from LLVM once per distinct type, so no analysis parses a type string.
 * Every string is interned, and so is the record: equal types are the same
 * ir_fn_type, and equal parts the same pointer. */
typedef struct ir_fn_type {
	const char *text;          /* the whole type as LLVM prints it ("i32 (ptr, ...)") */
	const char *ret;           /* return type ("void", "i32", "ptr") */
	const char **params;       /* the fixed parameters' types */
	unsigned n_params;
	bool vararg;               /* a trailing `...` */
	bool mentions_pointer;     /* the return or a parameter type holds a `ptr` somewhere */
} ir_fn_type;

typedef struct ir_inline_frame {
	const char *function;      /* the subprogram the call was inlined into at this step */
	ir_loc loc;
} ir_inline_frame;

typedef struct ir_site {
	unsigned id;
	ir_function *caller;
	site_kind kind;
	ir_function *callee;       /* direct calls only (intrinsics included) */
	const char *call_type;     /* IR function type of the call, interned: compare pointers */
	const ir_fn_type *call_fn_type;   /* the same as data (call_type == call_fn_type->text) */
	unsigned value;            /* value id of the call instruction */
	ir_loc loc;                /* innermost source position; line 0 when none */
	ir_inline_frame *inlined_at;   /* innermost caller outwards */
	unsigned n_inlined;
	ir_function **callbacks;   /* !callback broker arguments that are functions (pthread_create...) */
	unsigned n_callbacks;
	unsigned callee_value;     /* value id of the called operand; IR_NONE for asm or untracked */
	unsigned *args;            /* value ids of the actual arguments, IR_NONE where untracked */
	unsigned n_args;
	int64_t *arg_consts;       /* per argument: its value when a constant integer, else IR_NOT_CONST */
	/* A direct call to a declared function (a library's): per argument, the
	 * C string it points to when it is a constant global holding one
	 * (dlsym's "name"), interned, else NULL; arg_strings itself is NULL when
	 * no argument is one or the callee is defined here. */
	const char **arg_strings;
	unsigned result;           /* value id of the call's result when tracked, else IR_NONE */
	/* SITE_ASM only: what the asm may do that no analysis models (counted by
	 * facet stats): `asm goto` (callbr, it may jump to its labels), and
	 * pointer operands (the asm may read or write through them, or hand
	 * their address on). */
	bool asm_goto;
	unsigned asm_pointer_operands;
	unsigned asm_unread_calls;  /* `call`s in its text whose target ir/asmcall.h does not read */
	/* A call an inline asm's text makes (ir/asmcall.h: `call *%[op]`,
	 * `call %c[fn]`, `call NAME`): a site of its own, after the asm's
	 * SITE_ASM site, direct or indirect. Its IR type is the asm's, which says
	 * nothing of the callee's, so the type filter does not apply. asm_arg is
	 * the asm operand (call argument) the target comes from, IR_NONE for a
	 * name in the text; asm_memory: the target is loaded from that operand's
	 * address (callee_value is the load). Its arguments are the operands in
	 * the x86-64 argument registers, its result the asm's when it has an
	 * output in rax. */
	bool asm_call, asm_memory;
	unsigned asm_arg;
	unsigned vcall;            /* index in program->vcalls when a C++ virtual call, else IR_NONE */
	/* SITE_INDIRECT whose callee is a constant naming one function through
	 * an alias or a cast (LLVM's call graph calls it indirect): that function */
	ir_function *through_alias;
	/* SITE_INDIRECT: a call naming a trampoline (ir_function.trampoline), which
	 * the lowering made indirect: its targets are the trampoline's initial
	 * jump and every function patched in (pta/andersen.c); callee_value is
	 * the trampoline's address. NULL for any other site. */
	ir_function *trampoline;
	/* SITE_INDIRECT: the subroutine type the called pointer is declared
	 * with where the debug info states it at the read: a load from a global
	 * variable (or offset 0 of a global struct, its first member), or from
	 * what a direct call returns (`(*get_handler())(x)`), or a phi or select
	 * of such reads and functions' addresses; NULL otherwise. A
	 * variadic prototype and an unprototyped pointer lower to the same call
	 * type (pta_type_fits tells them apart by it). */
	di_type *callee_decl;
} ir_site;

/* ---- pointer statements ------------------------------------------------------------------ */

/* "No value": an operand the points-to analysis need not see (a constant
 * integer, null, undef, a value of a type that cannot hold an address). */
#define IR_NONE 0xffffffffu
#define IR_NOT_CONST INT64_MIN

/* The arrays inside a type, for the points-to analysis: C's rule for a
 * subscript is that it stays inside the array it indexes, so a variable
 * index over a struct's member array reaches that array's elements only and
 * the rest of the object keeps its fields. Members that are arrays of two
 * elements or more, nested structs flattened into their container, arrays of
 * arrays and arrays inside an array's element nested (`inner`, offsets from
 * the element's start). Unions and unnamed (literal) structs, whose IR type
 * need not be the one the program indexes, contribute none. */
typedef struct ir_arrays ir_arrays;
typedef struct ir_array_range {
	uint64_t start;            /* byte offset in the enclosing element (the object's start at the top) */
	uint64_t elem, count;      /* element bytes and number of elements (count >= 2) */
	const ir_arrays *inner;    /* the arrays inside one element, NULL when none */
} ir_array_range;
struct ir_arrays {
	unsigned n;
	ir_array_range r[];
};

/* What the points-to analysis reads, one statement per pointer-moving
 * instruction. Tracked values are those whose type can hold an address:
 * ptr, pointer-sized integers (so ptrtoint/inttoptr round trips and pointers
 * kept in integer memory stay visible), vectors of them, and aggregates
 * containing them (an aggregate value is one node). */
typedef enum ir_stmt_op {
	ST_ALLOCA,   /* dst = address of a fresh stack object of `size` bytes (0 = unknown) */
	ST_COPY,     /* dst ⊇ src: casts, phi/select operands, int<->ptr, int arithmetic, aggregates */
	ST_GEP,      /* dst = src + offset bytes; var_offset: unknown offset (the object collapses) */
	ST_LOAD,     /* dst = *(src + offset) */
	ST_STORE,    /* *(dst + offset) = src */
	ST_CALL,     /* the call site `site` (its args, result and callee are on the ir_site) */
	ST_RET,      /* the enclosing function returns src */
} ir_stmt_op;

typedef struct ir_stmt {
	ir_stmt_op op;
	bool var_offset;
	/* ST_GEP with var_offset that only constant GEPs use (-O2 writes
	 * `&s->arr[i].f` as `gep T, s, i` then `gep i8, +offsetof(arr)+f`, the
	 * member's offset moved past the index): the points-to analysis reads
	 * it through them, the index applied where the member array is. */
	bool var_fused;
	unsigned dst, src;         /* value ids, IR_NONE when absent */
	int64_t offset;            /* bytes; ST_GEP with var_offset: the constant part */
	union {
		uint64_t size;         /* ST_ALLOCA: object bytes */
		/* ST_GEP with var_offset: the part of offset added before the
		 * first variable index (a member's offset, &s->arr[i]): a variable
		 * index stays in the array it indexes, found at that offset. */
		int64_t pre;
	};
	unsigned site;             /* ST_CALL */
	/* ST_GEP with var_offset: every variable index moves by a multiple of
	 * this many bytes (the gcd of their element sizes), 0 when unknown.
	 * ST_ALLOCA of an array: the bytes of its innermost element, else 0. */
	uint32_t stride;
	union {
		/* ST_ALLOCA: the arrays in the allocated type (NULL when none). */
		const struct ir_arrays *arrays;
		/* ST_GEP with var_offset whose one variable index is a choice between
		 * constants (-O2 folds `c ? &p->a : &p->b` into `gep i8, p,
		 * select(c, A, B)`): the count, then the offsets, one per choice;
		 * the points-to analysis reads one constant GEP per choice. NULL
		 * otherwise. */
		const int64_t *choices;
	};
	/* ST_GEP whose source element type is a named struct or union (unoptimised
	 * IR keeps them: getelementptr %struct.S, ptr %p, ...): the tag as the
	 * source spells it ("S"; clang's "struct."/"union." prefix and the linker's
	 * ".N" suffix removed), interned; NULL for byte GEPs. ST_ALLOCA of a named
	 * struct or union: the same for the allocated type. */
	const char *gep_record;
	const ir_loc *loc;         /* ST_STORE, and ST_GEP with var_offset: the source position (innermost), NULL if none */
} ir_stmt;

const char *ir_stmt_op_name(ir_stmt_op op);

/* ---- functions and globals ------------------------------------------------------------ */

struct ir_function {
	unsigned id;               /* index in program->functions, module order */
	unsigned value;            /* value id */
	const char *name;          /* linked name: unique in the module */
	ir_linkage linkage;
	bool defined;
	bool address_taken;        /* LLVM CallGraph's rule (Function::hasAddressTaken) */
	bool nocallback;           /* declaration attribute: cannot call back into the module */
	bool intrinsic;
	bool vararg;
	const char *ir_type;       /* IR function type, interned */
	const ir_fn_type *fn_type; /* the same as data (ir_type == fn_type->text) */
	ir_loc loc;                /* DISubprogram file and line; line 0 when none */
	const char *di_name;       /* DISubprogram name (the source name of a renamed static) */
	di_type *di_sig;           /* DISubroutineType of the definition, NULL when none */
	unsigned first_site, n_sites;  /* its call sites, program->sites[first_site ..] */
	unsigned first_arg, n_args;    /* value ids of its arguments */
	unsigned first_stmt, n_stmts;  /* its statements, program->stmts[first_stmt ..] */
	bool returns_tracked;          /* its return type can hold an address */
	const char *demangled;     /* the Itanium demangling of name ("Shape::area()"), NULL when not mangled */
	bool vtable_only;          /* its address is taken only by vtable and typeinfo initialisers */
	/* A patchable trampoline (the kernel's static_call): the IR only declares
	 * it and module asm defines it as one jump (`jmp SYM`, or the bytes of a
	 * rel32 jmp `.byte 0xe9; .long SYM - (. + 4)`) or as a bare `ret` (a
	 * call that does nothing until a target is patched in). Calls to it are
	 * indirect sites (ir_site.trampoline); tramp_initial is SYM when it names
	 * a function of the module, else NULL (sections.h). */
	bool trampoline;
	ir_function *tramp_initial;
};

/* A pointer-valued slot of a global initializer, at a byte offset of the global. */
typedef enum ir_slot_kind { SLOT_FUNCTION, SLOT_GLOBAL } ir_slot_kind;
typedef struct ir_init_slot {
	uint64_t offset;           /* byte offset in the global */
	ir_slot_kind kind;
	ir_function *function;     /* SLOT_FUNCTION */
	ir_global *global;         /* SLOT_GLOBAL */
	int64_t addend;            /* byte offset into the target (a GEP constant expression) */
} ir_init_slot;

struct ir_global {
	unsigned id;
	unsigned value;
	const char *name;
	const char *demangled;     /* the Itanium demangling of name ("vtable for Circle", "A::count"), NULL when not mangled */
	ir_linkage linkage;
	bool defined;
	bool constant;
	uint64_t size;             /* bytes of its value type (data layout) */
	uint64_t elem;             /* an array: the bytes of its innermost element, else 0 */
	const ir_arrays *arrays;   /* the arrays in its value type (see ir_arrays), NULL when none */
	const char *ir_type;       /* IR value type, interned */
	ir_init_slot *slots;       /* function and global addresses in its initializer */
	unsigned n_slots;
	di_variable *var;          /* its DIGlobalVariable, NULL when none */
	/* The optimiser split var into pieces, one global each (globalopt turns
	 * `static struct ops sock` into sock.0 ... sock.4), and records the
	 * piece's place as DW_OP_LLVM_fragment(offset, size) on the global's
	 * expression: byte 0 of this global is bit var_offset_bits of var. */
	uint64_t var_offset_bits;
	bool var_fragment;
	const char *section;       /* __attribute__((section)), interned; NULL for the default */
};

/* ---- linker-built section arrays (sections.h) ------------------------------------------ */

/* An entry that module-level asm places in a section: `.quad SYM` (absolute)
 * or `.long SYM - .` (relative: the entry holds SYM's distance from itself,
 * as position-independent tables do). */
typedef struct ir_asm_entry {
	const char *section;       /* interned */
	ir_function *function;     /* SYM when it names a function of the module */
	ir_global *global;         /* SYM when it names a global */
	bool relative;
} ir_asm_entry;

/* A declared symbol that the linker defines at a section's start or end
 * (`__start_S`/`__stop_S`, or a linker script's `__S_start = .;`): a walk
 * from it reads what the program placed in the section(s) it bounds. */
typedef struct ir_section_bound {
	ir_global *symbol;
	bool by_stem;              /* matched by the name's stem (linker script), not `__start_S` */
	ir_global **members;       /* defined globals placed in the sections */
	unsigned n_members;
	ir_asm_entry **entries;    /* module-asm entries placed there */
	unsigned n_entries;
} ir_section_bound;

/* What module-level asm held, and what of it was not understood. */
typedef struct ir_module_asm {
	unsigned statements;       /* asm statements (lines and `;`-separated parts) */
	unsigned entries;          /* data directives naming a module symbol, understood */
	unsigned unparsed;         /* data directives naming a module symbol in a form not understood */
	unsigned function_labels;  /* labels defining a function the IR only declares (asm bodies, trampolines) */
	unsigned trampolines;      /* of those, patchable trampolines (ir_function.trampoline) */
	unsigned trampoline_calls; /* call sites naming a trampoline, made indirect */
} ir_module_asm;

/* ---- C++ classes, vtables and virtual calls (src/ir/cxx.c) ------------------------------ */

/* A direct base: non-virtual at a byte offset in the derived object, or
 * virtual (its offset is read from the vtable, vbase_offset_offset bytes
 * below the address point, as the Itanium ABI lays it out). */
typedef struct ir_class_base {
	unsigned cls;
	bool is_virtual;
	int64_t offset;            /* non-virtual: bytes; virtual: the vbase-offset offset */
} ir_class_base;

typedef struct ir_class {
	unsigned id;
	const char *key;           /* the mangled type name typeinfo and !type use: "_ZTS5Shape" */
	const char *name;          /* demangled: "Shape" */
	ir_class_base *bases;      /* direct bases, from the typeinfo _ZTI (else the debug info) */
	unsigned n_bases;
	ir_global *vtable;         /* its vtable group _ZTV, NULL when the module has none */
	unsigned first_point, n_points;   /* its address points, program->vpoints[first_point ..] */
} ir_class;

/* One address point of a vtable group: where a vptr points. */
typedef struct ir_vpoint {
	unsigned cls;              /* the class whose group this is */
	uint64_t offset;           /* byte offset of the address point in the group */
	int64_t offset_to_top;     /* minus the subobject's offset in a cls object */
	ir_function **slots;       /* slot i is at offset + i * pointer size; NULL: null, pure or deleted */
	unsigned n_slots;
	unsigned n_pure;           /* slots holding __cxa_pure_virtual or __cxa_deleted_virtual */
	unsigned *compat;          /* the classes a pointer holding this vptr may be declared as */
	unsigned n_compat;
} ir_vpoint;

/* A call through a vtable slot: callee = *(vptr + slot_offset), vptr = *receiver. */
typedef struct ir_vcall {
	unsigned site;
	unsigned cls;              /* static class of the receiver, IR_NONE when unknown */
	int64_t slot_offset;       /* bytes past the address point */
	unsigned receiver;         /* value id of the object pointer, IR_NONE when untracked */
	const char *cls_from;      /* "type.test", "debug-info" or NULL (unknown) */
	bool receiver_this;        /* the receiver is the caller's own first argument (`this`) */
	bool any_slot;             /* the slot offset is not constant (a member-function pointer) */
	bool mixed;                /* the callee may also be a plain function pointer (a member-function
	                              pointer's non-virtual branch) */
	unsigned structor;         /* receiver_this in a constructor or destructor of this class, whose
	                              vtable the object has while it runs; IR_NONE otherwise */
} ir_vcall;

/* A (key, class) pair; lists of them are sorted by key. */
typedef struct ir_class_use {
	unsigned key;
	unsigned cls;              /* IR_NONE in alloc_classes when only the type is known */
	di_type *type;             /* alloc_classes: the allocation's debug-info type (NULL: none) */
	bool by_ir_name;           /* alloc_classes: cls comes only from the allocation's IR struct name,
	                            * which llvm-link gives to isomorphic classes alike (not evidence) */
} ir_class_use;

/* ---- the program ---------------------------------------------------------------------- */

typedef struct ir_program {
	arena arena;
	const char **inputs;       /* the files it was read from */
	unsigned n_inputs;
	const char *triple, *data_layout;
	unsigned pointer_size;     /* bytes */
	bool has_debug_info;       /* some compile unit in llvm.dbg.cu */

	ir_function **functions;   /* module order */
	unsigned n_functions;
	ir_global **globals;       /* module order */
	unsigned n_globals;
	ir_site *sites;            /* by id: module order, then instruction order */
	unsigned n_sites;
	unsigned n_values;         /* value ids run 0 .. n_values-1 */

	di_type **types;           /* every debug-info type reached, by id */
	unsigned n_types;
	ir_dbg_binding *bindings;  /* every #dbg_value / #dbg_declare, program order */
	unsigned n_bindings;

	ir_stmt *stmts;            /* constant-expression statements first, then per function */
	unsigned n_stmts;
	unsigned n_const_stmts;    /* stmts[0 .. n_const_stmts) define constant-expression values */
	unsigned n_unmodelled_insts;   /* instructions that may move pointers but are not lowered (va_arg) */

	ir_asm_entry *asm_entries; /* module-asm section entries, in text order */
	unsigned n_asm_entries;
	ir_section_bound *bounds;  /* declared symbols bounding sections, module order */
	unsigned n_bounds;
	ir_section_bound **bound_of_global;   /* by global id, NULL when the global bounds nothing */
	ir_module_asm module_asm;
	unsigned n_aliases;        /* global aliases (__attribute__((alias))), resolved to their aliasees */

	ir_class **classes;        /* C++ classes with typeinfo or a vtable, by id */
	unsigned n_classes;
	ir_vpoint *vpoints;
	unsigned n_vpoints;
	ir_vcall *vcalls;
	unsigned n_vcalls;
	/* value id of an allocation (alloca, heap call, global) -> the class it
	 * creates and its debug-info type (whose fields may be objects of
	 * classes), from !heapallocsite, the debug info, the allocated IR type */
	ir_class_use *alloc_classes;
	unsigned n_alloc_classes;
	/* function id -> a class it instantiates (a constructor call that is not
	 * a base-class initialisation, or a vtable stored outside constructors) */
	ir_class_use *instantiations;
	unsigned n_instantiations;

	strmap function_by_name;   /* linked name -> ir_function* */
	strmap global_by_name;     /* linked name -> ir_global* */
	strmap interned;           /* string interning for type strings */
} ir_program;

/* What people read for f: its demangled name, else its linked name. */
const char *ir_function_label(const ir_function *f);
/* What people read for g: its demangled name, else its linked name. */
const char *ir_global_label(const ir_global *g);
ir_function *ir_find_function(const ir_program *p, const char *name);
ir_global *ir_find_global(const ir_program *p, const char *name);
/* Intern s in the program's arena: equal strings get the same pointer. */
const char *ir_intern(ir_program *p, const char *s);
void ir_program_free(ir_program *p);

#endif
