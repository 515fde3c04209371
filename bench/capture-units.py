#!/usr/bin/env python3
"""capture-units.py — where a captured build's extra time goes, unit by unit.

    bench/capture-units.py [--runs N] [--limit K] CAPTURE_DIR

For each unit record of a capture (CAPTURE_DIR/records/u-*.json, made by `facet capture`),
runs again, in the unit's directory, the native compile (the record's `arguments`, the
wrapper's name replaced by the compiler it ran, the object written to a scratch file) and
the bitcode compile (`bitcode_arguments`, into a scratch file), N times each (default 3,
alternated under `perf stat -r`), and prints the CPU milliseconds (task-clock, children
included) of each and their ratio, then the totals. The bitcode compile is the work capture
adds per unit; the ratio of the totals is the floor of the captured build's CPU ratio
(1 + total bitcode / total native), whatever the wrapper does around them. The sources must
still be where the capture saw them."""
import glob
import json
import os
import subprocess
import sys
import tempfile


def cpu_ms(cmd, cwd, runs):
    r = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "-r", str(runs)] + cmd, cwd=cwd,
                       capture_output=True, text=True)
    for line in r.stderr.splitlines():
        if "task-clock" in line:
            try:
                return float(line.split(",")[0])
            except ValueError:
                return None
    return None


def main():
    args = sys.argv[1:]
    runs, limit = 3, None
    while args and args[0].startswith("--"):
        if args[0] == "--runs" and len(args) > 1:
            runs = int(args[1]); args = args[2:]
        elif args[0] == "--limit" and len(args) > 1:
            limit = int(args[1]); args = args[2:]
        else:
            print(__doc__); return 2
    if len(args) != 1:
        print(__doc__); return 2
    recs = sorted(glob.glob(os.path.join(args[0], "records", "u-*.json")))
    if not recs:
        print("capture-units: %s: no unit records" % args[0], file=sys.stderr); return 1
    scratch = tempfile.mkdtemp(prefix="capture-units-")
    tot_n = tot_b = 0.0
    done = 0
    for path in recs[:limit]:
        with open(path) as f:
            u = json.load(f)
        if not u.get("bitcode") or not u.get("object"):
            continue
        native = list(u["arguments"])
        native[0] = u["compiler"]
        if "-o" in native:
            native[native.index("-o") + 1] = os.path.join(scratch, "x.o")
        else:
            native += ["-o", os.path.join(scratch, "x.o")]
        bitcode = list(u["bitcode_arguments"])
        bitcode[bitcode.index("-o") + 1] = os.path.join(scratch, "x.bc")
        n, b = cpu_ms(native, u["cwd"], runs), cpu_ms(bitcode, u["cwd"], runs)
        if n is None or b is None:
            print("%-24s could not be run again" % os.path.basename(u["source"]))
            continue
        tot_n += n
        tot_b += b
        done += 1
        print("%-24s native %8.1f ms  bitcode %8.1f ms  ratio %.2f" % (os.path.basename(u["source"]), n, b, b / n),
              flush=True)
    if done:
        print("%d units: native %.0f ms, bitcode %.0f ms, bitcode/native %.2f (load %s)"
              % (done, tot_n, tot_b, tot_b / tot_n, open("/proc/loadavg").read().split()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
