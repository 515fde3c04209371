# gawk: the upstream test suite (make -k basic unix-tests gawk-extensions
# in a copy of test/, run with the instrumented program as AWKPROG: ~700
# scripts over the whole language, regexps, I/O redirections, getline,
# printf, arrays, functions, sorting, switch, indirect calls, namespaces,
# profiling, debugging and error paths), then the persistent-memory
# allocator (GAWK_PERSIST_FILE), the pretty printer (-o), the profiler
# (-p), --lint, --posix, --traditional, --sandbox, -M absent, and a larger
# data-processing script over generated CSV.
set -u
cp -r "$TREE/test" test
ln -s "$TREE/awklib" awklib 2>/dev/null; ln -s "$TREE/doc" doc 2>/dev/null
(cd test && timeout 700 make -k basic unix-tests gawk-extensions AWKPROG="$PROG" >../suite.log 2>&1)
echo "suite -> $? ($(grep -c 'FAIL\|failed' suite.log) failure lines)"
for i in $(seq 1 3000); do echo "$i,name$((i % 37)),$((i * 7919 % 1000)).$((i % 100)),$((i % 5))"; done >data.csv
cat >report.awk <<'AWK'
BEGIN { FS = ","; OFS = "\t"; PROCINFO["sorted_in"] = "@val_num_desc" }
{ sum[$2] += $3; cnt[$2]++; if ($3 > max[$2]) max[$2] = $3; grp[$4][$2] = $3
  s = sprintf("%08.2f|%-10s|%x", $3, toupper($2), $1); if (s ~ /^0+1/) lead++
  gsub(/[aeiou]/, "_", $2); n = split($2, parts, "_"); tot += n
  line[NR] = $0 }
END {
  for (k in sum) printf "%s %d %.2f %.2f\n", k, cnt[k], sum[k] / cnt[k], max[k] > "/dev/null"
  PROCINFO["sorted_in"] = "@ind_str_asc"
  for (g in grp) { m = 0; for (k in grp[g]) m++; print g, m > "/dev/stderr" }
  n = asort(sum, sorted); asorti(cnt, names, "@ind_str_desc")
  print n, length(names), lead, tot, strftime("%Y", 0, 1), (systime() > 0), gensub(/(a)(b)/, "\\2\\1", "g", "abab")
  cmd = "sort -n | head -3"; for (i = 1; i <= 10; i++) print (i * 37) % 11 | cmd; close(cmd)
  while (("echo x y z" | getline w) > 0) print w; close("echo x y z")
  f = "tmp.txt"; print "one" > f; print "two" >> f; close(f); while ((getline l < f) > 0) c++; print c
  print substr("hello", 2, 3), index("hello", "l"), match("foobar", /o+b/), RSTART, RLENGTH, sprintf("%c%c", 72, "i")
  print and(12, 10), or(12, 3), xor(5, 3), lshift(1, 4), rshift(256, 2), (compl(0) > 0), strtonum("0x1F"), mktime("2020 01 01 00 00 00")
  print isarray(grp), typeof(grp), typeof(1), typeof("s"), typeof(@/re/), patsplit("a1b22c333", arr, /[0-9]+/), arr[2]
  fn = "toupper"; print @fn("indirect")
  switch (NR % 3) { case 0: print "zero"; break; case /1/: print "one"; break; default: print "other" }
}
AWK
"$PROG" -f report.awk data.csv >/dev/null 2>&1; echo "report -> $?"
"$PROG" -o/dev/null -f report.awk data.csv >/dev/null 2>&1; echo "pretty -> $?"
"$PROG" -p/dev/null -f report.awk data.csv >/dev/null 2>&1; echo "profile -> $?"
"$PROG" --lint -f report.awk data.csv >/dev/null 2>&1; echo "lint -> $?"
"$PROG" --posix 'BEGIN { x = 1; print x + 1 }' >/dev/null 2>&1; echo "posix -> $?"
"$PROG" --traditional '{ n += NF } END { print n }' data.csv >/dev/null 2>&1; echo "traditional -> $?"
"$PROG" --sandbox 'BEGIN { print "x" > "/tmp/no" }' >/dev/null 2>&1; echo "sandbox -> $?"
"$PROG" -v RS='' -v FPAT='[^,]*' '{ c += NF } END { print c }' data.csv >/dev/null 2>&1; echo "fpat -> $?"
"$PROG" -e 'BEGIN { printf "%s %d\n", "bad" ' >/dev/null 2>&1; echo "syntax error -> $?"
"$PROG" 'BEGIN { x[1] = 1; x = 2 }' >/dev/null 2>&1; echo "fatal -> $?"
# The persistent heap holds code addresses: both runs without address randomisation (the
# instrumented program is position-independent; gawk's own build links it -no-pie).
truncate -s 40M heap.pma
GAWK_PERSIST_FILE=$PWD/heap.pma setarch "$(uname -m)" -R "$PROG" 'BEGIN { for (i = 0; i < 5000; i++) keep[i] = i * i; total = 7 }' >/dev/null 2>&1; echo "pma store -> $?"
GAWK_PERSIST_FILE=$PWD/heap.pma setarch "$(uname -m)" -R "$PROG" 'BEGIN { print length(keep), total, keep[70] }' >/dev/null 2>&1; echo "pma load -> $?"
exit 0
