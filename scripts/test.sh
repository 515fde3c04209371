#!/usr/bin/env bash
# test.sh — the whole test suite: install dependencies, build facet twice
# (a -Werror build and an ASan+UBSan build) and run every test in both.
# With --corpus (CI passes it) it first builds the quick real-program corpus
# (lua, md4c and gdbm from Debian sources, see bench/README.md) so the corpus tests
# run instead of being skipped. Ends with "N passed, N failed, N skipped".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=0
for a in "$@"; do
	case "$a" in
	--corpus) corpus=1 ;;
	*) echo "usage: scripts/test.sh [--corpus]" >&2; exit 2 ;;
	esac
done

"$root/scripts/install-deps.sh" || { echo "test.sh: installing dependencies failed" >&2; exit 1; }
if [ "$corpus" = 1 ]; then
	bash "$root/bench/corpus.sh" --quick || echo "test.sh: corpus build failed; corpus tests will report it" >&2
fi

passed=0 failed=0 skipped=0
run_suite() {   # name, build dir, extra ctest arguments (one string, split on spaces), extra cmake args...
	local name=$1 dir=$2 ctest_args=$3; shift 3
	echo "== $name build ($dir)"
	if ! cmake -S "$root" -B "$dir" "$@" >"$dir.configure.log" 2>&1; then
		cat "$dir.configure.log"; failed=$((failed + 1)); return
	fi
	if ! cmake --build "$dir" -j2 >"$dir.build.log" 2>&1; then
		tail -40 "$dir.build.log"; failed=$((failed + 1)); return
	fi
	local log="$dir.ctest.log"
	(cd "$dir" && ctest --output-on-failure -j2 $ctest_args) 2>&1 | tee "$log"
	local line total nfail
	line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
	if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
	total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
	nfail=$(sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/' <<<"$line")
	nskip=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log")
	passed=$((passed + total - nfail - nskip)); failed=$((failed + nfail)); skipped=$((skipped + nskip))
}

run_suite "release -Werror" "$root/build" "" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFACET_WERROR=ON
# The sanitizer build runs every test but the benchmark (label "bench": the
# quick traced benchmark measures graphs, which the release build checks).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	run_suite "ASan+UBSan" "$root/build-asan" "-LE bench" -DCMAKE_BUILD_TYPE=Debug -DFACET_SANITIZE=ON -DFACET_WERROR=ON

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
