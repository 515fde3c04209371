# tcl: tclsh running a selection of Tcl's own test suite (tests/all.tcl,
# one child process per file): the bytecode compiler and engine, strings,
# lists, dicts, expr, namespaces, TclOO, coroutines and NRE, traces,
# interps, channels and transforms, encodings, binary, format/scan, regexp,
# zlib, file commands, exec, events; then scripts made here (a safe interp,
# channel transforms, refchan, a socket pair on 127.0.0.1, after/vwait).
set -u
export TCL_LIBRARY=$TREE/library
mkdir -p tmp
files="append.test apply.test assocd.test basic.test binary.test case.test chan.test cmdAH.test cmdIL.test cmdInfo.test
 cmdMZ.test compExpr.test compile.test concat.test coroutine.test dict.test dstring.test encoding.test error.test eval.test
 execute.test expr.test for.test foreach.test format.test get.test history.test if.test incr.test indexObj.test info.test
 interp.test join.test lindex.test linsert.test list.test listObj.test llength.test lmap.test lrange.test lrepeat.test
 lreplace.test lsearch.test lset.test mathop.test misc.test namespace.test nre.test obj.test oo.test ooNext2.test parse.test
 parseExpr.test pkgMkIndex.test proc.test regexp.test regexpComp.test rename.test scan.test set.test split.test string.test
 stringComp.test subst.test switch.test tailcall.test trace.test unknown.test upvar.test uplevel.test utf.test var.test
 while.test zlib.test ioTrans.test iogt.test fCmd.test fileName.test env.test exec.test event.test timer.test
 unixNotfy.test socket.test"
timeout 900 "$PROG" "$TREE/tests/all.tcl" -tmpdir "$PWD/tmp" -file "$files" >suite.log 2>&1
echo "suite -> $? ($(grep -E '^all.tcl:' suite.log | tr '\n' ' '))"
cat >extra.tcl <<'TCL'
set i [interp create -safe]
$i eval { set x [expr {6 * 7}]; proc f {a} { return [string repeat $a 3] } }
puts [$i eval f ab]; interp alias $i hello {} string toupper; puts [$i eval hello world]; interp delete $i
oo::class create Counter { variable n; constructor {} { set n 0 }; method incr {} { incr n }; method get {} { return $n } }
set c [Counter new]; $c incr; $c incr; puts [$c get]
oo::class create Sub { superclass Counter; method incr {} { next; next } }
set s [Sub new]; $s incr; puts [$s get]
proc gen {} { yield [info coroutine]; for {set i 0} {$i < 3} {incr i} { yield $i } }
coroutine g gen; puts [list [g] [g] [g]]
namespace eval rc {
  proc initialize {c mode} { return {initialize finalize watch read write} }
  proc finalize {c} {}
  proc watch {c e} {}
  proc read {c n} { return [string repeat x $n] }
  proc write {c d} { return [string length $d] }
  namespace export *; namespace ensemble create
}
set ch [chan create {read write} rc]; puts [string length [read $ch 10]]; puts -nonewline $ch hello; flush $ch; close $ch
set f [file tempfile name]; chan configure $f -encoding utf-8 -translation crlf; puts $f "line ü"; close $f
set f [open $name]; close $f
set f [open $name w]; zlib push gzip $f; puts $f [string repeat "data " 1000]; close $f
set f [open $name]; zlib push gunzip $f; puts [string length [read $f]]; close $f; file delete $name
set srv [socket -server {apply {{s a p} { fconfigure $s -buffering line; puts $s [gets $s]; close $s }}} -myaddr 127.0.0.1 0]
set port [lindex [fconfigure $srv -sockname] 2]
set cl [socket 127.0.0.1 $port]; fconfigure $cl -buffering line; puts $cl ping
after 50 {set done 1}; vwait done; puts [gets $cl]; close $cl; close $srv
trace add variable ::tv write {apply {{a b op} { puts "traced $op" }}}; set ::tv 1
puts [lsort -dictionary -decreasing {a10 a2 a1 B3}] ; puts [dict map {k v} {a 1 b 2} { expr {$v * 2} }]
puts [regsub -all {(\w)(\w)} "abcdef" {\2\1}]; puts [binary format H* deadbeef]; puts [clock format 0 -gmt 1]
puts [encoding convertto unicode "x"]; puts [format "%08.3f %x %s" 3.14159 255 str]; puts [scan "12 ab" "%d %s"]
TCL
"$PROG" extra.tcl >extra.log 2>&1; echo "extra -> $?"
echo 'puts [expr {2 ** 100}]; exit 3' | "$PROG" >/dev/null 2>&1; echo "stdin -> $?"
"$PROG" /nonexistent.tcl >/dev/null 2>&1; echo "missing -> $?"
printf 'proc { \n' | "$PROG" >/dev/null 2>&1; echo "syntax -> $?"
exit 0
