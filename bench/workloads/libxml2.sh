# libxml2: xmllint over the XML, HTML and DTD files of libxml2's source tree
# and generated documents: parse, validate, format, canonicalize, XPath,
# streaming reader, SAX, XInclude, HTML mode, entities, namespaces.
set -u
mapfile -t xml < <(find "$TREE" -name '*.xml' -size -2M | head -40)
mapfile -t html < <(find "$TREE/doc" -name '*.html' | head -30)
cat >gen.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE library [
  <!ELEMENT library (book+)>
  <!ELEMENT book (title, author*, price?)>
  <!ATTLIST book id ID #REQUIRED lang CDATA "en">
  <!ELEMENT title (#PCDATA)> <!ELEMENT author (#PCDATA)> <!ELEMENT price (#PCDATA)>
  <!ENTITY pub "Example &amp; Sons">
]>
<library xmlns:x="urn:x">
  <book id="b1"><title>First &pub;</title><author>A</author><price>10</price></book>
  <book id="b2" lang="de"><title><![CDATA[Second <raw>]]></title><author>B</author><author>C</author></book>
  <!-- comment --><?pi data?>
  <book id="b3"><title>Third ü €</title></book>
</library>
XML
printf '<?xml version="1.0"?>\n<doc xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="gen.xml"/></doc>\n' >inc.xml
run() { "$PROG" "$@" >/dev/null 2>&1 || true; }
run --valid --noout gen.xml
run --noent --format gen.xml
run --c14n gen.xml; run --c14n11 gen.xml; run --exc-c14n gen.xml
run --xpath '//book[author]/title' gen.xml
run --xpath 'count(//author)' gen.xml
run --stream --valid gen.xml
run --sax gen.xml; run --sax1 gen.xml
run --xinclude inc.xml
run --debug gen.xml; run --shell gen.xml </dev/null
run --encode ISO-8859-1 gen.xml
run --dropdtd --nsclean --nocdata gen.xml
run --recover --noout /dev/null
for f in "${xml[@]}"; do
	run --noout "$f"; run --format "$f"; run --stream "$f"; run --c14n "$f"; run --xpath '//*[1]' "$f"
done
for f in "${html[@]}"; do
	run --html --noout "$f"; run --html --format "$f"; run --html --xmlout "$f"
done
echo "${#xml[@]} xml, ${#html[@]} html"
exit 0
