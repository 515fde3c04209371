#!/usr/bin/env python3
"""namematch.py — the baseline call graph tools build without a compiler
(tree-sitter call graphs, GNU cflow): the rightmost identifier before '('
names the callee, and the call is linked to every function of that name
defined anywhere in the tree; a name no file defines is an external edge of
that name. Macros are not expanded, types are not known, so `ops->read(x)`
links to every function named `read` and `fp(x)` to nothing unless a
function is named `fp`.

edges(tree) -> (set of (file, line, callee name), {(file, line): names at
member calls, i.e. `->name(` and `.name(`}); include_dirs(tree) is the
include directories facet source guesses (the same rule, for the speed
comparison: every D such that some #include "X" or <X> resolves to D/X)."""
import os
import re
import sys

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "_Alignof", "alignof", "__typeof__", "typeof",
            "__attribute__", "__asm__", "asm", "__asm", "defined", "case", "do", "else", "goto", "_Generic",
            "__builtin_offsetof", "offsetof", "__declspec", "_Static_assert", "static_assert"}

TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<pp>^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<arrow>->)
  | (?P<punct>[{}();.=,\[\]])
  | (?P<nl>\n)
""", re.S | re.M | re.X)


def c_files(tree):
    for root, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(root, f)


def tokens(text):
    line = 1
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "nl":
            line += 1
            continue
        s = m.group()
        if kind in ("comment", "string", "pp"):
            line += s.count("\n")
            continue
        yield kind, s, line


def scan(path):
    """(definitions, calls): calls as (line, name, member, the enclosing definition)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return [], []
    toks = list(tokens(text))
    defs, calls = [], []
    depth = 0
    in_body = False
    for i, (kind, s, line) in enumerate(toks):
        if s == "{":
            if depth == 0 and i > 0 and toks[i - 1][1] == ")":
                # a function definition: the identifier before the matching '('
                k, level = i - 1, 0
                while k >= 0:
                    if toks[k][1] == ")":
                        level += 1
                    elif toks[k][1] == "(":
                        level -= 1
                        if level == 0:
                            break
                    k -= 1
                if k > 0 and toks[k - 1][0] == "ident" and toks[k - 1][1] not in KEYWORDS:
                    defs.append(toks[k - 1][1])
                    in_body = True
            depth += 1
        elif s == "}":
            depth = max(0, depth - 1)
            if depth == 0:
                in_body = False
        elif kind == "ident" and in_body and s not in KEYWORDS and i + 1 < len(toks) and toks[i + 1][1] == "(":
            member = i > 0 and toks[i - 1][1] in ("->", ".")
            calls.append((line, s, member, defs[-1]))
    return defs, calls


def edges(tree, by_caller=None):
    """(every edge as (file, line, name), {member-call line: target names});
    with by_caller a set, also every edge as (file, caller, name) into it."""
    defined = set()
    per_file = []
    for path in c_files(tree):
        d, c = scan(path)
        defined.update(d)
        per_file.append((os.path.relpath(path, tree), c))
    all_edges, member_lines = set(), {}
    for rel, calls in per_file:
        for line, name, member, caller in calls:
            # every definition of the name, or the name as an external: either way the edge's target is the name
            all_edges.add((rel, line, name))
            if by_caller is not None:
                by_caller.add((rel, caller, name))
            if member:
                member_lines.setdefault((rel, line), set())
                if name in defined:
                    member_lines[(rel, line)].add(name)
    # targets per member call: the number of functions so named (definitions, counted by file)
    counts = {}
    for path in c_files(tree):
        for d in scan(path)[0]:
            counts[d] = counts.get(d, 0) + 1
    widths = {k: {f"{n}#{i}" for n in v for i in range(counts.get(n, 0))} for k, v in member_lines.items()}
    return all_edges, widths


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)


def include_dirs(tree):
    headers = {}
    files = list(c_files(tree))
    for p in files:
        if p.endswith(".h"):
            headers.setdefault(os.path.basename(p), []).append(os.path.relpath(p, tree))
    dirs, seen = [], set()
    for p in sorted(f for f in files if f.endswith(".c")) + sorted(f for f in files if f.endswith(".h")):
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        for name in INCLUDE.findall(text):
            for h in headers.get(os.path.basename(name), ()):
                if h.endswith("/" + name):
                    d = h[: -len(name) - 1]
                    if d not in seen:
                        seen.add(d)
                        dirs.append(d)
    return dirs


if __name__ == "__main__":
    e, m = edges(sys.argv[1])
    print(len(e), "edges,", len(m), "member-call lines")
