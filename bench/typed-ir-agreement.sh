#!/usr/bin/env bash
# typed-ir-agreement.sh — does facet recover the same dispatched field as
# typed IR names? The Facet paper's §5.2 check (98.1% agreement there).
#
#   bench/typed-ir-agreement.sh [--facet PATH] [--list]
#
# Builds each program twice: with Debian's clang-14 (typed pointers; the
# GEP feeding each callee load names struct and field, bench/typed-ir/
# fields14.py reads it) and with clang-22 (opaque pointers; facet explain
# reports its recovered field). Programs: the refinement's and the
# points-to tests' C programs at -O0 and -O2, and the corpus subjects lua
# and md4c compiled from their build trees under bench/work/build with the
# flags their builds use (their clang-22 modules are bench/work/bc/*.bc).
# Prints a Markdown table; --list also prints every disagreement on stderr.
set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$BENCH/..
FACET=$ROOT/build/facet
list=
while [ $# -gt 0 ]; do
	case $1 in
	--facet) FACET=$2; shift 2 ;;
	--list) list=--list; shift ;;
	*) echo "usage: bench/typed-ir-agreement.sh [--facet PATH] [--list]" >&2; exit 2 ;;
	esac
done
for tool in clang-14 clang-22 python3; do
	command -v $tool >/dev/null || { echo "typed-ir-agreement.sh: $tool not found (apt-get install clang-14)" >&2; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CMP="python3 $BENCH/typed-ir/compare.py"
X14="python3 $BENCH/typed-ir/fields14.py"

echo "| program | typed-IR field sites | matched | jointly resolved | field agrees | struct and field agree |"
echo "|---|---:|---:|---:|---:|---:|"

# Test programs: one row per optimisation level, all programs together.
for opt in O0 O2; do
	lls=() bcs=()
	for c in "$ROOT"/tests/facet/programs/*.c "$ROOT"/tests/pta_programs/*.c; do
		n=$(basename "$c" .c)
		clang-14 -g -$opt -S -emit-llvm -w "$c" -o "$tmp/$n.$opt.ll" 2>/dev/null || continue
		clang-22 -g -$opt -c -emit-llvm -w "$c" -o "$tmp/$n.$opt.bc" 2>/dev/null || continue
		$X14 "$tmp/$n.$opt.ll" >"$tmp/$n.$opt.typed.json"
		"$FACET" explain --all --format json "$tmp/$n.$opt.bc" >"$tmp/$n.$opt.facet.json" 2>/dev/null
	done
	python3 - "$tmp" "$opt" <<'PY'
import glob, json, sys
tmp, opt = sys.argv[1:]
typed, sites = [], []
for t in sorted(glob.glob(f"{tmp}/*.{opt}.typed.json")):
    f = t.replace(".typed.json", ".facet.json")
    try:
        s = json.load(open(f))["sites"]
    except Exception:
        continue
    typed += json.load(open(t))
    sites += s
json.dump(typed, open(f"{tmp}/all.{opt}.typed.json", "w"))
json.dump({"sites": sites}, open(f"{tmp}/all.{opt}.facet.json", "w"))
PY
	$CMP "test programs -$opt" "$tmp/all.$opt.typed.json" "$tmp/all.$opt.facet.json" $list
done

# Corpus subjects: compile their sources as their builds did.
corpus() {   # name, bc, dir, flags, files...
	local name=$1 bc=$2 dir=$3 flags=$4; shift 4
	[ -f "$bc" ] && [ -d "$dir" ] || { echo "| $name | skipped: $bc or $dir absent (bench/corpus.sh $name) | | | | |"; return; }
	local lls=()
	for f in "$@"; do
		local out="$tmp/$name.$(basename "$f" .c).ll"
		(cd "$dir" && clang-14 -g $flags -S -emit-llvm -w "$f" -o "$out") 2>/dev/null && lls+=("$out")
	done
	$X14 "${lls[@]}" >"$tmp/$name.typed.json"
	"$FACET" explain --all --format json "$bc" >"$tmp/$name.facet.json" 2>/dev/null
	$CMP "$name" "$tmp/$name.typed.json" "$tmp/$name.facet.json" $list
}
W=$BENCH/work/build
(cd "$W/lua/src/src" 2>/dev/null && ls *.c) >"$tmp/lua.files" 2>/dev/null
corpus lua "$BENCH/work/bc/lua.bc" "$W/lua/src/src" "-std=gnu99 -O2 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX" \
	$(grep -v -e '^lua\.c$' -e '^luac\.c$' "$tmp/lua.files" 2>/dev/null) lua.c
corpus md4c "$BENCH/work/bc/md4c.bc" "$W/md4c/src" "-O3 -DNDEBUG -DMD4C_USE_UTF8 -Isrc -DMD_VERSION_MAJOR=0 -DMD_VERSION_MINOR=4 -DMD_VERSION_RELEASE=8" \
	"$W/md4c/src/src/md4c.c" "$W/md4c/src/src/entity.c" "$W/md4c/src/src/md4c-html.c" \
	"$W/md4c/src/md2html/md2html.c" "$W/md4c/src/md2html/cmdline.c"
sqlite_flags=$(grep -E "libtool: link: .*cc-wrapper .* -o sqlite3 shell.c sqlite3.c" "$BENCH/work/logs/sqlite.log" 2>/dev/null |
	head -1 | sed 's/^libtool: link: [^ ]*cc-wrapper //; s/ -o sqlite3 shell.c sqlite3.c.*$//')
if [ -n "$sqlite_flags" ]; then
	corpus sqlite "$BENCH/work/bc/sqlite.bc" "$W/sqlite/src" "$sqlite_flags" sqlite3.c shell.c
else
	echo "| sqlite | skipped: no compile line in bench/work/logs/sqlite.log (bench/corpus.sh sqlite) | | | | |"
fi
