#!/usr/bin/env python3
"""check_facet.py — end-to-end tests of facet's refinement (R0, Rules-only,
R+ and R±, dispatched fields, warrants) on the C programs of
tests/facet/programs/, each compiled with clang-22 -g at -O0 and -O2.

Usage: check_facet.py FACET SRCDIR [-v] [-k] [PROGRAM...]

A program marks its indirect call sites with /* SITE name */ on the call's
line and writes what facet must answer in comment lines:

    // EXPECT name field: record.member | global NAME | array NAME | unrecovered | named
    // EXPECT name step: direct | chained | typed
    // EXPECT name r0: f g h            (also rulesonly, rplus, rpm; "-" is empty)
    // EXPECT name decision f: FACT OUTCOME RULE PREMISE   ("none": no decision on f)
    // EXPECT name evidence f: WORD       (a decision on f cites "WORD ..." : store, copy, initializer)
    // EXPECT name rejected: f g       (written into the field with an incompatible signature; "-" none)
    // EXPECT name abstains: yes | no
    // EXPECT name question: completion | disambiguation | none
    // EXPECT name collapsed: N CAUSE-WORD FUNCTION  (the widest collapsed object holding part
                                       of the callee's points-to set holds N of it, collapsed by a
                                       cause starting with CAUSE-WORD in FUNCTION; "-" for none)

A program may also state counts that `facet stats --format json` and
`facet fields --format json` must report for it:

    // COUNT stats sites_indirect_named: 2
    // COUNT fields sites_named: 2

An EXPECT may be restricted: EXPECT@O0, EXPECT@O2, and EXPECT@tau=N (facet
run with --tau N). A program of several units is also checked with its units
linked in the reverse order (no key may depend on which of two isomorphic
structs the IR linker names first); EXPECT@linked holds in the given order
only (where nothing but the IR's merged name types the memory). Every site at the marked line is checked (inlining can
copy a call). Every site of every program is also checked for the
invariants that hold by construction: R0 ⊆ R+, Rules-only ⊆ R0, an
abstaining site gains nothing in R± or R+, and every supported or rejected
decision carries a rule and a premise. Each program is also written to a
catalog (facet build) whose provenance must re-derive (facet rederive) the
stored graphs, and under every τ an EXPECT names, the graphs a fresh
analysis with that τ gives.

A program may be a directory: its .c files are compiled separately and
given to facet together (facet links them).

Prints one line per failed check and a closing "N passed, N failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc, run  # noqa: E402  (tests/lib/harness.py)

GRAPHS = ("r0", "rulesonly", "rplus", "rpm")
EXPECT_RE = re.compile(r"//\s*EXPECT((?:@[A-Za-z0-9=]+)*)\s+(\w+)\s+(\w+)(?:\s+([\w.]+))?\s*:\s*(.*)$")
SITE_RE = re.compile(r"/\*\s*SITE\s+(\w+)\s*\*/")
COUNT_RE = re.compile(r"//\s*COUNT\s+(stats|fields)\s+(\w+)\s*:\s*(\d+)\s*$")


def parse_program(paths):
    """Sites (name -> (file basename, line)) and expectations."""
    sites, expects = {}, []
    for path in paths:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                m = COUNT_RE.search(line)
                if m:
                    expects.append(dict(name=None, kind="count", arg=(m.group(1), m.group(2)), value=int(m.group(3)),
                                        opt=None, tau=None, where=f"{os.path.basename(path)}:{lineno}"))
                    continue
                m = SITE_RE.search(line)
                if m:
                    sites[m.group(1)] = (os.path.basename(path), lineno)
                m = EXPECT_RE.search(line)
                if m:
                    tags, name, kind, arg, value = m.groups()
                    opt, tau, linked = None, None, False
                    for t in filter(None, tags.split("@")):
                        if t in ("O0", "O2"):
                            opt = t
                        elif t == "linked":
                            linked = True
                        elif t.startswith("tau="):
                            tau = int(t[4:])
                        else:
                            raise SystemExit(f"{path}:{lineno}: unknown EXPECT tag @{t}")
                    expects.append(dict(name=name, kind=kind, arg=arg, value=value.strip(), opt=opt, tau=tau,
                                        linked=linked, where=f"{os.path.basename(path)}:{lineno}"))
    return sites, expects


def explain(facet, bcs, tau):
    cmd = [facet, "explain", "--all", "--format", "json"] + (["--tau", str(tau)] if tau is not None else []) + bcs
    rc, out, err = run(cmd)
    if rc != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {rc}: {err.strip()}")
    return json.loads(out)


def members(site, graph):
    return sorted(t["name"] for t in site["targets"] if graph in t["in_graphs"])


def field_text(site):
    f = site["field"]
    if site["dispatch"]["status"] == "named":
        return "named"
    if site["dispatch"]["status"] == "unrecovered" or f is None:
        return "unrecovered"
    if f["kind"] == "global":
        return "global " + f["record"]
    if f["kind"] == "array":
        return "array " + f["record"]
    return f"{f['record']}.{f['name']}"


def check_invariants(c, label, data):
    for s in data["sites"]:
        where = f"{label} site {s['id']} ({s['file']}:{s['line']})"
        r0, rs, rp, rpm = (set(members(s, g)) for g in GRAPHS)
        c.check(r0 <= rp, f"{where}: R0 ⊆ R+")
        c.check(rs <= r0, f"{where}: Rules-only ⊆ R0")
        if s["dispatch"]["abstains"]:
            c.check(rpm <= r0 and rp == r0, f"{where}: an abstaining site gains nothing")
        for t in s["targets"]:
            for d in t["warrants"]:
                if d["outcome"] != "residual":
                    c.check(d["rule"] != "residual" and d["premise"] is not None,
                            f"{where}: {t['name']} {d['fact']} {d['outcome']} carries a warrant")


def check_expect(c, label, sites, data, e):
    name = e["name"]
    if name not in sites:
        c.check(False, f"{label} {e['where']}: no /* SITE {name} */ marker")
        return
    file, line = sites[name]
    found = [s for s in data["sites"] if s["line"] == line and (s["file"] or "").endswith(file)]
    if not found:
        c.check(False, f"{label} {e['where']}: no indirect site at {file}:{line}")
        return
    for s in found:
        what = f"{label} {e['where']} site {name} (id {s['id']})"
        kind, value = e["kind"], e["value"]
        if kind in GRAPHS:
            want = [] if value == "-" else sorted(value.split())
            got = members(s, kind)
            c.check(got == want, f"{what}: {kind} = {' '.join(got) or '-'}, expected {' '.join(want) or '-'}")
        elif kind == "field":
            got = field_text(s)
            c.check(got == value, f"{what}: field {got}, expected {value}"
                    + (f" (reason: {s['dispatch']['reason']})" if s["dispatch"]["reason"] else ""))
        elif kind == "rejected":
            f = s["field"] or {}
            got = sorted(r["function"] for r in f.get("signature_rejected", []))
            want = [] if value == "-" else sorted(value.split())
            c.check(got == want, f"{what}: signature-rejected {got}, expected {want}")
        elif kind == "step":
            c.check(s["dispatch"]["step"] == value, f"{what}: step {s['dispatch']['step']}, expected {value}")
        elif kind == "abstains":
            c.check(s["dispatch"]["abstains"] == (value == "yes"), f"{what}: abstains {s['dispatch']['abstains']}, expected {value}")
        elif kind == "question":
            kinds = sorted(q["kind"] for q in s["questions"]) or ["none"]
            c.check(kinds == [value], f"{what}: questions {kinds}, expected {value}")
        elif kind == "collapsed":
            col = s.get("collapsed")
            if value == "-":
                got = "-" if col is None else json.dumps(col)
            else:
                w = ((col or {}).get("widest") or [{}])[0]
                got = f"{w.get('holds')} {(w.get('cause') or '').split(' ')[0]} {w.get('function')}"
            c.check(got == value, f"{what}: collapsed {got}, expected {value}")
        elif kind == "decision":
            want = value.split()
            ds = [t["warrants"] for t in s["targets"] if t["name"] == e["arg"]]
            got = [[d["fact"], d["outcome"], d["rule"], d["premise"] or "-"] for d in (ds[0] if ds else [])]
            if want == ["none"]:
                c.check(got == [], f"{what}: decisions on {e['arg']} {got}, expected none")
                continue
            c.check(want in got, f"{what}: decisions on {e['arg']} {got}, expected {want}")
        elif kind == "evidence":
            ds = [t["warrants"] for t in s["targets"] if t["name"] == e["arg"]]
            got = [d["evidence"] or "" for d in (ds[0] if ds else [])]
            c.check(any(g.split(" ")[0] == value for g in got), f"{what}: evidence on {e['arg']} {got}, expected {value} ...")
        else:
            c.check(False, f"{what}: unknown expectation '{kind}'")


def check_counts(c, label, facet, bcs, expects):
    """The COUNT lines: what `facet stats` and `facet fields` report."""
    outputs = {}
    for e in expects:
        if e["kind"] != "count":
            continue
        command, key = e["arg"]
        if command not in outputs:
            rc, out, err = run([facet, command, "--format", "json"] + bcs)
            outputs[command] = json.loads(out) if rc == 0 else {}
            c.check(rc == 0, f"{label}: facet {command} exits 0 ({err.strip()})")
        got = outputs[command].get(key)
        c.check(got == e["value"], f"{label} {e['where']}: facet {command}: {key} = {got}, expected {e['value']}")


def check_replay(c, label, facet, bcs, work, taus, runs):
    """The catalog's provenance re-derives R+ and R± under any τ without the
    bitcode: at the built τ it gives the stored graphs; at another τ the
    graphs a fresh analysis with that τ gives (`runs`: τ -> explain data)."""
    cat = os.path.join(work, "replay.facet")
    rc, _, err = run([facet, "build", "-o", cat] + bcs)
    if rc != 0:
        c.check(False, f"{label}: facet build failed: {err.strip()}")
        return
    for g in ("rpm", "rplus", "rulesonly"):
        rc, _, err = run([facet, "rederive", "--catalog", cat, "--graph", g, "--check"])
        c.check(rc == 0, f"{label}: rederive --graph {g} at the built τ equals the stored graph ({err.strip()})")
    for tau in taus:
        data = runs.get(tau)
        if data is None:
            continue
        for g in ("rpm", "rplus"):
            rc, out, err = run([facet, "rederive", "--catalog", cat, "--graph", g, "--tau", str(tau),
                                "--format", "json"])
            if rc != 0:
                c.check(False, f"{label}: rederive --tau {tau} failed: {err.strip()}")
                continue
            got = {s["id"]: sorted(s["targets"]) for s in json.loads(out)["sites"]}
            want = {s["id"]: members(s, g) for s in data["sites"]}
            c.check(all(got.get(k, []) == v for k, v in want.items()),
                    f"{label}: rederive --tau {tau} --graph {g} equals a fresh analysis at τ {tau}")
    os.remove(cat)


def check_cli_errors(c, facet, srcdir, work):
    """Bad arguments and bad input: a message, the documented exit code, no crash."""
    src = os.path.join(srcdir, "tests", "facet", "programs", "globals.c")
    bc = os.path.join(work, "errors.bc")
    compile_bc(src, bc, "-O0")
    junk = os.path.join(work, "junk.bc")
    with open(junk, "wb") as f:
        f.write(b"BC\xc0\xde this is not bitcode")
    cases = [
        (["callgraph", "--graph", "rpm", "--tau", "-1", bc], 2, "--tau"),
        (["explain", "--tau", "x", "--all", bc], 2, "--tau"),
        (["fields", "--tau", "99999999", bc], 2, "--tau"),
        (["explain", bc], 2, "FILE:LINE"),
        (["explain", "--site", "100000", bc], 1, "no call site"),
        (["explain", bc, "globals.c:1"], 1, "no indirect call site"),
        (["explain", "--site", "0", "--all", junk], 1, junk),
        (["fields", junk], 1, junk),
        (["callgraph", "--graph", "rpm", junk], 1, junk),
        (["rederive", "--catalog", junk], 1, junk),
        (["rederive", "--catalog", bc, "--graph", "r0"], 2, "--graph"),
    ]
    for args, want, says in cases:
        rc, _, err = run([facet] + args)
        c.check(rc == want and says in err,
                f"facet {' '.join(os.path.basename(a) for a in args)}: exit {rc} (want {want}), says {err.strip()!r}")


def check_no_debug_info(c, facet, srcdir, work):
    """Without debug info R± equals R0, and facet says why."""
    src = os.path.join(srcdir, "tests", "facet", "programs", "modules.c")
    bc = os.path.join(work, "nodebug.bc")
    rc, _, err = run(["clang-22", "-O0", "-c", "-emit-llvm", "-o", bc, src])
    if rc != 0:
        c.check(False, f"no debug info: clang-22 failed: {err.strip()}")
        return
    graphs = {}
    for g in ("r0", "rpm", "rplus"):
        rc, out, err = run([facet, "callgraph", "--graph", g, "--format", "json", bc])
        c.check(rc == 0, f"no debug info: facet callgraph --graph {g} exits 0 ({rc})")
        if rc != 0:
            return
        graphs[g] = {s["id"]: s["targets"] for s in json.loads(out)["sites"]}
        if g != "r0":
            c.check("no debug info" in err, f"no debug info: --graph {g} says why on stderr ({err.strip()!r})")
    c.check(graphs["rpm"] == graphs["r0"] and graphs["rplus"] == graphs["r0"], "no debug info: R± = R+ = R0")
    c.check(any(t for t in graphs["r0"].values()), "no debug info: R0 is not trivially empty")


def check_link_order(c, label, facet, bcs, sites, expects):
    """A program of several units answers the same with its units linked in
    the reverse order: the IR linker names isomorphic structs after the one
    it maps first, and no key may depend on that choice."""
    label += " (units linked in reverse order)"
    try:
        data = explain(facet, list(reversed(bcs)), None)
    except (RuntimeError, json.JSONDecodeError) as ex:
        c.check(False, f"{label}: {ex}")
        return
    for e in expects:
        if e["tau"] is None and e["opt"] in (None, label.split()[1][1:]) and e["kind"] != "count" \
                and not e.get("linked"):
            check_expect(c, label, sites, data, e)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose, keep = "-v" in sys.argv, "-k" in sys.argv
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    facet, srcdir, only = os.path.abspath(args[0]), args[1], args[2:]
    progdir = os.path.join(srcdir, "tests", "facet", "programs")
    names = sorted(n[:-2] if n.endswith(".c") else n for n in os.listdir(progdir)
                   if n.endswith(".c") or os.path.isdir(os.path.join(progdir, n)))
    if only:
        names = [n for n in names if n in only]
    c = Checks(verbose)
    work = tempfile.mkdtemp(prefix="facet-refine.")
    for name in names:
        path = os.path.join(progdir, name)
        sources = [path + ".c"] if os.path.isfile(path + ".c") else \
            sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".c"))
        sites, expects = parse_program(sources)
        c.check(bool(sites), f"{name}: has /* SITE */ markers")
        for opt in ("O0", "O2"):
            bcs = []
            for src in sources:
                bc = os.path.join(work, f"{name}.{os.path.basename(src)}.{opt}.bc")
                ok, err = compile_bc(src, bc, f"-{opt}", flags=("-Wall", "-Wextra", "-Werror"))
                if not ok:
                    c.check(False, f"{name} -{opt}: clang-22 failed: {err.strip()}")
                    break
                bcs.append(bc)
            else:
                taus = sorted({e["tau"] for e in expects if e["tau"] is not None})
                if len(bcs) > 1:
                    check_link_order(c, f"{name} -{opt}", facet, bcs, sites, expects)
                runs = {}
                for tau in [None] + taus:
                    label = f"{name} -{opt}" + (f" --tau {tau}" if tau is not None else "")
                    try:
                        data = explain(facet, bcs, tau)
                    except (RuntimeError, json.JSONDecodeError) as ex:
                        c.check(False, f"{label}: {ex}")
                        continue
                    runs[tau] = data
                    check_invariants(c, label, data)
                    for e in expects:
                        if e["tau"] == tau and e["opt"] in (None, opt) and e["kind"] != "count":
                            check_expect(c, label, sites, data, e)
                check_counts(c, f"{name} -{opt}", facet, bcs, expects)
                check_replay(c, f"{name} -{opt}", facet, bcs, work, taus, runs)
    if not only:
        check_no_debug_info(c, facet, srcdir, work)
        check_cli_errors(c, facet, srcdir, work)
    if keep:
        print(f"work directory: {work}")
    else:
        subprocess.run(["rm", "-rf", work])
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
