# dwarfutils: dwarfdump over ELF files with DWARF: small C programs of
# facet's tests compiled here with clang-22 -g (DWARF 4 and 5, -O0 and -O2),
# and the larger md4c and lua executables instrumented by this benchmark
# when they exist; in several report modes.
set -u
objs=()
for c in "$BENCH"/../tests/pta_programs/*.c; do
	b=$(basename "${c%.c}")
	for v in 4 5; do
		clang-22 -g -gdwarf-$v -O$(( v == 4 ? 0 : 2 )) -c "$c" -o "$b.d$v.o" 2>/dev/null && objs+=("$b.d$v.o")
	done
done
objs=("${objs[@]:0:16}")
for p in "$BENCH"/work/trace/md4c/prog "$BENCH"/work/trace/gdbm/prog; do [ -x "$p" ] && objs+=("$p"); done
n=0
for f in "${objs[@]}"; do
	for opts in "-a" "-i" "-l" "-f" "-F" "-s" "-r" "-ka" "-i -v" "-l -v" "-G -i" "-M -i" "-d" "-i -x noprint"; do
		# shellcheck disable=SC2086
		timeout 300 "$PROG" $opts "$f" >/dev/null 2>&1 || true
		n=$((n + 1))
	done
done
echo "$n runs over ${#objs[@]} files"
exit 0
