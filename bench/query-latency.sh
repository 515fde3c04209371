#!/usr/bin/env bash
# query-latency.sh — median and p95 wall time of facet queries on a catalog,
# process start included (what a script or an agent calling the CLI pays).
#
# Usage: bench/query-latency.sh QUERY-BINARY CATALOG [RUNS] -- VERB ARGS... [-- VERB ARGS...]...
#   QUERY-BINARY  build/facet-query (no LLVM) or build/facet (prefix "query" is added)
#   RUNS          runs per query (default 30)
# Prints one line per query: wall-time median, p95 and max, and the median
# CPU time (user + system of the query process) in milliseconds — on a
# loaded machine wall time is mostly waiting for a core; CPU time is what
# the query costs. A last line gives the same for /bin/true, the floor of
# starting a process here. Times come from time.perf_counter around each
# run and getrusage of the finished child (microseconds), not /usr/bin/time
# (10 ms steps). Each query runs once unmeasured first (warm page cache).
set -eu
[ $# -ge 3 ] || { echo "usage: see the header of $0" >&2; exit 2; }
exec python3 - "$@" <<'EOF'
import os
import resource
import subprocess
import sys
import time

args = sys.argv[1:]
binary, catalog, rest = args[0], args[1], args[2:]
runs = 30
if rest and rest[0] != "--":
    runs = int(rest.pop(0))
if not rest or rest[0] != "--" or runs < 1:
    print("usage: see the header of bench/query-latency.sh", file=sys.stderr)
    sys.exit(2)
queries, cur = [], []
for a in rest[1:]:
    if a == "--":
        queries.append(cur)
        cur = []
    else:
        cur.append(a)
if cur:
    queries.append(cur)
prefix = ["query"] if os.path.basename(binary) == "facet" else []


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(label, cmd):
    if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
        print(f"{label}: the command failed: {' '.join(cmd)}", file=sys.stderr)
        sys.exit(1)
    wall, cpu = [], []
    for _ in range(runs):
        c0 = children_cpu()
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((children_cpu() - c0) * 1000)
    wall.sort()
    cpu.sort()
    n = len(wall)
    p95 = wall[-(-n * 95 // 100) - 1]
    print("%-46s wall median %6.1f ms  p95 %6.1f ms  max %6.1f ms | cpu median %5.1f ms  (%d runs)"
          % (label, wall[(n - 1) // 2], p95, wall[-1], cpu[(n - 1) // 2], n))


for q in queries:
    measure(" ".join(q), [binary, *prefix, *q, "--catalog", catalog, "--format", "json"])
measure("(/bin/true: process start)", ["/bin/true"])
EOF
