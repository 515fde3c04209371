#!/usr/bin/env python3
"""cxx-report.py — the "C++ virtual calls" section of bench/RESULTS.md (issue 19).

Usage: cxx-report.py WORKDIR [--results RESULTS.md] [--note TEXT] -- SUBJECT...

Reads WORKDIR/<subject>/score.json (facet score --per-site over cha, rta,
vta, vslot, r0, rpm) and WORKDIR/<subject>/cha.json (facet callgraph --graph
cha --format json: which sites are virtual calls), and prints, per subject
and graph, macro P/R/F1 and mean targets per traced site over all traced
indirect sites and over the traced virtual sites alone. With --results, the
section between its markers in RESULTS.md is replaced (or appended).
Exit 1 when vslot's recall is below cha's on a subject (all sites or virtual).
"""
import json
import os
import sys

BEGIN, END = "<!-- cxx-begin -->", "<!-- cxx-end -->"
GRAPHS = ["cha", "rta", "vta", "vslot", "r0", "rpm"]


def macro(rows):
    if not rows:
        return None
    n = len(rows)
    return (sum(r["precision"] for r in rows) / n, sum(r["recall"] for r in rows) / n,
            sum(r["f1"] for r in rows) / n, sum(r["predicted"] for r in rows) / n, n)


def subject_rows(work, s):
    d = os.path.join(work, s)
    score = json.load(open(os.path.join(d, "score.json")))
    cha = json.load(open(os.path.join(d, "cha.json")))
    virtual = {x["id"] for x in cha["sites"] if "virtual" in x}
    status = open(os.path.join(d, "status")).read().strip() if os.path.exists(os.path.join(d, "status")) else "?"
    out = {}
    for g in score["graphs"]:
        ps = g.get("per_site", [])
        out[g["graph"]] = (macro(ps), macro([r for r in ps if r["site"] in virtual]))
    return out, len(virtual), status, score


def fmt(m):
    return "—" if m is None else "%.3f | %.3f | %.3f | %.1f" % m[:4]


def main():
    args = sys.argv[1:]
    if "--" not in args or not args:
        print(__doc__)
        return 2
    k = args.index("--")
    opts, subjects = args[:k], args[k + 1:]
    work, results = opts[0], None
    if "--results" in opts:
        results = opts[opts.index("--results") + 1]
    note = opts[opts.index("--note") + 1] if "--note" in opts else None
    lines = [BEGIN, "## C++ virtual calls (issue 19)", "",
             "Whole-program bitcode of C++ Debian packages (bench/corpus.sh; clang++-22 -flto -g, the preopt "
             "module), traced with `facet trace` under bench/workloads/<subject>.sh and scored with `facet score "
             "--per-site` (bench/trace-bench.sh --cxx). Per graph: macro precision, recall, F1 and mean "
             "targets over the traced indirect sites (all: virtual calls, function pointers and calls through "
             "aliases), then over the traced virtual sites alone. cha, rta: the class hierarchy only; vta: "
             "the classes of the receiver's Andersen objects (R0 at other sites); vslot: cha refuted by those "
             "objects (R± at other sites). Command: `bench/trace-bench.sh --work DIR --cxx` (or the subjects).", ""]
    rc = 0
    for s in subjects:
        try:
            rows, nv, status, score = subject_rows(work, s)
        except (OSError, ValueError, KeyError) as e:
            lines += ["**%s**: not scored (%s)" % (s, e), ""]
            rc = 1
            continue
        traced_v = rows.get("cha", (None, None))[1]
        lines += ["**%s** (%s; %d virtual call sites in the module, %d traced; %d traced indirect sites in all)" %
                  (s, status, nv, traced_v[4] if traced_v else 0, rows["cha"][0][4] if rows.get("cha") and rows["cha"][0] else 0),
                  "", "| graph | P (all) | R | F1 | targets | P (virtual) | R | F1 | targets |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for g in GRAPHS:
            if g in rows:
                lines.append("| %s | %s | %s |" % (g, fmt(rows[g][0]), fmt(rows[g][1])))
        for which in (0, 1):
            c, v = rows.get("cha", (None, None))[which], rows.get("vslot", (None, None))[which]
            if c and v and v[1] + 1e-9 < c[1]:
                lines.append("")
                lines.append("vslot's recall is below cha's (%s sites)" % ("all", "virtual")[which])
                rc = 1
        lines.append("")
    if note:
        lines += [note, ""]
    lines.append(END)
    text = "\n".join(lines) + "\n"
    print(text)
    if results:
        old = open(results).read() if os.path.exists(results) else ""
        if BEGIN in old and END in old:
            new = old[:old.index(BEGIN)] + text + old[old.index(END) + len(END) + 1:]
        else:
            new = old.rstrip("\n") + "\n\n" + text
        tmp = results + ".tmp"
        open(tmp, "w").write(new)
        os.replace(tmp, results)
    return rc


if __name__ == "__main__":
    sys.exit(main())
