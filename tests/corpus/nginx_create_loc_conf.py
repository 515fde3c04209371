#!/usr/bin/env python3
"""nginx_create_loc_conf.py — the Facet paper's running example on the real
nginx: the call module->create_loc_conf(cf) in ngx_http_block must resolve
under R± to exactly the functions that the modules linked into this build
store into the create_loc_conf field of their ngx_http_module_t table, and
R+ must contain R0 at every site of the program.

Usage: nginx_create_loc_conf.py FACET NGINX_BC NGINX_SRC

The expected set is counted from the source, not written down: the modules
linked into the build are those objs/ngx_modules.c lists; each module's
ngx_module_t names its context table; the table's initializer is read
positionally against the declaration of ngx_http_module_t in
src/http/ngx_http_config.h. Exit 77 (skipped) when the bitcode or the
source tree is absent."""
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def field_index(src):
    """Position of create_loc_conf among ngx_http_module_t's members."""
    text = strip_comments(open(os.path.join(src, "src/http/ngx_http_config.h")).read())
    end = re.search(r"\}\s*ngx_http_module_t\s*;", text).start()
    body = text[text.rfind("{", 0, end) + 1:end]
    members = [d.strip() for d in body.split(";") if d.strip()]
    for i, d in enumerate(members):
        if re.search(r"\(\s*\*\s*create_loc_conf\s*\)", d):
            return i, len(members)
    raise SystemExit("create_loc_conf not found in ngx_http_module_t")


def linked_modules(src):
    text = open(os.path.join(src, "objs/ngx_modules.c")).read()
    return set(re.findall(r"extern\s+ngx_module_t\s+(\w+)\s*;", text))


def initializer(text, name, typename):
    m = re.search(r"\b" + typename + r"\s+" + name + r"\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        return None
    return [e.strip() for e in m.group(1).split(",")]


def expected_targets(src):
    index, count = field_index(src)
    modules = linked_modules(src)
    targets, tables = set(), 0
    for root, _, files in os.walk(os.path.join(src, "src")):
        for f in files:
            if not f.endswith(".c"):
                continue
            text = strip_comments(open(os.path.join(root, f), errors="replace").read())
            for mod in modules:
                fields = initializer(text, mod, "ngx_module_t")
                if not fields or len(fields) < 2:
                    continue
                ctx = fields[1].lstrip("&").strip()
                table = initializer(text, ctx, "ngx_http_module_t")
                if table is None:
                    continue   # not an HTTP module
                table = [e for e in table if e]
                if len(table) != count:
                    raise SystemExit(f"{f}: {ctx} has {len(table)} entries, ngx_http_module_t {count}")
                tables += 1
                if table[index] != "NULL":
                    targets.add(table[index])
    return targets, tables


def site_line(src):
    lines = open(os.path.join(src, "src/http/ngx_http.c")).read().split("\n")
    inside = False
    for i, line in enumerate(lines, 1):
        if re.match(r"ngx_http_block\(", line):
            inside = True
        elif inside and re.match(r"^}", line):
            break
        if inside and "module->create_loc_conf(cf)" in line:
            return i
    raise SystemExit("create_loc_conf call not found in ngx_http_block")


def graph(facet, bc, name):
    out = subprocess.run([facet, "callgraph", "--graph", name, "--format", "json", bc],
                         stdout=subprocess.PIPE, check=True, text=True).stdout
    return {s["id"]: s for s in json.loads(out)["sites"]}


def main():
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    facet, bc, src = sys.argv[1:]
    if not os.path.exists(bc) or not os.path.exists(os.path.join(src, "objs/ngx_modules.c")):
        print(f"skipped: {bc} or the nginx build tree {src} is absent (bench/corpus.sh nginx builds them)")
        return 77
    want, tables = expected_targets(src)
    line = site_line(src)
    rpm, rplus, r0 = (graph(facet, bc, g) for g in ("rpm", "rplus", "r0"))
    checks = Checks(verbose=True)
    sites = [s for s in rpm.values() if s["kind"] == "indirect" and s["line"] == line
             and (s["file"] or "").endswith("http/ngx_http.c")]
    print(f"{len(want)} functions stored into create_loc_conf by {tables} HTTP module tables; "
          f"{len(sites)} site(s) at ngx_http.c:{line}")
    checks.check(sites, "an indirect site at the create_loc_conf call")
    for s in sites:
        got = set(s["targets"])
        checks.check(got == want, f"site {s['id']}: R± = the {len(want)} functions",
                     f"R± has {len(got)} targets; missing {sorted(want - got)}, extra {sorted(got - want)}")
    lost = [i for i in r0 if not set(r0[i]["targets"]) <= set(rplus[i]["targets"])]
    checks.check(not lost, f"R0 ⊆ R+ at all {len(r0)} sites", f"R+ misses R0 edges at {len(lost)} sites, e.g. {lost[:5]}")
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
