#!/usr/bin/env bash
# fuzz.sh — the mutation loops of tests/fuzz/fuzz.py for minutes instead of
# seconds (issue 22). CI runs them for 4 s per target (ctest -R fuzz_quick).
#
# usage: bench/fuzz.sh [FACET] [SECONDS_PER_TARGET] [SEED]
#   FACET defaults to build-asan/facet when it exists (sanitizer reports
#   count as findings), else build/facet; 120 s per target; seed = the time.
# Findings (inputs that crash, hang, trip a sanitizer or exit oddly) are kept
# in $FACET_FUZZ_KEEP (default /tmp/facet-fuzz-findings); the last lines
# give the inputs run per target.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
facet=${1:-}
if [ -z "$facet" ]; then
	if [ -x "$here/build-asan/facet" ]; then facet=$here/build-asan/facet; else facet=$here/build/facet; fi
fi
seconds=${2:-120}
seed=${3:-$(date +%s)}
keep=${FACET_FUZZ_KEEP:-/tmp/facet-fuzz-findings}
mkdir -p "$keep"
echo "bench/fuzz.sh: $facet, $seconds s per target, seed $seed"
exec python3 "$here/tests/fuzz/fuzz.py" "$facet" --seconds "$seconds" --seed "$seed" --keep "$keep"
