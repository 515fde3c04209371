#!/usr/bin/env python3
"""gen-pathological.py N [--sites K] — a C program with N functions stored into
one table and K indirect sites (default N) that each call through the table and
through a struct field copied from it: the shape that makes a points-to
analysis's target sets and bindings grow as N*K. Prints the C source."""
import sys

n = int(sys.argv[1])
k = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--sites" else n
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
print("\n".join(out))
