#!/usr/bin/env python3
"""source-hints.py — the -D switches a tree's own build files state, read
without running the build, for a `facet source -D ...` run beside the
no-hint one (bench/source-compare.py --hints).

  bench/source-hints.py TREE      prints one NAME[=VALUE] a line

What a user without a working build could be given by reading the build
files, and nothing a configure step would have to probe:
  - CMake (CMakeLists.txt, *.cmake): the -DNAME tokens of add_definitions,
    add_compile_definitions, COMPILE_FLAGS and COMPILE_DEFINITIONS, and
    `option(NAME "..." ON)` defaults, outside an if() whose condition names
    another platform (WIN32, MSVC, APPLE, ...); in an if()/else() pair the
    else branch counts only when its if() names a non-default option.
  - make (Makefile, *.mk, GNUmakefile): -DNAME tokens outside conditionals
    naming another platform, and the flags of a `linux:` target.
  - shell-probe builds (nginx's auto/): every feature name a probe of the
    generic Unix and Linux scripts may define (`have=NAME . auto/have`,
    `ngx_feature_name="NAME"`), on, as the template stand-in turns every
    switch of a config header template on; the other OSes' scripts
    (auto/os/freebsd, darwin, solaris, win32) are left out.
This reads a build system's spelling, not a program: it is a bench
measurement of what configuration costs, never a rule of facet source."""
import os
import re
import sys

OTHER_OS = re.compile(r"\b(WIN32|WIN64|_WIN32|MSVC|MINGW|CYGWIN|APPLE|DARWIN|Darwin|IOS|ANDROID|FreeBSD|"
                      r"OpenBSD|NetBSD|DragonFly|SunOS|Solaris|AIX|HP-UX|HPUX|OS400|BEOS|Haiku|"
                      r"EMSCRIPTEN|WINDOWS|_WINDOWS|VXWORKS|_WRS_KERNEL)\b")
DTOKEN = re.compile(r"(?:^|[\s\"'(])-D([A-Za-z_][A-Za-z0-9_]*(?:=[A-Za-z0-9_.]+)?)")
SKIP_DIRS = {"test", "tests", "testing", "win", "win32", "msvc", "vms", "os2", "amiga", "macos", "doc",
             "docs", "examples", "fuzz", "java"}
# Names that only mean something to another platform's headers or a test harness.
FOREIGN = re.compile(r"^(_?WIN(32|64)|_WINDOWS|_MBCS|_CRT_\w+|MACHO|OBJ32|ELF|WINDOWS|__MT__|_DEBUG|DEBUG|"
                     r"\w*_TEST\w*|\w*UNIT_TEST\w*|JEMALLOC_JET|java|JAVA|_VX_\w+|_WRS_KERNEL|_NO_VCL|"
                     r"HAVE_WIN32_THREADS|HAVE_BEOS_THREADS|LIBXML_STATIC|NOLIBTOOL|\w*MACOSX\w*|"
                     r"\w*_C89\w*|NEON_INTRINSICS|__x86_64__|GCC)$")


def build_files(tree):
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d.lower() not in SKIP_DIRS]
        for f in files:
            if f == "CMakeLists.txt" or f.endswith(".cmake") or f in ("Makefile", "GNUmakefile") or \
                    f.endswith(".mk"):
                yield os.path.join(root, f)


def cmake_defines(path, out):
    stack = []   # one bool per open if(): does this branch name another platform
    for line in open(path, errors="replace"):
        s = line.strip()
        low = s.lower()
        if low.startswith("if(") or low.startswith("if ("):
            stack.append(bool(OTHER_OS.search(s)))
        elif low.startswith("elseif"):
            if stack:
                stack[-1] = bool(OTHER_OS.search(s))
        elif low.startswith("else"):
            if stack:
                stack[-1] = False if stack[-1] else stack[-1]
        elif low.startswith("endif"):
            if stack:
                stack.pop()
        if any(stack):
            continue
        m = re.match(r"option\s*\(\s*(\w+)\s+\"[^\"]*\"\s+(ON|TRUE|1)\s*\)", s, re.I)
        if m:
            out.add(m.group(1) + "=1")
        if re.search(r"add_definitions|add_compile_definitions|COMPILE_FLAGS|COMPILE_DEFINITIONS|set\s*\(", s):
            for d in DTOKEN.findall(" " + s):
                out.add(d)


def make_defines(path, out):
    stack = []
    target = None
    for line in open(path, errors="replace"):
        s = line.rstrip("\n")
        st = s.strip()
        if re.match(r"(ifeq|ifneq|ifdef|ifndef)\b", st):
            stack.append(bool(OTHER_OS.search(st)))
            continue
        if st.startswith("else"):
            if stack:
                stack[-1] = False
            continue
        if st.startswith("endif"):
            if stack:
                stack.pop()
            continue
        m = re.match(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", s)
        if m:
            target = m.group(1)
        elif s and not s[0].isspace():
            target = None
        if any(stack):
            continue
        if target is not None and target != "linux" and s[:1] == "\t":
            continue   # another target's recipe (lua's macosx:, mingw:)
        for d in DTOKEN.findall(" " + s):
            out.add(d)


def shell_probe_defines(tree, out):
    auto = os.path.join(tree, "auto")
    if not os.path.isfile(os.path.join(auto, "have")):
        return
    files = [os.path.join(auto, f) for f in ("unix", "os/linux", "os/conf", "cc/conf", "modules", "threads",
                                             "lib/pcre/conf", "lib/zlib/conf", "lib/conf", "options")]
    for f in files:
        if not os.path.isfile(f):
            continue
        text = open(f, errors="replace").read()
        for m in re.finditer(r"\bhave=([A-Z][A-Z0-9_]+)\s+\.\s+auto/have\b", text):
            out.add(m.group(1) + "=1")
        for m in re.finditer(r"ngx_feature_name=\"([A-Z][A-Z0-9_]+)\"", text):
            out.add(m.group(1) + "=1")


def hints(tree):
    out = set()
    for f in build_files(tree):
        if f.endswith(("CMakeLists.txt", ".cmake")):
            cmake_defines(f, out)
        else:
            make_defines(f, out)
    shell_probe_defines(tree, out)
    return sorted(d for d in out if not FOREIGN.match(d.split("=")[0]))


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: source-hints.py TREE")
    for d in hints(sys.argv[1]):
        print(d)
