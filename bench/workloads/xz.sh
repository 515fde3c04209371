# xz: liblzma's filter chains through the xz command: presets -0 to -9e,
# the .lzma and raw formats, LZMA1/LZMA2 with explicit options, the BCJ
# filters of every architecture and delta, the integrity checks, the
# multithreaded encoder and decoder (-T2, --block-size), stdin/stdout,
# list (-l/-lvv/--robot), test, concatenated streams and corrupt input.
set -u
find "$TREE/src" -name '*.[ch]' -print0 | xargs -0 cat >text.bin
head -c 1500000 /dev/urandom >random.bin
cat /bin/bash /bin/ls >exe.bin 2>/dev/null || cp text.bin exe.bin
run() { "$PROG" "$@" >/dev/null 2>&1; echo "xz $* -> $?"; }
for p in -0 -1 -3 -6 -9 -0e -6e; do
	"$PROG" -k -f -c $p text.bin >"t$p.xz"; echo "xz $p -> $?"
	"$PROG" -d -c "t$p.xz" | cmp -s - text.bin || echo "MISMATCH $p"
done
"$PROG" -9e -c "$TREE/README" >readme.xz; echo "readme -> $?"
for c in none crc32 crc64 sha256; do "$PROG" -c -1 --check=$c text.bin >"c-$c.xz"; run -t "c-$c.xz"; done
"$PROG" -c --format=lzma -3 text.bin >t.lzma; "$PROG" -d -c t.lzma | cmp -s - text.bin && echo "lzma ok"
"$PROG" -c --format=lzma --lzma1=preset=2,lc=2,lp=1,pb=1 text.bin >t2.lzma; run -t t2.lzma
"$PROG" -c --format=raw --lzma2=preset=1 text.bin >t.raw; "$PROG" -d -c --format=raw --lzma2=preset=1 t.raw | cmp -s - text.bin && echo "raw ok"
"$PROG" -c --lzma2=preset=6,dict=1MiB,mf=hc4,mode=fast,nice=32,depth=8 text.bin >hc4.xz; run -t hc4.xz
"$PROG" -c --lzma2=mf=bt2 text.bin >bt2.xz; run -t bt2.xz
"$PROG" -c --lzma2=mf=hc3 text.bin >hc3.xz; run -t hc3.xz
"$PROG" -c --lzma2=mf=bt3 text.bin >bt3.xz; run -t bt3.xz
for f in x86 powerpc ia64 arm armthumb arm64 sparc; do
	"$PROG" -c --$f --lzma2=preset=1 exe.bin >"bcj-$f.xz"
	"$PROG" -d -c "bcj-$f.xz" | cmp -s - exe.bin || echo "MISMATCH $f"
done
"$PROG" -c --delta=dist=4 --lzma2=preset=1 random.bin >delta.xz; run -t delta.xz
"$PROG" -c --x86 --delta=dist=2 --lzma2 exe.bin >chain.xz; run -t chain.xz
"$PROG" -c -T2 -3 --block-size=200KiB text.bin >mt.xz; "$PROG" -d -c -T2 mt.xz | cmp -s - text.bin && echo "mt ok"
"$PROG" -c -T2 -1 --block-list=100KiB,200KiB,300KiB text.bin >blocks.xz; run -t blocks.xz
"$PROG" -c -1 --flush-timeout=1 <text.bin >flush.xz; run -t flush.xz
"$PROG" -c -2 random.bin >random.xz; run -t random.xz
cat t-1.xz t-3.xz >concat.xz; "$PROG" -d -c concat.xz >/dev/null; echo "concat $?"
"$PROG" -d -c --single-stream concat.xz >/dev/null; echo "single $?"
run -l t-6.xz mt.xz blocks.xz; run -lvv mt.xz blocks.xz; run --robot -lvv mt.xz chain.xz
run --info-memory; run --robot --info-memory
cat text.bin | "$PROG" -c -4 | "$PROG" -d -c | cmp -s - text.bin && echo "pipe ok"
head -c 5000 t-6.xz >trunc.xz; run -t trunc.xz
cp t-3.xz bad.xz; printf 'XXXXXXXX' | dd of=bad.xz bs=1 seek=300 conv=notrunc 2>/dev/null; run -t bad.xz
run -t random.bin; run -d -c --format=lzma t-1.xz
"$PROG" -dc --memlimit=1MiB t-9.xz >/dev/null 2>&1; echo "memlimit $?"
exit 0
