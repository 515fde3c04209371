#!/usr/bin/env bash
# opt-callgraph-time.sh — baseline: how long LLVM's own call graph takes on each corpus module.
#
#   bench/opt-callgraph-time.sh [--runs N] [X.bc...]     (default: every bench/work/bc/*.bc, N=3)
#
# For each module runs, N times,
#   /usr/bin/time -v opt-22 -passes=print-callgraph -disable-output X.bc 2>/dev/null
# (the printed graph goes to /dev/null) and prints, over the runs, the median wall seconds
# (date +%s.%N around the command) and the median peak RSS in MiB (time -v's "Maximum resident
# set size"), as a table. These are the numbers facet's direct call graph is compared to.

set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OPT=${OPT:-$(llvm-config-22 --bindir)/opt}
RUNS=3
if [ "${1:-}" = --runs ]; then RUNS=$2; shift 2; fi
if [ $# = 0 ]; then set -- "$BENCH"/work/bc/*.bc; fi
[ -f "$1" ] || { echo "no .bc files (run bench/corpus.sh first)" >&2; exit 1; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-16s %10s %12s %6s\n' module wall-s peak-rss-MiB runs
status=0
for bc in "$@"; do
    : > "$tmp/wall"; : > "$tmp/rss"
    ok=1
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s.%N)
        if ! /usr/bin/time -v -o "$tmp/t" "$OPT" -passes=print-callgraph -disable-output "$bc" \
                > /dev/null 2>&1; then
            ok=0; break
        fi
        t1=$(date +%s.%N)
        # wall: measured around the command (time -v's "Elapsed" has 10 ms resolution)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> "$tmp/wall"
        awk -F': ' '/Maximum resident set size/ { printf "%.1f\n", $2 / 1024 }' "$tmp/t" >> "$tmp/rss"
    done
    name=$(basename "$bc" .bc)
    if [ $ok = 0 ]; then
        printf '%-16s %10s %12s %6s\n' "$name" failed - "$RUNS"; status=1; continue
    fi
    printf '%-16s %10s %12s %6s\n' "$name" "$(median < "$tmp/wall")" "$(median < "$tmp/rss")" "$RUNS"
done
exit $status
