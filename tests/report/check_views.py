#!/usr/bin/env python3
"""check_views.py — graph views that fit on a screen (issue 21.3): facet
callgraph PROG.facet and facet query graph with --root/--depth/--direction,
--focus FILE:LINE, --cluster file, --hide-external, the legend and the edge
styles per proof, in DOT (parsed by Graphviz: dot -Tjson) and GraphML
(parsed by Python's XML parser).

Usage: check_views.py FACET SRCDIR

The program is tests/query/programs/proofs.c at -O0 and -O2; what each view
must hold is read from its header (main calls external_ops, install and, at
SITE run, fast_run (Add-Witness) and slow_run (Add-Store); at SITE local,
local_run; each *_run calls its *_sink)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc  # noqa: E402

if len(sys.argv) != 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, SRC = (os.path.abspath(a) for a in sys.argv[1:])
checks = Checks()
check = checks.check


def run(*cmd, stdin=None):
    return subprocess.run(cmd, capture_output=True, text=True, input=stdin)


def dot_parse(text):
    """The DOT text as Graphviz reads it: nodes by name, edges with attributes."""
    r = run("dot", "-Tjson", stdin=text)
    if r.returncode:
        return None
    g = json.loads(r.stdout)
    objs = g.get("objects", [])
    nodes = {o["name"]: o for o in objs if "nodes" not in o and "subgraphs" not in o and not o["name"].startswith("cluster")}
    clusters = {o["name"]: o for o in objs if o["name"].startswith("cluster")}
    edges = [dict(e, tail=objs[e["tail"]]["name"], head=objs[e["head"]]["name"]) for e in g.get("edges", [])]
    return nodes, edges, clusters


def labels(nodes):
    return {n.split("\\n")[0] for n in (o.get("label", "") for o in nodes.values())}


os.chdir(SRC)
PROG = "tests/query/programs/proofs.c"
site_line = {t.split("/* SITE ")[1].split()[0]: n for n, t in enumerate(open(PROG), 1) if "/* SITE " in t}
work = tempfile.mkdtemp(prefix="facet-views.")
if not shutil.which("dot"):
    print("dot (graphviz) is missing: scripts/install-deps.sh installs it", file=sys.stderr)
    sys.exit(2)
for level in ("-O0", "-O2"):
    bc, cat = f"{work}/p{level}.bc", f"{work}/p{level}.facet"
    if not compile_bc(PROG, bc, level)[0] or \
            run(FACET, "build", bc, "-o", cat).returncode:
        print("cannot build", PROG, file=sys.stderr)
        sys.exit(2)
    w = f"proofs.c {level}"

    # --focus: the site, its caller, its two targets, each edge styled by its proof
    r = run(FACET, "callgraph", cat, "--format", "dot", "--focus", f"proofs.c:{site_line['run']}")
    g = check(r.returncode == 0, f"{w}: callgraph --focus", r.stderr) and dot_parse(r.stdout)
    if check(g, f"{w}: the focus DOT parses", r.stdout[:300]):
        nodes, edges, clusters = g
        real = {k: v for k, v in nodes.items() if not k.startswith("legend")}
        check(labels(real) == {"main", "fast_run", "slow_run"} | {l for l in labels(real) if l.startswith("site ")}
              and sum(1 for l in labels(real) if l.startswith("site ")) == 1,
              f"{w}: focus nodes are main, one site, fast_run, slow_run", labels(real))
        by_head = {nodes[e["head"]]["label"].split("\\n")[0]: e for e in edges if not e["tail"].startswith("legend")}
        fr, sr = by_head.get("fast_run", {}), by_head.get("slow_run", {})
        check(fr.get("proof") == "premise-free" and fr.get("style") == "solid" and "Add-Witness" in fr.get("label", ""),
              f"{w}: site -> fast_run solid, premise-free, Add-Witness", fr)
        check(sr.get("proof") == "premised" and sr.get("style") == "dashed" and "Add-Store" in sr.get("label", "")
              and "pi_bind" in sr.get("label", ""), f"{w}: site -> slow_run dashed, premised, Add-Store pi_bind", sr)
        check(fr.get("color") != sr.get("color"), f"{w}: premised and premise-free edges differ in colour")
        leg = [e for e in edges if e["tail"].startswith("legend")]
        check({e["proof"] for e in leg} == {"direct", "premise-free", "premised", "agent", "call"}
              and "cluster_legend" in clusters, f"{w}: the legend shows every edge style", leg)
    r = run(FACET, "callgraph", cat, "--format", "dot", "--focus", f"proofs.c:{site_line['run']}", "--no-legend")
    g = dot_parse(r.stdout)
    check(g and not any(n.startswith("legend") for n in g[0]), f"{w}: --no-legend drops it")

    # --root --depth --direction --hide-external
    def root_view(*extra):
        r = run(FACET, "query", "graph", "--catalog", cat, "--format", "dot", "--no-legend", *extra)
        g = dot_parse(r.stdout) if r.returncode == 0 else None
        check(g, f"{w}: graph {' '.join(extra)}", r.stderr)
        return (labels(g[0]), g[1]) if g else (set(), [])
    got, _ = root_view("--root", "main", "--depth", "1")
    check(got == {"main", "external_ops", "install", "fast_run", "slow_run", "local_run"},
          f"{w}: --root main --depth 1", got)
    got, _ = root_view("--root", "main", "--depth", "1", "--hide-external")
    check(got == {"main", "install", "fast_run", "slow_run", "local_run"}, f"{w}: --hide-external drops external_ops",
          got)
    got, _ = root_view("--root", "main", "--depth", "2", "--hide-external")
    check({"fast_sink", "slow_sink", "local_sink"} <= got and "printf" not in got,
          f"{w}: --depth 2 reaches the sinks, printf hidden", got)
    got, _ = root_view("--root", "slow_sink", "--depth", "2", "--direction", "in")
    check(got == {"slow_sink", "slow_run", "main"}, f"{w}: --direction in from slow_sink", got)
    got, _ = root_view("--root", "main", "--depth", "0")
    check(got == {"main"}, f"{w}: --depth 0 is the root alone", got)
    got, _ = root_view("--root", "main", "--depth", "3", "--max-nodes", "3")
    check(len(got) == 3 or (len(got) == 4 and any("cut at" in x for x in got)), f"{w}: --max-nodes 3 stops", got)

    # --cluster file: every function of proofs.c in one file cluster
    r = run(FACET, "callgraph", cat, "--format", "dot", "--root", "main", "--hide-external", "--cluster", "file")
    g = dot_parse(r.stdout)
    if check(g, f"{w}: --cluster file parses", r.stderr):
        fc = [c for n, c in g[2].items() if n.startswith("cluster_file")]
        check(len(fc) == 1 and fc[0].get("label", "").endswith("proofs.c") and len(fc[0].get("nodes", [])) >= 5,
              f"{w}: one cluster for proofs.c holding the functions", fc)

    # GraphML, read by a real XML parser
    r = run(FACET, "callgraph", cat, "--format", "graphml", "--focus", f"proofs.c:{site_line['run']}")
    try:
        root = ET.fromstring(r.stdout)
    except ET.ParseError as e:
        root = None
        check(False, f"{w}: GraphML parses", e)
    if root is not None:
        ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
        keys = {k.get("id"): k.get("attr.name") for k in root.findall("g:key", ns)}
        graph = root.find("g:graph", ns)
        data = lambda el: {keys[d.get("key")]: d.text for d in el.findall("g:data", ns)}
        nodes = {n.get("id"): data(n) for n in graph.findall("g:node", ns)}
        edges = [(e.get("source"), e.get("target"), data(e)) for e in graph.findall("g:edge", ns)]
        check(graph.get("edgedefault") == "directed", f"{w}: GraphML is directed")
        proofs = {nodes[t]["label"]: d.get("proof") for s, t, d in edges if t in nodes}
        check(proofs.get("fast_run") == "premise-free" and proofs.get("slow_run") == "premised",
              f"{w}: GraphML edges carry the proofs", proofs)
        rule = [d.get("rule") for s, t, d in edges if nodes.get(t, {}).get("label") == "slow_run"]
        check(rule == ["Add-Store"], f"{w}: GraphML keeps the rule", rule)
        check(all(d.get("file") == PROG for d in nodes.values() if d.get("kind") == "function"),
              f"{w}: GraphML nodes carry their file", nodes)

# usage: view options on bitcode say where they work; bad values are refused
r = run(FACET, "callgraph", f"{work}/p-O0.bc", "--root", "main")
check(r.returncode == 2 and "catalog" in r.stderr and "facet build" in r.stderr, "bitcode --root says to build", r.stderr)
r = run(FACET, "callgraph", f"{work}/p-O0.facet", "--format", "dot", "--root", "mian")
check(r.returncode == 1 and "did you mean" in r.stderr and "main" in r.stderr, "a misspelt root gets did-you-mean",
      r.stderr)
for bad, why in ((["--depth", "-1"], "depth"), (["--cluster", "module"], "--cluster"), (["--format", "png"], "png")):
    r = run(FACET, "callgraph", f"{work}/p-O0.facet", "--root", "main", *bad)
    check(r.returncode in (1, 2) and why in r.stderr, f"refused: {' '.join(bad)}", r.stderr)
status = checks.summary()
shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
