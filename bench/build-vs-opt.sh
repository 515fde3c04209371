#!/usr/bin/env bash
# build-vs-opt.sh — the cost of `facet build` beside LLVM's own call graph on
# the same module (issue 16's goals: CPU <= 3x opt's, peak memory <= 2.5x).
#
#   bench/build-vs-opt.sh [--runs N] [--facet PATH] [--keep DIR] [X.bc...]
#       (default: every bench/work/bc/*.bc, N=3, facet = build/facet;
#       --keep: leave the last run's catalog as DIR/X.facet (DIR is made), to
#       compare the edges of two builds)
#
# Per module, N alternating runs of
#   opt-22 -passes=print-callgraph -disable-output X.bc
#   facet build X.bc -o TMP.facet
# each under /usr/bin/time. CPU is user + sys of the whole process (on a
# shared machine CPU time moves much less than wall time); the table gives the
# medians over the runs and facet's ratios to opt.
set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FACET=$BENCH/../build/facet
OPT=$(llvm-config-22 --bindir)/opt
RUNS=3
KEEP=
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) RUNS=$2; shift 2 ;;
	--facet) FACET=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	-h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- "$BENCH"/work/bc/*.bc
[ -f "$1" ] || { echo "build-vs-opt.sh: no .bc files (run bench/corpus.sh first)" >&2; exit 1; }
if [ -n "$KEEP" ] && ! mkdir -p "$KEEP"; then
	echo "build-vs-opt.sh: cannot create --keep directory $KEEP" >&2; exit 1
fi

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf '| subject | opt CPU s | opt MiB | facet build CPU s | facet MiB | CPU x opt | MiB x opt | runs |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
status=0
for bc in "$@"; do
	name=$(basename "$bc" .bc)
	: >"$tmp/oc"; : >"$tmp/om"; : >"$tmp/fc"; : >"$tmp/fm"
	ok=1
	for _ in $(seq "$RUNS"); do
		if ! /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$OPT" -passes=print-callgraph -disable-output "$bc" >/dev/null 2>&1; then
			ok=0; break
		fi
		awk '{ print $1 + $2 >"'"$tmp/oc"'.1"; print $3 / 1024 >"'"$tmp/om"'.1" }' "$tmp/t"
		cat "$tmp/oc.1" >>"$tmp/oc"; cat "$tmp/om.1" >>"$tmp/om"
		if ! /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$FACET" build "$bc" -o "$tmp/x.facet" >/dev/null 2>"$tmp/err"; then
			ok=0; break
		fi
		awk '{ print $1 + $2 >"'"$tmp/fc"'.1"; print $3 / 1024 >"'"$tmp/fm"'.1" }' "$tmp/t"
		cat "$tmp/fc.1" >>"$tmp/fc"; cat "$tmp/fm.1" >>"$tmp/fm"
		if [ -n "$KEEP" ]; then mv -f "$tmp/x.facet" "$KEEP/$name.facet" || status=1; else rm -f "$tmp/x.facet"; fi
	done
	if [ $ok = 0 ]; then
		printf '| %s | failed: %s |\n' "$name" "$(tail -1 "$tmp/err" 2>/dev/null)"
		status=1
		continue
	fi
	oc=$(median <"$tmp/oc"); om=$(median <"$tmp/om"); fc=$(median <"$tmp/fc"); fm=$(median <"$tmp/fm")
	awk -v n="$name" -v oc="$oc" -v om="$om" -v fc="$fc" -v fm="$fm" -v r="$RUNS" \
		'BEGIN { printf "| %s | %.2f | %.0f | %.2f | %.0f | %.1f | %.1f | %d |\n", n, oc, om, fc, fm, fc / oc, fm / om, r }'
done
exit $status
