#!/usr/bin/env bash
# run_r0.sh — end-to-end test of facet's R0 call graph (Andersen points-to
# analysis + the FLTA type filter) on the programs of tests/pta_programs/.
#
# Usage: run_r0.sh FACET SRCDIR [-k] [-v] [PROGRAM...]
#
#   FACET    the facet binary
#   SRCDIR   the repository root; programs are compiled from there, so the
#            debug info and __FILE__ both name them tests/pta_programs/...
#   -k       keep the work directory (its path is printed)
#   -v       print passing checks too
#   PROGRAM  restrict to these programs (local_fp, cross_tu, ...)
#
# A program is tests/pta_programs/NAME.c, or every .c file of a
# subdirectory tests/pta_programs/NAME/ (compiled one .bc per file, all
# given to facet together, which links them; a NAME/*.lds linker script is
# added to the executable's link).  For -O0 and -O2, each program
# is compiled with clang-22 -g -Wall -Wextra -Werror to bitcode and to an
# executable, the executable is run with FACET_OBSERVED set (observe.h
# records every indirect call it makes there), and facet prints its r0 and
# andersen graphs as JSON.  check_r0.py then compares facet's answers with
# the observed calls and with the expected sets written in the sources; it
# prints one line per failed check and a closing "N passed, N failed".
#
# Exit status: 0 when every check passed, 1 when one failed, 2 on misuse.
set -u

usage() {
	sed -n '4,11s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

[ $# -ge 2 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
facet=$1 srcdir=$2
shift 2
keep=0 verbose=()
only=()
for a in "$@"; do
	case $a in
	-k) keep=1 ;;
	-v) verbose=(-v) ;;
	-*) usage ;;
	*) only+=("${a%.c}") ;;
	esac
done

for tool in clang-22 python3; do
	command -v "$tool" >/dev/null || { echo "run_r0.sh: $tool not found" >&2; exit 2; }
done
[ -x "$facet" ] || { echo "run_r0.sh: $facet is not an executable" >&2; exit 2; }
facet=$(cd "$(dirname "$facet")" && pwd)/$(basename "$facet")
cd "$srcdir" || exit 2
progdir=tests/pta_programs
[ -d "$progdir" ] || { echo "run_r0.sh: no $progdir under $srcdir" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/facet-r0.XXXXXX") || exit 2
if [ "$keep" = 1 ]; then
	echo "work directory: $work"
else
	trap 'rm -rf "$work"' EXIT
fi

selected() {
	[ ${#only[@]} -eq 0 ] && return 0
	local o
	for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
	return 1
}

# Each program: its name, then its source files.
programs=()
for f in "$progdir"/*.c; do
	[ -e "$f" ] && programs+=("$(basename "$f" .c):$f")
done
for d in "$progdir"/*/; do
	files=("$d"*.c)
	[ -e "${files[0]}" ] && programs+=("$(basename "$d"):${files[*]}")
done

cflags=(-g -Wall -Wextra -Werror)
fail() { echo "$1" >"$w/error"; }
for entry in "${programs[@]}"; do
	name=${entry%%:*}
	read -r -a srcs <<<"${entry#*:}"
	selected "$name" || continue
	for level in O0 O2; do
		w=$work/$name.$level
		mkdir -p "$w"
		printf '%s\n' "${srcs[@]}" >"$w/sources"

		bcs=()
		ok=1
		for s in "${srcs[@]}"; do
			bc=$w/$(basename "$s" .c).bc
			if ! clang-22 "${cflags[@]}" "-$level" -c -emit-llvm "$s" -o "$bc" 2>"$w/compile.log"; then
				fail "clang-22 -$level -c -emit-llvm $s failed: $(head -n 3 "$w/compile.log" | tr '\n' ' ')"
				ok=0
				break
			fi
			bcs+=("$bc")
		done
		[ $ok = 1 ] || continue
		# A directory program's linker script (NAME/*.lds) is added to the
		# executable's link, as a kernel's vmlinux.lds is (kernel_sections).
		ldflags=()
		for lds in "$(dirname "${srcs[0]}")"/*.lds; do
			[ "${srcs[0]%/*}" != "$progdir" ] && [ -e "$lds" ] && ldflags+=("-Wl,-T,$lds")
		done
		# -rdynamic: a program may look itself up by name (dlsym_commands).
		if ! clang-22 "${cflags[@]}" "-$level" -pthread -rdynamic "${srcs[@]}" "${ldflags[@]}" -o "$w/prog" 2>"$w/compile.log"; then
			fail "clang-22 -$level (executable) failed: $(head -n 3 "$w/compile.log" | tr '\n' ' ')"
			continue
		fi
		: >"$w/observed"
		FACET_OBSERVED=$w/observed timeout 10 "$w/prog" </dev/null >"$w/stdout" 2>"$w/stderr"
		rc=$?
		if [ $rc != 0 ]; then
			fail "the program exited with status $rc: $(head -n 3 "$w/stderr" | tr '\n' ' ')"
			continue
		fi
		for graph in r0 andersen; do
			"$facet" callgraph --graph "$graph" --format json "${bcs[@]}" >"$w/$graph.json" 2>"$w/$graph.stderr"
			rc=$?
			[ $rc = 0 ] || echo "facet callgraph --graph $graph exited with status $rc: $(head -n 3 "$w/$graph.stderr" | tr '\n' ' ')" >"$w/$graph.error"
		done
	done
done

python3 "$here/check_r0.py" "${verbose[@]}" "$work"
