/* pset.h — hash-consed points-to sets: every distinct set is stored once.
 *
 * In a context-insensitive analysis of a large C program most points-to sets
 * are equal to many others (every copy of a pointer that reaches the same
 * pool or collapsed object holds the same few thousand locations), and most
 * of them lie on no cycle, so cycle merging does not join them. A store
 * keeps each distinct set once, named by a 32-bit id: equality is an id
 * compare, a union or difference already computed is a cache hit, and a
 * copy edge into an equal set costs nothing.
 *
 * Contract:
 *   - Sets are immutable once made; PSET_EMPTY (0) is the empty set, always
 *     alive. Two live ids are equal iff their sets are.
 *   - Ids are reference-counted. Every function that returns an id, or
 *     stores one through a pointer, hands the caller a reference; pset_unref
 *     drops one. A set with no references is freed and its id may be reused.
 *   - pset_join updates a set held in a slot the caller owns: when the slot
 *     holds the only reference it may change the set in place (the id may
 *     stay the same, with different contents). That is the one way an id's
 *     contents change, so never keep an id without a reference.
 *   - pset_bits's pointer is valid until the next call that makes, changes
 *     or frees a set. */
#ifndef FACET_PTA_PSET_H
#define FACET_PTA_PSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/sbitmap.h"

#define PSET_EMPTY 0u

typedef struct pset_store pset_store;

pset_store *pset_new(void);
void        pset_free(pset_store *ps);

const sbitmap *pset_bits(const pset_store *ps, uint32_t id);
uint32_t       pset_count(const pset_store *ps, uint32_t id);   /* |set| */
void           pset_ref(pset_store *ps, uint32_t id);
void           pset_unref(pset_store *ps, uint32_t id);

/* The id of the set in *bits; takes bits' memory (bits is left empty). */
uint32_t pset_intern(pset_store *ps, sbitmap *bits);

/* a \ b and a ∩ b (new references). The difference is memoised. */
uint32_t pset_diff(pset_store *ps, uint32_t a, uint32_t b);
uint32_t pset_intersect(pset_store *ps, uint32_t a, uint32_t b);

/* *slot ∪= b; returns the number of elements added. `hint` may be NULL, or
 * a set with *slot ∪ hint == *slot ∪ b that is cheaper to merge (b's part
 * *slot lacks); it is used only when the slot's set is changed in place.
 * Unions of shared sets are memoised. */
size_t pset_join(pset_store *ps, uint32_t *slot, uint32_t b, const sbitmap *hint);
/* *slot ∪= bits (not memoised: bits has no id); *slot ∪= {v}. */
size_t pset_join_bits(pset_store *ps, uint32_t *slot, const sbitmap *bits);
size_t pset_add(pset_store *ps, uint32_t *slot, unsigned v);

typedef struct pset_stats {
	size_t live;          /* distinct sets alive */
	size_t bytes;         /* heap bytes of their elements and of the store */
	size_t made;          /* sets made (interned, or changed in place) */
	size_t hits;          /* memoised unions and differences found */
	size_t shared;        /* sets made that were equal to a live set */
} pset_stats;

void pset_get_stats(const pset_store *ps, pset_stats *out);

#endif
