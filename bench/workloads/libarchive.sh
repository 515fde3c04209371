# libarchive: bsdtar creating, listing and extracting archives of a source
# directory in several formats and compressions (tar variants, cpio, zip,
# 7zip, xar, shar, iso9660; gzip, bzip2, xz, lzma), with filters and options.
set -u
src=$TREE/libarchive
mkdir -p out
n=0
for fmt in ustar pax gnutar cpio newc zip 7zip shar iso9660 v7tar; do
	"$PROG" -cf "a.$fmt" --format "$fmt" -C "$src" . 2>/dev/null || { echo "create $fmt failed"; continue; }
	"$PROG" -tvf "a.$fmt" >/dev/null 2>&1
	rm -rf out/*; "$PROG" -xf "a.$fmt" -C out 2>/dev/null
	n=$((n + 1))
done
for z in -z -j -J --lzma; do
	"$PROG" -c $z -f "a$z.tar" -C "$src" . && "$PROG" -tf "a$z.tar" >/dev/null && rm -rf out/* && "$PROG" -xf "a$z.tar" -C out
	n=$((n + 1))
done
"$PROG" -cf b.tar --exclude '*.h' -C "$src" . && "$PROG" -tf b.tar | wc -l
"$PROG" -rf b.tar -C "$TREE" README.md 2>/dev/null; "$PROG" -uf b.tar -C "$TREE" NEWS 2>/dev/null
"$PROG" -cf c.zip --format zip --options zip:compression=store -C "$src" . && "$PROG" -tf c.zip >/dev/null
"$PROG" -cf - -C "$src" . | "$PROG" -xf - -C out -s ',^,renamed/,' 2>/dev/null
"$PROG" -czf d.tgz -C "$src" . && "$PROG" -xOf d.tgz ./archive.h >/dev/null 2>&1
"$PROG" -cf e.tar @a.ustar 2>/dev/null && "$PROG" -tf e.tar >/dev/null
"$PROG" --version >/dev/null
echo "$n formats"
exit 0
