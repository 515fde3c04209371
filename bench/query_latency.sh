#!/usr/bin/env bash
# query_latency.sh — median and p95 wall time of facet queries on a catalog,
# process start included (what a script or an agent calling the CLI pays).
#
# Usage: bench/query_latency.sh QUERY-BINARY CATALOG [RUNS] -- VERB ARGS... [-- VERB ARGS...]...
#   QUERY-BINARY  build/facet-query (no LLVM) or build/facet (prefix "query" is added)
#   RUNS          runs per query (default 30)
# Prints one line per query: wall-time median, p95 and max, and the median
# CPU time (user + system) in milliseconds — on a loaded machine wall time
# is mostly waiting for a core; CPU time is what the query costs. A last line
# gives the same for /bin/true, the floor of starting a process here.
set -eu
bin=$1 catalog=$2
shift 2
runs=30
if [ "${1:-}" != "--" ]; then runs=$1; shift; fi
[ "${1:-}" = "--" ] || { echo "usage: see the header" >&2; exit 2; }
shift
prefix=()
case $(basename "$bin") in facet) prefix=(query) ;; esac
queries=()
cur=""
for a in "$@"; do
	if [ "$a" = "--" ]; then queries+=("$cur"); cur=""; else cur="$cur $a"; fi
done
[ -n "$cur" ] && queries+=("$cur")
measure() {   # label, command...
	local label=$1
	shift
	"$@" >/dev/null   # warm the page cache
	local i
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f "%e %U %S" -o "$tmp" "$@" >/dev/null
		cat "$tmp"
	done | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip()]
w = sorted(float(r[0]) * 1000 for r in rows)
c = sorted((float(r[1]) + float(r[2])) * 1000 for r in rows)
n = len(w)
p95 = min(n, -(-n * 95 // 100))
print("%-42s wall median %5.0f ms  p95 %5.0f ms  max %5.0f ms | cpu median %4.0f ms  (%d runs)"
      % (sys.argv[1], w[(n - 1) // 2], w[p95 - 1], w[-1], c[(n - 1) // 2], n))' "$label"
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for q in "${queries[@]}"; do
	# shellcheck disable=SC2086
	measure "$q" "$bin" "${prefix[@]}" $q --catalog "$catalog" --format json
done
measure "(/bin/true: process start)" /bin/true
