# expat: xmlwf over the upstream tree's large test files (RDF, namespaces,
# records) and documents made here: internal and external DTDs, general and
# parameter entities (-x, -p), namespaces (-n), processing instructions,
# CDATA, comments, notations (-N), standalone (-s), UTF-8, UTF-16 LE/BE with
# BOMs, ISO-8859-1 and US-ASCII, an unknown encoding (-w), forced encodings
# (-e), every output form (-d canonical, -m meta, -c copy, -t timing), no
# mmap (-r), the amplification limits (-a, -b: billion laughs), continue on
# error (-k) and malformed documents.
set -u
cp "$TREE"/testdata/largefiles/*.xml "$TREE"/testdata/largefiles/*.rdf . 2>/dev/null
cat >ext.dtd <<'DTD'
<!ELEMENT doc (item+, note?)>
<!ELEMENT item (#PCDATA | b)*>
<!ELEMENT b (#PCDATA)>
<!ELEMENT note EMPTY>
<!ATTLIST item id ID #REQUIRED kind (x|y|z) "x" ref IDREF #IMPLIED>
<!ATTLIST note src ENTITY #IMPLIED>
<!ENTITY % inner "<!ENTITY fromparam 'param-text'>">
%inner;
<!ENTITY ext SYSTEM "ext.ent">
<!NOTATION gif SYSTEM "viewer">
<!ENTITY pic SYSTEM "pic.gif" NDATA gif>
DTD
printf 'external <b>entity</b> text\n' >ext.ent
cat >doc.xml <<'XML'
<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE doc SYSTEM "ext.dtd" [
  <!ENTITY local "local &amp; text">
  <!ATTLIST doc xmlns:p CDATA #FIXED "urn:p">
]>
<?app instruction data?>
<doc>
  <!-- a comment -->
  <item id="i1" kind="y">one &local; &#233; &#x20AC; <b>bold</b></item>
  <item id="i2" ref="i1"><![CDATA[raw <markup> & stuff]]>&ext;&fromparam;</item>
  <item id="i3">ü€ 😀</item>
  <note src="pic"/>
</doc>
XML
cat >ns.xml <<'XML'
<?xml version="1.0"?>
<r xmlns="urn:default" xmlns:a="urn:a" xmlns:b="urn:b" a:x="1">
  <a:e b:y="2"><b:f/><g xmlns="">plain</g></a:e>
  <a:e xmlns:a="urn:other" a:z="3"/>
</r>
XML
cat >sa.xml <<'XML'
<?xml version="1.0" standalone="yes"?>
<!DOCTYPE s [ <!ELEMENT s (#PCDATA)> <!ENTITY e "inline"> ]>
<s>&e; text</s>
XML
printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<t>caf\351 na\357ve</t>\n' >latin1.xml
printf '<?xml version="1.0" encoding="US-ASCII"?>\n<t a="v">plain ascii</t>\n' >ascii.xml
printf '<?xml version="1.0" encoding="windows-1252"?>\n<t>\223quoted\224</t>\n' >cp1252.xml
sed 's/encoding="UTF-8"/encoding="UTF-16"/' doc.xml | iconv -f UTF-8 -t UTF-16LE 2>/dev/null | { printf '\377\376'; cat; } >utf16le.xml
iconv -f UTF-8 -t UTF-16BE ns.xml 2>/dev/null | { printf '\376\377'; cat; } >utf16be.xml
{ printf '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
  p=lol; for i in 1 2 3 4 5 6 7 8; do printf '<!ENTITY lol%d "&%s;&%s;&%s;&%s;&%s;&%s;&%s;&%s;&%s;&%s;">\n' $i $p $p $p $p $p $p $p $p $p $p; p=lol$i; done
  printf ']>\n<lolz>&lol8;</lolz>\n'; } >laughs.xml
{ printf '<?xml version="1.0"?>\n<big>\n'; for i in $(seq 1 4000); do printf '<row n="%d" v="value %d"><c>cell &amp; %d</c><!-- c --></row>\n' $i $i $i; done; printf '</big>\n'; } >big.xml
printf '<a><b></a>\n' >bad1.xml
printf '<?xml version="1.0"?>\n<a x="1" x="2"/>\n' >bad2.xml
printf '<a>&undefined;</a>\n' >bad3.xml
printf '\000\001garbage' >bad4.xml
printf '<?xml version="1.0" encoding="no-such-enc"?><a/>' >bad5.xml
printf '<a>\n' >bad6.xml
mkdir -p out
run() { "$PROG" "$@" >/dev/null 2>&1; echo "xmlwf $* -> $?"; }
all="doc.xml ns.xml sa.xml latin1.xml ascii.xml cp1252.xml utf16le.xml utf16be.xml big.xml $(ls *.rdf nes96.xml ns_att_test.xml recset.xml 2>/dev/null | tr '\n' ' ')"
for f in $all; do
	run "$f"; run -r "$f"; run -n "$f"; run -d out "$f"; run -m -d out "$f"; run -c -d out "$f"
done
run -x doc.xml; run -p doc.xml; run -x -d out doc.xml; run -p -m -d out doc.xml; run -p -n -d out doc.xml
run -x -N doc.xml; run -s sa.xml; run -s doc.xml; run -x -s doc.xml
run -x utf16le.xml; run -p -m -d out utf16le.xml; run -n -m -d out utf16be.xml
run -w cp1252.xml; run -w -d out cp1252.xml; run -e ISO-8859-1 ascii.xml; run -e UTF-16 utf16le.xml; run -e US-ASCII latin1.xml
run -t big.xml; run -r -t big.xml
run laughs.xml; run -a 2 laughs.xml; run -b 1000 laughs.xml; run -a 1000 -b 100000000 laughs.xml
run -k bad1.xml doc.xml bad2.xml; run bad3.xml; run bad4.xml; run bad5.xml; run bad6.xml; run -r bad1.xml
run -m -d out bad2.xml; run nosuchfile.xml; run -v; run -h
cat doc.xml | "$PROG" -x -m >/dev/null 2>&1; echo "stdin $?"
exit 0
