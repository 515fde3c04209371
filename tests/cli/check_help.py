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

# The other direction: every option a command's spec (src/cli, cli/opt.h)
# accepts is named in its --help. The specs are read from the source: a
# `static const char NAME[] = "...";` or a string given to cli_begin or
# cli_args_parse; "@set" words stand for src/cli/opt.c's shared sets.
LIT = r'((?:"(?:[^"\\]|\\.)*"\s*)+)'
VAR = re.compile(r"static const char (\w+)\[\] =\s*" + LIT + ";")
CALL = re.compile(r"cli_(?:begin|args_parse)\([^,]+,\s*(\w+|" + LIT + r")")
GROUP = re.compile(r'\{"(\w+)",\s*' + LIT + r"\}")


def literal(text):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))


opt_c = open(os.path.join(SRC, "src/cli/opt.c"), encoding="utf-8").read()
groups = {name: literal(body) for name, body in GROUP.findall(opt_c)}
check({"oracle", "view", "source"} <= set(groups), "src/cli/opt.c has the shared option sets", str(groups))
specs = {}
for f in sorted(os.listdir(os.path.join(SRC, "src/cli"))):
    if f.startswith("cmd_") and f.endswith(".c"):
        text = open(os.path.join(SRC, "src/cli", f), encoding="utf-8").read()
        specs.update({(f, name): literal(body) for name, body in VAR.findall(text)})
        specs.update({(f, f"#{k}"): literal(lit) for k, (ref, lit) in enumerate(CALL.findall(text)) if lit})


def accepted(spec, seen=()):
    opts = []
    for word in spec.replace("+ ", "", 1).split():
        if word.startswith("@"):
            check(word[1:] in groups and word not in seen, f"shared option set {word} found in src/cli/opt.c")
            opts += accepted(groups.get(word[1:], ""), seen + (word,))
        else:
            opts += re.split(r"[|]", re.split(r"[=:]", word)[0])
    return opts


COMMANDS = [(c, f"cmd_{c}.c", None) for c in
            ("build", "callgraph", "explain", "fields", "pts", "rederive", "report", "source", "stats", "mcp",
             "score", "oo", "capture")]
COMMANDS += [("trace build", "cmd_trace.c", None), ("query", "cmd_query.c", "options"),
             ("overlay", "cmd_query.c", "overlay_options")]
for c, f, name in COMMANDS:
    bodies = [v for (ff, n), v in specs.items() if ff == f and (name is None or n == name)]
    if not check(bodies, f"src/cli/{f} has the option spec of facet {c}"):
        continue
    opts = [o for b in bodies for o in accepted(b)]
    check(len(opts) > 0, f"facet {c}: its spec has options")
    text = run(FACET, *c.split(), "--help").stdout
    for opt in opts:
        check(re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text) is not None,
              f"facet {c} --help names {opt}, which its parser takes")
r = run(FACET, "help", "nosuch")
check(r.returncode == 2 and "nosuch" in r.stderr, "facet help nosuch is a usage error naming it", r.stderr)
sys.exit(checks.summary())
