#!/usr/bin/env bash
# direct_vs_opt.sh — `facet callgraph --graph direct --format llvm` must print
# exactly what `opt-22 -passes=print-callgraph` prints, node and call-site
# addresses aside (every 0x... is masked on both sides before diffing).
#
# Usage: direct_vs_opt.sh FACET SRCDIR
#
# Cases, for every tests/programs/*.c and every C++ program tests/cxx/*.cpp
# (compiled with clang++-22):
#   - bitcode from `clang-22 -g -O0 -c -emit-llvm` and from -O2;
#   - textual IR (.ll, clang-22 -S) at -O0;
# and for every multi-file program (a file whose comment says
# `@link-with OTHER.c`), at -O0 and -O2: facet given both .bc files against
# opt on `llvm-link-22 A.bc B.bc`, and once facet given A.bc and B.ll.
# Programs are compiled from SRCDIR, as tests/programs/NAME.c.
# On a mismatch the program, the level and the diff are printed.

set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 FACET SRCDIR" >&2
	exit 2
fi
facet=$1
srcdir=$2

for tool in clang-22 clang++-22 opt-22 llvm-link-22; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "direct_vs_opt: $tool not found on PATH (install LLVM 22: clang-22, llvm-22)" >&2
		exit 2
	fi
done
if [ ! -x "$facet" ]; then
	echo "direct_vs_opt: facet binary '$facet' is not executable" >&2
	exit 2
fi
if [ ! -d "$srcdir/tests/programs" ]; then
	echo "direct_vs_opt: '$srcdir' has no tests/programs directory" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/facet-cg.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

mask() {
	sed -E 's/0x[0-9a-f]+/0xADDR/g' "$1"
}

# compile REL LEVEL OUT [-S]: compile tests/programs/... from the source dir
compile() {
	local rel=$1 level=$2 out=$3 extra=${4:-}
	local cc=clang-22
	case $rel in *.cpp) cc=clang++-22 ;; esac
	if ! (cd "$srcdir" && $cc $extra -g "-$level" -c -emit-llvm "$rel" -o "$out") \
		>"$tmp/clang.err" 2>&1; then
		echo "FAIL $rel -$level: clang-22 failed:"
		sed 's/^/    /' "$tmp/clang.err"
		return 1
	fi
}

# check LABEL OPT_INPUT FACET_INPUT...: compare opt on OPT_INPUT with facet
# on the FACET_INPUTs.
check() {
	local label=$1 optin=$2
	shift 2
	local exp="$tmp/expected.txt" act="$tmp/actual.txt" err="$tmp/facet.err"
	if ! opt-22 -passes=print-callgraph -disable-output "$optin" 2>"$exp" >/dev/null; then
		echo "FAIL $label: opt-22 failed on $optin:"
		sed 's/^/    /' "$exp"
		failed=$((failed + 1))
		return
	fi
	"$facet" callgraph --graph direct --format llvm "$@" >"$act" 2>"$err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $label: facet exited $rc; stderr:"
		sed 's/^/    /' "$err"
		failed=$((failed + 1))
		return
	fi
	if ! diff -u --label "opt-22 ($label)" --label "facet ($label)" \
		<(mask "$exp") <(mask "$act") >"$tmp/diff.txt"; then
		echo "FAIL $label: facet's graph differs from opt-22's (addresses masked):"
		sed 's/^/    /' "$tmp/diff.txt"
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + 1))
}

progs=$(cd "$srcdir" && ls tests/programs/*.c)
for rel in $progs $(cd "$srcdir" && ls tests/cxx/*.cpp); do
	base=$(basename "$rel"); base=${base%.*}
	for level in O0 O2; do
		bc="$tmp/$base.$level.bc"
		if compile "$rel" "$level" "$bc"; then
			check "$base.c -$level" "$bc" "$bc"
		else
			failed=$((failed + 1))
		fi
	done
	ll="$tmp/$base.O0.ll"
	if compile "$rel" O0 "$ll" -S; then
		check "$base.c -O0 (textual .ll)" "$ll" "$ll"
	else
		failed=$((failed + 1))
	fi
done

# multi-file programs: facet links the modules itself
for rel in $progs; do
	base=$(basename "$rel" .c)
	for other in $(sed -n 's/.*@link-with \([A-Za-z0-9_.-]*\.c\).*/\1/p' "$srcdir/$rel"); do
		obase=$(basename "$other" .c)
		for level in O0 O2; do
			a="$tmp/$base.$level.bc" b="$tmp/$obase.$level.bc" ab="$tmp/$base+$obase.$level.bc"
			if [ ! -f "$a" ] || [ ! -f "$b" ]; then
				echo "FAIL $base.c+$other -$level: missing bitcode (see the compile failure above)"
				failed=$((failed + 1))
				continue
			fi
			if ! llvm-link-22 "$a" "$b" -o "$ab" 2>"$tmp/link.err"; then
				echo "FAIL $base.c+$other -$level: llvm-link-22 failed:"
				sed 's/^/    /' "$tmp/link.err"
				failed=$((failed + 1))
				continue
			fi
			check "$base.c+$other -$level (linked by facet)" "$ab" "$a" "$b"
		done
		# mixed inputs: bitcode and textual IR in one run
		check "$base.c+$other -O0 (.bc + .ll)" "$tmp/$base+$obase.O0.bc" \
			"$tmp/$base.O0.bc" "$tmp/$obase.O0.ll"
	done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
