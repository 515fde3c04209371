/* solver.h — Andersen (inclusion-based) points-to constraint solver.
 *
 * Knows nothing of LLVM: src/pta/andersen.c turns the program model into
 * calls of this API, then reads the answer back. solver.c says how it
 * solves (difference propagation, lazy cycle detection, positive-weight
 * cycles); this header says what the answer is.
 *
 * Nodes. Every id handed out is a node. A pointer variable is a node made by
 * pta_node. A location is a node made by pta_field: one per (object, byte
 * offset), created on demand, so fields are told apart on opaque pointers. A
 * node's points-to set holds location ids; a location's own points-to set is
 * the content of that memory. Variables are numbered 0, 1, ... and locations
 * PTA_LOC_BIT | 0, 1, ..., each in creation order: dense location ids keep
 * points-to sets small. Objects (stack slots, globals, heap sites,
 * functions) have their own ids 0, 1, ..., from pta_object.
 *
 * Collapse. An object collapses — all its fields become the one location at
 * offset 0, which every later (object, any offset) maps to — when
 *   - it is created with size 0 (unknown size: external memory) or with
 *     PTA_OBJ_COLLAPSED, or is larger than 4 GiB;
 *   - pta_gep_var reaches it (an index we cannot read: any field);
 *   - an offset leaves it: a field (o, k) shifted by a load/store/gep offset d
 *     gives (o, k + d) — offsets count from the object's start, so a nested
 *     struct's field and container_of (d < 0) resolve exactly while inside
 *     the object — and if k + d is outside [0, size) the object collapses.
 *     That is sound under C's rule that pointer arithmetic stays inside its
 *     object (one-past-the-end included: it is collapsed too, not guessed);
 *     except in a PTA_OBJ_BOUNDED object: there a pointer before the start or
 *     past one past the end, and a load or store at one past the end, cannot
 *     be into it in a defined program (the pointer came from another object
 *     an imprecise set also holds), so that location is dropped from the
 *     gep's, load's or store's result and the object keeps its fields
 *     (counted: pta_stats.offset_dropped). A pointer to one past the end
 *     is a location of its own, (o, size), which no load or store reads or
 *     writes and from which a step back is exact (-O2 folds container_of's
 *     step back and a field's step forward into one gep from the member,
 *     which may pass one past the end of a smaller object the set also
 *     holds). Should it collapse later for another cause, every
 *     constraint that dropped one of its offsets gets its one location, as
 *     if the offset had been applied after the collapse;
 *   - except in an array (pta_object_elements) that a variable index or a
 *     cycle's gep reaches with a stride of whole elements: that folds it
 *     instead — every element becomes the one element, offsets count
 *     modulo the element's size (the fields made so far merge into those),
 *     so no offset leaves it, and such a stride gives the field it started
 *     from. Until then its offsets are exact, as in any object;
 *   - a gep with a non-zero offset lies on a cycle of value flow (copies,
 *     the copies loads and stores resolve to, geps): `p = p + k` in a loop,
 *     a positive-weight cycle. Such a gep acts as pta_gep_var, as in Pearce,
 *     Kelly & Hankin's field-sensitive analysis; a cycle whose offsets sum
 *     to zero is treated the same (sound, rare). pta_gep with offset 0 is a
 *     copy.
 * After pta_solve every points-to set holds canonical ids only: locations of
 * collapsed objects appear as their offset-0 location.
 *
 * Solving. Results are the least solution of the constraints, whatever order
 * they were added in. Callbacks happen only inside pta_solve; a callback may
 * add constraints, nodes, objects and watches, and pta_solve continues until
 * nothing changes. Constraints may also be added after pta_solve and
 * pta_solve called again. Ids are unsigned; PTA_NONE is never a valid id.
 * Passing an id that does not exist is a caller bug (assert). */
#ifndef FACET_PTA_SOLVER_H
#define FACET_PTA_SOLVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/sbitmap.h"

#define PTA_NONE 0xffffffffu
#define PTA_LOC_BIT 0x80000000u   /* set in every location id, clear in every variable id */

enum {
	PTA_OBJ_COLLAPSED = 1u,   /* field-insensitive from the start (e.g. unions you do not model) */
	/* A function's code: one location that names the function; it holds no
	 * pointers a C program could store or load, so loads and stores through it
	 * touch nothing, and no offset or index collapses it. Imprecise pointers
	 * that reach functions then do not turn code into a sink that merges sets. */
	PTA_OBJ_CODE = 2u,
	/* Memory of no known layout (the heap): an array of whatever element a
	 * stride of whole elements first reaches it by (a variable index a[i],
	 * a pointer stepping in a loop), one wider than a pointer. That stride
	 * folds it (see Collapse) instead of collapsing it; memory is not
	 * typed, so a struct with an array member folds as a whole too, unless
	 * its member arrays are given (pta_object_arrays): a stride that fits
	 * one of them stays inside it first. */
	PTA_OBJ_ELEMENTS_BY_STRIDE = 4u,
	/* Read-only memory (a C `const` object: LLVM's `constant` global, kept
	 * in .rodata): it holds what it was made with (pta_addr into its
	 * fields) and no store writes it, since writing a const object is
	 * undefined and faults in practice. Stores through imprecise pointers
	 * that reach string literals and const tables then add nothing there,
	 * so loads from them read their initializers only. Its content comes
	 * from pta_addr into its fields before pta_solve. */
	PTA_OBJ_READONLY = 8u,
	/* Memory whose address stands for code (a section's bound whose
	 * entries name functions): pta_watch_targets reports its locations
	 * as it reports code's. */
	PTA_OBJ_NAMES_CODE = 16u,
	/* Memory of a known, fixed size that nothing extends (a defined
	 * global, a stack slot of constant size): an offset that leaves it
	 * names none of its locations rather than collapsing it (see
	 * Collapse). Not for heap memory, whose size may be dynamic, nor for
	 * arrays (pta_object_elements), whose walks fold them. */
	PTA_OBJ_BOUNDED = 32u,
	/* bits 8..31 are the caller's: stored, never read, returned by pta_object_flags */
};

/* Why an object collapsed (see Collapse above), first cause only. */
enum {
	PTA_COLLAPSE_SIZE,     /* made so: unknown size (external memory), PTA_OBJ_COLLAPSED, > 4 GiB */
	PTA_COLLAPSE_INDEX,    /* a variable index (pta_gep_var) reached it */
	PTA_COLLAPSE_OFFSET,   /* an offset left it */
	PTA_COLLAPSE_CYCLE,    /* a gep on a positive-weight cycle reached it */
	PTA_COLLAPSE_CAUSES,
	PTA_COLLAPSE_NONE = PTA_COLLAPSE_CAUSES
};

typedef struct pta_solver pta_solver;

/* Reports that location loc entered the points-to set of a node watched with tag. */
typedef void (*pta_on_new)(void *ctx, unsigned tag, unsigned loc);

pta_solver *pta_new(pta_on_new on_new, void *ctx);        /* on_new may be NULL */
void        pta_free(pta_solver *s);
void        pta_set_cycle_detection(pta_solver *s, int on); /* on by default; off only to measure */
/* Logs every later call to out (NULL: stop), one line each, for replay by
 * bench/pta/pta_bench --replay: "N id", "O size flags id", "F obj off id"
 * (with the id returned), "E obj elem", "Y start elem count inner n_inner id",
 * "Z obj first n", "T dst src stride off", "A dst loc", "C dst src",
 * "L|S|G dst src off", "R|Q dst src" (pta_load_all, pta_store_all),
 * "V dst src [stride]", "W node tag [1]" (1: pta_watch_targets),
 * "U node tag" (pta_unwatch), "X" (pta_solve), "D on". */
void        pta_trace(pta_solver *s, FILE *out);

unsigned pta_node(pta_solver *s);                                      /* new pointer variable */
unsigned pta_object(pta_solver *s, uint64_t size_bytes, unsigned flags); /* new object; size 0 = unknown */
unsigned pta_field(pta_solver *s, unsigned obj, int64_t offset);      /* location (obj, offset); see Collapse
                                                                         (a bounded object's one past the end: a
                                                                         location; further out: collapses it) */
/* obj is an array of elements of elem bytes, elem dividing its size: a
 * stride of whole elements folds it rather than collapsing it (see
 * Collapse). Ignored when elem does not divide the size, is 0 or the whole
 * size, or obj is collapsed or code. */
void pta_object_elements(pta_solver *s, unsigned obj, uint64_t elem);
/* Member arrays (C's rule: a subscript stays in the array it indexes). A
 * range is count (>= 2) elements of elem bytes at byte start of the
 * enclosing element (of the object, at the top level); inner, n_inner: the
 * ranges inside one element (consecutive ids from this call, PTA_NONE and
 * 0 for none). Returns the range's id; ranges made one after another have
 * consecutive ids, so a list is (first id, count). */
unsigned pta_array_range(pta_solver *s, uint64_t start, uint64_t elem, uint64_t count, unsigned inner,
                         unsigned n_inner);
/* obj's member arrays: the n ranges from first (see pta_gep_stride). Ignored for code. */
void pta_object_arrays(pta_solver *s, unsigned obj, unsigned first, unsigned n);

void pta_addr(pta_solver *s, unsigned dst, unsigned loc);               /* loc ∈ pts(dst) */
void pta_copy(pta_solver *s, unsigned dst, unsigned src);               /* pts(src) ⊆ pts(dst) */
void pta_load(pta_solver *s, unsigned dst, unsigned src, int64_t off);  /* ∀(o,k) ∈ pts(src): pts((o,k+off)) ⊆ pts(dst) */
/* A copy of memory of unknown length from src: ∀(o,k) ∈ pts(src), every
 * field (o,k') with k' ≥ k — any field, once o's elements fold — has
 * pts((o,k')) ⊆ pts(dst), fields o gains later included. The object keeps
 * its fields: reading all of it is not a reason to merge them. */
void pta_load_all(pta_solver *s, unsigned dst, unsigned src);
void pta_store(pta_solver *s, unsigned dst, unsigned src, int64_t off); /* ∀(o,k) ∈ pts(dst): pts(src) ⊆ pts((o,k+off)) */
/* Its writing side: ∀(o,k) ∈ pts(dst), every field (o,k') with k' ≥ k of
 * writable memory gets pts(src), on the same terms. */
void pta_store_all(pta_solver *s, unsigned dst, unsigned src);
void pta_gep(pta_solver *s, unsigned dst, unsigned src, int64_t off);   /* ∀(o,k) ∈ pts(src): (o,k+off) ∈ pts(dst) */
void pta_gep_var(pta_solver *s, unsigned dst, unsigned src);            /* ∀o ∈ pts(src): collapse o; (o,0) ∈ pts(dst) */
/* A variable index that moves by multiples of stride bytes (0: unknown):
 * ∀(o,k) ∈ pts(src): (o,k) ∈ pts(dst) when o is an array whose element
 * size divides stride; else, when k lies in a member array of o
 * (pta_object_arrays) whose element size divides stride and whose extent
 * is wider than stride (the innermost such; at most 64 places), every
 * (o,k') with k' in that array and k' ≡ k mod stride; else as pta_gep_var.
 * The rest of o keeps its fields. */
void pta_gep_stride(pta_solver *s, unsigned dst, unsigned src, uint64_t stride);
/* A variable index of stride bytes, then off bytes (-O2's `gep T, s, i`
 * then `+offsetof(arr) + f`): ∀(o,k) ∈ pts(src): when k + off lies in a
 * member array of o that a stride fits (see pta_gep_stride), every place of
 * it ≡ k + off mod stride; else as pta_gep_stride then pta_gep by off. */
void pta_gep_stride_at(pta_solver *s, unsigned dst, unsigned src, uint64_t stride, int64_t off);
/* Calls on_new(ctx, tag, loc) for every location that is or will be in
 * pts(node), once per (watch, location), from inside pta_solve. loc is
 * canonical when reported; if its object collapses later, the object's
 * collapsed location may be reported too — key bindings on pta_loc_object. */
void pta_watch(pta_solver *s, unsigned node, unsigned tag);
/* The same for the locations of code and of PTA_OBJ_NAMES_CODE objects
 * only: a watch of call targets, which has no use for the rest (in wide
 * sets nearly all of them), and then costs word operations per delta
 * instead of a lookup per location. */
void pta_watch_targets(pta_solver *s, unsigned node, unsigned tag);
/* Ends node's watch of that tag (one of them, if several): no report of a
 * location reaching node from now on, though reports already made may still
 * be delivered. A callback may call it, for a watch that has seen enough. */
void pta_unwatch(pta_solver *s, unsigned node, unsigned tag);

void pta_solve(pta_solver *s);                                          /* to a fixpoint */

/* Queries; meant after pta_solve. A returned set is valid until the next call that adds anything. */
const sbitmap *pta_pts(const pta_solver *s, unsigned node);  /* pts of a variable, content of a location */
unsigned pta_loc_object(const pta_solver *s, unsigned node); /* PTA_NONE for a pointer variable */
int64_t  pta_loc_offset(const pta_solver *s, unsigned loc);  /* byte offset within its object */
unsigned pta_canon(const pta_solver *s, unsigned loc);       /* the location loc stands for now (after collapses) */
int      pta_object_collapsed(const pta_solver *s, unsigned obj);
unsigned pta_object_collapse_cause(const pta_solver *s, unsigned obj); /* PTA_COLLAPSE_*, NONE if not collapsed */
/* A tag (the caller's: a statement id) for the constraints, objects and
 * fields added from now on; a collapse records the tag of the constraint or
 * call that caused it. PTA_NONE (the default) for none. */
void     pta_set_origin(pta_solver *s, unsigned origin);
unsigned pta_object_collapse_origin(const pta_solver *s, unsigned obj); /* PTA_NONE if none or not collapsed */
uint64_t pta_object_size(const pta_solver *s, unsigned obj);
unsigned pta_object_flags(const pta_solver *s, unsigned obj);
unsigned pta_num_vars(const pta_solver *s);                  /* variable ids are 0 .. n-1 */
unsigned pta_num_locations(const pta_solver *s);             /* location ids are PTA_LOC_BIT | 0 .. n-1 */
unsigned pta_num_objects(const pta_solver *s);
unsigned pta_offset_dropped(const pta_solver *s);            /* pta_stats.offset_dropped */

typedef struct pta_stats {
	unsigned nodes;             /* all nodes: variables + locations */
	unsigned locations;         /* field locations created */
	unsigned objects;
	unsigned collapsed_objects;
	unsigned collapsed_by[PTA_COLLAPSE_CAUSES]; /* by cause */
	size_t   constraints;       /* all six kinds, as added (callbacks included) */
	size_t   addr, copy, load, store, gep, gep_var;
	size_t   watches;
	size_t   iterations;        /* nodes taken off the worklist with a non-empty delta */
	size_t   edges;             /* copy edges, including those loads and stores made */
	unsigned cycles;            /* strongly connected components merged */
	unsigned merged;            /* nodes merged into another (cycles and collapses) */
	unsigned cycle_searches;    /* cycle searches: lazy (from one node) and whole-graph */
	unsigned pwc_geps;          /* geps found on positive-weight cycles (now gep_var) */
	unsigned offset_dropped;    /* PTA_OBJ_BOUNDED objects, not collapsed, that an offset left: dropped, not
	                               collapsed (see Collapse) */
	size_t   pts_entries;       /* Σ |pts| over representative nodes */
	size_t   set_bytes;         /* heap bytes held by sets: the sum of the five below */
	size_t   pts_bytes, delta_bytes, succ_bytes, reported_bytes; /* points-to sets (each distinct one once),
	                               deltas (0: not stored), copy edges, watches' */
	size_t   locset_bytes;      /* the solver's sets of locations by kind (collapsed fields, self-mapping,
	                               code, read-only) and its scratch sets */
	size_t   node_bytes;        /* the node records (variables, locations: allocated capacity) with their
	                               union-find parents and location records */
	size_t   cx_bytes;          /* complex constraints and watches (capacity) */
	size_t   map_bytes;         /* the (object, offset) and tested-edge hash maps, the objects */
	size_t   distinct_sets;     /* points-to sets stored: equal sets are stored once */
	double   seconds_solve;     /* inside pta_solve, callbacks included */
	double   seconds_flow;      /* of which whole-graph passes (copy cycles, positive-weight cycles, order) */
	double   seconds_lcd;       /* of which lazy cycle detection's searches */
} pta_stats;

void pta_get_stats(const pta_solver *s, pta_stats *out);

#endif
