#!/usr/bin/env python3
"""overlay-record-scaling.py - cost of one record_edges call as the overlay's
log grows (issue 22.8: it was 6.8 ms at 500 records, 126 ms at 4,000).

Usage: bench/overlay-record-scaling.py FACET [N_MAX]

Builds a program with 80 functions stored in a table and one indirect call,
then, in one `facet mcp` session, adds edges with alternating confidence
(each add changes the state, so each is logged) until the log holds N_MAX
(default 4000) records, timing single-record calls at 500, 1000, 2000, 4000.
Prints "log N: record_edges X ms (median of 20)". Wall time of the whole
request as the client sees it."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "mcp"))
from mcpclient import Session  # noqa: E402

facet = os.path.abspath(sys.argv[1])
n_max = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
with tempfile.TemporaryDirectory() as work:
    c = os.path.join(work, "many.c")
    with open(c, "w") as f:
        f.write("typedef int (*fn)(int);\n")
        for i in range(80):
            f.write(f"int t{i}(int x) {{ return x + {i}; }}\n")
        f.write("fn tab[80] = {" + ", ".join(f"t{i}" for i in range(80)) + "};\n")
        f.write("int call(fn f, int x) { return f(x); }\n")
        f.write("int main(int argc, char **argv) { return call(tab[argc], argc); }\n")
    bc = os.path.join(work, "many.bc")
    subprocess.run(["clang-22", "-g", "-O0", "-c", "-emit-llvm", c, "-o", bc], check=True)
    cat = os.path.join(work, "many.facet")
    subprocess.run([facet, "build", bc, "-o", cat], check=True, capture_output=True)
    import sqlite3
    db = sqlite3.connect(cat)
    site = db.execute("SELECT s.id FROM sites s JOIN functions f ON f.id = s.caller WHERE f.name = 'call' "
                      "AND s.kind = 'indirect'").fetchone()[0]
    db.close()
    s = Session(facet, ["--catalog", cat])
    s.initialize()
    k = [0]

    def rec():
        k[0] += 1
        return {"op": "add", "site": site, "to": f"t{k[0] % 80}", "graph": "direct",
                "confidence": "low" if (k[0] // 80) % 2 else "medium", "provenance": [f"many.c:{k[0]}: bench"]}

    logged = 0
    for mark in (500, 1000, 2000, 4000):
        if mark > n_max:
            break
        while logged < mark - 20:
            batch = [rec() for _ in range(min(200, mark - 20 - logged))]
            r = s.call("record_edges", {"records": batch})
            assert not r.get("isError"), r
            logged += len(batch)
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            r = s.call("record_edges", {"records": [rec()]})
            times.append(time.perf_counter() - t0)
            assert not r.get("isError"), r
            logged += 1
        print(f"log {logged}: record_edges {statistics.median(times) * 1000:.1f} ms (median of 20)")
    s.close()
