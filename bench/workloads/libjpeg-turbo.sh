# libjpeg-turbo: djpeg-static decoding the project's test images to every
# output format, with scaling, DCT methods, dithering, quantization, crop,
# grayscale, and the 12-bit and arithmetic-coded files.
set -u
imgs="$TREE/testimages"
n=0
for img in "$imgs"/testorig.jpg "$imgs"/testimgint.jpg "$imgs"/testimgari.jpg "$imgs"/testorig12.jpg; do
	for opts in "-ppm" "-bmp" "-gif" "-targa" "-rle" "-ppm -grayscale" "-bmp -os2" "-ppm -scale 1/2" "-ppm -scale 3/8" \
		"-ppm -scale 2/1" "-ppm -dct fast" "-ppm -dct float" "-ppm -nosmooth" "-gif -colors 64" "-gif -dither none" \
		"-ppm -colors 16 -dither ordered" "-ppm -fast" "-ppm -onepass -colors 32" "-ppm -crop 64x64+16+16" \
		"-ppm -skip 8,16" "-ppm -rgb565" "-bmp -rgb" "-ppm -maxmemory 64 -colors 128" "-icc icc.out -ppm"; do
		# shellcheck disable=SC2086
		"$PROG" $opts "$img" >out.img 2>/dev/null || true
		n=$((n + 1))
	done
done
"$PROG" -verbose -verbose "$imgs/testorig.jpg" >/dev/null 2>&1 || true
echo "$n runs"
exit 0
