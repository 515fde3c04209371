#!/usr/bin/env python3
"""check_vcalls.py — the C++ virtual-call graphs against the expectations
written in each program's comments.

Usage: check_vcalls.py FACET PROGRAM.cpp|PROGRAM_DIR...

A directory is one program of several units: each .cpp compiled to its own
bitcode and all given to facet together (it links them as llvm-link does);
its markers are read from every unit, by file and line.

Markers, in a comment on the line of a virtual call (names demangled, as the
Itanium demangler prints them, separated by ';'):
    @cha{A; B} @rta{...} @vta{...} @vslot{...}
the exact targets of the virtual call sites on that line, compiled with
`clang++-22 -g -O0`; `@cha{}` says the site is unreachable (no target).
    @r0{...} @rpm{...}
the same for every indirect site on the line, virtual or not (a call
through a function pointer: a static data member, a table).
    @GRAPH(O2){...}
the exact targets at -O2 (and -O2 with !type metadata) of the line's sites
(virtual ones for cha/rta/vta/vslot, every indirect one for r0/rpm).
`@class{NAME}` on such a line: the sites' receiver's static class (the
callgraph's virtual.class, demangled) at -O0.
A file-level `@total cha=N rta=M ...` gives the number of edges over all
virtual sites. At -O2 every virtual site that is left must be on a marked
line and have cha targets within that line's -O0 cha set (empty when the
optimiser inlined its function's every caller away: then it is unreachable).
A program with `@no-O2` is checked at -O0 only.

The same checks run on two builds that put `!type` metadata in the module
(issue 19's `!type` join): -flto -fwhole-program-vtables, and
-flto -fvisibility=hidden -fsanitize=cfi-vcall; their -O0 builds are held to
the exact -O0 markers. There, the bitcode must carry `!type` on the vtables
and `llvm.type.test` calls (read from llvm-dis), and every virtual site with a
slot must take its static class from the type test (class_from "type.test"),
which names the same class the debug info does (@class).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

GRAPHS = ("cha", "rta", "vta", "vslot", "r0", "rpm")
VIRTUAL_ONLY = ("cha", "rta", "vta", "vslot")   # markers of these name virtual sites only
MARK = re.compile(r"@(cha|rta|vta|vslot|r0|rpm)(\(O2\))?\{([^}]*)\}")
CLASS = re.compile(r"@class\{([^}]*)\}")


def fail(msg):
    print("FAIL " + msg)
    return 1


def units(path):
    if os.path.isdir(path):
        return sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".cpp"))
    return [path]


def markers(path):
    """Markers by (file name, line)."""
    marks, totals, o2 = {}, {}, True
    for unit in units(path):
        with open(unit) as f:
            text = f.readlines()
        for lineno, line in enumerate(text, 1):
            at = (os.path.basename(unit), lineno)
            for g, o2_mark, body in MARK.findall(line):
                names = {n.strip() for n in body.split(";") if n.strip()}
                marks.setdefault(at, {})[g + o2_mark] = names
            for body in CLASS.findall(line):
                marks.setdefault(at, {})["class"] = body.strip()
            t = re.search(r"@total((?:\s+\w+=\d+)+)", line)
            if t:
                for kv in t.group(1).split():
                    k, v = kv.split("=")
                    totals[k] = int(v)
            if "@no-O2" in line:
                o2 = False
    return marks, totals, o2


def where(s):
    return (os.path.basename(s.get("file") or ""), s["line"])


def graph(facet, bcs, g, indirect=False):
    """The virtual sites (every indirect one with indirect) of graph g, and the functions' labels."""
    out = subprocess.run([facet, "callgraph", "--graph", g, "--format", "json", *bcs],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("facet callgraph --graph %s %s: %s" % (g, " ".join(bcs), out.stderr))
    j = json.loads(out.stdout)
    label = {f["name"]: f.get("demangled", f["name"]) for f in j["functions"]}
    sites = [s for s in j["sites"] if "virtual" in s or (indirect and s.get("kind") == "indirect")]
    return sites, label


def exact_lines(sites, label, marks, key, level, g):
    """Every line marked `key` has sites whose targets are exactly the marked ones."""
    bad = 0
    by_line = {}
    for s in sites:
        by_line.setdefault(where(s), set()).update(label[t] for t in s["targets"])
    for (unit, line), want in sorted(marks.items()):
        if key not in want:
            continue
        if (unit, line) not in by_line:
            bad += fail("%s:%d -%s: no %s call site on this line" %
                        (unit, line, level, "virtual" if g in VIRTUAL_ONLY else "indirect"))
            continue
        got = by_line[(unit, line)]
        if got != want[key]:
            bad += fail("%s:%d -%s %s: targets %s, expected %s" % (unit, line, level, g, sorted(got), sorted(want[key])))
    return bad


# (name, clang++ flags, whether the module carries !type metadata)
LEVELS = (("O0", ["-O0"], False), ("O2", ["-O2"], False),
          ("O0-wpv", ["-O0", "-flto", "-fwhole-program-vtables"], True),
          ("O2-wpv", ["-O2", "-flto", "-fwhole-program-vtables"], True),
          ("O0-cfi", ["-O0", "-flto", "-fvisibility=hidden", "-fsanitize=cfi-vcall", "-fno-sanitize-ignorelist"], True))


def check_type_md(facet, base, bc, level):
    """The !type build: metadata present, and the type tests give the sites their class."""
    bad = 0
    ir = "".join(subprocess.run(["llvm-dis-22", b, "-o", "-"], capture_output=True, text=True, check=True).stdout
                 for b in bc)
    if not re.search(r"^@_ZTV\S* = .*!type !", ir, re.M):
        bad += fail("%s -%s: no vtable carries !type metadata" % (base, level))
    sites, _ = graph(facet, bc, "cha")
    # (a member-function pointer's call is not a vcall for cfi-vcall: no test)
    slotted = [s for s in sites if s["virtual"].get("slot") is not None]
    if slotted and "llvm.type.test" not in ir and "llvm.public.type.test" not in ir:
        bad += fail("%s -%s: no llvm.type.test call" % (base, level))
    for s in sites:
        v = s["virtual"]
        if v.get("slot") is not None and v.get("class_from") != "type.test":
            bad += fail("%s:%d -%s: class %s from %s, not the type test" %
                        (where(s)[0], s["line"], level, v.get("class"), v.get("class_from")))
    return bad


def check_level(facet, src, bc, marks, totals, level):
    bad = 0
    base = os.path.basename(src)
    for g in GRAPHS:
        sites, label = graph(facet, bc, g, indirect=g not in VIRTUAL_ONLY)
        if g not in VIRTUAL_ONLY:
            bad += exact_lines(sites, label, marks, g if level.startswith("O0") else g + "(O2)", level, g)
            continue
        if level.startswith("O0"):
            for s in sites:
                want = marks.get(where(s), {}).get("class")
                if g == "cha" and want is not None and s["virtual"].get("class") != want:
                    bad += fail("%s:%d -%s: static class %s, expected %s" %
                                (where(s)[0], s["line"], level, s["virtual"].get("class"), want))
            bad += exact_lines(sites, label, marks, g, level, g)
            if g in totals:
                n = sum(len(s["targets"]) for s in sites)
                if n != totals[g]:
                    bad += fail("%s -%s %s: %d edges at virtual sites, expected %d" % (base, level, g, n, totals[g]))
        else:
            bad += exact_lines(sites, label, marks, g + "(O2)", level, g)
        if not level.startswith("O0") and g == "cha":
            for s in sites:
                want = marks.get(where(s), {}).get("cha")
                got = {label[t] for t in s["targets"]}
                if want is None:
                    bad += fail("%s:%d -%s: a virtual site on an unmarked line" % (where(s)[0], s["line"], level))
                elif not got <= want:
                    bad += fail("%s:%d -%s cha: targets %s not a subset of -O0's %s" %
                                (where(s)[0], s["line"], level, sorted(got), sorted(want)))
    return bad


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    facet, bad = sys.argv[1], 0
    with tempfile.TemporaryDirectory() as tmp:
        for src in sys.argv[2:]:
            marks, totals, o2 = markers(src)
            if not marks:
                bad += fail("%s: no markers" % src)
                continue
            for level, flags, type_md in LEVELS:
                if level.startswith("O2") and not o2:
                    continue
                bc = []
                for unit in units(src):
                    bc.append(os.path.join(tmp, "%s.%s.%s.bc" % (os.path.basename(src), os.path.basename(unit), level)))
                    cc = subprocess.run(["clang++-22", "-g", *flags, "-w", "-c", "-emit-llvm", unit, "-o", bc[-1]],
                                        capture_output=True, text=True)
                    if cc.returncode != 0:
                        bad += fail("%s: clang++-22 -%s failed: %s" % (unit, level, cc.stderr))
                        break
                else:
                    cc = None
                if cc is not None:
                    continue
                bad += check_level(facet, src, bc, marks, totals, level)
                if type_md and level.startswith("O0"):
                    bad += check_type_md(facet, os.path.basename(src), bc, level)
    print("check_vcalls: %s" % ("ok" if bad == 0 else "%d failures" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
