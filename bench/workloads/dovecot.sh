# dovecot: doveadm without a dovecot installation (the benchmark builds only
# doveadm and its libraries; -O skips the missing configuration): password
# hashing and verification in every scheme, the fs commands on the posix
# driver, the dict commands on a file dict, usage and error paths. Mail
# commands need a running auth service and are not exercised: a partial
# workload, said so in RESULTS.md.
set -u
d="$PROG -O"
for s in $($d pw -l 2>/dev/null); do
	h=$($d pw -s "$s" -p secret 2>/dev/null) && $d pw -t "$h" -p secret >/dev/null 2>&1
	$d pw -s "$s" -p secret -u user >/dev/null 2>&1
done
# Explicit rounds only where they are a count (BLF-CRYPT's is an exponent).
$d pw -s SHA512-CRYPT -r 5000 -p secret >/dev/null 2>&1
$d pw -s PBKDF2 -r 2000 -p secret >/dev/null 2>&1
mkdir -p fsroot
for i in $(seq 1 20); do head -c $((i * 1000)) /dev/urandom >"src$i"; done
for i in $(seq 1 20); do
	$d fs put posix prefix="$PWD/fsroot/" "src$i" "dir$((i % 3))/f$i" 2>/dev/null
	$d fs get posix prefix="$PWD/fsroot/" "dir$((i % 3))/f$i" >/dev/null 2>&1
	$d fs stat posix prefix="$PWD/fsroot/" "dir$((i % 3))/f$i" >/dev/null 2>&1
	$d fs copy posix prefix="$PWD/fsroot/" "dir$((i % 3))/f$i" "copy/f$i" >/dev/null 2>&1
done
$d fs iter posix prefix="$PWD/fsroot/" dir1/ >/dev/null 2>&1
$d fs iter-dirs posix prefix="$PWD/fsroot/" "" >/dev/null 2>&1
$d fs delete -R posix prefix="$PWD/fsroot/" copy/ >/dev/null 2>&1
for i in $(seq 1 30); do $d dict set "file:$PWD/dict" "shared/k$i" "v$i" 2>/dev/null; done
$d dict get "file:$PWD/dict" shared/k7 >/dev/null 2>&1
$d dict iter "file:$PWD/dict" shared/ >/dev/null 2>&1
$d dict inc "file:$PWD/dict" shared/n 5 >/dev/null 2>&1
$d dict unset "file:$PWD/dict" shared/k3 >/dev/null 2>&1
$d help >/dev/null 2>&1
$d help pw >/dev/null 2>&1
$d nosuchcommand >/dev/null 2>&1
"$PROG" pw -l >/dev/null 2>&1   # without -O: the configuration error path
exit 0
