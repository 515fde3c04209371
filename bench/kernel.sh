#!/usr/bin/env bash
# kernel.sh — build Linux (Debian's linux-source-6.12) into one whole-program LLVM 22 bitcode
# module of vmlinux with debug info, for facet's kernel-scale benchmark (issue 17).
#
#   bench/kernel.sh deps        install the kernel's build dependencies (bench only: CI never
#                               builds a kernel, so they are not in scripts/install-deps.sh)
#   bench/kernel.sh config      unpack the tree and make the tinyconfig+ configuration
#   bench/kernel.sh build       build vmlinux and keep its merged bitcode as $KWORK/vmlinux.bc
#   bench/kernel.sh analyse     opt-22 -passes=print-callgraph (the reference), facet build
#                               (time, peak memory, RSS every 2 s, each phase's end logged,
#                               stopped above RSS_LIMIT_KIB), facet stats --pta, and
#                               bench/kernel-check.py (issue 17's acceptance checks, figures)
#   bench/kernel.sh all         the four in order (the default)
#   bench/kernel.sh progress    how far a build is: units compiled to bitcode so far, of how many
#
# Two configurations (KCONFIG): `tiny` (the default: tinyconfig plus issue 17's options) and
# `defconfig` (x86_64 defconfig with the same LTO and DWARF 5 options). Each has its own work
# directory with its own unpacked tree, so the two never share build products: KWORK defaults
# to /work/kernel for tiny and /work/kernel/defconfig for defconfig (a separate tree rather
# than make O=DIR, because O= refuses a source tree that was built in place, as tiny's is).
#
# The bitcode comes from the kernel's own CONFIG_LTO_CLANG_FULL: ld.lld's --save-temps leaves
# the merged module of the vmlinux.o link as vmlinux.o.0.0.preopt.bc (written before LTO
# optimises it; its vmlinux.o.0.2.internalize.bc appearing means it is complete, so the rest of
# the link is not needed for the analysis). `facet capture` is the other way: since session 6 it
# observes direct linker calls (the kernel's `ld.lld -r ... -o vmlinux.o` over thin archives,
# docs/formats.md "links"), but it has not been run on a kernel build, so this recipe does not
# depend on it.
#
# Everything lives under $KWORK (outside any git tree): src/ is the unpacked tree, vmlinux.bc
# the result, logs/ the logs (build.time is /usr/bin/time -v of the build). Nothing of the
# kernel is ever committed.
#
# The build is resumable: rerunning `build` lets make pick up where it stopped (units compile
# for hours on a loaded 2-core machine for defconfig). The LTO link of vmlinux.o of a big
# configuration can take many GiB, and this machine is shared, so a watchdog polls
# /proc/meminfo every 5 s during the build and stops the whole make (its process group) when
# MemAvailable falls below FLOOR_MIB (default 2048), or when the vmlinux.o link starts while
# MemAvailable is below LINK_MIN_GIB (default 10): the build then fails, resumably, before
# anyone else runs short. (Compiling without linking is not a separate make goal: kbuild
# treats a goal ending in .a or / as a single-target build.)
#
# Environment: KCONFIG (tiny or defconfig), KWORK (see above), JOBS (default 2), NICE (default
# 10), LINK_MIN_GIB, FLOOR_MIB (see above), KSRC_TARBALL (default
# /usr/src/linux-source-6.12.tar.xz), FACET (default build/facet).

set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KCONFIG=${KCONFIG:-tiny}
case "$KCONFIG" in
tiny) KWORK=${KWORK:-/work/kernel} ;;
defconfig) KWORK=${KWORK:-/work/kernel/defconfig} ;;
*) echo "kernel.sh: KCONFIG must be tiny or defconfig, not '$KCONFIG'" >&2; exit 2 ;;
esac
LINK_MIN_GIB=${LINK_MIN_GIB:-10}
FLOOR_MIB=${FLOOR_MIB:-2048}
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
BASE=tinyconfig
if [ "$KCONFIG" = defconfig ]; then
	# defconfig as it is (its modules stay modules; only vmlinux is built and analysed), with
	# the bitcode recipe's options; BTF needs pahole, which the recipe does not install.
	BASE=defconfig
	WANTED="64BIT DEBUG_INFO_DWARF5 LTO_CLANG_FULL"
	ENABLE="$WANTED DEBUG_KERNEL DEBUG_INFO"
	DISABLE="LTO_NONE DEBUG_INFO_NONE DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_DWARF4
DEBUG_INFO_BTF"
fi

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
	make "${MAKEVARS[@]}" "$BASE" > "$LOGS/config.log" 2>&1
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
	echo "kernel.sh: $KCONFIG: configured $(grep -c '=y' .config) options =y in $SRC/.config"
}

# Stops process group PGID (a make and everything under it) when memory runs short (see the
# head of this file); returns when the group is gone.
watch_memory() {
	local pgid=$1 linking=""
	while kill -0 -- "-$pgid" 2>/dev/null; do
		local avail why=""
		avail=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
		[ "$avail" -lt "$FLOOR_MIB" ] && why="MemAvailable ${avail} MiB < FLOOR_MIB $FLOOR_MIB"
		if [ -z "$linking" ] && pgrep -g "$pgid" -f 'ld\.lld.* -o vmlinux\.o' > /dev/null; then
			linking=1
			echo "kernel.sh: the LTO link of vmlinux.o started $(date -u '+%F %T') UTC, MemAvailable ${avail} MiB" \
				>> "$LOGS/build.log"
			[ "$avail" -lt $((LINK_MIN_GIB * 1024)) ] && why="MemAvailable ${avail} MiB < LINK_MIN_GIB $LINK_MIN_GIB GiB at the vmlinux.o link"
		fi
		if [ -n "$why" ]; then
			echo "kernel.sh: $why: stopping the build (process group $pgid); rerun 'build' to resume" \
				| tee -a "$LOGS/build.log" >&2
			kill -TERM -- "-$pgid" 2>/dev/null || true
			return
		fi
		sleep 5
	done
}

step_build() {
	cd "$SRC" || die "$SRC missing (run: bench/kernel.sh config)"
	mkdir -p "$LOGS"
	echo "kernel.sh: $KCONFIG: building vmlinux (-j$JOBS, nice $NICE); log $LOGS/build.log"
	echo "kernel.sh: build (re)started $(date -u '+%F %T') UTC" >> "$LOGS/build.log"
	# Its own process group (setsid), so the watchdog can stop make and everything under it.
	setsid /usr/bin/time -v -o "$LOGS/build.time" nice -n "$NICE" \
		make "${MAKEVARS[@]}" -j"$JOBS" vmlinux >> "$LOGS/build.log" 2>&1 &
	local pid=$! rc=0
	watch_memory "$pid" &
	local watcher=$!
	wait "$pid" || rc=$?
	wait "$watcher" || true
	[ "$rc" -eq 0 ] || die "build failed or stopped (tail of $LOGS/build.log):
$(tail -20 "$LOGS/build.log")"
	local bc=$SRC/vmlinux.o.0.0.preopt.bc
	[ -f "$bc" ] || die "$bc missing: the vmlinux.o link did not run LTO with --save-temps"
	cp "$bc" "$KWORK/vmlinux.bc.tmp" && mv "$KWORK/vmlinux.bc.tmp" "$KWORK/vmlinux.bc"
	grep -E 'Elapsed|Maximum resident' "$LOGS/build.time"
	ls -l "$KWORK/vmlinux.bc"
}

# How far a build is: objects of the tree that hold LLVM bitcode (an LTO build's C units are
# bitcode; assembler units are ELF), of all objects so far (kbuild does not say beforehand
# how many units a configuration compiles).
step_progress() {
	cd "$SRC" || die "$SRC missing (run: bench/kernel.sh config)"
	local bc=0 all=0 f
	while IFS= read -r -d '' f; do
		all=$((all + 1))
		[ "$(head -c 2 "$f")" = BC ] && bc=$((bc + 1))
	done < <(find . -name '*.o' ! -name '*.mod.o' ! -path './tools/*' ! -path './scripts/*' -print0)
	echo "kernel.sh: $KCONFIG: $bc objects are bitcode, of $all objects in $SRC"
	[ -f vmlinux.a ] && echo "kernel.sh: vmlinux.a exists: every unit compiled"
	[ -f vmlinux.o.0.0.preopt.bc ] && echo "kernel.sh: vmlinux.o.0.0.preopt.bc exists: linked"
	tail -1 "$LOGS/build.log" 2>/dev/null || true
}

# RSS of PID (and its children) every 2 s into FILE as "SECONDS KIB" lines; above
# RSS_LIMIT_KIB (default 15 GiB, the issue's budget with room for the machine) the process is
# stopped and a "STOPPED" line says when: facet's phase log (FACET_PROGRESS_LOG=1, in its
# log file) then says which phases ended and what each held.
sample_rss() {
	local pid=$1 out=$2 t0=$SECONDS limit=${RSS_LIMIT_KIB:-15728640}
	: > "$out"
	while kill -0 "$pid" 2>/dev/null; do
		local kib
		kib=$(ps -o rss= --pid "$pid" --ppid "$pid" 2>/dev/null | awk '{s += $1} END {print s + 0}')
		echo "$((SECONDS - t0)) $kib" >> "$out"
		if [ "$kib" -gt "$limit" ]; then
			echo "STOPPED at $((SECONDS - t0)) s: RSS $kib KiB over RSS_LIMIT_KIB=$limit" >> "$out"
			pkill -TERM -P "$pid"; kill -TERM "$pid"
		fi
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
	FACET_PROGRESS_LOG=1 /usr/bin/time -v -o "$LOGS/facet-build.time" "$facet" build "$bc" -o "$cat" \
		> "$LOGS/facet-build.log" 2>&1 &
	local pid=$!
	sample_rss "$pid" "$LOGS/facet-build.rss" &
	local sampler=$!
	wait "$pid" || die "facet build failed (tail of $LOGS/facet-build.log):
$(tail -20 "$LOGS/facet-build.log")"
	wait "$sampler"
	grep -E 'Elapsed|Maximum resident' "$LOGS/facet-build.time"
	echo "kernel.sh: facet stats --pta"
	FACET_PROGRESS_LOG=1 /usr/bin/time -v -o "$LOGS/facet-stats.time" "$facet" stats --pta --format json "$bc" \
		> "$LOGS/facet-stats.json" 2> "$LOGS/facet-stats.err" || die "facet stats failed: $(tail -5 "$LOGS/facet-stats.err")"
	grep -E 'Elapsed|Maximum resident' "$LOGS/facet-stats.time"
	python3 "$BENCH/kernel-check.py" --src "$SRC" --catalog "$cat" --facet "$facet" --json "$LOGS/check.json"
}

case "${1:-all}" in
deps) step_deps ;;
config) step_config ;;
build) step_build ;;
analyse) step_analyse ;;
progress) step_progress ;;
all) step_deps && step_config && step_build && step_analyse ;;
*) die "unknown step '$1' (deps, config, build, analyse, progress, all)" ;;
esac
