#!/usr/bin/env python3
"""check_oracle.py — end-to-end tests of the residual oracle's backends
(src/oracle/) through `facet explain --format json`.

Usage: check_oracle.py FACET SRCDIR [-v] [-k] [SECTION...]

Sections (all by default):
  truth        the ground truth of tests/oracle/programs/ against a native run
  command      the command backend under scripted answers (fake_oracle.py)
  openai       the openai backend against a loopback chat-completions server
               (fake_openai.py), started and stopped here
  cache        answers cached, replayed with zero requests, replay-only misses
  adversarial  always-yes, always-no and invented-names oracles on every
               program of tests/facet/programs/ and tests/oracle/programs/:
               no warranted edge removed, no refuted edge added, abstaining
               sites untouched, R+ identical to the run without an oracle
  ideal        an oracle answering from the ground truth raises R± recall at
               initially empty sites to 1.0, and prunes a disambiguated site
               to exactly its runtime targets

A program of tests/oracle/programs/ is a directory: the .c files given to
facet (all but registry.c, which only the native ground-truth binary links)
mark sites with /* SITE name */ and state the runtime targets as
"// TRUTH name: f g". Prints one line per failed check and "N passed, N failed".
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc, run as harness_run  # noqa: E402  (tests/lib/harness.py)

HERE = os.path.dirname(os.path.abspath(__file__))
SITE_RE = re.compile(r"/\*\s*SITE\s+(\w+)\s*\*/")
TRUTH_RE = re.compile(r"//\s*TRUTH\s+(\w+)\s*:\s*(.*)$")
EXPECT_RPM_RE = re.compile(r"//\s*EXPECT\s+(\w+)\s+rpm\s*:\s*(.*)$")
NATIVE_ONLY = {"registry.c"}
GRAPHS = ("r0", "rulesonly", "rplus", "rpm")
PRIMARY = "codec"   # the program the backend cases run on: two completion questions


def run(cmd, env=None, timeout=600):
    return harness_run(cmd, env=env, timeout=timeout)


class Ctx:
    def __init__(self, facet, srcdir, work, c):
        self.facet, self.srcdir, self.work, self.c = facet, srcdir, work, c
        self.bcs = {}

    def compile(self, name, sources, opt):
        key = (name, opt)
        if key not in self.bcs:
            bcs = []
            for src in sources:
                bc = os.path.join(self.work, f"{name}.{os.path.basename(src)}.{opt}.bc")
                ok, err = compile_bc(src, bc, f"-{opt}", flags=("-Wall", "-Wextra", "-Werror"))
                if not ok:
                    raise RuntimeError(f"clang-22 failed on {src}: {err.strip()}")
                bcs.append(bc)
            self.bcs[key] = bcs
        return self.bcs[key]

    def explain(self, bcs, args=(), env=None):
        cmd = [self.facet, "explain", "--all", "--format", "json"] + list(args) + bcs
        rc, out, err = run(cmd, env=env)
        if rc != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {rc}: {err.strip()}")
        return json.loads(out), err


def members(site, graph):
    return sorted(t["name"] for t in site["targets"] if graph in t["in_graphs"])


def oracle_programs():
    """name -> (analysed sources, native sources) of tests/oracle/programs/."""
    base = os.path.join(HERE, "programs")
    out = {}
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".c"))
        out[name] = ([f for f in files if os.path.basename(f) not in NATIVE_ONLY], files)
    return out


def parse_truth(sources, regex=TRUTH_RE):
    """{'FILE:LINE': [targets]} and {'FILE:LINE': site name}."""
    sites, truth = {}, {}
    for path in sources:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                m = SITE_RE.search(line)
                if m:
                    sites[m.group(1)] = f"{os.path.basename(path)}:{lineno}"
                m = regex.search(line)
                if m:
                    truth[m.group(1)] = [] if m.group(2).strip() == "-" else m.group(2).split()
    return {sites[n]: sorted(t) for n, t in truth.items() if n in sites}, {v: k for k, v in sites.items()}


def key_of(site):
    return f"{os.path.basename(site['file'] or '?')}:{site['line']}"


def by_key(data):
    out = {}
    for s in data["sites"]:
        out.setdefault(key_of(s), []).append(s)
    return out


# ---- truth -------------------------------------------------------------------------------

def section_truth(x):
    c = x.c
    for name, (analysed, native) in oracle_programs().items():
        truth, names = parse_truth(analysed)
        exe = os.path.join(x.work, name + ".native")
        rc, _, err = run(["clang-22", "-g", "-O2", "-o", exe] + native)
        if not c.check(rc == 0, f"truth {name}: native build ({err.strip()})"):
            continue
        rc, out, _ = run([exe])
        c.check(rc == 0, f"truth {name}: native run exits 0 ({rc})")
        seen = {}
        for line in out.splitlines():
            site, fn = line.split()
            seen.setdefault(site, set()).add(fn)
        for key, want in truth.items():
            got = sorted(seen.get(names[key], ()))
            c.check(got == want, f"truth {name} site {names[key]}: observed {got}, TRUTH says {want}")


# ---- scripted backends --------------------------------------------------------------------

def check_case(x, label, data, truth, expect_rpm, counters, base):
    """expect_rpm: 'truth', 'empty', or a dict key -> list."""
    c = x.c
    st = data.get("oracle") or {}
    for k, v in counters.items():
        c.check(st.get(k) == v, f"{label}: oracle.{k} = {st.get(k)}, expected {v}")
    bk = by_key(base)
    for key, sites in by_key(data).items():
        for s, b in zip(sites, bk[key]):
            for g in ("r0", "rulesonly", "rplus"):
                c.check(members(s, g) == members(b, g), f"{label} {key}: {g} unchanged by the oracle")
            if key in truth:
                if expect_rpm == "truth":
                    want = truth[key]
                elif expect_rpm == "empty":
                    want = []
                else:
                    want = expect_rpm.get(key, [])
                got = members(s, "rpm")
                c.check(got == want, f"{label} {key}: rpm = {got}, expected {want}")


def section_command(x):
    fake = os.path.join(HERE, "fake_oracle.py")
    for name, (analysed, _) in oracle_programs().items():
        if name != PRIMARY:
            continue
        truth, _ = parse_truth(analysed)
        tfile = os.path.join(x.work, name + ".truth.json")
        with open(tfile, "w") as f:
            json.dump(truth, f)
        for opt in ("O0", "O2"):
            bcs = x.compile(name, analysed, opt)
            base, _ = x.explain(bcs)
            first = min(truth, key=lambda k: int(k.split(":")[1]))
            cases = [
                ("correct", [], "truth", dict(questions=2, queries=2, requests=2, answered=2, failures=0, invented=0,
                                              unusable=0, prompt_tokens=200, completion_tokens=20)),
                ("fenced", [], "truth", dict(answered=2, unusable=0)),
                ("invent", [], "truth", dict(answered=2, invented=2)),
                ("invent-only", [], "empty", dict(answered=0, unusable=2, invented=8)),
                ("malformed", [], "empty", dict(answered=0, unusable=2, failures=0)),
                ("exit1", [], "empty", dict(answered=0, failures=2)),
                ("slow", ["--oracle-timeout-ms", "500"], "empty", dict(answered=0, failures=2, timeouts=2)),
                ("correct", ["--oracle-max-queries", "1"], {first: truth[first]},
                 dict(questions=2, queries=1, skipped_cap=1, answered=1)),
                ("correct", ["--oracle-max-tokens", "50"], {first: truth[first]},
                 dict(questions=2, queries=1, skipped_cap=1, prompt_tokens=100)),
            ]
            for mode, extra, expect, counters in cases:
                label = f"command {mode}{' ' + ' '.join(extra) if extra else ''} on {name} -{opt}"
                cmd = f"python3 {fake} {mode} {tfile}"
                try:
                    data, _ = x.explain(bcs, ["--oracle", "command", "--oracle-command", cmd] + extra)
                except RuntimeError as e:
                    x.c.check(False, f"{label}: {e}")
                    continue
                check_case(x, label, data, truth, expect, counters, base)
            check_prompts(x, name, analysed, bcs, fake, tfile, opt)


def check_prompts(x, name, analysed, bcs, fake, tfile, opt):
    """The question JSON: bodies and the site's code, opaque fields, missing sources."""
    c = x.c
    log = os.path.join(x.work, f"{name}.{opt}.questions.jsonl")
    env = dict(os.environ, FAKE_ORACLE_LOG=log)
    cmd = f"python3 {fake} correct {tfile}"
    for opaque in (False, True):
        if os.path.exists(log):
            os.unlink(log)
        x.explain(bcs, ["--oracle", "command", "--oracle-command", cmd] + (["--opaque-fields"] if opaque else []),
                  env=env)
        qs = [json.loads(l) for l in open(log)]
        label = f"prompt {name} -{opt}{' --opaque-fields' if opaque else ''}"
        c.check(len(qs) == 2, f"{label}: 2 questions ({len(qs)})")
        for q in qs:
            user = q["messages"][1]["content"]
            c.check(q["kind"] == "completion", f"{label}: kind completion ({q['kind']})")
            c.check(all(cd["body"] and cd["name"] in cd["body"] for cd in q["candidates"]),
                    f"{label}: every candidate has its body")
            c.check(">>" in q["site"]["code"] and "SITE" in q["site"]["code"], f"{label}: the call's line is marked")
            fieldname = q["field"]["name"]
            if opaque:
                c.check(re.fullmatch(r"field_[0-9a-f]{8}", fieldname) is not None,
                        f"{label}: field name is a token ({fieldname})")
                c.check(not re.search(r"(\.|->)\s*(encode|decode)\b", user) and "`encode`" not in user
                        and "`decode`" not in user, f"{label}: no field name in the prompt")
                c.check("rot_encode" in user, f"{label}: function names stay")
            else:
                c.check(fieldname in ("encode", "decode") and f"`{fieldname}`" in user,
                        f"{label}: the field is named as context ({fieldname})")
    # A moved tree: the recorded paths are gone; --source-root finds them.
    moved_src = os.path.join(x.work, f"moved.{opt}", "src")
    os.makedirs(moved_src, exist_ok=True)
    mbcs = []
    for s in analysed:
        dst = os.path.join(moved_src, os.path.basename(s))
        shutil.copy(s, dst)
        bc = os.path.join(x.work, f"moved.{opt}.{os.path.basename(s)}.bc")
        compile_bc(dst, bc, f"-{opt}")
        mbcs.append(bc)
    root = os.path.join(x.work, f"root.{opt}")
    shutil.rmtree(root, ignore_errors=True)
    os.rename(moved_src, root)
    for with_root in (False, True):
        if os.path.exists(log):
            os.unlink(log)
        data, _ = x.explain(mbcs, ["--oracle", "command", "--oracle-command", cmd]
                            + (["--source-root", root] if with_root else []), env=env)
        qs = [json.loads(l) for l in open(log)]
        label = f"prompt {name} -{opt} moved tree{' --source-root' if with_root else ''}"
        missing = data["oracle"]["missing_sources"]
        if with_root:
            c.check(missing == 0, f"{label}: no source missing ({missing})")
            c.check(all(q["candidates"][0]["body"] for q in qs), f"{label}: bodies found under the root")
        else:
            c.check(missing > 0, f"{label}: missing sources counted ({missing})")
            c.check(all("source not available" in q["messages"][1]["content"] and "try --source-root"
                        in q["messages"][1]["content"] for q in qs), f"{label}: the prompt says the source is missing")
            c.check(all(q["candidates"][0]["body"] is None and q["site"]["source_missing"] for q in qs),
                    f"{label}: no body, site source missing")


# ---- the loopback server ------------------------------------------------------------------------

class Server:
    def __init__(self, work, truth_file):
        self.portfile = os.path.join(work, "port")
        if os.path.exists(self.portfile):
            os.unlink(self.portfile)
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_openai.py"), truth_file,
                                      self.portfile])
        for _ in range(200):
            if os.path.exists(self.portfile):
                break
            time.sleep(0.05)
        with open(self.portfile) as f:
            self.port = int(f.read())
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def stats(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=10) as r:
            return json.loads(r.read())

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)


def openai_args(srv, model, extra=()):
    return ["--oracle", "openai", "--oracle-url", srv.url, "--oracle-model", model,
            "--oracle-key-env", "FACET_TEST_ORACLE_KEY"] + list(extra)


def with_server(x, fn):
    name, analysed = PRIMARY, oracle_programs()[PRIMARY][0]
    truth, _ = parse_truth(analysed)
    tfile = os.path.join(x.work, name + ".truth.json")
    with open(tfile, "w") as f:
        json.dump(truth, f)
    srv = Server(x.work, tfile)
    try:
        fn(x, srv, name, analysed, truth)
    finally:
        srv.stop()


def section_openai(x):
    with_server(x, openai_cases)


def openai_cases(x, srv, name, analysed, truth):
    c = x.c
    env = dict(os.environ, FACET_TEST_ORACLE_KEY="test-key")
    bcs = x.compile(name, analysed, "O0")
    base, _ = x.explain(bcs)
    cases = [
        ("correct", [], "truth", dict(questions=2, queries=2, requests=2, retries=0, answered=2, failures=0,
                                      prompt_tokens=200, completion_tokens=20), 2),
        ("invent", [], "truth", dict(answered=2, invented=2, requests=2), 2),
        ("malformed", [], "empty", dict(answered=0, failures=2, requests=2), 2),
        ("prose", [], "empty", dict(answered=0, unusable=2, failures=0), 2),
        ("429once", ["--oracle-backoff-ms", "10"], "truth", dict(answered=2, requests=4, retries=2, failures=0), 4),
        ("500", ["--oracle-retries", "2", "--oracle-backoff-ms", "10"], "empty",
         dict(answered=0, requests=6, retries=4, failures=2), 6),
        ("slow", ["--oracle-timeout-ms", "500"], "empty", dict(answered=0, failures=2, timeouts=2, requests=2), 2),
        ("noschema", [], "truth", dict(answered=2, requests=3, retries=1), 3),
        ("correct", ["--oracle-no-schema"], "truth", dict(answered=2, requests=2), 2),
    ]
    for model, extra, expect, counters, server_requests in cases:
        label = f"openai {model}{' ' + ' '.join(extra) if extra else ''} on {name} -O0"
        before = srv.stats()
        t0 = time.time()
        try:
            data, _ = x.explain(bcs, openai_args(srv, model, extra), env=env)
        except RuntimeError as e:
            c.check(False, f"{label}: {e}")
            continue
        elapsed = time.time() - t0
        after = srv.stats()
        check_case(x, label, data, truth, expect, counters, base)
        new = after["requests"] - before["requests"]
        c.check(new == server_requests, f"{label}: the server saw {new} requests, expected {server_requests}")
        temps = after["temperatures"][before["requests"]:]
        c.check(all(t == 0 for t in temps), f"{label}: temperature 0 ({temps})")
        auth = after["authorization"][before["requests"]:]
        c.check(all(a == "Bearer test-key" for a in auth), f"{label}: the key from the environment ({auth})")
        schema = after["with_schema"] - before["with_schema"]
        if model == "correct" and not extra:
            c.check(schema == 2, f"{label}: JSON-schema constrained requests ({schema})")
        if "--oracle-no-schema" in extra:
            c.check(schema == 0, f"{label}: no schema asked ({schema})")
        if model == "slow":
            c.check(elapsed < 6, f"{label}: the timeout cut the wait ({elapsed:.1f} s)")
    # A closed port: a failure per question, never a crash.
    dead = ["--oracle", "openai", "--oracle-url", "http://127.0.0.1:9/v1", "--oracle-model", "m",
            "--oracle-retries", "0"]
    data, err = x.explain(bcs, dead)
    check_case(x, "openai unreachable", data, truth, "empty", dict(failures=2, answered=0), base)
    c.check("first oracle failure" in err, f"openai unreachable: stderr names the failure ({err.strip()[-200:]!r})")


def section_cache(x):
    with_server(x, cache_cases)


def cache_cases(x, srv, name, analysed, truth):
    c = x.c
    bcs = x.compile(name, analysed, "O0")
    base, _ = x.explain(bcs)
    cache = os.path.join(x.work, "answers.sqlite")
    if os.path.exists(cache):
        os.unlink(cache)
    first, _ = x.explain(bcs, openai_args(srv, "correct", ["--oracle-cache", cache]))
    check_case(x, "cache first run", first, truth, "truth", dict(queries=2, cache_hits=0, requests=2), base)
    rows = run(["python3", "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("
                "'select count(*) from oracle_answers where backend=\"openai\" and model=\"correct\"').fetchone()[0])",
                cache])[1].strip()
    c.check(rows == "2", f"cache: 2 rows in oracle_answers ({rows})")
    before = srv.stats()["requests"]
    for mode in (["--oracle-replay-only"], []):
        label = "cache replay" + (" --oracle-replay-only" if mode else " (rebuild)")
        again, _ = x.explain(bcs, openai_args(srv, "correct", ["--oracle-cache", cache] + mode))
        check_case(x, label, again, truth, "truth", dict(queries=0, cache_hits=2, requests=0, answered=2), base)
        c.check(again["sites"] == first["sites"], f"{label}: identical explain output")
    c.check(srv.stats()["requests"] == before, "cache: zero requests while replaying")
    # Replay-only against a dead URL and an unrelated model: misses, nothing asked.
    label = "cache replay-only miss"
    miss, _ = x.explain(bcs, ["--oracle", "openai", "--oracle-url", "http://127.0.0.1:9/v1", "--oracle-model",
                              "other", "--oracle-cache", cache, "--oracle-replay-only"])
    check_case(x, label, miss, truth, "empty", dict(replay_misses=2, requests=0, cache_hits=0), base)
    # The same cache file serves the command backend under its own key.
    fake = os.path.join(HERE, "fake_oracle.py")
    tfile = os.path.join(x.work, name + ".truth.json")
    cmd = f"python3 {fake} correct {tfile}"
    one, _ = x.explain(bcs, ["--oracle", "command", "--oracle-command", cmd, "--oracle-cache", cache])
    two, _ = x.explain(bcs, ["--oracle", "command", "--oracle-command", "false", "--oracle-model", cmd,
                             "--oracle-cache", cache, "--oracle-replay-only"])
    check_case(x, "cache command", one, truth, "truth", dict(queries=2, cache_hits=0), base)
    check_case(x, "cache command replay", two, truth, "truth", dict(queries=0, cache_hits=2, requests=0), base)


# ---- adversarial oracles ----------------------------------------------------------------------------

def all_programs():
    progdir = os.path.join(x_srcdir(), "tests", "facet", "programs")
    out = {}
    for n in sorted(os.listdir(progdir)):
        p = os.path.join(progdir, n)
        if n.endswith(".c"):
            out[n[:-2]] = [p]
        elif os.path.isdir(p):
            out[n] = sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".c"))
    for name, (analysed, _) in oracle_programs().items():
        out["oracle/" + name] = analysed
    return out


_SRCDIR = None


def x_srcdir():
    return _SRCDIR


def decisions(site, fn):
    return next((t["warrants"] for t in site["targets"] if t["name"] == fn), [])


def section_adversarial(x):
    c = x.c
    fake = os.path.join(HERE, "fake_oracle.py")
    asked = 0
    for name, sources in all_programs().items():
        for opt in ("O0", "O2"):
            try:
                bcs = x.compile(name.replace("/", "_"), sources, opt)
            except RuntimeError as e:
                c.check(False, f"adversarial {name} -{opt}: {e}")
                continue
            for tau in (None, 0):
                targs = ["--tau", str(tau)] if tau is not None else []
                base, _ = x.explain(bcs, targs)
                bsites = {s["id"]: s for s in base["sites"]}
                for mode in ("yes", "no", "invent-only"):
                    label = f"adversarial {mode} on {name} -{opt}" + (f" --tau {tau}" if tau is not None else "")
                    data, _ = x.explain(bcs, targs + ["--oracle", "command", "--oracle-command",
                                                      f"python3 {fake} {mode}"])
                    asked += data["oracle"]["questions"]
                    for s in data["sites"]:
                        b = bsites[s["id"]]
                        where = f"{label} site {s['id']} ({key_of(s)})"
                        rpm, brpm = set(members(s, "rpm")), set(members(b, "rpm"))
                        c.check(members(s, "rplus") == members(b, "rplus"), f"{where}: R+ identical")
                        c.check(members(s, "r0") == members(b, "r0"), f"{where}: R0 identical")
                        if b["dispatch"]["abstains"] or not s["questions"] or mode == "invent-only":
                            c.check(rpm == brpm, f"{where}: R± untouched ({sorted(brpm)} -> {sorted(rpm)})")
                        for t in b["targets"]:
                            sym = [d for d in t["warrants"] if d["source"] == "symbolic"]
                            warranted = any(d["fact"] == "add" and d["outcome"] == "supported" for d in sym)
                            refuted = any(d["fact"] == "prune" and d["outcome"] == "supported" for d in sym)
                            if warranted and t["name"] in brpm:
                                c.check(t["name"] in rpm, f"{where}: warranted {t['name']} kept")
                            if refuted:
                                c.check(t["name"] not in rpm, f"{where}: refuted {t['name']} not added")
                        for t in s["targets"]:
                            for d in t["warrants"]:
                                # A rejected oracle prune (Keep-Cast) keeps its target: only adds.
                                if d["source"] == "oracle" and d["outcome"] == "rejected" and d["fact"] == "add":
                                    c.check(t["name"] not in rpm,
                                            f"{where}: rejected oracle add {t['name']} not adopted")
                        if mode == "yes":
                            c.check(rpm >= brpm, f"{where}: always-yes removes nothing")
                        if mode == "no":
                            c.check(rpm <= brpm, f"{where}: always-no adds nothing")
    c.check(asked > 0, f"adversarial: the oracles were asked ({asked} questions)")


# ---- the ideal oracle ---------------------------------------------------------------------------------

def section_ideal(x):
    c = x.c
    fake = os.path.join(HERE, "fake_oracle.py")
    progs = [(n, a, parse_truth(a)[0]) for n, (a, _) in oracle_programs().items()]
    plugin = os.path.join(x.srcdir, "tests", "facet", "programs", "plugin.c")
    progs.append(("plugin", [plugin], parse_truth([plugin], EXPECT_RPM_RE)[0]))
    for opt in ("O0", "O2"):
        hit = total = hit_base = 0
        dis_sites = dis_exact = dis_base_targets = dis_targets = 0
        for name, sources, truth in progs:
            tfile = os.path.join(x.work, f"{name}.ideal.json")
            with open(tfile, "w") as f:
                json.dump(truth, f)
            bcs = x.compile(name, sources, opt)
            base, _ = x.explain(bcs)
            data, _ = x.explain(bcs, ["--oracle", "command", "--oracle-command", f"python3 {fake} correct {tfile}"])
            bk = by_key(base)
            for key, sites in by_key(data).items():
                if key not in truth:
                    continue
                for s, b in zip(sites, bk[key]):
                    if members(b, "r0"):
                        # a disambiguation: R± keeps exactly the runtime targets
                        if any(q["kind"] == "disambiguation" for q in s["questions"]):
                            got, want = members(s, "rpm"), truth[key]
                            dis_sites += 1
                            dis_exact += got == want
                            dis_base_targets += len(members(b, "rpm"))
                            dis_targets += len(got)
                            c.check(got == want, f"ideal {name} -{opt} {key}: disambiguated rpm = {got}, runtime {want}")
                        continue   # recall below: only initially empty sites
                    want = set(truth[key])
                    got = set(members(s, "rpm"))
                    c.check(got <= want or not want, f"ideal {name} -{opt} {key}: no false target ({sorted(got - want)})")
                    if not want:
                        c.check(not got, f"ideal {name} -{opt} {key}: stays empty")
                        continue
                    total += len(want)
                    hit += len(want & got)
                    hit_base += len(want & set(members(b, "rpm")))
        recall = hit / total if total else 0.0
        print(f"ideal oracle -{opt}: R± recall at initially empty sites {hit_base / total if total else 0:.2f} "
              f"without the oracle, {recall:.2f} with it ({total} runtime edges)")
        c.check(total > 0 and recall == 1.0, f"ideal -{opt}: recall at initially empty sites {recall:.2f}, expected 1.00")
        print(f"ideal oracle -{opt}: {dis_sites} disambiguated sites, {dis_exact} exactly the runtime targets; "
              f"R± targets there {dis_base_targets} without the oracle, {dis_targets} with it")
        c.check(dis_sites > 0, f"ideal -{opt}: some site was disambiguated")


SECTIONS = {"truth": section_truth, "command": section_command, "openai": section_openai, "cache": section_cache,
            "adversarial": section_adversarial, "ideal": section_ideal}


def main():
    global _SRCDIR
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose, keep = "-v" in sys.argv, "-k" in sys.argv
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    facet, srcdir, only = os.path.abspath(args[0]), args[1], args[2:]
    _SRCDIR = srcdir
    c = Checks(verbose)
    work = tempfile.mkdtemp(prefix="facet-oracle.")
    x = Ctx(facet, srcdir, work, c)
    for name, fn in SECTIONS.items():
        if only and name not in only:
            continue
        try:
            fn(x)
        except Exception as e:   # a crash of the harness is a failure, named
            c.check(False, f"{name}: {type(e).__name__}: {e}")
    if keep:
        print(f"work directory: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
