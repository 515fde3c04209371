/* program.h — the .oo lab language: program model and parser.
 *
 * A .oo program (Lesson 20.1 §1) is a class forest, globals, free functions
 * (`func f { }`) and methods (`method C.m { }`) whose bodies create objects,
 * copy them between variables and make labelled virtual calls. The parser
 * builds the whole model in one arena and checks that it is type-correct
 * (Definition 20.1.4) before any analysis sees it, so the algorithms never
 * meet an unresolved name or an ill-typed assignment.
 *
 * Bodies are compiled to a flat instruction list in textual order: the
 * flow-insensitive analyses read it front to back and skip OO_CHOOSE/OO_JUMP,
 * the collecting interpreter follows the jumps. */
#ifndef FACET_OO_PROGRAM_H
#define FACET_OO_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"

/* Classes are numbered in preorder of the forest (roots and children in
 * declaration order), so sub(D) = {C | C ⪯ D} is the index range
 * [D, sub_end): the subclass test is two comparisons and a set filtered by
 * sub(D) is a bit range, in O(|C|) memory for the whole hierarchy. */
typedef struct oo_class {
	const char *name;
	int parent;          /* class index, -1 at a root of the forest */
	int sub_end;         /* sub(this class) = [index, sub_end) */
	int line, col;
} oo_class;

typedef struct oo_var {
	const char *name;    /* "this" for a method's receiver */
	int type;            /* decl(x), a class index */
	int body;            /* owning body, -1 for a global */
	int line, col;
} oo_var;

typedef enum oo_op {
	OO_NEW,              /* dst = new cls            (allocation site `alloc`) */
	OO_COPY,             /* dst = src */
	OO_VCALL,            /* site: recv.m()           (sites[site]) */
	OO_CALL,             /* call callee              (a func body) */
	OO_CHOOSE,           /* run one of branch[0..nbranch), then continue at next */
	OO_JUMP,             /* continue at next (ends a choose branch) */
} oo_op;

typedef struct oo_stmt {
	oo_op op;
	int line, col;
	int dst, src, cls, alloc;   /* OO_NEW / OO_COPY */
	int site;                   /* OO_VCALL */
	int callee;                 /* OO_CALL */
	int *branch, nbranch;       /* OO_CHOOSE */
	int next;                   /* OO_CHOOSE, OO_JUMP */
} oo_stmt;

typedef struct oo_body {
	const char *name;    /* "main", "Shape.area" */
	int cls, meth;       /* a method's class and name index; -1 for a func */
	int this_var;        /* the receiver variable of a method; -1 for a func */
	oo_stmt *code;
	int ncode;
	int line, col;
} oo_body;

typedef struct oo_site {
	const char *label;   /* "s1" */
	int body, recv, meth;
	int line, col;
} oo_site;

typedef struct oo_program {
	arena a;                     /* owns everything below */
	const char *file;
	oo_class *classes;  int nclasses;
	const char **meths; int nmeths;        /* method names, interned */
	oo_var *vars;       int nvars, nglobals; /* globals are vars[0, nglobals) */
	oo_body *bodies;    int nbodies;       /* in textual order */
	oo_site *sites;     int nsites;        /* in textual order */
	int nallocs;                 /* number of `new` statements */
	int main_body;
	int *lookup;                 /* lookup[C*nmeths+m]: body, or -1 if undefined */
	int cwords, bwords;          /* words in a class set / a body set */
	int *by_name;                /* body indices sorted by name (strcmp) */
	int *name_rank;              /* inverse: name_rank[by_name[i]] = i */
	int *cls_by_name;            /* class indices sorted by name */
} oo_program;

/* Parses and type-checks src[0, len). `file` names the input in messages,
 * which read "file:line:col: problem". Returns 0 and sets *out, or -1. */
int  oo_parse(const char *src, size_t len, const char *file, oo_program **out, facet_error *err);
/* The same over a file's contents; path "-" reads standard input (named
 * "<stdin>" in messages). */
int  oo_parse_file(const char *path, oo_program **out, facet_error *err);
void oo_program_free(oo_program *p);

/* Dispatch (Definition 20.1.4): body of lookup(C, m), or -1. */
static inline int oo_lookup(const oo_program *p, int cls, int meth)
{
	return p->lookup[(size_t)cls * (size_t)p->nmeths + (size_t)meth];
}

/* C ⪯ D */
static inline int oo_subclass(const oo_program *p, int c, int d)
{
	return d <= c && c < p->classes[d].sub_end;
}

static inline int oo_is_global(const oo_program *p, int var) { return var < p->nglobals; }

/* Sorts bodies[0, n) by name, through name_rank. */
void oo_sort_by_name(const oo_program *p, int *bodies, int n);

/* Finders for tests and tools: index or -1. */
int oo_find_class(const oo_program *p, const char *name);
int oo_find_body(const oo_program *p, const char *name);
int oo_find_site(const oo_program *p, const char *label);

#endif
