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
no trace observed, split by whether facet source gives the site targets.

--sites adds, for every missed indirect edge, what each graph has at the
call's line (the reference catalog's dispatch, fields and decisions; the
source catalog's dispatch and fields):
  source side  no indirect site on the line (and whether the file has any
               call in the source graph: a file configuration emptied);
               a site read from no location (its reason); a site keyed by
               the field R± dispatches on (same member name); keyed by
               another field; keyed by a variable, parameter, local,
               return or memory location (non-field)
  why R± has it  its decision's rule: Add-Store/Add-Witness naming a store
               or initializer (and whether the source graph records that
               function at that line: the store is seen but the site is
               keyed apart), a copy from another location, or none (R0
               kept: the bitcode site is unrecovered or its field abstains,
               so R± is the points-to set)
  fits the call  whether the target's IR type is the call's (a target
               whose type differs is there by points-to only: no C call
               through that pointer type reaches it)
  stored in the tree  whether the source graph records the function
               stored anywhere (never: configuration or no store the tree
               holds)"""
import argparse
import importlib.util
import os
import re
import sqlite3
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


def direct_cause(e, by_line, files, hinted, file_targets=None):
    f, l, n = e
    if l == 0:
        return "reference edge at line 0" + (
            "; the source graph has a call of it in the file" if file_targets and (f, n) in file_targets else "")
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


def reference_sites(catalog, rel):
    """(file, line, target name) -> [(dispatch status, (record, member) or
    None, rule, evidence, fits the call)] of the reference's indirect sites."""
    db = sqlite3.connect(catalog)
    fns = {i: (n, t) for i, n, t in db.execute("SELECT id, source_name, ir_type FROM functions")}
    fields = {i: (r, n) for i, r, n in db.execute("SELECT id, record, name FROM fields")}
    disp = {s: (st, f) for s, st, f in db.execute("SELECT site, status, field FROM dispatch")}
    written = {f for (f,) in db.execute("SELECT DISTINCT field FROM field_assignments")}
    dec = {(s, f): (r, ev) for s, f, r, ev in
           db.execute("SELECT site, function, rule, evidence FROM decisions WHERE fact = 'add'")}
    targets = defaultdict(list)
    for site, t in db.execute("SELECT site, target FROM edges_rpm"):
        targets[site].append(t)
    out = defaultdict(list)
    for sid, file, line, cdir, ctype in db.execute(
            "SELECT s.id, s.file, s.line, f.dir, s.call_type FROM sites s JOIN functions f ON f.id = s.caller "
            "WHERE s.kind = 'indirect'"):
        f = rel(sc.within(cdir, file))
        if f is None:
            continue
        st, fid = disp.get(sid, (None, None))
        for t in targets.get(sid, ()):
            rule, ev = dec.get((sid, t), (None, None))
            name, ftype = fns[t]
            fits = ftype == ctype
            if st == "field" and fid not in written:
                st = "field no code writes"
            out[(f, line, name)].append((st, fields.get(fid), rule, ev, fits))
    db.close()
    return out


def source_sites(catalog):
    """(file, line) -> [(field kind, record, member, key, reason, targets)] of the
    source graph's indirect sites, and {(file base name, line, function)} of
    its recorded stores."""
    db = sqlite3.connect(catalog)
    fields = {i: (k, r, n, key) for i, k, r, n, key in db.execute("SELECT id, kind, record, name, key FROM fields")}
    disp = {s: (f, rs, n) for s, f, rs, n in db.execute("SELECT site, field, reason, n_sym FROM dispatch")}
    lines = defaultdict(list)
    for sid, file, line in db.execute("SELECT id, file, line FROM sites WHERE kind = 'indirect'"):
        fid, reason, n_sym = disp.get(sid, (None, None, 0))
        lines[(sc.normalise(file) if file else None, line)].append(fields.get(fid, (None,) * 4) + (reason, n_sym))
    stores = {(os.path.basename(f or ""), l, n) for f, l, n in db.execute(
        "SELECT a.file, a.line, fu.source_name FROM field_assignments a JOIN functions fu ON fu.id = a.function")}
    db.close()
    return lines, stores


EVIDENCE_AT = re.compile(r"^(?:store|copy) at (\S+):(\d+)|^initializer \S+ \((\S+):(\d+)\)")


def site_cause(e, ref_sites, src_lines, src_stores, files):
    """What the source graph has where a missed indirect edge is, and why R± has it (the head)."""
    f, l, n = e
    if l == 0:
        return ("reference edge at line 0", "", "")
    st, field, rule, ev, fits = (ref_sites.get(e) or [(None, None, None, None, True)])[0]
    why = "R0 kept (bitcode site " + (st or "?") + ")" if not rule else rule
    if ev and ev.startswith("copy at"):
        why = "copied from another location (" + rule + ")"
    elif rule:
        m = EVIDENCE_AT.match(ev or "")
        if m:
            ef, el = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            seen = (os.path.basename(ef), int(el), n) in src_stores
            why += ", by name at a line the source graph records it" if seen else ", a store the source graph has not"
    why += "" if fits else "; its type is not the call's"
    sites = src_lines.get((f, l))
    if not sites:
        where = "no indirect site on the line" + ("" if f in files else " (the file has no call)")
    elif not any(s[0] for s in sites):
        where = "a site read from no location: " + (sites[0][4] or "?")
    elif field and any(s[0] == "struct" and s[2] == field[1] for s in sites):
        where = "a site keyed by R±'s field" + ("" if any(s[5] for s in sites) else ", unresolved in the source graph")
    elif any(s[0] == "struct" for s in sites):
        where = "a site keyed by another field" + (" (R± dispatches on a field)" if st == "field" else "")
    else:
        kinds = sorted({(s[3] or "?").split(":")[0] for s in sites if s[0]})
        where = "a non-field site (" + ", ".join(kinds) + ")" + (" where R± dispatches on a field" if st == "field" else "")
    return (where, why, "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--hints-work")
    ap.add_argument("--traces")
    ap.add_argument("--sites", action="store_true",
                    help="classify the missed indirect edges by what each graph has at the line (see the head)")
    ap.add_argument("subjects", nargs="+")
    args = ap.parse_args()
    totals = {"direct": Counter(), "indirect": Counter()}
    by_site, stored_anywhere = Counter(), Counter()
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
        file_targets = {(f, n) for f, _, n in found}
        for kind in ("direct", "indirect"):
            c = Counter(direct_cause(e, by_line, files, hinted, file_targets) if kind == "direct" else
                        indirect_cause(e, lines, observed, hinted) for e in ref[kind] - found)
            totals[kind].update(c)
            print(f"{subj} {kind}: {sum(c.values())} missed: " + "; ".join(f"{k} {v}" for k, v in c.most_common()))
        if args.sites:
            ref_sites = reference_sites(ref_cat, rel)
            src_lines, src_stores = source_sites(os.path.join(args.work, subj + ".src.facet"))
            stored = {n for _, _, n in src_stores}
            for e in ref["indirect"] - found:
                where, why, _ = site_cause(e, ref_sites, src_lines, src_stores, files)
                by_site[(where, why)] += 1
                stored_anywhere[e[2] in stored] += 1
    for kind in ("direct", "indirect"):
        print(f"\nall {kind}: {sum(totals[kind].values())} missed")
        for k, v in totals[kind].most_common():
            print(f"  {v:7d}  {k}")
    if args.sites:
        print(f"\nindirect misses by site: {sum(by_site.values())} "
              f"(target stored somewhere in the source graph: {stored_anywhere[True]}, never: {stored_anywhere[False]})")
        wheres = Counter()
        for (where, _), v in by_site.items():
            wheres[where] += v
        for where, v in wheres.most_common():
            print(f"  {v:7d}  {where}")
            for (w2, why), v2 in by_site.most_common():
                if w2 == where:
                    print(f"  {'':7s}  {v2:7d}  R± has it by: {why}")


if __name__ == "__main__":
    main()
