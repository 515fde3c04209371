#!/usr/bin/env python3
"""check_trace.py — checks for run_trace.sh (see there). Modes:

  observe LABEL CG.json TRACE OBSERVED
      The trace (facet's runtime) against observe.h's record of the same run.
      Every traced edge SITE -> F must be an indirect site of CG.json whose
      line observe.h saw reach F; every observed FILE:LINE -> F must be a
      traced edge at an indirect site of that line, unless -O2 turned the
      call direct (a direct site on the line calls F, or F was inlined there:
      a site's inlined_at chain has FILE:LINE with F as the inner frame).
  markers LABEL CG.json TRACE SOURCE RUNS
      Exact counts: the @trace: F=N markers on SOURCE's lines (N per run,
      "?" = a callee outside the module) against the summed trace, RUNS runs;
      @trace-records: N records per run.
  score FACET FIXTURES THREADS_DIR SHLIB_DIR WORK
      facet score on hand-computed fixtures, on a real trace, and on
      malformed files.
Prints one line per failure; exit 1 if any.
"""
import json
import os
import re
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def read_trace(path):
    """{(site, name): count}, records; name None for '?'."""
    edges, records = {}, 0
    if not os.path.exists(path):
        return edges, records
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "facet-trace":
            records += 1
            continue
        site, name, count = int(f[0]), f[1], int(f[2])
        key = (site, None if name == "?" else name)
        edges[key] = edges.get(key, 0) + count
    return edges, records


def sites_by_id(cg):
    return {s["id"]: s for s in cg["sites"]}


_defs = {}


def scope_of(cg, site):
    """The function whose body holds the site's line, read from the source
    (the programs define functions with the name at column 0 and "{" alone on
    the next line; tests/pta_programs/README.md): the -O2 module may no longer
    have the function at all once it was inlined everywhere."""
    path = site.get("file") or ""
    if path not in _defs:
        defs = []
        try:
            lines = open(path).read().splitlines()
        except OSError:
            lines = []
        for i, text in enumerate(lines[:-1], 1):
            m = re.match(r"[A-Za-z_][^;=]*?\b(\w+)\s*\(", text)
            if m and lines[i].strip() == "{":
                defs.append((i, m.group(1)))
        _defs[path] = defs
    best = None
    for line, name in _defs[path]:
        if line <= site["line"]:
            best = name
    return best


def observe_mode(label, cg_path, trace_path, observed_path):
    cg = json.load(open(cg_path))
    sites = sites_by_id(cg)
    traced, records = read_trace(trace_path)
    if records == 0:
        fail(f"{label}: no trace record written")
        return
    observed = set()
    if os.path.exists(observed_path):
        for line in open(observed_path):
            m = re.match(r"(.*):(\d+) -> (\S+)$", line.strip())
            if m:
                observed.add((os.path.basename(m.group(1)), int(m.group(2)), m.group(3)))
    traced_at = set()
    for (sid, name), count in traced.items():
        s = sites.get(sid)
        if s is None or s["kind"] != "indirect":
            fail(f"{label}: traced site {sid} is not an indirect site of facet callgraph")
            continue
        if name is None:
            fail(f"{label}: site {sid} ({s['file']}:{s['line']}) reached a callee outside the module")
            continue
        key = (os.path.basename(s["file"] or ""), s["line"], name)
        traced_at.add(key)
        if key not in observed:
            fail(f"{label}: traced {key[0]}:{key[1]} -> {name} (site {sid}, {count} calls) but observe.h did not see it")
    for key in sorted(observed):
        if key in traced_at:
            continue
        f, line, fn = key
        indirect_here = [s for s in cg["sites"] if s["kind"] == "indirect"
                         and os.path.basename(s["file"] or "") == f and s["line"] == line]
        direct = any(s["kind"] == "direct" and os.path.basename(s["file"] or "") == f and s["line"] == line
                     and fn in s["targets"] for s in cg["sites"])
        inlined = False
        for s in cg["sites"]:
            chain = s.get("inlined_at", [])
            for k in range(len(chain)):
                inner = chain[k - 1]["function"] if k > 0 else scope_of(cg, s)
                if (os.path.basename(chain[k]["file"] or "") == f and chain[k]["line"] == line
                        and inner == fn):
                    inlined = True
        if direct or inlined:
            continue
        fail(f"{label}: observe.h saw {f}:{line} -> {fn} but the trace did not "
             f"({len(indirect_here)} indirect sites on that line)")


def markers_mode(label, cg_path, trace_path, source, runs):
    cg = json.load(open(cg_path))
    sites = sites_by_id(cg)
    traced, records = read_trace(trace_path)
    src = open(source).read().splitlines()
    base = os.path.basename(source)
    want_records = None
    expected = {}
    for i, text in enumerate(src, 1):
        m = re.search(r"@trace-records: (\d+)", text)
        if m:
            want_records = int(m.group(1))
        m = re.search(r"@trace: ([^*]*)\*/", text)
        if m:
            for item in m.group(1).split():
                fn, n = item.split("=")
                expected[(i, fn)] = int(n) * runs
    if want_records is not None and records != want_records * runs:
        fail(f"{label}: {records} records, expected {want_records} per run x {runs} runs")
    got = {}
    for (sid, name), count in traced.items():
        s = sites.get(sid)
        if s is None or s["kind"] != "indirect":
            fail(f"{label}: traced site {sid} is not an indirect site of facet callgraph")
            continue
        if os.path.basename(s["file"] or "") != base:
            fail(f"{label}: traced site {sid} is in {s['file']}, not {base}")
            continue
        key = (s["line"], name or "?")
        got[key] = got.get(key, 0) + count
    for key in sorted(set(expected) | set(got)):
        if expected.get(key) != got.get(key):
            fail(f"{label}: {base}:{key[0]} -> {key[1]}: expected {expected.get(key, 0)} calls, traced {got.get(key, 0)}")


def run_score(facet, args):
    p = subprocess.run([facet, "score"] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def close(a, b):
    return abs(a - b) < 5e-6


def check_metrics(label, got, want):
    for k, v in want.items():
        g = got.get(k)
        if isinstance(v, float):
            ok = g is not None and close(g, v)
        else:
            ok = g == v
        if not ok:
            fail(f"{label}: {k} = {g}, expected {v}")


def score_mode(facet, fixtures, threads_dir, shlib_dir, work):
    fx = lambda n: os.path.join(fixtures, n)
    # (a) Hand-made trace (split over two files, counts summed) and graphs.
    # obs1+obs2: site 1 -> a, b; 2 -> c; 3 -> a; 4 -> d and an unknown callee;
    # 5 -> unknown only (not scored). g1: 1:{a,b,c} 2:{} 3:{a} 4:{b}.
    #   site 1: P 2/3 R 1 F1 0.8; site 2: 0 0 0 (empty); site 3: 1 1 1; site 4: 0 0 0.
    rc, out, err = run_score(facet, ["--trace", fx("obs1.txt"), "--trace", fx("obs2.txt"),
                                     "--graph-file", fx("g1.json"), "--graph-file", fx("g2.json"),
                                     "--format", "json", "--per-site"])
    if rc != 0:
        fail(f"score fixtures: exit {rc}: {err.strip()}")
    else:
        d = json.loads(out)
        check_metrics("score fixtures observed", d["observed"], {
            "sites": 4, "edges": 5, "calls": 2 + 5 + 1 + 7 + 1, "records": 3,
            "unknown_callee_calls": 4 + 2, "unknown_callee_sites": 2,
            "indirect_sites": 6, "coverage": 4 / 6})
        g1, g2 = d["graphs"]
        check_metrics("score fixtures g1", g1, {
            "graph": "g1", "sites": 4,
            "precision": (2 / 3 + 0 + 1 + 0) / 4, "recall": (1 + 0 + 1 + 0) / 4, "f1": (0.8 + 0 + 1 + 0) / 4,
            "mean_targets": (3 + 0 + 1 + 1) / 4, "empty": 1, "exactly_one": 2, "exactly_one_share": 0.5,
            "recovered": 3, "spurious": 2, "missed": 2, "sizes": [1, 2, 0, 1]})
        ps = {s["site"]: s for s in g1["per_site"]}
        check_metrics("score fixtures g1 site 1", ps.get(1, {}),
                      {"predicted": 3, "observed": 2, "recovered": 2, "precision": 2 / 3, "recall": 1.0, "f1": 0.8})
        check_metrics("score fixtures g1 site 2", ps.get(2, {}), {"predicted": 0, "precision": 0.0, "f1": 0.0})
        # g2 is exact (site 1 lists "b", "a", "a": duplicates count once).
        check_metrics("score fixtures g2", g2, {
            "graph": "g2", "precision": 1.0, "recall": 1.0, "f1": 1.0, "mean_targets": 1.25, "empty": 0,
            "exactly_one": 3, "recovered": 5, "spurious": 0, "missed": 0})
    rc, out, err = run_score(facet, ["--trace", fx("obs1.txt"), "--trace", fx("obs2.txt"),
                                     "--graph-file", fx("g1.json")])
    if rc != 0 or not re.search(r"^g1\s+0\.417\s+0\.500\s+0\.450\s+1\.2", out, re.M):
        fail(f"score fixtures text: exit {rc}, output:\n{out}{err}")

    # (b) A real trace: threads_fork at -O0 (two runs). R0 there is exact by
    # reading the program: each volatile pointer or table holds only the
    # functions stored in it, all of type i32(i32) -> P = R = F1 = 1 over its
    # 4 observed sites; the direct graph resolves none of them.
    bc = os.path.join(threads_dir, "threads_fork.bc")
    trace = os.path.join(threads_dir, "trace")
    rc, out, err = run_score(facet, ["--trace", trace, "--graph", "r0", "--graph", "direct", "--format", "json", bc])
    if rc != 0:
        fail(f"score threads_fork: exit {rc}: {err.strip()}")
    else:
        d = json.loads(out)
        check_metrics("score threads_fork observed", d["observed"],
                      {"sites": 4, "edges": 5, "calls": 2 * 4003, "records": 8, "indirect_sites": 4, "coverage": 1.0})
        r0, direct = d["graphs"]
        check_metrics("score threads_fork r0", r0, {"precision": 1.0, "recall": 1.0, "f1": 1.0, "empty": 0,
                                                    "exactly_one": 3, "mean_targets": 1.25, "spurious": 0})
        check_metrics("score threads_fork direct", direct, {"precision": 0.0, "recall": 0.0, "f1": 0.0,
                                                            "empty": 4, "recovered": 0, "missed": 5})
    # (c) A trace of another program is refused; so is a JSON graph of it.
    rc, out, err = run_score(facet, ["--trace", trace, os.path.join(shlib_dir, "shlib.bc")])
    if rc != 1 or "another program" not in err:
        fail(f"score with the wrong program: exit {rc}, stderr: {err.strip()}")
    cgfile = os.path.join(shlib_dir, "cg.json")
    rc, out, err = run_score(facet, ["--trace", trace, "--graph-file", cgfile])
    if rc != 1 or "another program" not in err:
        fail(f"score with another program's JSON graph: exit {rc}, stderr: {err.strip()}")
    # (d) Malformed files: exit 1, the message names file and line.
    bad = {
        "bad_no_header.txt": 2, "bad_count.txt": 3, "bad_site.txt": 2, "bad_header.txt": 1,
        "bad_version.txt": 1, "bad_fields.txt": 3, "bad_name.txt": 2, "bad_mixed.txt": 3,
    }
    for name, line in bad.items():
        path = fx(name)
        rc, out, err = run_score(facet, ["--trace", path, "--graph-file", fx("g1.json")])
        if rc != 1 or f"{path}:{line}:" not in err or out:
            fail(f"malformed {name}: exit {rc}, expected 1 and '{path}:{line}:' in: {err.strip()}")
    binary = os.path.join(work, "binary.trace")
    with open(binary, "wb") as f:
        f.write(b"facet-trace 1 key=0000000000000001 sites=3 functions=1 pid=1 dropped=0\n1 a\x00b 1\n")
    rc, out, err = run_score(facet, ["--trace", binary, "--graph-file", fx("g1.json")])
    if rc != 1 or f"{binary}:2:" not in err:
        fail(f"binary trace: exit {rc}: {err.strip()}")
    missing = os.path.join(work, "no-such.trace")
    rc, out, err = run_score(facet, ["--trace", missing, "--graph-file", fx("g1.json")])
    if rc != 1 or missing not in err:
        fail(f"missing trace: exit {rc}: {err.strip()}")
    rc, out, err = run_score(facet, ["--graph-file", fx("g1.json")])
    if rc != 2:
        fail(f"score without --trace: exit {rc}, expected 2")


def main():
    mode = sys.argv[1]
    if mode == "observe":
        observe_mode(*sys.argv[2:6])
    elif mode == "markers":
        markers_mode(*sys.argv[2:6], int(sys.argv[6]))
    elif mode == "score":
        score_mode(*sys.argv[2:7])
    else:
        print("check_trace.py: unknown mode " + mode, file=sys.stderr)
        sys.exit(2)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
