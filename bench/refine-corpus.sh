#!/usr/bin/env bash
# refine-corpus.sh — the refinement on the corpus: the Facet paper's Table 1
# reconstruction columns and Table 2 (mean targets per indirect site under
# Andersen, R0, Rules-only and R±, and the ratio R0 / R±), with the time the
# refinement adds to the pipeline.
#
#   bench/refine-corpus.sh [--facet PATH] [X.bc...]   (default: every bench/work/bc/*.bc)
#
# Per module: one run of `facet fields --format json X.bc` under
# /usr/bin/time -v. Means are over the indirect sites each graph gives at
# least one target (as the paper's "sites a resolver reports"); "empty"
# counts indirect sites a graph leaves without target. "pta s" and
# "refine s" are the analyses as facet times them; "refine %" is the
# refinement's share of the whole process's wall time (reading the bitcode
# included); "total s" and "MiB" are the whole process.
set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FACET=$BENCH/../build/facet
[ "${1:-}" = --facet ] && { FACET=$2; shift 2; }
[ $# -gt 0 ] || set -- "$BENCH"/work/bc/*.bc
[ -f "$1" ] || { echo "no .bc files (run bench/corpus.sh first)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf '| subject | KLoC | icall | field %% | array/global %% | unrec. %% | pairs | scan misses %% | Andersen | R0 | Rules-only | R+ | R± | ratio | empty R0 / R± | pta s | refine s | refine %% | total s | peak MiB |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for bc in "$@"; do
	name=$(basename "$bc" .bc)
	kloc=$(awk -F= '/^kloc_c=/ { print $2 }' "${bc%.bc}.stats" 2>/dev/null)
	if ! /usr/bin/time -v -o "$tmp/t" "$FACET" fields --format json "$bc" >"$tmp/j" 2>"$tmp/e"; then
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
g = j["graphs"]
m = lambda k: "%.1f" % g[k]["mean_targets"]
print("| %s | %s | %d | %.1f | %.1f | %.1f | %d | %.1f | %s | %s | %s | %s | %s | %.1f | %d / %d | %.2f | %.2f | %.1f | %.2f | %.0f |" % (
    sys.argv[3], sys.argv[4] or "-", j["indirect_sites"], j["field_pct"], j["array_global_pct"], j["unrecovered_pct"],
    j["assignment_pairs"], j["scan_misses_pct"], m("andersen"), m("r0"), m("rulesonly"), m("rplus"), m("rpm"),
    j["ratio_r0_rpm"], g["r0"]["empty_sites"], g["rpm"]["empty_sites"], j["pta_seconds"], j["refine_seconds"],
    100.0 * j["refine_seconds"] / secs if secs else 0.0, secs, rss))
PY
done
