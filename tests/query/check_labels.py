#!/usr/bin/env python3
"""check_labels.py — the answers people read (issue 21): proof labels on the
edges of reach, slice, callers, callees and explain (and on paths through
collapsed points-to objects, tests/query/programs/collapsed.c, with the
catalog's collapsed-object tables), limits and offsets on list answers,
did-you-mean for unknown function names.

Usage: check_labels.py FACET SRCDIR [-k] [-v]

The program is tests/query/programs/proofs.c, compiled with clang-22 -g at
-O0 and -O2; its header says, from reading the code, which edge each rule
must label. Site lines come from its /* SITE name */ markers. Prints one line
per failed check and "N passed, N failed"; exit 1 when a check failed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc, run  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("-")]
if len(args) != 2:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, SRC = (os.path.abspath(a) for a in args)
KEEP, VERBOSE = "-k" in sys.argv, "-v" in sys.argv
checks = Checks(verbose=VERBOSE, limit=600)
check = checks.check


def q(cat, *words):
    rc, out, err = run([FACET, "query", *words, "--catalog", cat, "--format", "json"])
    try:
        return rc, json.loads(out) if rc == 0 else None, err
    except json.JSONDecodeError:
        return rc, None, err + " (stdout not JSON)"


work = tempfile.mkdtemp(prefix="facet-labels.")
os.chdir(SRC)
PROG = "tests/query/programs/proofs.c"
site_line = {}
for n, text in enumerate(open(PROG), 1):
    if "/* SITE " in text:
        site_line[text.split("/* SITE ")[1].split()[0]] = n


def steps_of(r):
    return [(s["caller"], s["callee"], s["proof"]) for s in r["steps"]]


for level in ("-O0", "-O2"):
    bc = f"{work}/proofs{level}.bc"
    ok, err = compile_bc(PROG, bc, level)
    if not ok:
        print("cannot compile", PROG, err, file=sys.stderr)
        sys.exit(2)
    cat = f"{work}/proofs{level}.facet"
    rc, _, err = run([FACET, "build", bc, "-o", cat])
    check(rc == 0, f"{level}: facet build", err)
    what = f"proofs.c {level}"

    # Through an Add-Store edge: premised, the premise named, not proven.
    rc, r, err = q(cat, "reach", "main", "slow_sink")
    check(rc == 0 and r and r["reachable"], f"{what}: reach main slow_sink", err)
    if r and r["reachable"]:
        st = steps_of(r)
        check([s[:2] for s in st] == [("main", "slow_run"), ("slow_run", "slow_sink")],
              f"{what}: the path main -> slow_run -> slow_sink", st)
        p0, p1 = st[0][2], st[1][2]
        check(p0["kind"] == "premised" and p0["rule"] == "Add-Store" and p0["premise"] == "pi_bind"
              and "rpm" in p0["graphs"] and "r0" not in p0["graphs"],
              f"{what}: main -> slow_run is premised by Add-Store (pi_bind), in rpm, not in r0", p0)
        check(p1["kind"] == "direct", f"{what}: slow_run -> slow_sink is direct", p1)
        check(r["proven"] is False and r["agent_free"] is True and r["proof"]["label"] == "premised",
              f"{what}: the path is premised, not proven (agent_free keeps version 1's meaning)", r["proof"])
        prem = r["proof"]["premises"]
        check(len(prem) == 1 and prem[0]["rule"] == "Add-Store" and prem[0]["premise"] == "pi_bind"
              and prem[0]["site"] == r["steps"][0]["site"]["id"],
              f"{what}: the summary lists the one premise and its site", prem)
        check(r["answer_version"] == 2, f"{what}: answer_version 2", r.get("answer_version"))
        check(r["steps"][0]["site"]["line"] == site_line["run"], f"{what}: the premised step is SITE run")

    # Through an Add-Witness edge: premise-free, the path proven.
    rc, r, err = q(cat, "reach", "main", "fast_sink")
    if check(rc == 0 and r and r["reachable"], f"{what}: reach main fast_sink", err):
        p0 = r["steps"][0]["proof"]
        check(p0["kind"] == "premise-free" and p0["rule"] == "Add-Witness" and p0["premise"] is None
              and "rplus" in p0["graphs"] and "r0" not in p0["graphs"],
              f"{what}: main -> fast_run is premise-free by Add-Witness, in rplus, not in r0", p0)
        check(r["proven"] is True and r["proof"]["label"] == "proven" and r["proof"]["premises"] == [],
              f"{what}: the Add-Witness path is proven", r["proof"])

    # An R0 edge the graph keeps: premise-free.
    rc, r, err = q(cat, "reach", "main", "local_sink")
    if r and r["reachable"]:
        p0 = r["steps"][0]["proof"]
        check(p0["kind"] == "premise-free" and p0["rule"] == "R0" and "r0" in p0["graphs"],
              f"{what}: main -> local_run (points-to, kept) is premise-free (R0)", p0)
        check(r["proven"] is True, f"{what}: the R0 path is proven")
    else:
        check(False, f"{what}: reach main local_sink", err)

    # The same labels on callers, callees, slice and explain.
    rc, r, err = q(cat, "callers", "slow_run")
    sites = [s for c in (r or {}).get("callers", []) for s in c["sites"]]
    check(len(sites) == 1 and sites[0]["proof"]["kind"] == "premised" and sites[0]["proof"]["rule"] == "Add-Store",
          f"{what}: callers slow_run: the one site, premised by Add-Store", sites)
    rc, r, err = q(cat, "callees", "main")
    run_sites = [s for s in (r or {}).get("sites", []) if s["line"] == site_line["run"]]
    proofs = {p["target"]: p for s in run_sites for p in s["target_proofs"]}
    check(set(proofs) == {"fast_run", "slow_run"} and proofs["fast_run"]["kind"] == "premise-free"
          and proofs["slow_run"]["kind"] == "premised",
          f"{what}: callees main: SITE run's target proofs (fast_run premise-free, slow_run premised)", proofs)
    rc, r, err = q(cat, "slice", "main", "slow_sink")
    check(r and r["proof"]["label"] == "premised" and r["proof"]["steps"]["premised"] == 1
          and all("proof" in e for e in r["edges"]),
          f"{what}: slice main slow_sink: every edge labelled, one premised", r and r["proof"])
    if run_sites:
        rc, r, err = q(cat, "explain", str(run_sites[0]["id"]))
        tp = {t["name"]: t["proof"]["kind"] for t in (r or {}).get("site", {}).get("targets", [])}
        check(tp == {"fast_run": "premise-free", "slow_run": "premised"}, f"{what}: explain SITE run's proofs", tp)

        # An agent edge: graph direct leaves SITE run unresolved; the overlay adds slow_run.
        rec = json.dumps({"op": "add", "site": run_sites[0]["id"], "to": "slow_run", "confidence": "medium",
                          "provenance": [f"{PROG}:{site_line['run']}: read by a person"], "graph": "direct"})
        rc, _, err = run([FACET, "overlay", "record", "--catalog", cat], stdin=rec + "\n")
        check(rc == 0, f"{what}: overlay record", err)
        rc, r, err = q(cat, "reach", "main", "slow_sink", "--graph", "direct", "--include-overlay")
        if r and r["reachable"]:
            p0 = r["steps"][0]["proof"]
            check(p0["kind"] == "agent" and p0["confidence"] == "medium", f"{what}: the agent step's proof", p0)
            check(r["proof"]["label"] == "agent" and not r["proven"] and not r["agent_free"],
                  f"{what}: a path with an agent step is labelled agent", r["proof"])
        else:
            check(False, f"{what}: reach through the agent edge", err)
        rc, out, err = run([FACET, "query", "reach", "main", "slow_sink", "--catalog", cat])
        check(rc == 0 and "premised" in out and "NOT PROVEN" in out and "Add-Store" in out,
              f"{what}: the text reach says premised, NOT PROVEN and the rule", out)

# ---- collapsed objects: the catalog's tables and the labels of paths through them -------------
# tests/query/programs/collapsed.c's header says, from reading the code, what
# collapses, what each object holds and which label each edge gets. Lines
# come from its /* OBJECT name */, /* COLLAPSE name */ and /* SITE name */ markers.
CPROG = "tests/query/programs/collapsed.c"
marks = {"OBJECT": {}, "COLLAPSE": {}, "SITE": {}}
for n, text in enumerate(open(CPROG), 1):
    for kind in marks:
        for part in text.split(f"{kind} ")[1:]:
            if "/*" in text:
                marks[kind][part.split()[0].rstrip("*/")] = n
MAIN_LINE = next(n for n, t in enumerate(open(CPROG), 1) if t.startswith("int main("))


def collapsed_tables(cat):
    import sqlite3
    db = sqlite3.connect(cat)
    names = dict(db.execute("SELECT id, name FROM functions"))
    objs = {}
    for row in db.execute("SELECT id, name, kind, file, line, cause, statement, in_function, cause_file, cause_line, "
                          "width FROM collapsed_objects"):
        objs[row[0]] = dict(zip(("id", "name", "kind", "file", "line", "cause", "statement", "in_function",
                                 "cause_file", "cause_line", "width"), row), members=set(), sites={})
    for o, f in db.execute("SELECT o.id, m.function FROM collapsed_objects o JOIN collapsed_members m "
                           "ON m.member_set = o.member_set"):
        objs[o]["members"].add(names[f])
    for o, line, held in db.execute("SELECT c.object, s.line, c.held FROM collapsed_sites c JOIN sites s "
                                    "ON s.id = c.site"):
        objs[o]["sites"][line] = held
    db.close()
    return objs


for level in ("-O0", "-O2"):
    what = f"collapsed.c {level}"
    bc, cat = f"{work}/collapsed{level}.bc", f"{work}/collapsed{level}.facet"
    ok, err = compile_bc(CPROG, bc, level)
    if not ok:
        print("cannot compile", CPROG, err, file=sys.stderr)
        sys.exit(2)
    rc, _, err = run([FACET, "build", bc, "-o", cat])
    if not check(rc == 0, f"{what}: facet build", err):
        continue
    objs = collapsed_tables(cat)
    by_members = {frozenset(o["members"]): o for o in objs.values()}
    local = by_members.get(frozenset({"op_open", "op_close"}))
    table = by_members.get(frozenset({"t_open", "t_close", "u_open", "u_close"}))
    check(len(objs) == 2 and local and table, f"{what}: two collapsed objects, holding o's two and table's four",
          {k: sorted(o["members"]) for k, o in objs.items()})
    if table:
        check(table["name"] == "table" and table["kind"] == "global" and table["width"] == 4
              and (table["file"], table["line"]) == (CPROG, marks["OBJECT"]["table"]),
              f"{what}: table is the global declared at OBJECT table, width 4", table)
        check(table["cause"] == "a variable index" and table["statement"] == "gep" and table["in_function"] == "main"
              and (table["cause_file"], table["cause_line"]) == (CPROG, marks["COLLAPSE"]["table"]),
              f"{what}: table collapsed by a variable-index gep in main at COLLAPSE table", table)
        check(table["sites"] == {marks["SITE"]["table"]: 4}, f"{what}: table feeds SITE table only (4 held)",
              table["sites"])
    if local:
        # -O2 keeps no #dbg_declare for o (clang tracks it with #dbg_assign):
        # the object is then named by its value and placed at main.
        if level == "-O0":
            check(local["name"] == "stack:main:o" and local["line"] == marks["OBJECT"]["local"],
                  f"{what}: o is stack:main:o declared at OBJECT local", local)
        else:
            check(local["name"].startswith("stack:main:%") and (local["file"], local["line"]) == (CPROG, MAIN_LINE),
                  f"{what}: o is a stack object of main, placed at main", local)
        check(local["kind"] == "stack" and local["width"] == 2 and local["cause"] == "a variable index"
              and local["statement"] == "gep" and local["cause_line"] == marks["COLLAPSE"]["local"],
              f"{what}: o collapsed by a variable-index gep at COLLAPSE local, width 2", local)
        check(local["sites"] == {marks["SITE"]["slot"]: 2, marks["SITE"]["open"]: 2},
              f"{what}: o feeds SITE slot and SITE open, 2 functions each", local["sites"])

    # Paths through o are not proven; through the witnessed table, proven.
    for sink in ("open_sink", "close_sink"):
        rc, r, err = q(cat, "reach", "main", sink)
        if not check(rc == 0 and r and r["reachable"], f"{what}: reach main {sink}", err):
            continue
        p0 = r["steps"][0]["proof"]
        check(p0["kind"] == "premised" and p0.get("collapsed", {}).get("object") == local["name"]
              and p0["collapsed"]["width"] == 2,
              f"{what}: main's step towards {sink} is premised, through the collapsed o", p0)
        check(r["proven"] is False and r["proof"]["label"] == "premised"
              and any(pm.get("collapsed") == local["name"] for pm in r["proof"]["premises"]),
              f"{what}: reach main {sink} is premised, its premises name o", r["proof"])
    rc, r, err = q(cat, "reach", "main", "table_sink")
    if check(rc == 0 and r and r["reachable"], f"{what}: reach main table_sink", err):
        check(r["proven"] is True and r["steps"][0]["proof"]["kind"] == "premise-free",
              f"{what}: through the witnessed table the path is proven", r["steps"][0]["proof"])
    rc, r, err = q(cat, "callees", "main")
    by_line = {s["line"]: {p["target"]: p for p in s["target_proofs"]} for s in (r or {}).get("sites", [])}
    slot, opn, tbl = (by_line.get(marks["SITE"][k], {}) for k in ("slot", "open", "table"))
    check(set(slot) == {"op_open", "op_close"} and all(
        p["kind"] == "premised" and p["rule"] == "R0" and p["premise"] == "collapsed" for p in slot.values()),
        f"{what}: SITE slot keeps R0's two, premised by the collapse", slot)
    # -O0 recovers field ops.open (op_open stored there: Add-Store, op_close
    # pruned); -O2's volatile po has no debug record, so R± keeps R0's two.
    want_open = {"op_open"} if level == "-O0" else {"op_open", "op_close"}
    check(set(opn) == want_open and all(p["kind"] == "premised" and p["collapsed"]["object"] == local["name"]
                                        for p in opn.values()),
          f"{what}: SITE open's targets {sorted(want_open)} are premised, through o", opn)
    check(set(tbl) == {"t_open", "u_open"} and all(p["kind"] == "premise-free" for p in tbl.values()),
          f"{what}: SITE table's t_open and u_open are premise-free (initializers witness them)", tbl)
    rc, out, err = run([FACET, "query", "reach", "main", "close_sink", "--catalog", cat])
    check(rc == 0 and "NOT PROVEN" in out and f"collapsed {local['name']}" in out,
          f"{what}: the text reach names the collapsed object", out)

# ---- limits and offsets: every list answer, against the whole list -------------------------
cat = f"{work}/proofs-O0.facet"
LISTS = [("closure", ["main"], ["functions"]), ("callers", ["fast_sink"], ["callers"]),
         ("callees", ["main"], ["sites"]), ("uses", ["slow_run"], ["uses"]), ("defs", ["main"], ["functions"]),
         ("externals", [], ["functions"]), ("resolution-candidates", ["--graph", "direct"], ["groups"]),
         ("slice", ["main", "slow_sink"], ["functions"])]
for verb, words, path in LISTS:
    rc, whole, err = q(cat, verb, *words)
    if not check(rc == 0 and whole, f"limits: {verb} answers", err):
        continue
    full = whole[path[0]]
    check(whole["page"] == {"list": path[0], "total": len(full), "offset": 0, "limit": None, "returned": len(full)},
          f"limits: {verb}'s page without limit says the whole list", whole["page"])
    for off, lim in ((0, 1), (1, 2), (len(full), 3), (len(full) + 5, 1)):
        rc, r, err = q(cat, verb, *words, "--offset", str(off), "--limit", str(lim))
        if not check(rc == 0 and r, f"limits: {verb} --offset {off} --limit {lim}", err):
            continue
        check(r[path[0]] == full[off:off + lim], f"limits: {verb} --offset {off} --limit {lim} is that slice",
              r[path[0]])
        check(r["page"]["total"] == len(full) and r["page"]["returned"] == len(full[off:off + lim]),
              f"limits: {verb}'s page counts the whole list", r["page"])
        check(r["uncertainty"] == whole["uncertainty"], f"limits: {verb}'s uncertainty is the whole list's")
check(len(q(cat, "closure", "main")[1]["functions"]) >= 8, "limits: main's closure is long enough to cut")
rc, r, err = q(cat, "explain", "0", "--limit", "0")
check(rc == 0 and r["site"]["targets"] == [] and r["site"]["page"]["list"] == "targets",
      "limits: explain pages its site's targets", r and r["site"].get("page"))
for bad in ("-1", "x"):
    rc, r, err = q(cat, "closure", "main", "--limit", bad)
    check(rc == 1 and "limit" in err, f"limits: --limit {bad} is refused naming limit", err)
rc, out, err = run([FACET, "query", "closure", "main", "--catalog", cat, "--limit", "2"])
check(rc == 0 and "1-2 of" in out and "--offset" in out, "limits: the text form says which part it shows", out)

# ---- facet callgraph: R± by default, sites as file:line:col ------------------------------------
bc = f"{work}/proofs-O0.bc"
rc, dflt, err = run([FACET, "callgraph", bc])
rc2, rpm, _ = run([FACET, "callgraph", "--graph", "rpm", bc])
check(rc == 0 and dflt == rpm and dflt.startswith("call graph 'rpm'"), "callgraph: the default graph is rpm", err)
want = f"{PROG}:{site_line['run']}:"
line = [ln for ln in dflt.splitlines() if ln.strip().startswith(want)]
check(len(line) == 1 and line[0].split("->")[1].split("[")[0].split() == ["fast_run", "slow_run"],
      "callgraph: SITE run printed as file:line:col with R±'s two additions", line)
rc, out, err = run([FACET, "callgraph", "--format", "json", bc])
check(rc == 0 and json.loads(out)["graph"] == "rpm", "callgraph: --format json defaults to rpm too", err)
rc, out, err = run([FACET, "callgraph", "--format", "llvm", bc])
check(rc == 0 and out.startswith("Call graph node <<null function>>"), "callgraph: --format llvm still prints direct",
      err)

# ---- did you mean -----------------------------------------------------------------------
rc, r, err = q(cat, "closure", "slow_snik")
check(rc == 1 and "did you mean" in err and "slow_sink" in err, "did-you-mean: slow_snik suggests slow_sink", err)
rc, r, err = q(cat, "reach", "main", "fast_rnu")
check(rc == 1 and "fast_run" in err, "did-you-mean: reach's 'to' suggests fast_run", err)
rc, r, err = q(cat, "callers", "zzzzzzzzzzzzzzzz")
check(rc == 1 and "did you mean" not in err, "did-you-mean: nothing close, no suggestion", err)

status = checks.summary()
if KEEP:
    print("kept", work)
else:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
