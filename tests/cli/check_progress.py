#!/usr/bin/env python3
"""check_progress.py — the progress line (issue 21.5): on a terminal (a
pseudo-terminal from script(1)) facet build, callgraph and report show their
phase, report with a percentage; on a pipe nothing; an error message starts
on a line of its own. FACET_PROGRESS_AFTER=0 moves the one-second mark so
small programs show it.

Usage: check_progress.py FACET SRCDIR"""
import os
import re
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

def phase_log(env_value, *cmd):
    """cmd's stderr on a pipe with FACET_PROGRESS_LOG=env_value: (rc, [(phase, seconds, rss, peak)], stderr)."""
    r = subprocess.run([FACET, *cmd], capture_output=True, env=dict(os.environ, FACET_PROGRESS_LOG=env_value))
    err = r.stderr.decode()
    rows = re.findall(r"^facet \w+: phase (.+) ended at ([0-9.]+) s: RSS ([0-9]+) MiB, peak ([0-9]+) MiB$", err, re.M)
    return r.returncode, [(p, float(t), int(m), int(k)) for p, t, m, k in rows], err


build_phases = ["reading and linking the inputs", "verifying the module", "lowering the module", "points-to analysis",
                "points-to analysis: solving", "refinement", "writing the catalog"]
rc, rows, err = phase_log("1", "build", bc, "-o", f"{work}/log.facet")
check(rc == 0 and [r[0] for r in rows] == build_phases, "FACET_PROGRESS_LOG=1 on a pipe: every phase of build ends"
      " on a line of its own, in order", err)
check(all(a[1] <= b[1] for a, b in zip(rows, rows[1:])) and all(0 < r[2] <= r[3] for r in rows)
      and all(a[3] <= b[3] for a, b in zip(rows, rows[1:])), "the log's seconds and peaks never fall, RSS <= peak", err)
check("\r" not in err, "the log on a pipe has no progress line", err)
rc, rows, err = phase_log("1", "stats", "--pta", bc)
check(rc == 0 and [r[0] for r in rows] == build_phases[:5], "stats --pta logs its phases", err)
for value in ("0", "", "yes", "11"):
    rc, rows, err = phase_log(value, "build", bc, "-o", f"{work}/log.facet")
    check(rc == 0 and not rows and "phase" not in err, f"FACET_PROGRESS_LOG={value!r}: no log", err)
rc, rows, err = phase_log("1", "build", os.path.join(SRC, "tests/query/programs/proofs.c"), "-o", f"{work}/x.facet")
check(rc == 1 and [r[0] for r in rows] == build_phases[:1] and "error" in err,
      "an input that does not read: the log says reading ended, then the error", err)
src = os.path.join(SRC, "tests/query/programs/proofs.c")   # C source: ingest refuses it after the line showed
rc, out = on_tty(FACET, "callgraph", src)
check(rc == 1 and "facet callgraph: reading and linking the inputs" in out
      and "\r\x1b[Kfacet callgraph: error:" in out, "an error clears the line and starts on its own", out)
status = checks.summary()
shutil.rmtree(work, ignore_errors=True)
sys.exit(status)
