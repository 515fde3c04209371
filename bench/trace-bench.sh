#!/usr/bin/env bash
# trace-bench.sh — dynamic ground truth for the corpus (issue 5): for each
# subject whose whole-program module bench/work/bc/<subject>.bc exists (made
# by bench/corpus.sh), build the instrumented executable with
# `facet trace build`, run a realistic offline workload
# (bench/workloads/<subject>.sh) with FACET_TRACE_OUT set, score Andersen, R0,
# rules-only, R+ and R± against the observed edges with `facet score` (timed:
# its seconds and peak memory), and write the "Dynamic ground truth" section of
# bench/RESULTS.md plus bench/figure6.png (gnuplot).
#
# Usage: bench/trace-bench.sh [--quick] [--new] [--facet PATH] [--work DIR] [--no-report] [SUBJECT...]
#
#   --quick      md4c, lua, gdbm only; exits 1 if R±'s macro recall on any
#                of them falls below R0's (the CI check of issue 5), 77 when
#                one of their modules is missing (CTest: skipped)
#   --new        the subjects added by issue 15 (NEW below), reported in a
#                section of their own, apart from the paper's 14
#   --cxx        the C++ subjects (CXX below), scored with cha, rta, vta,
#                vslot, r0 and rpm, reported by bench/cxx-report.py
#   --facet P    the facet binary (default: build/facet, else build-trace/facet)
#   --work DIR   where the per-subject files go (default bench/work/trace)
#   --no-report  leave RESULTS.md and the plot alone
#   --report-only  run nothing: write the report from what earlier runs left
#                in the work directory for these subjects
#   --rescore    no build and no workload: score again, with this facet, the
#                traces that earlier runs left in the work directory
#   --note TEXT  a sentence for the report (how the runs were made)
#
# Everything it makes is under bench/work/trace/<subject>/: prog (the
# instrumented executable), build.log, workload.log, observed.trace,
# score.json, analysis.time (seconds and KiB of the facet score run),
# status. A subject that cannot be built, run or scored is reported with
# the reason; the others go on.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
W=$here/work/trace
ALL="md4c lua gdbm oniguruma sqlite libjpeg-turbo nginx redis libxml2 libarchive tmux dwarfutils sudo dovecot"
# Added by issue 15: programs facet was never tuned on; their results go to
# the section "Subjects outside the paper's corpus" of RESULTS.md.
NEW="zstd xz expat jq m4 gawk tiff make curl memcached tcl"
QUICK="md4c lua gdbm"
# Added by issue 19: C++ programs, scored with the virtual-call graphs too and
# reported by bench/cxx-report.py (section "C++ virtual calls").
CXX="ninja leveldb re2"
quick=0 report=1 only_report=0 rescore=0 facet= note= subjects=()
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--new) subjects+=($NEW) ;;
	--cxx) subjects+=($CXX) ;;
	--facet) facet=$2; shift ;;
	--no-report) report=0 ;;
	--work) W=$2; shift ;;
	--report-only) only_report=1 ;;
	--rescore) rescore=1 ;;
	--note) note=$2; shift ;;
	-h|--help) sed -n '2,30s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "trace-bench.sh: unknown option $1" >&2; exit 2 ;;
	*) subjects+=("$1") ;;
	esac
	shift
done
if [ -z "$facet" ]; then
	for f in "$root/build/facet" "$root/build-trace/facet"; do [ -x "$f" ] && { facet=$f; break; }; done
fi
[ -x "$facet" ] || { echo "trace-bench.sh: no facet binary (build it, or pass --facet)" >&2; exit 2; }
facet=$(cd "$(dirname "$facet")" && pwd)/$(basename "$facet")
[ ${#subjects[@]} -gt 0 ] || { if [ $quick = 1 ]; then subjects=($QUICK); else subjects=($ALL); fi; }
if [ $quick = 1 ]; then
	for s in "${subjects[@]}"; do
		[ -f "$here/work/bc/$s.bc" ] || { echo "trace-bench.sh: skipped: no bench/work/bc/$s.bc (run bench/corpus.sh --quick)"; exit 77; }
	done
fi
if [ $report = 1 ] && ! command -v gnuplot >/dev/null; then
	# The plot's one dependency, installed here rather than by install-deps.sh.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox >/dev/null 2>&1 ||
		echo "trace-bench.sh: gnuplot not installed; the plot is skipped" >&2
fi

# subject -> the program in its build tree (as bench/corpus.sh keeps it)
program_of() {
	case $1 in
	lua) echo lua/src/src/lua ;; md4c) echo md4c/src/_build/md2html/md2html ;;
	gdbm) echo gdbm/src/tools/gdbmtool ;; oniguruma) echo oniguruma/src/test/test_utf8 ;;
	nginx) echo nginx/src/objs/nginx ;; sqlite) echo sqlite/src/sqlite3 ;;
	libjpeg-turbo) echo libjpeg-turbo/src/_build/djpeg-static ;; tmux) echo tmux/src/tmux ;;
	redis) echo redis/src/src/redis-server ;; libxml2) echo libxml2/src/xmllint ;;
	libarchive) echo libarchive/src/bsdtar ;; sudo) echo sudo/src/src/sudo ;;
	dwarfutils) echo dwarfutils/src/dwarfdump/dwarfdump ;; dovecot) echo dovecot/src/src/doveadm/doveadm ;;
	zstd) echo zstd/src/programs/zstd ;; xz) echo xz/src/src/xz/xz ;;
	expat) echo expat/src/expat/_build/xmlwf/xmlwf ;; jq) echo jq/src/jq ;; m4) echo m4/src/src/m4 ;;
	gawk) echo gawk/src/gawk ;; tiff) echo tiff/src/_build/tools/tiffcp ;; make) echo make/src/make ;;
	curl) echo curl/src/src/curl ;; memcached) echo memcached/src/memcached ;; tcl) echo tcl/src/unix/tclsh ;;
	ninja) echo ninja/src/_build/ninja ;; leveldb) echo leveldb/src/_build/db_bench ;;
	re2) echo re2/src/_build/regexp_benchmark ;;
	*) return 1 ;;
	esac
}

# Score the trace of subject $s in $d against its module $bc ($wrc: the
# workload's exit status); sets the status.
score_one() {
	# The time and peak memory of scoring: ingest, one Andersen analysis and
	# one refinement, shared by all the graphs (facet/graphs.h).
	local gs=("${graphs[@]}")
	case " $CXX " in *" $s "*)
		gs=("${cxx_graphs[@]}" --per-site)
		# which sites are virtual calls, for the per-kind scores
		"$facet" callgraph --graph cha --format json "$bc" >"$d/cha.json" 2>>"$d/score.err" ;;
	esac
	if ! /usr/bin/time -f '%e %M' -o "$d/analysis.time" "$facet" score --trace "$d/observed.trace" "${gs[@]}" \
		--format json "$bc" >"$d/score.json" 2>"$d/score.err"; then
		# The refinement's graphs may not be built: score what there is.
		if ! "$facet" score --trace "$d/observed.trace" --graph andersen --graph r0 --format json "$bc" >"$d/score.json" 2>>"$d/score.err"; then
			st "failed: facet score ($(head -c 150 "$d/score.err"))"
			return
		fi
		rm -f "$d/analysis.time"
	fi
	if [ "$wrc" = 0 ]; then st ok; else st "ok (workload exit $wrc: partial)"; fi
}

graphs=(--graph andersen --graph r0 --graph rulesonly --graph rplus --graph rpm)
cxx_graphs=(--graph cha --graph rta --graph vta --graph vslot --graph r0 --graph rpm)
mkdir -p "$W"
[ $only_report = 1 ] && run_subjects=() || run_subjects=("${subjects[@]}")
for s in "${run_subjects[@]}"; do
	d=$W/$s
	bc=$here/work/bc/$s.bc
	st() { echo "$*" >"$d/status"; echo "$s: $*"; }
	if [ $rescore = 1 ]; then
		if [ -s "$d/observed.trace" ] && [ -f "$bc" ]; then
			wrc=$(cat "$d/workload.rc" 2>/dev/null || echo 0)
			score_one
		else
			echo "$s: no trace in $d to score again"
		fi
		continue
	fi
	rm -rf "$d"
	mkdir -p "$d"
	if ! rel=$(program_of "$s"); then st "failed: unknown subject"; continue; fi
	[ -f "$bc" ] || { st "failed: no module (run bench/corpus.sh $s)"; continue; }
	[ -f "$here/workloads/$s.sh" ] || { st "failed: no workload script"; continue; }
	orig=$here/work/build/$rel
	# The libraries the original program was linked with, by their exact
	# file names (the system libraries stay outside the module).
	links=()
	if [ -x "$orig" ]; then
		while read -r lib; do
			case $lib in libc.so.*|ld-linux*) ;; *) links+=("-l:$lib") ;; esac
		done < <(readelf -d "$orig" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	fi
	t0=$(date +%s.%N)
	if ! "$facet" trace build "$bc" -o "$d/prog" "${links[@]}" >"$d/build.log" 2>&1; then
		st "failed: trace build ($(grep -m1 -E 'error' "$d/build.log" | cut -c1-120))"
		continue
	fi
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$d/build.seconds"
	rm -f "$d/observed.trace"
	(
		cd "$d" || exit 1
		export BENCH=$here FACET_TRACE_OUT=$d/observed.trace PROG=$d/prog SRC=$(dirname "$orig") TREE=$here/work/build/$s/src
		timeout -k 10 1200 bash "$here/workloads/$s.sh"
	) >"$d/workload.log" 2>&1
	wrc=$?
	echo "$wrc" >"$d/workload.rc"
	if [ ! -s "$d/observed.trace" ]; then
		st "failed: workload wrote no trace (exit $wrc, see work/trace/$s/workload.log)"
		continue
	fi
	score_one
done

# The paper's subjects and the new ones are reported apart (issue 15).
old=() new=() cxx=()
for s in "${subjects[@]}"; do
	case " $NEW " in *" $s "*) new+=("$s") ;; esac
	case " $NEW $CXX " in *" $s "*) ;; *) old+=("$s") ;; esac
	case " $CXX " in *" $s "*) cxx+=("$s") ;; esac
done
rc=0
if [ ${#old[@]} -gt 0 ]; then
	args=()
	[ $quick = 1 ] && args+=(--check-recall)
	[ $report = 1 ] && args+=(--results "$here/RESULTS.md" --plot "$here/figure6.png")
	[ -n "$note" ] && args+=(--note "$note")
	python3 "$here/trace-report.py" "$W" "${args[@]}" -- "${old[@]}" || rc=$?
fi
if [ ${#new[@]} -gt 0 ]; then
	args=(--section new)
	[ $report = 1 ] && args+=(--results "$here/RESULTS.md")
	[ -n "$note" ] && args+=(--note "$note")
	python3 "$here/trace-report.py" "$W" "${args[@]}" -- "${new[@]}" || rc=$?
fi
if [ ${#cxx[@]} -gt 0 ]; then
	args=()
	[ $report = 1 ] && args+=(--results "$here/RESULTS.md")
	python3 "$here/cxx-report.py" "$W" "${args[@]}" -- "${cxx[@]}" || rc=$?
fi
exit $rc
