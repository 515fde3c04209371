#!/usr/bin/env python3
"""seed_workflow.py — seed 001's loop end to end on lua, through the CLI.

Usage: seed_workflow.py FACET FACET_QUERY SRCDIR [-k] [-v]

Builds the catalog of bench/work/bc/lua.bc (bench/corpus.sh makes it; the
test is skipped, exit 77, without it), lists resolution candidates in the
direct graph (where every indirect call is unresolved, as in rllvm-query),
records edges with provenance, verifies one, refutes one, retracts one,
saves, reloads in a new process, and asks reach with and without the
overlay. The fields and candidates come from lua's source (lstate.h
global_State: panic, warnf; ldo.c luaD_throw calls g->panic; lauxlib.c
installs warnfoff/warnfon/warnfcont) and are checked against the
catalog's answers, not taken from them."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, run  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("-")]
if len(args) != 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, QUERY, SRC = (os.path.abspath(a) for a in args)
VERBOSE, KEEP = "-v" in sys.argv, "-k" in sys.argv
bc = os.path.join(SRC, "bench/work/bc/lua.bc")
if not os.path.exists(bc):
    print(f"skipped: {bc} not built (bench/corpus.sh lua)")
    sys.exit(77)
checks = Checks(verbose=VERBOSE)
check = checks.check


work = tempfile.mkdtemp(prefix="facet-seed.")
cat = f"{work}/lua.facet"
rc, _, err = run([FACET, "build", bc, "-o", cat])
check(rc == 0, f"build the lua catalog: {err.strip()}")


def query(*words):
    rc, out, err = run([QUERY, *words, "--catalog", cat, "--format", "json"])
    return json.loads(out) if rc == 0 else {"error": err}


def record(lines):
    return run([QUERY, "overlay", "record", "--catalog", cat, "--graph", "direct"],
               stdin="".join(json.dumps(l) + "\n" for l in lines))


# 1. resolution candidates, grouped by field
rc_ = query("resolution-candidates", "--graph", "direct")
groups = {g["field"]: g for g in rc_.get("groups", [])}
panic, warnf = groups.get("global_State@256"), groups.get("global_State@1400")
check(panic and panic["field_name"] == "panic" and [c["name"] for c in panic["candidates"]] == ["panic"]
      and panic["single_candidate"], "global_State.panic: the single candidate panic (lauxlib.c)")
check(warnf and warnf["field_name"] == "warnf"
      and {c["name"] for c in warnf["candidates"]} == {"warnfoff", "warnfon", "warnfcont"},
      "global_State.warnf: warnfoff, warnfon, warnfcont")
if checks.failed:
    sys.exit(checks.summary())


def prov(g, name):
    c = [c for c in g["candidates"] if c["name"] == name][0]
    return [f"{a['file']}:{a['line']}: {a['form']} of {name} into {g['record']}.{g['field_name']}"
            for a in c["assignments"]] or [f"{name}: signature match only"]


# 2. read the assignments (at), 3. record with provenance
a = panic["candidates"][0]["assignments"][0]
at = query("at", f"{a['file']}:{a['line']}")
check("error" not in at and "lua_atpanic" in {f["name"] for f in at["functions"]}
      and any(x["function"] == "panic" for x in at["field_assignments"]),
      f"at {a['file']}:{a['line']}: lua_atpanic stores the panic function there")
field = lambda g: {"record": g["record"], "offset": g["offset"]}
adds = [{"op": "add", "via_field": field(panic), "to": "panic", "confidence": "high", "provenance": prov(panic, "panic")}]
for name, conf in (("warnfoff", "medium"), ("warnfon", "medium"), ("warnfcont", "low")):
    adds.append({"op": "add", "via_field": field(warnf), "to": name, "confidence": conf, "provenance": prov(warnf, name)})
rc, _, err = record(adds)
check(rc == 0, f"record 4 edges: {err.strip()}")
lst = json.loads(run([QUERY, "overlay", "list", "--catalog", cat, "--graph", "direct",
                                                               "--format", "json"])[1])
keys = {e["key"]["to"]["symbol"]: e["key"] for e in lst["edges"]}
check(set(keys) == {"panic", "warnfoff", "warnfon", "warnfcont"}, "list_overlay: the four edges")
# 4. verify one, refute one, retract one (keys copied verbatim from the list)
rc, _, err = record([{"op": "verify", "edge": keys["panic"], "tool": "reread", "verdict": "confirmed"},
                     {"op": "verify", "edge": keys["warnfcont"], "tool": "reread", "verdict": "refuted"},
                     {"op": "retract", "edge": keys["warnfoff"], "reason": "re-read: only installed by 'warn @off'"}])
check(rc == 0, f"verify, refute, retract: {err.strip()}")
# 5. saved (record saves); reload in a new process
lst = json.loads(run([QUERY, "overlay", "list", "--catalog", cat, "--graph", "direct", "--format", "json"])[1])
edges = {e["key"]["to"]["symbol"]: e for e in lst["edges"]}
check(set(edges) == {"panic", "warnfon", "warnfcont"} and edges["panic"]["verdict"] == "confirmed"
      and edges["warnfcont"]["verdict"] == "refuted" and not lst["pending"], "reloaded: 3 edges with their verdicts")
check(lst["uncertainty"]["covered_sites"] == len(panic["sites"]) + len(warnf["sites"]),
      "covered_sites counts the sites of both fields")
# 6. reach with and without the overlay
r = query("reach", "main", "panic", "--graph", "direct")
check(r.get("reachable") is False, "without the overlay: main does not reach panic")
r = query("reach", "main", "panic", "--graph", "direct", "--include-overlay")
check(r.get("reachable") and r["uncertainty"]["agent_path_steps"] == 1 and not r["proven"]
      and r["steps"][-1]["overlay_edge"]["provenance"] == adds[0]["provenance"],
      "with the overlay: main reaches panic through one agent step, its provenance shown")
r = query("reach", "luaE_warning", "warnfon", "--graph", "direct", "--include-overlay")
check(r.get("reachable"), "luaE_warning -> warnfon through the overlay")
r = query("reach", "luaE_warning", "warnfcont", "--graph", "direct", "--include-overlay")
check(r.get("path") == ["luaE_warning", "warnfon", "warnfcont"],
      "the refuted edge to warnfcont is skipped: the path goes through warnfon, which calls it (lauxlib.c)")
r = query("reach", "luaE_warning", "warnfon", "--graph", "direct", "--include-overlay", "--min-confidence", "high")
check(r.get("reachable") is False, "min_confidence high drops the medium edge")
r = query("reach", "main", "panic", "--include-overlay")
check(r.get("graph") == "rpm", f"the default graph of the lua catalog is rpm")
status = checks.summary()
if KEEP:
    print("work directory:", work)
else:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
