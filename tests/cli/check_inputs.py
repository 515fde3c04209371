#!/usr/bin/env python3
"""check_inputs.py — inputs that are not bitcode get a message saying what
they are and what to do (issue 21.5): C source, an ELF object, an ELF
executable, an ar archive, a facet catalog. Each is made here from
tests/query/programs/proofs.c with clang-22 and llvm-ar-22, given to
`facet build` and `facet callgraph` (which draws a catalog: build alone
refuses that one); each must exit 1, name the file, say the
kind and the way out, and leave no output file.

Usage: check_inputs.py FACET SRCDIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

if len(sys.argv) != 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, SRC = (os.path.abspath(a) for a in sys.argv[1:])
checks = Checks()


def check(cond, what, detail=""):
    checks.check(cond, what, detail[:400] if not cond else None)


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


work = tempfile.mkdtemp(prefix="facet-inputs.")
prog = os.path.join(SRC, "tests/query/programs/proofs.c")
c = os.path.join(work, "prog.c")
shutil.copy(prog, c)
noext = os.path.join(work, "prog_source")
shutil.copy(prog, noext)
header = os.path.join(work, "ops.h")
open(header, "w").write("#ifndef OPS_H\n#define OPS_H\nstruct ops { int (*run)(int); };\n#endif\n")
obj, exe, ar, bc, cat = (os.path.join(work, n) for n in ("prog.o", "prog", "libprog.a", "prog.bc", "prog.facet"))
for cmd in (["clang-22", "-g", "-c", c, "-o", obj],
            ["clang-22", "-g", "-c", "-emit-llvm", c, "-o", bc]):
    r = run(*cmd)
    if r.returncode:
        print("cannot prepare:", " ".join(cmd), r.stderr, file=sys.stderr)
        sys.exit(2)
# the executable needs external_ops: a second unit defines it
stub = os.path.join(work, "stub.c")
open(stub, "w").write("struct ops; struct ops *external_ops(void) { return 0; }\n")
for cmd in (["clang-22", obj, stub, "-o", exe], ["llvm-ar-22", "rc", ar, obj], [FACET, "build", bc, "-o", cat]):
    r = run(*cmd)
    if r.returncode:
        print("cannot prepare:", " ".join(cmd), r.stderr, file=sys.stderr)
        sys.exit(2)

CASES = [(c, "C source", "-emit-llvm"), (noext, "C source", "facet capture"), (header, "C source", "-emit-llvm"),
         (obj, "ELF object", "-flto"), (exe, "ELF executable", "facet capture"), (ar, "ar archive", "facet capture"),
         (cat, "catalog", "facet query")]
for path, kind, remedy in CASES:
    # facet callgraph draws a catalog (tests/report/check_views.py): only build refuses one
    for verb in ("build",) if path == cat else ("build", "callgraph"):
        out = os.path.join(work, "out.facet")
        args = [FACET, verb, path] + (["-o", out] if verb == "build" else [])
        r = run(*args)
        what = f"facet {verb} {os.path.basename(path)}"
        check(r.returncode == 1, f"{what}: exit 1", f"rc {r.returncode}: {r.stderr}")
        check(path in r.stderr and kind in r.stderr and remedy in r.stderr,
              f"{what}: names the file, says '{kind}' and '{remedy}'", r.stderr)
        check("top-level entity" not in r.stderr, f"{what}: not LLVM's parser message", r.stderr)
        check(r.stdout == "" and not os.path.exists(out), f"{what}: prints nothing, writes nothing", r.stdout)
# real inputs still read
r = run(FACET, "callgraph", "--graph", "direct", bc)
check(r.returncode == 0 and "main" in r.stdout, "a bitcode file still reads", r.stderr)
ll = os.path.join(work, "prog.ll")
run("clang-22", "-g", "-S", "-emit-llvm", c, "-o", ll)
r = run(FACET, "callgraph", "--graph", "direct", ll)
check(r.returncode == 0 and "main" in r.stdout, "a textual IR file still reads", r.stderr)
status = checks.summary()
shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
