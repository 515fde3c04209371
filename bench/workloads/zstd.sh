# zstd: the zstd command line over text (the upstream tree's sources), random
# and repetitive data: compression levels from --fast to --ultra -22,
# multithreaded (-T2), long-distance matching, --rsyncable, --adapt, a
# trained dictionary, --patch-from, the gzip and xz/lzma formats, streams on
# stdin/stdout, directories (-r), benchmark mode (-b), list (-l), test (-t)
# and a corrupted frame.
set -u
find "$TREE/lib" "$TREE/programs" -name '*.[ch]' -print0 | xargs -0 cat >text.bin
head -c 3000000 /dev/urandom >random.bin
yes 'the same line again and again' | head -c 4000000 >repeat.bin
mkdir -p small dir
i=0
for f in $(find "$TREE/lib" -name '*.c' | head -60); do i=$((i + 1)); cp "$f" "small/f$i.c"; done
cp small/f1.c small/f2.c small/f3.c dir/
run() { "$PROG" "$@" >/dev/null 2>&1; echo "zstd $* -> $?"; }
for lvl in --fast=5 -1 -3 -6 -9 -12 -15 -19; do
	run -q -f $lvl text.bin -o "text$lvl.zst"
	run -q -d -f "text$lvl.zst" -o "text$lvl.out"
	cmp -s text.bin "text$lvl.out" || echo "MISMATCH at $lvl"
done
run -q -f --ultra -22 -T1 small/f1.c -o ultra.zst
run -q -f -T2 -3 repeat.bin -o mt.zst
run -q -f -T2 --long=24 text.bin -o long.zst
run -q -d -f --long=24 long.zst -o long.out
run -q -f --rsyncable -T2 text.bin -o rsync.zst
run -q -f --adapt=min=1,max=9 text.bin -o adapt.zst
run -q -f -3 random.bin -o random.zst
run -q -f --no-check --content-size text.bin -o nocheck.zst
run -q -f --zstd=wlog=20,clog=18,hlog=18,slog=4,mml=5,tlen=32,strat=5 text.bin -o params.zst
run -q -f --exclude-compressed -r dir
run -q -d -f -r dir
run --train small/* -o dict.zdict --maxdict=16384
run --train-cover=k=64,d=8 small/* -o dict2.zdict --maxdict=8192
run --train-fastcover=k=64,d=8,steps=4 small/* -o dict3.zdict --maxdict=8192
run -q -f -D dict.zdict small/f5.c -o f5.zst
run -q -d -f -D dict.zdict f5.zst -o f5.out
run -q -f --patch-from=small/f1.c small/f2.c -o patch.zst
run -q -d -f --patch-from=small/f1.c patch.zst -o patch.out
run -q -f --format=gzip text.bin -o text.gz
run -q -d -f text.gz -o text.gz.out
run -q -f --format=xz small/f3.c -o f3.xz
run -q -d -f f3.xz -o f3.xz.out
run -q -f --format=lzma small/f3.c -o f3.lzma
run -q -d -f f3.lzma -o f3.lzma.out
"$PROG" -q -c -5 <text.bin >stdin.zst; "$PROG" -q -d -c <stdin.zst | cmp -s - text.bin && echo "pipe ok"
cat text-1.zst text-3.zst >multi.zst; run -q -d -f multi.zst -o multi.out
run -l -v text-3.zst multi.zst mt.zst
run -t text-19.zst adapt.zst
run -b1 -e3 -i0 small/f1.c
run -b1 -B64K -i0 -T2 repeat.bin
head -c 1000 text-3.zst >trunc.zst; run -q -d -f trunc.zst -o trunc.out
cp text-3.zst bad.zst; printf 'XXXX' | dd of=bad.zst bs=1 seek=200 conv=notrunc 2>/dev/null; run -q -d -f bad.zst -o bad.out
run -q -d -f random.bin -o notzstd.out
exit 0
