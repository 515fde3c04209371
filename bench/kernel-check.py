#!/usr/bin/env python3
"""kernel-check.py — issue 17's acceptance checks and RESULTS.md figures on a
kernel catalog made by bench/kernel.sh (facet build vmlinux.bc).

Usage: kernel-check.py --src KSRC --catalog vmlinux.facet --facet FACET [--json OUT]

What it reads besides the catalog, none of it from facet:
  - the units linked into vmlinux: the members of KSRC/vmlinux.a (a thin
    archive; llvm-ar-22 t) and their C sources (FOO.o <- FOO.c);
  - from those sources, every function stored into a file_operations field:
    designated initializers of `struct file_operations NAME = { .f = fn }`
    and assignments `X.f = fn` / `X->f = fn` to a field of that struct;
  - the initcalls of the build: the `__initcall__*` entry labels of the
    linked object KSRC/vmlinux.o (llvm-objdump-22 -t) in the level sections
    .initcallN.init / .initcallNs.init / .initcallrootfs.init, whose stub
    functions are `__initstub__*` of the same name.
Checks (each prints PASS/FAIL and what differed):
  1. at fs/ioctl.c's `filp->f_op->unlocked_ioctl(...)` R± holds ext4_ioctl
     and every function the units store into unlocked_ioctl, and none that
     they store only into other fields;
  2. `facet query reach __x64_sys_ioctl ext4_ioctl` finds a path and names
     the site and warrant of each step;
  3. every initcall stub of levels 0..7 is a target of the indirect call in
     do_one_initcall (R0 and R±), both for the functions the units register
     with *_initcall() macros (from the C sources) and, when vmlinux.o
     exists, for the entry labels of its level sections.
Figures: KLoC of the linked units' C files, functions, indirect sites,
mean targets per indirect site over the sites each graph resolves (R0, R+,
R±), dispatched-field shares (the catalog's dispatch table).
"""
import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys

GRAPH_BITS = {'direct': 1, 'andersen': 2, 'r0': 4, 'rulesonly': 8, 'rplus': 16, 'rpm': 32}


def linked_units(src):
    out = subprocess.run(['llvm-ar-22', 't', os.path.join(src, 'vmlinux.a')], capture_output=True, text=True,
                         check=True).stdout.split()
    units = []
    for member in out:
        path = member if os.path.isabs(member) else os.path.join(src, member)
        c = path[:-2] + '.c'
        if member.endswith('.o') and os.path.exists(c):
            units.append(c)
    return sorted(set(units))


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


FOPS_FIELDS = None


def fops_fields(src):
    """The function-pointer fields of struct file_operations, from its declaration."""
    text = strip_comments(open(os.path.join(src, 'include/linux/fs.h')).read())
    m = re.search(r'struct file_operations\s*\{(.*?)\}\s*__randomize_layout', text, re.S)
    body = m.group(1) if m else ''
    return set(re.findall(r'\(\s*\*\s*(\w+)\s*\)\s*\(', body))


def stored_functions(units, fields):
    """field -> set of function names stored into file_operations.field by the units."""
    stored = {f: set() for f in fields}
    init_re = re.compile(r'struct\s+file_operations\s+(?:\w+\s+)*?\w+\s*(?:\[\s*\w*\s*\])?\s*'
                         r'(?:__\w+\s*)*=\s*\{(.*?)\}\s*;', re.S)
    slot_re = re.compile(r'\.(\w+)\s*=\s*&?\s*(\w+)')
    assign_re = re.compile(r'(?:\.|->)(\w+)\s*=\s*&?\s*(\w+)\s*;')
    for c in units:
        text = strip_comments(open(c, errors='replace').read())
        for m in init_re.finditer(text):
            for field, fn in slot_re.findall(m.group(1)):
                if field in stored and fn not in ('NULL',):
                    stored[field].add(fn)
        if 'file_operations' in text:
            for field, fn in assign_re.findall(text):
                if field in stored and fn not in ('NULL',) and not fn.isdigit():
                    stored[field].add(fn)
    return stored


def kloc(units):
    return sum(sum(1 for _ in open(c, errors='replace')) for c in units) / 1000.0


def site_targets(db, site, bit):
    rows = db.execute('SELECT f.source_name FROM sites s JOIN target_sets t ON t.id = s.target_set '
                      'JOIN functions f ON f.id = t.target WHERE s.id = ? AND (t.graphs & ?) != 0',
                      (site, bit)).fetchall()
    return {r[0] for r in rows}


def ioctl_sites(db):
    """Indirect sites in fs/ioctl.c whose dispatched field is unlocked_ioctl."""
    rows = db.execute("SELECT s.id, s.line FROM sites s JOIN fields fl ON fl.id = s.field "
                      "WHERE s.kind = 'indirect' AND s.file LIKE '%fs/ioctl.c' AND fl.name = 'unlocked_ioctl'"
                      ).fetchall()
    return rows


def check_ioctl(db, stored, report):
    sites = ioctl_sites(db)
    if not sites:
        report('ioctl', False, 'no indirect site in fs/ioctl.c dispatches through unlocked_ioctl')
        return {}
    want = stored.get('unlocked_ioctl', set()) | {'ext4_ioctl'}
    others = set().union(*(v for k, v in stored.items() if k != 'unlocked_ioctl')) - want
    defined = {r[0] for r in db.execute('SELECT source_name FROM functions WHERE defined = 1')}
    want_linked = want & defined
    out = {}
    for site, line in sites:
        rpm = site_targets(db, site, GRAPH_BITS['rpm'])
        r0 = site_targets(db, site, GRAPH_BITS['r0'])
        missing = sorted(want_linked - rpm)
        wrong = sorted(rpm & others)
        report(f'ioctl fs/ioctl.c:{line} (site {site})', not missing and not wrong and 'ext4_ioctl' in rpm,
               f'R± {len(rpm)} targets, R0 {len(r0)}; stored into unlocked_ioctl by the units: {len(want)} '
               f'({len(want_linked)} defined in vmlinux); missing from R±: {missing}; stored only into other '
               f'fields but in R±: {wrong}')
        out[site] = {'line': line, 'rpm': sorted(rpm), 'r0': sorted(r0), 'expected': sorted(want_linked),
                     'missing': missing, 'other_fields': wrong}
    return out


def check_reach(facet, catalog, report):
    res = subprocess.run([facet, 'query', 'reach', '__x64_sys_ioctl', 'ext4_ioctl', '--catalog', catalog,
                          '--format', 'json'], capture_output=True, text=True)
    if res.returncode != 0:
        report('reach __x64_sys_ioctl ext4_ioctl', False, f'exit {res.returncode}: {res.stderr.strip()[:300]}')
        return None
    answer = json.loads(res.stdout)
    text = subprocess.run([facet, 'query', 'reach', '__x64_sys_ioctl', 'ext4_ioctl', '--catalog', catalog],
                          capture_output=True, text=True).stdout
    path = answer.get('path') or []
    steps = answer.get('steps') or path
    ok = bool(path)
    report('reach __x64_sys_ioctl ext4_ioctl', ok, text.strip().replace('\n', ' | ')[:2000])
    return {'json': answer, 'text': text}


def initcall_stubs(src):
    out = subprocess.run(['llvm-objdump-22', '-t', os.path.join(src, 'vmlinux.o')], capture_output=True,
                         text=True, check=True).stdout
    stubs = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2 or not parts[-1].startswith('__initcall__'):
            continue
        section = next((p for p in parts if p.startswith('.initcall')), '')
        level = re.match(r'\.initcall(\d+s?|rootfs)\.init', section)
        if level:
            stubs.add('__initstub__' + parts[-1][len('__initcall__'):])
    return stubs


INITCALL_RE = re.compile(r'^\s*(?:pure|core|postcore|arch|subsys|fs|rootfs|device|late|module|early)_initcall'
                         r'(?:_sync)?\(\s*(\w+)\s*\)', re.M)


def source_initcalls(units):
    """Functions the units register with an initcall macro (console_initcall aside: console_init walks those)."""
    fns = set()
    for c in units:
        fns |= set(INITCALL_RE.findall(strip_comments(open(c, errors='replace').read())))
    return fns


def check_source_initcalls(db, units, report):
    """Each function registered by an initcall macro has its stub among do_one_initcall's targets."""
    fns = source_initcalls(units)
    sites = db.execute("SELECT s.id FROM sites s JOIN functions f ON f.id = s.caller "
                       "WHERE f.source_name = 'do_one_initcall' AND s.kind = 'indirect'").fetchall()
    def stub_of(fn, names):
        pat = re.compile(r'^__initstub__kmod_\w*_\d+_' + re.escape(fn) + r'(?:early|rootfs|\d+s?)\d*$')
        return next((t for t in names if pat.match(t)), None)

    # A registration the preprocessor dropped (#ifdef) has no stub in the
    # module: only the stubs the compiler made count.
    defined = [r[0] for r in db.execute("SELECT name FROM functions WHERE defined = 1 AND name LIKE '__initstub__%'")]
    compiled = {fn for fn in fns if stub_of(fn, defined)}
    result = {'registered': len(fns), 'compiled': len(compiled), 'stubs_defined': len(defined)}
    for graph in ('r0', 'rpm'):
        got = set()
        for (site,) in sites:
            got |= site_targets(db, site, GRAPH_BITS[graph])
        stubs = [t for t in got if t.startswith('__initstub__')]
        missing = sorted(fn for fn in compiled if not stub_of(fn, stubs))
        report(f'initcalls from the sources, {graph}', bool(compiled) and not missing,
               f'{len(fns)} functions registered by *_initcall() in the units, {len(compiled)} of them compiled '
               f'(a stub defined; {len(defined)} stubs in all), {len(stubs)} stubs among {len(got)} targets at '
               f'do_one_initcall ({len(sites)} sites); not reached: {missing[:10]}{" ..." if len(missing) > 10 else ""}')
        result[graph] = {'stub_targets': len(stubs), 'missing': missing}
    return result


def check_initcalls(db, src, report):
    if not os.path.exists(os.path.join(src, 'vmlinux.o')):
        return None
    stubs = initcall_stubs(src)
    sites = db.execute("SELECT s.id FROM sites s JOIN functions f ON f.id = s.caller "
                       "WHERE f.source_name = 'do_one_initcall' AND s.kind = 'indirect'").fetchall()
    result = {'stubs': len(stubs)}
    for graph in ('r0', 'rpm'):
        got = set()
        for (site,) in sites:
            got |= site_targets(db, site, GRAPH_BITS[graph])
        missing = sorted(stubs - got)
        report(f'initcalls {graph}', bool(stubs) and not missing,
               f'{len(stubs)} initcall stubs in levels 0..7 of vmlinux.o, {len(got)} targets at do_one_initcall '
               f'({len(sites)} sites); missing: {missing[:10]}{" ..." if len(missing) > 10 else ""}')
        result[graph] = {'targets': len(got), 'missing': len(missing)}
    return result


def figures(db, units):
    fig = {'kloc_c': round(kloc(units), 1), 'units': len(units)}
    fig['functions_defined'] = db.execute('SELECT COUNT(*) FROM functions WHERE defined = 1').fetchone()[0]
    fig['indirect_sites'] = db.execute("SELECT COUNT(*) FROM sites WHERE kind = 'indirect'").fetchone()[0]
    for graph in ('andersen', 'r0', 'rplus', 'rpm'):
        bit = GRAPH_BITS[graph]
        rows = db.execute("SELECT s.id, COUNT(t.target) FROM sites s JOIN target_sets t ON t.id = s.target_set "
                          "WHERE s.kind = 'indirect' AND (t.graphs & ?) != 0 GROUP BY s.id", (bit,)).fetchall()
        n = len(rows)
        fig[f'mean_{graph}'] = round(sum(r[1] for r in rows) / n, 2) if n else 0
        fig[f'resolved_{graph}'] = n
    total = fig['indirect_sites'] or 1
    for status, n in db.execute('SELECT status, COUNT(*) FROM dispatch GROUP BY status'):
        fig[f'dispatch_{status}_pct'] = round(100.0 * n / total, 1)
    for key in ('seconds_ingest', 'seconds_pta', 'seconds_refine'):
        row = db.execute('SELECT value FROM meta WHERE key = ?', (key,)).fetchone()
        fig[key] = float(row[0]) if row else None
    return fig


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', required=True)
    ap.add_argument('--catalog', required=True)
    ap.add_argument('--facet', required=True)
    ap.add_argument('--json')
    ap.add_argument('--units', help='a file listing the linked objects (paths relative to --src), in place of '
                                   'vmlinux.a: for a module linked from part of the build')
    a = ap.parse_args()
    results = {'checks': []}

    def report(name, ok, detail):
        print(f'{"PASS" if ok else "FAIL"}  {name}: {detail}')
        results['checks'].append({'name': name, 'ok': ok, 'detail': detail})

    if a.units:
        units = sorted({os.path.join(a.src, u.strip())[:-2] + '.c' for u in open(a.units) if u.strip()})
        units = [u for u in units if os.path.exists(u)]
    else:
        units = linked_units(a.src)
    fields = fops_fields(a.src)
    stored = stored_functions(units, fields)
    results['stored'] = {k: sorted(v) for k, v in stored.items() if v}
    db = sqlite3.connect(f'file:{a.catalog}?immutable=1', uri=True)
    results['ioctl'] = check_ioctl(db, stored, report)
    results['reach'] = check_reach(a.facet, a.catalog, report)
    results['initcalls_source'] = check_source_initcalls(db, units, report)
    results['initcalls'] = check_initcalls(db, a.src, report)
    results['figures'] = figures(db, units)
    print(json.dumps(results['figures'], indent=1))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(results, f, indent=1)
    failed = sum(1 for c in results['checks'] if not c['ok'])
    print(f'{len(results["checks"]) - failed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
