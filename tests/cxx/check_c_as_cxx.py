#!/usr/bin/env python3
"""check_c_as_cxx.py — function pointers in C++ code resolve as in C: the C
test programs that are valid C++ compiled with clang++-22 give, at every
indirect site, the same r0 and rpm targets as the same program compiled
with clang-22 (whose targets tests/facet and tests/pta_programs check
exactly against the sources), at -O0 and -O2.

Usage: check_c_as_cxx.py FACET INCLUDE_DIR PROGRAM.c...

Sites are matched by (line, column, ordinal at that place); targets by
name without C++'s parameter list ("op_push(vm*)" is op_push). A program
that is not valid C++ must fail to compile as C++ for the reason NOT_CXX
gives (checked, so the list stays true); every other program must compile.
"""
import json
import os
import subprocess
import sys
import tempfile

# Why these C programs are not C++ (the first error clang++-22 reports).
NOT_CXX = {
    # malloc's (or another function's) void * assigned to a typed pointer without a cast
    "alloc_pointers.c": "void *", "dynarray.c": "void *", "handler_list.c": "void *",
    "heap_wrapper.c": "void *", "pthread_arg.c": "void *", "qsort_cmp.c": "void *",
    "recursion_fp.c": "void *", "struct_copy.c": "void *", "void_cast.c": "void *",
    "anon_union.c": "void *", "cast_address.c": "void *", "collapsed.c": "void *",
    "collapsed_copy.c": "void *", "copies.c": "void *", "established.c": "void *",
    "jpeg.c": "void *", "modules.c": "void *", "register.c": "void *", "same_name.c": "void *",
    "vector_copy.c": "void *", "alloc_pool_blocks.c": "void *",
    # C++ has no unprototyped function types: int (*)() takes no arguments there
    "unprototyped.c": "int (*)()", "unprototyped_table.c": "void (*)()",
    # the address of a compound literal (a temporary in C++)
    "callee_type.c": "temporary",
    # strcmp given the comparator's const void * key (no conversion to const char * in C++)
    "bsearch_cmds.c": "strcmp",
}


def short(name):
    return name.split("(")[0]


def graph(facet, bc, g):
    out = subprocess.run([facet, "callgraph", "--graph", g, "--format", "json", bc], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("facet callgraph %s: %s" % (bc, out.stderr))
    j = json.loads(out.stdout)
    label = {f["name"]: short(f.get("demangled", f["name"])) for f in j["functions"]}
    by_place, sites = {}, {}
    for s in j["sites"]:
        if s["kind"] != "indirect":
            continue
        place = (os.path.basename(s.get("file") or ""), s["line"], s["column"])
        k = by_place.get(place, 0)
        by_place[place] = k + 1
        sites[place + (k,)] = sorted(label[t] for t in s["targets"])
    return sites


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    facet, inc, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for src in programs:
            base = os.path.basename(src)
            for level in ("-O0", "-O2"):
                c_bc = os.path.join(tmp, base + level + ".c.bc")
                x_bc = os.path.join(tmp, base + level + ".cxx.bc")
                cx = subprocess.run(["clang++-22", "-x", "c++", "-g", level, "-w", "-I", inc, "-c", "-emit-llvm",
                                     src, "-o", x_bc], capture_output=True, text=True)
                if base in NOT_CXX:
                    if cx.returncode == 0:
                        print("FAIL %s: listed as not C++ (%s) but clang++-22 compiles it" % (base, NOT_CXX[base]))
                        bad += 1
                    elif NOT_CXX[base] not in cx.stderr:
                        print("FAIL %s: clang++-22 fails for another reason than %r: %s" %
                              (base, NOT_CXX[base], cx.stderr.strip().splitlines()[0]))
                        bad += 1
                    break
                if cx.returncode != 0:
                    print("FAIL %s %s: not valid C++ and not listed: %s" % (base, level, cx.stderr.strip()[:300]))
                    bad += 1
                    break
                subprocess.run(["clang-22", "-g", level, "-w", "-I", inc, "-c", "-emit-llvm", src, "-o", c_bc],
                               check=True)
                for g in ("r0", "rpm"):
                    c_sites, x_sites = graph(facet, c_bc, g), graph(facet, x_bc, g)
                    if set(c_sites) != set(x_sites):
                        print("FAIL %s %s: indirect sites differ: C only %s, C++ only %s" %
                              (base, level, sorted(set(c_sites) - set(x_sites)), sorted(set(x_sites) - set(c_sites))))
                        bad += 1
                        continue
                    for k in sorted(c_sites):
                        checked += 1
                        if c_sites[k] != x_sites[k]:
                            print("FAIL %s %s %s at line %d: C %s, C++ %s" % (base, level, g, k[1], c_sites[k], x_sites[k]))
                            bad += 1
    print("check_c_as_cxx: %d site graphs compared, %s" % (checked, "ok" if not bad else "%d failures" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
