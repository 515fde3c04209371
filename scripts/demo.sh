#!/usr/bin/env bash
# demo.sh — install dependencies, build facet, compile the bundled example with
# clang-22 -g, print its refined call graph (R±) and explain one indirect call:
# the struct field it dispatches through and the warrant of every target.
# Run from anywhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" -j2 >/dev/null
mkdir -p "$root/build/examples"
clang-22 -g -O0 -c -emit-llvm "$root/examples/filters.c" -o "$root/build/examples/filters.bc"
echo "== facet stats build/examples/filters.bc"
"$root/build/facet" stats "$root/build/examples/filters.bc"
echo
echo "== facet callgraph --graph rpm build/examples/filters.bc   (indirect calls resolved, R±)"
"$root/build/facet" callgraph --graph rpm "$root/build/examples/filters.bc"
echo
echo "== facet explain build/examples/filters.bc filters.c:46   (why op->apply(text) has these targets)"
"$root/build/facet" explain "$root/build/examples/filters.bc" filters.c:46
