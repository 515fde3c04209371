# tiff: tiffcp (libtiff's codec method tables: none, PackBits, LZW, Deflate,
# JPEG (libjpeg), LZMA, CCITT G3/G4, SGILog; old-style JPEG and LogLuv
# decoding; predictors) over the upstream test images: every image through
# every codec, then decoded back; strips and tiles of several sizes, contig
# and separate planes, byte orders, fill orders, BigTIFF, multi-image
# append and directory selection, the bias option, and broken files
# (IFD loops, truncated data).
set -u
I=$TREE/test/images
imgs=$(ls "$I"/*.tif "$I"/*.tiff 2>/dev/null)
run() { "$PROG" "$@" >/dev/null 2>&1; echo "tiffcp $* -> $?" | sed "s|$I/||g" | cut -c1-150; }
n=0
for f in $imgs; do
	n=$((n + 1))
	for c in none packbits lzw lzw:2 zip zip:2:p9 lzma jpeg jpeg:50 jpeg:r g3 g3:2d:fill g4 sgilog; do
		out="o$n-${c//:/_}.tif"
		run -c "$c" "$f" "$out"
		[ -s "$out" ] && run -c none "$out" "d$n-${c//:/_}.tif"
	done
	run -t -w 32 -l 32 -c lzw "$f" "t$n.tif"; [ -s "t$n.tif" ] && run -c zip "t$n.tif" "tt$n.tif"
	run -r 1 -p separate "$f" "s$n.tif"; [ -s "s$n.tif" ] && run -p contig "s$n.tif" "sc$n.tif"
	run -B -8 -c packbits "$f" "b$n.tif"; [ -s "b$n.tif" ] && run -L "b$n.tif" "bl$n.tif"
	run -f lsb2msb -s -r 16 "$f" "f$n.tif"
	run -i -x -C "$f" "x$n.tif"
done
first=$(echo "$imgs" | head -1)
run $(echo "$imgs" | grep -v ojpeg | grep -v loop | head -8 | tr '\n' ' ') multi.tif
run -a "$first" multi.tif
run "multi.tif,2,0,1" picked.tif
run -c lzw "$I/rgb-3c-8b.tiff" base.tif
run -b "$I/minisblack-1c-8b.tiff" "$I/minisblack-1c-8b.tiff" biased.tif
head -c 3000 "$I/rgb-3c-8b.tiff" >trunc.tif; run trunc.tif out-trunc.tif; run -i trunc.tif out-trunc2.tif
printf 'II*\000\010\000\000\000\377\377' >bad.tif; run bad.tif out-bad.tif
run nosuch.tif out.tif; run -c nosuchcodec "$first" out.tif
echo "$n images"
exit 0
