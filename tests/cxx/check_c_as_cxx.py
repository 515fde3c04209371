#!/usr/bin/env python3
"""check_c_as_cxx.py — function pointers in C++ code resolve as in C: the C
test programs that are valid C++ compiled with clang++-22 give, at every
indirect site, the same r0 and rpm targets as the same program compiled
with clang-22 (whose targets tests/facet and tests/pta_programs check
exactly against the sources), at -O0 and -O2.

Usage: check_c_as_cxx.py FACET INCLUDE_DIR PROGRAM.c|PROGRAM_DIR...

A directory is one program of several units: each .c compiled to its own
bitcode, all given to facet together (which links them), as tests/r0 does.

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
    "vector_copy.c": "void *", "alloc_pool_blocks.c": "void *", "heap_member_array.c": "void *",
    # C++ has no unprototyped function types: int (*)() takes no arguments there
    "unprototyped.c": "int (*)()", "unprototyped_table.c": "void (*)()",
    "variadic_prototype.c": "int (*)()",
    # the address of a compound literal (a temporary in C++)
    "callee_type.c": "temporary",
    # strcmp given the comparator's const void * key (no conversion to const char * in C++)
    "bsearch_cmds.c": "strcmp",
    # programs of several units (directories)
    "merged_types": "void *",
    "prototype": "no matching function",   # an unprototyped declaration called with arguments
    "kernel_idioms": "alias must point",   # alias("real_handler") names the C symbol, C++ mangles it
    # module asm names the C symbols (.long early_level - .), which C++ mangles: it does not link
    "kernel_sections": "undefined reference to `early_level'",
    # a namespace-scope const object has internal linkage in C++: the other unit's extern
    # declaration finds no definition
    "merged_copy": "undefined reference to `type_num'",
    # a function converted to void * in an initializer (the kernel's static_call key), which
    # C++ does not convert implicitly
    "static_call": "cannot initialize a member subobject of type 'void *'",
}


def short(name):
    return name.split("(")[0]


def graph(facet, bcs, g):
    out = subprocess.run([facet, "callgraph", "--graph", g, "--format", "json", *bcs], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("facet callgraph %s: %s" % (" ".join(bcs), out.stderr))
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


def compile_all(cc, srcs, flags, out_dir, tag, link=None):
    """Each source to bitcode, and with link (a directory: a program of several
    units) the units linked as an executable, with the directory's *.lds
    linker script; (list of .bc, first failure's stderr or None)."""
    bcs = []
    for src in srcs:
        bc = os.path.join(out_dir, "%s.%s.bc" % (os.path.basename(src), tag))
        r = subprocess.run([cc, *flags, "-c", "-emit-llvm", src, "-o", bc], capture_output=True, text=True)
        if r.returncode != 0:
            return bcs, "%s: %s" % (os.path.basename(src), r.stderr)
        bcs.append(bc)
    if link:
        lds = [os.path.join(link, f) for f in sorted(os.listdir(link)) if f.endswith(".lds")]
        r = subprocess.run([cc, *flags, *srcs, *["-Wl,-T," + x for x in lds], "-o",
                            os.path.join(out_dir, tag + ".exe")], capture_output=True, text=True)
        if r.returncode != 0:
            return bcs, "link: %s" % r.stderr
    return bcs, None


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    facet, inc, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for src in programs:
            base = os.path.basename(src.rstrip("/"))
            srcs = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".c")) \
                if os.path.isdir(src) else [src]
            work = os.path.join(tmp, base)
            os.makedirs(work, exist_ok=True)
            for level in ("-O0", "-O2"):
                x_bc, err = compile_all("clang++-22", srcs, ["-x", "c++", "-g", level, "-w", "-I", inc], work,
                                        level + ".cxx", src if os.path.isdir(src) else None)
                if base in NOT_CXX:
                    if err is None:
                        print("FAIL %s: listed as not C++ (%s) but clang++-22 compiles it" % (base, NOT_CXX[base]))
                        bad += 1
                    elif NOT_CXX[base] not in err:
                        print("FAIL %s: clang++-22 fails for another reason than %r: %s" %
                              (base, NOT_CXX[base], err.strip()[:300]))
                        bad += 1
                    break
                if err is not None:
                    print("FAIL %s %s: not valid C++ and not listed: %s" % (base, level, err.strip()[:300]))
                    bad += 1
                    break
                c_bc, err = compile_all("clang-22", srcs, ["-g", level, "-w", "-I", inc], work, level + ".c")
                if err is not None:
                    raise RuntimeError("clang-22 %s: %s" % (base, err))
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
