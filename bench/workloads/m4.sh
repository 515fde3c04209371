# m4: the checks extracted from the GNU m4 manual (checks/check-them over
# every numbered example: each builtin, diversions, quoting and comments,
# frozen files, traces, debugging, syscmd/esyscmd, regexps, format, eval,
# m4wrap, include paths), the stack-overflow test, the example macro
# libraries (forloop, foreach, stack, curry, hanoi, ...), then the command
# line: -P prefixed builtins, -G traditional, -F/-R freezing and reloading,
# -d flags and --trace, -D/-U, -s sync lines, -E fatal warnings, stdin.
set -u
mkdir -p checks
cp "$TREE"/checks/[0-9][0-9][0-9].* "$TREE"/checks/check-them checks/
cd checks
AWK=awk ./check-them -I "$TREE/examples" -m "$PROG" [0-9][0-9][0-9].* >check-them.log 2>&1
echo "check-them -> $? ($(tail -2 check-them.log | tr '\n' ' '))"
cd ..
E=$TREE/examples
run() { "$PROG" "$@" >/dev/null 2>&1 </dev/null; echo "m4 $* -> $?" | cut -c1-120; }
for f in "$E"/*.m4; do run -I "$E" "$f"; done
cat >lib.m4 <<'M4'
divert(-1)
define(`upcase', `translit(`$*', `a-z', `A-Z')')
define(`repeat', `ifelse(`$1', `0', `', `$2`'repeat(decr(`$1'), `$2')')')
define(`sum', `ifelse(`$#', `1', `$1', `eval(`$1' + sum(shift($@)))')')
pushdef(`x', `one')pushdef(`x', `two')
divert`'dnl
M4
cat >main.m4 <<'M4'
upcase(hello world) repeat(5, `ab') sum(1, 2, 3, 4, 5)
x popdef(`x')x
format(`%5d|%-6s|%x|%.3f|%c', 42, `str', 255, 3.14159, 65)
eval(`(2 ** 10) % 1000 + 0x1F - 010 * 3', 16) eval(`7 / 2 > 3 || 1 && !0') eval(`-5 >> 1 ^ 3 & ~1')
regexp(`GNUs not Unix', `\w\(\w+\)$', `*** \& *** \1 ***') patsubst(`hello world', `o', `0')
index(`gnus, gnats, and armadillos', `nat') substr(`gnus, gnats', 6, 5) len(`abcdef')
changequote([, ])define([q], [quoted])q changequote`'changecom(`@@')@@ comment q
ifdef(`upcase', `defined', `undefined') ifelse(`a', `b', `eq', `ne') defn(`upcase')
indir(`upcase', `indirect') builtin(`len', `builtin') dumpdef(`repeat')
divert(2)second divert(1)first divert(0)undivert(1)undivert(2)
m4wrap(`wrapped at end
')syscmd(`echo from syscmd') esyscmd(`printf esyscmd') sysval
include(`lib.m4')sinclude(`nonexistent.m4')__file__ __line__ __program__
traceon(`sum')sum(7, 8)traceoff(`sum')
errprint(`to stderr
')mkstemp(`tmpXXXXXX') maketemp(`tmpXXXXXX')
define(`loop', `ifelse(eval($1 < 20), 1, `$1 loop(incr($1))')')loop(0)
shift(a, b, c) $$ decr(5) incr(5) translit(`abcdef', `a-c', `A')
undefine(`x')x defn(`x')
M4
run main.m4; run -P -I . main.m4; run -G main.m4; run -s main.m4; run -E main.m4
run -d -I . main.m4; run -daeqtxflpic --debugfile=dbg.log main.m4; run -t sum -t upcase main.m4; run --trace=repeat -dV main.m4
run -D NAME=value -D OTHER -U len main.m4; run -F frozen.m4f lib.m4; run -R frozen.m4f main.m4
run -H 509 -L 100 main.m4; run -W 'upc' main.m4 2>/dev/null; run -g main.m4; run -Q main.m4; run --safer main.m4 2>/dev/null
printf 'define(`a'"'"', `b'"'"')a\nlen(`xyz'"'"')\n' | "$PROG" >/dev/null; echo "stdin $?"
run nonexistent.m4; run --nosuch-option
printf 'undivert(`main.m4'"'"')eval(1/0)unknown(' | "$PROG" >/dev/null 2>&1; echo "errors $?"
exit 0
