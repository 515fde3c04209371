#!/usr/bin/env python3
"""check_query.py — end-to-end tests of the catalog, every query verb and the
overlay, on programs compiled with clang-22 -g.

Usage: check_query.py FACET FACET_QUERY SRCDIR [-k] [-v]

The expected answers come from reading tests/query/programs/plugin.c (its
header lists them), tests/programs/fnptr_struct.c and
tests/facet/programs/rejected.c (with a variant written here). Programs are compiled
from SRCDIR with relative paths, so files read tests/query/programs/....
Prints one line per failed check and a closing "N passed, N failed"; exit 1
when a check failed, 2 on misuse."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, run
import harness  # noqa: E402  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("-")]
if len(args) != 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, QUERY, SRC = (os.path.abspath(a) for a in args)
KEEP, VERBOSE = "-k" in sys.argv, "-v" in sys.argv
checks = Checks(verbose=VERBOSE)
check = checks.check


def q(catalog, *words, binary=None):
    """Runs a query; returns (exit code, parsed JSON or None, stderr)."""
    rc, out, err = run([binary or QUERY, *words, "--catalog", catalog, "--format", "json"])
    try:
        return rc, json.loads(out) if rc == 0 else None, err
    except json.JSONDecodeError:
        return rc, None, err + " (stdout not JSON)"


def names(fns):
    return {f["name"] if isinstance(f, dict) else f for f in fns}


work = tempfile.mkdtemp(prefix="facet-query.")
os.chdir(SRC)
P = "tests/query/programs/"


def compile_bc(src, opt, out):
    ok, err = harness.compile_bc(src, out, opt, flags=("-Wall", "-Wextra", "-Werror"))
    if not ok:
        print(f"cannot compile {src}: {err}", file=sys.stderr)
        sys.exit(2)
    return out


def build(inputs, out, *extra):
    return run([FACET, "build", *inputs, "-o", out, *extra])


# ---- catalog ------------------------------------------------------------------------------
plugin0 = compile_bc(P + "plugin.c", "-O0", f"{work}/plugin0.bc")
plugin2 = compile_bc(P + "plugin.c", "-O2", f"{work}/plugin2.bc")
extra0 = compile_bc(P + "plugin_extra.c", "-O0", f"{work}/extra0.bc")
fnptr0 = compile_bc("tests/programs/fnptr_struct.c", "-O0", f"{work}/fnptr0.bc")
cat0, cat2, catpe, catfs = (f"{work}/{n}.facet" for n in ("plugin0", "plugin2", "pe", "fnptr"))
for inputs, cat in (([plugin0], cat0), ([plugin2], cat2), ([plugin0, extra0], catpe), ([fnptr0], catfs)):
    rc, _, err = build(inputs, cat)
    check(rc == 0 and os.path.exists(cat), f"build {inputs} -> {cat}: rc {rc} {err.strip()}")
check(not [f for f in os.listdir(work) if ".tmp-" in f], "no temporary file left after builds")

rc, inv, err = q(cat0, "inventory")
# The version the catalog's one schema home (src/catalog/catalog.h) declares.
SCHEMA = re.search(r"#define CATALOG_SCHEMA_VERSION (\d+)", open("src/catalog/catalog.h").read()).group(1)
check(rc == 0 and inv["meta"]["schema_version"] == SCHEMA and len(inv["fingerprint"]) == 16,
      f"inventory: schema version {SCHEMA} and a 16-digit fingerprint ({err})")
check(inv and {g["name"] for g in inv["graphs"] if g["present"]} ==
      {"direct", "andersen", "r0", "rulesonly", "rplus", "rpm", "cha", "rta", "vta", "vslot"},
      "inventory: every graph present")
check(inv and inv["default_graph"] == "rpm", "default graph is rpm")
check(inv and inv["counts"]["sites_indirect"] == 3, f"plugin.c has 3 indirect sites: {inv and inv['counts']}")

# the same inputs and options give the same fingerprint; another tau another one
again = f"{work}/again.facet"
build([plugin0], again)
check(q(again, "inventory")[1]["fingerprint"] == inv["fingerprint"], "rebuild: same fingerprint")
build([plugin0], again, "--tau", "5")
fp_tau5 = q(again, "inventory")[1]["fingerprint"]
check(fp_tau5 != inv["fingerprint"], "--tau 5: another fingerprint")

# bad input: clear messages naming the file, exit 1, never a crash
notcat = f"{work}/not.facet"
open(notcat, "w").write("hello\n")
rc, _, err = q(notcat, "inventory")
check(rc == 1 and notcat in err and "not a facet catalog" in err, f"text file refused: {err.strip()}")
plain = f"{work}/plain.sqlite"
sqlite3.connect(plain).execute("CREATE TABLE t(x)").connection.commit()
rc, _, err = q(plain, "inventory")
check(rc == 1 and plain in err and "not a facet catalog" in err, f"other SQLite file refused: {err.strip()}")
old = f"{work}/old.facet"
shutil.copy(cat0, old)
db = sqlite3.connect(old)
db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
db.commit()
db.close()
rc, _, err = q(old, "callers", "setup")
check(rc == 1 and old in err and "schema version 99" in err, f"wrong schema version refused: {err.strip()}")
rc, _, err = q(f"{work}/missing.facet", "inventory")
check(rc == 1 and "missing.facet" in err, f"missing catalog: {err.strip()}")
# damaged adjacency arrays (docs/catalog.md) are refused, naming the file, the graph and the array
for column, value, what in (("site_sets", "x'0102'", "not whole u32s"),
                            ("set_targets", "x'ffffff7f' || substr(set_targets, 5)", "a target past the functions"),
                            ("function_sites", "x'05000000' || substr(function_sites, 5)", "offsets not from 0")):
    bad = f"{work}/bad-adjacency.facet"
    shutil.copy(cat0, bad)
    db = sqlite3.connect(bad)
    db.execute(f"UPDATE adjacency SET {column} = {value} WHERE graph = 'rpm'")
    db.commit()
    db.close()
    rc, _, err = q(bad, "reach", "main", "setup")
    check(rc == 1 and bad in err and "adjacency of graph rpm" in err and column in err,
          f"adjacency with {what} in {column} refused: {err.strip()}")
    rc, _, err = q(bad, "at", "tests/query/programs/plugin.c:30")
    check(rc == 0, f"a verb that reads no edges still answers on it ({err.strip()})")
garbage = f"{work}/garbage.bc"
open(garbage, "wb").write(b"BC\xc0\xde garbage")
rc, _, err = build([garbage], f"{work}/garbage.facet")
check(rc == 1 and not os.path.exists(f"{work}/garbage.facet") and "garbage.bc" in err,
      f"bad bitcode: exit 1, no catalog written ({err.strip()})")
check(not [f for f in os.listdir(work) if ".tmp-" in f], "no temporary file left after a failed build")
# a graph the catalog lacks
nograph = f"{work}/nograph.facet"
shutil.copy(cat0, nograph)
db = sqlite3.connect(nograph)
db.execute("UPDATE graphs SET present = 0, note = 'not built' WHERE name IN ('rpm', 'rplus', 'rulesonly')")
db.execute("UPDATE meta SET value = 'r0' WHERE key = 'default_graph'")
db.commit()
db.close()
rc, _, err = q(nograph, "callers", "setup", "--graph", "rpm")
check(rc == 1 and "graph rpm is not in this catalog" in err, f"absent graph: {err.strip()}")
rc, r, _ = q(nograph, "callers", "setup")
check(rc == 0 and r["graph"] == "r0", "without rpm the default graph is r0")
rc, _, err = run([QUERY, "reach", "main", "--catalog", cat0])
check(rc == 2, "reach with one argument: usage error")
rc, _, err = run([QUERY, "nosuchverb", "--catalog", cat0])
check(rc == 2 and "unknown verb" in err, "unknown verb: usage error")

# ---- queries on plugin.c -O0 ---------------------------------------------------------------
rc, r, _ = q(cat0, "defs", "setup")
check(rc == 0 and len(r["functions"]) == 1 and r["functions"][0]["line"] == 34
      and r["functions"][0]["file"].endswith("plugin.c"), "defs setup: plugin.c:34")
rc, r, _ = q(catpe, "defs", "file_open")
check(rc == 0 and len(r["functions"]) == 2 and r["ambiguous"]
      and {f["module_id"].rsplit("/", 1)[-1] for f in r["functions"]} == {"plugin.c", "plugin_extra.c"},
      "defs file_open: both statics with their module ids")
rc, _, err = q(catpe, "callers", "file_open")
check(rc == 1 and "names 2 functions" in err and "plugin_extra.c" in err and "module_id" in err,
      f"callers of an ambiguous static lists the candidates: {err.strip()}")
rc, r, _ = q(catpe, "callers", json.dumps({"module_id": P + "plugin.c", "symbol": "file_open"}))
check(rc == 0 and r["function"]["source_name"] == "file_open" and r["function"]["module_id"].endswith("plugin.c"),
      "{module_id, symbol} picks one static")
rc, _, err = q(cat0, "callers", "no_such_function")
check(rc == 1 and "no function 'no_such_function'" in err, "unknown function: exit 1 with its name")

rc, r, _ = q(cat0, "at", P + "plugin.c:49")
check(rc == 0 and "use" in names(r["functions"]) and any(s["kind"] == "indirect" for s in r["sites"]),
      "at plugin.c:49: use and its indirect site")
rc, r2, _ = q(cat0, "at", "plugin.c:49")
check(r2 is not None and len(r2["sites"]) == len(r["sites"]), "at matches a file by its trailing components")
rc, r, _ = q(cat0, "at", "plugin.c:40")
check(rc == 0 and any(u["function"] == "sock_open" and u["kind"] == "store" for u in r["address_uses"]),
      "at plugin.c:40: the store of sock_open")

rc, r, _ = q(cat0, "callers", "ops_register")
check(rc == 0 and names(c["function"] for c in r["callers"]) == {"setup"}
      and len(r["callers"][0]["sites"]) == 2, "callers ops_register: setup, two sites")
rc, r, _ = q(cat0, "callees", "use", "--graph", "r0")
classes = sorted(s["class"] for s in r["sites"]) if r else []
check(classes == ["direct", "indirect-unresolved", "indirect-unresolved"],
      f"callees use in r0: one direct, two unresolved ({classes})")
check(r and r["uncertainty"]["indirect_call_sites"] == 2, "callees use in r0: uncertainty counts 2 sites")
rc, r, _ = q(cat0, "callees", "use", "--graph", "rpm")
open_site = [s for s in r["sites"] if s["kind"] == "indirect" and s["line"] == 49] if r else []
check(open_site and set(open_site[0]["targets"]) == {"file_open", "sock_open"},
      "callees use in rpm: o->open -> file_open, sock_open (what the program stores in ops.open)")

rc, r, _ = q(cat0, "uses", "sock_open")
check(rc == 0 and any(u["kind"] == "store" and u["line"] == 40 and u["in_function"] == "setup" for u in r["uses"]),
      "uses sock_open: stored at plugin.c:40 in setup")
rc, r, _ = q(cat0, "uses", "file_open")
check(rc == 0 and any(u["kind"] == "init" and u["global"] == "file_ops" and u["offset"] == 8 for u in r["uses"]),
      "uses file_open: initializer of file_ops at offset 8")
check(r and any(f["field"] == "ops@8" and f["form"] == "init" for f in r["field_assignments"]),
      "uses file_open: assigned to field ops@8")

rc, r, _ = q(cat0, "externals")
check(rc == 0 and {"ops_lookup", "ops_register", "hook_lookup", "malloc"} <= names(r["functions"]),
      "externals: the library functions")

rc, r, _ = q(cat0, "reach", "main", "helper", "--graph", "direct")
check(rc == 0 and r["reachable"] and r["path"] == ["main", "direct_only", "helper"] and r["proven"],
      "reach main helper: main -> direct_only -> helper")
rc, r, _ = q(cat0, "reach", "main", "file_open", "--graph", "r0")
check(rc == 0 and not r["reachable"] and r["uncertainty"]["indirect_call_sites"] == 3,
      "reach main file_open in r0: no path, three unresolved sites on the way")
rc, r, _ = q(cat0, "reach", "main", "file_open", "--graph", "rpm")
check(rc == 0 and r["reachable"] and r["path"] == ["main", "use", "file_open"], "reach main file_open in rpm")
rc, r, _ = q(cat0, "reach", "helper", "main")
check(rc == 0 and not r["reachable"], "reach helper main: no path")

rc, r, _ = q(cat0, "closure", "helper", "--in")
check(rc == 0 and names(r["functions"]) == {"helper", "direct_only", "main"}, "closure helper --in")
rc, r, _ = q(cat0, "closure", "use", "--out", "--graph", "r0")
check(rc == 0 and names(r["functions"]) == {"use", "ops_lookup"}, "closure use --out in r0")

rc, r, _ = q(cat0, "slice", "main", "helper", "--graph", "direct")
check(rc == 0 and names(r["functions"]) == {"main", "direct_only", "helper"}, "slice main helper")
mod = f"{work}/slice.bc"
rc, r, err = q(cat0, "slice", "main", "file_open", "--emit-module", mod)
check(rc == 0 and os.path.exists(mod) and names(r["functions"]) == {"main", "use", "file_open"},
      f"slice --emit-module through facet-query (handed to facet): {err.strip()}")
rc, _, err = run(["opt-22", "-passes=verify", "-disable-output", mod])
check(rc == 0, f"opt-22 -passes=verify accepts the slice: {err.strip()}")
rc, text, _ = run(["llvm-dis-22", mod, "-o", "-"])
defined = {l.split("@", 1)[1].split("(", 1)[0] for l in text.splitlines() if l.startswith("define ")}
check(defined == {"main", "use", "file_open"}, f"the slice module defines exactly main, use, file_open: {defined}")
rc, r, err = q(cat0, "slice", "main", "helper", "--emit-module", f"{work}/slice2.bc", binary=FACET)
check(rc != 0, "facet (not facet-query) needs 'query' before the verb")
rc, out, err = run([FACET, "query", "slice", "main", "helper", "--catalog", cat0, "--emit-module", f"{work}/slice2.bc"])
check(rc == 0 and run(["opt-22", "-passes=verify", "-disable-output", f"{work}/slice2.bc"])[0] == 0,
      "facet query slice --emit-module writes a valid module")

rc, r, _ = q(cat0, "indirect-targets", "plugin.c:49")
t = r["sites"][0] if r and r["sites"] else {}
check(t and {x["name"] for x in t["targets"]} == {"file_open", "sock_open"}
      and all(x["warrants"] for x in t["targets"]) and t["dispatch"]["field"] == "ops@8",
      "indirect-targets plugin.c:49: file_open, sock_open, each with a warrant, via ops@8")
rc, r, _ = q(cat0, "explain", str(t.get("id", 0)))
check(rc == 0 and r["site"]["dispatch"]["field_name"] == "open", "explain: the site dispatches through ops.open")
rc, _, err = q(cat0, "explain", "99999")
check(rc == 1 and "no site 99999" in err, "explain of a missing site")

rc, r, _ = q(cat0, "resolution-candidates", "--graph", "r0")
groups = {g["field"]: g for g in r["groups"]} if r else {}
check(set(groups) == {"ops@8", "ops@16", None}, f"resolution-candidates in r0: ops@8, ops@16 and one without field ({set(groups)})")
if "ops@8" in groups:
    g = groups["ops@8"]
    check(g["field_name"] == "open" and names(g["candidates"]) == {"file_open", "sock_open"}
          and not g["single_candidate"] and all(c["signature_matches"] for c in g["candidates"]),
          "ops@8: candidates file_open and sock_open, signatures match")
    sock = [c for c in g["candidates"] if c["name"] == "sock_open"]
    check(sock and [a["line"] for a in sock[0]["assignments"]] == [40], "sock_open's assignment at line 40")
if "ops@16" in groups:
    check(names(groups["ops@16"]["candidates"]) == {"file_close"} and groups["ops@16"]["single_candidate"],
          "ops@16: the single candidate file_close")
rc, r, _ = q(cat0, "resolution-candidates")
check(rc == 0 and len(r["groups"]) == 1 and r["groups"][0]["field"] is None,
      "resolution-candidates in rpm: only fire's h() is left")

# Functions written into a field with an incompatible signature are candidates with signature_matches
# false and do not count for single_candidate. tests/facet/programs/rejected.c: F(job.run) is {run_twice
# (init), run_square (store), run_text (a store through a cast to the field's type: the program means it
# for the field)}; run_name reaches the field as a void * through set_run's store at line 23 and is
# rejected. one.c is the same with run_square and run_text left out: one matching candidate and one
# rejected. The graph is `direct`, where job.run's site is unresolved (R± resolves it).
open(f"{work}/one.c", "w").write(
    "struct job { int (*run)(int n); const char *name; };\n"                      # 1
    "static int run_twice(int n) { return 2 * n; }\n"                            # 2
    "static int run_name(const char *s) { return s ? (int)s[0] : 0; }\n"         # 3
    "__attribute__((noinline)) int start(struct job *j, int n) { return j->run(n); }\n"
    "__attribute__((noinline)) void set_run(struct job *j, void *f)\n"           # 5
    "{\n"
    "\tj->run = (int (*)(int))f;\n"                                              # 7
    "}\n"
    "int main(int argc, char **argv)\n"                                          # 9
    "{\n"
    "\t(void)argv;\n"
    "\tstruct job j = {run_twice, \"twice\"};\n"                                 # 12
    "\tif (argc > 5)\n"
    "\t\tset_run(&j, (void *)run_name);\n"                                       # 14
    "\treturn start(&j, argc);\n"
    "}\n")
for opt in ("-O0", "-O2"):
    for src, want_match, want_rejected, store_line in (("tests/facet/programs/rejected.c",
                                                        {"run_twice", "run_square", "run_text"}, {"run_name"}, 23),
                                                       (f"{work}/one.c", {"run_twice"}, {"run_name"}, 7)):
        what = f"{os.path.basename(src)} {opt}"
        cat = f"{work}/rejected{opt}-{os.path.basename(src)}.facet"
        rc, _, err = build([compile_bc(src, opt, cat[:-6] + ".bc")], cat)
        check(rc == 0, f"{what}: build ({err.strip()})")
        con = sqlite3.connect(cat)
        rows = con.execute("SELECT f.name, a.form FROM field_rejected_assignments a JOIN functions f "
                           "ON f.id = a.function JOIN fields d ON d.id = a.field WHERE d.key = 'job@0'").fetchall()
        con.close()
        check({n for n, _ in rows} == want_rejected and all(form == "store" for _, form in rows),
              f"{what}: field_rejected_assignments holds run_name's store into job.run ({rows})")
        rc, r, err = q(cat, "resolution-candidates", "--graph", "direct")
        g = [g for g in (r["groups"] if r else []) if g["field"] == "job@0"]
        check(rc == 0 and len(g) == 1, f"{what}: a group for job@0 in the direct graph ({err.strip()})")
        if len(g) != 1:
            continue
        got = {c["name"]: c["signature_matches"] for c in g[0]["candidates"]}
        check(got == {**{n: True for n in want_match}, **{n: False for n in want_rejected}},
              f"{what}: candidates with signature_matches {got}")
        check([c["name"] for c in g[0]["candidates"]][-1] == "run_name", f"{what}: the rejected candidate comes last")
        check(g[0]["single_candidate"] == (len(want_match) == 1),
              f"{what}: single_candidate counts only the matching candidates ({g[0]['single_candidate']})")
        check(g[0]["n_rejected_candidates"] == 1, f"{what}: n_rejected_candidates {g[0]['n_rejected_candidates']}")
        rc, r, _ = q(cat, "resolution-candidates", "--graph", "direct", "--candidate-limit", "0")
        g0 = [g for g in (r["groups"] if r else []) if g["field"] == "job@0"]
        check(g0 and {c["name"] for c in g0[0]["candidates"]} == want_match and g0[0]["n_rejected_candidates"] == 1,
              f"{what}: --candidate-limit 0 lists no rejected candidate and still counts it")
        text = [c for c in g[0]["candidates"] if c["name"] == "run_name"]
        check(text and [a["form"] for a in text[0]["assignments"]] == ["store"]
              and (opt == "-O2" or [a["line"] for a in text[0]["assignments"]] == [store_line]),
              f"{what}: run_name's rejected assignment is its store (line {store_line} at -O0): "
              f"{text and text[0]['assignments']}")

# The callee's declared type at an unrecovered site (tests/facet/programs/callee_type.c: lcode is read
# out of a byte buffer through a cast to len_code_pt): the catalog's dispatch row and indirect-targets
# carry it, and the Prune-Sig warrant on req_len cites it.
for opt in ("-O0", "-O2"):
    cat = f"{work}/callee_type{opt}.facet"
    rc, _, err = build([compile_bc("tests/facet/programs/callee_type.c", opt, cat[:-6] + ".bc")], cat)
    check(rc == 0, f"callee_type.c {opt}: build ({err.strip()})")
    rc, r, err = q(cat, "indirect-targets", "callee_type.c:35", "--graph", "rpm")
    d = r["sites"][0]["dispatch"] if r and r["sites"] else {}
    check(rc == 0 and d.get("status") == "unrecovered" and d.get("callee_type") == "size_t(struct engine *)"
          and d.get("callee_variable") == "lcode",
          f"callee_type.c {opt}: dispatch carries the callee's declared type ({d or err.strip()})")
    dropped = {x["name"]: x["warrants"] for x in (r["sites"][0]["not_in_graph"] if r and r["sites"] else [])}
    check("req_len" in dropped and any(w["rule"] == "Prune-Sig" and "declared type" in (w["evidence"] or "")
                                       for w in dropped["req_len"]),
          f"callee_type.c {opt}: req_len dropped by Prune-Sig against the declared type ({dropped.get('req_len')})")

# -O2: inlining moves calls; the answers that do not depend on it hold
rc, r, _ = q(cat2, "reach", "main", "ops_lookup")
check(rc == 0 and r["reachable"], "-O2: main reaches ops_lookup")
rc, r, _ = q(cat2, "at", "plugin.c:49")
check(rc == 0 and any(s["kind"] == "indirect" for s in r["sites"]), "-O2: the call at plugin.c:49 is still found (inlined)")


# ---- property: reach finds a path iff closure --out contains the target ------------------------
def prop(cat, graph, extra=()):
    rc, inv, _ = q(cat, "inventory")
    rc, d, _ = q(cat, "externals")
    fns = []
    con = sqlite3.connect(cat)
    fns = [n for (n,) in con.execute("SELECT name FROM functions WHERE NOT intrinsic ORDER BY id")]
    con.close()
    bad = 0
    for f in fns:
        rc, c, _ = q(cat, "closure", f, "--out", "--graph", graph, *extra)
        reach_set = set(c["functions"]) if c else set()
        for g in fns:
            rc, r, _ = q(cat, "reach", f, g, "--graph", graph, *extra)
            if not r or r["reachable"] != (g in reach_set):
                bad += 1
                if bad < 4:
                    print(f"  reach {f} {g} ({graph}) = {r and r['reachable']}, closure has it: {g in reach_set}")
    check(bad == 0, f"reach <=> closure --out on {os.path.basename(cat)} in {graph} {' '.join(extra)}")


for graph in ("direct", "r0", "rpm"):
    prop(cat0, graph)
prop(catfs, "andersen")

# ---- overlay (graph r0, where use's calls are unresolved) ---------------------------------------
ov = cat0 + ".overlay"


def record(lines, *extra, cat=cat0):
    return run([QUERY, "overlay", "record", "--catalog", cat, "--graph", "r0", *extra],
               stdin="".join(json.dumps(l) + "\n" for l in lines))


def listing(*extra, cat=cat0):
    rc, out, err = run([QUERY, "overlay", "list", "--catalog", cat, "--graph", "r0", "--format", "json", *extra])
    return json.loads(out) if rc == 0 else None


OPS8 = {"record": "ops", "offset": 8}
add_file = {"op": "add", "via_field": OPS8, "to": "file_open", "confidence": "high",
            "provenance": ["plugin.c:32: static struct ops file_ops = {\"file\", file_open, file_close};"]}
add_sock = {"op": "add", "via_field": OPS8, "to": "sock_open", "confidence": "medium",
            "provenance": ["plugin.c:40: o->open = sock_open;"]}
add_close = {"op": "add", "via_field": {"record": "ops", "offset": 16}, "to": "file_close", "confidence": "low",
             "provenance": ["plugin.c:41: o->close = file_close;"]}

# refusals, each applying nothing
con = sqlite3.connect(cat0)
direct_site = con.execute("SELECT s.id FROM sites s JOIN functions f ON f.id = s.callee WHERE f.name = 'helper'").fetchone()[0]
fire_site = con.execute("SELECT s.id FROM sites s JOIN functions f ON f.id = s.caller WHERE f.name = 'fire' "
                        "AND s.kind = 'indirect'").fetchone()[0]
open_site_id = con.execute("SELECT s.id FROM sites s WHERE s.kind = 'indirect' AND s.line = 49").fetchone()[0]
con.close()
refusals = [
    ([add_file, dict(add_sock, provenance=[])], "record 1", "provenance"),
    ([add_file, {k: v for k, v in add_sock.items() if k != "provenance"}], "record 1", "provenance"),
    ([dict(add_file, confidence="certain")], "record 0", "confidence"),
    ([{"op": "add", "site": direct_site, "to": "helper", "confidence": "high", "provenance": ["x"]}], "record 0",
     "not an indirect one"),
    ([dict(add_file, via_field={"record": "nosuch", "offset": 8})], "record 0", "no field nosuch@8"),
    ([dict(add_file, to="no_such_fn")], "record 0", "no defined function"),
    ([dict(add_file, op="frobnicate")], "record 0", "unknown op"),
    ([{"op": "verify", "edge": {"via_field": OPS8, "to": "file_open"}, "tool": "reread", "verdict": "confirmed"}],
     "record 0", "no such edge"),
    ([add_file, dict(add_file, extra_key=1)], "record 1", "unknown key"),
]
for lines, where, what in refusals:
    rc, out, err = record(lines)
    check(rc == 1 and where in err and what in err and not os.path.exists(ov),
          f"refused ({what}), naming {where}, nothing saved: {err.strip()}")
rc, out, err = run([QUERY, "overlay", "record", "--catalog", cat0], stdin="{not json\n")
check(rc == 1 and "line 1" in err, f"malformed JSON line refused: {err.strip()}")
rc, out, err = record([dict(add_file)], "--graph", "rpm")
check(rc == 1 and "bounded in graph rpm" in err or "no unresolved indirect site in graph rpm" in err,
      f"an edge on a site rpm bounds is refused: {err.strip()}")
rc, out, err = record([{"op": "add", "site": open_site_id, "to": "file_open", "confidence": "high",
                        "provenance": ["p"]}], "--graph", "rpm")
check(rc == 1 and "bounded in graph rpm" in err, f"site form on a bounded site refused: {err.strip()}")
rc, out, err = record([dict(add_file, to="file_open")], cat=catpe)
check(rc == 1 and "names 2 definitions" in err and "plugin_extra.c" in err, f"ambiguous 'to' lists candidates: {err.strip()}")
rc, out, err = record([dict(add_file, to={"module_id": P + "plugin_extra.c", "symbol": "file_open"})], cat=catpe)
check(rc == 0, f"{{module_id, symbol}} names the other static: {err.strip()}")

# add, list, walk
rc, out, err = record([add_file, add_sock, add_close])
check(rc == 0 and os.path.exists(ov), f"three adds recorded and saved: {err.strip()}")
lst = listing()
check(lst and len(lst["edges"]) == 3 and lst["uncertainty"]["covered_sites"] == 2
      and lst["uncertainty"]["unresolved_sites"] == 3, "list: 3 edges covering 2 of 3 unresolved sites")
rc, r, _ = q(cat0, "reach", "main", "file_open", "--graph", "r0")
check(r and not r["reachable"], "without the overlay: no path main -> file_open in r0")
rc, r, _ = q(cat0, "reach", "main", "file_open", "--graph", "r0", "--include-overlay")
check(r and r["reachable"] and not r["proven"] and r["uncertainty"]["agent_path_steps"] == 1
      and r["steps"][-1]["overlay_edge"]["provenance"] == add_file["provenance"],
      "with the overlay: a path with one agent step and its provenance")
check(r and r["uncertainty"]["overlay"]["covered_sites"] == 2 and r["uncertainty"]["overlay"]["unresolved_sites"] == 3,
      "reach reports covered_sites of unresolved_sites")
rc, r, _ = q(cat0, "closure", "main", "--out", "--graph", "r0", "--include-overlay")
check(r and set(r["uncertainty"]["agent_reached"]) == {"file_open", "sock_open", "file_close"},
      "closure lists agent_reached")
rc, r, _ = q(cat0, "reach", "main", "file_close", "--graph", "r0", "--include-overlay", "--min-confidence", "medium")
check(r and not r["reachable"], "min_confidence medium drops the low edge to file_close")
rc, r, _ = q(cat0, "callers", "sock_open", "--graph", "r0", "--include-overlay")
check(r and r["callers"] and r["callers"][0]["sites"][0]["agent"], "callers with the overlay: the agent edge")

# a proven path wins over an equal-length agent path (graph direct: fire's h() -> helper)
rc, out, err = run([QUERY, "overlay", "record", "--catalog", cat0, "--graph", "direct"],
                   stdin=json.dumps({"op": "add", "site": fire_site, "to": "helper", "confidence": "high",
                                     "provenance": ["plugin.c:56: h();"]}) + "\n")
check(rc == 0, f"site-form add on fire's h() in graph direct: {err.strip()}")
rc, r, _ = q(cat0, "reach", "main", "helper", "--graph", "direct", "--include-overlay")
check(r and r["reachable"] and r["path"] == ["main", "direct_only", "helper"]
      and r["uncertainty"]["agent_path_steps"] == 0, "the proven path is reported, not the agent one")

# verify, verdict persistence, refute, retract
key_sock = [e["key"] for e in lst["edges"] if e["key"]["to"]["symbol"] == "sock_open"][0]
key_file = [e["key"] for e in lst["edges"] if e["key"]["to"]["symbol"] == "file_open"][0]
key_close = [e["key"] for e in lst["edges"] if e["key"]["to"]["symbol"] == "file_close"][0]
rc, _, err = record([{"op": "verify", "edge": key_file, "tool": "reread", "verdict": "confirmed"},
                     dict(add_file, confidence="medium")])
edges = {e["key"]["to"]["symbol"]: e for e in listing()["edges"]}
check(rc == 0 and edges["file_open"]["verdict"] == "confirmed" and edges["file_open"]["confidence"] == "medium",
      f"a verdict survives a later add that changes confidence: {err.strip()}")
rc, _, err = record([{"op": "verify", "edge": key_sock, "tool": "svf", "verdict": "refuted"}])
check(rc == 0, f"refute sock_open: {err.strip()}")
rc, r, _ = q(cat0, "reach", "main", "sock_open", "--graph", "r0", "--include-overlay")
check(r and not r["reachable"], "a refuted edge is skipped by reach")
rc, r, _ = q(cat0, "closure", "main", "--out", "--graph", "r0", "--include-overlay")
check(r and "sock_open" not in r["functions"], "a refuted edge is skipped by closure")
rc, _, err = record([{"op": "verify", "edge": key_close, "tool": "nosuchtool", "verdict": "confirmed"}])
check(rc == 1 and "tool" in err, "verify with an unknown tool refused")
rc, _, err = record([{"op": "retract", "edge": key_close}])
check(rc == 1 and "reason" in err, "retract without reason refused")
rc, _, err = record([{"op": "retract", "edge": key_close, "reason": "re-read: dead code"}])
edges = {e["key"]["to"]["symbol"]: e for e in listing()["edges"]}
check(rc == 0 and "file_close" not in edges and len(edges) == 3, f"retract removes the edge: {err.strip()}")
rc, _, err = record([{"op": "retract", "edge": key_file, "reason": "reset"}, dict(add_file)])
edges = {e["key"]["to"]["symbol"]: e for e in listing()["edges"]}
check(rc == 0 and edges["file_open"]["verdict"] is None, "retract then add resets the verdict")

# reload in a new process: the same state
check(listing() == listing(), "list is stable across processes")
# an overlay recorded against another build is refused, naming both fingerprints
rebuilt = f"{work}/rebuilt.facet"
build([plugin0], rebuilt, "--tau", "5")
shutil.copy(ov, rebuilt + ".overlay")
rc, _, err = run([QUERY, "reach", "main", "file_open", "--catalog", rebuilt, "--graph", "r0", "--include-overlay"])
check(rc == 1 and inv["fingerprint"] in err and fp_tau5 in err, f"another build's overlay refused, both fingerprints named: {err.strip()}")
rc, _, err = run([QUERY, "reach", "main", "file_open", "--catalog", rebuilt, "--overlay", ov])
check(rc == 1 and inv["fingerprint"] in err and fp_tau5 in err, "--overlay naming another build's file refused")
l2 = listing(cat=rebuilt)
check(l2 and l2["load_error"] and fp_tau5 in l2["load_error"], "list reports why the overlay did not load")
# --overlay PATH records into another file
other = f"{work}/other.overlay"
rc, _, err = record([add_sock], "--overlay", other)
check(rc == 0 and os.path.exists(other) and len(listing("--overlay", other)["edges"]) == 1,
      f"--overlay PATH: records go to that file: {err.strip()}")

# ---- concurrent readers while build rewrites the catalog ------------------------------------------
live = f"{work}/live.facet"
big = os.path.join(SRC, "bench/work/bc/lua.bc")
src_bc = [big] if os.path.exists(big) else [plugin0, extra0]
build(src_bc, live)
stop = threading.Event()
reader_failures = []


def reader():
    while not stop.is_set():
        rc, r, err = q(live, "inventory")
        if rc != 0 or not r or len(r["graphs"]) != 11:
            reader_failures.append(err.strip() or "bad answer")


threads = [threading.Thread(target=reader) for _ in range(2)]
for t_ in threads:
    t_.start()
builds_ok = all(build(src_bc, live)[0] == 0 for _ in range(4))
stop.set()
for t_ in threads:
    t_.join()
check(builds_ok and not reader_failures, f"two readers during 4 rebuilds never saw a broken catalog: {reader_failures[:2]}")

status = checks.summary()
if KEEP:
    print("work directory:", work)
else:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
