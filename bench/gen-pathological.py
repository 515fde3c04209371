#!/usr/bin/env python3
"""gen-pathological.py — C programs shaped to make a points-to solver slow.
Prints the C source.

  gen-pathological.py N [--sites K]   N functions stored into one table and K
      indirect sites (default N) that each call through the table and through
      a struct field copied from it: target sets and bindings grow as N*K.

  gen-pathological.py --chain N       a chain of N calls, f0 -> f1 -> ... ->
      fN, each passing on the pointer it received or the address of an object
      of its own, and storing what it got into a global. Compiled at -O0 every
      step goes through stack slots, so the analysis sees a copy chain about
      7N long in which every node also receives a location of its own, and
      every slot's load has the same set as the slot (the lazy cycle check's
      trigger fires on every propagation). A solver that propagates in FIFO
      rounds moves one location per node per round: cubic at -O0, while -O2
      inlines the chain away (the shape behind OpenZFS's zed taking > 600 s
      at -O0 and < 10 s at -O2)."""
import sys


def table(n, k):
    out = ["#include <stdio.h>", "#include <stdlib.h>", "", "static int sink;", ""]
    out += ["static void f%d(int x) { sink += x + %d; }" % (i, i) for i in range(n)]
    out += ["", "void (*table[%d])(int) = {" % n]
    out += ["\tf%d," % i for i in range(n)]
    out += ["};", "", "struct handler { const char *name; void (*run)(int); };", ""]
    for j in range(k):
        out.append("static void site%d(int i) { struct handler *h = malloc(sizeof *h); "
                   "h->run = table[(i + %d) %% %d]; h->run(i); table[i %% %d](i); free(h); }" % (j, j, n, n))
    out += ["", "int main(int argc, char **argv)", "{", "\t(void)argv;"]
    out += ["\tsite%d(argc);" % j for j in range(k)]
    out += ["\tprintf(\"%d\\n\", sink);", "\treturn 0;", "}"]
    return out


def chain(n):
    out = ["struct obj { int v; };", "static struct obj o[%d];" % (n + 1), "void *kept[%d];" % (n + 1), ""]
    for k in range(n, -1, -1):   # callees first: no prototypes needed
        call = " f%d(c ? p : &o[%d], c);" % (k + 1, k + 1) if k < n else ""
        out.append("static void f%d(void *p, int c) { kept[%d] = p;%s }" % (k, k, call))
    out += ["", "int main(int argc, char **argv)", "{", "\t(void)argv;", "\tf0(&o[0], argc);",
            "\treturn 0;", "}"]
    return out


if len(sys.argv) == 3 and sys.argv[1] == "--chain":
    print("\n".join(chain(int(sys.argv[2]))))
elif len(sys.argv) in (2, 4):
    n = int(sys.argv[1])
    k = int(sys.argv[3]) if len(sys.argv) == 4 and sys.argv[2] == "--sites" else n
    print("\n".join(table(n, k)))
else:
    sys.exit(__doc__)
