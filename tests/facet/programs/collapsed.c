/* A site whose targets come from a collapsed points-to object (issue 15.3):
 * main reads a pointer of the heap array of structs at a variable byte
 * offset, so the array collapses — one location for all its fields — at that GEP in
 * main (t[argc & 3].f alone steps by whole entries and would fold it), and
 * the call through it may reach every function stored anywhere in it.
 * explain names the object, the cause and the function of the statement;
 * the table `named` is indexed by constants only and collapses nothing.
 * A site whose callee set no collapsed object holds reports none
 * (rejected.c checks that).
 * R0 keeps the three (one IR type); the field ops.f is keyed and F holds a
 * and c, stored into .f: Prune-Store refutes b, stored into .g. */
#include <stdlib.h>

static int a(int x) { return x + 1; }
static int b(int x) { return x + 2; }
static int c(int x) { return x + 3; }
struct ops { int (*f)(int); int (*g)(int); };
struct ops named[2] = {{a, b}, {c, a}};   /* writable and visible: -O2 keeps the load */
static volatile size_t at;

int main(int argc, char **argv)
{
	(void)argv;
	struct ops *t = malloc(4 * sizeof *t);
	t[0].f = a;
	t[1].g = b;
	t[2].f = c;
	int r = t[argc & 3].f(argc); /* SITE heap */
	r += *(void *const *)((unsigned char *)t + (at & 63)) != NULL;   /* a byte stride, a pointer read */
	r += named[1].g(argc); /* SITE table */
	free(t);
	return r;
}

/*
 * What explain reports is which collapsed objects hold locations of the
 * callee's set, not that the set was read from them: at the table's call
 * (callee set {a}) the heap array holds a too, and is named.
 // EXPECT heap r0: a b c
 // EXPECT heap collapsed: 3 a main
 // EXPECT heap rpm: a c
 // EXPECT table r0: a
 // EXPECT table collapsed: 1 a main
 */
