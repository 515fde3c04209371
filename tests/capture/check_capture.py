#!/usr/bin/env python3
"""End-to-end test of `facet capture` (issue 14) on a project this script writes.

The project: two directories each holding util.o (same name, different code,
each with a `static int step`), a static library of two members of which each
program pulls one, a shared library, an assembly file, weak and strong
definitions of one function, an object copied under another name and an
archive installed elsewhere, two executables, and a configure-style script
that compiles, links and deletes conftest programs. It is built with the
machine's `cc` through its own script and Makefile, at -O0 -g and at -O2.

Checked: the native build is byte-identical to the same build without facet;
`capture list` names exactly the programs and shared library, with unit and
missing counts read from the Makefile; `extract` refuses prog1 (its assembly
unit has no bitcode) naming the unit and writes nothing, and with
--allow-missing gives exactly the functions the link used; prog2's module holds
the strong `pick`, the renamed copy's functions and the installed archive's
member; --with-shared adds the shared library's functions; `facet callgraph
--capture` reads the same module. --bad-input: corrupt and foreign manifests,
changed bitcode, a directory of another build, the command's exit status."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

checks = Checks(limit=2000)
check = checks.check


FILES = {
    "a/util.c": """
static int step(int x) { return x + 1; }
int (*step_a)(int) = step;          /* keeps the static alive at -O2 */
int util_a(int x) { return step_a(x) * 2; }
int util_a_dead(int x) { return x + 100; }   /* no program uses it: stripped */
""",
    "b/util.c": """
static int step(int x) { return x - 1; }
int (*step_b)(int) = step;
int util_b(int x) { return step_b(x) * 3; }
""",
    "libs/s1.c": "int s1_used(int x) { return x + 11; }\n",
    "libs/s2.c": "int s2_other(int x) { return x + 22; }\n",
    "shlib/sh.c": """
/* noinline: at -O2 an inlined callee that nothing else uses is dead, as in LTO */
__attribute__((noinline)) int sh_twice(int x) { return x * 2; }   /* prog1 defines it too: prog1's wins */
__attribute__((noinline, visibility("hidden"))) int sh_hidden(int x) { return x - 7; }   /* not exported */
int sh_fn(int x) { return sh_twice(x) * 7 + sh_hidden(x); }
int sh_unused(int x) { return x + 70; }      /* exported, but prog1 does not use it */
""",
    "asm/fast.S": """
	.text
	.globl asm_add
	.type asm_add,@function
asm_add:
	jmp asm_helper@PLT
	.section .note.GNU-stack,"",@progbits
""",
    "main1.c": """
int util_a(int); int util_b(int); int s1_used(int); int sh_fn(int); int asm_add(int, int);
int asm_helper(int a, int b) { return a + b; }   /* only the assembly calls it */
__attribute__((noinline)) int sh_twice(int x) { return x * 4; }    /* interposes on libsh.so's */
__attribute__((noinline)) int sh_hidden(int x) { return x + 9; }   /* a name libsh.so keeps hidden */
int main(int argc, char **argv) { (void)argv; return util_a(argc) + util_b(argc) + s1_used(argc) + sh_fn(argc) + asm_add(argc, 1) + sh_twice(argc) + sh_hidden(argc); }
""",
    "w1.c": "__attribute__((weak)) int pick(void) { return 1; }\n",
    "w2.c": "int pick(void) { return 2; }\n",
    "main2.c": """
int util_b(int); int pick(void); int s2_other(int);
int main(int argc, char **argv) { (void)argv; return util_b(argc) + pick() + s2_other(argc); }
int dead2(int x) { return x * 3; }               /* nothing uses it, not exported: stripped */
""",
    "main3.c": """
int s1_used(int);
int main(int argc, char **argv) { (void)argv; return s1_used(argc); }
int exported3(int x) { return x * 5; }           /* unused, but prog3 is linked -rdynamic: kept */
""",
    "configure.sh": """#!/bin/sh
# a configure-style script: compiles and links test programs, then deletes them
CC=${CC:-cc}
cat > conftest.c <<EOF
int main(void) { return 0; }
EOF
$CC $CFLAGS -o conftest conftest.c || exit 1
./conftest || exit 1
$CC $CFLAGS -c conftest.c -o conftest.o && $CC -o conftest conftest.o || exit 1
./conftest || exit 1
rm -f conftest conftest.o conftest.c
echo configured > config.status
""",
    "Makefile": """
all: prog1 prog2 prog3 libsh.so
libstat.a: libs/s1.o libs/s2.o
\tar rc $@ libs/s1.o libs/s2.o
libsh.so: shlib/sh.c
\t$(CC) $(CFLAGS) -fPIC -shared shlib/sh.c -o libsh.so
prog1: main1.o a/util.o b/util.o asm/fast.o libstat.a libsh.so
\t$(CC) $(CFLAGS) -o prog1 main1.o a/util.o b/util.o asm/fast.o -L. -lstat -lsh
copy/renamed.o: b/util.o
\tmkdir -p copy && cp b/util.o copy/renamed.o
inst/lib/libstat.a: libstat.a
\tmkdir -p inst/lib && install -m 644 libstat.a inst/lib/libstat.a
prog2: main2.o copy/renamed.o w1.o w2.o inst/lib/libstat.a
\t$(CC) $(CFLAGS) -o prog2 main2.o copy/renamed.o w1.o w2.o -Linst/lib -lstat
prog3: main3.c libstat.a
\t$(CC) $(CFLAGS) -rdynamic -o prog3 main3.c -L. -lstat
""",
}


def write_project(root):
    for rel, text in FILES.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text.lstrip("\n") if rel != "Makefile" else text)


def run(cmd, cwd, env=None, expect=0):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if expect is not None:
        checks.check(r.returncode == expect, "%s exited %d (expected %d)" % (" ".join(cmd), r.returncode, expect),
                     r.stderr[-2000:])
    return r


def defined_functions(bc):
    out = subprocess.run(["llvm-nm-22", "--defined-only", bc], capture_output=True, text=True, check=True).stdout
    funcs = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TtWw":
            funcs[parts[2]] = parts[1]
    return funcs


def normalise(funcs):
    """Two definitions of one name kept apart (the two `static int step`,
    libsh.so's hidden sh_hidden and prog1's) survive as NAME and NAME.N."""
    return sorted(re.sub(r"\.\d+$", "", n) for n in funcs)


def defining_file(bc, name):
    """The file of the DISubprogram attached to the definition of `name`."""
    text = subprocess.run(["llvm-dis-22", bc, "-o", "-"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^define [^\n]*@%s\([^\n]*!dbg (![0-9]+)" % re.escape(name), text, re.M)
    sp = m and re.search(r"^%s = distinct !DISubprogram\([^\n]*file: (![0-9]+)" % m.group(1), text, re.M)
    f = sp and re.search(r'^%s = !DIFile\(filename: "([^"]*)"' % sp.group(1), text, re.M)
    return f.group(1) if f else None


# prog1's functions: main1.c's, both util.o's (util_a_dead stripped), libstat.a's s1.o
PROG1 = ["main", "asm_helper", "sh_twice", "sh_hidden", "util_a", "util_b", "step", "step", "s1_used"]


def build(root, env):
    run(["sh", "./configure.sh"], root, env)
    run(["make", "-s"], root, env)


def project(facet, opt):
    env = dict(os.environ, CFLAGS=opt)
    env.pop("CC", None)
    tmp = tempfile.mkdtemp(prefix="facet-capture-test-")
    try:
        # the plain build first, in the very directory the captured one uses
        # (debug info records the directory), its products kept aside
        plain, cap = os.path.join(tmp, "plain"), os.path.join(tmp, "cap")
        os.makedirs(cap)
        write_project(cap)
        build(cap, env)
        shutil.move(cap, plain)
        os.makedirs(cap)
        write_project(cap)
        capdir = os.path.join(cap, ".facet-capture")
        r = run([facet, "capture", "--", "sh", "./configure.sh"], cap, env)
        # configure's conftest compiles and links run natively, with no bitcode and no record
        recs = os.listdir(os.path.join(capdir, "records"))
        check(recs == [], "%s configure's conftest probes left records %s" % (opt, recs))
        r = run([facet, "capture", "-o", capdir, "--", "make", "-s"], cap, env)
        # the build stays the build: the same bytes as without facet
        for f in ["prog1", "prog2", "prog3", "libsh.so", "libstat.a", "a/util.o", "b/util.o", "asm/fast.o"]:
            with open(os.path.join(plain, f), "rb") as x, open(os.path.join(cap, f), "rb") as y:
                check(x.read() == y.read(), "%s %s: differs from the build without facet" % (opt, f))
        check(not os.path.exists(os.path.join(cap, "conftest")), "configure left conftest")

        r = run([facet, "capture", "list", capdir, "--format", "json"], cap, env)
        listing = json.loads(r.stdout) if r.returncode == 0 else {"programs": []}
        progs = {os.path.relpath(p["path"], cap): p for p in listing["programs"]}
        check(sorted(progs) == ["libsh.so", "prog1", "prog2", "prog3"], "%s list: programs %s" % (opt, sorted(progs)))
        if "prog1" in progs:
            p = progs["prog1"]
            # main1, a/util, b/util, asm/fast, libstat.a(s1.o); s2.o not pulled
            check(p["units"] == 5 and p["missing"] == 1, "%s prog1: units %d missing %d" % (opt, p["units"], p["missing"]))
            miss = p["missing_units"][0] if p["missing_units"] else {}
            check(miss.get("path", "").endswith("asm/fast.o") and "assembly" in miss.get("reason", ""),
                  "%s prog1: missing unit %s" % (opt, miss))
            check([os.path.relpath(s, cap) for s in p["shared"]] == ["libsh.so"], "%s prog1 shared %s" % (opt, p["shared"]))
        if "prog2" in progs:
            p = progs["prog2"]
            check(p["units"] == 5 and p["missing"] == 0, "%s prog2: units %d missing %d" % (opt, p["units"], p["missing"]))
        if "prog3" in progs:   # compiled and linked in one command: the source's references pull s1.o
            p = progs["prog3"]
            check(p["units"] == 2 and p["missing"] == 0, "%s prog3: units %d missing %d" % (opt, p["units"], p["missing"]))
        out4 = os.path.join(tmp, "p3.bc")
        run([facet, "capture", "extract", capdir, "prog3", "-o", out4], cap, env)
        if os.path.exists(out4):
            f = defined_functions(out4)
            check(sorted(f) == ["exported3", "main", "s1_used"], "%s prog3 functions %s" % (opt, sorted(f)))
        r = run([facet, "capture", "list", capdir], cap, env)
        check("prog1" in r.stdout and "asm/fast.o" in r.stdout and "assembly" in r.stdout, "%s list text: %s" % (opt, r.stdout))

        out = os.path.join(tmp, "p1.bc")
        r = run([facet, "capture", "extract", capdir, "prog1", "-o", out], cap, env, expect=1)
        check("asm/fast.o" in r.stderr and "fast.S" in r.stderr and "--allow-missing" in r.stderr,
              "%s extract prog1 refusal names the unit: %s" % (opt, r.stderr))
        check(not os.path.exists(out) and not [f for f in os.listdir(tmp) if f.startswith("p1.bc")],
              "%s refused extract left a file" % opt)
        run([facet, "capture", "extract", capdir, "prog1", "-o", out, "--allow-missing"], cap, env)
        if os.path.exists(out):
            f = defined_functions(out)
            # util_a_dead stripped; asm_helper kept: the assembly, which has no bitcode, calls it
            check(normalise(f) == sorted(PROG1),
                  "%s prog1 functions %s" % (opt, sorted(f)))
        out2 = os.path.join(tmp, "p2.bc")
        run([facet, "capture", "extract", capdir, os.path.join(cap, "prog2"), "-o", out2], cap, env)
        if os.path.exists(out2):
            f = defined_functions(out2)
            check(normalise(f) == sorted(["main", "util_b", "step", "pick", "s2_other"]),
                  "%s prog2 functions %s" % (opt, sorted(f)))
            check(f.get("pick") == "T", "%s prog2: pick is the strong definition, got %s" % (opt, f.get("pick")))
        out2k = os.path.join(tmp, "p2k.bc")
        run([facet, "capture", "extract", capdir, "prog2", "-o", out2k, "--keep-dead"], cap, env)
        if os.path.exists(out2k):
            f = defined_functions(out2k)
            check(normalise(f) == sorted(["main", "util_b", "step", "pick", "s2_other", "dead2"]),
                  "%s prog2 --keep-dead functions %s" % (opt, sorted(f)))
        out3 = os.path.join(tmp, "p1s.bc")
        run([facet, "capture", "extract", capdir, "prog1", "-o", out3, "--allow-missing", "--with-shared"], cap, env)
        if os.path.exists(out3):
            f = defined_functions(out3)
            # libsh.so's sh_twice gives way to prog1's; its hidden sh_hidden stays apart from prog1's;
            # sh_unused is exported by libsh.so but prog1 does not reach it
            check(normalise(f) == sorted(PROG1 + ["sh_fn", "sh_hidden"]),
                  "%s prog1 --with-shared functions %s" % (opt, sorted(f)))
            check(defining_file(out3, "sh_twice") == "main1.c",
                  "%s prog1 --with-shared: sh_twice from %s" % (opt, defining_file(out3, "sh_twice")))
        out3k = os.path.join(tmp, "p1sk.bc")
        run([facet, "capture", "extract", capdir, "prog1", "-o", out3k, "--allow-missing", "--with-shared",
             "--keep-dead"], cap, env)
        if os.path.exists(out3k):
            f = defined_functions(out3k)
            check(normalise(f) == sorted(PROG1 + ["sh_fn", "sh_hidden", "sh_unused", "util_a_dead"]),
                  "%s prog1 --with-shared --keep-dead functions %s" % (opt, sorted(f)))
        # an installed copy of a program is found by its content
        shutil.copy(os.path.join(cap, "prog2"), os.path.join(tmp, "installed-prog2"))
        r = run([facet, "callgraph", "--capture", capdir, os.path.join(tmp, "installed-prog2"), "--format", "json"],
                cap, env)
        if r.returncode == 0:
            names = sorted(fn["name"] for fn in json.loads(r.stdout)["functions"] if fn["defined"])
            check(normalise(names) == sorted(["main", "util_b", "step", "pick", "s2_other"]),
                  "%s callgraph --capture functions %s" % (opt, names))
        # the manifest documents every unit: source, flags, object, bitcode hash, debug info
        with open(os.path.join(capdir, "manifest.json")) as mf:
            man = json.load(mf)
        srcs = sorted(os.path.relpath(u["source"], cap) for u in man["units"])
        check(srcs == sorted(["a/util.c", "asm/fast.S", "b/util.c", "libs/s1.c", "libs/s2.c", "main1.c", "main2.c", "main3.c",
                              "shlib/sh.c", "w1.c", "w2.c"]), "%s manifest units %s" % (opt, srcs))
        check(all(u["debug_info"] for u in man["units"] if u["bitcode"]), "%s units without debug info" % opt)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bad_input(facet):
    env = dict(os.environ, CFLAGS="-O1")
    env.pop("CC", None)
    tmp = tempfile.mkdtemp(prefix="facet-capture-bad-")
    try:
        proj = os.path.join(tmp, "p")
        os.makedirs(proj)
        write_project(proj)
        capdir = os.path.join(proj, "cap")
        run([facet, "capture", "-o", capdir, "--", "make", "-s", "prog2"], proj, env)
        # the command's exit status is capture's, and what was captured is kept
        r = run([facet, "capture", "-o", capdir, "--", "sh", "-c", "exit 7"], proj, env, expect=7)
        r = run([facet, "capture", "list", capdir, "--format", "json"], proj, env)
        check(r.returncode == 0 and len(json.loads(r.stdout)["programs"]) == 1, "capture after exit 7 lost prog2")
        no_debug_info(facet, tmp, env)
        # a directory of another build
        other = os.path.join(tmp, "other")
        os.makedirs(other)
        r = run([facet, "capture", "-o", capdir, "--", "true"], other, env, expect=1)
        check("capture.json" in r.stderr and proj in r.stderr, "foreign capture dir: %s" % r.stderr)
        # a directory that is not a capture directory
        r = run([facet, "capture", "-o", proj, "--", "true"], other, env, expect=1)
        check("not a capture directory" in r.stderr, "non-capture dir: %s" % r.stderr)
        man = os.path.join(capdir, "manifest.json")
        with open(man) as f:
            good = f.read()
        data = json.loads(good)
        cases = [
            ("truncated", good[: len(good) // 2], "not valid JSON"),
            ("empty", "", "not valid JSON"),
            ("not an object", "[1, 2]", "not a facet capture manifest"),
            ("wrong format", json.dumps(dict(data, format="other")), "not a facet capture manifest"),
            ("wrong version", json.dumps(dict(data, version=99)), "version 99"),
            ("unit not an object", json.dumps(dict(data, units=[1])), "units[0]"),
            ("unit id a number", json.dumps(dict(data, units=[dict(data["units"][0], id=5)] + data["units"][1:])),
             "units[0].id"),
            ("bitcode outside", json.dumps(dict(data, units=[dict(data["units"][0], bitcode="/etc/passwd")] +
                                                data["units"][1:])), "not a path inside"),
            ("unknown unit", json.dumps(dict(data, programs=[dict(data["programs"][0], inputs=[
                dict(data["programs"][0]["inputs"][0], unit="nope")])])), "no unit 'nope'"),
            ("bad status", json.dumps(dict(data, programs=[dict(data["programs"][0], inputs=[
                dict(data["programs"][0]["inputs"][0], status="maybe")])])), "status"),
            ("inputs not array", json.dumps(dict(data, programs=[dict(data["programs"][0], inputs=3)])), "arrays"),
            ("linker_script a string", json.dumps(dict(data, programs=[dict(data["programs"][0],
                                                                              linker_script="yes")])),
             "programs[0].linker_script"),
            ("entry a number", json.dumps(dict(data, programs=[dict(data["programs"][0], entry=3)])),
             "programs[0].entry"),
        ]
        for name, text, want in cases:
            with open(man, "w") as f:
                f.write(text)
            for cmd in (["capture", "list", capdir], ["capture", "extract", capdir, "prog2", "-o",
                                                       os.path.join(tmp, "x.bc")]):
                r = run([facet] + cmd, proj, env, expect=1)
                check(man in r.stderr and want in r.stderr, "%s (%s): %s" % (name, cmd[1], r.stderr.strip()))
            check(not os.path.exists(os.path.join(tmp, "x.bc")), "%s: extract wrote a file" % name)
        with open(man, "w") as f:
            f.write(good)
        # a bitcode file changed after the capture
        bc = os.path.join(capdir, [u for u in data["units"] if u["bitcode"]][0]["bitcode"])
        with open(bc, "ab") as f:
            f.write(b"x")
        r = run([facet, "capture", "extract", capdir, "prog2", "-o", os.path.join(tmp, "x.bc")], proj, env, expect=1)
        check(bc in r.stderr and "does not match" in r.stderr, "changed bitcode: %s" % r.stderr)
        check(not os.path.exists(os.path.join(tmp, "x.bc")), "changed bitcode: extract wrote a file")
        # no capture at all; an unknown and an ambiguous program
        r = run([facet, "capture", "list", os.path.join(tmp, "none")], proj, env, expect=1)
        check("manifest.json" in r.stderr, "no capture: %s" % r.stderr)
        r = run([facet, "capture", "extract", capdir, "nosuch", "-o", os.path.join(tmp, "x.bc")], proj, env, expect=1)
        check("no such program" in r.stderr, "unknown program: %s" % r.stderr)
        r = run([facet, "capture", "extract", capdir, "-o", os.path.join(tmp, "x.bc")], proj, env, expect=2)
        r = run([facet, "capture", "-o", capdir], proj, env, expect=2)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def no_debug_info(facet, tmp, env):
    """A bitcode compiler that drops debug info (clang-22 with -g0 last): extract
    warns naming each unit, and still writes the module."""
    real = os.path.dirname(os.path.realpath(shutil.which("clang-22")))
    fake = os.path.join(tmp, "llvm-g0")
    os.makedirs(fake)
    for tool in ("llvm-nm", "llvm-link", "opt"):
        os.symlink(os.path.join(real, tool), os.path.join(fake, tool))
    for tool in ("clang", "clang++"):
        with open(os.path.join(fake, tool), "w") as f:
            f.write('#!/bin/sh\nexec "%s" "$@" -g0\n' % os.path.join(real, tool))
        os.chmod(os.path.join(fake, tool), 0o755)
    proj = os.path.join(tmp, "nodebug")
    os.makedirs(proj)
    write_project(proj)
    fenv = dict(env, FACET_CAPTURE_LLVM_BINDIR=fake)
    run([facet, "capture", "--", "make", "-s", "prog3"], proj, fenv)
    out = os.path.join(tmp, "nodebug.bc")
    r = run([facet, "capture", "extract", "prog3", "-o", out], proj, fenv)
    for src in ("main3.c", "s1.c"):
        check(re.search(r"warning: \S*%s: compiled without debug info" % re.escape(src), r.stderr),
              "no -g: no warning naming %s: %s" % (src, r.stderr))
    check(os.path.exists(out), "no -g: no module written")


CMAKE_PROJECT = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.13)\nproject(hello C)\n"
                      "include(CheckFunctionExists)\ncheck_function_exists(strtol HAVE_STRTOL)\n"
                      "add_executable(hello hello.c greet.c)\n",
    "hello.c": "int greet(int);\nint main(int argc, char **argv) { (void)argv; return greet(argc); }\n",
    "greet.c": "int greet(int n) { return n + 1; }\n",
}


ABS_PROJECT = {
    # a sanitized program the build runs: the exec hook on LD_PRELOAD must not stop it
    # (ASan checks that its runtime is the first library loaded)
    "asan.c": "#include <stdio.h>\nint main(void) { puts(\"asan ran\"); return 0; }\n",
    "Makefile.asan": "asan.out:\n\t$(CC) -fsanitize=address -o asan asan.c && ./asan > asan.out\n",
    # a configure-style script that writes the compiler's absolute path into the Makefile
    # (run outside the capture: under it, PATH would give the wrapper's path)
    "config.sh": "cc_path=$(command -v cc)\necho \"CC = $cc_path\" > config.mk\n",
}


def absolute_paths(facet, tmp, env):
    """A compiler named by absolute path bypasses PATH: the exec hook sees it
    (make CC=/usr/bin/cc, and a path a configure-style script wrote into the
    Makefile), the objects lead to their bitcode and extract gives prog2's
    exact functions; a sanitized program the build runs still runs. With
    --no-exec-hook such objects are reported missing, with what to do."""
    cc = os.path.realpath(shutil.which("cc"))
    objs = ["main2.o", "copy/renamed.o", "w1.o", "w2.o", "inst/lib/libstat.a"]
    prog2 = sorted(["main", "util_b", "step", "pick", "s2_other"])
    for how in ("command line", "configure", "no hook"):
        proj = os.path.join(tmp, "abs-" + how.replace(" ", "-"))
        os.makedirs(proj)
        write_project(proj)
        for rel, text in ABS_PROJECT.items():
            with open(os.path.join(proj, rel), "w") as f:
                f.write(text)
        hook = ["--no-exec-hook"] if how == "no hook" else []
        if how == "configure":
            run(["sh", "./config.sh"], proj, env)   # configured before, outside the capture
            with open(os.path.join(proj, "config.mk")) as f:
                check(f.read().strip() == "CC = " + shutil.which("cc"), "abs configure: config.mk not written")
            mk = ["-f", "Makefile", "-f", "config.mk"]
        else:
            mk = ["CC=" + cc]
        run([facet, "capture"] + hook + ["--", "make", "-s"] + mk + objs, proj, env)
        run([facet, "capture"] + hook + ["--", "make", "-s", "prog2"], proj, env)
        r = run([facet, "capture", "list", "--format", "json"], proj, env)
        listing = json.loads(r.stdout)["programs"] if r.returncode == 0 else []
        p = listing[0] if len(listing) == 1 else {}
        if how == "no hook":
            check(p.get("units") == 5 and p.get("missing") == 5 and
                  all("absolute path" in m["reason"] and "--no-exec-hook" in m["reason"]
                      for m in p.get("missing_units", [])),
                  "abs %s: %s" % (how, listing))
            continue
        check(p.get("units") == 5 and p.get("missing") == 0, "abs %s: prog2 listed as %s" % (how, listing))
        out = os.path.join(tmp, "abs.bc")
        if os.path.exists(out):
            os.unlink(out)
        run([facet, "capture", "extract", "prog2", "-o", out], proj, env)
        got = normalise(defined_functions(out)) if os.path.exists(out) else None
        check(got == prog2, "abs %s: prog2 functions %s" % (how, got))
        if how == "command line" and subprocess.run([cc, "-fsanitize=address", "-x", "c", "-", "-o",
                                                     os.path.join(tmp, "asan-probe")],
                                                    input="int main(void){return 0;}", text=True,
                                                    capture_output=True).returncode == 0:
            r = run([facet, "capture", "--", "make", "-s", "-f", "Makefile.asan", "CC=" + cc], proj, env)
            with open(os.path.join(proj, "asan.out")) if os.path.exists(os.path.join(proj, "asan.out")) \
                    else open(os.devnull) as f:
                check(f.read() == "asan ran\n", "abs: the sanitized program the build runs did not run: %s"
                      % r.stderr[-600:])


GCC_LTO_PROJECT = {
    "a.c": "int lib_a(int x) { return x + 1; }\n",
    "b.c": "int lib_b(int x) { return x + 2; }\n",
    "main.c": "int lib_a(int);\nint main(int argc, char **argv) { (void)argv; return lib_a(argc); }\n",
    # gcc-ar: an archive of slim gcc -flto objects (GIMPLE only, no machine code)
    "Makefile": "CFLAGS = -O2 -g -flto=auto\nprog: main.o libl.a\n\t$(CC) $(CFLAGS) -o $@ main.o libl.a\n"
                "libl.a: a.o b.o\n\trm -f $@; gcc-ar rcs $@ a.o b.o\n",
}


def gcc_lto(facet, tmp, env):
    """gcc -flto objects: captured, their symbols come from the capture's own
    bitcode of them (their .symtab holds only __gnu_lto_slim), so the archive
    member rule still holds (a.o pulled, b.o not); compiled outside the
    capture, each is reported missing with what to do, and extract refuses."""
    genv = dict(env, CC="gcc")
    for outside in (False, True):
        proj = os.path.join(tmp, "glto-%s" % ("outside" if outside else "inside"))
        os.makedirs(proj)
        for rel, text in GCC_LTO_PROJECT.items():
            with open(os.path.join(proj, rel), "w") as f:
                f.write(text)
        if outside:
            run(["make", "-s", "a.o", "b.o", "libl.a"], proj, genv)
        run([facet, "capture", "--", "make", "-s"], proj, genv)
        r = run([facet, "capture", "list", "--format", "json"], proj, genv)
        listing = json.loads(r.stdout)["programs"] if r.returncode == 0 else []
        p = listing[0] if len(listing) == 1 else {}
        out = os.path.join(proj, "p.bc")
        if not outside:
            check(p.get("units") == 2 and p.get("missing") == 0, "gcc -flto: prog listed as %s" % listing)
            run([facet, "capture", "extract", "prog", "-o", out], proj, genv)
            got = sorted(defined_functions(out)) if os.path.exists(out) else None
            check(got == ["lib_a", "main"], "gcc -flto: prog functions %s" % got)
            continue
        miss = sorted(m.get("member") or "" for m in p.get("missing_units", []))
        check(p.get("units") == 3 and miss == ["a.o", "b.o"] and
              all("gcc -flto" in m["reason"] and "without -flto" in m["reason"] for m in p["missing_units"]),
              "gcc -flto outside: prog listed as %s" % listing)
        r = run([facet, "capture", "extract", "prog", "-o", out], proj, genv, expect=1)
        check("libl.a(a.o)" in r.stderr and "gcc -flto" in r.stderr and not os.path.exists(out),
              "gcc -flto outside: extract did not refuse naming the object: %s" % r.stderr)


def build_systems(facet):
    """CMake (its compiler identification a.out and try_compile checks are not
    programs), compilers named by absolute path, gcc -flto objects, ccache in front of the compiler (CC="ccache cc", a cold then a
    warm cache), and a command that cannot start (the parent reports it, once,
    in facet's message format)."""
    env = dict(os.environ, CFLAGS="-O1 -g")
    env.pop("CC", None)
    tmp = tempfile.mkdtemp(prefix="facet-capture-bs-")
    try:
        r = run([facet, "capture", "-o", os.path.join(tmp, "none"), "--", os.path.join(tmp, "no-such-command")],
                tmp, env, expect=1)
        check(r.stderr == "facet capture: error: cannot run %s: No such file or directory\n"
              % os.path.join(tmp, "no-such-command"), "cannot start: stderr %r" % r.stderr)
        if shutil.which("cmake"):
            proj = os.path.join(tmp, "cm")
            for rel, text in CMAKE_PROJECT.items():
                os.makedirs(os.path.dirname(os.path.join(proj, rel)), exist_ok=True)
                with open(os.path.join(proj, rel), "w") as f:
                    f.write(text)
            run([facet, "capture", "--", "sh", "-c", "cmake -S . -B b >/dev/null && cmake --build b >/dev/null"],
                proj, env)
            r = run([facet, "capture", "list", "--format", "json"], proj, env)
            progs = [os.path.relpath(p["path"], proj) for p in json.loads(r.stdout)["programs"]] if r.returncode == 0 else []
            check(progs == ["b/hello"], "cmake: programs %s (CompilerIdC/a.out is not one)" % progs)
            out = os.path.join(tmp, "hello.bc")
            run([facet, "capture", "extract", "hello", "-o", out], proj, env)
            check(os.path.exists(out) and sorted(defined_functions(out)) == ["greet", "main"],
                  "cmake: hello's functions %s" % (sorted(defined_functions(out)) if os.path.exists(out) else None))
        else:
            print("check_capture: cmake not on PATH: the CMake case is skipped")
        absolute_paths(facet, tmp, env)
        if shutil.which("gcc") and shutil.which("gcc-ar"):
            gcc_lto(facet, tmp, env)
        else:
            print("check_capture: gcc or gcc-ar not on PATH: the gcc -flto case is skipped")
        if shutil.which("ccache"):
            cenv = dict(env, CC="ccache cc", CCACHE_DIR=os.path.join(tmp, "ccache"), CCACHE_NOHASHDIR="1")
            for attempt in ("cold", "warm"):
                proj = os.path.join(tmp, "cc-" + attempt)
                os.makedirs(proj)
                write_project(proj)
                run([facet, "capture", "--", "make", "-s", "prog2"], proj, cenv)
                r = run([facet, "capture", "list", "--format", "json"], proj, cenv)
                progs = {os.path.relpath(p["path"], proj): p for p in json.loads(r.stdout)["programs"]} \
                    if r.returncode == 0 else {}
                p = progs.get("prog2", {})
                check(p.get("units") == 5 and p.get("missing") == 0, "ccache %s: prog2 %s" % (attempt, p))
                out = os.path.join(tmp, "p2-%s.bc" % attempt)
                run([facet, "capture", "extract", "prog2", "-o", out], proj, cenv)
                f = defined_functions(out) if os.path.exists(out) else {}
                check(normalise(f) == sorted(["main", "util_b", "step", "pick", "s2_other"]),
                      "ccache %s: prog2 functions %s" % (attempt, sorted(f)))
            r = run(["ccache", "--print-stats"], tmp, cenv)
            hits = [int(line.split()[1]) for line in r.stdout.splitlines()
                    if line.split() and line.split()[0] in ("direct_cache_hit", "preprocessed_cache_hit")]
            check(sum(hits) > 0, "ccache: the warm build had no cache hit: %s" % r.stdout[:400])
        else:
            print("check_capture: ccache not on PATH (scripts/install-deps.sh installs it): the ccache case is skipped")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


LD_PROJECT = {
    "a/one.c": "__attribute__((noinline)) static int helper(int x) { return x + 1; }\n"
               "int one(int x) { return helper(x) * 2; }\n"
               "int one_unused(int x) { return x + 100; }\n",
    "b/two.c": "int two(int x) { return x * 3; }\n",
    "lib/l1.c": "int l1_used(int x) { return x + 11; }\n",
    "lib/l2.c": "int l2_other(int x) { return x + 22; }\n",
    # freestanding: the programs are linked by ld itself, with no C library
    "start.c": "int one(int), two(int), l1_used(int);\nvolatile int sink;\n"
               "void _start(void) { sink = one(1) + two(2) + l1_used(3); for (;;) ; }\n",
    "kern.lds": "ENTRY(_start)\nSECTIONS { . = 0x400000; .text : { *(.text*) } "
                ".data : { *(.data*) *(.bss*) *(COMMON) } }\n",
    # prog: a relocatable link (its inputs from a response file) and a thin archive, then ld;
    # kern: the Linux kernel's way (thin archives of thin archives, ld -r --whole-archive into
    # kern.o, then ld -T SCRIPT kern.o)
    "Makefile": """CFLAGS += -fno-stack-protector -fno-pie
all: prog kern
%.o: %.c
\t$(CC) $(CFLAGS) -c -o $@ $<
part.o: a/one.o b/two.o
\techo a/one.o b/two.o > part.rsp
\t$(LD) -r -o $@ @part.rsp
lib/libthin.a: lib/l1.o lib/l2.o
\trm -f $@; $(AR) rcsT $@ lib/l1.o lib/l2.o
prog: start.o part.o lib/libthin.a
\t$(LD) -e _start -o $@ start.o part.o lib/libthin.a
built-in.a: a/one.o b/two.o
\trm -f $@; $(AR) cDPrST $@ a/one.o b/two.o
all.a: built-in.a start.o
\trm -f $@; $(AR) cDPrST $@ built-in.a start.o
kern.o: all.a lib/libthin.a
\t$(LD) -r -o $@ --whole-archive all.a --no-whole-archive --start-group lib/libthin.a --end-group
kern: kern.o kern.lds
\t$(LD) -o $@ -T kern.lds kern.o
""",
}


def linkers(facet):
    """Builds that link with the linker itself: `$(LD) -r` then `$(LD)`, thin
    archives (ar rcsT, and the kernel's thin archive of thin archives linked
    -r --whole-archive), a response file; with GNU ld and with ld.lld-22.
    The native outputs equal the build's without facet; extract follows the
    bitcode through the -r outputs and the archives to the final link."""
    variants = [("ld", "ar", "-O0 -g", None), ("ld", "ar", "-O2 -g", None)]
    if shutil.which("ld.lld-22") and shutil.which("llvm-ar-22"):
        variants.append(("ld.lld-22", "llvm-ar-22", "-O2 -g", None))
        # the kernel's LTO way: clang -flto objects (bitcode), the linker called by its
        # absolute path (seen through the exec hook), ld.lld -r running LTO into part.o
        llvm_ld = os.path.join(os.path.dirname(os.path.realpath(shutil.which("clang-22"))), "ld.lld")
        if os.path.exists(llvm_ld) and shutil.which("ld.lld"):   # ld.lld on PATH: a name capture wraps
            variants.append((llvm_ld, "llvm-ar-22", "-O2 -g -flto", "clang-22"))
    # read from start.c, a/one.c, b/two.c and lib/l1.c: what _start reaches, and what the
    # used objects define (l2.o is never pulled: nothing references l2_other)
    reached = sorted(["_start", "one", "helper", "two", "l1_used"])
    linked = sorted(reached + ["one_unused"])
    tmp = tempfile.mkdtemp(prefix="facet-capture-ld-")
    try:
        for ld, ar, opt, cc in variants:
            what = "%s %s" % (ld, opt)
            env = dict(os.environ, CFLAGS=opt)
            env.pop("CC", None)
            vars_ = ["LD=" + ld, "AR=" + ar] + (["CC=" + cc] if cc else [])
            proj = os.path.join(tmp, "p")
            shutil.rmtree(proj, ignore_errors=True)
            for rel, text in LD_PROJECT.items():
                os.makedirs(os.path.dirname(os.path.join(proj, rel)), exist_ok=True)
                with open(os.path.join(proj, rel), "w") as f:
                    f.write(text)
            run(["make", "-s"] + vars_, proj, env)
            plain = {}
            for f in ("prog", "kern", "part.o", "kern.o"):
                with open(os.path.join(proj, f), "rb") as x:
                    plain[f] = x.read()
            run(["sh", "-c", "rm -f prog kern *.o */*.o *.a */*.a part.rsp"], proj, env)
            run([facet, "capture", "--", "make", "-s"] + vars_, proj, env)
            for f, data in plain.items():
                with open(os.path.join(proj, f), "rb") as x:
                    check(x.read() == data, "%s: %s differs from the build without facet" % (what, f))
            r = run([facet, "capture", "list", "--format", "json"], proj, env)
            progs = {os.path.relpath(p["path"], proj): p for p in json.loads(r.stdout)["programs"]} \
                if r.returncode == 0 else {}
            check(sorted(progs) == ["kern", "prog"], "%s: programs %s" % (what, sorted(progs)))
            for name in ("prog", "kern"):
                p = progs.get(name, {})
                # start.o, a/one.o, b/two.o, lib/l1.o
                check(p.get("units") == 4 and p.get("missing") == 0, "%s: %s listed as %s" % (what, name, p))
            for name, extra, want in (("prog", [], reached), ("prog", ["--keep-dead"], linked), ("kern", [], linked)):
                out = os.path.join(tmp, "%s.bc" % name)
                if os.path.exists(out):
                    os.unlink(out)
                r = run([facet, "capture", "extract", name, "-o", out] + extra, proj, env)
                got = sorted(defined_functions(out)) if os.path.exists(out) else None
                check(got == want, "%s: %s %s functions %s, expected %s" % (what, name, extra, got, want))
                if name == "kern":   # the linker script's KEEPs are not modelled: said, and nothing stripped
                    check("linker script" in r.stderr, "%s: kern extract does not say why nothing is stripped: %s"
                          % (what, r.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# Objects rewritten after the compile, as some builds do (the kernel's objtool; objcopy and strip in
# place elsewhere). Each source defines one function main calls (read from main.c's calls).
REWRITE_PROJECT = {
    "a.c": "int a_fn(int x) { return x + 1; }\n",
    "b.c": "int b_fn(int x) { return x * 2; }\n",
    "c.c": "int c_fn(int x) { return x - 3; }\n",
    "d.c": "int d_fn(int x) { return x ^ 4; }\n",
    "e.c": "int e_fn(int x) { return x + 5; }\n",
    "f.c": "int f_fn(int x) { return x + 6; }\n",
    "main.c": "int a_fn(int), b_fn(int), c_fn(int), d_fn(int), e_renamed(int), f_fn(int);\n"
              "int main(int argc, char **argv) { (void)argv;\n"
              "  return a_fn(argc) + b_fn(argc) + c_fn(argc) + d_fn(argc) + e_renamed(argc) + f_fn(argc); }\n",
    "note.txt": "a note section\n",
    # a.o: a section added in place; b.o: debug info stripped in place (by absolute path: the exec
    # hook); c.o: copied by objcopy into c2.o; d.o: rewritten in place, then archived;
    # e.o: a global renamed in place (its bitcode no longer describes it); f.o: rewritten in place
    # by a copy of objcopy under a name capture does not wrap (an unobserved tool)
    "Makefile": "CFLAGS = -O2 -g\nOBJCOPY = objcopy\n"
                "prog: main.o a.o b.o c2.o libd.a e.o f.o\n\t$(CC) -o $@ main.o a.o b.o c2.o e.o f.o libd.a\n"
                "a.o: a.c\n\t$(CC) $(CFLAGS) -c a.c\n\t$(OBJCOPY) --add-section .note.facet=note.txt a.o\n"
                "b.o: b.c\n\t$(CC) $(CFLAGS) -c b.c\n\t$(STRIP) --strip-debug b.o\n"
                "c2.o: c.c\n\t$(CC) $(CFLAGS) -c c.c\n\t$(OBJCOPY) --add-section .note.facet=note.txt c.o c2.o\n"
                "libd.a: d.c\n\t$(CC) $(CFLAGS) -c d.c\n\t$(OBJCOPY) -R .comment d.o\n\trm -f $@; ar rcs $@ d.o\n"
                "e.o: e.c\n\t$(CC) $(CFLAGS) -c e.c\n\t$(OBJCOPY) --redefine-sym e_fn=e_renamed e.o\n"
                "f.o: f.c\n\t$(CC) $(CFLAGS) -c f.c\n\tcp $(REAL_OBJCOPY) ./mycopy\n"
                "\t./mycopy --add-section .note.facet=note.txt f.o\n",
}


def rewrites(facet):
    """objcopy and strip rewriting objects after the compile: a rewrite that keeps the object's
    global symbols keeps its bitcode (in place, into another file, then archived); one that changes
    them, and a rewrite by a tool capture does not observe, are missing, each with its own reason.
    The native outputs equal the build's without facet."""
    tmp = tempfile.mkdtemp(prefix="facet-capture-rw-")
    try:
        env = dict(os.environ)
        env.pop("CC", None)
        strip = os.path.realpath(shutil.which("strip"))
        vars_ = ["STRIP=" + strip, "REAL_OBJCOPY=" + os.path.realpath(shutil.which("objcopy"))]
        proj = os.path.join(tmp, "p")
        for rel, text in REWRITE_PROJECT.items():
            os.makedirs(os.path.dirname(os.path.join(proj, rel)), exist_ok=True)
            with open(os.path.join(proj, rel), "w") as f:
                f.write(text)
        outs = ("prog", "a.o", "b.o", "c2.o", "libd.a", "e.o", "f.o")
        run(["make", "-s"] + vars_, proj, env)
        plain = {}
        for f in outs:
            with open(os.path.join(proj, f), "rb") as x:
                plain[f] = x.read()
        run(["sh", "-c", "rm -f prog *.o *.a mycopy"], proj, env)
        run([facet, "capture", "--", "make", "-s"] + vars_, proj, env)
        for f in outs:
            with open(os.path.join(proj, f), "rb") as x:
                check(x.read() == plain[f], "rewrites: %s differs from the build without facet" % f)
        r = run([facet, "capture", "list", "--format", "json"], proj, env)
        progs = json.loads(r.stdout)["programs"] if r.returncode == 0 else []
        p = progs[0] if len(progs) == 1 else {}
        missing = {os.path.basename(m.get("path", "")): m.get("reason", "") for m in p.get("missing_units", [])}
        check(p.get("units") == 7 and p.get("missing") == 2 and sorted(missing) == ["e.o", "f.o"],
              "rewrites: prog listed as %s" % p)
        check("rewritten by objcopy" in missing.get("e.o", "") and "symbols" in missing.get("e.o", ""),
              "rewrites: e.o's reason %r" % missing.get("e.o"))
        check("changed in place" in missing.get("f.o", ""), "rewrites: f.o's reason %r" % missing.get("f.o"))
        out = os.path.join(tmp, "prog.bc")
        r = run([facet, "capture", "extract", "prog", "-o", out], proj, env, expect=1)
        check(not os.path.exists(out) and "e.o" in r.stderr and "f.o" in r.stderr,
              "rewrites: extract without --allow-missing: %s" % r.stderr)
        run([facet, "capture", "extract", "prog", "--allow-missing", "-o", out], proj, env)
        got = sorted(defined_functions(out)) if os.path.exists(out) else None
        check(got == ["a_fn", "b_fn", "c_fn", "d_fn", "main"], "rewrites: prog functions %s" % got)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --prelink: units compiled at every -O level, each with its own flags
PRELINK_LEVELS = {"o0.c": "-O0", "o1.c": "-O1", "o2.c": "-O2 -fno-unroll-loops", "o3.c": "-O3", "os.c": "-Os",
                  "oz.c": "-Oz", "og.c": "-Og", "none.c": "", "cx.cc": "-O2", "main.c": "-O2"}
PRELINK_BODY = """
static int sq_%(n)s(int x) { return x * x; }              /* inlined at -O1 and up */
static int add_%(n)s(int x) { return x + 3; }
static int (*const table_%(n)s[])(int) = {sq_%(n)s, add_%(n)s};
int sum_%(n)s(const int *a, int n) {                        /* a loop the unroller sees */
    int s = 0;
    for (int i = 0; i < n; i++) s += sq_%(n)s(a[i]) + table_%(n)s[i & 1](a[i]);
    return s;
}
"""


def write_prelink_project(root):
    names = [os.path.splitext(f)[0] for f in PRELINK_LEVELS if f != "main.c"]
    for f in PRELINK_LEVELS:
        n = os.path.splitext(f)[0]
        if f == "main.c":
            text = "".join("int sum_%s(const int *, int);\n" % m for m in names)
            text += "int main(int argc, char **argv) { int a[8] = {argc, 2, 3, 4, 5, 6, 7, 8}; (void)argv;\n"
            text += "  return " + " + ".join("sum_%s(a, argc)" % m for m in names) + "; }\n"
        else:
            text = PRELINK_BODY % {"n": n}
            if f.endswith(".cc"):
                text = 'extern "C" {\n' + text + "}\n"
        with open(os.path.join(root, f), "w") as fh:
            fh.write(text)
    objs = " ".join(os.path.splitext(f)[0] + ".o" for f in PRELINK_LEVELS)
    rules = ["prog: %s\n\t$(CXX) -o prog %s\n" % (objs, objs)]
    for f, o in PRELINK_LEVELS.items():
        rules.append("%s.o: %s\n\t%s -g %s -c %s -o %s.o\n" % (os.path.splitext(f)[0], f,
                     "$(CXX)" if f.endswith(".cc") else "$(CC)", o, f, os.path.splitext(f)[0]))
    with open(os.path.join(root, "Makefile"), "w") as fh:
        fh.write("".join(rules))


def ir_text(bc):
    """llvm-dis text without local value names (opt -discard-value-names) and the ModuleID line."""
    names = subprocess.run(["opt-22", "-discard-value-names", "-passes=verify", bc, "-o", "-"], capture_output=True,
                           check=True).stdout
    return subprocess.run(["llvm-dis-22", "-o", "-"], input=names, capture_output=True,
                          check=True).stdout.decode().split("\n", 1)[1]


def one_step(unit, out):
    """The unit's bitcode compile with the optimizer in it: the command the build ran before."""
    args = list(unit["bitcode_arguments"])
    for flag in ("-disable-llvm-passes", "-emit-llvm-uselists"):
        i = args.index(flag)
        del args[i - 1:i + 1]
    args[args.index("-o") + 1] = out
    subprocess.run(args, cwd=unit["cwd"], capture_output=True, check=True)


def prelink_files(capdir):
    d = os.path.join(capdir, "prelink")
    return {f: os.stat(os.path.join(d, f)).st_mtime_ns for f in os.listdir(d)} if os.path.isdir(d) else {}


def prelink(facet):
    """The build runs clang's front end only; extract runs the pre-link optimizer per unit with the unit's own
    flags, cached: the result must be the one-step compile's IR at every -O level."""
    env = dict(os.environ)
    env.pop("CC", None)
    env.pop("CXX", None)
    tmp = tempfile.mkdtemp(prefix="facet-capture-prelink-")
    try:
        proj = os.path.join(tmp, "p")
        os.makedirs(proj)
        write_prelink_project(proj)
        capdir = os.path.join(proj, ".facet-capture")
        run([facet, "capture", "--", "make", "-s"], proj, env)
        with open(os.path.join(capdir, "manifest.json")) as f:
            man = json.load(f)
        units = {os.path.basename(u["source"]): u for u in man["units"]}
        check(sorted(units) == sorted(PRELINK_LEVELS), "prelink units %s" % sorted(units))
        out = os.path.join(tmp, "prog.bc")
        run([facet, "capture", "extract", capdir, "prog", "-o", out], proj, env)
        cached = prelink_files(capdir)
        check(len(cached) == len(units) and all(f.endswith(".bc") for f in cached),
              "prelink cache holds one file per unit: %s" % sorted(cached))
        for name, u in sorted(units.items()):
            level = PRELINK_LEVELS[name].split()[0] if PRELINK_LEVELS[name] else None
            check(u.get("optimization") == level, "%s: optimization %s, compiled with %s" % (name, u.get("optimization"),
                                                                                            level))
            check("-disable-llvm-passes" in u["bitcode_arguments"] and "-disable-llvm-passes" not in
                  u.get("prelink_arguments", []), "%s: bitcode/prelink arguments %s / %s" %
                  (name, u["bitcode_arguments"], u.get("prelink_arguments")))
            one = os.path.join(tmp, name + ".one.bc")
            one_step(u, one)
            raw = ir_text(os.path.join(capdir, u["bitcode"]))
            want = ir_text(one)
            # the build's bitcode is the front end's: at -O1 and up the optimizer had work left
            if level not in (None, "-O0"):
                check(raw != want and raw.count(" alloca ") > want.count(" alloca "),
                      "%s: the build's bitcode looks optimized already" % name)
            # the extract's: the one-step compile's IR, whatever the level
            mine = [f for f in cached if u["bitcode_hash"] and f.endswith(".bc")]
            got = None
            for f in mine:
                text = ir_text(os.path.join(capdir, "prelink", f))
                if text == want:
                    got = f
            check(got is not None, "%s (%s): no cached pre-link output equals the one-step compile's IR" %
                  (name, PRELINK_LEVELS[name] or "no -O"))
        # the module carries no local value names (clang keeps them for IR input; the strip's opt drops them)
        text = subprocess.run(["llvm-dis-22", out, "-o", "-"], capture_output=True, text=True).stdout
        labels = re.findall(r"^([A-Za-z_.][-\w.]*):", text, re.M)
        check(text and not labels, "extracted module has local names: %s" % labels[:5])
        with open(os.path.join(proj, "main.c")) as f:
            check(sorted(n for n in defined_functions(out) if n.startswith("sum_")) ==
                  sorted(re.findall(r"sum_\w+", f.read().split("main")[0])), "prelink prog functions")
        # a second extract runs nothing: the cache is untouched, the output the same bytes
        out2 = os.path.join(tmp, "prog2.bc")
        run([facet, "capture", "extract", capdir, "prog", "-o", out2], proj, env)
        check(prelink_files(capdir) == cached, "second extract changed the prelink cache")
        with open(out, "rb") as a, open(out2, "rb") as b:
            check(a.read() == b.read(), "second extract wrote a different module")
        prelink_bad(facet, proj, capdir, man, tmp, env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prelink_bad(facet, proj, capdir, man, tmp, env):
    """A failing optimizer run, malformed prelink_arguments, and a capture from before them."""
    path = os.path.join(capdir, "manifest.json")
    x = os.path.join(tmp, "x.bc")
    i = next(k for k, u in enumerate(man["units"]) if u["source"].endswith("o2.c"))
    def with_unit(**kw):
        units = list(man["units"])
        units[i] = dict(units[i], **kw)
        with open(path, "w") as f:
            json.dump(dict(man, units=units), f)
    with_unit(prelink_arguments=man["units"][i]["prelink_arguments"] + ["-mllvm", "-no-such-option-xyz"])
    r = run([facet, "capture", "extract", capdir, "prog", "-o", x], proj, env, expect=1)
    check("o2.c" in r.stderr and "pre-link" in r.stderr and "no-such-option-xyz" in r.stderr,
          "failing pre-link run: %s" % r.stderr.strip())
    check(not os.path.exists(x), "failing pre-link run: extract wrote a file")
    left = [f for f in os.listdir(os.path.join(capdir, "prelink")) if not f.endswith(".bc")]
    check(not left, "failing pre-link run left %s" % left)
    for bad in (3, [], ["clang-22", 4], "clang-22"):
        with_unit(prelink_arguments=bad)
        r = run([facet, "capture", "extract", capdir, "prog", "-o", x], proj, env, expect=1)
        check(path in r.stderr and "units[%d].prelink_arguments" % i in r.stderr,
              "prelink_arguments %r: %s" % (bad, r.stderr.strip()))
    # a capture made before the optimizer moved: no prelink_arguments, optimized bitcode; used as it is
    units = []
    for u in man["units"]:
        u = dict(u)
        u.pop("prelink_arguments")
        one_step(u, os.path.join(capdir, u["bitcode"]))
        with open(os.path.join(capdir, u["bitcode"]), "rb") as f:
            u["bitcode_hash"] = hashlib.sha256(f.read()).hexdigest()
        units.append(u)
    with open(path, "w") as f:
        json.dump(dict(man, units=units), f)
    shutil.rmtree(os.path.join(capdir, "prelink"))
    run([facet, "capture", "extract", capdir, "prog", "-o", x], proj, env)
    check(os.path.exists(x) and not os.path.exists(os.path.join(capdir, "prelink")),
          "a capture without prelink_arguments: extract ran the optimizer or failed")
    with open(path, "w") as f:
        json.dump(man, f)


def main():
    args = sys.argv[1:]
    bad = "--bad-input" in args
    systems = "--build-systems" in args
    lds = "--linkers" in args
    rw = "--rewrites" in args
    pl = "--prelink" in args
    args = [a for a in args if a not in ("--bad-input", "--build-systems", "--linkers", "--rewrites", "--prelink")]
    facet = os.path.abspath(args[0])
    for tool in ("clang-22", "llvm-nm-22", "llvm-dis-22", "opt-22", "cc", "c++", "make"):
        if not shutil.which(tool):
            print("check_capture: %s not on PATH" % tool)
            return 1
    if lds:
        if not shutil.which("ld"):
            print("check_capture: ld not on PATH")
            return 1
        linkers(facet)
    elif rw:
        if not shutil.which("objcopy") or not shutil.which("strip"):
            print("check_capture: objcopy or strip not on PATH")
            return 1
        rewrites(facet)
    elif systems:
        build_systems(facet)
    elif pl:
        prelink(facet)
    elif bad:
        bad_input(facet)
    else:
        for opt in ("-O0 -g", "-O2"):
            project(facet, opt)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
