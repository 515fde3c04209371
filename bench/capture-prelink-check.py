#!/usr/bin/env python3
"""capture-prelink-check.py DIR [--limit N] [--jobs N]

Checks, unit by unit, that the pre-link optimizer run by `facet capture extract`
(capture/prelink.h: the unit's own flags on the front end's bitcode, `-x ir`)
gives the IR a one-step compile gives (the same bitcode command without
`-Xclang -disable-llvm-passes -Xclang -emit-llvm-uselists`, what the build
ran before). DIR is a capture
directory whose build tree is still in place (the sources are compiled again,
in each unit's directory). Both outputs are read back with
`opt-22 -discard-value-names` (clang keeps local value names for IR input) and
compared as llvm-dis text, the ModuleID line aside. Prints one line per unit
that differs (its first differing lines) and the counts; exits 1 when any
differs."""
import concurrent.futures
import difflib
import json
import os
import subprocess
import sys
import tempfile


def normalized(bc):
    names = subprocess.run(["opt-22", "-discard-value-names", "-passes=verify", bc, "-o", "-"],
                           capture_output=True, check=True).stdout
    text = subprocess.run(["llvm-dis-22", "-o", "-"], input=names, capture_output=True, check=True).stdout
    return text.decode().split("\n")[1:]


def one_step(unit, out):
    args = list(unit["bitcode_arguments"])
    for flag in ("-disable-llvm-passes", "-emit-llvm-uselists"):
        if flag in args:
            i = args.index(flag)
            del args[i - 1:i + 1]
    args[args.index("-o") + 1] = out
    subprocess.run(args, cwd=unit["cwd"], capture_output=True, check=True)


def check(unit, capdir, tmp):
    a = os.path.join(tmp, unit["id"] + ".one.bc")
    b = os.path.join(tmp, unit["id"] + ".two.bc")
    one_step(unit, a)
    subprocess.run(unit["prelink_arguments"] + ["-x", "ir", os.path.join(capdir, unit["bitcode"]), "-o", b],
                   cwd=unit["cwd"], capture_output=True, check=True)
    x, y = normalized(a), normalized(b)
    os.unlink(a)
    os.unlink(b)
    if x == y:
        return None
    diff = [d for d in difflib.unified_diff(x, y, lineterm="", n=0) if d[:1] in "+-" and d[:3] not in ("+++", "---")]
    return "%s: %d lines differ: %s" % (unit["source"], len(diff), " | ".join(d[:160] for d in diff[:4]))


def main():
    argv = sys.argv[1:]
    limit = jobs = None
    if "--limit" in argv:
        i = argv.index("--limit")
        limit = int(argv[i + 1])
        del argv[i:i + 2]
    if "--jobs" in argv:
        i = argv.index("--jobs")
        jobs = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 1:
        sys.exit(__doc__)
    capdir = argv[0]
    with open(os.path.join(capdir, "manifest.json")) as f:
        units = [u for u in json.load(f)["units"] if u.get("bitcode") and u.get("prelink_arguments")]
    units = units[:limit] if limit else units
    same = 0
    failed = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(jobs or os.cpu_count()) as pool:
        for u, r in zip(units, pool.map(lambda u: check(u, capdir, tmp), units)):
            if r is None:
                same += 1
            else:
                failed.append(r)
                print(r)
    print("%d units: %d identical IR, %d differ" % (len(units), same, len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
