#!/usr/bin/env bash
# direct_vs_opt.sh FACET PROGRAM.bc — facet's direct call graph of a real
# program must print exactly what `opt -passes=print-callgraph` prints, node
# and call-site addresses aside. Exit 77 (skipped) when the bitcode is absent.
set -uo pipefail
facet=$1 bc=$2
if [ ! -f "$bc" ]; then
	echo "SKIPPED: $bc not built (run bench/corpus.sh to build the corpus)"
	exit 77
fi
command -v opt-22 >/dev/null || { echo "opt-22 not found on PATH"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mask() { sed -E 's/0x[0-9a-f]+/ADDR/g'; }
opt-22 -passes=print-callgraph -disable-output "$bc" 2>&1 >/dev/null | mask >"$tmp/opt.txt"
if ! "$facet" callgraph --graph direct --format llvm "$bc" >"$tmp/facet.raw" 2>"$tmp/facet.err"; then
	echo "FAIL: facet exited non-zero on $bc:"; cat "$tmp/facet.err"; exit 1
fi
mask <"$tmp/facet.raw" >"$tmp/facet.txt"
if ! diff -u "$tmp/opt.txt" "$tmp/facet.txt" >"$tmp/diff.txt"; then
	echo "FAIL: $bc: facet's direct call graph differs from opt's:"
	head -40 "$tmp/diff.txt"
	exit 1
fi
echo "ok: $bc: $(grep -c '^Call graph node' "$tmp/opt.txt") nodes, $(grep -c ' calls ' "$tmp/opt.txt") edges identical to opt"
