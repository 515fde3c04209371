#!/usr/bin/env bash
# run_overlay.sh — builds the catalog of tests/query/programs/plugin.c (-O0)
# and runs test_overlay on it. Usage: run_overlay.sh FACET TEST_OVERLAY SRCDIR
set -eu
facet=$1 test=$2 src=$3
command -v clang-22 >/dev/null || { echo "run_overlay.sh: clang-22 not found" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/facet-overlay.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$src"
clang-22 -g -O0 -c -emit-llvm tests/query/programs/plugin.c -o "$work/plugin.bc"
"$facet" build "$work/plugin.bc" -o "$work/plugin.facet"
"$test" "$work/plugin.facet" "$work"
