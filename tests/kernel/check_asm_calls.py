#!/usr/bin/env python3
"""check_asm_calls.py — the calls the kernel makes from inline asm text
(issue 17.2: paravirt ops, alternative_call, CALL_NOSPEC) are call sites of
their own, on tests/kernel/asm_calls/paravirt.c compiled with clang-22 -g at
-O0 and -O2.

Usage: check_asm_calls.py FACET SRCDIR

Every expected answer is read from the program's text, never from facet:
  - at each PVOP_*CALLn(FIELD, ...) line, the indirect site's andersen, r0,
    R+ and R± targets are the functions the program stores into pv_ops.FIELD
    (its designated initializer `.FIELD = fn` and `pv_ops.FIELD = fn;`), its
    dispatched field is FIELD's last member, and a direct site calls the
    function ALT_CALL_INSTR names (`call NAME`);
  - at each alternative_call(OLD, NEW, ...) line, two direct sites: OLD, NEW;
  - at each CALL_NOSPEC(TABLE[...]) line, the indirect site's r0 targets are
    TABLE's initializer list;
  - facet stats: asm_calls_direct, asm_calls_indirect and asm_calls_unread
    (one per CALL_NOSPEC use, its thunk named through a register, and one per
    RAW_CALL_RAX use, `call *%%rax`) count the uses of those macros.
Prints one line per failed check and a closing 'N passed, N failed'.
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc  # noqa: E402

GRAPHS = {'andersen': 2, 'r0': 4, 'rplus': 16, 'rpm': 32}


def strip_comments(text):
    """The text with its /* */ comments blanked, lines kept."""
    return re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)


def uses(text, macro):
    """(line, argument text) of each use of macro outside comments and #define lines."""
    out = []
    for n, line in enumerate(strip_comments(text).splitlines(), 1):
        if line.lstrip().startswith('#define'):
            continue
        m = re.search(r'\b' + macro + r'\((.*)\)', line)
        if m:
            out.append((n, m.group(1)))
    return out


def expected(text):
    stored = {}   # pv_ops field path -> functions stored there
    init = re.search(r'struct paravirt_patch_template pv_ops = \{(.*?)\};', text, re.S).group(1)
    for path, fn in re.findall(r'\.([\w.]+) = (\w+)', init):
        stored.setdefault(path, set()).add(fn)
    for path, fn in re.findall(r'\bpv_ops\.([\w.]+) = (\w+);', text):
        stored.setdefault(path, set()).add(fn)
    alt_name = re.search(r'#define ALT_CALL_INSTR "call (\w+)"', text).group(1)
    pvops = [(line, args.split(',')[0].strip()) for mac in ('PVOP_VCALL0', 'PVOP_VCALL1', 'PVOP_VCALL2', 'PVOP_CALL1')
             for line, args in uses(text, mac)]
    alts = [(line, [a.strip() for a in args.split(',')[:2]]) for line, args in uses(text, 'alternative_call')]
    tables = {name: {f.strip() for f in body.split(',')}
              for name, body in re.findall(r'\(\*const (\w+)\[\]\)\(void\) = \{([^}]*)\};', text)}
    nospec = [(line, tables[re.match(r'(\w+)\[', args).group(1)]) for line, args in uses(text, 'CALL_NOSPEC')]
    raw = uses(text, 'RAW_CALL_RAX')
    counts = {'asm_calls_direct': len(pvops) + 2 * len(alts),
              'asm_calls_indirect': len(pvops) + len(nospec),
              'asm_calls_unread': len(nospec) + len(raw)}
    return stored, alt_name, pvops, alts, nospec, counts


def sites_at(db, line):
    """(kind, {graph: set of target names}, field name) of each site at line."""
    out = []
    for sid, kind, field in db.execute('SELECT s.id, s.kind, (SELECT name FROM fields WHERE id = s.field) '
                                       'FROM sites s WHERE s.line = ? ORDER BY s.id', (line,)):
        targets = {g: set() for g in GRAPHS}
        targets['direct'] = set()
        for name, graphs in db.execute('SELECT f.name, e.graphs FROM edges e JOIN functions f ON f.id = e.target '
                                       'WHERE e.site = ?', (sid,)):
            for g, bit in list(GRAPHS.items()) + [('direct', 1)]:
                if graphs & bit:
                    targets[g].add(name)
        out.append((kind, targets, field))
    return out


def check_level(checks, facet, src, text, level, work):
    stored, alt_name, pvops, alts, nospec, counts = expected(text)
    bc = os.path.join(work, f'paravirt{level}.bc')
    ok, err = compile_bc(src, bc, level)
    if not ok:
        sys.exit(f'cannot compile {src} {level}: {err}')
    cat = os.path.join(work, f'paravirt{level}.facet')
    out = subprocess.run([facet, 'build', bc, '-o', cat], capture_output=True, text=True)
    if not checks.check(out.returncode == 0, f'{level}: facet build exited {out.returncode}', out.stderr.strip()):
        return
    db = sqlite3.connect(cat)
    for line, path in pvops:
        want = stored.get(path, set())
        sites = sites_at(db, line)
        ind = [s for s in sites if s[0] == 'indirect']
        if not checks.check(len(ind) == 1, f'{level} line {line} pv_ops.{path}: {len(ind)} indirect sites, not 1'):
            continue
        for g in GRAPHS:
            checks.check(ind[0][1][g] == want, f'{level} line {line} pv_ops.{path}: {g} targets {sorted(ind[0][1][g])}, '
                         f'the program stores {sorted(want)}')
        checks.check(ind[0][2] == path.split('.')[-1], f'{level} line {line}: dispatched field {ind[0][2]}, '
                     f'not {path.split(".")[-1]}')
        direct = [s for s in sites if s[0] == 'direct']
        checks.check([s[1]['direct'] for s in direct] == [{alt_name}],
                     f'{level} line {line}: direct targets {[sorted(s[1]["direct"]) for s in direct]}, not [{alt_name}]')
    for line, pair in alts:
        direct = [s[1]['direct'] for s in sites_at(db, line) if s[0] == 'direct']
        checks.check(direct == [{pair[0]}, {pair[1]}], f'{level} line {line} alternative_call: direct targets '
                     f'{[sorted(d) for d in direct]}, not {pair}')
    for line, want in nospec:
        ind = [s for s in sites_at(db, line) if s[0] == 'indirect']
        checks.check(len(ind) == 1 and ind[0][1]['r0'] == want, f'{level} line {line} CALL_NOSPEC: r0 targets '
                     f'{[sorted(s[1]["r0"]) for s in ind]}, the table holds {sorted(want)}')
    db.close()
    out = subprocess.run([facet, 'stats', '--format', 'json', bc], capture_output=True, text=True)
    if checks.check(out.returncode == 0, f'{level}: facet stats exited {out.returncode}', out.stderr.strip()):
        got = json.loads(out.stdout)
        for key, value in counts.items():
            checks.check(got.get(key) == value, f'{level}: {key} is {got.get(key)}, the source says {value}')


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    facet, srcdir = sys.argv[1], sys.argv[2]
    src = os.path.join(srcdir, 'tests', 'kernel', 'asm_calls', 'paravirt.c')
    text = open(src).read()
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix='facet-asmcalls.') as work:
        for level in ('-O0', '-O2'):
            check_level(checks, facet, src, text, level, work)
    return checks.summary()


if __name__ == '__main__':
    sys.exit(main())
