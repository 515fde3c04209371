#!/usr/bin/env python3
"""fuzz.py - mutation loops over facet's readers (issue 22).

Usage: fuzz.py FACET [--seconds N] [--seed S] [--targets a,b,...] [--keep DIR]

Targets: bitcode (byte flips, truncations, insertions of a small module,
through `facet build`: LLVM's reader runs guarded), catalog (random edits of
a real catalog's rows, then a random query verb), overlay (mutated overlay
files through `facet overlay list`), mcp (mutated JSON-RPC messages and
random tool arguments in one long-lived `facet mcp` session), trace (mutated
observed-edges files through `facet score`). Each target runs for N seconds.

A finding is a process killed by a signal, a timeout, a sanitizer report on
stderr, an exit status outside the target's allowed set, or (mcp) a server
that stops answering. Findings are saved under --keep (default: a temp dir)
and printed; the exit status is 1 when there was one. The last line per
target reads "fuzz TARGET: N inputs, F findings"."""
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "mcp"))
from mcpclient import Session  # noqa: E402

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
struct ops { int (*f)(int); void (*g)(const char *); };
static int inc(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static void say(const char *s) { puts(s); }
static struct ops table[2] = { { inc, say }, { dbl, say } };
static int apply(struct ops *o, int x) { o->g("x"); return o->f(x); }
int main(int argc, char **argv) {
    int (*h)(int) = argc > 3 ? inc : dbl;
    return apply(&table[argc & 1], argc) + h(argc);
}
"""

SANITIZER = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")


def parse_args():
    a = sys.argv[1:]
    if not a or a[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    opts = {"facet": os.path.abspath(a[0]), "seconds": 10.0, "seed": int(time.time()), "targets": None,
            "keep": None}
    i = 1
    while i < len(a):
        if a[i] in ("--seconds", "--seed", "--targets", "--keep") and i + 1 < len(a):
            k = a[i][2:]
            opts[k] = float(a[i + 1]) if k == "seconds" else int(a[i + 1]) if k == "seed" else a[i + 1]
            i += 2
        else:
            print(__doc__, file=sys.stderr)
            sys.exit(2)
    return opts


O = parse_args()
FACET = O["facet"]
findings = []


# LLVM's own leaks on a rejected file are not facet's (see the file).
ENV = dict(os.environ, ASAN_OPTIONS=":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""),
                                                         "allocator_may_return_null=1"])),
           LSAN_OPTIONS="suppressions=" + os.path.join(HERE, "lsan-llvm-reader.supp") +
           ":print_suppressions=0")


def run(cmd, timeout=30, stdin=None):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, input=stdin, env=ENV)
        return p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def judge(target, rc, err, allowed, inp, keep, suffix):
    bad = rc == "timeout" or (isinstance(rc, int) and rc < 0) or rc not in allowed or any(s in err for s in SANITIZER)
    if bad:
        n = len(findings)
        path = os.path.join(keep, f"{target}-{n}{suffix}")
        if isinstance(inp, (bytes, bytearray)):
            with open(path, "wb") as f:
                f.write(inp)
        else:
            with open(path, "w") as f:
                f.write(inp)
        findings.append((target, rc, err[-400:], path))
        print(f"FINDING {target}: exit {rc}, input saved as {path}\n  {err[-400:]}")
    return bad


def mutate_bytes(rnd, data):
    b = bytearray(data)
    for _ in range(rnd.choice((1, 1, 1, 2, 4))):
        op = rnd.random()
        if op < 0.6 and b:
            k = rnd.randrange(len(b))
            b[k] ^= 1 << rnd.randrange(8)
        elif op < 0.75 and b:
            b = b[: rnd.randrange(len(b))]
        elif op < 0.9:
            k = rnd.randrange(len(b) + 1)
            b[k:k] = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 9)))
        elif b:
            k = rnd.randrange(len(b))
            b[k] = rnd.choice((0, 0xff, 0x7f, 0x80))
    return bytes(b)


def loop(target, seconds, body):
    t_end = time.time() + seconds
    n = 0
    before = len(findings)
    while time.time() < t_end:
        body(n)
        n += 1
    print(f"fuzz {target}: {n} inputs, {len(findings) - before} findings")


def fuzz_bitcode(work, rnd, keep, bc):
    data = open(bc, "rb").read()
    mut = os.path.join(work, "mut.bc")

    def body(i):
        b = mutate_bytes(rnd, data)
        with open(mut, "wb") as f:
            f.write(b)
        rc, err = run([FACET, "build", mut, "-o", os.path.join(work, "mut.facet")])
        if not judge("bitcode", rc, err, (0, 1), b, keep, ".bc") and rc == 1 and "mut.bc" not in err:
            judge("bitcode", "no file named", err, (), b, keep, ".bc")
    loop("bitcode", O["seconds"], body)


VERBS = [["callers", "main"], ["callees", "apply"], ["explain", "0"], ["explain", "3"], ["at", "prog.c:9"],
         ["uses", "inc"], ["reach", "main", "inc"], ["closure", "main"], ["slice", "main", "dbl"],
         ["indirect-targets", "prog.c:9"], ["resolution-candidates"], ["externals"], ["inventory"],
         ["defs", "apply"]]
VALUES = [None, 0, 1, -1, 2 ** 31, 2 ** 63 - 1, -(2 ** 63), 99999, "", "x", "indirect", "direct", 3.5,
          b"\x00\xff"]


def fuzz_catalog(work, rnd, keep, cat):
    db = sqlite3.connect(cat)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    cols = {t: [r[1] for r in db.execute(f"PRAGMA table_info({t})")] for t in tables}
    db.close()
    mut = os.path.join(work, "mut.facet")

    def body(i):
        shutil.copyfile(cat, mut)
        db = sqlite3.connect(mut)
        db.execute("PRAGMA ignore_check_constraints = ON")
        edits = []
        for _ in range(rnd.choice((1, 1, 2, 3))):
            t = rnd.choice(tables)
            c = rnd.choice(cols[t])
            v = rnd.choice(VALUES)
            sql = f"UPDATE {t} SET {c} = ? WHERE rowid IN (SELECT rowid FROM {t} ORDER BY random() LIMIT {rnd.choice((1, 1, 3, 1000))})" \
                if t not in ("meta", "site_inlined", "graphs", "target_sets") else f"UPDATE {t} SET {c} = ?"
            try:
                db.execute(sql, (v,))
                edits.append(f"{t}.{c} = {v!r}")
            except sqlite3.Error:
                pass
        db.commit()
        db.close()
        verb = rnd.choice(VERBS)
        rc, err = run([FACET, "query", *verb, "--catalog", mut, "--format", "json"])
        judge("catalog", rc, err, (0, 1), "\n".join(edits) + "\nverb: " + " ".join(verb) + "\n", keep, ".txt")
    loop("catalog", O["seconds"], body)


def fuzz_overlay(work, rnd, keep, cat, overlay_text):
    mut = os.path.join(work, "mut.overlay")
    lines = overlay_text.splitlines(True)

    def body(i):
        if rnd.random() < 0.5:
            b = mutate_bytes(rnd, overlay_text.encode())
        else:
            ls = list(lines)
            k = rnd.randrange(1, len(ls))
            op = rnd.random()
            if op < 0.3:
                ls.insert(k, ls[k])
            elif op < 0.5:
                del ls[k]
            else:
                try:
                    rec = json.loads(ls[k])
                    key = rnd.choice(list(rec.keys()))
                    rec[key] = rnd.choice([None, 0, -1, 2 ** 64, "", "high", [], {}, {"symbol": "inc"}, ["p"]])
                    ls[k] = json.dumps(rec) + "\n"
                except (ValueError, IndexError):
                    pass
            b = "".join(ls).encode()
        with open(mut, "wb") as f:
            f.write(b)
        rc, err = run([FACET, "overlay", "list", "--catalog", cat, "--overlay", mut])
        judge("overlay", rc, err, (0, 1), b, keep, ".overlay")
    loop("overlay", O["seconds"], body)


TOOL_ARGS = {
    "at": ["file", "line", "location"], "callers": ["name", "graph", "include_overlay"],
    "callees": ["name"], "reach": ["from", "to", "graph"], "closure": ["name", "direction", "depth"],
    "slice": ["from", "to"], "explain": ["site", "limit", "offset"], "uses": ["name"], "defs": ["name"],
    "record_edges": ["records"], "list_overlay": [], "resolution_candidates": ["limit", "offset", "candidate_limit"],
    "indirect_targets": ["location"], "inventory": [], "externals": [],
}
ARG_VALUES = [None, 0, -1, 1, 2 ** 40, 4294967295, -4294967296, "", "main", "inc", "prog.c:9", "prog.c",
              "x" * 3000, [], {}, {"module_id": "prog.c", "symbol": "inc"}, True, 1.5, [1, 2],
              [{"op": "add", "site": 0, "to": "inc", "confidence": "low", "provenance": ["p"]}],
              [{"op": "retract", "edge": {}}], [{"op": "verify"}]]


def fuzz_mcp(work, rnd, keep, cat):
    s = Session(FACET, ["--catalog", cat, "--read-dir", work, "--write-dir", work], env=ENV)
    s.initialize()
    log = []
    count = [0]

    def body(i):
        if not s.proc or s.proc.poll() is not None:
            return
        if rnd.random() < 0.3:
            msg = {"jsonrpc": "2.0", "id": i + 100, "method": "tools/call",
                   "params": {"name": rnd.choice(list(TOOL_ARGS)), "arguments": {}}}
            raw = mutate_bytes(rnd, json.dumps(msg).encode()).replace(b"\n", b" ") + b"\n"
        else:
            tool = rnd.choice(list(TOOL_ARGS))
            args = {}
            for k in TOOL_ARGS[tool] + ["extra"]:
                if rnd.random() < 0.7:
                    args[k] = rnd.choice(ARG_VALUES)
            raw = (json.dumps({"jsonrpc": "2.0", "id": i + 100, "method": "tools/call",
                               "params": {"name": tool, "arguments": args}}) + "\n").encode()
        log.append(raw.decode(errors="replace"))
        try:
            s.send_raw(raw)
        except BrokenPipeError:
            pass
        count[0] += 1
        # A reply, if any, within 30 s; a message that fails to parse as one
        # JSON-RPC message may legitimately get none (a notification).
        r = s.read(timeout=30 if b'"id"' in raw else 0.2)
        if r is None and b'"id"' in raw and s.proc.poll() is None:
            ping = s.request("ping", {}, timeout=30) if s.proc.poll() is None else None
            if ping is None:
                judge("mcp", "no reply", s.stderr.decode(errors="replace"), (), "".join(log[-50:]), keep, ".jsonl")
    loop("mcp", O["seconds"], body)
    rc = s.close()
    err = s.stderr.decode(errors="replace")
    judge("mcp", rc, err, (0,), "".join(log[-200:]), keep, ".jsonl")
    if s.stray:
        judge("mcp", "stray stdout", "\n".join(s.stray[:3]), (), "".join(log[-200:]), keep, ".jsonl")


def fuzz_trace(work, rnd, keep, bc, trace_text):
    mut = os.path.join(work, "mut.trace")

    def body(i):
        b = mutate_bytes(rnd, trace_text.encode())
        with open(mut, "wb") as f:
            f.write(b)
        rc, err = run([FACET, "score", "--trace", mut, bc])
        judge("trace", rc, err, (0, 1), b, keep, ".txt")
    loop("trace", O["seconds"], body)


def main():
    rnd = random.Random(O["seed"])
    print(f"fuzz: seed {O['seed']}, {O['seconds']:g} s per target")
    targets = (O["targets"] or "bitcode,catalog,overlay,mcp,trace").split(",")
    with tempfile.TemporaryDirectory(prefix="facet-fuzz.") as work:
        keep = O["keep"] or os.path.join(work, "findings")
        os.makedirs(keep, exist_ok=True)
        c = os.path.join(work, "prog.c")
        with open(c, "w") as f:
            f.write(PROGRAM)
        bc = os.path.join(work, "prog.bc")
        subprocess.run(["clang-22", "-g", "-O0", "-c", "-emit-llvm", c, "-o", bc], check=True, cwd=work)
        cat = os.path.join(work, "prog.facet")
        subprocess.run([FACET, "build", bc, "-o", cat], check=True, capture_output=True)
        db = sqlite3.connect(cat)
        fp = db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
        site = db.execute("SELECT id FROM sites WHERE kind = 'indirect' ORDER BY id").fetchall()
        key_row = None
        db.close()
        recs = [{"op": "add", "site": s[0], "to": "inc", "confidence": "low", "provenance": [f"prog.c:{i}: r"],
                 "graph": "direct"} for i, s in enumerate(site)]
        overlay_text = json.dumps({"facet_overlay": 1, "catalog_fingerprint": fp, "catalog": cat}) + "\n" + \
            "".join(json.dumps(r) + "\n" for r in recs) + \
            json.dumps({"op": "verify", "edge": {"site": site[0][0], "to": {"module_id": "prog.c", "symbol": "inc"}}, "tool": "reread",
                        "verdict": "refuted"}) + "\n"
        trace_text = ""
        if "trace" in targets:
            exe = os.path.join(work, "prog")
            subprocess.run([FACET, "trace", "build", bc, "-o", exe], check=True, capture_output=True)
            obs = os.path.join(work, "obs.txt")
            for argv in ([exe], [exe, "a"], [exe, "a", "b", "c"]):
                subprocess.run(argv, env=dict(os.environ, FACET_TRACE_OUT=obs), capture_output=True)
            trace_text = open(obs).read()
        base = os.path.join(work, "base.overlay")
        with open(base, "w") as f:
            f.write(overlay_text)
        r = subprocess.run([FACET, "overlay", "list", "--catalog", cat, "--overlay", base], capture_output=True,
                           text=True)
        if r.returncode != 0:   # the mutants must start from a file facet accepts
            print("fuzz: the base overlay does not load:", r.stderr, file=sys.stderr)
            sys.exit(1)
        for t in targets:
            if t == "bitcode":
                fuzz_bitcode(work, rnd, keep, bc)
            elif t == "catalog":
                fuzz_catalog(work, rnd, keep, cat)
            elif t == "overlay":
                fuzz_overlay(work, rnd, keep, cat, overlay_text)
            elif t == "mcp":
                fuzz_mcp(work, rnd, keep, cat)
            elif t == "trace":
                fuzz_trace(work, rnd, keep, bc, trace_text)
            else:
                print(f"unknown target {t}", file=sys.stderr)
                sys.exit(2)
        if findings and not O["keep"]:
            dest = tempfile.mkdtemp(prefix="facet-fuzz-findings.")
            for f in os.listdir(keep):
                shutil.copy(os.path.join(keep, f), dest)
            print(f"findings copied to {dest}")
    print(f"fuzz: {len(findings)} findings")
    sys.exit(1 if findings else 0)


main()
