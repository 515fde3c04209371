/* run.h — one run of the lab as `facet oo` asks for it: one algorithm on one
 * program (with the lesson's trace table if asked), the comparison table
 * over several programs, or a generated program, printed as text or JSON. */
#ifndef FACET_OO_RUN_H
#define FACET_OO_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

typedef struct oo_request {
	int algo;                  /* an oo_algo: run it on files[0]; -1: another mode */
	int table, generate;       /* the comparison table over files; a generated program */
	int json, trace, rta_rounds, factory;
	int difficulty;            /* an oo_difficulty (gen.h) */
	long max_states;           /* the collecting interpreter's budget; 0: OO_DYN_MAX_STATES */
	long seed, size, pathological;   /* size 0: the generator's own; pathological -1: not given */
	const char **files;
	int nfiles;
} oo_request;

/* Runs r (its modes already checked: one of algo, table, generate), its
 * answer on out. False + err naming the file and the problem (a program
 * that does not parse, a state budget exceeded). */
bool oo_run(const oo_request *r, FILE *out, facet_error *err);

#endif
