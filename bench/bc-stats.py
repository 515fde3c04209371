#!/usr/bin/env python3
"""bc-stats.py — measure one corpus module: functions, call sites by kind, debug info, KLoC.

    python3 bench/bc-stats.py [--root DIR] [--llvm-dis llvm-dis-22] X.bc

Prints key=value lines. It reads the textual IR that llvm-dis prints:

- functions_defined / functions_declared: `define` / `declare` lines (llvm.* intrinsics excluded
  from declared; they are counted as intrinsics).
- calls_direct: `call`/`invoke` whose callee is a named function (or alias) other than an
  intrinsic; calls_intrinsic: callee `@llvm.*`; calls_indirect: callee is a value (`%reg`, or a
  global that is not a function); calls_asm: inline assembly (`call ... asm ...`, `callbr`).
- compile_units: `!DICompileUnit` nodes; has_main: 1 if `@main` is defined.
- KLoC, counted as non-blank lines of source files the module's debug info names:
  kloc_c: the main file of every DICompileUnit (the compiled .c files, generated ones included),
  kloc_all: every DIFile (.c and .h) whose path lies under --root (the subject's build tree), so
  system headers are left out. Files are deduplicated by real path. With no --root, kloc_all
  counts every DIFile that exists on disk.
"""
import argparse
import os
import re
import subprocess
import sys

CALL_RE = re.compile(r'^\s*(?:%[-\w.$"]+ = )?(?:(?:tail|musttail|notail) )?(call|invoke|callbr)\b(.*)$')
ASM_RE = re.compile(r'^[^"(@%]*\basm\b')
CALLEE_RE = re.compile(r'\s([%@](?:[-\w.$]+|"[^"]*"))\(')
DEFINE_RE = re.compile(r'^define\b[^@]*@([-\w.$]+|"[^"]*")\(')
DECLARE_RE = re.compile(r'^declare\b[^@]*@([-\w.$]+|"[^"]*")\(')
ALIAS_RE = re.compile(r'^@([-\w.$]+|"[^"]*") = .*\b(alias|ifunc)\b')
DIFILE_RE = re.compile(r'^!(\d+) = !DIFile\(filename: "((?:[^"\\]|\\.)*)", directory: "((?:[^"\\]|\\.)*)"')
CU_RE = re.compile(r'!DICompileUnit\(.*?\bfile: !(\d+)')


def unescape(s):
    return re.sub(r'\\([0-9A-Fa-f]{2})', lambda m: chr(int(m.group(1), 16)), s)


def nonblank_lines(path):
    n = 0
    with open(path, 'rb') as f:
        for line in f:
            if line.strip():
                n += 1
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', help='subject build tree; kloc_all counts files under it')
    ap.add_argument('--llvm-dis', default='llvm-dis-22')
    ap.add_argument('bc')
    a = ap.parse_args()

    proc = subprocess.Popen([a.llvm_dis, a.bc, '-o', '-'], stdout=subprocess.PIPE,
                            text=True, errors='replace', bufsize=1 << 20)
    defined, declared, aliases = set(), set(), set()
    callees = []          # (kind-hint, callee) collected, classified after all names are known
    counts = {'direct': 0, 'intrinsic': 0, 'indirect': 0, 'asm': 0}
    difiles = {}          # metadata id -> path
    cu_files = []
    cus = 0
    for line in proc.stdout:
        if line.startswith('define'):
            m = DEFINE_RE.match(line)
            if m:
                defined.add(m.group(1))
            continue
        if line.startswith('declare'):
            m = DECLARE_RE.match(line)
            if m:
                declared.add(m.group(1))
            continue
        if line.startswith('@'):
            m = ALIAS_RE.match(line)
            if m:
                aliases.add(m.group(1))
            continue
        if line.startswith('!'):
            if '!DIFile(' in line:
                m = DIFILE_RE.match(line)
                if m:
                    fn, d = unescape(m.group(2)), unescape(m.group(3))
                    difiles[m.group(1)] = fn if os.path.isabs(fn) else os.path.join(d, fn)
            elif '!DICompileUnit(' in line:
                cus += 1
                m = CU_RE.search(line)
                if m:
                    cu_files.append(m.group(1))
            continue
        if 'call' not in line and 'invoke' not in line:
            continue
        m = CALL_RE.match(line)
        if not m:
            continue
        kind, rest = m.group(1), m.group(2)
        if kind == 'callbr' or ASM_RE.match(rest):
            counts['asm'] += 1
            continue
        c = CALLEE_RE.search(rest)
        if not c:
            continue
        callees.append(c.group(1))
    if proc.wait() != 0:
        sys.exit('llvm-dis failed on %s' % a.bc)

    funcs = defined | declared | aliases
    for callee in callees:
        if callee.startswith('%'):
            counts['indirect'] += 1
            continue
        name = callee[1:]
        if name.startswith('llvm.') or name.startswith('"llvm.'):
            counts['intrinsic'] += 1
        elif name in funcs:
            counts['direct'] += 1
        else:
            counts['indirect'] += 1

    root = os.path.realpath(a.root) if a.root else None

    def count(paths, under_root):
        seen, files, lines = set(), 0, 0
        for p in paths:
            rp = os.path.realpath(p)
            if rp in seen or not os.path.isfile(rp):
                continue
            if under_root and root and not rp.startswith(root + os.sep):
                continue
            seen.add(rp)
            files += 1
            lines += nonblank_lines(rp)
        return files, lines

    c_files, c_lines = count([difiles[i] for i in cu_files if i in difiles], False)
    all_files, all_lines = count(difiles.values(), True)

    out = {
        'functions_defined': len(defined),
        'functions_declared': len([f for f in declared if not f.startswith('llvm.')]),
        'has_main': int('main' in defined),
        'compile_units': cus,
        'calls_direct': counts['direct'],
        'calls_indirect': counts['indirect'],
        'calls_intrinsic': counts['intrinsic'],
        'calls_asm': counts['asm'],
        'source_files_c': c_files,
        'kloc_c': '%.1f' % (c_lines / 1000.0),
        'source_files_all': all_files,
        'kloc_all': '%.1f' % (all_lines / 1000.0),
        'bc_bytes': os.path.getsize(a.bc),
    }
    for k, v in out.items():
        print('%s=%s' % (k, v))


if __name__ == '__main__':
    main()
