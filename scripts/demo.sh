#!/usr/bin/env bash
# demo.sh — install dependencies, build facet, compile the bundled example with
# clang-22 -g and print its call graph with the indirect calls resolved (R0).
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
echo "== facet callgraph --graph r0 build/examples/filters.bc   (indirect calls resolved)"
"$root/build/facet" callgraph --graph r0 "$root/build/examples/filters.bc"
