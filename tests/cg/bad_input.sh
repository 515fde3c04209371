#!/usr/bin/env bash
# bad_input.sh — facet's answers to bad input, usage errors, --help, and a
# module without debug info.
#
# Usage: bad_input.sh FACET SRCDIR
#
# The contract (src/cli/cli.h, DESIGN.md "Interfaces people expect"):
#   - bad input: exit 1 (not a crash) and a message on stderr that names
#     the file;
#   - usage errors (unknown option, bad option value, no input file): exit 2;
#   - --help on the driver and on each subcommand: exit 0, usage on stdout;
#   - a module without debug info: exit 0, a warning on stderr that names the
#     file, and the same graph as opt-22 -passes=print-callgraph.
# Every bad-input case is run through `callgraph --format llvm`,
# `callgraph --format json` and `stats`.

set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 FACET SRCDIR" >&2
	exit 2
fi
facet=$1
srcdir=$2

for tool in clang-22 opt-22; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bad_input: $tool not found on PATH (install LLVM 22: clang-22, llvm-22)" >&2
		exit 2
	fi
done
if [ ! -x "$facet" ]; then
	echo "bad_input: facet binary '$facet' is not executable" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/facet-bad.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

fail() {
	echo "FAIL $*"
	failed=$((failed + 1))
}

# run_facet ARGS...: run facet, leaving rc, $tmp/out, $tmp/err
run_facet() {
	"$facet" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

show_err() {
	echo "    command: facet $*"
	echo "    exit status: $rc"
	echo "    stderr:"
	sed 's/^/      /' "$tmp/err" | head -20
}

# expect_status LABEL STATUS NEEDLE ARGS...: exit STATUS, and stderr contains
# NEEDLE (a fixed string; empty: stderr merely non-empty).
expect_status() {
	local label=$1 want=$2 needle=$3
	shift 3
	run_facet "$@"
	if [ "$rc" -ne "$want" ]; then
		fail "$label: exit status $rc, expected $want"
		show_err "$@"
		return
	fi
	if [ ! -s "$tmp/err" ]; then
		fail "$label: exit status $rc but nothing on stderr"
		show_err "$@"
		return
	fi
	if [ -n "$needle" ] && ! grep -qF -- "$needle" "$tmp/err"; then
		fail "$label: stderr does not name '$needle'"
		show_err "$@"
		return
	fi
	passed=$((passed + 1))
}

# bad FILE-LABEL NEEDLE FILES...: each reader of input must reject FILES
bad() {
	local label=$1 needle=$2
	shift 2
	expect_status "$label: callgraph --format llvm" 1 "$needle" callgraph --graph direct --format llvm "$@"
	expect_status "$label: callgraph --format json" 1 "$needle" callgraph --graph direct --format json "$@"
	expect_status "$label: stats" 1 "$needle" stats "$@"
}

mask() {
	sed -E 's/0x[0-9a-f]+/0xADDR/g' "$1"
}

compile() {
	(cd "$srcdir" && clang-22 "$@") >"$tmp/clang.err" 2>&1 || {
		echo "bad_input: clang-22 $* failed:" >&2
		cat "$tmp/clang.err" >&2
		exit 1
	}
}

# ---------------------------------------------------------------- inputs
good="$tmp/good.bc"
compile -g -O0 -c -emit-llvm tests/programs/recursion.c -o "$good"
other_main="$tmp/other_main.bc"
compile -g -O0 -c -emit-llvm tests/programs/mutual.c -o "$other_main"
nodebug="$tmp/nodebug.bc"
compile -O0 -c -emit-llvm tests/programs/callbacks.c -o "$nodebug"
nodebug_o2="$tmp/nodebug_o2.bc"
compile -O2 -c -emit-llvm tests/programs/fnptr_struct.c -o "$nodebug_o2"

: >"$tmp/empty.bc"
printf 'This is a shopping list, not LLVM IR.\n- eggs\n- flour\n' >"$tmp/notes.txt"
size=$(wc -c <"$good")
head -c $((size / 2)) "$good" >"$tmp/truncated.bc"
cat >"$tmp/syntax.ll" <<'EOF'
define i32 @main() {
entry:
  %x = add i32 1,
  ret i32 %x
}
EOF
mkdir "$tmp/adir.bc"

# ---------------------------------------------------------------- bad input
bad "empty file" "empty.bc" "$tmp/empty.bc"
bad "text file that is not IR" "notes.txt" "$tmp/notes.txt"
bad "truncated bitcode" "truncated.bc" "$tmp/truncated.bc"
bad ".ll with a syntax error" "syntax.ll" "$tmp/syntax.ll"
bad "missing file" "no_such_file.bc" "$tmp/no_such_file.bc"
bad "directory instead of a file" "adir.bc" "$tmp/adir.bc"
# a bad file after a good one: the bad one is named
bad "good file then empty file" "empty.bc" "$good" "$tmp/empty.bc"
# both define main: the link fails; the message names the file that brings
# the second definition and the symbol
bad "two modules defining main (file named)" "other_main.bc" "$good" "$other_main"
bad "two modules defining main (symbol named)" "main" "$good" "$other_main"

# ---------------------------------------------------------------- usage errors
expect_status "unknown option" 2 "--bogus" callgraph --bogus "$good"
expect_status "unknown --format value" 2 "" callgraph --graph direct --format xml "$good"
expect_status "unknown --graph value" 2 "" callgraph --graph nonesuch --format llvm "$good"
expect_status "--format without its value" 2 "" callgraph --graph direct "$good" --format
expect_status "callgraph without a file" 2 "" callgraph --graph direct --format llvm
expect_status "stats without a file" 2 "" stats
expect_status "stats unknown option" 2 "--bogus" stats --bogus "$good"
expect_status "unknown command" 2 "frobnicate" frobnicate "$good"
expect_status "no command" 2 ""

# ---------------------------------------------------------------- --help
for args in "--help" "callgraph --help" "stats --help"; do
	# shellcheck disable=SC2086
	run_facet $args
	if [ "$rc" -ne 0 ]; then
		fail "facet $args: exit status $rc, expected 0"
		show_err $args
	elif ! grep -qi "usage" "$tmp/out"; then
		fail "facet $args: no usage text on stdout"
		sed 's/^/    stdout: /' "$tmp/out" | head -5
	else
		passed=$((passed + 1))
	fi
done

# ---------------------------------------------------------------- no debug info
for f in "$nodebug" "$nodebug_o2"; do
	name=$(basename "$f")
	run_facet callgraph --graph direct --format llvm "$f"
	if [ "$rc" -ne 0 ]; then
		fail "no debug info ($name): callgraph exit status $rc, expected 0"
		show_err callgraph --graph direct --format llvm "$f"
		continue
	fi
	if ! grep -qF "$name" "$tmp/err"; then
		fail "no debug info ($name): no warning naming the file on stderr"
		show_err callgraph --graph direct --format llvm "$f"
	else
		passed=$((passed + 1))
	fi
	opt-22 -passes=print-callgraph -disable-output "$f" 2>"$tmp/expected" >/dev/null
	if ! diff -u --label "opt-22 ($name)" --label "facet ($name)" \
		<(mask "$tmp/expected") <(mask "$tmp/out") >"$tmp/diff"; then
		fail "no debug info ($name): graph differs from opt-22's:"
		sed 's/^/    /' "$tmp/diff"
	else
		passed=$((passed + 1))
	fi
	# JSON: still exit 0, and every site has line and column 0
	run_facet callgraph --graph direct --format json "$f"
	if [ "$rc" -ne 0 ]; then
		fail "no debug info ($name): callgraph --format json exit status $rc"
		show_err callgraph --graph direct --format json "$f"
	elif ! python3 - "$tmp/out" >"$tmp/py.err" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["sites"], "no sites"
bad = [s for s in doc["sites"] if s["line"] != 0 or s["column"] != 0 or s["inlined_at"]]
assert not bad, "sites with a location but no debug info: %r" % bad[:3]
EOF
	then
		fail "no debug info ($name): JSON output:"
		sed 's/^/    /' "$tmp/py.err"
	else
		passed=$((passed + 1))
	fi
	run_facet stats --format json "$f"
	if [ "$rc" -ne 0 ]; then
		fail "no debug info ($name): stats exit status $rc, expected 0"
		show_err stats --format json "$f"
	elif ! python3 - "$tmp/out" >"$tmp/py.err" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc.get("debug_info") is False, "stats says debug_info %r, expected false" % doc.get("debug_info")
EOF
	then
		fail "no debug info ($name): stats --format json:"
		sed 's/^/    /' "$tmp/py.err"
	else
		passed=$((passed + 1))
	fi
done

# ---------------------------------------------------------------- input sniffing
# bitcode under a name that does not end in .bc is still bitcode (opt reads it)
cp "$good" "$tmp/recursion.data"
run_facet callgraph --graph direct --format llvm "$tmp/recursion.data"
opt-22 -passes=print-callgraph -disable-output "$good" 2>"$tmp/expected" >/dev/null
if [ "$rc" -ne 0 ]; then
	fail "bitcode named recursion.data: exit status $rc"
	show_err callgraph --graph direct --format llvm "$tmp/recursion.data"
elif ! diff -u <(mask "$tmp/expected") <(mask "$tmp/out") >"$tmp/diff"; then
	fail "bitcode named recursion.data: graph differs from opt-22's:"
	sed 's/^/    /' "$tmp/diff"
else
	passed=$((passed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
