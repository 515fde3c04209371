#!/usr/bin/env python3
"""mcp-slice-cost.py - what isolating slice's bitcode read in a child costs
(issue 22.1): N slice calls with emit_module in one `facet mcp` session,
the server's CPU time (children included) and the wall time.

Usage: bench/mcp-slice-cost.py FACET CATALOG N [FROM TO]

To compare with the read in-process, build a variant whose ir_slice_write
calls slice_in_child directly instead of guard_run_child (src/ir/slice.c)
and run the same command with it. Measured 2026-12-01 on curl
(/work/corpus/bc/curl.bc, 1060 functions; main -> curl_easy_perform), 10
slices, loaded 2-core machine: isolated user 10.14/9.27 s sys 0.95/0.93 s;
in-process user 10.52/9.16 s sys 0.29/0.20 s: +0.07 s system time per
slice (the fork), user time within noise; opt-22 -passes=print-callgraph on
the same bitcode: 1.15 s user."""
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "mcp"))
from mcpclient import Session
facet, cat, n = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), int(sys.argv[3])
frm, to = (sys.argv[4], sys.argv[5]) if len(sys.argv) > 5 else ("main", "curl_easy_perform")
d = os.path.dirname(cat)
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
s = Session(facet, ["--catalog", cat, "--read-dir", d, "--write-dir", d])
s.initialize()
t0 = time.time()
for i in range(n):
    r = s.call("slice", {"from": frm, "to": to, "emit_module": os.path.join(d, "mcp-slice.bc")})
    assert not r.get("isError"), r
t1 = time.time()
s.close()
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{os.path.basename(os.path.dirname(os.path.dirname(facet)))}: {n} slices, wall {t1-t0:.2f} s, cpu user {r1.ru_utime-r0.ru_utime:.2f} s sys {r1.ru_stime-r0.ru_stime:.2f} s")
