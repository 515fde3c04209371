#!/usr/bin/env python3
"""check_source.py FACET FACET_QUERY SRCDIR — facet source on small trees
written for it (tests/source/trees/), every call site's targets exact.

Each call line in the trees carries its expected answer, written from
reading the program: /* -> T ... */ where a token is
  name@file     a defined function (file: where it is defined)
  name          a function no unit defines (external)
  name@file:W   an indirect target warranted by an initializer (Add-Witness)
  name@file:S   an indirect target warranted by a store, copy or argument (Add-Store)
  name@file:T   an indirect target of the type fallback (Type-Fallback): the
                site's evidence is incomplete and the function's address is
                taken somewhere in the tree with a type that fits the call's
  !name@file    a candidate Prune-Sig refutes (a decision, not an edge)
  ambiguous     a direct call whose name several units define (no one callee)
  unresolved    an indirect call with no target, or whose evidence is
                incomplete (counted unresolved in the catalog: sites.resolved)
A line with a call and no marker, or a marker and no call, fails.
Then: the compile_commands.json path, hostile inputs, every query verb on
a source catalog, and the ambiguous/unresolved counts in uncertainty."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

FACET, QUERY, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
TREES = os.path.join(SRC, "tests", "source", "trees")
checks = Checks()
check = checks.check


def run(args, cwd=None):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


MARK = re.compile(r"/\* -> (.*?) \*/")
MARK_IR = re.compile(r"^\s*/\* ir -> (.*?) \*/")


def expected(tree, mark=MARK):
    """{(file, line): tokens}; with MARK_IR, the lines whose next line is an
    `/* ir -> ... */` comment: what --type-fallback ir gives there."""
    want = {}
    for name in sorted(os.listdir(tree)):
        if not name.endswith(".c"):
            continue
        with open(os.path.join(tree, name)) as f:
            for i, line in enumerate(f, 1):
                m = mark.search(line)
                if m:
                    want[(name, i - 1 if mark is MARK_IR else i)] = set(m.group(1).split())
    return want


def actual(catalog):
    db = sqlite3.connect(catalog)
    fns = {i: (n, f, d) for i, n, f, d in db.execute("SELECT id, source_name, file, defined FROM functions")}

    def label(fid):
        n, f, d = fns[fid]
        return f"{n}@{f}" if d else n

    rules = {}
    got = {}
    for site, fn, fact, rule in db.execute("SELECT site, function, fact, rule FROM decisions"):
        rules[(site, fn)] = (fact, rule)
    (bit,) = db.execute("SELECT bit FROM graphs WHERE name = 'source'").fetchone()
    for sid, kind, callee, file, line, resolved in db.execute(
            "SELECT id, kind, callee, file, line, resolved FROM sites"):
        toks = got.setdefault((file, line), set())
        targets = [t for (t,) in db.execute("SELECT target FROM edges_source WHERE site = ?", (sid,))]
        if kind == "direct":
            if callee is None:
                toks.add("ambiguous")
            toks.update(label(t) for t in targets)
            continue
        check(bool(targets) or not resolved & bit, f"{file}:{line}: a site with no target is unresolved")
        if not resolved & bit:
            toks.add("unresolved")
        for t in targets:
            fact, rule = rules.get((sid, t), ("?", "?"))
            toks.add(label(t) + {"Add-Witness": ":W", "Add-Store": ":S", "Type-Fallback": ":T"}.get(rule, ":?" + rule))
        for (s2, fn), (fact, rule) in rules.items():
            if s2 == sid and fact == "prune" and rule == "Prune-Sig":
                toks.add("!" + label(fn))
    db.close()
    return got


def compare(tree_name, want, got):
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key), got.get(key)
        where = f"{tree_name}/{key[0]}:{key[1]}"
        if w is None:
            check(False, f"{where}: a call site facet found and the tree does not mark: {sorted(g)}")
        elif g is None:
            check(False, f"{where}: marked {sorted(w)}, facet has no call site there")
        else:
            check(w == g, f"{where}: want {sorted(w)}, facet says {sorted(g)}")


def source_tree(tmp, name, extra=()):
    tree = os.path.join(tmp, name)
    shutil.copytree(os.path.join(TREES, name), tree)
    out = os.path.join(tmp, name + ".facet")
    rc, _, err = run([FACET, "source", "-o", out, *extra, "."], cwd=tree)
    check(rc == 0, f"{name}: facet source exits 0 (got {rc}: {err.strip()[-400:]})")
    return tree, out, err


def trees(tmp):
    tree, cat, err = source_tree(tmp, "calls")
    if os.path.exists(cat):
        compare("calls", expected(tree), actual(cat))
    tree, cat_i, err = source_tree(tmp, "idioms")
    if os.path.exists(cat_i):
        compare("idioms", expected(tree), actual(cat_i))
    tree, cat_c, err = source_tree(tmp, "configured")
    if os.path.exists(cat_c):
        compare("configured", expected(tree), actual(cat_c))
    check("./config.h is missing: stood in by ./config.h.in with its 2 configuration switches on" in err and
          "./include/lib.h is missing: stood in by ./include/lib.h.cmake.in with its 2 configuration switches on"
          in err, f"configured: a warning names each stand-in and its template: {err.strip()}")
    check("stood in by ./config.h.in with its 2 configuration switches on, 1 size from this host, 1 header switch "
          "off (no such header here) (searched before the tree's other header of that name)" in err and
          "lib.h.cmake.in with its 2 configuration switches on, 1 size from this host, 0 header switches off "
          "(no such header here)\n" in err,
          f"configured: config.h's stand-in is searched before win32/config.h, lib.h's shadows none; host counts: "
          f"{err.strip()}")
    tree_nh = os.path.join(tmp, "configured-nohost")
    shutil.copytree(os.path.join(TREES, "configured"), tree_nh)
    rc, _, err = run([FACET, "source", "--no-host-config", "-o", os.path.join(tmp, "nohost.facet"), "."], cwd=tree_nh)
    got = actual(os.path.join(tmp, "nohost.facet"))
    check(rc == 0 and "with its 4 configuration switches on (searched" in err and ("u.c", 39) in got and
          ("u.c", 45) in got, f"configured: --no-host-config turns every switch on, sizes 1 (narrow, gone): "
          f"{rc} {sorted(got)} {err.strip()}")
    check("u.c: " not in err, f"configured: u.c parses without errors (#undef const stays a no-op): {err.strip()}")
    # a template that is not text: the header stays missing, the unit is still read
    bad = os.path.join(tmp, "configured-bad")
    shutil.copytree(os.path.join(TREES, "configured"), bad)
    shutil.rmtree(os.path.join(bad, "win32"))
    with open(os.path.join(bad, "config.h.in"), "wb") as f:
        f.write(b"#undef HAVE_FAST_PATH\n\x00\x01\x02")
    rc, _, err = run([FACET, "source", "-o", os.path.join(tmp, "bad-cfg.facet"), "."], cwd=bad)
    check(rc == 0 and "'config.h' file not found" in err and "stood in by ./config.h.in" not in err,
          f"configured: a binary config.h.in is no stand-in, the unit is read on ({rc}: {err.strip()})")
    switches_tree(tmp)
    lines_tree(tmp)
    tree, cat_s, err = source_tree(tmp, "compat")
    if os.path.exists(cat_s):
        compare("compat", expected(tree), actual(cat_s))
    check("u.c: " not in err, f"compat: u.c parses against the system's stdint.h, not the tree's shim: {err.strip()}")
    fallback_tree(tmp)
    tree, cat_m, err = source_tree(tmp, "missing")
    if os.path.exists(cat_m):
        compare("missing", expected(tree), actual(cat_m))
    check("m.c: " in err and "not_there.h" in err, f"missing: a warning names m.c and not_there.h: {err.strip()}")
    check("consts.c: 4 undeclared constants declared and the unit parsed again (first: GEN_INT_T_LEN)" in err
          and "consts.c: " not in err.replace("consts.c: 4 undeclared", ""),
          f"missing: consts.c's two undeclared constants are declared, the second parse has no error: {err.strip()}")
    tree_off = os.path.join(tmp, "missing-off")
    shutil.copytree(os.path.join(TREES, "missing"), tree_off)
    rc, _, err = run([FACET, "source", "--no-assumed-constants", "-o", os.path.join(tmp, "off.facet"), "."],
                     cwd=tree_off)
    db = sqlite3.connect(os.path.join(tmp, "off.facet"))
    n = db.execute("SELECT COUNT(*) FROM decisions WHERE rule = 'Add-Store'").fetchone()[0]
    db.close()
    check(rc == 0 and "undeclared constant" not in err and "consts.c: 4 errors" in err and n == 0,
          f"missing: --no-assumed-constants parses once, the table is lost ({rc}, {n} stores: {err.strip()})")
    return cat


def switches_tree(tmp):
    """Configuration switches no file defines: a second parse with them on,
    the edges united; --no-assumed-switches parses once."""
    tree, cat, err = source_tree(tmp, "switches")
    if not os.path.exists(cat):
        return
    want = expected(tree)
    compare("switches", want, actual(cat))
    check("7 configuration switches no file defines turned on (first: GEN_ALIASES): 2 units parsed again with them, "
          "6 calls only that parse has" in err and "u.c: " not in err,
          f"switches: one warning counts the switches, the units and the calls; no error: {err.strip()}")
    with open(os.path.join(tree, "u.c")) as f:
        switched = {("u.c", i) for i, line in enumerate(f, 1) if "/* switched */" in line}
    off = os.path.join(tmp, "switches-off.facet")
    rc, _, err = run([FACET, "source", "--no-assumed-switches", "-o", off, "."], cwd=tree)
    check(rc == 0 and "configuration switch" not in err, f"switches: --no-assumed-switches exits 0, silent ({rc}: "
          f"{err.strip()})")
    if rc == 0:
        want_off = {k: v for k, v in want.items() if k not in switched}
        want_off[("v.c", line_of(os.path.join(tree, "v.c"), "m->init(c)"))] = {"select_init@u.c:W"}
        compare("switches (off)", want_off, actual(off))


def line_of(path, text):
    with open(path) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


def fallback_tree(tmp):
    """The type fallback: each case of incomplete evidence, exact edges and
    labels under C's rule (the default), the IR shape's rule, and none; the
    warrant's premise and why; the summary's counts; a bad rule refused."""
    tree, cat, err = source_tree(tmp, "fallback")
    if not os.path.exists(cat):
        return
    want = expected(tree)
    compare("fallback", want, actual(cat))
    n_t = sum(1 for v in want.values() for t in v if t.endswith(":T"))
    # 10 open sites (g.c:14 holds two, one with no fitting function), 1 with a named target (o->parse)
    check(f"evidence incomplete at 10 (1 of them with targets), {n_t} Type-Fallback targets at 9" in err,
          f"fallback: the summary counts the open sites and the fallback's {n_t} targets ({err.strip()})")
    out_ir = os.path.join(tmp, "fallback-ir.facet")
    rc, _, err = run([FACET, "source", "--type-fallback", "ir", "-o", out_ir, "."], cwd=tree)
    check(rc == 0, f"fallback --type-fallback ir: exit 0 ({rc}: {err.strip()})")
    if rc == 0:
        compare("fallback (ir)", {**want, **expected(tree, MARK_IR)}, actual(out_ir))
    out_no = os.path.join(tmp, "fallback-no.facet")
    rc, _, err = run([FACET, "source", "--no-type-fallback", "-o", out_no, "."], cwd=tree)
    check(rc == 0, f"fallback --no-type-fallback: exit 0 ({rc}: {err.strip()})")
    if rc == 0:
        compare("fallback (none)", {k: {t for t in v if not t.endswith(":T")} for k, v in want.items()},
                actual(out_no))
    f = os.path.join(tree, "f.c")
    setup_line = line_of(f, '(str_fn) lookup_symbol("parse")')
    why = {  # the call's line -> why its evidence is incomplete, as the warrant says
        line_of(f, "o->parse(s)"): f"ops.parse receives what a call returns at f.c:{setup_line} in setup",
        line_of(f, "o->never(s)"): "nothing in the tree writes ops.never",
        line_of(f, "o->copied(s)"): f"ops.copied is copied at f.c:{line_of(f, 'o->copied = o->never')} in setup "
                                    "from ops.never, which nothing in the tree writes",
        line_of(f, "o->dup(s)"): f"ops.dup is copied at f.c:{line_of(f, 'o->dup = o->copied')} in setup from "
                                 "ops.copied, which nothing in the tree writes",
        line_of(f, "o->api(s)"): f"ops.api is copied at f.c:{line_of(f, 'o->api = cb')} in api_register from "
                                 "parameter 1 (cb) of api_register, which nothing in the tree writes",
    }
    db = sqlite3.connect(cat)
    rows = db.execute("SELECT s.file, s.line, f.name, d.premise, d.evidence FROM decisions d JOIN sites s "
                      "ON s.id = d.site JOIN functions f ON f.id = d.function WHERE d.rule = 'Type-Fallback'").fetchall()
    db.close()
    check(len(rows) == n_t and all(p == "pi_open" for _, _, _, p, _ in rows),
          f"fallback: {n_t} Type-Fallback decisions, premise pi_open ({len(rows)})")
    for file, line, fn, _, ev in rows:
        if file == "f.c" and line in why:
            taken = line_of(f, "static long tag") if fn == "by_cast" else None
            check(ev.startswith(f"evidence incomplete at this site: {why[line]}; {fn}'s address is taken at ") and
                  ev.endswith("its type fits the call's by C's rule") and
                  (taken is None or f"taken at f.c:{taken} " in ev), f"fallback f.c:{line} {fn}: the warrant says "
                  f"why ({why[line]}), where the address is taken and by which rule: {ev}")
    # answers: the open sites count as unresolved, those with fallback targets apart; a path through one is premised
    rc, out, err = run([QUERY, "callees", "run", "--catalog", cat, "--format", "json"])
    a = json.loads(out) if rc == 0 else {}
    u = a.get("uncertainty", {})
    classes = {s["line"]: s["class"] for s in a.get("sites", [])}
    check(rc == 0 and u.get("indirect_call_sites") == 5 and u.get("type_fallback_sites") == 5 and
          classes.get(line_of(f, "o->parse(s)")) == "indirect-incomplete" and
          classes.get(line_of(f, "o->never(s)")) == "indirect-incomplete" and
          classes.get(line_of(f, "o->fine(s)")) == "indirect-resolved",
          f"callees run: 5 unresolved sites, all 5 with Type-Fallback targets; classes ({rc} {err} {u} {classes})")
    rc, out, err = run([QUERY, "reach", "run", "p_mut", "--catalog", cat, "--format", "json"])
    d = json.loads(out) if rc == 0 else {}
    rules = [p.get("rule") for p in d.get("proof", {}).get("premises", [])]
    check(rc == 0 and d.get("reachable") and d["proof"]["label"] == "premised" and "Type-Fallback" in rules and
          d["uncertainty"]["type_fallback_sites"] >= 1,
          f"reach run p_mut: through a Type-Fallback edge, premised ({rc} {err} {d.get('proof')})")
    rc, out, err = run([QUERY, "reach", "run", "p_void", "--catalog", cat, "--format", "json"])
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and not d.get("reachable"), f"reach run p_void: no path under C's rule ({rc} {err})")
    rc, _, err = run([FACET, "source", "--type-fallback", "both", "-o", os.path.join(tmp, "x.facet"), "."], cwd=tree)
    check(rc != 0 and "--type-fallback takes c or ir" in err, f"--type-fallback both: refused ({rc}: {err.strip()})")


DBG_LOC = re.compile(r"^(!\d+) = !DILocation\(line: (\d+)", re.M)
IR_CALL = re.compile(r"call [^@%\n]*@([\w.]+)\(.*!dbg (!\d+)")


def bitcode_calls(path, opt):
    """{(line, callee)} of the direct calls clang -g -OPT compiles path to,
    each at its debug location's line (what the bitcode graph matches)."""
    p = subprocess.run(["clang-22", "-g", opt, "-S", "-emit-llvm", "-o", "-", path], capture_output=True, text=True)
    check(p.returncode == 0, f"lines: clang-22 {opt} compiles {path} ({p.stderr.strip()[-300:]})")
    locs = {m.group(1): int(m.group(2)) for m in DBG_LOC.finditer(p.stdout)}
    return {(locs.get(m.group(2)), m.group(1)) for m in IR_CALL.finditer(p.stdout) if not m.group(1).startswith("llvm.")}


def lines_tree(tmp):
    """Calls written in macro arguments that span lines: each on the line
    the tree marks, and on the line clang's debug info gives it."""
    tree, cat, _ = source_tree(tmp, "lines")
    if not os.path.exists(cat):
        return
    got = actual(cat)
    compare("lines", expected(tree), got)
    direct = {(line, tok) for (f, line), toks in got.items() for tok in toks if "@" not in tok and tok != "unresolved"}
    for opt in ("-O0", "-O2"):
        ir = bitcode_calls(os.path.join(tree, "args.c"), opt)
        check(ir == direct, f"lines: the direct calls' lines agree with clang -g {opt}: bitcode {sorted(ir)}, "
              f"facet source {sorted(direct)}")


def compile_commands(tmp):
    d = os.path.join(tmp, "ccdb")
    shutil.copytree(os.path.join(TREES, "ccdb"), d)
    db = os.path.join(tmp, "compile_commands.json")
    with open(db, "w") as f:
        json.dump([{"directory": d, "file": "u.c", "arguments": ["cc", "-DPICK", "-c", "u.c", "-o", "u.o"]}], f)
    out = os.path.join(tmp, "ccdb.facet")
    rc, _, err = run([FACET, "source", "--compile-commands", db, "-o", out])
    check(rc == 0, f"ccdb: exit 0 (got {rc}: {err.strip()})")
    if rc == 0:
        want = {("u.c" if k[0] == "u.c" else k[0], k[1]): v for k, v in expected(d).items()}
        got = {(os.path.basename(k[0]), k[1]): v for k, v in actual(out).items()}
        compare("ccdb", want, got)
    # a "command" string instead of "arguments", quoted define
    with open(db, "w") as f:
        json.dump([{"directory": d, "file": "u.c", "command": "cc '-DPICK=1' -c u.c -o u.o"}], f)
    rc, _, err = run([FACET, "source", "--compile-commands", db, "-o", out])
    got = {(os.path.basename(k[0]), k[1]): v for k, v in actual(out).items()} if rc == 0 else {}
    check(rc == 0 and ("u.c", 8) in got, f"ccdb command string: the -D applies ({rc}, {got}, {err.strip()})")


def hostile(tmp):
    out = os.path.join(tmp, "bad.facet")
    cases = []
    cases.append(("nonexistent path", [os.path.join(tmp, "no", "such")], ["no/such", "no such file"]))
    binary = os.path.join(tmp, "bin")
    os.makedirs(binary)
    with open(os.path.join(binary, "blob.c"), "wb") as f:
        f.write(b"\x7fELF\x02\x01\x01\x00\x00\x00int main;\n")
    cases.append(("binary .c", [binary], ["blob.c", "binary"]))
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    with open(os.path.join(empty, "notes.txt"), "w") as f:
        f.write("no C here\n")
    cases.append(("no .c file", [empty], ["empty", "no .c file"]))
    cases.append(("not a C file", [os.path.join(empty, "notes.txt")], ["notes.txt", "not a C file"]))
    for what, paths, words in cases:
        rc, _, err = run([FACET, "source", "-o", out, *paths])
        check(rc == 1 and all(w in err for w in words) and "facet source: error:" in err,
              f"{what}: exit 1 with a message naming {words} (got {rc}: {err.strip()})")
        check(not os.path.exists(out), f"{what}: no catalog written")
    for what, text, words in [
        ("broken JSON", '[{"directory": "/tmp", "file": ', ["cc.json:", "not a valid compile_commands.json"]),
        ("not an array", '{"directory": "/tmp"}', ["cc.json", "top level is not an array"]),
        ("entry without file", '[{"directory": "/tmp", "arguments": ["cc"]}]', ["cc.json", "entry 0"]),
        ("argument not a string", '[{"directory": "/tmp", "file": "u.c", "arguments": ["cc", 3]}]',
         ["cc.json", "entry 0", "arguments"]),
    ]:
        db = os.path.join(tmp, "cc.json")
        with open(db, "w") as f:
            f.write(text)
        rc, _, err = run([FACET, "source", "--compile-commands", db, "-o", out])
        check(rc == 1 and all(w in err for w in words), f"compile_commands {what}: exit 1 naming {words} "
              f"(got {rc}: {err.strip()})")
        check(not os.path.exists(out), f"compile_commands {what}: no catalog written")
    rc, _, err = run([FACET, "source", "--compile-commands", os.path.join(tmp, "absent.json"), "-o", out])
    check(rc == 1 and "absent.json" in err, f"absent compile_commands.json: named ({rc}: {err.strip()})")
    rc, _, err = run([FACET, "source"])
    check(rc == 2 and "no PATH" in err, f"no PATH: usage error ({rc}: {err.strip()})")
    rc, _, err = run([FACET, "callgraph", "--graph", "source", os.path.join(tmp, "x.bc")])
    check(rc != 0, "callgraph --graph source on bitcode is refused")


def queries(cat):
    verbs = [["defs", "helper"], ["at", "a.c:22"], ["callers", "tick"], ["callees", "use_table"], ["uses", "tick"],
             ["reach", "setup", "ping"], ["closure", "setup", "--out"], ["slice", "setup", "ping"], ["externals"],
             ["indirect-targets", "a.c:40"], ["resolution-candidates"], ["explain", "0"], ["inventory"],
             ["dominators", "setup", "ping"]]
    for v in verbs:
        rc, out, err = run([QUERY, *v, "--catalog", cat, "--format", "json"])
        check(rc == 0, f"query {v[0]} on a source catalog exits 0 (got {rc}: {err.strip()[-300:]})")
        if rc == 0:
            a = json.loads(out)
            check(a.get("graph") == "source", f"query {v[0]}: graph source (got {a.get('graph')})")
    rc, out, err = run([QUERY, "callees", "use_table", "--catalog", cat, "--format", "json"])
    if rc == 0:
        u = json.loads(out)["uncertainty"]
        check(u.get("ambiguous_call_sites") == 1, f"callees use_table: 1 ambiguous site in uncertainty ({u})")
    rc, out, err = run([QUERY, "callees", "runtime", "--catalog", cat, "--format", "json"])
    if rc == 0:
        u = json.loads(out)["uncertainty"]
        check(u.get("indirect_call_sites") == 1 and u.get("ambiguous_call_sites") == 0,
              f"callees runtime: 1 unresolved (c->never), 0 ambiguous ({u})")
    # use_table -> shared -> helper of b.c: two calls; every path passes shared
    helper_b = '{"module_id": "b.c", "symbol": "helper"}'
    rc, out, err = run([QUERY, "dominators", "use_table", helper_b, "--catalog", cat, "--format", "json"])
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and [f["source_name"] for f in d["dominators"]] == ["use_table", "shared", "helper"] and
          d["fix_points"] == ["shared"], f"dominators use_table helper@b.c: use_table shared helper ({rc} {err} {d})")
    rc, out, err = run([QUERY, "reach", "use_table", helper_b, "--catalog", cat, "--format", "json"])
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and d["verdict"] == "reachable" and d["distance"] == 2, f"reach: distance 2 ({d})")
    for verb in ("reach", "dominators"):
        rc, out, err = run([QUERY, verb, "use_table", helper_b, "--max-depth", "1", "--catalog", cat,
                            "--format", "json"])
        d = json.loads(out) if rc == 0 else {}
        check(rc == 0 and d["verdict"] == "unknown" and not d["reachable"] and
              not d["uncertainty"]["bounds"]["complete"], f"{verb} --max-depth 1: unknown, not unreachable ({d})")
    rc, out, err = run([QUERY, "reach", "use_table", helper_b, "--max-fanout", "3", "--catalog", cat,
                        "--format", "json"])
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and d["verdict"] == "unknown" and "use_table" in d["uncertainty"]["bounds"]["unexpanded"],
          f"reach --max-fanout 3: use_table (more than 3 edges) not expanded, unknown ({d})")
    rc, out, err = run([QUERY, "reach", "setup", "use_table", "--catalog", cat, "--format", "json"])
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and d["verdict"] == "unreachable", f"reach setup use_table: unreachable, no bound ({d})")
    rc, out, err = run([QUERY, "reach", "setup", "ping", "--max-depth", "0", "--catalog", cat])
    check(rc != 0 and "max_depth" in err, f"--max-depth 0 refused ({rc}: {err.strip()})")


def callgraph_source(tmp, cat):
    tree = os.path.join(tmp, "calls")
    rc, out, err = run([FACET, "callgraph", "--source", "--format", "json", "."], cwd=tree)
    check(rc == 0, f"callgraph --source exits 0 ({rc}: {err.strip()[-300:]})")
    if rc != 0:
        return
    g = json.loads(out)
    db = sqlite3.connect(cat)
    n_sites = db.execute("SELECT count(*) FROM sites").fetchone()[0]
    db.close()
    check(g["graph"] == "source" and len(g["sites"]) == n_sites,
          f"callgraph --source: graph source, the catalog's {n_sites} sites ({g['graph']}, {len(g['sites'])})")
    local = [s for s in g["sites"] if s["file"] == "a.c" and s["line"] == 43]
    check(len(local) == 1 and sorted(local[0]["targets"]) == ["alt", "boom"] and local[0]["kind"] == "indirect",
          f"callgraph --source: local(3) at a.c:43 calls boom and alt ({local})")
    rc, _, err = run([FACET, "callgraph", "-I", "x", "."], cwd=tree)
    check(rc == 2 and "--source" in err, f"-I without --source: usage error ({rc}: {err.strip()})")


def main():
    with tempfile.TemporaryDirectory(prefix="facet-source-") as tmp:
        cat = trees(tmp)
        compile_commands(tmp)
        hostile(tmp)
        queries(cat)
        callgraph_source(tmp, cat)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
