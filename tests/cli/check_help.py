#!/usr/bin/env python3
"""check_help.py — the words (issue 21.6): `facet help concepts` prints
docs/concepts.md exactly; every command's --help (each command facet --help
lists, and facet-query's) says what R± may lose and where to read more.
Docs drift (issue 20.9): no --help text (docs/help/*.txt) leaves a {{...}}
unfilled, every option a command's --help names is one its parser takes,
and every option a command's option table takes is named in its --help.

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
    return checks.check(cond, what, detail[-400:] if detail else None)


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

# The other direction: every option a command's table (src/cli) accepts is
# named in its --help. The tables are read from the source: rows
# CLI_OPT_VALUE/FLAG/LIST/PAIR("--name", ...) (or the oracle table's V/F
# shorthands), CLI_OPT_TABLE(shared) including a shared table's rows.
# capture parses its arguments by hand (src/cli/cmd_capture.c): not covered.
ROW = re.compile(r'(?:CLI_OPT_(?:VALUE|FLAG|LIST|PAIR)|\b[VF])\("([^"]+)"')
TABLE = re.compile(r"const cli_opt (\w+)\[\] = \{(.*?)\};", re.S)
tables = {}
for f in sorted(os.listdir(os.path.join(SRC, "src/cli"))):
    if f.endswith(".c"):
        text = open(os.path.join(SRC, "src/cli", f), encoding="utf-8").read()
        for name, body in TABLE.findall(text):
            tables[(f, name)] = body
            tables[name] = body


def accepted(body, seen=()):
    opts = ROW.findall(body)
    for shared in re.findall(r"CLI_OPT_TABLE\((\w+)", body):
        check(shared in tables and shared not in seen, f"shared option table {shared} found in src/cli")
        opts += accepted(tables.get(shared, ""), seen + (shared,))
    return opts


COMMAND_TABLES = [(c, f"cmd_{c}.c", "table") for c in
                  ("build", "callgraph", "explain", "fields", "pts", "rederive", "report", "source", "stats", "mcp",
                   "score", "oo")]
COMMAND_TABLES += [("trace build", "cmd_trace.c", "table"), ("query", "cmd_query.c", "table"),
                   ("overlay", "cmd_query.c", "overlay_table")]
for c, f, name in COMMAND_TABLES:
    body = tables.get((f, name))
    if not check(body is not None, f"src/cli/{f} has the option table {name} of facet {c}"):
        continue
    opts = accepted(body)
    check(len(opts) > 0, f"facet {c}: its table has options")
    text = run(FACET, *c.split(), "--help").stdout
    for opt in opts:
        check(re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text) is not None,
              f"facet {c} --help names {opt}, which its parser takes")
r = run(FACET, "help", "nosuch")
check(r.returncode == 2 and "nosuch" in r.stderr, "facet help nosuch is a usage error naming it", r.stderr)
sys.exit(checks.summary())
