# jq: the upstream test suites run by the program itself (--run-tests over
# tests/jq.test, onig.test, base64.test with -L tests/modules), then the
# command line: raw/compact/tab/indent/sorted/ASCII output, slurp, null
# input, --arg/--argjson/--args/--jsonargs, --slurpfile/--rawfile,
# --stream, --seq, -e exit status, modules (import/include/-L), formats
# (@csv @tsv @sh @base64 @base64d @uri @html @json @text), dates, paths,
# reduce/foreach/limit/label, input/inputs, env, getpath/setpath, regexes
# (test/match/capture/sub/gsub/splits through libonig), SQL-style builtins,
# error handling (try/catch/error, ?//) and malformed JSON.
set -u
T=$TREE/tests
for t in jq.test onig.test base64.test; do
	[ -f "$T/$t" ] && { "$PROG" -L "$T/modules" --run-tests "$T/$t" >"run-$t.log" 2>&1; echo "$t -> $? ($(tail -1 "run-$t.log"))"; }
done
cat >data.json <<'JSON'
{"users":[{"name":"ann","age":31,"tags":["a","b"],"joined":"2015-03-05T23:51:47Z"},
 {"name":"bob","age":27,"tags":[],"joined":"2019-11-20T08:00:00Z","extra":{"k":[1,2,{"z":null}]}},
 {"name":"cy","age":45,"tags":["c"],"joined":"2001-01-01T00:00:00Z"}],
 "meta":{"count":3,"ok":true,"pi":3.14159,"big":1e300,"s":"caf\u00e9 \"q\" <&>"}}
JSON
seq 1 500 | sed 's/.*/{"n":&,"s":"v&"}/' >stream.json
printf '{"a":1}\n[1,2\n' >bad.json
mkdir -p lib; printf 'def twice: . * 2;\ndef greet(n): "hi " + n;\n' >lib/m.jq
printf '{"conf": true}\n' >lib/d.json
run() { "$PROG" "$@" >/dev/null 2>&1; echo "jq $* -> $?" | cut -c1-160; }
run . data.json; run -c . data.json; run --tab . data.json; run --indent 7 . data.json; run -S . data.json
run -a . data.json; run -C . data.json; run -j '.users[].name' data.json; run -r '.users[] | "\(.name) \(.age)"' data.json
run -s 'map(.n) | add' stream.json; run -n '[range(10)] | map(. * .)'; run -n 'input' stream.json; run -n '[inputs | .n] | length' stream.json
run --arg x 5 --argjson y '{"a":[1]}' -n '[$x, $y, $ARGS]'; run -n '$ARGS' --args a b c; run -n '$ARGS' --jsonargs 1 '{"k":2}' null
run --slurpfile s stream.json --rawfile r data.json -n '[$s | length, ($r | length)]'
run --stream -c . data.json; run -c 'tostream' data.json; run -c 'fromstream(tostream)' data.json; run --seq . data.json
run -e '.meta.ok' data.json; run -e '.meta.none' data.json; run -e 'false' data.json
run -L lib -n 'import "m" as m; 3 | m::twice'; run -L lib -n 'include "m"; greet("x")'; run -L lib -n 'import "d" as $d; $d'
run -r '.users[] | [.name, .age] | @csv, @tsv, @sh' data.json; run -r '.meta.s | @base64, (@base64 | @base64d), @uri, @html, @json, @text' data.json
run '.users[].joined | fromdate | todate, (gmtime | mktime), strftime("%A %B %d %Y")' data.json
run -n 'now | type'; run '.users[0].joined | strptime("%Y-%m-%dT%H:%M:%SZ") | mktime' data.json
run -c '[paths], [leaf_paths], getpath(["users",1,"extra","k"]), setpath(["meta","new"]; 1), delpaths([["users"]])' data.json
run -c 'reduce .users[] as $u (0; . + $u.age), [foreach .users[] as $u (0; . + 1; [., $u.name])], [limit(2; .users[])], first(.users[]), label $out | .users[] | if .age > 30 then ., break $out else . end' data.json
run -c '.users | group_by(.age > 30), unique_by(.name), sort_by(.age), min_by(.age), max_by(.age), (map(.tags) | flatten), (map({(.name): .age}) | add), (INDEX(.name)), to_entries, (map(.age) | add / length)' data.json
run -c '.users[] | .name | test("^a"), [match("[a-z]"; "g") | .offset], capture("(?<first>.)(?<rest>.*)"), sub("n"; "N"), gsub("[aeiou]"; "_"), [splits("b")], ascii_upcase, explode, (explode | implode), ltrimstr("a"), startswith("b"), split("")' data.json
# one filter a run, so that one filter's runtime error does not hide the others
while IFS= read -r e; do run -c "$e" data.json; done <<'FILTERS'
walk(if type == "number" then . + 1 else . end)
[.. | numbers]
(tojson | fromjson)
(.meta | keys, has("ok"), length, del(.pi), with_entries(.value |= tostring))
any(.users[]; .age > 40)
all(.users[]; .age > 20)
([.users[].age] | IN(.[]; 27))
env.HOME
$ENV.PATH
input_filename
$__loc__
(.users | map(select(.tags | index("a"))) | length)
([.users[].tags[]] | join("-"))
("abc" | ascii_downcase | @text)
(infinite | isinfinite)
(nan | isnan)
([1,[2]] | getpath([1,0]))
splits("x"; null)?
try error("x") catch .
(.nope.deeper // "default")
(.users[] | .age? // 0)
(try (1 / 0) catch "div")
([.[]?])
(.meta.s | tostring | ltrimstr("c"))
({} | .a.b.c = 1)
(.users |= map(del(.tags)))
(.users[0] += {"x": 1})
(.meta.count -= 1)
([limit(3; repeat(1))])
([range(0; 10; 3)])
(input_line_number)
(splits("a")? // null)
("1,2" | split(",") | map(tonumber))
(tostring | length)
([.users[] | .age] | @json)
getpath(["a","b"])
([1,2,3] | combinations(2)?)
([[1,2],[3,4]] | [combinations])
([3,1,2] | sort | bsearch(2))
("a,b" | ascii)
("x" * 3)
@base32 "\(.meta.s)"
(@base32 "x" | @base32d)
(.meta.pi | floor, sqrt, pow(.; 2), log, exp10?, significand?, frexp?, ldexp(.; 2)?)
([.users[].age] | min, max, add)
(splits(", ")?)
("2015-03-05T23:51:47Z" | fromdateiso8601 | todateiso8601)
(getpath(["meta"]) | to_entries | from_entries)
([paths(type == "number")])
(tojson | test("pi"))
("test" | @sh)
(1 as $x | 2 as $y | [$x, $y, $__prog_args?])
(input_line_number)
(ltrimstr(1))
(splits(1)?)
(.[] |= .)
(def f(g): [g, g]; f(.meta.count))
(def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac)
([recurse(if . < 5 then . + 1 else empty end)] | length)
(env | type)
(builtins | length)
("\u00e9" | utf8bytelength)
($__loc__.line)
(getpath(["x"]) as [$a] | $a)
(. as {users: [$first]} | $first.name)
(.users[] as {name: $n, $age} | [$n, $age])
(.users | .[1:2], .[-1:])
("abc" | .[1:])
([.users[] | .age] | indices(27))
("a b c" | indices(" "))
(splits("b")?)
FILTERS
run . bad.json; run -n '1 +'; run '.[' data.json; run -n '{a:1} | .a.b'; run --argjson x '{bad' -n '$x'; run -n 'error({"code": 1})'; run -n 'halt_error'; run -n '"x" | halt_error(3)'; run --nosuch-option .; run -f /nonexistent .
printf '{"a":[1,2,3]}' | "$PROG" -c '.a | map(. + 1)' >/dev/null; echo "stdin $?"
printf '1 2 3' | "$PROG" -s -c 'add' >/dev/null; echo "slurp stdin $?"
printf 'line one\nline two\n' | "$PROG" -R -c 'split(" ")' >/dev/null; echo "raw $?"
printf 'line one\nline two\n' | "$PROG" -R -s -c 'split("\n")' >/dev/null; echo "raw slurp $?"
exit 0
