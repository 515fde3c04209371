#!/usr/bin/env python3
"""check_sites.py — check `facet callgraph --graph direct --format json` against
markers written in the C sources of tests/programs/.

Usage: check_sites.py FACET SRCDIR [-k] [-v] [PROGRAM...]

  FACET     the facet binary
  SRCDIR    the repository root; programs are compiled from there, so the
            debug info names them tests/programs/NAME.c
  -k        keep the temporary directory (its path is printed)
  -v        print every check, not only failures
  PROGRAM   restrict to these programs (file names like recursion.c)

Every program tests/programs/*.c is compiled with `clang-22 -g -O0` and
`-O2 -c -emit-llvm`; a program whose comment says `@link-with OTHER.c` is
checked alone and also linked with OTHER.c (both files given to facet), and
OTHER.c is also checked alone.  The expected answers come only from the
markers below, which were written by reading the programs; nothing here is
taken from facet's output.

Markers (inside a /* ... */ comment on the line they describe; several may
share a comment; LEVELS is O0 or O2 and limits the marker to that level,
no LEVELS means both):

  @call[(LEVELS)] NAME[=ANCHOR]
      a direct call site to NAME is on this line.  NAME ending in '*' is a
      prefix (llvm.memcpy* matches llvm.memcpy.p0.p0.i64).  ANCHOR is the text
      where the call expression starts when it is not `NAME(` (a builtin
      macro such as va_start, or memcpy that becomes llvm.memcpy).
  @icall[(LEVELS)] ANCHOR
      an indirect call site whose call expression starts at ANCHOR
      (`p->fn`, `(*fp)`, `tbl[i]`).
  @asm[(LEVELS)] [ANCHOR]
      an inline-asm call site starting at ANCHOR (default `__asm__`).
  @inline-call[(LEVELS)] NAME[=ANCHOR]
      this line calls NAME, a function that -O2 inlines: at O0 it is a direct
      call to NAME; at O2 some site carries an inlined_at entry for this line
      (function = the function around this line, column = where the call
      starts), and the entry before it, or for the first entry the site
      itself, lies in NAME's body.  When NAME's body holds a @call marker to
      a function (not an intrinsic, which -O2 may fold away; not an indirect
      call, which it may devirtualize), some site has this entry as
      inlined_at[0].
  @address-taken[(LEVELS)] [NAME]
      on a definition line: this function's address is taken by LLVM's
      CallGraph rule (a use other than as the callee of a call, except an
      argument that a callback-attributed broker will call); with NAME: the
      declared or defined function NAME.  Every other function must have
      address_taken false.
  @link-with FILE.c
      (in the file comment) the program is FILE.c and this file linked.

Column rule (what clang-22 records as the DILocation of a call, checked on
this corpus): the column is the 1-based byte offset, a tab counting as one,
of the first character of the call expression, that is of its callee
expression: `f(x)` -> the `f`; `p->fn(x)` -> the `p`; `(*fp)(x)` -> the
`(`; `tbl[i](x)` -> the `t`; `s.fn(&x)` -> the `s`; a builtin behind a
macro (va_start) -> the macro name; `__asm__ volatile(...)` -> `__asm__`.
The k-th marker for the same anchor on a line is the k-th occurrence of the
anchor in the code before the marker comment.

Checks, for every module and level:
  * the JSON has the documented shape (graph "direct"; functions with name,
    file, line, defined, address_taken; sites with id, caller, file, line,
    column, inlined_at, kind, targets; direct sites have one target, which is
    a listed function; indirect and asm sites have none in the direct graph);
    site ids are unique and two runs print the same JSON;
  * every marker applying at the level has a site with that kind, target,
    file, line and column (and the inlining checks above);
  * completeness: every site located in a program file whose target is not
    an llvm.* intrinsic is claimed by a marker on its line (same kind and
    target, and column); sites in system headers (glibc inlines atoi as
    strtol at O2) are exempt, and at O0 every site has a location;
  * the caller of a site, and the function of each inlined_at entry, is the
    function whose body holds that location;
  * the defined functions are exactly the definitions in the sources at O0
    (a subset at O2, where inlined static functions disappear), each with
    the file and line of the line holding its name;
  * address_taken is true exactly for the marked functions;
  * at -O0, `facet stats --format json` counts what the markers say:
    debug_info true, functions_defined, sites_indirect (@icall markers),
    sites_asm (@asm markers), address_taken (@address-taken markers), and
    sites_with_location equal to sites.
Function definitions are found by layout: a body opens with `{` alone in
column 0 and closes with `}` alone in column 0; the definition line is the
nearest line above the `{` that starts in column 0 and contains `NAME(`.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc  # noqa: E402

LEVELS = ("O0", "O2")
PROGDIR = "tests/programs"


class Failure(Exception):
    pass


# --------------------------------------------------------------------------
# Source scanning: definitions and markers.

class Marker:
    def __init__(self, kind, levels, arg, file, line, code):
        self.kind = kind            # call, icall, asm, inline-call, address-taken, link-with
        self.levels = levels        # set of "O0"/"O2"
        self.file = file            # path relative to SRCDIR
        self.line = line
        self.code = code            # the line's text before the marker comment
        self.name = None            # target name (call, inline-call, address-taken)
        self.anchor = None          # where the call expression starts
        self.column = None          # expected column, filled in by place_anchors()
        if kind in ("call", "inline-call"):
            if not arg:
                raise Failure("%s:%d: @%s needs a name" % (file, line, kind))
            name, _, anchor = arg.partition("=")
            self.name = name
            self.anchor = anchor or None
        elif kind == "icall":
            if not arg:
                raise Failure("%s:%d: @icall needs the callee expression" % (file, line))
            self.anchor = arg
        elif kind == "asm":
            self.anchor = arg or "__asm__"
        elif kind in ("address-taken", "link-with"):
            self.name = arg or None

    def where(self):
        return "%s:%d" % (self.file, self.line)

    def describe(self):
        what = {"call": "direct call to %s" % self.name,
                "inline-call": "call to %s" % self.name,
                "icall": "indirect call %s(...)" % self.anchor,
                "asm": "inline asm"}.get(self.kind, self.kind)
        return "%s at %s:%s" % (what, self.where(), self.column)


MARKER_RE = re.compile(r"@([a-z-]+)(?:\(([^)]*)\))?")


def parse_markers(path, lineno, text):
    """Markers of one source line: (code before the marker comment, [Marker])."""
    for c in re.finditer(r"/\*(.*?)(?:\*/|$)", text):
        if "@" in c.group(1):
            code, body = text[:c.start()], c.group(1)
            break
    else:
        return text, []
    tokens = body.split()
    markers = []
    i = 0
    while i < len(tokens):
        m = MARKER_RE.fullmatch(tokens[i])
        if not m:
            i += 1
            continue
        kind, lv = m.group(1), m.group(2)
        if kind not in ("call", "icall", "asm", "inline-call", "address-taken", "link-with"):
            raise Failure("%s:%d: unknown marker @%s" % (path, lineno, kind))
        levels = set(LEVELS)
        if lv:
            levels = set(x.strip() for x in lv.split(","))
            if not levels <= set(LEVELS):
                raise Failure("%s:%d: bad levels '%s'" % (path, lineno, lv))
        arg = None
        if i + 1 < len(tokens) and not tokens[i + 1].startswith("@"):
            arg = tokens[i + 1]
            i += 1
        markers.append(Marker(kind, levels, arg, path, lineno, code))
        i += 1
    return code, markers


def blank_literals(code):
    """`code` with the inside of string and character literals blanked, so
    that `"fib(%u)"` is not taken for a call of fib; columns are kept."""
    out, quote, i = [], None, 0
    while i < len(code):
        c = code[i]
        if quote:
            if c == "\\":
                out.append("  ")
                i += 2
                continue
            if c == quote:
                quote = None
                out.append(c)
            else:
                out.append(" ")
        else:
            if c in "\"'":
                quote = c
            out.append(c)
        i += 1
    return "".join(out)


def anchor_positions(code, anchor, is_callee_name):
    """1-based columns where `anchor` occurs in `code`, outside literals."""
    code = blank_literals(code)
    if is_callee_name:
        rx = re.compile(r"(?<![\w.])" + re.escape(anchor) + r"\s*\(")
    else:
        pre = r"(?<![\w.])" if re.match(r"\w", anchor) else ""
        post = r"(?!\w)" if re.search(r"\w$", anchor) else ""
        rx = re.compile(pre + re.escape(anchor) + post)
    return [m.start() + 1 for m in rx.finditer(code)]


def place_anchors(markers):
    """Give each call-like marker of one line its expected column."""
    seen = {}
    for mk in markers:
        if mk.kind not in ("call", "icall", "asm", "inline-call"):
            continue
        if mk.anchor is None:
            anchor, by_name = mk.name, True
        else:
            anchor, by_name = mk.anchor, False
        # markers for different levels may describe the same call
        nth = max(seen.get((anchor, lv), 0) for lv in mk.levels)
        for lv in mk.levels:
            seen[(anchor, lv)] = nth + 1
        cols = anchor_positions(mk.code, anchor, by_name)
        if nth >= len(cols):
            raise Failure("%s: marker names '%s' but the line has %d such call(s)"
                          % (mk.where(), anchor, len(cols)))
        mk.column = cols[nth]


class Definition:
    def __init__(self, name, file, line, body_start, body_end, static):
        self.name = name
        self.file = file
        self.line = line
        self.body = (body_start, body_end)   # line numbers of { and }
        self.static = static


NOT_NAMES = {"if", "while", "for", "switch", "return", "sizeof", "__attribute__"}


def scan_file(srcdir, rel):
    """Definitions and markers of one source file."""
    with open(os.path.join(srcdir, rel), encoding="utf-8") as f:
        lines = f.read().split("\n")
    defs, markers = [], []
    cur = None
    for idx, text in enumerate(lines):
        lineno = idx + 1
        code, mks = parse_markers(rel, lineno, text)
        place_anchors(mks)
        markers.extend(mks)
        if text == "{" and cur is None:
            j = idx - 1
            while j >= 0 and (not lines[j] or lines[j][0] in " \t"):
                j -= 1
            if j < 0:
                raise Failure("%s:%d: '{' with no function signature above it" % (rel, lineno))
            sig = parse_markers(rel, j + 1, lines[j])[0]
            m = None
            for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", sig):
                if m.group(1) not in NOT_NAMES:
                    break
            if not m or m.group(1) in NOT_NAMES:
                raise Failure("%s:%d: cannot find the function name above this '{'" % (rel, lineno))
            # 'static' is on the signature line or, in GNU layout, on the line above
            above = lines[j - 1] if j > 0 else ""
            static = bool(re.search(r"\bstatic\b", sig)) or (
                bool(re.match(r"static\b", above)) and not above.rstrip().endswith(";"))
            cur = Definition(m.group(1), rel, j + 1, lineno, None, static)
        elif text == "}" and cur is not None:
            cur.body = (cur.body[0], lineno)
            defs.append(cur)
            cur = None
    if cur is not None:
        raise Failure("%s: function %s never closes" % (rel, cur.name))
    # address-taken on a definition line names that definition
    for mk in markers:
        if mk.kind == "address-taken" and mk.name is None:
            hits = [d for d in defs if d.line == mk.line]
            if len(hits) != 1:
                raise Failure("%s: @address-taken is not on a definition line" % mk.where())
            mk.name = hits[0].name
    return defs, markers, lines


def local_includes(srcdir, rel):
    out = []
    with open(os.path.join(srcdir, rel), encoding="utf-8") as f:
        for text in f:
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', text)
            if m:
                out.append(os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1))))
    return out


class Unit:
    """One module given to facet: one or more .c files and their headers."""

    def __init__(self, srcdir, cfiles):
        self.cfiles = cfiles
        self.name = "+".join(os.path.basename(c) for c in cfiles)
        self.files = {}                 # rel path -> (defs, markers)
        self.expected_defs = []         # one entry per emitted copy
        for c in cfiles:
            for rel in [c] + local_includes(srcdir, c):
                if rel not in self.files:
                    defs, markers, _ = scan_file(srcdir, rel)
                    self.files[rel] = (defs, markers)
                self.expected_defs.extend(self.files[rel][0])

    def markers(self, level):
        for rel in self.files:
            for mk in self.files[rel][1]:
                if level in mk.levels:
                    yield mk

    def enclosing(self, file, line):
        """Name of the function whose body holds file:line, or None."""
        if file not in self.files:
            return None
        for d in self.files[file][0]:
            if d.body[0] <= line <= d.body[1]:
                return d.name
        return None

    def definition(self, name, file=None):
        for rel in self.files:
            for d in self.files[rel][0]:
                if d.name == name and (file is None or d.file == file):
                    return d
        return None


# --------------------------------------------------------------------------
# Matching facet's output against the markers.

def base_name(name):
    """Strip the .N suffix LLVM adds when it renames a colliding local symbol."""
    return re.sub(r"\.\d+$", "", name)


def target_matches(unit, funcs, marker_name, target):
    if marker_name.endswith("*"):
        return target.startswith(marker_name[:-1])
    if target == marker_name:
        return True
    # a static renamed on linking: same name before the suffix, defined in a
    # file of this module that defines marker_name
    f = funcs.get(target)
    if f and f.get("defined") and base_name(target) == marker_name:
        d = unit.definition(marker_name, f.get("file"))
        return d is not None and d.static
    return False


def site_str(s):
    chain = "".join(" <- %s@%s:%s:%s" % (e.get("function"), e.get("file"), e.get("line"), e.get("column"))
                    for e in s.get("inlined_at", []))
    return "site %s in %s at %s:%s:%s [%s -> %s]%s" % (
        s.get("id"), s.get("caller"), s.get("file"), s.get("line"), s.get("column"),
        s.get("kind"), ",".join(s.get("targets", [])) or "-", chain)


def has_keys(entry, types):
    """The first key of `types` that `entry` lacks or has with a wrong type, or
    None.  `file` may be null where there is no location (line 0)."""
    if not isinstance(entry, dict):
        return "(not an object)"
    for k, t in types.items():
        v = entry.get(k)
        if k == "file" and v is None and entry.get("line") == 0:
            continue
        if not isinstance(v, t) or (t is int and isinstance(v, bool)):
            return k
    return None


def check_shape(doc, errors):
    if not isinstance(doc, dict):
        errors.append("output is not a JSON object")
        return False
    if doc.get("graph") != "direct":
        errors.append("\"graph\" is %r, expected \"direct\"" % doc.get("graph"))
    funcs, sites = doc.get("functions"), doc.get("sites")
    if not isinstance(funcs, list) or not isinstance(sites, list):
        errors.append("missing \"functions\" or \"sites\" array")
        return False
    ftypes = {"name": str, "file": str, "line": int, "defined": bool, "address_taken": bool}
    stypes = {"id": int, "caller": str, "file": str, "line": int, "column": int,
              "inlined_at": list, "kind": str, "targets": list}
    itypes = {"function": str, "file": str, "line": int, "column": int}
    ok = True
    names = set()
    for f in funcs:
        k = has_keys(f, ftypes)
        if k:
            errors.append("function entry %r: key %r missing or not %s" % (f, k, ftypes.get(k, dict).__name__))
            ok = False
            continue
        if f["name"] in names:
            errors.append("function %s listed twice" % f["name"])
        names.add(f["name"])
    if not ok:
        return False
    ids = set()
    for s in sites:
        k = has_keys(s, stypes)
        if k:
            errors.append("site entry %r: key %r missing or not %s" % (s, k, stypes.get(k, dict).__name__))
            ok = False
            continue
        for e in s["inlined_at"]:
            k = has_keys(e, itypes)
            if k:
                errors.append("%s: inlined_at entry %r: key %r missing or not %s"
                              % (site_str(s), e, k, itypes.get(k, dict).__name__))
                ok = False
        if s["id"] in ids:
            errors.append("site id %d used twice" % s["id"])
        ids.add(s["id"])
        if s["kind"] not in ("direct", "indirect", "asm"):
            errors.append("%s: kind %r" % (site_str(s), s["kind"]))
        elif s["kind"] == "direct":
            if len(s["targets"]) != 1 or s["targets"][0] not in names:
                errors.append("%s: a direct site must have one target that is a listed function" % site_str(s))
        elif s["targets"]:
            errors.append("%s: an %s site has no targets in the direct graph" % (site_str(s), s["kind"]))
        if s["caller"] not in names:
            errors.append("%s: caller is not a listed function" % site_str(s))
    return ok


def is_intrinsic(s):
    return s["kind"] == "direct" and s["targets"][0].startswith("llvm.")


def marker_claims(unit, funcs, mk, s):
    """True when site s is the call marker mk describes (call, icall, asm)."""
    if s["file"] != mk.file or s["line"] != mk.line or s["column"] != mk.column:
        return False
    if mk.kind == "call":
        return s["kind"] == "direct" and target_matches(unit, funcs, mk.name, s["targets"][0])
    if mk.kind == "icall":
        return s["kind"] == "indirect"
    if mk.kind == "asm":
        return s["kind"] == "asm"
    return False


def check_unit_level(unit, level, doc, errors):
    funcs = {f["name"]: f for f in doc["functions"]}
    sites = doc["sites"]
    markers = list(unit.markers(level))
    call_markers = []
    for mk in markers:
        if mk.kind == "inline-call" and level == "O0":
            m2 = Marker("call", {level}, mk.name + ("=" + mk.anchor if mk.anchor else ""), mk.file, mk.line, mk.code)
            m2.column = mk.column
            call_markers.append(m2)
        elif mk.kind in ("call", "icall", "asm"):
            call_markers.append(mk)

    # every call marker has its site
    for mk in call_markers:
        hits = [s for s in sites if marker_claims(unit, funcs, mk, s)]
        if not hits:
            near = [s for s in sites if s["file"] == mk.file and s["line"] == mk.line]
            errors.append("no site for %s; sites on that line: %s"
                          % (mk.describe(), "; ".join(site_str(s) for s in near) or "none"))

    # inlining markers
    if level == "O2":
        for mk in markers:
            if mk.kind != "inline-call" or level not in mk.levels:
                continue
            caller = unit.enclosing(mk.file, mk.line)
            # a static of the marker's own file first (the linked module may
            # hold several functions of that name)
            body = unit.definition(mk.name, mk.file) or unit.definition(mk.name)
            found, first = False, False
            for s in sites:
                chain = s["inlined_at"]
                for k, e in enumerate(chain):
                    if (e["file"], e["line"], e["column"]) != (mk.file, mk.line, mk.column):
                        continue
                    if e["function"] != caller:
                        errors.append("%s: inlined_at[%d] names function %r, expected %r"
                                      % (site_str(s), k, e["function"], caller))
                    if k == 0:
                        # line 0: a location merged from several calls says nothing
                        inside = body is None or s["line"] == 0 or (
                            s["file"] == body.file and body.body[0] <= s["line"] <= body.body[1])
                    else:
                        inside = chain[k - 1]["function"] == mk.name
                    if inside:
                        found = True
                        first = first or k == 0
            if not found:
                errors.append("no site inlined from %s into %s at %s:%d:%s (expected an inlined_at entry there)"
                              % (mk.name, caller, mk.file, mk.line, mk.column))
            elif body is not None and not first:
                own_calls = [m for m in unit.markers(level) if m.kind == "call" and not m.name.startswith("llvm.")
                             and m.file == body.file and body.body[0] <= m.line <= body.body[1]]
                if own_calls:
                    errors.append("no site of %s's body has inlined_at[0] at %s:%d:%s"
                                  % (mk.name, mk.file, mk.line, mk.column))

    # completeness, callers, inlined_at functions
    for s in sites:
        if s["line"] == 0:
            if level == "O0":
                errors.append("%s: no debug location at -O0" % site_str(s))
            continue
        if s["file"] in unit.files:
            if not is_intrinsic(s) and not any(marker_claims(unit, funcs, mk, s) for mk in call_markers):
                errors.append("%s: no marker claims this site" % site_str(s))
        chain = s["inlined_at"]
        outer = chain[-1] if chain else s
        encl = unit.enclosing(outer["file"], outer["line"])
        if outer["file"] in unit.files and encl != base_name(s["caller"]):
            errors.append("%s: caller should be %s (the function around %s:%d)"
                          % (site_str(s), encl, outer["file"], outer["line"]))
        for k, e in enumerate(chain):
            if e["file"] in unit.files:
                want = unit.enclosing(e["file"], e["line"])
                if e["function"] != want:
                    errors.append("%s: inlined_at[%d].function should be %s" % (site_str(s), k, want))
        if level == "O0" and chain:
            errors.append("%s: inlined at -O0" % site_str(s))

    # defined functions: file and line, exact set at O0
    expected = {}
    for d in unit.expected_defs:
        expected.setdefault((d.name, d.file, d.line), 0)
        expected[(d.name, d.file, d.line)] += 1
    got = {}
    for f in doc["functions"]:
        if not f["defined"]:
            continue
        key = (base_name(f["name"]), f["file"], f["line"])
        got[key] = got.get(key, 0) + 1
        if key not in expected:
            d = unit.definition(base_name(f["name"]))
            errors.append("defined function %s at %s:%d; expected %s"
                          % (f["name"], f["file"], f["line"],
                             "%s:%d" % (d.file, d.line) if d else "no such definition in the sources"))
    for key, n in expected.items():
        have = got.get(key, 0)
        if have > n or (level == "O0" and have != n):
            errors.append("function %s defined at %s:%d: %d cop%s listed, expected %d"
                          % (key[0], key[1], key[2], have, "y" if have == 1 else "ies", n))

    # address_taken exactly for the marked functions
    taken = [mk for mk in markers if mk.kind == "address-taken"]
    for f in doc["functions"]:
        want = False
        for mk in taken:
            if f["name"] == mk.name:
                want = True
            elif base_name(f["name"]) == mk.name and f["defined"] and f["file"] == mk.file:
                want = True
        if f["address_taken"] != want:
            errors.append("function %s: address_taken is %s, expected %s"
                          % (f["name"], str(f["address_taken"]).lower(), str(want).lower()))


def check_stats(unit, stats, errors):
    """`facet stats --format json` at -O0 against the markers: at -O0 every
    call of the source is a site, so the counts follow from the markers."""
    markers = list(unit.markers("O0"))
    want = {
        "debug_info": True,
        "functions_defined": len(unit.expected_defs),
        "sites_indirect": sum(1 for mk in markers if mk.kind == "icall"),
        "sites_asm": sum(1 for mk in markers if mk.kind == "asm"),
        "address_taken": len(set((mk.name, mk.file) for mk in markers if mk.kind == "address-taken")),
    }
    if not isinstance(stats, dict):
        errors.append("stats --format json did not print an object")
        return
    for k, v in want.items():
        if k not in stats:
            errors.append("stats --format json has no key %r (keys: %s)" % (k, ", ".join(sorted(stats))))
        elif stats[k] != v:
            errors.append("stats: %s is %r, expected %r" % (k, stats[k], v))
    if "sites" in stats and "sites_with_location" in stats and stats["sites"] != stats["sites_with_location"]:
        errors.append("stats: %r of %r sites have a location; at -O0 all do"
                      % (stats["sites_with_location"], stats["sites"]))


# --------------------------------------------------------------------------
# Driving clang and facet.

def run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def compile_c(srcdir, rel, level, out, textual=False):
    ok, err = compile_bc(rel, out, "-" + level, cwd=srcdir, textual=textual)
    if not ok:
        raise Failure("clang-22 failed on %s at -%s:\n%s" % (rel, level, err))
    return out


def facet_json(facet, inputs, command="callgraph"):
    if command == "stats":
        cmd = [facet, "stats", "--format", "json"] + inputs
    else:
        cmd = [facet, "callgraph", "--graph", "direct", "--format", "json"] + inputs
    r = run(cmd)
    if r.returncode != 0:
        raise Failure("`%s` exited %d: %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    try:
        return json.loads(r.stdout), r.stdout
    except ValueError as e:
        raise Failure("`%s` printed invalid JSON (%s): %.200s" % (" ".join(cmd), e, r.stdout))


def main(argv):
    keep = verbose = False
    pos = []
    for a in argv[1:]:
        if a == "-k":
            keep = True
        elif a == "-v":
            verbose = True
        else:
            pos.append(a)
    if len(pos) < 2:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    facet, srcdir, only = os.path.abspath(pos[0]), os.path.abspath(pos[1]), pos[2:]
    for tool in ("clang-22",):
        if shutil.which(tool) is None:
            sys.stderr.write("check_sites: %s not found on PATH\n" % tool)
            return 2
    if not os.access(facet, os.X_OK):
        sys.stderr.write("check_sites: facet binary %s is not executable\n" % facet)
        return 2

    progs = sorted(f for f in os.listdir(os.path.join(srcdir, PROGDIR)) if f.endswith(".c"))
    if only:
        progs = [p for p in progs if p in only]
    units = []
    try:
        for p in progs:
            rel = os.path.join(PROGDIR, p)
            units.append(Unit(srcdir, [rel]))
            for mk in units[-1].files[rel][1]:
                if mk.kind == "link-with":
                    units.append(Unit(srcdir, [rel, os.path.join(PROGDIR, mk.name)]))
    except Failure as e:
        sys.stderr.write("check_sites: bad marker: %s\n" % e)
        return 1

    tmp = tempfile.mkdtemp(prefix="facet-sites.")
    checks = Checks(verbose=verbose)
    try:
        for unit in units:
            for level in LEVELS:
                label = "%s -%s" % (unit.name, level)
                errors = []
                try:
                    bcs = [compile_c(srcdir, c, level,
                                     os.path.join(tmp, "%s.%s.bc" % (os.path.basename(c)[:-2], level)))
                           for c in unit.cfiles]
                    doc, text = facet_json(facet, bcs)
                    if check_shape(doc, errors):
                        check_unit_level(unit, level, doc, errors)
                    if level == "O0":
                        check_stats(unit, facet_json(facet, bcs, "stats")[0], errors)
                    again = facet_json(facet, bcs)[1]
                    if again != text:
                        errors.append("two runs on the same input print different JSON")
                    if len(unit.cfiles) == 1 and unit.name == "inlining.c":
                        ll = compile_c(srcdir, unit.cfiles[0], level,
                                       os.path.join(tmp, "inlining.%s.ll" % level), textual=True)
                        if facet_json(facet, [ll])[1] != text:
                            errors.append("textual .ll input gives different JSON than the .bc of the same module")
                except Failure as e:
                    errors.append(str(e))
                if not checks.check(not errors, label):
                    for e in errors:
                        print("  %s: %s" % (label, e))
    finally:
        if keep:
            print("kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
