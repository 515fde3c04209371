#!/usr/bin/env bash
# corpus.sh — build facet's benchmark corpus: real programs from Debian 12 source packages,
# each linked into one whole-program LLVM 22 bitcode module with debug info.
#
#   bench/corpus.sh [--quick] [--new] [--force] [--list] [--report] [SUBJECT...]
#
# For each subject: fetch the source package (apt-get source --download-only, deb-src enabled
# through a private copy of the machine's apt sources, never by editing system files), unpack the
# upstream tarball, configure and build it with bench/cc-wrapper as CC (clang-22 -flto -g, links
# through LLVM 22's lld with --save-temps; static project libraries; AR/RANLIB/NM from LLVM 22),
# and copy the program's `<output>.0.0.preopt.bc` to bench/work/bc/<subject>.bc. Each .bc is then
# verified (opt -passes=verify, debug info, `main`) and measured by bench/bc-stats.py.
#
# Idempotent: a subject whose .bc exists is skipped unless --force. --quick builds lua, md4c, gdbm
# only (CI); --new builds the subjects added by issue 15 (NEW below). Logs:
# bench/work/logs/<subject>.log. A failing subject does not stop the others; the exit status is
# non-zero if any requested subject failed. Ends with a summary table.
# --report prints, without building, a Markdown table of the modules in bench/work/bc.
#
# Everything downloaded or built lives under bench/work/ (git-ignored).

set -u

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SELF="$BENCH/$(basename "${BASH_SOURCE[0]}")"
WORK=${FACET_CORPUS_WORK:-$BENCH/work}
SRC=$WORK/src          # downloaded source packages, one folder per package
BUILD=$WORK/build      # unpacked trees, one folder per subject
BCDIR=$WORK/bc         # results: <subject>.bc, .stats, .meta
LOGS=$WORK/logs
APTDIR=$WORK/apt       # private apt configuration and lists (deb + deb-src)

LLVM_BINDIR=$(llvm-config-22 --bindir)
WRAPPER=$BENCH/cc-wrapper
export FACET_LLVM_BINDIR=$LLVM_BINDIR
export CC=$WRAPPER
export CXX=$BENCH/cxx-wrapper   # C++ subjects (CXX below)
export AR=$LLVM_BINDIR/llvm-ar
export RANLIB=$LLVM_BINDIR/llvm-ranlib
export NM=$LLVM_BINDIR/llvm-nm
JOBS=${JOBS:-2}

# subject | Debian source package | program (path in the build tree whose preopt module is kept)
SUBJECTS="
lua           lua5.4         src/lua
md4c          md4c           _build/md2html/md2html
gdbm          gdbm           tools/gdbmtool
oniguruma     libonig        test/test_utf8
nginx         nginx          objs/nginx
sqlite        sqlite3        sqlite3
libjpeg-turbo libjpeg-turbo  _build/djpeg-static
tmux          tmux           tmux
redis         redis          src/redis-server
libxml2       libxml2        xmllint
libarchive    libarchive     bsdtar
sudo          sudo           src/sudo
dwarfutils    dwarfutils     dwarfdump/dwarfdump
dovecot       dovecot        src/doveadm/doveadm
zstd          libzstd        programs/zstd
xz            xz-utils       src/xz/xz
expat         expat          expat/_build/xmlwf/xmlwf
jq            jq             jq
m4            m4             src/m4
gawk          gawk           gawk
tiff          tiff           _build/tools/tiffcp
make          make-dfsg      make
curl          curl           src/curl
memcached     memcached      memcached
tcl           tcl8.6         unix/tclsh
ninja         ninja-build    _build/ninja
leveldb       leveldb        _build/db_bench
re2           re2            _build/regexp_benchmark
"
# The first 14 are the paper's corpus; the others were added by issue 15 (programs facet was never
# tuned on) and are reported apart in bench/RESULTS.md.
NEW="zstd xz expat jq m4 gawk tiff make curl memcached tcl"
CXX_SUBJECTS="ninja leveldb re2"   # C++ programs (issue 19): virtual calls, scored with cha/rta/vta/vslot
QUICK="lua md4c gdbm"   # the three small subjects CI builds (and trace-bench.sh --quick traces)

# Build dependencies (Debian packages) installed when missing, common and per subject.
COMMON_DEPS="clang-22 llvm-22 llvm-22-tools lld-22 make cmake autoconf automake libtool pkg-config
  bison flex time xz-utils python3"
deps_for() {
    case $1 in
        gdbm) echo "texinfo" ;;
        nginx) echo "libpcre2-dev zlib1g-dev" ;;
        sqlite) echo "tcl" ;;
        libjpeg-turbo) echo "" ;;
        tmux) echo "libevent-dev libncurses-dev" ;;
        redis) echo "" ;;
        libxml2) echo "zlib1g-dev liblzma-dev" ;;
        libarchive) echo "zlib1g-dev libbz2-dev liblzma-dev libxml2-dev libssl-dev" ;;
        sudo) echo "libpam0g-dev zlib1g-dev" ;;
        dwarfutils) echo "libelf-dev zlib1g-dev" ;;
        dovecot) echo "zlib1g-dev libssl-dev" ;;
        zstd) echo "zlib1g-dev liblzma-dev" ;;
        jq) echo "libonig-dev" ;;
        gawk) echo "texinfo" ;;
        tiff) echo "zlib1g-dev libjpeg-dev liblzma-dev" ;;
        make) echo "autopoint texinfo" ;;
        curl) echo "zlib1g-dev" ;;
        memcached) echo "libevent-dev" ;;
        leveldb) echo "libgtest-dev libgmock-dev" ;;
        re2) echo "unicode-data python3-six perl" ;;
        *) echo "" ;;
    esac
}

field() { # field SUBJECT COLUMN -> column of the SUBJECTS table
    echo "$SUBJECTS" | awk -v s="$1" -v c="$2" '$1 == s { print $c }'
}
all_subjects() { echo "$SUBJECTS" | awk 'NF { print $1 }'; }

log() { echo "[corpus] $*" >&2; }

# ---------------------------------------------------------------- apt (private deb-src setup)

apt_private() { # apt-get with deb-src enabled through our own copy of the sources
    apt-get -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$APTDIR/parts" \
        -o Dir::State::Lists="$APTDIR/lists" "$@"
}

apt_setup() {
    [ -f "$APTDIR/updated" ] && return 0
    mkdir -p "$APTDIR/parts" "$APTDIR/lists/partial"
    local f found=0
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        sed 's/^Types:.*/Types: deb deb-src/' "$f" > "$APTDIR/parts/$(basename "$f")"
        found=1
    done
    if [ -f /etc/apt/sources.list ]; then
        # one-line format: add a deb-src twin of each deb line
        sed -n 's/^deb \(.*\)/deb \1\ndeb-src \1/p' /etc/apt/sources.list > "$APTDIR/parts/main.list"
        [ -s "$APTDIR/parts/main.list" ] && found=1 || rm -f "$APTDIR/parts/main.list"
    fi
    [ $found = 1 ] || { log "no apt sources found on this machine"; return 1; }
    apt_private update -qq || return 1
    touch "$APTDIR/updated"
}

install_deps() { # install_deps PKG... : apt-get install those not yet installed
    local missing="" p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    log "installing build dependencies:$missing"
    if [ ! -f "$APTDIR/system-updated" ]; then
        apt-get update -qq && mkdir -p "$APTDIR" && touch "$APTDIR/system-updated"
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

# ---------------------------------------------------------------- fetch and unpack

orig_tarball() { # orig_tarball PKG -> path of the upstream tarball in $SRC/PKG
    ls "$SRC/$1"/*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | grep -E '_[^_]+\.orig\.tar\.[a-z0-9]+$' | head -1
}

fetch() { # fetch PKG : download the source package once
    local pkg=$1
    [ -n "$(orig_tarball "$pkg")" ] && return 0
    apt_setup || return 1
    mkdir -p "$SRC/$pkg"
    # Some *.debian.tar.xz parts are missing on the mirror; the upstream tarball is all we need,
    # so a failure is judged by whether it arrived.
    (cd "$SRC/$pkg" && apt_private source --download-only -qq "$pkg") || true
    # The newest version may be missing from the pool (a security update whose files are gone):
    # then each other version the lists know, newest first.
    local v
    for v in $(apt-cache -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$APTDIR/parts" \
                   -o Dir::State::Lists="$APTDIR/lists" showsrc "$pkg" 2>/dev/null |
               awk '/^Version:/ { print $2 }' | sort -rV | uniq); do
        [ -n "$(orig_tarball "$pkg")" ] && break
        (cd "$SRC/$pkg" && apt_private source --download-only -qq "$pkg=$v") || true
    done
    [ -n "$(orig_tarball "$pkg")" ]
}

version_of() { # upstream version from the tarball name
    local t; t=$(basename "$(orig_tarball "$1")")
    t=${t#*_}; echo "${t%%.orig.tar.*}"
}

unpack() { # unpack SUBJECT PKG -> fresh tree in $BUILD/SUBJECT/src; prints its path
    local s=$1 pkg=$2 t top
    t=$(orig_tarball "$pkg")
    rm -rf "$BUILD/$s"; mkdir -p "$BUILD/$s/x"
    tar -xf "$t" -C "$BUILD/$s/x"
    top=$(ls -A "$BUILD/$s/x")
    if [ "$(echo "$top" | wc -l)" = 1 ] && [ -d "$BUILD/$s/x/$top" ]; then
        mv "$BUILD/$s/x/$top" "$BUILD/$s/src"; rmdir "$BUILD/$s/x"
    else
        mv "$BUILD/$s/x" "$BUILD/$s/src"
    fi
}

# ---------------------------------------------------------------- per-subject builds
# Each runs in the unpacked tree with `set -e` (in its own bash process, see build_one) and must
# leave the program named in SUBJECTS, linked by the wrapper, so its .0.0.preopt.bc exists.

ac_configure() { ./configure CC="$CC" AR="$AR" RANLIB="$RANLIB" NM="$NM" "$@"; }

cmake_build() { # cmake_build TARGET [ARGS...] : out-of-tree build of one target in _build
    local target=$1; shift
    cmake -S . -B _build -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_AR="$AR" \
        -DCMAKE_RANLIB="$RANLIB" -DCMAKE_NM="$NM" "$@"
    cmake --build _build -j "$JOBS" --target "$target"
}

build_ninja() { cmake_build ninja -DBUILD_TESTING=OFF; }   # the build tool (no re2c regeneration)

build_leveldb() { # the key-value store and its own db_bench (CMake would want the empty third_party/
    # googletest and benchmark submodules for it; db_bench needs only gtest's headers, from libgtest-dev)
    cmake_build leveldb -DLEVELDB_BUILD_TESTS=OFF -DLEVELDB_BUILD_BENCHMARKS=OFF -DBUILD_SHARED_LIBS=OFF
    # -fno-rtti: the library is built without RTTI (its CMakeLists), and so must db_bench be
    "$CXX" -std=c++11 -fno-rtti -I. -Iinclude -I_build/include -DLEVELDB_PLATFORM_POSIX=1 -DLEVELDB_HAS_PORT_CONFIG_H=1 \
        benchmarks/db_bench.cc util/histogram.cc util/testutil.cc _build/libleveldb.a -pthread -o _build/db_bench
}

build_re2() { # the regular-expression library and its own benchmark program (util/benchmark.cc,
    # no third-party harness). The +dfsg tarball drops the generated tables: make them as Debian's
    # rules do (REBUILD_TABLES), from the system's Unicode data rather than unicode.org.
    sed -i 's|^_UNICODE_DIR = .*|_UNICODE_DIR = "/usr/share/unicode"|' re2/unicode.py
    perl re2/make_perl_groups.pl >re2/perl_groups.cc
    python3 re2/make_unicode_casefold.py >re2/unicode_casefold.cc
    python3 re2/make_unicode_groups.py >re2/unicode_groups.cc
    cmake_build regexp_benchmark -DRE2_BUILD_TESTING=ON -DBUILD_SHARED_LIBS=OFF
}

build_lua() {
    make -C src -j "$JOBS" linux CC="$CC -std=gnu99" AR="$AR rcu" RANLIB="$RANLIB"
}

build_md4c() { cmake_build md2html -DBUILD_SHARED_LIBS=OFF; }

build_gdbm() {
    ac_configure --disable-shared --disable-nls --without-readline
    make -j "$JOBS"
}

build_oniguruma() {
    autoreconf -fi
    ac_configure --disable-shared
    make -j "$JOBS"
    make -C test test_utf8
}

build_nginx() {
    ./configure --with-cc="$CC"
    make -j "$JOBS"
}

build_sqlite() {
    ac_configure --disable-shared --disable-readline --disable-editline --disable-tcl
    make -j "$JOBS" sqlite3
}

build_libjpeg-turbo() { cmake_build djpeg-static -DENABLE_SHARED=0 -DWITH_SIMD=0; }

build_tmux() {
    ac_configure
    make -j "$JOBS"
}

build_redis() {
    make -j "$JOBS" CC="$CC" AR="$AR" RANLIB="$RANLIB" V=1 BUILD_TLS=no USE_SYSTEMD=no
}

build_libxml2() {
    ac_configure --disable-shared --without-python
    make -j "$JOBS" xmllint
}

build_libarchive() {
    ac_configure --disable-shared
    make -j "$JOBS" bsdtar
}

build_sudo() {
    ac_configure --enable-static-sudoers --disable-shared-libutil
    make -j "$JOBS"
}

build_dwarfutils() {
    ac_configure --disable-shared
    make -j "$JOBS"
}

build_dovecot() {
    ac_configure --without-shared-libs --disable-shared
    # Only what doveadm needs: the libraries under src/, auth's libpassword, doveadm's dsync, then
    # doveadm itself; no plugins, no test programs.
    local none="noinst_PROGRAMS= pkglib_LTLIBRARIES= module_LTLIBRARIES="
    make -j "$JOBS" -C src/lib $none all
    local d
    for d in src/lib-*; do
        [ -f "$d/Makefile" ] || continue
        make -j "$JOBS" -C "$d" $none all
    done
    make -j "$JOBS" -C src/auth libpassword.la
    make -j "$JOBS" -C src/doveadm/dsync $none all
    make -j "$JOBS" -C src/doveadm doveadm
}

# Subjects added by issue 15.

build_zstd() { # the zstd CLI compiles the library's sources itself; no assembly (ZSTD_NO_ASM)
    make -j "$JOBS" -C programs zstd CC="$CC" AR="$AR" ZSTD_NO_ASM=1 HAVE_LZ4=0
    # The Makefile links in obj/conf_<hash>/ and copies the program up; its module stays there.
    cp programs/obj/conf_*/zstd.0.0.preopt.bc programs/zstd.0.0.preopt.bc
}

build_xz() {
    ac_configure --disable-shared --disable-nls --disable-doc --disable-scripts \
        --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links
    make -j "$JOBS"
}

build_expat() { # the tarball is upstream's git tag: the library is in expat/, built with cmake
    cd expat
    cmake_build xmlwf -DEXPAT_SHARED_LIBS=OFF -DEXPAT_BUILD_TESTS=OFF -DEXPAT_BUILD_DOCS=OFF \
        -DEXPAT_BUILD_EXAMPLES=OFF
}

build_jq() { # upstream's git tag: no configure; the regex library is the system's libonig
    autoreconf -fi
    ac_configure --disable-shared --disable-docs --disable-maintainer-mode --with-oniguruma=yes
    make -j "$JOBS" src/builtin.inc src/version.h   # BUILT_SOURCES, which `make jq` does not make
    make -j "$JOBS" jq
}

build_m4() {
    ac_configure --disable-nls --without-libsigsegv
    make -j "$JOBS"
}

build_gawk() {
    ac_configure --disable-nls --without-readline --without-mpfr --disable-extensions
    make -j "$JOBS" -C support   # libsupport.a (regex, dfa, pma), which `make gawk` does not make
    make -j "$JOBS" gawk
}

build_tiff() { # libtiff with its system codecs (zlib, libjpeg, liblzma); tiffcp only
    cmake_build tiffcp -DBUILD_SHARED_LIBS=OFF -Dtiff-docs=OFF -Dtiff-tests=OFF -Dtiff-contrib=OFF \
        -Dcxx=OFF -Dzstd=OFF -Dwebp=OFF -Djbig=OFF -Dlerc=OFF -Dlibdeflate=OFF
}

build_make() { # the dfsg tarball has no configure
    # configure.ac names Makefile twice in AC_CONFIG_FILES, which autoconf 2.71 rejects.
    sed -i 's|po/Makefile.in Makefile \\|po/Makefile.in \\|' configure.ac
    autoreconf -fi
    ac_configure --disable-nls --without-guile
    make -j "$JOBS" -C lib
    make -j "$JOBS" make   # not `all`: the dfsg tarball has no doc/ (make.1 is missing)
}

build_curl() { # static libcurl, plain-text protocols only (no TLS, no HTTP/2, no IDN)
    ac_configure --disable-shared --without-ssl --without-libpsl --without-brotli --without-zstd \
        --without-libidn2 --without-nghttp2 --without-librtmp --without-libssh2 --disable-ldap \
        --disable-ldaps --disable-manual
    make -j "$JOBS"
}

build_memcached() {
    ac_configure --disable-sasl --disable-seccomp --disable-docs --disable-coverage
    sed -i 's/ -Werror//' Makefile   # configure adds -Werror for gcc-like compilers
    make -j "$JOBS" memcached
}

build_tcl() {
    cd unix
    # configure's check for sin() links without libm under -flto (the unused call is dropped),
    # so it leaves -lm out; the link of tclsh then misses ceil, tanh, ...
    ac_configure --disable-shared LIBS=-lm
    make -j "$JOBS" tclsh
}

# ---------------------------------------------------------------- one subject, one process

build_one() { # run in its own bash process (set -e holds there): fetch, unpack, build, copy .bc
    set -e
    local s=$1 pkg prog tree
    pkg=$(field "$s" 2); prog=$(field "$s" 3)
    echo "== $s: source package $pkg"
    stage fetch;   fetch "$pkg"
    echo "== $s: version $(version_of "$pkg")"
    stage deps;    install_deps $(deps_for "$s")
    stage unpack;  unpack "$s" "$pkg"
    tree=$BUILD/$s/src
    cd "$tree"
    stage build;   "build_$s"
    stage bitcode
    [ -f "$tree/$prog.0.0.preopt.bc" ] || { echo "missing $tree/$prog.0.0.preopt.bc"; exit 1; }
    cp "$tree/$prog.0.0.preopt.bc" "$BCDIR/$s.bc.tmp"
    stage verify;  verify_bc "$BCDIR/$s.bc.tmp"
    stage stats;   python3 "$BENCH/bc-stats.py" --root "$BUILD/$s" "$BCDIR/$s.bc.tmp" > "$BCDIR/$s.stats.tmp"
    mv "$BCDIR/$s.stats.tmp" "$BCDIR/$s.stats"
    mv "$BCDIR/$s.bc.tmp" "$BCDIR/$s.bc"
    stage done
}

stage() { echo "$1" > "$WORK/state/$CUR.stage"; echo "== stage: $1"; }

verify_bc() { # verify_bc X.bc : well-formed, has debug info, has main, print-callgraph runs
    local bc=$1
    "$LLVM_BINDIR/opt" -passes=verify -disable-output "$bc"
    "$LLVM_BINDIR/llvm-dis" "$bc" -o - | grep -q '!DICompileUnit(' || { echo "no debug info"; return 1; }
    "$LLVM_BINDIR/llvm-nm" --defined-only "$bc" | grep -qE ' T main$' || { echo "no main"; return 1; }
    "$LLVM_BINDIR/opt" -passes=print-callgraph -disable-output "$bc" 2>/dev/null
    echo "verify: ok"
}

# ---------------------------------------------------------------- driver

usage() {
    sed -n '2,19p' "$SELF" | sed 's/^# \{0,1\}//'
    echo "subjects: $(all_subjects | tr '\n' ' ')"
}

human() { # bytes -> e.g. 1.2M
    awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%.1fM", b/1048576; else printf "%.0fK", b/1024 }'
}

stat_of() { # stat_of SUBJECT KEY
    [ -f "$BCDIR/$1.stats" ] && awk -F= -v k="$2" '$1 == k { print $2 }' "$BCDIR/$1.stats"
}

report() { # Markdown table of what bench/work/bc holds (subjects in corpus order)
    echo "| subject | version | program | KLoC .c | KLoC .c+.h | .bc size | functions | declared | direct calls | indirect calls | asm calls | build s |"
    echo "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    local s m
    for s in $(all_subjects); do
        [ -f "$BCDIR/$s.bc" ] && [ -f "$BCDIR/$s.stats" ] || continue
        m() { awk -F= -v k="$1" '$1 == k { print $2 }' "$BCDIR/$s.meta" 2>/dev/null; }
        echo "| $s | $(m version) | $(field "$s" 3) | $(stat_of "$s" kloc_c) | $(stat_of "$s" kloc_all)" \
             "| $(human "$(stat -c %s "$BCDIR/$s.bc")") | $(stat_of "$s" functions_defined)" \
             "| $(stat_of "$s" functions_declared) | $(stat_of "$s" calls_direct)" \
             "| $(stat_of "$s" calls_indirect) | $(stat_of "$s" calls_asm) | $(m build_seconds) |"
    done
}

main() {
    local force=0 quick=0 subjects=() s
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=1 ;;
            --force) force=1 ;;
            --list) all_subjects; return 0 ;;
            --new) subjects+=($NEW) ;;
            --report) report; return 0 ;;
            -h|--help) usage; return 0 ;;
            __build) shift; CUR=$1; build_one "$1"; return $? ;;
            -*) echo "unknown option $1" >&2; usage >&2; return 2 ;;
            *) [ -n "$(field "$1" 2)" ] || { echo "unknown subject $1" >&2; return 2; }
               subjects+=("$1") ;;
        esac
        shift
    done
    if [ ${#subjects[@]} = 0 ]; then
        if [ $quick = 1 ]; then subjects=($QUICK); else subjects=($(all_subjects)); fi
    fi
    mkdir -p "$SRC" "$BUILD" "$BCDIR" "$LOGS" "$WORK/state"
    install_deps $COMMON_DEPS || { log "cannot install common build dependencies"; return 1; }

    local failed=0 t0 t1 rc status secs
    declare -A result
    for s in "${subjects[@]}"; do
        if [ $force = 0 ] && [ -f "$BCDIR/$s.bc" ]; then
            result[$s]="ok (cached)"
            continue
        fi
        rm -f "$BCDIR/$s.bc" "$BCDIR/$s.stats" "$BCDIR/$s.meta"
        log "building $s (log: $LOGS/$s.log)"
        t0=$(date +%s)
        # A separate process, so `set -e` inside the build really holds.
        "$BASH" "$SELF" __build "$s" > "$LOGS/$s.log" 2>&1
        rc=$?
        t1=$(date +%s); secs=$((t1 - t0))
        if [ $rc = 0 ] && [ -f "$BCDIR/$s.bc" ]; then
            status=ok
        else
            status="failed: $(cat "$WORK/state/$s.stage" 2>/dev/null || echo '?') (see logs/$s.log)"
            failed=1
        fi
        result[$s]=$status
        printf 'version=%s\nstatus=%s\nbuild_seconds=%s\ndate=%s\n' \
            "$(version_of "$(field "$s" 2)" 2>/dev/null)" "$status" "$secs" "$(date -u +%FT%TZ)" \
            > "$WORK/state/$s.meta"
        [ "$status" = ok ] && cp "$WORK/state/$s.meta" "$BCDIR/$s.meta"
        log "$s: $status (${secs}s)"
    done

    echo
    printf '%-14s %-15s %-44s %8s %6s %8s %8s\n' subject version status bc-size funcs indirect build-s
    for s in "${subjects[@]}"; do
        local meta="$WORK/state/$s.meta" size="-"
        [ -f "$BCDIR/$s.meta" ] && meta=$BCDIR/$s.meta
        [ -f "$BCDIR/$s.bc" ] && size=$(human "$(stat -c %s "$BCDIR/$s.bc")")
        printf '%-14s %-15s %-44s %8s %6s %8s %8s\n' "$s" \
            "$(awk -F= '$1=="version"{print $2}' "$meta" 2>/dev/null)" "${result[$s]}" "$size" \
            "$(stat_of "$s" functions_defined)" "$(stat_of "$s" calls_indirect)" \
            "$(awk -F= '$1=="build_seconds"{print $2}' "$meta" 2>/dev/null)"
    done
    return $failed
}

# One line: bash has read it whole before main runs, so editing this file during a run is safe.
main "$@"; exit $?
