#!/usr/bin/env bash
# byte-identical.sh — check that a restructured facet answers exactly as a
# reference build does: every JSON output a script or agent parses, on the
# test programs (compiled here at -O0 and -O2) and, when present, on
# bench/work/bc/{lua,md4c,gdbm}.bc.
#
#   bash bench/byte-identical.sh BASE_BUILD_DIR NEW_BUILD_DIR [WORK_DIR]
#
# Each build dir holds a facet and a facet-query. Compared per program:
# callgraph --format json for every graph, explain --all --format json,
# fields --format json, stats --format json (plain and --pta), and the query
# verbs on a catalog each build writes (through facet and facet-query); the
# text forms of callgraph, explain, fields, stats and rederive; and once per
# build every command's --help, the completion script and MCP's tools/list.
# Timings ("seconds" keys) and the work directory's own path are masked;
# nothing else is. Prints one line per difference and a summary; exit 1 when
# anything differs. The reference outputs are kept in WORK_DIR/base and
# reused while the reference binary is the same (its checksum).
#
# Environment: BI_CORPUS="" leaves out the corpus subjects; BI_PROGRAMS="a.c b.c" limits the test programs (default: all
# of tests/programs, tests/facet/programs, tests/query/programs). BI_BASE_ONLY=1 only writes the reference outputs
# (NEW_BUILD_DIR is not run): start them early, while the new build is still being written, and compare later.
set -u
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd)
work=${3:-/tmp/byte-identical}
here=$(cd "$(dirname "$0")/.." && pwd)
CLANG=${CLANG:-clang-22}
mkdir -p "$work"
# Copies, so a rebuild during the run cannot mix two binaries.
sum=$(cat "$base/facet" "$base/facet-query" | sha256sum | cut -c1-16)
if [ "$(cat "$work/base.sum" 2>/dev/null)" != "$sum" ]; then
	rm -rf "$work/base" "$work/bin-base" "$work/base.sum"; mkdir -p "$work/base" "$work/bin-base"
	cp "$base/facet" "$base/facet-query" "$work/bin-base/"
fi
rm -rf "$work/new" "$work/bin-new"; mkdir -p "$work/new" "$work/bin-new" "$work/bc"
cp "$new/facet" "$new/facet-query" "$work/bin-new/"
base=$work/bin-base; new=$work/bin-new

progs=()
for c in ${BI_PROGRAMS:-"$here"/tests/programs/*.c "$here"/tests/facet/programs/*.c "$here"/tests/query/programs/*.c}; do
	n=$(basename "$(dirname "$(dirname "$c")")")_$(basename "$c" .c)
	for o in O0 O2; do
		if [ -f "$work/bc/${n}_$o.bc" ] || "$CLANG" -g -$o -c -emit-llvm -w "$c" -o "$work/bc/${n}_$o.bc" 2>/dev/null; then
			progs+=("$work/bc/${n}_$o.bc")
		fi
	done
done
for s in ${BI_CORPUS-lua md4c gdbm}; do   # BI_CORPUS="" leaves the corpus out
	[ -f "$here/bench/work/bc/$s.bc" ] && progs+=("$here/bench/work/bc/$s.bc")
done

# mask: timings and the per-build directory. The interpreter is resolved
# once: a version manager's shim costs more than the mask itself.
PY=$(python3 -c 'import sys; print(sys.executable)')
mask() {
	"$PY" -c '
import json, sys
d = sys.argv[1]
def walk(v):
    if isinstance(v, dict):
        return {k: (0 if "seconds" in k else walk(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x) for x in v]
    if isinstance(v, str):
        return v.replace(d, "WORK")
    return v
text = sys.stdin.read()
try:
    print(json.dumps(walk(json.loads(text)), indent=1))
except ValueError:
    print(text.replace(d, "WORK"), end="")
' "$1"
}

# stats' solver phases are timings without a unit: "time by phase: ...
# (whole-graph passes 0.078, lazy cycle searches 0.100, propagation 1.467)"
timing_mask() {
	sed -E '/time by phase/s/[0-9]+[.][0-9]+/T/g'
}

run_all() {   # build-dir out-dir program
	local b=$1 out=$2 p=$3 n
	n=$(basename "$p" .bc)
	mkdir -p "$out/$n"
	for g in direct andersen r0 rulesonly rplus rpm; do
		"$b/facet" callgraph --graph $g --format json "$p" 2>"$out/$n/cg-$g.err" | mask "$out" >"$out/$n/cg-$g.json"
		echo "rc=$?" >>"$out/$n/cg-$g.err"
	done
	"$b/facet" explain --all --format json "$p" 2>/dev/null | mask "$out" >"$out/$n/explain.json"
	"$b/facet" fields --format json "$p" 2>/dev/null | mask "$out" >"$out/$n/fields.json"
	"$b/facet" fields --list --format json "$p" 2>/dev/null | mask "$out" >"$out/$n/fields-list.json"
	"$b/facet" stats --format json "$p" 2>/dev/null | mask "$out" >"$out/$n/stats.json"
	"$b/facet" stats --pta --format json "$p" 2>/dev/null | mask "$out" >"$out/$n/stats-pta.json"
	"$b/facet" build "$p" -o "$out/$n/cat.facet" 2>/dev/null
	local c="$out/$n/cat.facet" q
	for q in "inventory" "externals" "resolution-candidates" "callees main" "callers main" "closure main --out" \
	         "closure main --in" "defs main" "uses main" "explain 0" "explain 3" "reach main main"; do
		# shellcheck disable=SC2086
		"$b/facet-query" $q --catalog "$c" --format json 2>/dev/null | mask "$out" >"$out/$n/q-${q// /_}.json"
	done
	"$b/facet" query inventory --catalog "$c" --format json 2>/dev/null | mask "$out" >"$out/$n/fq-inventory.json"
	"$b/facet" query callees main --catalog "$c" 2>/dev/null | mask "$out" >"$out/$n/fq-callees.txt"
	"$b/facet" query resolution-candidates --graph r0 --catalog "$c" --format json 2>/dev/null | mask "$out" >"$out/$n/q-rc-r0.json"
	"$b/facet" rederive --catalog "$c" --tau 0 --format json 2>/dev/null | mask "$out" >"$out/$n/rederive.json"
	"$b/facet" overlay list --catalog "$c" --format json 2>/dev/null | mask "$out" >"$out/$n/overlay-list.json"
	"$b/facet" callgraph "$p" 2>/dev/null | mask "$out" >"$out/$n/cg-rpm.txt"
	"$b/facet" explain --all "$p" 2>/dev/null | mask "$out" >"$out/$n/explain.txt"
	"$b/facet" fields --list "$p" 2>/dev/null | sed -E 's/[0-9]+[.][0-9]+ s/T s/g' >"$out/$n/fields.txt"
	"$b/facet" stats --refine "$p" 2>/dev/null | sed -E 's/[0-9]+[.][0-9]+ s/T s/g' | timing_mask >"$out/$n/stats.txt"
	"$b/facet" rederive --catalog "$c" --tau 0 2>/dev/null | mask "$out" >"$out/$n/rederive.txt"
}

# Once per build: the help texts (the source tree's path masked), the
# completion script, and the MCP tools' list.
run_help() {   # build-dir out-dir
	local b=$1 out=$2 c
	mkdir -p "$out/help"
	for c in callgraph stats pts dump explain rederive fields trace score build source query overlay report mcp \
	         capture oo completion; do
		"$b/facet" $c --help 2>&1 | sed -E 's#[^ ]*/src/trace/#SRC/src/trace/#' >"$out/help/$c.txt"
		"$b/facet" help $c 2>&1 | sed -E 's#[^ ]*/src/trace/#SRC/src/trace/#' >"$out/help/help-$c.txt"
	done
	"$b/facet" trace build --help 2>&1 | sed -E 's#[^ ]*/src/trace/#SRC/src/trace/#' >"$out/help/trace-build.txt"
	"$b/facet" capture list --help >"$out/help/capture-list.txt" 2>&1
	"$b/facet" --help >"$out/help/facet.txt" 2>&1
	"$b/facet-query" --help >"$out/help/facet-query.txt" 2>&1
	"$b/facet" completion bash >"$out/help/completion.txt" 2>&1
	printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bi","version":"1"}}}' \
		'{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' |
		"$b/facet" mcp >"$out/help/mcp-tools.txt" 2>/dev/null
}

[ -d "$work/base/help" ] || run_help "$base" "$work/base"
if [ -n "${BI_BASE_ONLY-}" ]; then
	for p in "${progs[@]}"; do
		[ -d "$work/base/$(basename "$p" .bc)" ] || run_all "$base" "$work/base" "$p"
	done
	echo "$sum" >"$work/base.sum"
	echo "byte-identical: reference outputs of ${#progs[@]} programs in $work/base"
	exit 0
fi
run_help "$new" "$work/new"
for p in "${progs[@]}"; do
	[ -d "$work/base/$(basename "$p" .bc)" ] || run_all "$base" "$work/base" "$p"
	run_all "$new" "$work/new" "$p"
done
echo "$sum" >"$work/base.sum"
# Compare only what this run produced: the base directory keeps the outputs of
# earlier runs (other BI_PROGRAMS, the corpus), which this run did not redo.
declare -A rerun=([help]=1)
for p in "${progs[@]}"; do rerun[$(basename "$p" .bc)]=1; done
ndiff=0; nfiles=0
while IFS= read -r f; do
	rel=${f#"$work/base/"}
	[ -n "${rerun[${rel%%/*}]-}" ] || continue
	nfiles=$((nfiles + 1))
	# (a reference written before timing_mask existed is masked here)
	if ! cmp -s "$f" "$work/new/$rel" && ! cmp -s <(timing_mask <"$f") <(timing_mask <"$work/new/$rel"); then
		echo "DIFFERS: $rel"
		ndiff=$((ndiff + 1))
	fi
done < <(find "$work/base" -type f \( -name '*.json' -o -name '*.txt' \) | sort)
echo "byte-identical: ${#progs[@]} programs, $nfiles outputs compared, $ndiff differ"
[ "$ndiff" -eq 0 ]
