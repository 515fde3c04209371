#!/usr/bin/env python3
"""check_catalog.py — the catalog against facet's own printers and its docs.

Usage: check_catalog.py FACET SRCDIR [-v]

For programs of tests/programs/ and tests/query/programs/ at -O0 and -O2:
every graph's edges in the catalog (edges.graphs bitmask) equal the targets
`facet callgraph --graph G --format json` prints for the same input, site by
site, and so do the graph's adjacency arrays; sites, functions and locations agree; graphs.edges counts agree; every
table and view is documented in docs/catalog.md. Then a build killed with
SIGKILL while rewriting a catalog leaves the old catalog whole (lua.bc from
bench/work/bc when present, else the test programs linked)."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("-")]
if len(args) != 2:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, SRC = (os.path.abspath(a) for a in args)
VERBOSE = "-v" in sys.argv
checks = Checks(verbose=VERBOSE)
check = checks.check


work = tempfile.mkdtemp(prefix="facet-catalog.")
os.chdir(SRC)
# the registry's order (catalog bit = 1 << position); `source` is never built from bitcode
GRAPHS = ["direct", "andersen", "r0", "rulesonly", "rplus", "rpm", "source", "cha", "rta", "vta", "vslot"]
programs = ["tests/programs/fnptr_struct.c", "tests/programs/dispatch_table.c", "tests/programs/callbacks.c",
            "tests/programs/statics.c", "tests/query/programs/plugin.c", "tests/cxx/running.cpp"]
# One site of 70 targets: more target_sets rows than one INSERT takes (edges.c
# writes them 64 to a statement, the rest one at a time).
wide = os.path.join(work, "wide_table.c")
with open(wide, "w") as f:
    for i in range(70):
        f.write(f"int f{i}(int x) {{ return x + {i}; }}\n")
    f.write("int (*tab[70])(int) = {" + ", ".join(f"f{i}" for i in range(70)) + "};\n")
    f.write("int main(int argc, char **argv) { (void)argv; return tab[argc % 70](argc); }\n")
programs.append(wide)
for src in programs:
    for opt in ("-O0", "-O2"):
        name = os.path.splitext(os.path.basename(src))[0] + opt
        bc, cat = f"{work}/{name}.bc", f"{work}/{name}.facet"
        ok, err = compile_bc(src, bc, opt)
        if not ok:
            sys.exit(f"cannot compile {src} {opt}: {err}")
        r = subprocess.run([FACET, "build", bc, "-o", cat], capture_output=True, text=True)
        check(r.returncode == 0, f"{name}: build ({r.stderr.strip()})")
        db = sqlite3.connect(cat)
        for bit, g in enumerate(GRAPHS):
            if g == "source":
                continue
            out = subprocess.run([FACET, "callgraph", "--graph", g, "--format", "json", bc],
                                 capture_output=True, text=True)
            want = json.loads(out.stdout)
            names = {i: n for i, n in db.execute("SELECT id, name FROM functions")}
            got = {}
            for site, target in db.execute("SELECT site, target FROM edges WHERE graphs & ?", (1 << bit,)):
                got.setdefault(site, set()).add(names[target])
            diff = [s["id"] for s in want["sites"] if set(s["targets"]) != got.get(s["id"], set())]
            check(not diff, f"{name} {g}: catalog edges equal facet callgraph's, site by site (differ: {diff[:5]})")
            # the adjacency arrays, decoded as docs/catalog.md describes them, hold the same edges
            row = db.execute("SELECT function_sites, site_sets, set_offsets, set_targets FROM adjacency "
                             "WHERE graph = ?", (g,)).fetchone()
            fs, ss, so, st = ([int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)] for b in row)
            callers = dict(db.execute("SELECT id, caller FROM sites"))
            from_adj = {s: {names[t] for t in st[so[k]:so[k + 1]]} for s, k in enumerate(ss) if k != 0xffffffff}
            check(all(callers[s] == f for f in range(len(fs) - 1) for s in range(fs[f], fs[f + 1]))
                  and fs[-1] == len(ss) == len(callers),
                  f"{name} {g}: adjacency.function_sites gives each site's caller")
            differ = sorted(s for s in set(from_adj) | set(got) if from_adj.get(s) != got.get(s))
            check(not differ, f"{name} {g}: adjacency arrays equal the edges view (differ at sites {differ[:5]})")
            n_edges = db.execute("SELECT edges FROM graphs WHERE name = ?", (g,)).fetchone()[0]
            check(n_edges == sum(len(s["targets"]) for s in want["sites"]), f"{name} {g}: graphs.edges")
            if g == "direct":
                rows = {r[0]: r[1:] for r in db.execute("SELECT id, kind, file, line, col FROM sites")}
                bad = [s["id"] for s in want["sites"]
                       if rows.get(s["id"]) != (s["kind"], s["file"], s["line"], s["column"])]
                check(not bad, f"{name}: sites' kind and position equal facet callgraph's ({bad[:5]})")
                fns = [r[0] for r in db.execute("SELECT name FROM functions ORDER BY id")]
                check(fns == [f["name"] for f in want["functions"]], f"{name}: functions in module order")
        db.close()

# every table and view documented
db = sqlite3.connect(cat)
objects = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
doc = open("docs/catalog.md").read()
missing = [n for n in objects if f"`{n}`" not in doc]
check(not missing, f"every table and view is in docs/catalog.md (missing: {missing})")
db.close()

# oracle answers from a cache are stored in the catalog; the oracle is part of the fingerprint
cache = f"{work}/answers.sqlite"
db = sqlite3.connect(cache)
db.execute("CREATE TABLE oracle_answers(backend TEXT, model TEXT, prompt_hash TEXT, answer TEXT, "
           "prompt_tokens INTEGER, completion_tokens INTEGER, PRIMARY KEY(backend, model, prompt_hash))")
db.execute("INSERT INTO oracle_answers VALUES('command', 'label', 'ab12', '{}', 3, 4)")
db.commit()
db.close()
plain_cat, oracle_cat = f"{work}/plain.facet", f"{work}/oracle.facet"
subprocess.run([FACET, "build", f"{work}/plugin-O0.bc", "-o", plain_cat], capture_output=True, check=True)
r = subprocess.run([FACET, "build", f"{work}/plugin-O0.bc", "-o", oracle_cat, "--oracle", "command",
                    "--oracle-command", "false", "--oracle-model", "label", "--oracle-cache", cache,
                    "--oracle-replay-only"], capture_output=True, text=True)
check(r.returncode == 0, f"build with a replayed oracle cache ({r.stderr.strip()})")
db = sqlite3.connect(oracle_cat)
rows = db.execute("SELECT backend, model, prompt_hash FROM oracle_answers").fetchall()
fp_o, name_o = (db.execute("SELECT value FROM meta WHERE key = ?", (k,)).fetchone()[0] for k in ("fingerprint", "oracle"))
db.close()
fp_p = sqlite3.connect(plain_cat).execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
check(rows == [("command", "label", "ab12")] and name_o == "command:label" and fp_o != fp_p,
      f"oracle_answers stored, meta.oracle names backend and model, another fingerprint ({rows}, {name_o})")
check("`oracle_answers`" in doc, "oracle_answers is documented")
r = subprocess.run([FACET, "build", f"{work}/plugin-O0.bc", "-o", f"{work}/x.facet", "--oracle", "command",
                    "--oracle-command", "false", "--oracle-cache", oracle_cat], capture_output=True, text=True)
check(r.returncode == 2 and "is a catalog" in r.stderr, "a catalog is refused as a cache to write")

# a build killed mid-write leaves the old catalog whole
big = os.path.join(SRC, "bench/work/bc/lua.bc")
inputs = [big] if os.path.exists(big) else [f"{work}/plugin-O0.bc"]
target = f"{work}/killed.facet"
subprocess.run([FACET, "build", *inputs, "-o", target], capture_output=True, check=True)
before = sqlite3.connect(target).execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
for delay in (0.05, 0.3, 0.8, 1.5):
    p = subprocess.Popen([FACET, "build", *inputs, "-o", target, "--tau", "7"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    p.wait()
    r = subprocess.run([FACET, "query", "inventory", "--catalog", target, "--format", "json"],
                       capture_output=True, text=True)
    ok = r.returncode == 0 and json.loads(r.stdout)["fingerprint"] in (before,)
    if r.returncode == 0 and not ok:   # the build finished before the kill: a whole new catalog
        ok = json.loads(r.stdout)["meta"]["tau"] == "7"
    check(ok, f"SIGKILL after {delay} s: the catalog is the old one or the new one, whole")
subprocess.run([FACET, "build", *inputs, "-o", target], capture_output=True, check=True)
left = [f for f in os.listdir(work) if f.startswith("killed.facet.tmp-")]
check(not left, f"the next build removes the temporary files killed builds left ({left})")
status = checks.summary()
subprocess.run(["rm", "-rf", work])
sys.exit(status)
