#!/usr/bin/env bash
# pta-corpus.sh — Andersen's analysis and R0 on the corpus: the Facet paper's
# Table 2 columns (mean targets per indirect site) plus time and memory.
#
#   bench/pta-corpus.sh [--facet PATH] [X.bc...]   (default: every bench/work/bc/*.bc)
#
# Per module: one run of `facet stats --pta --format json X.bc` under
# /usr/bin/time -v. "pta s" is the analysis alone (constraint extraction and
# solving, as facet measures it); "total s" and "MiB" are the whole process
# (reading the bitcode included). Means are over all indirect call sites;
# "empty" counts indirect sites with no target. KLoC comes from the corpus
# builder's .stats file when present.
set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FACET=$BENCH/../build/facet
[ "${1:-}" = --facet ] && { FACET=$2; shift 2; }
[ $# -gt 0 ] || set -- "$BENCH"/work/bc/*.bc
[ -f "$1" ] || { echo "no .bc files (run bench/corpus.sh first)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf '| subject | KLoC | indirect sites | Andersen mean | R0 mean | empty (Andersen / R0) | pta s | pta s/KLoC | total s | peak MiB |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for bc in "$@"; do
	name=$(basename "$bc" .bc)
	kloc=$(awk -F= '/^kloc_c=/ { print $2 }' "${bc%.bc}.stats" 2>/dev/null)
	if ! /usr/bin/time -v -o "$tmp/t" "$FACET" stats --pta --format json "$bc" >"$tmp/j" 2>"$tmp/e"; then
		printf '| %s | failed: %s |\n' "$name" "$(tail -1 "$tmp/e")"
		continue
	fi
	python3 - "$tmp/j" "$tmp/t" "$name" "${kloc:-}" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
wall = t.split("Elapsed (wall clock) time (h:mm:ss or m:ss): ")[1].split("\n")[0]
parts = [float(x) for x in wall.split(":")]
secs = sum(v * 60 ** i for i, v in enumerate(reversed(parts)))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
kloc = sys.argv[4]
per = "%.3f" % (j["pta_seconds"] / float(kloc)) if kloc else "-"
print("| %s | %s | %d | %.1f | %.1f | %d / %d | %.2f | %s | %.2f | %.0f |" % (
    sys.argv[3], kloc or "-", j["sites_indirect"], j["mean_targets_andersen"], j["mean_targets_r0"],
    j["empty_andersen"], j["empty_r0"], j["pta_seconds"], per, secs, rss))
PY
done
