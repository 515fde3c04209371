# md4c: md2html over md4c's own test inputs (the spec and extension suites)
# and README files, under each dialect and several flag sets.
set -u
n=0
for f in "$TREE"/test/*.txt "$TREE"/*.md; do
	for flags in "" "--github" "--commonmark" "--ftables --fstrikethrough --ftasklists --flatex-math --fwiki-links --funderline" \
		"--fpermissive-autolinks --fcollapse-whitespace --fpermissive-atx-headers" "--fno-indented-code --fverbatim-entities --fno-html-spans" "--full-html --xhtml" "--fno-html"; do
		# shellcheck disable=SC2086
		"$PROG" $flags "$f" >/dev/null || echo "md2html $flags $f: exit $?"
		n=$((n + 1))
	done
done
echo "$n runs"
