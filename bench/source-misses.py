#!/usr/bin/env python3
"""source-misses.py — the reference edges facet source misses, counted by
cause, from the catalogs bench/source-compare.py left (no run of its own).

  bench/source-misses.py --work DIR [--hints-work DIR] [--traces DIR] SUBJECT...

WORK holds SUBJECT.bc.facet (the R± reference), SUBJECT.src.facet (the
no-hint source graph) and the unpacked trees; HINTS-WORK the --hints run's
SUBJECT.hints.src.facet; TRACES SUBJECT/observed.trace. Matching is
source-compare.py's. A missed direct edge is, in this order: at line 0 in
the reference; a library call the compiler rewrote (REWRITES) whose source
form the line has; found by the --hints run (configuration); in a file with
no call in the source graph; on a line with no call; renamed (the line has
a call to a name the reference's name ends with: a generated prefix header);
else another target on the line. A missed indirect edge is: at line 0; one a
trace observed (a real miss); found by the --hints run; else an R± target
no trace observed, split by whether facet source gives the site targets."""
import argparse
import importlib.util
import os
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
spec = importlib.util.spec_from_file_location("source_compare", os.path.join(HERE, "source-compare.py"))
sc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sc)


def catalog_edges(path):
    if not os.path.exists(path):
        return set(), {}
    return sc.tool_edges(path, "source", lambda f: sc.normalise(f) if f else None)


def direct_cause(e, by_line, files, hinted):
    f, l, n = e
    if l == 0:
        return "reference edge at line 0"
    if sc.REWRITES.get(n, set()) & by_line.get((f, l), set()):
        return "the compiler rewrote the library call"
    if e in hinted:
        return "configuration: found with the build files' -D"
    if f not in files:
        return "the file has no call in the source graph"
    if (f, l) not in by_line:
        return "no call on the line"
    if any(n.endswith(m) and n != m for m in by_line[(f, l)]):
        return "renamed by a generated header (a prefix)"
    return "another target on the line"


def indirect_cause(e, lines, observed, hinted):
    f, l, _ = e
    if l == 0:
        return "reference edge at line 0"
    if e in observed:
        return "traced: a real miss"
    if e in hinted:
        return "configuration: found with the build files' -D"
    if lines.get((f, l)):
        return "an R± target no trace observed; facet source gives the site other targets"
    return "an R± target no trace observed; facet source has no target on the line"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--hints-work")
    ap.add_argument("--traces")
    ap.add_argument("subjects", nargs="+")
    args = ap.parse_args()
    totals = {"direct": Counter(), "indirect": Counter()}
    for subj in args.subjects:
        tree = os.path.join(args.work, sc.SUBJECTS[subj])
        rel = sc.Relativiser(sc.tree_files(tree))
        ref_cat = os.path.join(args.work, subj + ".bc.facet")
        ref = sc.edges(ref_cat, "rpm", rel)
        found, lines = catalog_edges(os.path.join(args.work, subj + ".src.facet"))
        hinted = catalog_edges(os.path.join(args.hints_work, subj + ".hints.src.facet"))[0] if args.hints_work else set()
        trace = os.path.join(args.traces, subj, "observed.trace") if args.traces else None
        observed = sc.traced(trace, ref_cat, rel) or set()
        by_line = defaultdict(set)
        for f, l, n in found:
            by_line[(f, l)].add(n)
        files = {f for f, _, _ in found}
        for kind in ("direct", "indirect"):
            c = Counter(direct_cause(e, by_line, files, hinted) if kind == "direct" else
                        indirect_cause(e, lines, observed, hinted) for e in ref[kind] - found)
            totals[kind].update(c)
            print(f"{subj} {kind}: {sum(c.values())} missed: " + "; ".join(f"{k} {v}" for k, v in c.most_common()))
    for kind in ("direct", "indirect"):
        print(f"\nall {kind}: {sum(totals[kind].values())} missed")
        for k, v in totals[kind].most_common():
            print(f"  {v:7d}  {k}")


if __name__ == "__main__":
    main()
