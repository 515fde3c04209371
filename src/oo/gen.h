/* gen.h — program generators: random type-correct programs for the property
 * test, the drills and the benchmark, and the pathological family P_n of §5.
 * All return the program text, malloc'd (the caller frees it); the same seed
 * always gives the same program. */
#ifndef FACET_OO_GEN_H
#define FACET_OO_GEN_H

#include <stdint.h>

typedef enum oo_difficulty { OO_EASY, OO_MEDIUM, OO_HARD } oo_difficulty;

int         oo_difficulty_parse(const char *name);   /* an oo_difficulty, or -1 */
const char *oo_difficulty_name(int d);

/* A random type-correct program. size 0 keeps the difficulty's small shape
 * (what the property test and the drills use); size > 0 asks for about
 * `size` bodies, for the benchmark. */
char *oo_generate(uint64_t seed, oo_difficulty d, int size);

/* P_n (§5): class A with m, D_1..D_n extends A each overriding m, main with
 * x = new D_1 and n sites x.m(). With factory, main also calls a function that
 * creates every D_k — RTA's worst case, XTA's best. */
char *oo_generate_pathological(int n, int factory);

#endif
