# ninja: the build tool on a generated project of its own kind: rules with
# depfiles (gcc and msvc deps), order-only and implicit inputs, phony
# targets, a pool, restat, response files, a dyndep file, subninja and
# include; a full build, a no-op build, rebuilds after touching inputs and
# a header, -n, -k after a failing edge, -d explain/stats, and the tools
# (targets, query, deps, graph, commands, compdb, inputs, clean, recompact,
# restat, rules, cleandead, missingdeps).
set -u
mkdir -p proj/src proj/inc && cd proj
for i in 1 2 3 4 5 6 7 8; do
	printf '#include "h%d.h"\nint f%d(void) { return %d; }\n' $i $i $i >src/f$i.c
	printf '#define H%d %d\n' $i $i >inc/h$i.h
done
cat >gen.sh <<'SH'
# a stand-in compiler: writes the object and a Makefile-style depfile naming the header
out=$1; in=$2; dep=$3
cat "$in" >"$out"; hdr=$(sed -n 's/#include "\(.*\)"/inc\/\1/p' "$in")
printf '%s: %s %s\n' "$out" "$in" "$hdr" >"$dep"
SH
cat >sub.ninja <<'NJ'
build out/sub.txt: copy src/f1.c
NJ
cat >rules.ninja <<'NJ'
rule copy
  command = cp $in $out
  description = COPY $out
NJ
cat >dd.dyndep <<'NJ'
ninja_dyndep_version = 1
build out/dyn.txt | out/dyn.extra: dyndep
NJ
cat >build.ninja <<'NJ'
ninja_required_version = 1.7
builddir = out
include rules.ninja
subninja sub.ninja
pool slow
  depth = 1
rule cc
  command = sh gen.sh $out $in $out.d
  depfile = $out.d
  deps = gcc
  description = CC $out
rule link
  command = xargs cat < $out.rsp > $out
  rspfile = $out.rsp
  rspfile_content = $in
  pool = slow
rule stamp
  command = touch $out
  restat = 1
rule dyn
  command = touch $out out/dyn.extra
  dyndep = dd.dyndep
rule fail
  command = false
NJ
for i in 1 2 3 4 5 6 7 8; do
	echo "build out/f$i.o: cc src/f$i.c || out/stamp" >>build.ninja
done
cat >>build.ninja <<'NJ'
build out/stamp: stamp
build out/prog: link out/f1.o out/f2.o out/f3.o out/f4.o out/f5.o out/f6.o out/f7.o out/f8.o | out/sub.txt
build out/dyn.txt: dyn | dd.dyndep
  dyndep = dd.dyndep
build all: phony out/prog out/dyn.txt
build broken: fail
default all
NJ
run() { "$PROG" "$@" >>../runs.log 2>&1; echo "ninja $* -> $?"; }
run -j2
run -j2
touch src/f3.c; run -d explain -j1
touch inc/h5.h; run -d stats
run -n -t commands all >/dev/null
run -k 3 broken all
run -t targets all
run -t targets rule cc
run -t query out/prog
run -t deps
run -t graph all
run -t commands out/prog
run -t compdb cc
run -t inputs out/prog
run -t rules
run -t recompact
run -t restat
run -t missingdeps
run -t cleandead
run -t clean -r cc
run -j2 all
run -t clean
run -C . -j4
run -t list
run --version
