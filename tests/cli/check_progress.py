#!/usr/bin/env python3
"""check_progress.py — the progress line (issue 21.5): on a terminal (a
pseudo-terminal from script(1)) facet build, callgraph and report show their
phase, report with a percentage; on a pipe nothing; an error message starts
on a line of its own. FACET_PROGRESS_AFTER=0 moves the one-second mark so
small programs show it.

Usage: check_progress.py FACET SRCDIR"""
import os
import shlex
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
    checks.check(cond, what, repr(detail[-400:]) if not cond else None)


def on_tty(*cmd):
    """cmd's terminal output (stdout and stderr both on the pty)."""
    line = "FACET_PROGRESS_AFTER=0 " + " ".join(shlex.quote(c) for c in cmd)
    r = subprocess.run(["script", "-qec", line, "/dev/null"], capture_output=True, timeout=120)
    return r.returncode, r.stdout.decode("utf-8", "replace")   # bytes: text mode would turn \r into \n


if not shutil.which("script"):
    print("script(1) is missing (util-linux)", file=sys.stderr)
    sys.exit(2)
work = tempfile.mkdtemp(prefix="facet-progress.")
bc, cat = f"{work}/p.bc", f"{work}/p.facet"
subprocess.run(["clang-22", "-g", "-c", "-emit-llvm", os.path.join(SRC, "tests/query/programs/proofs.c"), "-o", bc],
               check=True)
rc, out = on_tty(FACET, "build", bc, "-o", cat)
check(rc == 0 and "\rfacet build: points-to analysis" in out and "\rfacet build: refinement" in out,
      "build on a terminal: its phases", out)
rc, out = on_tty(FACET, "callgraph", bc)
check(rc == 0 and "\rfacet callgraph: refinement" in out, "callgraph on a terminal: its phases", out)
rc, out = on_tty(FACET, "report", cat, "-o", f"{work}/r")
check(rc == 0 and "site pages 100% (2/2)" in out and "\r\x1b[K" in out, "report on a terminal: pages with a percentage,"
      " then the line cleared", out)
r = subprocess.run([FACET, "report", cat, "-o", f"{work}/r2"], capture_output=True,
                   env=dict(os.environ, FACET_PROGRESS_AFTER="0"))
err = r.stderr.decode()
check(r.returncode == 0 and "\r" not in err and "%" not in err, "on a pipe: no progress line", err)
src = os.path.join(SRC, "tests/query/programs/proofs.c")   # C source: ingest refuses it after the line showed
rc, out = on_tty(FACET, "callgraph", src)
check(rc == 1 and "facet callgraph: reading and linking the inputs" in out
      and "\r\x1b[Kfacet callgraph: error:" in out, "an error clears the line and starts on its own", out)
status = checks.summary()
shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
