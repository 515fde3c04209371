#!/usr/bin/env python3
"""check_function_length.py — no function in src/ is longer than 120 lines
(STYLE.md: "functions about a screen long, none over 120 lines").

A function is a definition that opens with '{' alone at column 0 after its
signature and ends at the next '}' at column 0 (the project's layout,
STYLE.md); its length is its body's, the lines between the two braces. Prints each function over the limit with file:line and
its length.

Usage: check_function_length.py SRC_DIR [LIMIT]     Exit: 0 pass, 1 fail.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

SIGNATURE_START = re.compile(r"^[A-Za-z_][^;]*\(")


def functions(path):
    """Yields (name, first line, length) of each function defined in path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "{" and i > 0:
            # the signature: back to the line that starts it at column 0
            s = i - 1
            while s > 0 and not SIGNATURE_START.match(lines[s]) and lines[s - 1].strip() and lines[s][:1] in (" ", "\t"):
                s -= 1
            m = re.search(r"([A-Za-z_]\w*)\s*\(", lines[s])
            j = i + 1
            while j < len(lines) and lines[j] != "}":
                j += 1
            if SIGNATURE_START.match(lines[s]) and m:
                yield m.group(1), s + 1, j - i - 1
            i = j
        i += 1


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    src, limit = sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 120
    c = Checks()
    seen = 0
    for root, _, names in os.walk(src):
        for n in sorted(names):
            if not n.endswith(".c"):
                continue
            path = os.path.join(root, n)
            for name, line, length in functions(path):
                seen += 1
                c.check(length <= limit, f"{os.path.relpath(path, src)}:{line} {name}: {length} lines",
                        f"(over {limit})")
    # the scan itself must have found the functions (a layout change that
    # hid them all would otherwise pass)
    c.check(seen > 500, f"{seen} functions found in {src}")
    return c.summary()


if __name__ == "__main__":
    sys.exit(main())
