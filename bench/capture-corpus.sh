#!/usr/bin/env bash
# capture-corpus.sh — facet capture on corpus subjects through their own build commands,
# compared with the LTO preopt module bench/corpus.sh made (issue 14's acceptance).
#
#   bench/capture-corpus.sh [--plain] SUBJECT...
#
# Per subject: a fresh copy of the upstream tarball (from $CORPUS/src, never built in place)
# under $WORK/SUBJECT/src, its build command run as `facet capture -- ...` with the machine's
# default compiler (no CC set), the program extracted to $WORK/SUBJECT.bc, and
# bench/capture-compare.py against $CORPUS/bc/SUBJECT.bc (a subject without one, outside the
# corpus, is analysed instead: facet build --capture, facet fields). --plain also builds a second copy
# without facet, right before, and prints both wall times (capture's overhead). Extract is run
# twice and timed: the first run includes the pre-link optimizer, the second finds it cached.
# RPM=1 passes --rpm to the comparison (R± site by site).
# Environment: CORPUS (default bench/work), WORK (default /tmp/capture-corpus), FACET (build/facet).
set -u
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS=${CORPUS:-$BENCH/work}
WORK=${WORK:-/tmp/capture-corpus}
FACET=${FACET:-$BENCH/../build/facet}
JOBS=${JOBS:-2}
plain=0

# subject | source package | program | build command (the subject's own, as bench/corpus.sh configures it)
cmd_of() {
    case $1 in
        lua) echo "make -j$JOBS linux" ;;
        md4c) echo "sh -c 'cmake -S . -B _build -DBUILD_SHARED_LIBS=OFF && cmake --build _build -j$JOBS --target md2html'" ;;
        gdbm) echo "sh -c './configure --disable-shared --disable-nls --without-readline && make -j$JOBS'" ;;
        oniguruma) echo "sh -c 'autoreconf -fi && ./configure --disable-shared && make -j$JOBS && make -C test test_utf8'" ;;
        nginx) echo "sh -c './configure && make -j$JOBS'" ;;
        sqlite) echo "sh -c './configure --disable-shared --disable-readline --disable-editline --disable-tcl && make -j$JOBS sqlite3'" ;;
        libjpeg-turbo) echo "sh -c 'cmake -S . -B _build -DENABLE_SHARED=0 -DWITH_SIMD=0 && cmake --build _build -j$JOBS --target djpeg-static'" ;;
        tmux) echo "sh -c './configure && make -j$JOBS'" ;;
        redis) echo "make -j$JOBS BUILD_TLS=no USE_SYSTEMD=no" ;;
        libxml2) echo "sh -c './configure --disable-shared --without-python && make -j$JOBS xmllint'" ;;
        libarchive) echo "sh -c './configure --disable-shared && make -j$JOBS bsdtar'" ;;
        sudo) echo "sh -c './configure --enable-static-sudoers --disable-shared-libutil && make -j$JOBS'" ;;
        dwarfutils) echo "sh -c './configure --disable-shared && make -j$JOBS'" ;;
        # bench/corpus.sh's own sequence: the libraries doveadm needs, then doveadm (no plugins, no tests)
        dovecot) echo "sh -c './configure --without-shared-libs --disable-shared && n=\"noinst_PROGRAMS= pkglib_LTLIBRARIES= module_LTLIBRARIES=\" && make -j$JOBS -C src/lib \$n all && for d in src/lib-*; do [ -f \$d/Makefile ] || continue; make -j$JOBS -C \$d \$n all || exit 1; done && make -j$JOBS -C src/auth libpassword.la && make -j$JOBS -C src/doveadm/dsync \$n all && make -j$JOBS -C src/doveadm doveadm'" ;;
        # outside the corpus (no reference module): analysed with facet build --capture
        tiff) echo "sh -c 'cmake -S . -B _build && cmake --build _build -j$JOBS'" ;;
        memcached) echo "sh -c './configure && make -j$JOBS'" ;;
        *) return 1 ;;
    esac
}
pkg_of() {
    case $1 in lua) echo lua5.4 ;; oniguruma) echo libonig ;; sqlite) echo sqlite3 ;; *) echo "$1" ;; esac
}
prog_of() {
    awk -v s="$1" '$1 == s { print $2 }' <<'EOF2'
lua src/lua
md4c _build/md2html/md2html
gdbm tools/gdbmtool
oniguruma test/test_utf8
nginx objs/nginx
sqlite sqlite3
libjpeg-turbo _build/djpeg-static
tmux tmux
redis src/redis-server
libxml2 xmllint
libarchive bsdtar
sudo src/sudo
dwarfutils dwarfdump/dwarfdump
dovecot src/doveadm/doveadm
tiff _build/tools/tiffcp
memcached memcached
EOF2
}

unpack() { # unpack SUBJECT DEST
    local t top
    t=$(ls "$CORPUS/src/$(pkg_of "$1")"/*.orig.tar.* | grep -v '\.asc$' | head -1)
    rm -rf "$2"; mkdir -p "$2.x"
    tar -xf "$t" -C "$2.x"
    top=$(ls -A "$2.x")
    if [ "$(echo "$top" | wc -l)" = 1 ] && [ -d "$2.x/$top" ]; then mv "$2.x/$top" "$2"; rmdir "$2.x"; else mv "$2.x" "$2"; fi
}

[ "${1:-}" = --plain ] && { plain=1; shift; }
mkdir -p "$WORK"
for s in "$@"; do
    cmd=$(cmd_of "$s") || { echo "$s: no build command known" >&2; continue; }
    prog=$(prog_of "$s")
    # wall seconds, and CPU seconds (user + system of the build and all its children: on a
    # loaded machine the steadier figure of the work capture adds)
    TIMEFORMAT='%R %U %S'
    if [ $plain = 1 ]; then
        unpack "$s" "$WORK/$s/plain"
        { time (cd "$WORK/$s/plain" && env -u CC -u CXX bash -c "$cmd" > "$WORK/$s.plain.log" 2>&1); } 2> "$WORK/$s.plain.time"
        rc=$?
        read -r wall u sy < "$WORK/$s.plain.time"
        echo "$s plain build: $wall s wall, $(echo "$u + $sy" | bc) s CPU (rc $rc, load $(cut -d' ' -f1 /proc/loadavg))"
    fi
    unpack "$s" "$WORK/$s/src"
    { time (cd "$WORK/$s/src" && eval env -u CC -u CXX "$FACET" capture -- "$cmd" > "$WORK/$s.capture.log" 2>&1); } 2> "$WORK/$s.capture.time"
    rc=$?
    read -r wall u sy < "$WORK/$s.capture.time"
    echo "$s captured build: $wall s wall, $(echo "$u + $sy" | bc) s CPU (rc $rc, load $(cut -d' ' -f1 /proc/loadavg))"
    (cd "$WORK/$s/src" && "$FACET" capture list --format json > "$WORK/$s.list.json")
    # extract's time: the first run includes the pre-link optimizer of every unit (capture/prelink.h),
    # the second finds it cached
    for pass in first second; do
        { time (cd "$WORK/$s/src" && "$FACET" capture extract --with-shared "$prog" -o "$WORK/$s.bc" 2> "$WORK/$s.extract.log"); } 2> "$WORK/$s.extract.time"
        rc=$?
        read -r wall u sy < "$WORK/$s.extract.time"
        echo "$s extract ($pass): $wall s wall, $(echo "$u + $sy" | bc) s CPU (rc $rc, load $(cut -d' ' -f1 /proc/loadavg))"
    done
    [ $rc = 0 ] || { echo "$s: extract failed"; cat "$WORK/$s.extract.log"; continue; }
    if [ ! -f "$CORPUS/bc/$s.bc" ]; then   # outside the corpus: analyse it
        (cd "$WORK/$s/src" && "$FACET" build --capture .facet-capture "$prog" -o "$WORK/$s.facet" 2>&1 | tail -1)
        "$FACET" fields "$WORK/$s.bc" 2>/dev/null | head -12
        continue
    fi
    python3 "$BENCH/capture-compare.py" "$FACET" "$WORK/$s.bc" "$CORPUS/bc/$s.bc" ${RPM:+--rpm} > "$WORK/$s.compare.txt" 2>&1
    cat "$WORK/$s.compare.txt"
done
