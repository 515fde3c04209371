"""harness.py — what the Python check scripts share (tests/lib): a counter
of checks that prints each failure, running a command with its output
captured, and compiling a test program to bitcode with clang-22 -g. A script
puts this directory on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from harness import Checks, run, compile_bc
"""
import json
import subprocess

CLANG = "clang-22"
CLANGXX = "clang++-22"


def _shown(detail, limit):
    if isinstance(detail, str):
        return detail[:limit]
    try:   # sets (the scripts compare sets of names) sorted, as JSON
        return json.dumps(detail, default=lambda o: sorted(o) if isinstance(o, (set, frozenset)) else str(o))[:limit]
    except (TypeError, ValueError):
        return str(detail)[:limit]


class Checks:
    """Counts checks; prints "FAIL what" for each failed one (and "ok   what"
    for each passed one when verbose)."""

    def __init__(self, verbose=False, limit=500):
        self.passed = self.failed = 0
        self.verbose = verbose
        self.limit = limit   # characters of a failure's detail shown

    def check(self, ok, what, detail=None):
        """Counts one check; returns ok (truthy or not) as a bool."""
        ok = bool(ok)
        if ok:
            self.passed += 1
            if self.verbose:
                print("ok   " + what)
        else:
            self.failed += 1
            shown = "" if detail is None or detail == "" else " " + _shown(detail, self.limit)
            print("FAIL " + what + shown)
        return ok

    def named(self, name, ok, detail=None):
        """check() with the name first (the MCP scripts' order)."""
        return self.check(ok, name, detail)

    def summary(self):
        """Prints "N passed, N failed"; returns the exit status (1 on a failure)."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def run(cmd, stdin=None, env=None, timeout=None):
    """Runs cmd (a list); returns (exit code, stdout, stderr) as text."""
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def compile_bc(src, out, opt="-O0", flags=(), cwd=None, textual=False):
    """Compiles src to LLVM bitcode at out: clang-22 -g OPT -c -emit-llvm
    (clang++-22 for a .cpp; -S with textual), then flags. Returns
    (ok, stderr)."""
    cc = CLANGXX if src.endswith((".cpp", ".cc")) else CLANG
    cmd = [cc, "-g", opt, "-c", "-emit-llvm", *(["-S"] if textual else []), *flags, src, "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    return p.returncode == 0, p.stderr
