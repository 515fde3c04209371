#!/usr/bin/env python3
"""source-compare.py — facet source on unbuilt corpus trees against the
bitcode R± graph of the same program, beside the naive name-match baseline.

  bench/source-compare.py [--facet build/facet] [--work DIR] [--corpus bench/work]
                          [--traces DIR] [--speed SUBJECT...] [SUBJECT...]

For each subject the Debian orig tarball (CORPUS/src/PKG/*.orig.tar.*) is
unpacked fresh into WORK/PKG — only the source tree: no configure, no
build, no compile_commands.json — and `facet source .` runs there. The
reference is the R± graph (`rpm`) of CORPUS/bc/SUBJECT.bc, built with
`facet build` once into WORK/SUBJECT.bc.facet.

Matching is by call site (file, line) and target name: a reference edge is
(file, line, target's source name) of a site in the bitcode (its innermost
source position, so an inlined call is matched where it is written), and a
tool finds it when it has an edge to a function of that name from a call on
that line. Files are compared relative to the tree (the bitcode's names are
matched to the tree's files by their trailing components); reference edges
in files the tree does not hold (generated at build time) are counted
apart. LLVM intrinsics (llvm.*) are left out of the reference.

Figures per subject and graph-wise totals:
  direct recall    found reference direct edges / reference direct edges
  indirect recall  found reference indirect edges / reference indirect edges
  targets/site     mean targets the tool gives an indirect call at a line
                   where the reference has an indirect site

The baseline is what tree-sitter-style call graphs do (bench/namematch.py):
the rightmost identifier before '(' is the callee, linked to every function
of that name defined anywhere in the tree (a name no file defines is an
external edge of that name); macros are not expanded.

--traces DIR adds recall against what running the program showed: the
indirect edges of DIR/SUBJECT/observed.trace (bench/trace-bench.sh's trace
of the same bitcode), found by facet source, by R± itself and by the name
match; a ground truth where R±'s own over-approximation is not counted.

--hints runs facet source with the -D switches bench/source-hints.py reads
from the tree's build files (catalog WORK/SUBJECT.hints.src.facet): what a
user without a working build could be given; the no-hint run is the
headline. --reuse reads an existing catalog instead of running facet
source again (its seconds column is then 0).

A second pooled row changes two matching rules, both about the measure,
not the tool: a reference edge at line 0 (a call the compiler gave no
source line, so no tool can place it by line) is found when the tool has
an edge from the same caller (source name) to the same target in the same
file; and a bitcode call the compiler rewrote (LLVM's library-call
simplification: fprintf of a constant string is fwrite, memcmp(...) == 0
is bcmp; glibc's inline toupper, defined only under -O, calls
__ctype_toupper_loc; REWRITES) is found by its source form at the same line. The
first row is the metric as the issue defines it; both are printed.

--speed SUBJECT also times `clang-22 -fsyntax-only` over the same files with
the same include directories and lenient flags (one process per file, as
facet parses them), both under /usr/bin/time -v (wall time, peak RSS, and
the CPU seconds user + system when facet source runs for the speed line
itself: a subject not also in the recall run).
Prints a markdown table; --json FILE writes the figures."""
import argparse
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import namematch  # noqa: E402
source_hints = __import__("source-hints")

SUBJECTS = {  # subject (bc name) -> source package
    "lua": "lua5.4", "md4c": "md4c", "gdbm": "gdbm", "oniguruma": "libonig", "nginx": "nginx",
    "sqlite": "sqlite3", "libxml2": "libxml2", "libjpeg-turbo": "libjpeg-turbo", "redis": "redis",
    "tmux": "tmux", "libarchive": "libarchive", "sudo": "sudo", "dwarfutils": "dwarfutils", "dovecot": "dovecot",
    "curl": "curl",
}
DEFAULT = ["lua", "md4c", "gdbm", "oniguruma", "nginx", "sqlite", "libxml2", "libjpeg-turbo", "redis", "tmux"]


def sh(args, cwd=None):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True)


def timed(args, cwd=None, cpu=None):
    """Runs args under /usr/bin/time -v: (returncode, seconds, peak KiB, stderr);
    cpu, a list, receives the CPU seconds (user + system, children included)."""
    p = subprocess.run(["/usr/bin/time", "-v", *args], cwd=cwd, capture_output=True, text=True)
    secs = rss = 0.0
    for line in p.stderr.splitlines():
        line = line.strip()
        if cpu is not None and (line.startswith("User time (seconds)") or line.startswith("System time (seconds)")):
            cpu.append(float(line.split(": ", 1)[1]))
        if line.startswith("Elapsed (wall clock) time"):
            t = line.split(": ", 1)[1].split(":")
            secs = sum(float(x) * 60 ** i for i, x in enumerate(reversed(t)))
        elif line.startswith("Maximum resident set size"):
            rss = float(line.split(": ", 1)[1])
    return p.returncode, secs, rss, p.stderr


def unpack(corpus, work, pkg):
    tree = os.path.join(work, pkg)
    if os.path.isdir(tree) and os.listdir(tree):
        return tree
    tars = [t for t in glob.glob(os.path.join(corpus, "src", pkg, "*.orig.tar.*")) if "-www" not in t]
    if not tars:
        sys.exit(f"source-compare: no orig tarball under {corpus}/src/{pkg}")
    os.makedirs(tree, exist_ok=True)
    subprocess.run(["tar", "-xf", sorted(tars)[0], "-C", tree, "--strip-components=1"], check=True)
    return tree


def tree_files(tree):
    out = set()
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            if f.endswith((".c", ".h")):
                out.add(os.path.relpath(os.path.join(root, f), tree))
    return out


def normalise(path):
    parts = []
    for p in path.split("/"):
        if p in ("", "."):
            continue
        if p == ".." and parts and parts[-1] != "..":
            parts.pop()
        else:
            parts.append(p)
    return "/".join(parts)


class Relativiser:
    """Bitcode file names (relative to a build directory that may sit
    anywhere in the tree, or absolute) to the tree's relative paths: the
    tree file with the same base name sharing the most trailing components
    (all of the shorter one's); a tie goes to the candidate that is the
    whole name (bitcode xpath.c is the tree's xpath.c, not fuzz/xpath.c),
    else to the first in sorted order."""

    def __init__(self, files):
        self.by_base = {}
        for f in sorted(files):
            self.by_base.setdefault(os.path.basename(f), []).append(f)
        self.cache = {}

    def __call__(self, name):
        if name in self.cache:
            return self.cache[name]
        parts = [p for p in normalise(name or "").split("/") if p != ".."]
        best, best_score = None, (0, False)
        for cand in self.by_base.get(parts[-1] if parts else "", ()):
            cp = cand.split("/")
            k = 0
            while k < min(len(cp), len(parts)) and cp[-1 - k] == parts[-1 - k]:
                k += 1
            score = (k, k == len(cp))   # a tie goes to the candidate the whole name is: xpath.c, not fuzz/xpath.c
            if k == min(len(cp), len(parts)) and score > best_score:
                best, best_score = cand, score
        self.cache[name] = best
        return best


def within(cdir, file):
    """A site's file as its unit's compile directory places it (the caller's
    DW_AT_comp_dir): redis's `dict.c` compiled in src/ is src/dict.c, not
    deps/hiredis/dict.c. Files facet source names are relative already."""
    if not file or file.startswith("/") or not cdir:
        return file
    return os.path.join(cdir, file)


def edges(catalog, graph, rel, drop_rule=None):
    """{(file, line): {"kind": set, "targets": {name}}} and the raw reference
    edge lists (direct and indirect) of a catalog's graph; with drop_rule,
    without the edges whose decision has that rule (Type-Fallback: the
    graph facet source gives with --no-type-fallback)."""
    db = sqlite3.connect(catalog)
    dropped = set(db.execute("SELECT site, function FROM decisions WHERE rule = ?", (drop_rule,))) if drop_rule else set()
    names = {i: (n, bool(intr), bool(d)) for i, n, intr, d in
             db.execute("SELECT id, source_name, intrinsic, defined FROM functions")}
    sites = {}
    for sid, kind, file, line, cdir, caller in db.execute(
            "SELECT s.id, s.kind, s.file, s.line, f.dir, f.source_name FROM sites s JOIN functions f ON f.id = s.caller"):
        sites[sid] = (kind, within(cdir, file), line, caller)
    per_site = {}
    for site, target in db.execute(f"SELECT site, target FROM edges_{graph}"):
        if (site, target) not in dropped:
            per_site.setdefault(site, []).append(target)
    db.close()
    out = {"direct": set(), "indirect": set(), "indirect_sites": {}, "missing_file": {"direct": 0, "indirect": 0},
           "direct_defined": set(), "by_caller": set(), "no_line": {"direct": set(), "indirect": set()}}
    for sid, (kind, file, line, caller) in sites.items():
        if kind not in ("direct", "indirect"):
            continue
        f = rel(file)
        for t in per_site.get(sid, []):
            n, intrinsic, defined = names[t]
            if intrinsic or n.startswith("llvm."):
                continue
            if f is None:
                out["missing_file"][kind] += 1
                continue
            out[kind].add((f, line, n))
            out["by_caller"].add((f, caller, n))
            if line == 0:
                out["no_line"][kind].add((f, caller, n))
            if kind == "direct" and defined:
                out["direct_defined"].add((f, line, n))
            if kind == "indirect":
                out["indirect_sites"].setdefault((f, line), set()).add((n, t))   # two statics of one name: two
    return out


def tool_edges(catalog, graph, rel, drop_rule=None):
    """All of a tool's edges as (file, line, name), and its indirect targets by line."""
    e = edges(catalog, graph, rel, drop_rule)
    return e["direct"] | e["indirect"], e["indirect_sites"]


def traced(trace, catalog, rel):
    """The observed indirect edges of a bench/trace-bench.sh trace of the
    same bitcode (its site ids are the catalog's: the header's site count
    must agree) as (file, line, target source name); None when no trace."""
    if not trace or not os.path.exists(trace):
        return None
    db = sqlite3.connect(catalog)
    names = {n: (sn, bool(intr)) for n, sn, intr in db.execute("SELECT name, source_name, intrinsic FROM functions")}
    sites = {sid: (kind, within(cdir, file), line) for sid, kind, file, line, cdir in db.execute(
        "SELECT s.id, s.kind, s.file, s.line, f.dir FROM sites s JOIN functions f ON f.id = s.caller")}
    db.close()
    out = set()
    with open(trace) as f:
        head = f.readline().split()
        n_sites = next((int(h[6:]) for h in head if h.startswith("sites=")), -1)
        if n_sites != len(sites):
            sys.exit(f"source-compare: {trace} has {n_sites} sites, {catalog} {len(sites)}: not a trace of it")
        for line in f:
            parts = line.split()
            if len(parts) != 3 or not parts[0].isdigit():
                continue
            kind, file, ln = sites.get(int(parts[0]), (None, None, 0))
            name, intrinsic = names.get(parts[1], (parts[1], False))
            fr = rel(file)
            if kind == "indirect" and fr and not intrinsic:
                out.add((fr, ln, name))
    return out


# Library calls the compiler rewrites before the bitcode is written (LLVM's
# SimplifyLibCalls at -O1 and above): a bitcode call to the key at a line is
# the source's call to one of the values there (fprintf(f, "x\n") is
# fwrite, memcmp(a, b, n) == 0 is bcmp, printf("x\n") is puts, pow(2, x)
# is ldexp, malloc then memset 0 is calloc); and glibc's inline definitions
# that its headers give only under optimisation (__OPTIMIZE__: toupper's
# body calls __ctype_toupper_loc), which an unbuilt tree is not parsed with.
REWRITES = {
    "__ctype_toupper_loc": {"toupper"}, "__ctype_tolower_loc": {"tolower"},
    "fwrite": {"fprintf", "fputs"}, "fputc": {"fprintf", "fputs", "putc"}, "fputs": {"fprintf"},
    "puts": {"printf"}, "putchar": {"printf", "putc"}, "bcmp": {"memcmp", "strcmp", "strncmp"},
    "memcmp": {"strcmp", "strncmp"}, "memchr": {"strchr", "strrchr"}, "strlen": {"strcat", "strncat"},
    "strcpy": {"sprintf"}, "stpcpy": {"strcpy"}, "calloc": {"malloc"}, "ldexp": {"pow", "exp2"},
    "exp2": {"pow"}, "sqrt": {"pow"}, "strchr": {"strstr", "strpbrk"},
}


def figures(ref, found_all, found_ind_lines, found_callers):
    d_total, i_total = len(ref["direct"]), len(ref["indirect"])
    d_hit = len(ref["direct"] & found_all)
    by_line = {}
    for f, l, n in found_all:
        by_line.setdefault((f, l), set()).add(n)
    rewritten = sum(1 for f, l, n in ref["direct"] - found_all if REWRITES.get(n, set()) & by_line.get((f, l), set()))
    no_line = {k: sum(1 for e in ref[k] if e[1] == 0) for k in ("direct", "indirect")}
    no_line_hit = {k: sum(1 for e in ref[k] & found_all if e[1] == 0) for k in ("direct", "indirect")}
    # line 0 by (file, caller, target): ref edges (file, 0, target) counted once each, as in the first row
    no_line_caller = {k: len({(f, n) for f, c, n in ref["no_line"][k] if (f, c, n) in found_callers})
                      for k in ("direct", "indirect")}
    dd_total, dd_hit = len(ref["direct_defined"]), len(ref["direct_defined"] & found_all)
    i_hit = len(ref["indirect"] & found_all)
    ref_lines = set(ref["indirect_sites"])
    widths = [len(found_ind_lines.get(line, ())) for line in ref_lines]
    return {"direct_edges": d_total, "direct_found": d_hit, "direct_recall": d_hit / d_total if d_total else None,
            "direct_rewritten": rewritten, "no_line": no_line, "no_line_found": no_line_hit,
            "no_line_by_caller": no_line_caller,
            "direct_defined_edges": dd_total, "direct_defined_found": dd_hit,
            "direct_defined_recall": dd_hit / dd_total if dd_total else None,
            "indirect_edges": i_total, "indirect_found": i_hit,
            "indirect_recall": i_hit / i_total if i_total else None,
            "indirect_lines": len(ref_lines),
            "targets_per_site": sum(widths) / len(widths) if widths else None,
            "lines_with_targets": sum(1 for w in widths if w)}


def one(args, subject):
    pkg = SUBJECTS[subject]
    tree = unpack(args.corpus, args.work, pkg)
    files = tree_files(tree)
    rel = Relativiser(files)
    ref_cat = os.path.join(args.work, subject + ".bc.facet")
    if not os.path.exists(ref_cat):
        p = sh([args.facet, "build", "-o", ref_cat, os.path.join(args.corpus, "bc", subject + ".bc")])
        if p.returncode:
            sys.exit(f"source-compare: facet build {subject}: {p.stderr.strip()}")
    ref = edges(ref_cat, "rpm", rel)
    defines = [a for d in (source_hints.hints(tree) if args.hints else []) for a in ("-D", d)]
    fallback = ["--no-type-fallback"] if args.type_fallback == "none" else ["--type-fallback", args.type_fallback]
    src_cat = os.path.join(args.work, subject + (".hints" if args.hints else "") +
                           ("" if args.type_fallback == "c" else "." + args.type_fallback) + ".src.facet")
    if args.reuse and os.path.exists(src_cat):
        rc, secs, rss, err = 0, 0.0, 0.0, ""
    else:
        rc, secs, rss, err = timed([args.facet, "source", *defines, *fallback, "-o", src_cat, "."], cwd=tree)
    if rc:
        sys.exit(f"source-compare: facet source {subject}: {err.strip()[-2000:]}")
    summary = [l for l in err.splitlines() if l.startswith("facet source: wrote")]
    fe = edges(src_cat, "source", lambda f: normalise(f) if f else None)
    found, found_lines, found_callers = fe["direct"] | fe["indirect"], fe["indirect_sites"], fe["by_caller"]
    ne = edges(src_cat, "source", lambda f: normalise(f) if f else None, "Type-Fallback")
    named, named_lines, named_callers = ne["direct"] | ne["indirect"], ne["indirect_sites"], ne["by_caller"]
    t0 = time.time()
    base_callers = set()
    base_all, base_lines = namematch.edges(tree, base_callers)
    base_secs = time.time() - t0
    obs = traced(os.path.join(args.traces, subject, "observed.trace") if args.traces else None, ref_cat, rel)
    trace_fig = None
    if obs is not None:
        ref_all = ref["direct"] | ref["indirect"]
        trace_fig = {"edges": len(obs), "source": len(obs & found), "rpm": len(obs & ref_all),
                     "baseline": len(obs & base_all), "source_named": len(obs & named)}
    row = {"subject": subject, "package": pkg, "tree_files": len(files), "seconds": secs, "peak_kib": rss,
           "defines": defines,
           "traced": trace_fig,
           "summary": summary[-1] if summary else "", "baseline_seconds": base_secs,
           "reference_missing_file": ref["missing_file"],
           "source": figures(ref, found, found_lines, found_callers),
           "baseline": figures(ref, base_all, base_lines, base_callers),
           "source_named": figures(ref, named, named_lines, named_callers)}
    return row


def speed(args, subject, prior):
    """facet source against clang-22 -fsyntax-only over the same units
    (facet's own run reused when the recall table ran it: one run each)."""
    tree = unpack(args.corpus, args.work, SUBJECTS[subject])
    c_files = sorted(f for f in tree_files(tree) if f.endswith(".c"))
    dirs = namematch.include_dirs(tree)
    flags = ["-ferror-limit=0", "-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
             "-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types",
             "-Wno-error=incompatible-pointer-types", "-Wno-error=return-type"]
    for d in dirs:
        flags += ["-I", d]
    listing = os.path.join(args.work, subject + ".units")
    with open(listing, "w") as f:
        f.write("\n".join(c_files) + "\n")
    ccpu, fcpu = [], []
    rc, secs, rss, _ = timed(["xargs", "-a", listing, "-n", "1", "clang-22", "-fsyntax-only", *flags], cwd=tree,
                             cpu=ccpu)
    if prior:
        frc, fsecs, frss = 0, prior["seconds"], prior["peak_kib"]
    else:
        out = os.path.join(args.work, subject + ".speed.facet")
        frc, fsecs, frss, _ = timed([args.facet, "source", "-o", out, "."], cwd=tree, cpu=fcpu)
    cc, fc = sum(ccpu), sum(fcpu) if fcpu else None
    return {"subject": subject, "units": len(c_files), "include_dirs": len(dirs), "clang_seconds": secs,
            "clang_peak_kib": rss, "clang_exit": rc, "facet_seconds": fsecs, "facet_peak_kib": frss,
            "facet_exit": frc, "ratio": fsecs / secs if secs else None, "clang_cpu": cc, "facet_cpu": fc,
            "cpu_ratio": fc / cc if fc and cc else None}


def headline(rows):
    """The pooled figures with the type fallback's edges and without them
    (the same catalogs, the Type-Fallback edges left out)."""
    def pooled(tool, key):
        hit = sum(r[tool][key + "_found"] for r in rows)
        all_ = sum(r[tool][key + "_edges"] for r in rows)
        return hit / all_ if all_ else None

    def mean(tool):
        v = [r[tool]["targets_per_site"] for r in rows if r[tool]["targets_per_site"] is not None]
        return sum(v) / len(v) if v else None

    def traced(key):
        t = [r["traced"] for r in rows if r["traced"]]
        e = sum(x["edges"] for x in t)
        return f"{sum(x[key] for x in t) / e:.3f}" if e else "—"
    print("\n| pooled over the subjects | with the type fallback | without (names and fields only) |")
    print("|---|--:|--:|")
    for label, key in (("direct recall (goal 0.95)", "direct"), ("indirect recall (goal 0.80)", "indirect")):
        print(f"| {label} | {pct(pooled('source', key))} | {pct(pooled('source_named', key))} |")
    print(f"| traced indirect edges found | {traced('source')} | {traced('source_named')} |")
    print(f"| mean targets per indirect line (mean of subjects) | {pct(mean('source'))} | {pct(mean('source_named'))} |",
          flush=True)


def pct(x):
    return "—" if x is None else f"{x:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--facet", default="build/facet")
    ap.add_argument("--work", default="/tmp/source-bench")
    ap.add_argument("--corpus", default="bench/work")
    ap.add_argument("--speed", nargs="*", default=[])
    ap.add_argument("--json")
    ap.add_argument("--traces", help="DIR holding SUBJECT/observed.trace from bench/trace-bench.sh")
    ap.add_argument("--hints", action="store_true",
                    help="run facet source with the -D switches the tree's build files state (bench/source-hints.py)")
    ap.add_argument("--reuse", action="store_true",
                    help="read WORK/SUBJECT[.hints].src.facet when it exists instead of running facet source again")
    ap.add_argument("--type-fallback", choices=("c", "ir", "none"), default="c",
                    help="facet source's type fallback rule (default c); the figures without the "
                         "Type-Fallback edges are printed beside in any case")
    ap.add_argument("subjects", nargs="*")
    args = ap.parse_args()
    args.facet = os.path.abspath(args.facet)
    args.corpus = os.path.abspath(args.corpus)
    os.makedirs(args.work, exist_ok=True)
    subjects = args.subjects if args.subjects or args.speed else DEFAULT
    rows, speeds = [], []
    print("| subject | files | facet source s / MiB | direct R (source) | direct R (name match) | "
          "direct R to program functions (source / name match) | "
          "indirect R (source) | indirect R (name match) | targets/site (source) | targets/site (name match) | "
          "ref. edges in generated files (direct/indirect) |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for s in subjects:
        r = one(args, s)
        rows.append(r)
        a, b = r["source"], r["baseline"]
        print(f"| {s} | {r['tree_files']} | {r['seconds']:.1f} / {r['peak_kib'] / 1024:.0f} | "
              f"{pct(a['direct_recall'])} ({a['direct_found']}/{a['direct_edges']}) | {pct(b['direct_recall'])} | "
              f"{pct(a['direct_defined_recall'])} / {pct(b['direct_defined_recall'])} | "
              f"{pct(a['indirect_recall'])} ({a['indirect_found']}/{a['indirect_edges']}) | "
              f"{pct(b['indirect_recall'])} | {pct(a['targets_per_site'])} | {pct(b['targets_per_site'])} | "
              f"{r['reference_missing_file']['direct']}/{r['reference_missing_file']['indirect']} |", flush=True)
    if rows:
        def total(key, tool):
            hit = sum(r[tool][key + "_found"] for r in rows)
            all_ = sum(r[tool][key + "_edges"] for r in rows)
            return hit / all_ if all_ else None

        def macro(key, tool):
            v = [r[tool][key] for r in rows if r[tool][key] is not None]
            return sum(v) / len(v) if v else None
        print(f"| all (edges pooled) | | | {pct(total('direct', 'source'))} | {pct(total('direct', 'baseline'))} | "
              f"{pct(total('direct_defined', 'source'))} / {pct(total('direct_defined', 'baseline'))} | "
              f"{pct(total('indirect', 'source'))} | {pct(total('indirect', 'baseline'))} | "
              f"{pct(macro('targets_per_site', 'source'))} | {pct(macro('targets_per_site', 'baseline'))} | |")
        def adjusted(key, tool):
            hit = sum(r[tool][key + "_found"] - r[tool]["no_line_found"][key] + r[tool]["no_line_by_caller"][key] +
                      (r[tool]["direct_rewritten"] if key == "direct" else 0) for r in rows)
            all_ = sum(r[tool][key + "_edges"] for r in rows)
            return hit / all_ if all_ else None
        print(f"| all, pooled, line-0 reference edges matched by (file, caller, target) and rewritten library calls "
              f"by their source form (direct) | | | {pct(adjusted('direct', 'source'))} | "
              f"{pct(adjusted('direct', 'baseline'))} | | "
              f"{pct(adjusted('indirect', 'source'))} | {pct(adjusted('indirect', 'baseline'))} | | | "
              f"line 0: {sum(r['source']['no_line']['direct'] for r in rows)}/"
              f"{sum(r['source']['no_line']['indirect'] for r in rows)}, matched "
              f"{sum(r['source']['no_line_by_caller']['direct'] for r in rows)}/"
              f"{sum(r['source']['no_line_by_caller']['indirect'] for r in rows)}; rewritten: "
              f"{sum(r['source']['direct_rewritten'] for r in rows)} |")
        print(f"| mean of subjects | | | {pct(macro('direct_recall', 'source'))} | "
              f"{pct(macro('direct_recall', 'baseline'))} | {pct(macro('direct_defined_recall', 'source'))} / "
              f"{pct(macro('direct_defined_recall', 'baseline'))} | {pct(macro('indirect_recall', 'source'))} | "
              f"{pct(macro('indirect_recall', 'baseline'))} | | | |")
    if any(r["traced"] for r in rows):
        print("\n| subject | traced indirect edges | found by facet source | by R± (bitcode) | by name match |")
        print("|---|--:|--:|--:|--:|")
        tot = {"edges": 0, "source": 0, "rpm": 0, "baseline": 0}
        for r in rows:
            t = r["traced"]
            if not t:
                continue
            for k in tot:
                tot[k] += t[k]
            e = t["edges"] or 1
            print(f"| {r['subject']} | {t['edges']} | {t['source'] / e:.3f} ({t['source']}) | {t['rpm'] / e:.3f} | "
                  f"{t['baseline'] / e:.3f} |")
        e = tot["edges"] or 1
        print(f"| all (pooled) | {tot['edges']} | {tot['source'] / e:.3f} ({tot['source']}) | {tot['rpm'] / e:.3f} | "
              f"{tot['baseline'] / e:.3f} |", flush=True)
    if rows:
        headline(rows)
    for s in args.speed:
        sp = speed(args, s, next((r for r in rows if r["subject"] == s), None))
        speeds.append(sp)
        print(f"\nspeed {s}: {sp['units']} units, {sp['include_dirs']} -I; clang-22 -fsyntax-only "
              f"{sp['clang_seconds']:.1f} s {sp['clang_peak_kib'] / 1024:.0f} MiB (exit {sp['clang_exit']}); "
              f"facet source {sp['facet_seconds']:.1f} s {sp['facet_peak_kib'] / 1024:.0f} MiB; "
              f"ratio {sp['ratio']:.2f}" + (f"; CPU (user+sys) clang {sp['clang_cpu']:.1f} s, facet "
                                           f"{sp['facet_cpu']:.1f} s, ratio {sp['cpu_ratio']:.2f}"
                                           if sp["cpu_ratio"] else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "speed": speeds}, f, indent=1)


if __name__ == "__main__":
    main()
