#!/usr/bin/env python3
"""check_vslot_warrants.py — vslot's decisions in `facet explain`, the
catalog's `query explain` and the proof labels, against the program.

Usage: check_vslot_warrants.py FACET CXX_PROGRAM.cpp C_PROGRAM.c

The C++ program (compiled with clang++-22 -g -O0) carries, besides
check_vcalls.py's per-line @cha{...} and @vslot{...} markers:
    @vtable C{f0; f1; ...}   the functions class C's vtable holds, slot by slot
    @objects{C; D}           on a call's line: the classes of the objects its
                             receiver may point to (of those whose vtable
                             holds the running method, for a call on `this`)
At every marked virtual call the warrants must be exactly:
  - one Add-Witness (graph vslot, premise true) per cha target f, naming a
    slot N of a class C's vtable with vtable C[N] = f and N the call's slot;
  - one Prune-Class (graph vslot, premise pi_class) per target of cha that
    vslot drops, naming exactly the @objects classes; none for the others;
  - vslot in in_graphs exactly for the vslot targets;
and, from the catalog under --graph vslot, every target's proof is
premise-free by Add-Witness. On the C program (function pointers, no
virtual call) no site is virtual and no in_graphs names cha, rta, vta or
vslot, in facet explain and in query explain; the C++ graphs still hold
their copies there (vslot = rpm, vta = r0 at every site).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MARK = re.compile(r"@(cha|vslot|objects)\{([^}]*)\}")
VTABLE = re.compile(r"@vtable (\S+)\{([^}]*)\}")
CXX = ("cha", "rta", "vta", "vslot")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402  (tests/lib/harness.py)

checks = Checks()
check = checks.check


def names(body):
    return {n.strip() for n in body.split(";") if n.strip()}


def run(*args):
    out = subprocess.run(list(args), capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), out.stderr))
    return out.stdout


def markers(path):
    marks, vtables = {}, {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            for cls, body in VTABLE.findall(line):
                vtables[cls] = [n.strip() for n in body.split(";")]
            for g, body in MARK.findall(line):
                marks.setdefault(lineno, {})[g] = names(body)
    return {l: m for l, m in marks.items() if "objects" in m}, vtables


def check_cxx(facet, src, tmp):
    marks, vtables = markers(src)
    check(marks and vtables, "%s: no @objects or @vtable markers" % src)
    bc = os.path.join(tmp, "cxx.bc")
    cat = os.path.join(tmp, "cxx.facet")
    subprocess.run(["clang++-22", "-g", "-O0", "-c", "-emit-llvm", src, "-o", bc], check=True)
    label = {f["name"]: f.get("demangled", f["name"])
             for f in json.loads(run(facet, "callgraph", "--format", "json", bc))["functions"]}
    sites = json.loads(run(facet, "explain", "--all", "--format", "json", bc))["sites"]
    seen = set()
    for s in sites:
        m = marks.get(s["line"])
        if not m or not s["virtual"]:
            continue
        seen.add(s["line"])
        where = "%s:%d" % (os.path.basename(src), s["line"])
        slot = s["virtual"]["slot"]
        witnessed, pruned, in_vslot = set(), set(), set()
        for t in s["targets"]:
            f = label.get(t["name"], t["name"])
            if "vslot" in t["in_graphs"]:
                in_vslot.add(f)
            for w in t["warrants"]:
                if w["graph"] != "vslot":
                    continue
                if w["rule"] == "Add-Witness":
                    check(f not in witnessed, "%s: two witnesses for %s" % (where, f))
                    witnessed.add(f)
                    check(w["fact"] == "add" and w["outcome"] == "supported" and w["premise"] == "true",
                          "%s: %s's witness is %s/%s/%s" % (where, f, w["fact"], w["outcome"], w["premise"]))
                    ev = re.match(r"slot (\d+) of (.+?)'s vtable", w["evidence"] or "")
                    check(ev is not None, "%s: witness evidence %r" % (where, w["evidence"]))
                    if ev:
                        n, cls = int(ev.group(1)), ev.group(2)
                        check(n == slot, "%s: %s witnessed in slot %d, the call's is %s" % (where, f, n, slot))
                        row = vtables.get(cls, [])
                        check(n < len(row) and row[n] == f,
                              "%s: %s's witness names slot %d of %s, which holds %s" %
                              (where, f, n, cls, row[n] if n < len(row) else "nothing"))
                elif w["rule"] == "Prune-Class":
                    pruned.add(f)
                    check(w["fact"] == "prune" and w["outcome"] == "supported" and w["premise"] == "pi_class",
                          "%s: %s's prune is %s/%s/%s" % (where, f, w["fact"], w["outcome"], w["premise"]))
                    ev = re.search(r"objects of (.+) only", w["evidence"] or "")
                    got = {c.strip() for c in ev.group(1).split(",")} if ev else None
                    check(got == m["objects"], "%s: %s pruned by the classes %s, expected %s" %
                          (where, f, got, sorted(m["objects"])))
                else:
                    check(False, "%s: vslot warrant by rule %s" % (where, w["rule"]))
        check(witnessed == m["cha"], "%s: witnessed %s, cha is %s" % (where, sorted(witnessed), sorted(m["cha"])))
        check(pruned == m["cha"] - m["vslot"], "%s: Prune-Class on %s, expected %s" %
              (where, sorted(pruned), sorted(m["cha"] - m["vslot"])))
        check(in_vslot == m["vslot"], "%s: in_graphs vslot %s, expected %s" % (where, sorted(in_vslot), sorted(m["vslot"])))
    check(seen == set(marks), "%s: no virtual site explained on lines %s" % (src, sorted(set(marks) - seen)))

    # The catalog: the same decisions, and the proof labels under vslot.
    subprocess.run([facet, "build", bc, "-o", cat], check=True, capture_output=True)
    for s in sites:
        m = marks.get(s["line"])
        if not m or not s["virtual"]:
            continue
        where = "%s:%d (catalog)" % (os.path.basename(src), s["line"])
        q = json.loads(run(facet, "query", "explain", str(s["id"]), "--catalog", cat, "--graph", "vslot",
                           "--format", "json"))["site"]
        check(q["virtual"] == s["virtual"], "%s: virtual %s, facet explain says %s" % (where, q["virtual"], s["virtual"]))
        got = {t["name"] for t in q["targets"]}
        check(got == m["vslot"], "%s: targets %s, expected %s" % (where, sorted(got), sorted(m["vslot"])))
        for t in q["targets"]:
            p = t["proof"]
            check(p["kind"] == "premise-free" and p["rule"] == "Add-Witness",
                  "%s: %s's proof is %s by %s" % (where, t["name"], p["kind"], p["rule"]))
            check(re.match(r"slot \d+ of .+'s vtable", p.get("evidence") or "") is not None,
                  "%s: %s's proof evidence %r" % (where, t["name"], p.get("evidence")))
        for t in q["not_in_graph"]:
            if t["name"] in m["cha"] - m["vslot"]:
                rules = {(w["graph"], w["rule"]) for w in t["warrants"]}
                check(("vslot", "Prune-Class") in rules, "%s: dropped %s has no Prune-Class (%s)" %
                      (where, t["name"], sorted(rules)))


def check_c(facet, src, tmp):
    bc = os.path.join(tmp, "c.bc")
    cat = os.path.join(tmp, "c.facet")
    subprocess.run(["clang-22", "-g", "-O0", "-c", "-emit-llvm", src, "-o", bc], check=True)
    base = os.path.basename(src)
    sites = json.loads(run(facet, "explain", "--all", "--format", "json", bc))["sites"]
    check(sites, "%s: no indirect site to explain" % base)
    subprocess.run([facet, "build", bc, "-o", cat], check=True, capture_output=True)
    graphs = {g: {s["id"]: sorted(s["targets"]) for s in
                  json.loads(run(facet, "callgraph", "--graph", g, "--format", "json", bc))["sites"]}
              for g in ("r0", "rpm", "vta", "vslot", "cha")}
    for s in sites:
        where = "%s:%d" % (base, s["line"])
        check(s["virtual"] is None, "%s: virtual %s" % (where, s["virtual"]))
        for t in s["targets"]:
            check(not set(t["in_graphs"]) & set(CXX), "%s: %s in_graphs %s" % (where, t["name"], t["in_graphs"]))
            check(all(w["graph"] == "rpm" for w in t["warrants"]), "%s: a vslot warrant at a C site" % where)
        for g in ("vslot", "cha"):
            q = json.loads(run(facet, "query", "explain", str(s["id"]), "--catalog", cat, "--graph", g,
                               "--format", "json"))["site"]
            check(q["virtual"] is None, "%s (catalog, %s): virtual %s" % (where, g, q["virtual"]))
            for t in q["targets"] + q["not_in_graph"]:
                check(not set(t["in_graphs"]) & set(CXX),
                      "%s (catalog, %s): %s in_graphs %s" % (where, g, t["name"], t["in_graphs"]))
        # the copies stay: vslot is R± and vta R0 at a site that is not virtual
        check(graphs["vslot"][s["id"]] == graphs["rpm"][s["id"]], "%s: vslot %s, rpm %s" %
              (where, graphs["vslot"][s["id"]], graphs["rpm"][s["id"]]))
        check(graphs["vta"][s["id"]] == graphs["r0"][s["id"]], "%s: vta is not r0" % where)
        check(graphs["cha"][s["id"]], "%s: cha holds nothing at a reachable function-pointer call" % where)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    facet, cxx, c = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        check_cxx(facet, cxx, tmp)
        check_c(facet, c, tmp)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
