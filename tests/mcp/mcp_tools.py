#!/usr/bin/env python3
"""mcp_tools.py - every tool of `facet mcp` on a real catalog.

Usage: mcp_tools.py FACET SRCDIR

Compiles tests/mcp/programs/plugins.c with clang-22 -g, builds its catalog
with `facet build`, and calls each tool through `facet mcp` with valid and
invalid arguments: queries, the overlay loop (record, list, guards against
dropping unsaved records, save, verify, reload), and the session's end
without saving. Expected answers come from reading plugins.c (its header
comment says what they are), not from facet's output. Graph-dependent facts
are asked of r0, which every catalog has; the facts about the flush site
hold in every graph (no graph resolves it).

Then tests/mcp/programs/stages_a.c and stages_b.c, each compiled alone and
linked with llvm-link-22: a `static int step` in each, so every function
argument (name, from, to, record_edges' to) is asked both ways: the bare
name refused with both candidates, {module_id, symbol} picking the right one,
and malformed objects refused as tool errors.

Exit status: 0 passed, 1 failed, 77 skipped (`facet build` is not in this
build)."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcpclient import Session, tool_data, tool_text  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

FACET, SRCDIR = sys.argv[1], sys.argv[2]
PROGRAM = "tests/mcp/programs/plugins.c"
checks = Checks(limit=800)
check = checks.named   # check(name, cond, detail)


def line_of(pattern):
    """The line of plugins.c holding pattern (the source is the oracle)."""
    with open(os.path.join(SRCDIR, PROGRAM)) as f:
        for i, text in enumerate(f, 1):
            if pattern in text:
                return i, text.strip()
    raise RuntimeError(f"{PROGRAM} has no line with {pattern!r}")


def ok(s, tool, args):
    """Calls a tool that must succeed; returns its structured answer."""
    res = s.call(tool, args)
    if not check(f"{tool} {json.dumps(args)}: succeeds", res.get("isError") is False, tool_text(res)):
        return {}
    return tool_data(res)


def refused(s, tool, args, *words):
    res = s.call(tool, args)
    text = tool_text(res)
    check(f"{tool} {json.dumps(args)}: tool error", res.get("isError") is True, res)
    for w in words:
        check(f"{tool} {json.dumps(args)}: message has {w!r}", w in text, text)
    return text


def names(fns):
    return [f["name"] if isinstance(f, dict) else f for f in fns]


def setup(work):
    if subprocess.run([FACET, "build", "--help"], capture_output=True).returncode != 0:
        print("mcp_tools: SKIP: this facet has no 'build' command yet (issue 7), so there is no catalog")
        sys.exit(77)
    bc = os.path.join(work, "plugins.bc")
    subprocess.run(["clang-22", "-g", "-O0", "-c", "-emit-llvm", PROGRAM, "-o", bc], cwd=SRCDIR, check=True)
    cat = os.path.join(work, "plugins.facet")
    r = subprocess.run([FACET, "build", bc, "-o", cat], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL facet build {bc}: {r.stderr}")
        sys.exit(1)
    # A second program, for an overlay recorded against another build.
    other_bc = os.path.join(work, "callbacks.bc")
    subprocess.run(["clang-22", "-g", "-O0", "-c", "-emit-llvm", "tests/programs/callbacks.c", "-o", other_bc],
                   cwd=SRCDIR, check=True)
    other = os.path.join(work, "callbacks.facet")
    subprocess.run([FACET, "build", other_bc, "-o", other], capture_output=True, check=True)
    return cat, other


def main():
    work = tempfile.mkdtemp(prefix="facet-mcp-tools.")
    try:
        run(work)
        run_stages(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return checks.summary()


def run(work):
    cat, other_cat = setup(work)
    overlay_path = cat + ".overlay"
    flush_line, _ = line_of("codec->flush(state);")
    decode_line, _ = line_of("codec->decode(in, out, n);")
    run_codec_line, _ = line_of("size_t run_codec(")
    hex_ops_line, hex_ops_text = line_of("static const struct codec_ops hex_ops")
    flush_init_line, flush_init_text = line_of("legacy_flush};")

    # The server reads and writes only where it is told (docs/mcp.md): here.
    s = Session(FACET, ["--read-dir", work, "--write-dir", work])
    s.initialize()

    # ---- load_catalog and inventory
    refused(s, "load_catalog", {"path": os.path.join(work, "nope.facet")}, "nope.facet")
    d = ok(s, "load_catalog", {"path": cat})
    inv = d.get("inventory", {})
    check("load_catalog: names the catalog", d.get("catalog") == cat, d)
    check("inventory: three indirect call sites (reset, decode, flush)",
          inv.get("counts", {}).get("sites_indirect") == 3, inv.get("counts"))
    check("inventory: seven defined functions", inv.get("counts", {}).get("functions_defined") == 7, inv.get("counts"))
    graphs = {g["name"] for g in inv.get("graphs", []) if g.get("present")}
    check("inventory: r0 present", "r0" in graphs, graphs)
    inv2 = ok(s, "inventory", {})
    check("inventory tool = load_catalog's inventory", inv2.get("fingerprint") == inv.get("fingerprint"), inv2)

    # ---- defs, at, callers, callees, uses, externals
    d = ok(s, "defs", {"name": "run_codec"})
    fns = d.get("functions", [])
    check("defs run_codec: one definition at its line",
          len(fns) == 1 and fns[0].get("line") == run_codec_line and fns[0]["file"].endswith("plugins.c"), fns)
    d = ok(s, "at", {"file": "plugins.c", "line": flush_line, "graph": "r0"})
    sites = [x for x in d.get("sites", []) if x.get("kind") == "indirect"]
    check("at flush line: one indirect site in run_codec",
          len(sites) == 1 and sites[0].get("caller") == "run_codec", d.get("sites"))
    flush_site = sites[0]["id"] if sites else -1
    d = ok(s, "callers", {"name": "run_codec"})
    check("callers run_codec: main", names(c["function"] for c in d.get("callers", [])) == ["main"], d)
    d = ok(s, "callees", {"name": "run_codec", "graph": "r0"})
    kinds = sorted(x.get("kind") for x in d.get("sites", []))
    check("callees run_codec: one direct, three indirect", kinds == ["direct", "indirect", "indirect", "indirect"], kinds)
    check("callees run_codec (r0): the indirect sites have no target",
          all(not x.get("targets") for x in d.get("sites", []) if x.get("kind") == "indirect"), d.get("sites"))
    check("callees run_codec: the direct site calls codec_lookup",
          [x.get("targets") for x in d.get("sites", []) if x.get("kind") == "direct"] == [["codec_lookup"]], d)
    d = ok(s, "uses", {"name": "legacy_flush"})
    uses = d.get("uses", [])
    check("uses legacy_flush: stored once, in hex_ops's initializer",
          len(uses) == 1 and uses[0].get("global") == "hex_ops" and uses[0].get("line") == hex_ops_line, uses)
    d = ok(s, "externals", {})
    ext = set(names(d.get("functions", [])))
    check("externals: the registry and printf", {"codec_lookup", "codec_register", "printf"} <= ext, ext)
    check("externals: no defined function", not ext & {"run_codec", "main", "legacy_flush"}, ext)

    # ---- walks without the overlay
    d = ok(s, "reach", {"from": "main", "to": "run_codec"})
    check("reach main->run_codec: proven, direct", d.get("reachable") is True and d.get("proven") is True and
          d.get("path") == ["main", "run_codec"], d)
    d = ok(s, "reach", {"from": "main", "to": "legacy_flush"})
    check("reach main->legacy_flush: no path", d.get("reachable") is False, d)
    check("reach main->legacy_flush: the flush site is named as where a path could hide",
          flush_site in d.get("uncertainty", {}).get("unresolved_site_ids", []), d.get("uncertainty"))
    d = ok(s, "closure", {"name": "main", "direction": "out", "graph": "r0"})
    clo = set(names(d.get("functions", [])))
    check("closure main (r0): main, run_codec, codec_lookup, codec_register, printf",
          clo == {"main", "run_codec", "codec_lookup", "codec_register", "printf"}, clo)
    d = ok(s, "closure", {"name": "legacy_flush", "direction": "in"})
    check("closure in legacy_flush: nothing calls it", set(names(d.get("functions", []))) == {"legacy_flush"}, d)
    d = ok(s, "slice", {"from": "main", "to": "run_codec"})
    check("slice main->run_codec: the two functions", set(names(d.get("functions", []))) == {"main", "run_codec"}, d)
    d = ok(s, "indirect_targets", {"file": "plugins.c", "line": flush_line})
    check("indirect_targets flush: one site, no target",
          [(x.get("id"), x.get("targets")) for x in d.get("sites", [])] == [(flush_site, [])], d)
    d = ok(s, "indirect_targets", {"file": "plugins.c", "line": decode_line, "graph": "r0"})
    check("indirect_targets decode (r0): unresolved", [x.get("targets") for x in d.get("sites", [])] == [[]], d)
    d = ok(s, "explain", {"site": flush_site})
    check("explain flush site: indirect, in run_codec, no target",
          d.get("site", {}).get("kind") == "indirect" and d["site"].get("caller") == "run_codec" and
          not d["site"].get("targets"), d)
    refused(s, "explain", {"site": 100000}, "100000")
    if "rpm" not in graphs:   # the refinement is not in this catalog: asking for its graph is a tool error
        refused(s, "reach", {"from": "main", "to": "run_codec", "graph": "rpm"}, "rpm", "not in this catalog")
    refused(s, "reach", {"from": "main", "to": "no_such_function"}, "no_such_function")

    d = ok(s, "resolution_candidates", {})
    groups = d.get("groups", [])
    flush_group = [g for g in groups if flush_site in [x.get("id") for x in g.get("sites", [])]]
    check("resolution_candidates: the flush site is in one group", len(flush_group) == 1, groups)
    group = flush_group[0] if flush_group else {}

    # ---- the overlay: record, guards, walks with it, save
    provenance = [f"{PROGRAM}:{hex_ops_line}-{flush_init_line}: {hex_ops_text} ... {flush_init_text}"]
    if group.get("field"):
        target = {"via_field": {"record": group["record"], "offset": group["offset"]}}
    else:   # no recovered field (the refinement is not in this catalog): name the site
        target = {"site": flush_site}
    add = {"op": "add", **target, "to": "legacy_flush", "confidence": "medium", "provenance": provenance}
    refused(s, "record_edges", {"records": [add, {**add, "to": "no_such_function"}]}, "record 1")
    d = ok(s, "list_overlay", {})
    check("a batch with one bad record applies none", d.get("edges") == [] and d.get("pending") is False, d)
    callsite = {"op": "add", "site": [x for x in ok(s, "callees", {"name": "main"}).get("sites", [])
                                      if x.get("kind") == "direct"][0]["id"],
                "to": "legacy_flush", "confidence": "low", "provenance": ["made up"]}
    refused(s, "record_edges", {"records": [callsite]}, "record 0")
    refused(s, "record_edges", {"records": [{k: v for k, v in add.items() if k != "provenance"}]}, "provenance")
    d = ok(s, "record_edges", {"records": [add]})
    check("record_edges: applied, pending", d.get("applied") == 1 and d.get("pending") is True, d)
    d = ok(s, "list_overlay", {})
    edges = d.get("edges", [])
    check("list_overlay: the edge, covering the flush site",
          len(edges) == 1 and flush_site in edges[0].get("sites", []) and edges[0].get("provenance") == provenance,
          edges)
    key = edges[0]["key"] if edges else {}

    refused(s, "unload_catalog", {}, "unsaved", "save_overlay", "discard_pending")
    refused(s, "load_overlay", {}, "save_overlay", "discard_pending")
    refused(s, "load_catalog", {"path": cat}, "unsaved", "discard_pending")

    d = ok(s, "reach", {"from": "main", "to": "legacy_flush", "include_overlay": True})
    u = d.get("uncertainty", {})
    check("reach with overlay: found through the agent edge, not proven",
          d.get("reachable") is True and d.get("proven") is False and
          d.get("path") == ["main", "run_codec", "legacy_flush"], d)
    check("reach with overlay: one agent step", u.get("agent_path_steps") == 1, u)
    agent_steps = [st for st in d.get("steps", []) if st.get("agent")]
    check("reach with overlay: the agent step quotes its provenance",
          len(agent_steps) == 1 and agent_steps[0].get("overlay_edge", {}).get("provenance") == provenance, agent_steps)
    d = ok(s, "reach", {"from": "main", "to": "legacy_flush", "include_overlay": True, "min_confidence": "high"})
    check("reach with min_confidence high: the medium edge is ignored", d.get("reachable") is False, d)
    d = ok(s, "closure", {"name": "main", "include_overlay": True})
    check("closure with overlay: legacy_flush agent-reached",
          d.get("uncertainty", {}).get("agent_reached") == ["legacy_flush"], d.get("uncertainty"))
    d = ok(s, "callers", {"name": "legacy_flush", "include_overlay": True})
    check("callers with overlay: run_codec through the agent edge",
          names(c["function"] for c in d.get("callers", [])) == ["run_codec"], d)
    d = ok(s, "slice", {"from": "main", "to": "legacy_flush", "include_overlay": True})
    check("slice with overlay: main, run_codec, legacy_flush",
          set(names(d.get("functions", []))) == {"main", "run_codec", "legacy_flush"}, d)
    d = ok(s, "indirect_targets", {"file": "plugins.c", "line": flush_line, "include_overlay": True})
    check("indirect_targets with overlay: the agent target",
          [t.get("name") for x in d.get("sites", []) for t in x.get("agent_targets", [])] == ["legacy_flush"], d)

    check("no overlay file before save_overlay", not os.path.exists(overlay_path), overlay_path)
    d = ok(s, "save_overlay", {})
    check("save_overlay: written, nothing pending", os.path.exists(overlay_path) and d.get("pending") is False, d)
    with open(overlay_path) as f:
        saved = f.read()
    check("overlay file carries the fingerprint", inv.get("fingerprint", "?") in saved.splitlines()[0], saved[:200])

    # verify: refuted edges are skipped by walks
    d = ok(s, "record_edges", {"records": [{"op": "verify", "edge": key, "tool": "reread", "verdict": "refuted"}]})
    d = ok(s, "reach", {"from": "main", "to": "legacy_flush", "include_overlay": True})
    check("reach after a refuted verdict: no path", d.get("reachable") is False, d)
    d = ok(s, "load_overlay", {"discard_pending": True})
    check("load_overlay discard_pending: back to the saved state", d.get("pending") is False and d.get("records") == 1, d)
    d = ok(s, "reach", {"from": "main", "to": "legacy_flush", "include_overlay": True})
    check("after reload: the saved edge is back", d.get("reachable") is True, d)

    # an overlay of another build is refused, naming both fingerprints
    text = refused(s, "load_catalog", {"path": other_cat, "overlay": overlay_path}, "fingerprint")
    check("fingerprint refusal names the overlay", overlay_path in text, text)
    d = ok(s, "inventory", {})
    check("a refused load_catalog keeps the loaded catalog", d.get("catalog") == cat, d.get("catalog"))

    d = ok(s, "unload_catalog", {})
    check("unload_catalog: nothing dropped", d.get("unloaded") == cat and d.get("discarded_pending") is False, d)
    refused(s, "inventory", {}, "load_catalog")
    rc = s.close()
    check("session 1: exit 0", rc == 0, s.stderr)
    check("session 1: stdout clean", not s.stray, s.stray)

    # ---- session 2: the saved overlay comes back; unsaved records are dropped at EOF
    s = Session(FACET, ["--catalog", cat])
    s.initialize()
    d = ok(s, "list_overlay", {})
    check("--catalog: loaded at start with its overlay", len(d.get("edges", [])) == 1, d)
    reset_line, _ = line_of("codec->reset(state);")
    reset_site = [x["id"] for x in ok(s, "at", {"file": "plugins.c", "line": reset_line}).get("sites", [])
                  if x.get("kind") == "indirect"]
    d = ok(s, "resolution_candidates", {})
    reset_group = [g for g in d.get("groups", []) if reset_site and reset_site[0] in [x["id"] for x in g["sites"]]]
    if reset_group and reset_group[0].get("field"):
        tgt = {"via_field": {"record": reset_group[0]["record"], "offset": reset_group[0]["offset"]}}
    else:
        tgt = {"site": reset_site[0] if reset_site else -1}
    if reset_group:   # unresolved in the default graph (r0): record; else there is nothing to add
        ok(s, "record_edges", {"records": [{"op": "add", **tgt, "to": "rle_reset", "confidence": "high",
                                            "provenance": [f"{PROGRAM}:{line_of('rle_ops =')[0]}: rle_ops"]}]})
        check("session 2: a record pending", ok(s, "list_overlay", {}).get("pending") is True)
    # record_edges' graph: the decode site is resolved by the refinement, so
    # an add there is refused against rpm and accepted against r0.
    decode_site = [x["id"] for x in ok(s, "at", {"file": "plugins.c", "line": decode_line, "graph": "r0"})
                   .get("sites", []) if x.get("kind") == "indirect"]
    dec = {"op": "add", "site": decode_site[0] if decode_site else -1, "to": "hex_decode", "confidence": "high",
           "provenance": [f"{PROGRAM}:{hex_ops_line}: {hex_ops_text}"]}
    if "rpm" in graphs:
        refused(s, "record_edges", {"records": [dec], "graph": "rpm"}, "record 0")
    d = ok(s, "record_edges", {"records": [dec], "graph": "r0"})
    check("record_edges graph r0: accepted at a site r0 leaves unresolved", d.get("applied") == 1, d)
    rc = s.close()
    check("session 2: exit 0 with unsaved records", rc == 0, s.stderr)
    with open(overlay_path) as f:
        check("unsaved records are not written on exit", f.read() == saved)
    check("the log says they were dropped", b"dropped" in s.stderr, s.stderr)
    check("session 2: stdout clean", not s.stray, s.stray)

    # ---- session 3: slice's emit_module (bitcode written through LLVM), on its own
    # so that a failure of the writer (a crash, a sanitizer report at exit) is named.
    s = Session(FACET, ["--catalog", cat])
    s.initialize()
    mod = os.path.join(work, "slice.bc")
    d = ok(s, "slice", {"from": "main", "to": "run_codec", "emit_module": mod})
    check("slice emit_module: the two functions", set(names(d.get("functions", []))) == {"main", "run_codec"}, d)
    check("slice emit_module: written", os.path.exists(mod), mod)
    if shutil.which("opt-22") and os.path.exists(mod):
        r = subprocess.run(["opt-22", "-passes=verify", "-disable-output", mod], capture_output=True, text=True)
        check("slice emit_module: opt-22 verifies it", r.returncode == 0, r.stderr)
    rc = s.close()
    check("session 3 (emit_module): exit 0", rc == 0,
          f"exit {rc}; stderr ends: {s.stderr.decode(errors='replace')[-700:]}")



# ---- a static defined in two modules: function arguments as {module_id, symbol}

STAGES = ("tests/mcp/programs/stages_a.c", "tests/mcp/programs/stages_b.c")


def stages_line(path, pattern):
    with open(os.path.join(SRCDIR, path)) as f:
        for i, text in enumerate(f, 1):
            if pattern in text:
                return i
    raise RuntimeError(f"{path} has no line with {pattern!r}")


def setup_stages(work):
    """Each file compiled alone (from SRCDIR, so the debug info names it as
    STAGES does), then linked into one module, as a build system would."""
    bcs = []
    for src in STAGES:
        bc = os.path.join(work, os.path.basename(src).replace(".c", ".bc"))
        subprocess.run(["clang-22", "-g", "-O0", "-c", "-emit-llvm", src, "-o", bc], cwd=SRCDIR, check=True)
        bcs.append(bc)
    linked = os.path.join(work, "stages.bc")
    subprocess.run(["llvm-link-22", *bcs, "-o", linked], check=True)
    cat = os.path.join(work, "stages.facet")
    r = subprocess.run([FACET, "build", linked, "-o", cat], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL facet build {linked}: {r.stderr}")
        sys.exit(1)
    return cat


def candidates_in(text):
    """The {"module_id", "symbol"} objects an ambiguity message lists."""
    return [json.loads(m) for m in re.findall(r'\{"module_id": "[^"]*", "symbol": "[^"]*"\}', text)]


def run_stages(work):
    cat = setup_stages(work)
    a_src, b_src = STAGES
    s = Session(FACET, ["--catalog", cat])
    s.initialize()

    # defs takes a name and lists both definitions: where the objects come from.
    d = ok(s, "defs", {"name": "step"})
    defs = [f for f in d.get("functions", []) if f.get("defined")]
    by_module = {f.get("module_id"): f for f in defs}
    check("stages defs step: two definitions, one per file, ambiguous",
          sorted(by_module) == sorted(STAGES) and d.get("ambiguous") is True, defs)
    check("stages defs step: each at its file's `static int step` line",
          all(by_module.get(m, {}).get("line") == stages_line(m, "static int step(int x)") for m in STAGES), defs)
    if len(by_module) != 2:
        s.close()
        return
    obj = {m: {"module_id": m, "symbol": by_module[m]["name"]} for m in STAGES}
    by_source = {m: {"module_id": m, "symbol": "step"} for m in STAGES}
    refused(s, "defs", {"name": obj[a_src]}, "name: must be of type string, not an object")

    # A bare name is refused, listing both candidates; each one sent back works.
    for tool, args in [("callers", {"name": "step"}), ("closure", {"name": "step"}), ("uses", {"name": "step"}),
                       ("reach", {"from": "main", "to": "step"}), ("slice", {"from": "step", "to": "a_leaf"})]:
        text = refused(s, tool, args, "step", "module_id")
        cands = candidates_in(text)
        check(f"stages {tool} bare step: both candidates listed",
              sorted(c["module_id"] for c in cands) == sorted(STAGES) and
              all(c in obj.values() for c in cands), text)
    text = refused(s, "callers", {"name": "step"})
    for c in candidates_in(text):
        res = s.call("callers", {"name": c, "graph": "r0"})
        check(f"stages callers {c}: a candidate from the refusal, sent back, names that function",
              res.get("isError") is False and tool_data(res).get("function", {}).get("module_id") == c["module_id"],
              tool_text(res))

    # Each object names its own step: callers, closure (out and in), reach, uses, callees, slice.
    runner = {a_src: "a_run", b_src: "b_run"}
    leaf = {a_src: "a_leaf", b_src: "b_leaf"}
    other = {a_src: b_src, b_src: a_src}
    table = {a_src: "a_stage", b_src: "b_stage"}
    for m in STAGES:
        for form, fn in (("linked", obj[m]), ("source", by_source[m])):
            tag = f"stages {os.path.basename(m)} step ({form} name)"
            d = ok(s, "callers", {"name": fn, "graph": "r0"})
            check(f"{tag}: callers is the function itself",
                  d.get("function", {}).get("module_id") == m and d["function"].get("line") ==
                  stages_line(m, "static int step(int x)"), d.get("function"))
            check(f"{tag}: called by {runner[m]} only",
                  names(c["function"] for c in d.get("callers", [])) == [runner[m]], d.get("callers"))
        d = ok(s, "callees", {"name": obj[m], "graph": "r0"})
        check(f"stages callees {m} step: calls {leaf[m]}",
              [x.get("targets") for x in d.get("sites", [])] == [[leaf[m]]], d.get("sites"))
        d = ok(s, "closure", {"name": obj[m], "direction": "out", "graph": "r0"})
        check(f"stages closure out {m} step: itself and {leaf[m]}",
              sorted(names(d.get("functions", []))) == sorted([obj[m]["symbol"], leaf[m]]), d.get("functions"))
        d = ok(s, "closure", {"name": obj[m], "direction": "in", "graph": "r0"})
        check(f"stages closure in {m} step: itself, {runner[m]}, main",
              sorted(names(d.get("functions", []))) == sorted([obj[m]["symbol"], runner[m], "main"]),
              d.get("functions"))
        d = ok(s, "reach", {"from": "main", "to": obj[m], "graph": "r0"})
        check(f"stages reach main -> {m} step: through {runner[m]}",
              d.get("reachable") is True and d.get("path") == ["main", runner[m], obj[m]["symbol"]] and
              d.get("to", {}).get("module_id") == m, d)
        d = ok(s, "reach", {"from": obj[m], "to": leaf[m], "graph": "r0"})
        check(f"stages reach {m} step -> {leaf[m]}: yes", d.get("reachable") is True, d)
        d = ok(s, "reach", {"from": obj[m], "to": leaf[other[m]], "graph": "r0"})
        check(f"stages reach {m} step -> {leaf[other[m]]}: no", d.get("reachable") is False, d)
        d = ok(s, "slice", {"from": obj[m], "to": leaf[m], "graph": "r0"})
        check(f"stages slice {m} step -> {leaf[m]}",
              sorted(names(d.get("functions", []))) == sorted([obj[m]["symbol"], leaf[m]]), d.get("functions"))
        d = ok(s, "uses", {"name": obj[m]})
        check(f"stages uses {m} step: stored into {table[m]} only",
              [u.get("global") for u in d.get("uses", [])] == [table[m]], d.get("uses"))
    refused(s, "callers", {"name": {"module_id": "tests/mcp/programs/nope.c", "symbol": "step"}},
            "no function 'step' in module 'tests/mcp/programs/nope.c'")

    # record_edges: `to` as a bare name is refused with both candidates; as an object it names one.
    run_line = stages_line(a_src, "@site run")
    site = [x["id"] for x in ok(s, "at", {"file": a_src, "line": run_line, "graph": "r0"}).get("sites", [])
            if x.get("kind") == "indirect"]
    check("stages at the run line: one indirect site", len(site) == 1, site)
    add = {"op": "add", "site": site[0] if site else -1, "confidence": "medium", "graph": "r0",
           "provenance": [f"{b_src}:{stages_line(b_src, 'b_stage =')}: const struct stage b_stage = {{\"b\", step}};"]}
    text = refused(s, "record_edges", {"records": [{**add, "to": "step"}]}, "record 0")
    check("stages record_edges to bare step: both candidates listed",
          sorted(c["module_id"] for c in candidates_in(text)) == sorted(STAGES), text)
    d = ok(s, "record_edges", {"records": [{**add, "to": by_source[b_src]}]})
    check("stages record_edges to {module_id, symbol}: applied", d.get("applied") == 1, d)
    edges = ok(s, "list_overlay", {}).get("edges", [])
    check("stages list_overlay: the edge goes to stages_b.c's step",
          [e.get("key", {}).get("to") for e in edges] == [obj[b_src]], edges)
    d = ok(s, "callers", {"name": obj[b_src], "graph": "r0", "include_overlay": True})
    got = {c["function"]["name"]: [x.get("agent") for x in c.get("sites", [])] for c in d.get("callers", [])}
    check("stages callers of stages_b.c step with the overlay: b_run directly, main through the agent edge",
          got == {"b_run": [False], "main": [True]}, got)
    d = ok(s, "callers", {"name": obj[a_src], "graph": "r0", "include_overlay": True})
    check("stages callers of stages_a.c step with the overlay: still a_run only",
          names(c["function"] for c in d.get("callers", [])) == ["a_run"], d.get("callers"))
    d = ok(s, "record_edges", {"records": [{"op": "retract", "edge": edges[0]["key"] if edges else {},
                                            "reason": "test: the key from list_overlay, object `to` and all"}]})
    check("stages retract by the listed key: no live edge left", d.get("edges") == 0, d)
    d = ok(s, "callers", {"name": obj[b_src], "graph": "r0", "include_overlay": True})
    check("stages after the retract: b_run only", names(c["function"] for c in d.get("callers", [])) == ["b_run"],
          d.get("callers"))

    # Malformed objects: tool errors naming the place, never protocol errors.
    bad = [
        ("callers", {"name": {"symbol": "step"}}, "name: missing required 'module_id'"),
        ("closure", {"name": {"module_id": a_src}}, "name: missing required 'symbol'"),
        ("reach", {"from": "main", "to": {"module_id": 3, "symbol": "step"}},
         "to.module_id: must be of type string, not an integer"),
        ("reach", {"from": {"module_id": a_src, "symbol": ""}, "to": "main"}, "from.symbol: must not be empty"),
        ("slice", {"from": {"module_id": a_src, "symbol": "step", "line": 22}, "to": "a_leaf"},
         "from: unknown argument 'line' (accepted: module_id, symbol)"),
        ("uses", {"name": ["step"]}, "name: must be of type string or object, not an array"),
        ("callees", {"name": ""}, "name: must not be empty"),
        ("record_edges", {"records": [{**add, "to": {"symbol": "step"}}]},
         "records[0].to: missing required 'module_id'"),
        ("record_edges", {"records": [{"op": "retract", "edge": {"site": 1, "to": {"module_id": a_src, "symbol": 7}},
                                       "reason": "x"}]},
         "records[0].edge.to.symbol: must be of type string, not an integer"),
    ]
    for tool, args, why in bad:
        refused(s, tool, args, f"{tool}: invalid arguments: {why}")
    rc = s.close()
    check("stages session: exit 0", rc == 0, s.stderr)
    check("stages session: stdout clean", not s.stray, s.stray)


if __name__ == "__main__":
    sys.exit(main())
