#!/usr/bin/env python3
"""compare.py — facet's recovered dispatched fields against typed IR.

Usage: compare.py LABEL TYPED.json FACET_EXPLAIN.json [--list]

TYPED.json is fields14.py's output for the program built with clang-14
(typed pointers); FACET_EXPLAIN.json is `facet explain --all --format json`
on the same program built with clang-22 (opaque pointers). Sites are matched
by file (base name), line and inlining chain, and then by column order
within the line: clang-14 and clang-22 put a call's column at different
places (the start of `s->ops->close(...)` against its callee member), so
columns are compared by rank, and a line whose two builds hold different
numbers of indirect calls is left unmatched. Prints one Markdown
table row: typed-IR sites, matched sites, jointly resolved (facet reports a
struct field too), agreeing on the field, agreeing on struct and field."""
import json
import os
import sys


def key(file, line, chain):
    return (os.path.basename(file or ""), line,
            tuple((os.path.basename(c.get("file") or ""), c["line"]) for c in chain))


def main():
    if len(sys.argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    label, typed_path, facet_path = sys.argv[1:4]
    typed = json.load(open(typed_path))
    facet = json.load(open(facet_path))["sites"]
    typed_by, facet_by = {}, {}
    for t in typed:
        typed_by.setdefault(key(t["file"], t["line"], t["inlined_at"]), {})[t["column"]] = t
    for f in facet:
        facet_by.setdefault(key(f["file"], f["line"], f["inlined_at"]), {})[f["column"]] = f
    n_typed = sum(len(v) for v in typed_by.values())
    matched = joint = agree = agree_both = 0
    disagreements = []
    for k, ts in typed_by.items():
        fs = facet_by.get(k, {})
        if len(fs) != len(ts):
            continue
        for (tc, t), (fc, f) in zip(sorted(ts.items()), sorted(fs.items())):
            matched += 1
            if f["status"] != "field" or not f["field"]:
                continue
            joint += 1
            name = f["field"]["name"].split(".")[-1]
            if name == t["field"]:
                agree += 1
                if f["field"]["record"] == t["record"]:
                    agree_both += 1
            else:
                disagreements.append(f"{k[0]}:{k[1]}:{fc} typed {t['record']}.{t['field']} facet "
                                     f"{f['field']['record']}.{f['field']['name']}")
    pct = lambda a, b: f"{100.0 * a / b:.1f}" if b else "-"
    print(f"| {label} | {n_typed} | {matched} | {joint} | {agree} ({pct(agree, joint)}%) | "
          f"{agree_both} ({pct(agree_both, joint)}%) |")
    if "--list" in sys.argv:
        for d in disagreements:
            print("    " + d, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
