#!/usr/bin/env bash
# hostile.sh — the C++ graphs on modules whose vtables, typeinfo and
# virtual-call shapes are not what clang emits (tests/cxx/hostile/*.ll):
# every graph must be built (exit 0, no crash), the odd sites unresolved or
# resolved, never a signal.
# Usage: hostile.sh FACET DIR
set -u
facet=$1 dir=$2 failed=0 passed=0
for ll in "$dir"/*.ll; do
	for g in cha rta vta vslot; do
		out=$("$facet" callgraph --graph "$g" --format json "$ll" 2>/dev/null)
		rc=$?
		if [ $rc -ne 0 ] || ! printf '%s' "$out" | python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null; then
			echo "FAIL $(basename "$ll") --graph $g: exit $rc: $(printf '%s' "$out" | head -c 300)"
			failed=$((failed + 1))
		else
			passed=$((passed + 1))
		fi
	done
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
