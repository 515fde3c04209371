#!/usr/bin/env bash
# query_latency.sh — median and p95 wall time of facet queries on a catalog,
# process start included (what a script or an agent calling the CLI pays).
#
# Usage: bench/query_latency.sh QUERY-BINARY CATALOG [RUNS] -- VERB ARGS... [-- VERB ARGS...]...
#   QUERY-BINARY  build/facet-query (no LLVM) or build/facet (prefix "query" is added)
#   RUNS          runs per query (default 30)
# Prints one line per query: median, p95 and max in milliseconds.
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
for q in "${queries[@]}"; do
	# shellcheck disable=SC2086
	"$bin" "${prefix[@]}" $q --catalog "$catalog" --format json >/dev/null   # warm the page cache
	times=()
	for ((i = 0; i < runs; i++)); do
		s=$(date +%s%N)
		# shellcheck disable=SC2086
		"$bin" "${prefix[@]}" $q --catalog "$catalog" --format json >/dev/null
		e=$(date +%s%N)
		times+=($(( (e - s) / 1000 )))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk -v q="$q" '{a[NR]=$1} END {
		p95 = int(NR * 0.95 + 0.999); if (p95 > NR) p95 = NR;
		printf "%-45s median %6.1f ms  p95 %6.1f ms  max %6.1f ms  (%d runs)\n", q, a[int((NR+1)/2)]/1000, a[p95]/1000, a[NR]/1000, NR }'
done
