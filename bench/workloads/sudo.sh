# sudo: no sudoers policy is installed for this build (its configured
# sysconfdir is /usr/local/etc and the benchmark does not write there), so
# only the front end's paths run: version, help, option parsing, and the
# policy plugin failing to open its sudoers file. A thin workload, said so in
# RESULTS.md.
set -u
"$PROG" -V >/dev/null 2>&1
"$PROG" -h >/dev/null 2>&1
"$PROG" -l >/dev/null 2>&1
"$PROG" -n true >/dev/null 2>&1
"$PROG" -u nobody -n id >/dev/null 2>&1
"$PROG" -k >/dev/null 2>&1
"$PROG" --bogus >/dev/null 2>&1
exit 0
