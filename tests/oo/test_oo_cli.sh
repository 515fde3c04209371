#!/usr/bin/env bash
# test_oo_cli.sh FACET TESTDIR — `facet oo` end to end: --format json,
# --table, --trace, --generate, --help, and exit codes and messages on bad
# input. Expected values are the lesson's (§3) or counted by hand.
set -u
facet=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_exit CODE CMD... : run, keep stdout/stderr in $tmp/out, $tmp/err
expect_exit() {
	local want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	[ "$got" = "$want" ] || fail "exit $got (want $want): $*; stderr: $(head -c 300 "$tmp/err")"
}
has() { grep -qF -- "$2" "$tmp/$1" || fail "$1 of the last command lacks: $2"; }

# --help and usage errors
expect_exit 0 "$facet" oo --help
has out "usage: facet oo --algo A"
has out "--generate"
expect_exit 2 "$facet" oo
has err "give --algo A, --table or --generate"
expect_exit 2 "$facet" oo --algo foo "$dir/running.oo"
has err "unknown algorithm 'foo'"
expect_exit 2 "$facet" oo --algo cha
has err "--algo needs a FILE.oo"
expect_exit 2 "$facet" oo --algo cha --format xml "$dir/running.oo"
has err "unknown format 'xml'"
expect_exit 2 "$facet" oo --bogus
has err "unknown option '--bogus'"
expect_exit 2 "$facet" oo --generate --difficulty impossible
has err "unknown difficulty 'impossible'"
expect_exit 2 "$facet" oo --generate --seed -3
has err "--seed wants an integer >= 0"

# bad programs: exit 1, file:line:col and the problem on stderr
printf 'class A\nfunc main {\n  var x: Circel\n}\n' >"$tmp/bad.oo"
expect_exit 1 "$facet" oo --algo cha "$tmp/bad.oo"
has err "$tmp/bad.oo:3:10: unknown class 'Circel'"
printf 'class S\nclass C extends S\nfunc main {\n  var c: C\n  c = new S\n}\n' >"$tmp/bad.oo"
expect_exit 1 "$facet" oo --algo rta "$tmp/bad.oo"
has err "bad.oo:5:3: ill-typed assignment: new S is not a C, the type of 'c'"
expect_exit 1 "$facet" oo --algo cha "$tmp/missing.oo"
has err "missing.oo: cannot open"
expect_exit 1 "$facet" oo --table "$dir/running.oo" "$tmp/bad.oo"
has err "bad.oo:5:3"

expect_exit 1 "$facet" oo --algo dyn --max-states 3 "$dir/zoo.oo"
has err "zoo.oo: dynamic exploration stopped after 3 states"

# --format json: the DESIGN.md contract, checked with python's json module
for algo in cha rta xta vta pta dyn; do
	expect_exit 0 "$facet" oo --algo "$algo" --format json "$dir/running.oo"
	cp "$tmp/out" "$tmp/$algo.json"
done
python3 - "$tmp" <<'PY' || fail "json contract"
import json, sys
for algo, edges in [("cha", 21), ("rta", 12), ("xta", 9), ("vta", 8), ("pta", 8), ("dyn", 6)]:
    d = json.load(open(f"{sys.argv[1]}/{algo}.json"))
    assert d["algo"] == algo, d["algo"]
    assert d["edges"] == edges, (algo, d["edges"])
    assert [s["label"] for s in d["sites"]] == ["s1", "s2", "s3", "s4", "s5", "s7", "s6"]
    for s in d["sites"]:
        assert s["targets"] == sorted(s["targets"]), s
        assert set(s) >= {"label", "body", "targets"}
    assert "unused" not in d["reachable"] and d["reachable"][0] == "main"
    assert sum(len(s["targets"]) for s in d["sites"]) == d["edges"]
PY
expect_exit 0 "$facet" oo --algo rta --format json "$dir/running.oo"
has out '{"label": "s1", "body": "main", "targets": ["Circle.area", "Square.area"]}'
expect_exit 0 "$facet" oo --algo xta --format json --trace "$dir/running.oo"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["trace"]["columns"][1]=="S_main"; assert d["trace"]["rows"][1][5]=="{Circle, Square}"' "$tmp/out" || fail "xta json trace"

# text output: per-site targets and the reachable bodies
expect_exit 0 "$facet" oo --algo xta "$dir/running.oo"
has out "xta: 9 edges, 6 reachable bodies"
has out "reachable: main, report, Shape.draw, Circle.area, Square.area, Square.draw"
grep -qE '^s1 +main +Circle\.area$' "$tmp/out" || fail "xta s1 line"
grep -qE '^s6 +unused +\(body unreachable\)$' "$tmp/out" || fail "xta s6 line"

# --trace: the lesson's tables
expect_exit 0 "$facet" oo --algo cha --trace "$dir/running.oo"
has out "CHA worklist (Algorithm 20.1.5)"
grep -qE '^7 +Shape\.draw +s7 +Circle\.area, Cube\.area, Shape\.area, Square\.area +—$' "$tmp/out" || fail "cha step 7"
expect_exit 0 "$facet" oo --algo rta --trace "$dir/running.oo"
has out "RTA rounds (Algorithm 20.1.6)"
has out "s3, s5 → {Shape.draw, Square.draw}; s4, s7 → {Circle.area, Square.area}"
has out "s1 += Square.area; s2 += Square.draw"
has out "none: fixed point"
grep -qE '^1 +main +\{Circle\} +main, \+report, \+Shape\.draw, \+Circle\.area +s1 → \{Circle\.area\}; s2 → \{Shape\.draw\}$' "$tmp/out" || fail "rta round 1"
has out "rta: 12 edges"
expect_exit 0 "$facet" oo --algo xta --trace "$dir/running.oo"
grep -qE '^round +S_main +@log +S_Circle\.area +S_Shape\.draw +S_report +S_Square\.area +S_Square\.draw$' "$tmp/out" || fail "xta header"
grep -qE '^2 +\{Circle\} +\{Circle\} +\{Circle\} +\{Circle\} +\{Circle, Square\} +\{Square\} +\{Square\}$' "$tmp/out" || fail "xta round 2"
grep -qE '^3 +\(no change\)$' "$tmp/out" || fail "xta round 3"
for algo in vta pta dyn; do
	expect_exit 0 "$facet" oo --algo "$algo" --trace "$dir/running.oo"
done

# --table: §3's last table, and totals over two files
expect_exit 0 "$facet" oo --table "$dir/running.oo"
grep -qE 'running\.oo +s3 +3 +2 +2 +1 +1 +1$' "$tmp/out" || fail "table s3 row"
grep -qE 'running\.oo +edges +21 +12 +9 +8 +8 +6$' "$tmp/out" || fail "table edges row"
grep -qE 'running\.oo +reachable +9 +6 +6 +6 +6 +6$' "$tmp/out" || fail "table reachable row"
expect_exit 0 "$facet" oo --table "$dir/running.oo" "$dir/zoo.oo"
grep -qE '^all files +edges +43 +29 +23 +20 +20 +16$' "$tmp/out" || fail "table totals (21+22, 12+17, 9+14, 8+12, 8+12, 6+10)"
expect_exit 0 "$facet" oo --table --format json "$dir/running.oo"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["columns"]==["file","site","cha","rta","xta","vta","pta","dyn"]' "$tmp/out" || fail "table json"

# --generate: deterministic, type-correct, and the pathological family
expect_exit 0 "$facet" oo --generate --seed 5 --difficulty hard
cp "$tmp/out" "$tmp/gen1.oo"
expect_exit 0 "$facet" oo --generate --seed 5 --difficulty hard
cmp -s "$tmp/out" "$tmp/gen1.oo" || fail "--generate is not deterministic"
for d in easy medium hard; do
	"$facet" oo --generate --seed 1 --difficulty $d >"$tmp/g-$d.oo" || fail "generate seed 1 $d"
done
expect_exit 0 "$facet" oo --table "$tmp/g-easy.oo" "$tmp/g-medium.oo" "$tmp/g-hard.oo"
has out "all files"
# "-" reads standard input
"$facet" oo --algo cha - <"$dir/running.oo" >"$tmp/out" 2>"$tmp/err" || fail "stdin"
has out "cha: 21 edges, 9 reachable bodies (<stdin>)"

expect_exit 0 "$facet" oo --generate --pathological 10 --factory
cp "$tmp/out" "$tmp/p10.oo"
expect_exit 0 "$facet" oo --table "$tmp/p10.oo"
# P_10 + factory: CHA 10·11, RTA 10·10, the others 10
grep -qE 'p10\.oo +edges +110 +100 +10 +10 +10 +10$' "$tmp/out" || fail "P_10 + factory edges"

if [ "$failures" -ne 0 ]; then
	echo "$failures CLI check(s) failed" >&2
	exit 1
fi
echo "all facet oo CLI checks passed"
