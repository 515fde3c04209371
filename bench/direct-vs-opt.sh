#!/usr/bin/env bash
# direct-vs-opt.sh — facet's direct call graph against LLVM's on the corpus.
#
#   bench/direct-vs-opt.sh [--runs N] [--facet PATH] [X.bc...]
#       (default: every bench/work/bc/*.bc, N=5, facet = build/facet)
#
# Per module, N alternating runs of
#   opt-22 -passes=print-callgraph -disable-output X.bc          (prints on stderr)
#   facet callgraph --graph direct --format llvm X.bc            (prints on stdout)
# each with its output to /dev/null, both reading the bitcode and verifying it.
# Prints median wall seconds and median peak RSS (MiB, from /usr/bin/time -v),
# and checks once that the two outputs are identical after masking addresses.
set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FACET=$BENCH/../build/facet
OPT=$(llvm-config-22 --bindir)/opt
RUNS=5
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) RUNS=$2; shift 2 ;;
	--facet) FACET=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- "$BENCH"/work/bc/*.bc
[ -f "$1" ] || { echo "no .bc files (run bench/corpus.sh first)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
measure() {   # label, command... ; appends wall and rss to $tmp/label.{wall,rss}
	local label=$1; shift
	local t0 t1
	t0=$(date +%s.%N)
	/usr/bin/time -v -o "$tmp/t" "$@" >/dev/null 2>&1 || echo "warning: $label failed: $*" >&2
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$tmp/$label.wall"
	awk -F': ' '/Maximum resident set size/ { printf "%.1f\n", $2 / 1024 }' "$tmp/t" >>"$tmp/$label.rss"
}

printf '%-12s %9s %9s %10s %10s %8s %s\n' module opt-s facet-s opt-MiB facet-MiB speedup output
for bc in "$@"; do
	rm -f "$tmp"/*.wall "$tmp"/*.rss
	for _ in $(seq "$RUNS"); do
		measure opt "$OPT" -passes=print-callgraph -disable-output "$bc"
		measure facet "$FACET" callgraph --graph direct --format llvm "$bc"
	done
	"$OPT" -passes=print-callgraph -disable-output "$bc" 2>&1 >/dev/null | sed -E 's/0x[0-9a-f]+/A/g' >"$tmp/o"
	"$FACET" callgraph --format llvm "$bc" 2>/dev/null | sed -E 's/0x[0-9a-f]+/A/g' >"$tmp/f"
	same=identical; cmp -s "$tmp/o" "$tmp/f" || same=DIFFERENT
	ow=$(median <"$tmp/opt.wall") fw=$(median <"$tmp/facet.wall")
	printf '%-12s %9s %9s %10s %10s %8s %s\n' "$(basename "$bc" .bc)" "$ow" "$fw" \
		"$(median <"$tmp/opt.rss")" "$(median <"$tmp/facet.rss")" \
		"$(awk -v o="$ow" -v f="$fw" 'BEGIN { printf "%.2fx", o / f }')" "$same"
done
