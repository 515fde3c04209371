#!/usr/bin/env python3
"""capture-compare.py FACET CAPTURED.bc REFERENCE.bc [--rpm]

Compares a module from `facet capture extract` with the LTO preopt module of the
same program: defined functions (a `static` renamed name.N on collision compared
as name) and indirect call sites keyed by (file, line, column, inlining chain),
from `facet callgraph --format json`. With --rpm, also R± targets site by site.
Prints counts and the first differences of each kind."""
import collections
import json
import re
import subprocess
import sys


def graph(facet, bc, g):
    out = subprocess.run([facet, "callgraph", "--graph", g, "--format", "json", bc], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def norm(name):
    return re.sub(r"\.\d+$", "", name)


def referrers(bc):
    """Function name -> the functions whose bodies mention it (calls or addresses), from llvm-dis."""
    text = subprocess.run(["llvm-dis-22", bc, "-o", "-"], capture_output=True, text=True, check=True).stdout
    refs = collections.defaultdict(set)
    cur = None
    for line in text.splitlines():
        if line.startswith("define "):
            m = re.search(r'@("?[^"(]+"?)\(', line)
            cur = m.group(1).strip('"') if m else None
            continue
        if line.startswith("}"):
            cur = None
            continue
        if cur:
            for name in re.findall(r'@([-A-Za-z$._0-9]+)', line):
                if name != cur:
                    refs[name].add(cur)
    return refs


def site_key(s):
    chain = tuple((i.get("function"), i.get("file"), i.get("line"), i.get("column")) for i in s.get("inlined_at", []))
    return (s["file"], s["line"], s["column"], chain)


def main():
    facet, cap, ref = sys.argv[1:4]
    g = "rpm" if "--rpm" in sys.argv else "direct"
    a, b = graph(facet, cap, g), graph(facet, ref, g)
    fa = collections.Counter(norm(f["name"]) for f in a["functions"] if f["defined"])
    fb = collections.Counter(norm(f["name"]) for f in b["functions"] if f["defined"])
    only_a, only_b = fa - fb, fb - fa
    print("defined functions: captured %d, reference %d, common %d, only captured %d, only reference %d"
          % (sum(fa.values()), sum(fb.values()), sum((fa & fb).values()), sum(only_a.values()), sum(only_b.values())))
    if only_a:
        # LTO drops definitions no live symbol reaches; such a function is referred
        # to by no function the reference module also has.
        refs = referrers(cap)
        live = [n for n in only_a if any(norm(r) in fb for r in refs.get(n, ()))]
        print("  of the only-captured: %d referred to by no function of the reference (dead-stripped by LTO), %d referred to"
              % (len(only_a) - len(live), len(live)))
        for n in sorted(live)[:15]:
            print("  only captured, referred to:", n)
    for n in sorted(only_a)[:15]:
        print("  only captured:", n)
    for n in sorted(only_b)[:15]:
        print("  only reference:", n)
    sa = collections.Counter(site_key(s) for s in a["sites"] if s["kind"] == "indirect")
    sb = collections.Counter(site_key(s) for s in b["sites"] if s["kind"] == "indirect")
    oa, ob = sa - sb, sb - sa
    print("indirect sites: captured %d, reference %d, common %d, only captured %d, only reference %d"
          % (sum(sa.values()), sum(sb.values()), sum((sa & sb).values()), sum(oa.values()), sum(ob.values())))
    if oa:
        # a site inside a function LTO dead-stripped (its caller is only-captured) is explained by that
        dead = collections.Counter(site_key(s) for s in a["sites"]
                                   if s["kind"] == "indirect" and norm(s["caller"]) in only_a)
        print("  of the only-captured: %d in functions only the captured module has (dead-stripped by LTO)"
              % sum((oa & dead).values()))
        oa = oa - dead
    for k in sorted(oa)[:10]:
        print("  only captured:", k)
    for k in sorted(ob)[:10]:
        print("  only reference:", k)
    if g == "rpm":
        ta = {site_key(s): sorted(norm(t) for t in s["targets"]) for s in a["sites"] if s["kind"] == "indirect"}
        tb = {site_key(s): sorted(norm(t) for t in s["targets"]) for s in b["sites"] if s["kind"] == "indirect"}
        common = [k for k in ta if k in tb]
        diff = [k for k in common if ta[k] != tb[k]]
        # a difference made only of functions the captured module alone has (the ones LTO dropped)
        extra = [k for k in diff if set(tb[k]) <= set(ta[k]) and set(ta[k]) - set(tb[k]) <= set(only_a)]
        print("R± targets: %d common sites, %d agree, %d differ (%d of them only by functions only the captured"
              " module has)" % (len(common), len(common) - len(diff), len(diff), len(extra)))
        diff = [k for k in diff if k not in extra]
        for k in diff[:10]:
            print("  differ:", k, "captured", ta[k][:5], "reference", tb[k][:5])


if __name__ == "__main__":
    main()
