#!/usr/bin/env python3
"""check_stats.py — facet stats counts every kernel construct it cannot model
(issue 17.2), on the kernel-idiom programs of tests/pta_programs/
(kernel_idioms/, kernel_sections/, static_call/), compiled with clang-22 -g at -O0 and -O2.

Usage: check_stats.py FACET SRCDIR

Every expected count is read from the programs' text, never from facet:
  sites_asm_goto               `asm goto(` statements in functions
  sites_asm_pointer_operands   function-level asm statements with an "r"(p) input
  aliases                      __attribute__((alias(...)))
  asm_defined_functions        labels that top-level asm defines for declared functions (`.globl NAME`,
                               and one per DEFINE_STATIC_CALL[_NULL] use)
  trampolines                  of those, the trampolines: `jmp NAME` bodies and DEFINE_STATIC_CALL[_NULL] uses
  trampoline_calls             calls naming a trampoline: static_call(NAME)(...) uses and ICALL'd *_tramp( calls
  module_asm_entries           LEVEL_CALL(...) uses (one `.long fn - .` each)
  module_asm_unparsed          top-level asm data directives in a form facet does not read (`* 2`)
  section_bounds               the declared bound symbols (__start_X, __stop_X, __X_start, __X_end)
                               that some section placement matches
  relative_entries_followed    (with --pta) per bound, the relative entries it holds
Prints one line per check and a closing 'N passed, N failed'.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc  # noqa: E402


def sources(srcdir, name):
    d = os.path.join(srcdir, 'tests', 'pta_programs', name)
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.c'))
    headers = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.h'))
    return files, ''.join(open(f).read() for f in files + headers)


def strip_comments(text):
    return re.sub(r'/\*.*?\*/', '', text, flags=re.S)


def expected(name, text):
    code = strip_comments(text)
    # Uses of a macro, not its definition.
    level_calls = len(re.findall(r'^LEVEL_CALL\(', code, re.M))
    bounds = set(re.findall(r'\b(__start_\w+|__stop_\w+|__\w+_start|__\w+_end)\[\]', code))
    # Which bounds match: every __start_/__stop_ of a used section; the level
    # symbols bound the .lvlcallN.init sections LEVEL_CALL fills.
    sections_used = set(re.findall(r'section\("(\w+)"\)', code))
    matched = {b for b in bounds if re.sub(r'^__(start|stop)_', '', b) in sections_used or 'lvlcall' in b}
    static_calls = len(re.findall(r'^DEFINE_STATIC_CALL(?:_NULL)?\(', code, re.M))
    levels = [int(x) for x in re.findall(r'^LEVEL_CALL\((\d+),', code, re.M)]
    rel = 0
    for b in matched:
        m = re.match(r'__lvlcall(\d*)_(start|end)$', b)
        if m:
            rel += sum(1 for l in levels if m.group(1) == '' or int(m.group(1)) == l)
    return {
        'sites_asm_goto': len(re.findall(r'\basm goto\(', code)),
        'sites_asm_pointer_operands': len(re.findall(r'asm volatile\([^;]*"r"\(p\)', code)),
        'aliases': len(re.findall(r'__attribute__\(\(alias\(', code)),
        'asm_defined_functions': len(re.findall(r'\.globl (\w+)', code)) + static_calls,
        'trampolines': len(re.findall(r'\\tjmp \w+', code)) + static_calls,
        'trampoline_calls': len(re.findall(r'\bstatic_call\(\w+\)\(', code))
                            + len(re.findall(r'ICALL\([^;]*\w_tramp\(', code)),
        'module_asm_entries': level_calls,
        'module_asm_unparsed': len(re.findall(r'\.quad \w+ \+ 0x10 \* 2', code)),
        'section_bounds': len(matched),
        'relative_entries_followed': rel,
    }


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    facet, srcdir = sys.argv[1], sys.argv[2]
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix='facet-kstats.') as work:
        for name in ('kernel_idioms', 'kernel_sections', 'static_call'):
            files, text = sources(srcdir, name)
            want = expected(name, text)
            for level in ('-O0', '-O2'):
                bcs = []
                for f in files:
                    bc = os.path.join(work, f'{name}{level}-{os.path.basename(f)}.bc')
                    ok, err = compile_bc(f, bc, level)
                    if not ok:
                        sys.exit(f'cannot compile {f} {level}: {err}')
                    bcs.append(bc)
                out = subprocess.run([facet, 'stats', '--pta', '--format', 'json'] + bcs,
                                     capture_output=True, text=True)
                if not checks.check(out.returncode == 0, f'{name} {level}: facet stats exited {out.returncode}',
                                    out.stderr.strip()):
                    continue
                got = json.loads(out.stdout)
                for key, value in want.items():
                    checks.check(got.get(key) == value, f'{name} {level}: {key} is {got.get(key)}, the source says {value}')
    return checks.summary()


if __name__ == '__main__':
    sys.exit(main())
