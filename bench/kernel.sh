#!/usr/bin/env bash
# kernel.sh — build Linux (Debian's linux-source-6.12) into one whole-program LLVM 22 bitcode
# module of vmlinux with debug info, for facet's kernel-scale benchmark (issue 17).
#
#   bench/kernel.sh deps        install the kernel's build dependencies (bench only: CI never
#                               builds a kernel, so they are not in scripts/install-deps.sh)
#   bench/kernel.sh config      unpack the tree and make the tinyconfig+ configuration
#   bench/kernel.sh build       build vmlinux and keep its merged bitcode as $KWORK/vmlinux.bc
#   bench/kernel.sh analyse     opt-22 -passes=print-callgraph (the reference), facet build
#                               (time, peak memory, RSS every 2 s), facet stats --pta, and
#                               bench/kernel-check.py (issue 17's acceptance checks, figures)
#   bench/kernel.sh all         the four in order (the default)
#
# Everything lives under $KWORK (default /work/kernel, outside any git tree): src/ is the
# unpacked tree, vmlinux.bc the result, logs/ the logs (build.time is /usr/bin/time -v of the
# build). Nothing of the kernel is ever committed.
#
# How the bitcode is made: the kernel's own CONFIG_LTO_CLANG_FULL compiles every unit to
# bitcode (clang-22 -flto, -g from DEBUG_INFO_DWARF5) and links vmlinux.o with LLVM 22's
# ld.lld; `--save-temps` on that link leaves vmlinux.o.0.0.preopt.bc, the merged module before
# LTO optimisation (the same module the corpus keeps for user programs). `facet capture` was
# not used: it wraps compiler drivers only, and the kernel links vmlinux.o and vmlinux by
# calling ld.lld itself (partial link -r over thin archives), which capture does not observe.
#
# Configuration: tinyconfig (ARCH=x86_64) plus the options of issue 17 and what they depend
# on (TTY for SERIAL_8250, BLK_DEV for VIRTIO_BLK, NETDEVICES for VIRTIO_NET, ...), then
# olddefconfig; the options asked for are checked after olddefconfig and a missing one fails.
#
# Environment: KWORK (default /work/kernel), JOBS (default 2), NICE (default 10),
# KSRC_TARBALL (default /usr/src/linux-source-6.12.tar.xz), FACET (default build/facet).

set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KWORK=${KWORK:-/work/kernel}
JOBS=${JOBS:-2}
NICE=${NICE:-10}
TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SRC=$KWORK/src
LOGS=$KWORK/logs
LLVM_BINDIR=$(llvm-config-22 --bindir)
# LLVM=-22 picks clang-22, ld.lld-22, llvm-ar-22, llvm-nm-22, ...; LD carries --save-temps.
MAKEVARS=(ARCH=x86_64 LLVM=-22 "LD=$LLVM_BINDIR/ld.lld --save-temps")

# The options issue 17 asks for; each must be =y after olddefconfig.
WANTED="64BIT BLOCK EXT4_FS TMPFS PROC_FS SYSFS NET INET UNIX PCI VIRTIO_PCI VIRTIO_BLK
VIRTIO_NET SERIAL_8250 PRINTK DEBUG_INFO_DWARF5 LTO_CLANG_FULL"
# What those depend on (menus and parents tinyconfig leaves off).
ENABLE="$WANTED DEBUG_KERNEL DEBUG_INFO TTY SERIAL_8250_CONSOLE BLK_DEV NETDEVICES NET_CORE
VIRTIO_MENU VIRTIO SHMEM MULTIUSER FILE_LOCKING BINFMT_ELF"
DISABLE="LTO_NONE DEBUG_INFO_NONE DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_DWARF4
DEBUG_INFO_BTF MODULES"

die() { echo "kernel.sh: $*" >&2; exit 1; }

step_deps() {
	apt-get install -y --no-install-recommends linux-source-6.12 flex bison bc libelf-dev \
		libssl-dev cpio kmod rsync clang-22 lld-22 llvm-22
}

step_config() {
	[ -f "$TARBALL" ] || die "$TARBALL missing (run: bench/kernel.sh deps)"
	mkdir -p "$KWORK" "$LOGS"
	if [ ! -f "$SRC/Makefile" ]; then
		rm -rf "$SRC.tmp" && mkdir -p "$SRC.tmp"
		tar -xf "$TARBALL" -C "$SRC.tmp" --strip-components=1
		mv "$SRC.tmp" "$SRC"
	fi
	cd "$SRC"
	make "${MAKEVARS[@]}" tinyconfig > "$LOGS/config.log" 2>&1
	local o
	for o in $DISABLE; do scripts/config --disable "$o"; done
	for o in $ENABLE; do scripts/config --enable "$o"; done
	make "${MAKEVARS[@]}" olddefconfig >> "$LOGS/config.log" 2>&1
	# A second pass: options whose parents only appeared after the first olddefconfig.
	for o in $ENABLE; do scripts/config --enable "$o"; done
	make "${MAKEVARS[@]}" olddefconfig >> "$LOGS/config.log" 2>&1
	local missing=""
	for o in $WANTED; do
		grep -q "^CONFIG_$o=y" .config || missing="$missing $o"
	done
	[ -z "$missing" ] || die "not enabled after olddefconfig:$missing (see $SRC/.config)"
	echo "kernel.sh: configured $(grep -c '=y' .config) options =y in $SRC/.config"
}

step_build() {
	cd "$SRC" || die "$SRC missing (run: bench/kernel.sh config)"
	echo "kernel.sh: building vmlinux (-j$JOBS, nice $NICE); log $LOGS/build.log"
	/usr/bin/time -v -o "$LOGS/build.time" nice -n "$NICE" \
		make "${MAKEVARS[@]}" -j"$JOBS" vmlinux > "$LOGS/build.log" 2>&1 \
		|| die "build failed (tail of $LOGS/build.log):
$(tail -20 "$LOGS/build.log")"
	local bc=$SRC/vmlinux.o.0.0.preopt.bc
	[ -f "$bc" ] || die "$bc missing: the vmlinux.o link did not run LTO with --save-temps"
	cp "$bc" "$KWORK/vmlinux.bc.tmp" && mv "$KWORK/vmlinux.bc.tmp" "$KWORK/vmlinux.bc"
	grep -E 'Elapsed|Maximum resident' "$LOGS/build.time"
	ls -l "$KWORK/vmlinux.bc"
}

# Peak RSS of PID (and its children) every 2 s into FILE as "SECONDS KIB" lines.
sample_rss() {
	local pid=$1 out=$2 t0=$SECONDS
	: > "$out"
	while kill -0 "$pid" 2>/dev/null; do
		local kib
		kib=$(ps -o rss= --pid "$pid" --ppid "$pid" 2>/dev/null | awk '{s += $1} END {print s + 0}')
		echo "$((SECONDS - t0)) $kib" >> "$out"
		sleep 2
	done
}

step_analyse() {
	local bc=$KWORK/vmlinux.bc cat=$KWORK/vmlinux.facet
	local facet=${FACET:-$BENCH/../build/facet}
	[ -f "$bc" ] || die "$bc missing (run: bench/kernel.sh build)"
	[ -x "$facet" ] || die "$facet is not an executable (set FACET)"
	echo "kernel.sh: opt-22 -passes=print-callgraph (the reference)"
	/usr/bin/time -v -o "$LOGS/opt-callgraph.time" opt-22 -passes=print-callgraph -disable-output "$bc" \
		2> "$LOGS/opt-callgraph.txt" || die "opt-22 failed on $bc"
	grep -E 'Elapsed|Maximum resident' "$LOGS/opt-callgraph.time"
	echo "kernel.sh: facet build (log $LOGS/facet-build.log; RSS every 2 s in $LOGS/facet-build.rss)"
	/usr/bin/time -v -o "$LOGS/facet-build.time" "$facet" build "$bc" -o "$cat" > "$LOGS/facet-build.log" 2>&1 &
	local pid=$!
	sample_rss "$pid" "$LOGS/facet-build.rss" &
	local sampler=$!
	wait "$pid" || die "facet build failed (tail of $LOGS/facet-build.log):
$(tail -20 "$LOGS/facet-build.log")"
	wait "$sampler"
	grep -E 'Elapsed|Maximum resident' "$LOGS/facet-build.time"
	echo "kernel.sh: facet stats --pta"
	/usr/bin/time -v -o "$LOGS/facet-stats.time" "$facet" stats --pta --format json "$bc" > "$LOGS/facet-stats.json" \
		2> "$LOGS/facet-stats.err" || die "facet stats failed: $(tail -5 "$LOGS/facet-stats.err")"
	grep -E 'Elapsed|Maximum resident' "$LOGS/facet-stats.time"
	python3 "$BENCH/kernel-check.py" --src "$SRC" --catalog "$cat" --facet "$facet" --json "$LOGS/check.json"
}

case "${1:-all}" in
deps) step_deps ;;
config) step_config ;;
build) step_build ;;
analyse) step_analyse ;;
all) step_deps && step_config && step_build && step_analyse ;;
*) die "unknown step '$1' (deps, config, build, analyse, all)" ;;
esac
