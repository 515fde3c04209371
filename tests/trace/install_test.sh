#!/usr/bin/env bash
# install_test.sh — `cmake --install` gives a working facet: installs the build
# tree BUILD into a fresh prefix, then checks that the installed facet names
# its own PREFIX/share/facet/runtime/facet_rt.c (not the source tree's) and
# that `trace build` from there makes a program whose run records the
# indirect calls of examples/filters.c: run without arguments it picks the
# "trim" filter, so op->apply calls trim and op->accepts calls always.
#
# Usage: install_test.sh BUILD SRCDIR      Exit: 0 pass, 1 fail, 2 misuse.
set -u
[ $# -eq 2 ] || { echo "usage: install_test.sh BUILD SRCDIR" >&2; exit 2; }
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
facet=$work/prefix/bin/facet
for f in bin/facet bin/facet-query bin/facet-cc share/facet/runtime/facet_rt.c; do
	[ -f "$work/prefix/$f" ] || fail "$f not installed"
done
env -u FACET_TRACE_RUNTIME "$facet" trace build --help >"$work/help.txt" 2>&1
grep -qF "$work/prefix/bin/../share/facet/runtime/facet_rt.c" "$work/help.txt" ||
	fail "the installed facet does not use its installed runtime: $(tail -3 "$work/help.txt")"

clang-22 -g -O0 -c -emit-llvm "$src/examples/filters.c" -o "$work/filters.bc" || fail "clang-22"
(cd "$work" && env -u FACET_TRACE_RUNTIME "$facet" trace build filters.bc -o filters) >"$work/tbuild.log" 2>&1 ||
	{ cat "$work/tbuild.log"; fail "trace build from the prefix"; }
FACET_TRACE_OUT="$work/run.trace" "$work/filters" >/dev/null 2>&1 || fail "the traced program failed"
head -1 "$work/run.trace" | grep -q '^facet-trace 1 ' || fail "no trace header: $(head -1 "$work/run.trace")"
callees=$(tail -n +2 "$work/run.trace" | awk '{print $2}' | sort | tr '\n' ' ')
[ "$callees" = "always trim " ] || fail "observed callees '$callees', expected 'always trim '"
echo "install_test: 1 passed, 0 failed"
