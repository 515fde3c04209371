#!/usr/bin/env bash
# run_trace.sh — end-to-end test of `facet trace build` and `facet score`.
#
# Usage: run_trace.sh FACET SRCDIR [-k]
#
#   FACET    the facet binary
#   SRCDIR   the repository root (programs are compiled from there)
#   -k       keep the work directory (its path is printed)
#
# 1. tests/pta_programs/* at -O0 and -O2: compiled with clang-22 -g to
#    bitcode, built by `facet trace build`, run once with both
#    FACET_TRACE_OUT (our runtime) and FACET_OBSERVED (the programs' own
#    observe.h ground truth); check_trace.py observe compares the two edge
#    sets exactly, through the site ids of `facet callgraph --format json`.
# 2. tests/trace/programs/{threads_fork,shlib}.c at -O0 and -O2, each run
#    twice into one file: exact counts per site from the @trace markers
#    (threads, fork, exec, a library function through a pointer, a callee
#    outside the module), records per run, runs accumulating.
# 3. facet score: hand-computed metrics on tests/trace/score/ fixtures and
#    on the traced threads_fork; a trace of another program is refused;
#    malformed observed-edges files fail with FILE:LINE and exit 1.
#
# Exit status: 0 when every check passed, 1 otherwise, 2 on misuse.
set -u
[ $# -ge 2 ] || { sed -n '4,8s/^# \{0,1\}//p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
facet=$1 srcdir=$2 keep=${3:-}
for tool in clang-22 python3; do
	command -v "$tool" >/dev/null || { echo "run_trace.sh: $tool not found" >&2; exit 2; }
done
facet=$(cd "$(dirname "$facet")" && pwd)/$(basename "$facet")
cd "$srcdir" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/facet-trace.XXXXXX") || exit 2
if [ "$keep" = -k ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# ---- 1. pta_programs against observe.h -------------------------------------------------
progs=()
for p in tests/pta_programs/*.c tests/pta_programs/*/; do
	[ -e "$p" ] || continue
	p=${p%/}
	progs+=("$p")
done
for p in "${progs[@]}"; do
	name=$(basename "${p%.c}")
	for lvl in O0 O2; do
		d=$work/$name.$lvl
		mkdir -p "$d"
		if [ -d "$p" ]; then srcs=("$p"/*.c); else srcs=("$p"); fi
		bcs=()
		for s in "${srcs[@]}"; do
			b=$d/$(basename "${s%.c}").bc
			clang-22 -g -"$lvl" -pthread -c -emit-llvm "$s" -o "$b" || { bad "$name $lvl: clang-22 failed on $s"; continue 2; }
			bcs+=("$b")
		done
		# A directory program's linker script goes to the link, as in
		# tests/r0/run_r0.sh (kernel_sections bounds its tables there).
		ldflags=()
		if [ -d "$p" ]; then
			for lds in "$p"/*.lds; do [ -e "$lds" ] && ldflags+=("-Wl,-T,$lds"); done
		fi
		"$facet" trace build "${bcs[@]}" -o "$d/prog" "${ldflags[@]}" 2>"$d/build.err" || { bad "$name $lvl: facet trace build failed: $(cat "$d/build.err")"; continue; }
		"$facet" callgraph --graph direct --format json "${bcs[@]}" >"$d/cg.json" || { bad "$name $lvl: facet callgraph failed"; continue; }
		(cd "$d" && FACET_TRACE_OUT=$d/trace FACET_OBSERVED=$d/observed ./prog >/dev/null 2>&1)
		rc=$?
		[ "$rc" = 0 ] || bad "$name $lvl: instrumented program exited $rc"
		python3 "$here/check_trace.py" observe "$name $lvl" "$d/cg.json" "$d/trace" "$d/observed" || fail=1
	done
done

# ---- 2. own programs: threads, fork, exec, shared libraries ------------------------------
clang-22 -O1 -fPIC -shared tests/trace/programs/shlib_lib.c -o "$work/libtshlib.so" || bad "building libtshlib.so"
for name in threads_fork shlib; do
	for lvl in O0 O2; do
		d=$work/own.$name.$lvl
		mkdir -p "$d"
		src=tests/trace/programs/$name.c
		clang-22 -g -"$lvl" -pthread -c -emit-llvm "$src" -o "$d/$name.bc" || { bad "$name $lvl: clang-22 failed"; continue; }
		links=()
		[ "$name" = shlib ] && links=(-L"$work" -ltshlib -Wl,-rpath,"$work")
		"$facet" trace build "$d/$name.bc" -o "$d/prog" "${links[@]}" 2>"$d/build.err" || { bad "$name $lvl: facet trace build failed: $(cat "$d/build.err")"; continue; }
		"$facet" callgraph --graph direct --format json "$d/$name.bc" >"$d/cg.json" || { bad "$name $lvl: facet callgraph failed"; continue; }
		for run in 1 2; do
			(cd "$d" && FACET_TRACE_OUT=$d/trace ./prog >/dev/null 2>&1) || bad "$name $lvl: run $run exited non-zero"
		done
		python3 "$here/check_trace.py" markers "$name $lvl" "$d/cg.json" "$d/trace" "$src" 2 || fail=1
	done
done

# ---- 3. facet score ------------------------------------------------------------------------
python3 "$here/check_trace.py" score "$facet" "$here/score" "$work/own.threads_fork.O0" "$work/own.shlib.O0" "$work" || fail=1

[ "$fail" = 0 ] && echo "run_trace.sh: all checks passed"
exit "$fail"
