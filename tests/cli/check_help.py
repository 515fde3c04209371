#!/usr/bin/env python3
"""check_help.py — the words (issue 21.6): `facet help concepts` prints
docs/concepts.md exactly; every command's --help (each command facet --help
lists, and facet-query's) says what R± may lose and where to read more.
Docs drift (issue 20.9): no --help text (docs/help/*.txt) leaves a {{...}}
unfilled, and every option a command's --help names is one its parser takes.

Usage: check_help.py FACET FACET_QUERY SRCDIR"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

if len(sys.argv) != 4:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, QUERY, SRC = (os.path.abspath(a) for a in sys.argv[1:])
checks = Checks()


def check(cond, what, detail=""):
    checks.check(cond, what, detail[-400:] if detail else None)


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)


r = run(FACET, "help", "concepts")
doc = open(os.path.join(SRC, "docs/concepts.md"), encoding="utf-8").read()
check(r.returncode == 0 and r.stdout == doc, "facet help concepts prints docs/concepts.md", r.stdout[:200])
check("nginx" in doc and "create_loc_conf" in doc and "may drop a true edge" in doc,
      "concepts.md has the nginx example and says what R± may drop")
top = run(FACET, "--help")
cmds = [ln.split()[0] for ln in top.stdout.split("commands:")[1].split("\n\n")[0].splitlines() if ln.strip()]
check(len(cmds) >= 15 and "report" in cmds and "callgraph" in cmds, "facet --help lists the commands", top.stdout)


def says_loss(text):
    return "R±" in text and "may lose a true edge" in text and "facet help concepts" in text


check(says_loss(top.stdout), "facet --help says what R± may lose", top.stdout)
for c in cmds:
    r = run(FACET, c, "--help")
    check(r.returncode == 0 and says_loss(r.stdout), f"facet {c} --help says what R± may lose", r.stdout + r.stderr)
    r2 = run(FACET, "help", c)
    check(r2.returncode == 0 and r2.stdout == r.stdout, f"facet help {c} = facet {c} --help", r2.stderr)
    check("{{" not in r.stdout, f"facet {c} --help fills every {{{{...}}}} of docs/help", r.stdout)
    # every long option the help names is one the command's parser knows (given alone:
    # a missing value or input is fine, "unknown option" is drift)
    for opt in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*[a-z]", r.stdout)) - {"--help"}):
        if c in ("capture", "trace"):
            continue   # subcommands: their options are checked below
        o = run(FACET, c, opt)
        check("unknown option" not in o.stderr, f"facet {c} takes {opt}, which its --help names", o.stderr)
for sub, opt in (("trace", ["build", "--keep-bc"]), ("capture", ["extract", "--keep-dead"])):
    o = run(FACET, sub, *opt)
    check("unknown option" not in o.stderr and "unexpected argument" not in o.stderr,
          f"facet {sub} {' '.join(opt)} is taken", o.stderr)
for args in (["--help"], ["overlay", "--help"]):
    r = run(QUERY, *args)
    check(r.returncode == 0 and says_loss(r.stdout), f"facet-query {' '.join(args)} says what R± may lose", r.stdout)
r = run(FACET, "help", "nosuch")
check(r.returncode == 2 and "nosuch" in r.stderr, "facet help nosuch is a usage error naming it", r.stderr)
sys.exit(checks.summary())
