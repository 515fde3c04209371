#!/usr/bin/env python3
"""check_r0.py — check facet's `r0` and `andersen` call graphs against the
calls the test programs make and the answers written in their sources.

Usage: check_r0.py [-v] WORKDIR

WORKDIR is what run_r0.sh prepared: one directory NAME.LEVEL per program
(NAME) and optimisation level (O0, O2) holding
  sources        the program's source files, one a line, as compiled (paths
                 relative to the repository root, which is the cwd)
  observed       lines "FILE:LINE -> FUNC" that observe.h wrote while the
                 program ran (an indirect call at FILE:LINE reached FUNC)
  r0.json, andersen.json
                 `facet callgraph --graph G --format json` of its bitcode
  error, r0.error, andersen.error
                 present when compiling, running or facet failed

Markers, in a /* ... */ comment on the line of an ICALL (the line the call's
debug location names).  A marker may be limited to one level, e.g.
`@r0(O0): f g`; without one it applies to both.
  @r0: F...                  R0's exact target set at this site
  @r0-superset-of-observed   the exact set is not decided by hand; R0 must
                             hold every observed target (always checked)
  @r0-within: F...           an upper bound for R0 (with the marker above)
  @andersen: F...            the andersen graph's exact set, where it
                             differs from R0 (otherwise it is not checked
                             exactly, only for soundness)
Every ICALL line has @r0 or @r0-superset-of-observed.  The markers were
written by reading the programs, never from facet's output.

Checks, for each program and level (a failure prints one line: program,
level, FILE:LINE, what was expected and what facet gave):
  (a) soundness: every observed edge FILE:LINE -> FUNC is a target of the
      indirect sites at FILE:LINE (their union when several share the
      line, e.g. a call inlined into two callers or a duplicated loop), in
      R0 and in andersen.  At O2 the optimizer may have turned the call into
      a direct call to FUNC (devirtualized), or also inlined FUNC there;
      that is accepted when a direct site at FILE:LINE calls FUNC, or a site
      carries an inlined_at entry at FILE:LINE whose inner frame is FUNC,
      and it is said in a note.
  (b) exactness: at O0 the union of R0's targets at a line with @r0 equals
      the marker (and andersen's equals @andersen where given).  At O2 the
      sets are checked only where the call is still indirect, and only for
      R0 ⊆ marker: optimisation forwards stored pointers into direct calls,
      inlines (which adds context), drops or splits memory, but does not
      create a flow from a function to a callee that the source lacks, so
      an analysis that is exact on the -O0 IR of these programs can only
      lose targets at -O2, never gain them — unless the optimizer hides a
      pointer from it (moves it through an integer or vector load, builds
      a lookup table from a switch).  The -O2 IR of these programs was
      read for such code at the ICALL sites; it has none.  A violation is
      reported as "O2 widening": either the analysis lost precision on
      legal IR, or a newer clang emits such code here and the marker needs
      an (O0) limit.  @r0-within is an upper bound at both levels.
  (c) no indirect site with an observed target has an empty R0 (reported
      once per site instead of one (a) failure per edge).
and, checking the test itself and facet's output format:
  coverage   every ICALL line was executed at O0 (observed at least once),
             and every observed line is an ICALL line of the program;
  markers    every ICALL line has its marker; the marker's set holds every
             observed target (else the hand-written answer is wrong);
  sites      at O0 every indirect site located in a program file is on an
             ICALL line (the programs have no other indirect call); every
             ICALL line has an indirect site at O0;
  subset     at every site R0 ⊆ andersen (R0 is andersen filtered by type);
  taken      every target of an indirect site is a listed function with
             address_taken true (nothing else can be in a points-to set),
             or, in a program that calls dlsym, an exported one;
  order      an indirect site's targets are listed sorted, once each.
"""

import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

ICALL_RE = re.compile(r'\bICALL\(')
MARKER_RE = re.compile(
    r'@(r0-superset-of-observed|r0-within|r0|andersen)(?:\((O0|O2)\))?(?::([^@*]*))?')


class Tally(Checks):
    """The harness's counter with this script's two messages per check:
    what holds when it passes, what is wrong when it fails."""

    def ok(self, what):
        super().check(True, what)

    def fail(self, what):
        super().check(False, what)

    def check(self, cond, what_ok, what_fail):
        return super().check(cond, what_ok if cond else what_fail)


def fmt(names):
    return '{' + ' '.join(sorted(names)) + '}'


def norm(path):
    return os.path.normpath(path) if path else path


def read_markers(sources):
    """(file, line) -> {'icall': bool, 'r0': set|None, 'superset': bool,
    'within': set|None, 'andersen': set|None, per level}"""
    sites = {}
    for src in sources:
        with open(src, encoding='utf-8') as f:
            for lineno, text in enumerate(f, 1):
                if not ICALL_RE.search(text) or text.lstrip().startswith(('#', '*', '/*')):
                    continue
                m = {'r0': {}, 'andersen': {}, 'within': {}, 'superset': {}, 'errors': []}
                for cm in re.finditer(r'/\*(.*?)\*/', text):
                    for mm in MARKER_RE.finditer(cm.group(1)):
                        kind, lvl, names = mm.group(1), mm.group(2), mm.group(3)
                        levels = [lvl] if lvl else ['O0', 'O2']
                        if kind == 'r0-superset-of-observed':
                            for lv in levels:
                                m['superset'][lv] = True
                            continue
                        key = {'r0': 'r0', 'andersen': 'andersen', 'r0-within': 'within'}[kind]
                        if names is None or not names.split():
                            m['errors'].append('@%s without names' % kind)
                            continue
                        for lv in levels:
                            m[key][lv] = set(names.split())
                sites[(norm(src), lineno)] = m
    return sites


def read_observed(path):
    edges = set()
    bad = []
    if not os.path.exists(path):
        return edges, bad
    with open(path, encoding='utf-8') as f:
        for text in f:
            text = text.strip()
            if not text:
                continue
            mo = re.match(r'^(.*):(\d+) -> (\S+)$', text)
            if not mo:
                bad.append(text)
                continue
            edges.add((norm(mo.group(1)), int(mo.group(2)), mo.group(3)))
    return edges, bad


def function_spans(sources):
    """file -> sorted [(first line, name)] of the function definitions, found
    by layout (the programs' style): a line starting at column 0 with a
    name and '(' and not ending in ';', whose body's '{' stands alone on a
    line within the next three."""
    spans = {}
    head = re.compile(r'^[A-Za-z_][^;]*?\b([A-Za-z_]\w*)\s*\(')
    for src in sources:
        with open(src, encoding='utf-8') as f:
            lines = f.read().split('\n')
        found = []
        for i, text in enumerate(lines):
            mo = head.match(text)
            if not mo or text.rstrip().endswith(';'):
                continue
            if any(t.strip() == '{' for t in lines[i + 1:i + 4]) or text.rstrip().endswith('{'):
                found.append((i + 1, mo.group(1)))
        spans[src] = found
    return spans


def enclosing(spans, file, line):
    best = None
    for first, name in spans.get(file, []):
        if first <= line:
            best = name
    return best


class Graph:
    """One facet JSON graph, indexed by source line."""

    def __init__(self, doc, spans):
        self.doc = doc
        self.functions = {f['name']: f for f in doc['functions']}
        self.indirect = {}      # (file, line) -> union of targets
        self.indirect_sites = {}  # (file, line) -> [site]
        self.direct = {}        # (file, line) -> set of callees
        self.inlined = {}       # (file, line) -> set of functions inlined there
        self.by_key = {}        # site identity -> targets (for R0 ⊆ andersen)
        # A program that looks symbols up by name (dlsym) may reach any
        # exported function without taking its address.
        self.looks_up = any(s['kind'] == 'direct' and {'dlsym', 'dlvsym'} & set(s['targets'])
                            for s in doc['sites'])
        for s in doc['sites']:
            loc = (norm(s['file']), s['line'])
            targets = set(s['targets'])
            if s['kind'] == 'indirect':
                self.indirect.setdefault(loc, set()).update(targets)
                self.indirect_sites.setdefault(loc, []).append(s)
                key = (loc, s.get('column'), s.get('caller'),
                       json.dumps(s.get('inlined_at', []), sort_keys=True))
                self.by_key.setdefault(key, set()).update(targets)
            elif s['kind'] == 'direct':
                self.direct.setdefault(loc, set()).update(targets)
            # An inlined_at entry at FILE:LINE means a call there was inlined;
            # the inlined function is the one holding the location one frame
            # in: the site's own location for the first entry (its "caller"
            # is the outermost function), else the previous entry's function.
            chain = s.get('inlined_at') or []
            for k, entry in enumerate(chain):
                inner = (enclosing(spans, loc[0], loc[1]) if k == 0
                         else chain[k - 1].get('function'))
                eloc = (norm(entry.get('file')), entry.get('line'))
                self.inlined.setdefault(eloc, set()).add(inner)


def check_shape(doc, graph):
    """None if the document has the documented shape, else what is wrong."""
    if not isinstance(doc, dict) or doc.get('graph') != graph:
        return 'top level is not {"graph": "%s", ...}' % graph
    if not isinstance(doc.get('functions'), list) or not isinstance(doc.get('sites'), list):
        return '"functions" or "sites" is not a list'
    for f in doc['functions']:
        for k in ('name', 'file', 'line', 'defined', 'address_taken'):
            if k not in f:
                return 'a function lacks "%s": %s' % (k, json.dumps(f)[:200])
    for s in doc['sites']:
        for k in ('id', 'caller', 'file', 'line', 'column', 'inlined_at', 'kind', 'targets'):
            if k not in s:
                return 'a site lacks "%s": %s' % (k, json.dumps(s)[:200])
        if s['kind'] not in ('direct', 'indirect', 'asm'):
            return 'a site has kind %r' % s['kind']
    return None


def check_order(graph, where, g, tally):
    """The targets of an indirect site are listed sorted by name, once each
    (not fatal: the other checks use them as sets)."""
    bad = [s for s in graph.doc['sites']
           if s['kind'] == 'indirect' and s['targets'] != sorted(set(s['targets']))]
    if bad:
        s = bad[0]
        tally.fail('%s [%s] order: %d indirect site(s) list targets unsorted or repeated, '
                   'e.g. %s:%d: %s' % (where, g, len(bad), s['file'], s['line'],
                                       ' '.join(s['targets'])))
    else:
        tally.ok('%s [%s] order: targets sorted' % (where, g))


def load_graph(unit_dir, graph, where, spans, tally):
    err = os.path.join(unit_dir, graph + '.error')
    if os.path.exists(err):
        with open(err, encoding='utf-8') as f:
            tally.fail('%s: %s' % (where, f.read().strip()))
        return None
    try:
        with open(os.path.join(unit_dir, graph + '.json'), encoding='utf-8') as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        tally.fail('%s: facet callgraph --graph %s printed no valid JSON: %s' % (where, graph, e))
        return None
    bad = check_shape(doc, graph)
    if bad:
        tally.fail('%s: --graph %s JSON: %s' % (where, graph, bad))
        return None
    return Graph(doc, spans)


def check_unit(unit_dir, name, level, tally):
    where = '%s %s' % (name, level)
    err = os.path.join(unit_dir, 'error')
    if os.path.exists(err):
        with open(err, encoding='utf-8') as f:
            tally.fail('%s: %s' % (where, f.read().strip()))
        return
    with open(os.path.join(unit_dir, 'sources'), encoding='utf-8') as f:
        sources = [norm(s.strip()) for s in f if s.strip()]
    srcset = set(sources)
    markers = read_markers(sources)
    observed, bad_lines = read_observed(os.path.join(unit_dir, 'observed'))
    for b in bad_lines:
        tally.fail('%s: malformed line in the observation file: %r' % (where, b))

    obs_at = {}
    for (file, line, func) in observed:
        obs_at.setdefault((file, line), set()).add(func)

    # The test's own consistency: markers and coverage.
    for loc, m in sorted(markers.items()):
        here = '%s %s:%d' % (where, loc[0], loc[1])
        for e in m['errors']:
            tally.fail('%s markers: %s' % (here, e))
        has_exact = level in m['r0']
        has_super = m['superset'].get(level, False)
        tally.check(has_exact != has_super, here + ' markers: one R0 marker',
                    '%s markers: the ICALL needs exactly one of @r0: and @r0-superset-of-observed'
                    % here)
        seen = obs_at.get(loc, set())
        if level == 'O0':
            tally.check(bool(seen), here + ' coverage: executed',
                        '%s coverage: the ICALL was never executed (main must exercise it)' % here)
        for key in ('r0', 'andersen', 'within'):
            exp = m[key].get(level)
            if exp is not None:
                tally.check(seen <= exp, '%s markers: @%s holds the observed' % (here, key),
                            '%s markers: @%s %s lacks observed %s (the expected answer is wrong)'
                            % (here, key, fmt(exp), fmt(seen - exp)))
    for loc in sorted(obs_at):
        tally.check(loc in markers, '%s %s:%d coverage: observed at an ICALL' % (where, *loc),
                    '%s %s:%d coverage: observed %s at a line without an ICALL'
                    % (where, loc[0], loc[1], fmt(obs_at[loc])))

    spans = function_spans(sources)
    graphs = {}
    for g in ('r0', 'andersen'):
        graphs[g] = load_graph(unit_dir, g, where, spans, tally)

    for g, graph in graphs.items():
        if graph is None:
            continue
        check_order(graph, where, g, tally)
        # (c) empty sites, then (a) soundness.
        empty = set()
        for loc, seen in sorted(obs_at.items()):
            here = '%s %s:%d [%s]' % (where, loc[0], loc[1], g)
            if loc in graph.indirect and not graph.indirect[loc]:
                extra = seen - graph.direct.get(loc, set()) - graph.inlined.get(loc, set())
                if level == 'O0' or extra:
                    empty.add(loc)
                    tally.fail('%s (c) empty: observed %s, facet gives no target'
                               % (here, fmt(seen)))
                    continue
        for (file, line, func) in sorted(observed):
            loc = (file, line)
            if loc in empty:
                continue
            here = '%s %s:%d [%s]' % (where, file, line, g)
            ind = graph.indirect.get(loc)
            if func in (ind or set()):
                tally.ok('%s (a) %s observed and resolved' % (here, func))
                continue
            if level == 'O2' and func in graph.direct.get(loc, set()):
                tally.ok('%s (a) %s' % (here, func))
                if g == 'r0':
                    print('note  %s %s:%d: the call to %s is a direct call at O2 (devirtualized)'
                          % (where, file, line, func))
                continue
            if level == 'O2' and func in graph.inlined.get(loc, set()):
                tally.ok('%s (a) %s' % (here, func))
                if g == 'r0':
                    print('note  %s %s:%d: the call to %s was devirtualized and inlined at O2'
                          % (where, file, line, func))
                continue
            if ind is None:
                tally.fail('%s (a) soundness: observed -> %s, but facet has no indirect site '
                           'at this line%s' % (here, func,
                                               '' if level == 'O0' else
                                               ' (nor a direct call to it, nor it inlined here)'))
            else:
                tally.fail('%s (a) soundness: observed -> %s; expected it among the targets, '
                           'actual %s' % (here, func, fmt(ind)))

        # (b) exactness and the upper bound.
        mkey = 'r0' if g == 'r0' else 'andersen'
        for loc, m in sorted(markers.items()):
            here = '%s %s:%d [%s]' % (where, loc[0], loc[1], g)
            act = graph.indirect.get(loc)
            bounds = [(mkey, m[mkey].get(level))]
            if g == 'r0':
                bounds.append(('within', m['within'].get(level)))
            if level == 'O0':
                tally.check(act is not None, here + ' sites: indirect site present',
                            '%s sites: no indirect site at this ICALL line at O0' % here)
                if act is None:
                    continue
                exp = m[mkey].get(level)
                if exp is not None:
                    tally.check(act == exp, '%s (b) exact %s' % (here, fmt(exp)),
                                '%s (b) exactness: expected %s, actual %s (missing %s, extra %s)'
                                % (here, fmt(exp), fmt(act), fmt(exp - act), fmt(act - exp)))
                wb = m['within'].get(level) if g == 'r0' else None
                if wb is not None:
                    tally.check(act <= wb, '%s (b) within %s' % (here, fmt(wb)),
                                '%s (b) upper bound: expected within %s, actual %s (extra %s)'
                                % (here, fmt(wb), fmt(act), fmt(act - wb)))
            else:
                if act is None:
                    if g == 'r0' and (m['r0'].get(level) or m['within'].get(level)):
                        print('note  %s %s:%d: no indirect call remains at O2; exactness not '
                              'checked' % (where, loc[0], loc[1]))
                    continue
                for key, exp in bounds:
                    if exp is None:
                        continue
                    label = '@r0-within' if key == 'within' else '@' + key
                    tally.check(act <= exp, '%s (b) %s ⊆ %s' % (here, fmt(act), fmt(exp)),
                                '%s (b) O2 widening: expected a subset of %s %s, actual %s '
                                '(extra %s)' % (here, label, fmt(exp), fmt(act), fmt(act - exp)))

        # Indirect sites that no ICALL explains.
        if level == 'O0':
            for loc in sorted(graph.indirect):
                if loc[0] in srcset and loc not in markers:
                    tally.fail('%s %s:%d [%s] sites: an indirect site at a line without ICALL '
                               '(targets %s)' % (where, loc[0], loc[1], g,
                                                 fmt(graph.indirect[loc])))

        # Targets are address-taken functions.
        bad = set()
        for loc, targets in graph.indirect.items():
            for t in targets:
                f = graph.functions.get(t)
                exported = f is not None and graph.looks_up and f.get('linkage') not in ('internal', 'private')
                if f is None or not (f.get('address_taken') or exported):
                    bad.add((loc, t, 'not a listed function' if f is None
                             else 'address_taken is false'))
        for (loc, t, why) in sorted(bad):
            tally.fail('%s %s:%d [%s] taken: target %s is %s' % (where, loc[0], loc[1], g, t, why))
        if not bad:
            tally.ok('%s [%s] taken: all targets address-taken' % (where, g))

    # R0 is andersen filtered: site by site, R0 ⊆ andersen.
    r0, an = graphs['r0'], graphs['andersen']
    if r0 is not None and an is not None:
        for key, targets in sorted(r0.by_key.items(), key=lambda kv: str(kv[0])):
            (loc, col, caller, _) = key
            here = '%s %s:%d:%s [r0 vs andersen]' % (where, loc[0], loc[1], col)
            other = an.by_key.get(key)
            if other is None:
                tally.fail('%s subset: the site (in %s) is not in the andersen graph'
                           % (here, caller))
                continue
            tally.check(targets <= other, here + ' subset',
                        '%s subset: expected R0 ⊆ andersen, R0 %s, andersen %s (extra %s)'
                        % (here, fmt(targets), fmt(other), fmt(targets - other)))


def main(argv):
    verbose = False
    args = []
    for a in argv[1:]:
        if a == '-v':
            verbose = True
        elif a.startswith('-'):
            print(__doc__.split('\n\n')[1], file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) != 1:
        print('usage: check_r0.py [-v] WORKDIR', file=sys.stderr)
        return 2
    work = args[0]
    tally = Tally(verbose)
    units = []
    for d in sorted(os.listdir(work)):
        mo = re.match(r'^(.*)\.(O0|O2)$', d)
        if mo and os.path.isdir(os.path.join(work, d)):
            units.append((mo.group(1), mo.group(2), os.path.join(work, d)))
    if not units:
        tally.fail('no program was prepared in %s' % work)
    for name, level, path in units:
        check_unit(path, name, level, tally)
    return tally.summary()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
