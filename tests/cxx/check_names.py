#!/usr/bin/env python3
"""check_names.py — C++ names in every output (issue 19, "Names"): the name
people read is the demangled one, and JSON keeps the mangled symbol beside it
in "symbol" (beside "name") or "KEY_symbol" (beside another key, as a site's
"caller_symbol").

Usage: check_names.py FACET PROGRAM.cpp...

Each program is compiled with clang++-22 -g -O0. The expected names come from
the bitcode, not from facet: llvm-dis-22 lists its functions, llvm-cxxfilt-22
demangles them. Checked:
  - callgraph json: each function's "demangled" is cxxfilt(name); dot labels;
  - explain (text and json), pts, and the query verbs defs, at, callers,
    callees, uses, reach, closure, slice, dominators, externals, graph,
    indirect-targets, explain (text and json) on the catalog, and the report's
    site pages: no mangled function symbol in any text, and in JSON every
    object naming a C++ function has name == cxxfilt(symbol) with symbol a
    function of the program (the same for every KEY/KEY_symbol pair);
  - lookups take either name.
Globals too: the module's mangled globals (vtables _ZTV*, typeinfo _ZTI*,
static data members), read from llvm-dis-22's global lines and demangled by
llvm-cxxfilt-22 ("vtable for Circle"), are never shown mangled in those texts
and every KEY/KEY_symbol pair naming one agrees with cxxfilt, a collapsed
object's "object"/"object_symbol" ("vtable for A*+0"/"_ZTV1A*+0") once its
"*+offset" is set aside; defs finds a global by either name; externals
lists the undeclared globals demangled with "globals_symbol" (shown name ->
symbol) beside. The llvm format of callgraph is opt's (-passes=print-callgraph) and keeps the
linked names; the callgraph json format keys functions by their linked name
(its sites name them so) with "demangled" beside.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402  (tests/lib/harness.py)

checks = Checks()
check = checks.check


def run(*args):
    out = subprocess.run(list(args), capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), out.stderr))
    return out.stdout


def program_symbols(bc):
    """{mangled function symbol: demangled} of the module: its functions (defined
    or declared, from llvm-dis-22's define/declare lines), demangled by llvm-cxxfilt."""
    syms = sorted(set(re.findall(r"^(?:define|declare)\b[^@]*@(_Z[\w.$]+)\(", run("llvm-dis-22", bc, "-o", "-"),
                                 re.M)))
    dem = run("llvm-cxxfilt-22", *syms).splitlines() if syms else []
    return dict(zip(syms, dem))


def program_globals(bc):
    """{mangled global symbol: demangled} of the module (its @_Z... = lines that
    are not aliases), demangled by llvm-cxxfilt."""
    syms = sorted(set(g for g, rest in re.findall(r"^@(_Z[\w.$]+) = (.*)$", run("llvm-dis-22", bc, "-o", "-"), re.M)
                      if not re.search(r"\balias\b", rest)))
    dem = run("llvm-cxxfilt-22", *syms).splitlines() if syms else []
    return dict(zip(syms, dem))


LOC_SUFFIX = re.compile(r"\*?\+-?\d+$")   # a location's "*+offset" (pta_loc_name)


def no_mangled(text, funcs, where):
    for sym in funcs:
        check(not re.search(r"(?<![\w])" + re.escape(sym) + r"(?![\w])", text),
              "%s: mangled %s shown" % (where, sym))


def walk_pairs(v, funcs, where, seen):
    """Every KEY / KEY_symbol (name / symbol) pair in a JSON answer."""
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "symbol" or k.endswith("_symbol"):
                continue
            sk = "symbol" if k == "name" else k + "_symbol"
            if isinstance(x, str) and x in funcs:
                check(False, "%s: %s is the mangled %s (expected %s)" % (where, k, x, funcs[x]))
            if sk in v and isinstance(x, str) and k == "object":   # a location: "NAME*+OFF"
                sym, shown = v[sk], x
                m = LOC_SUFFIX.search(sym)
                if sym.startswith("heap:"):   # heap:FILE:LINE(via F)*+OFF: F as a label
                    want = re.sub(r"_Z\w+", lambda z: funcs.get(z.group(0), z.group(0)), sym)
                    check(shown == want and want != sym,
                          "%s: object %r beside object_symbol %r" % (where, shown, sym))
                    continue
                check(m is not None and shown.endswith(m.group(0)) and
                      funcs.get(sym[:m.start()]) == shown[:len(shown) - len(m.group(0))],
                      "%s: object %r beside object_symbol %r" % (where, shown, sym))
                seen.add(sym[:m.start()] if m else sym)
            elif sk in v and isinstance(x, str):
                sym = v[sk]
                check(sym in funcs, "%s: %s %r is not a function symbol of the program" % (where, sk, sym))
                check(funcs.get(sym) == x, "%s: %s %r beside %s %r (cxxfilt says %r)" %
                      (where, sk, sym, k, x, funcs.get(sym)))
                seen.add(sym)
            elif isinstance(x, str) and x in funcs.values() and k in ("name", "caller", "callee", "target",
                                                                     "function", "in_function", "field", "key"):
                check(False, "%s: %s %r has no %s beside it" % (where, k, x, sk))
            walk_pairs(x, funcs, where, seen)
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, str) and x in funcs:
                check(False, "%s: list holds the mangled %s" % (where, x))
            walk_pairs(x, funcs, where, seen)


def fp_globals(bc, globs, funcs):
    """The program's mangled globals that hold functions (read from llvm-dis-22:
    a function symbol in the initialiser), other than the ABI's special names
    (_ZT*: vtables, construction vtables, VTTs, typeinfo): the C++ static data
    members and namespace-scope pointers facet keys as fields of their own
    (FIELD_GLOBAL, FIELD_ARRAY) when called through, as the test programs
    call through every one they define."""
    out = set()
    for g, rest in re.findall(r"^@(_Z[\w.$]+) = (.*)$", run("llvm-dis-22", bc, "-o", "-"), re.M):
        if g in globs and not g.startswith("_ZT") and \
                any(("@%s" % f) in re.findall(r"@[\w.$]+", rest) for f in funcs):
            out.add(g)
    return out


def check_fields(facet, base, bc, ex, globs, funcs, names, seen):
    """The field keys of global-kind fields: shown as the global's label, the
    symbol beside (key/key_symbol, name/symbol, the dispatch's field/field_symbol)."""
    want = fp_globals(bc, globs, funcs)
    got = set()
    for s in ex["sites"]:
        f, d = s.get("field"), s.get("dispatch") or {}
        if not f or f.get("kind") == "struct":
            continue
        sym = f.get("key_symbol", f["key"])
        if sym in globs:
            got.add(sym)
            check(f["key"] == globs[sym] and f["name"] == globs[sym] and f["record"] == globs[sym] and
                  f.get("symbol") == sym, "%s explain site %d: field %s/%s/%s (symbol %s), cxxfilt %r" %
                  (base, s["id"], f["key"], f["record"], f["name"], f.get("symbol"), globs[sym]))
            check(d.get("field") == globs[sym] and d.get("field_symbol") == sym,
                  "%s explain site %d: dispatch field %s/%s" % (base, s["id"], d.get("field"), d.get("field_symbol")))
    check(want <= got, "%s: function-pointer globals %s not explained as fields (seen %s)" %
          (base, sorted(want - got), sorted(got)))
    text = run(facet, "fields", "--list", bc)
    no_mangled(text, names, base + " fields --list")
    fl = json.loads(run(facet, "fields", "--list", "--format", "json", bc))
    walk_pairs(fl, names, base + " fields json", seen)
    listed = {f.get("key_symbol") for f in fl["field_list"]}
    check(want <= listed, "%s fields: %s not listed by symbol" % (base, sorted(want - listed)))
    for f in fl["field_list"]:
        if f.get("key_symbol") in globs:
            check(f["key"] == globs[f["key_symbol"]] and f["name"] == f["key"] and f.get("symbol") == f["key_symbol"],
                  "%s fields: %s beside %s" % (base, f["key"], f.get("key_symbol")))
    return got


def check_program(facet, src, tmp):
    base = os.path.basename(src)
    bc = os.path.join(tmp, base + ".bc")
    cat = os.path.join(tmp, base + ".facet")
    subprocess.run(["clang++-22", "-g", "-O0", "-c", "-emit-llvm", src, "-o", bc], check=True)
    funcs = program_symbols(bc)
    check(len(funcs) >= 4, "%s: only %d C++ symbols" % (base, len(funcs)))
    globs = program_globals(bc)
    check(any(g.startswith("_ZTV") for g in globs), "%s: no vtable among the globals" % base)
    names = dict(funcs, **globs)   # every mangled symbol of the program -> cxxfilt

    cg = json.loads(run(facet, "callgraph", "--format", "json", bc))
    by_name = {f["name"]: f for f in cg["functions"]}
    for sym, dem in funcs.items():
        if sym in by_name:
            check(by_name[sym].get("demangled") == dem, "%s callgraph: %s demangled %r, cxxfilt %r" %
                  (base, sym, by_name[sym].get("demangled"), dem))
    check(sum(s in by_name for s in funcs) == len([s for s in funcs if s in by_name]) and
          any(s in by_name for s in funcs), "%s callgraph: no C++ function" % base)
    dot = run(facet, "callgraph", "--format", "dot", bc)
    for sym, dem in funcs.items():
        if sym in by_name:
            check(('label="%s"' % dem.replace('"', '\\"')) in dot, "%s dot: no label %s" % (base, dem))

    # facet explain, text and JSON
    text = run(facet, "explain", "--all", bc)
    no_mangled(text, names, base + " explain")
    ex = json.loads(run(facet, "explain", "--all", "--format", "json", bc))
    seen = set()
    walk_pairs(ex, names, base + " explain json", seen)
    virt = [s for s in ex["sites"] if s.get("virtual")]
    check(virt, "%s: no virtual site explained" % base)
    for s in virt:
        for t in s["targets"]:   # a C++ function, not an extern "C" one (__cxa_pure_virtual)
            check("symbol" in t or not t["name"].endswith(")"), "%s explain: target %s has no symbol" % (base, t["name"]))
    for s in ex["sites"][:3]:
        no_mangled(run(facet, "pts", "--site", str(s["id"]), bc).split("points to:")[0], names, base + " pts")
    global_fields = check_fields(facet, base, bc, ex, globs, funcs, names, seen)

    # the catalog's answers, text and JSON
    subprocess.run([facet, "build", bc, "-o", cat], check=True, capture_output=True)
    site = virt[0]
    target = site["targets"][0]
    caller = site["caller"]
    loc = "%s:%d" % (base, site["line"])
    verbs = [["defs", target["symbol"]], ["defs", target["name"]], ["at", loc], ["callers", target["symbol"]],
             ["callees", caller], ["uses", target["symbol"]], ["reach", "main", caller],
             ["closure", "main", "--out"], ["slice", "main", caller], ["dominators", "main", caller],
             ["externals"], ["graph", "--root", "main"], ["indirect-targets", loc], ["explain", str(site["id"])]]
    vtable = min(g for g in globs if g.startswith("_ZTV"))
    verbs += [["defs", vtable], ["defs", globs[vtable]], ["resolution_candidates"]]
    # a global-kind field's site, its targets' uses and field assignments, its stores' lines
    for s in ex["sites"]:
        f = s.get("field") or {}
        if f.get("key_symbol") in global_fields:
            verbs += [["explain", str(s["id"])], ["at", "%s:%d" % (base, s["line"])]]
            for t in s["targets"]:
                verbs.append(["uses", t.get("symbol", t["name"])])
                uses = json.loads(run(facet, "query", "uses", verbs[-1][1], "--catalog", cat, "--format", "json"))
                verbs += [["at", "%s:%d" % (base, a["line"])] for a in uses["field_assignments"]
                          if a.get("field_symbol") in global_fields and a["form"] != "init"]
    check(not global_fields or any(v[0] == "at" and v[1] != loc for v in verbs),
          "%s: no store into a global-kind field asked about" % base)
    for v in verbs:
        where = "%s query %s" % (base, " ".join(v))
        text = run(facet, "query", *v, "--catalog", cat)
        ans = json.loads(run(facet, "query", *v, "--catalog", cat, "--format", "json"))
        if v[0] == "defs":   # the answer repeats the argument as given
            text = text.replace("name: %s\n" % v[1], "", 1)
            ans.pop("name")
        no_mangled(text, names, where)
        walk_pairs(ans, names, where + " json", seen)
    defs = json.loads(run(facet, "query", "defs", target["name"], "--catalog", cat, "--format", "json"))
    check([f.get("symbol") for f in defs["functions"]] == [target["symbol"]],
          "%s: defs %s gives %s" % (base, target["name"], [f.get("symbol") for f in defs["functions"]]))
    q = json.loads(run(facet, "query", "explain", str(site["id"]), "--catalog", cat, "--format", "json"))["site"]
    check(q["caller"] == caller and q.get("caller_symbol") == site.get("caller_symbol"),
          "%s: query explain caller %s/%s, facet explain %s/%s" %
          (base, q["caller"], q.get("caller_symbol"), caller, site.get("caller_symbol")))
    check({(t["name"], t.get("symbol")) for t in q["targets"] + q["not_in_graph"]} ==
          {(t["name"], t.get("symbol")) for t in site["targets"]},
          "%s: query explain and facet explain name the targets differently" % base)
    check(len(seen) >= 3, "%s: only %d symbols seen beside names" % (base, len(seen)))
    check(any(s in globs for s in seen), "%s: no global's symbol seen beside its name" % base)
    for by in (vtable, globs[vtable]):
        gd = json.loads(run(facet, "query", "defs", by, "--catalog", cat, "--format", "json"))["globals"]
        check([(g["name"], g.get("symbol")) for g in gd] == [(globs[vtable], vtable)],
              "%s: defs %s gives globals %s" % (base, by, [(g["name"], g.get("symbol")) for g in gd]))
    ext = json.loads(run(facet, "query", "externals", "--catalog", cat, "--format", "json"))
    undef = {g for g in globs if re.search(r"^@%s = external " % re.escape(g), run("llvm-dis-22", bc, "-o", "-"), re.M)}
    for shown, sym in ext.get("globals_symbol", {}).items():
        check(globs.get(sym) == shown and shown in ext["globals"], "%s externals: %r beside %r" % (base, shown, sym))
    check(undef <= set(ext.get("globals_symbol", {}).values()),
          "%s externals: undefined globals %s not all beside their names" % (base, sorted(undef)))

    # the report's site pages (its search index keeps both names, on purpose)
    rep = os.path.join(tmp, base + ".report")
    subprocess.run([facet, "report", cat, "-o", rep], check=True, capture_output=True)
    for page in sorted(os.listdir(rep)):
        if page.startswith("site-"):
            with open(os.path.join(rep, page)) as f:
                no_mangled(f.read(), names, "%s report %s" % (base, page))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    facet = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for src in sys.argv[2:]:
            check_program(facet, src, tmp)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
