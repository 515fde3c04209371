# gdbm: gdbmtool scripted: create a database, store, fetch, iterate, delete,
# reorganize, export and import into a second one, recover, status queries.
set -u
rm -f a.db b.db dump.txt script.gdbm
{
	echo "open a.db"
	for i in $(seq 1 300); do echo "store key$i value$i-$((i * 31))"; done
	echo "fetch key7"; echo "fetch key300"; echo "fetch missing"
	echo "count"; echo "first"; echo "next"; echo "next"
	for i in $(seq 1 100); do echo "delete key$i"; done
	echo "reorganize"; echo "avail"; echo "bucket"; echo "cache"; echo "dir"; echo "header"; echo "status"
	echo "list"
	echo "export dump.txt"
	echo "close"
	echo "open b.db"
	echo "import dump.txt"
	echo "count"
	echo "sync"
	echo "recover"
	echo "quit"
} >script.gdbm
"$PROG" -f script.gdbm >/dev/null 2>gdbm.err || echo "gdbmtool exit $?"
head -5 gdbm.err
"$PROG" b.db count || true
"$PROG" b.db fetch key150 || true
"$PROG" --version >/dev/null
"$PROG" --help >/dev/null
exit 0
