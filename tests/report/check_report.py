#!/usr/bin/env python3
"""check_report.py — `facet report` (issue 21.4): the pages are
self-contained (nothing fetched: no external script, style, image or font),
say what the catalog says, and work in a real browser.

Usage: check_report.py FACET SRCDIR [--screenshot PNG]

The program is tests/query/programs/proofs.c (clang-22 -g -O0 and -O2):
SITE run's targets are fast_run (Add-Witness, premise-free) and slow_run
(Add-Store, premise pi_bind), read from the program. The collapsed-objects
section is checked on tests/query/programs/collapsed.c (its groups, objects,
places, causes and site links, read from the program), and damaged
collapsed-object rows are refused naming the table and row. The HTML is checked
with Python's HTML parser at both levels; then headless Chromium (Debian's
chromium) loads the -O0 report from disk inside a harness page that types
into the search box, checks that a function is found, follows the site
link and checks that the site page shows the warrants. A JavaScript error
anywhere fails the test (Chromium's console log is read; a control page
with a deliberate error proves the check sees errors). A screenshot of the
index is taken. Without chromium the browser part is skipped with a message
(exit 77 when nothing else failed)."""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, compile_bc  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("--")]
shot = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
if shot in args:
    args.remove(shot)
if len(args) != 2:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
FACET, SRC = (os.path.abspath(a) for a in args)
checks = Checks(limit=600)
check = checks.check


def run(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class Page(html.parser.HTMLParser):
    """Every tag with its attributes, and the text."""
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    return p


def external_refs(p):
    bad = []
    for tag, a in p.tags:
        for k in ("src", "href", "xlink:href", "data"):
            v = a.get(k)
            if v and (re.match(r"^[a-z]+:", v) or v.startswith("//")) and not v.startswith("#"):
                bad.append((tag, k, v))
        if tag == "link" or (tag == "script" and "src" in a):
            bad.append((tag, a))
    return bad


os.chdir(SRC)
PROG = "tests/query/programs/proofs.c"
run_line = [n for n, t in enumerate(open(PROG), 1) if "/* SITE run */" in t][0]
work = tempfile.mkdtemp(prefix="facet-report.")
reports = {}
for level in ("-O0", "-O2"):
    bc, cat, out = f"{work}/p{level}.bc", f"{work}/p{level}.facet", f"{work}/report{level}"
    if not compile_bc(PROG, bc, level)[0] or \
            run(FACET, "build", bc, "-o", cat).returncode:
        print("cannot build", PROG, file=sys.stderr)
        sys.exit(2)
    r = run(FACET, "report", cat, "-o", out)
    w = f"proofs.c {level}"
    if not check(r.returncode == 0 and os.path.exists(f"{out}/index.html"), f"{w}: facet report", r.stderr):
        continue
    reports[level] = (cat, out)
    idx = parse(f"{out}/index.html")
    check(not external_refs(idx), f"{w}: index.html fetches nothing", external_refs(idx))
    text = " ".join(idx.text)
    sites = json.loads(run(FACET, "query", "at", f"proofs.c:{run_line}", "--catalog", cat, "--format",
                           "json").stdout)["sites"]
    run_ids = [s["id"] for s in sites if s["kind"] == "indirect"]
    check(len(run_ids) == 1, f"{w}: one indirect site at SITE run", sites)
    links = {a.get("href") for t, a in idx.tags if t == "a"}
    check(f"site-{run_ids[0]}.html" in links, f"{w}: the index links SITE run's page", sorted(links)[:10])
    check(any(t == "svg" and a.get("id") == "distribution" for t, a in idx.tags), f"{w}: the distribution figure")
    check("indirect call sites" in text and "Residual questions" in text, f"{w}: the tables and questions")
    page = parse(f"{out}/site-{run_ids[0]}.html")
    ptext = " ".join(page.text)
    check(not external_refs(page), f"{w}: the site page fetches nothing", external_refs(page))
    for want in ("fast_run", "slow_run", "Add-Witness", "Add-Store", "pi_bind", "premised", "premise-free"):
        check(want in ptext, f"{w}: the site page says {want}")
    check(any(t == "svg" for t, a in page.tags) and any(t == "path" and a.get("data-proof") == "premised"
                                                           for t, a in page.tags),
          f"{w}: the site page draws its neighbourhood with a premised edge")
    # refusals: not a catalog, -o a file that is not a report page
    r = run(FACET, "report", bc, "-o", f"{work}/x")
    check(r.returncode == 1 and bc in r.stderr, f"{w}: a bitcode file is refused naming it", r.stderr)
    open(f"{work}/notes.txt", "w").write("mine\n")
    r = run(FACET, "report", cat, "-o", f"{work}/notes.txt")
    check(r.returncode == 1 and "not a directory" in r.stderr and open(f"{work}/notes.txt").read() == "mine\n",
          f"{w}: -o naming a file is refused and the file kept", r.stderr)
    os.makedirs(f"{work}/other", exist_ok=True)
    open(f"{work}/other/index.html", "w").write("my own page\n")
    r = run(FACET, "report", cat, "-o", f"{work}/other")
    check(r.returncode == 1 and open(f"{work}/other/index.html").read() == "my own page\n",
          f"{w}: an index.html that is not a report page is not replaced", r.stderr)

# ---- the collapsed-objects section (tests/query/programs/collapsed.c) -------------------------
# Its header says, from the code: the global `table` (OBJECT table) collapses
# at COLLAPSE table holding t_open, t_close, u_open, u_close and feeds SITE
# table (4 held); main's local `o` (OBJECT local) collapses at COLLAPSE local
# holding op_open, op_close and feeds SITE slot and SITE open (2 each).
CPROG = "tests/query/programs/collapsed.c"
cmarks = {}
for n, t in enumerate(open(CPROG), 1):
    for kind in ("OBJECT", "COLLAPSE", "SITE"):
        for part in t.split(f"{kind} ")[1:]:
            if "/*" in t:
                cmarks[(kind, part.split()[0].rstrip("*/"))] = n


class Rows(html.parser.HTMLParser):
    """The rows of table#collapsed-table: each row's cells as text, and its links."""
    def __init__(self):
        super().__init__()
        self.inside, self.rows, self.cell = False, [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "collapsed-table":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append({"cells": [], "links": []})
        elif self.inside and tag in ("td", "th"):
            self.cell = []
        elif self.inside and tag == "a" and self.rows:
            self.rows[-1]["links"].append(a.get("href"))

    def handle_endtag(self, tag):
        if tag == "table" and self.inside:
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1]["cells"].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def site_id(cat, line):
    r = json.loads(run(FACET, "query", "at", f"collapsed.c:{line}", "--catalog", cat, "--format", "json").stdout)
    ids = [x["id"] for x in r["sites"] if x["kind"] == "indirect"]
    return ids[0] if len(ids) == 1 else None


for level in ("-O0", "-O2"):
    w = f"collapsed.c {level}"
    bc, cat, out = f"{work}/c{level}.bc", f"{work}/c{level}.facet", f"{work}/creport{level}"
    if not compile_bc(CPROG, bc, level)[0] or \
            run(FACET, "build", bc, "-o", cat).returncode:
        print("cannot build", CPROG, file=sys.stderr)
        sys.exit(2)
    r = run(FACET, "report", cat, "-o", out)
    if not check(r.returncode == 0, f"{w}: facet report", r.stderr):
        continue
    p = Rows()
    p.feed(open(f"{out}/index.html", encoding="utf-8").read())
    body = [row for row in p.rows if row["cells"] and row["cells"][0].isdigit()]
    check([row["cells"][0] for row in body] == ["4", "2"], f"{w}: two groups, 4 and 2 functions, widest first",
          [row["cells"][:2] for row in body])
    if len(body) != 2:
        continue
    tbl, loc = body
    sid = {k: site_id(cat, cmarks[("SITE", k)]) for k in ("slot", "open", "table")}
    check(tbl["links"] == [f"site-{sid['table']}.html"] and f"{sid['table']} (4)" in tbl["cells"][3],
          f"{w}: table's group links SITE table, 4 held", tbl)
    want = f"table (global, at {CPROG}:{cmarks[('OBJECT', 'table')]}): a variable index, gep in main at " \
           f"{CPROG}:{cmarks[('COLLAPSE', 'table')]}"
    check(tbl["cells"][1] == "1" and tbl["cells"][2] == want, f"{w}: table's object, place and cause", tbl["cells"])
    check(sorted(loc["links"]) == sorted([f"site-{sid['slot']}.html", f"site-{sid['open']}.html"])
          and f"{sid['slot']} (2)" in loc["cells"][3] and f"{sid['open']} (2)" in loc["cells"][3],
          f"{w}: o's group links SITE slot and SITE open, 2 held each", loc)
    cause = f"a variable index, gep in main at {CPROG}:{cmarks[('COLLAPSE', 'local')]}"
    check(loc["cells"][2].startswith("stack:main:") and loc["cells"][2].endswith(cause),
          f"{w}: o's object and cause", loc["cells"])
    if level == "-O0":
        check(loc["cells"][2].startswith(f"stack:main:o (stack, at {CPROG}:{cmarks[('OBJECT', 'local')]})"),
              f"{w}: o named and placed by its declaration", loc["cells"])
    for link in tbl["links"] + loc["links"]:
        check(os.path.exists(f"{out}/{link}"), f"{w}: {link} exists")

# ---- C++ names: tests/cxx/running.cpp's indirect calls in report(int) ---------------------------
# r->draw() (line 25) is a virtual call in `void report(int)`; a reader sees
# the demangled names (the catalog's source_name), not _Z6reporti.
XPROG = "tests/cxx/running.cpp"
xline = next(n for n, t in enumerate(open(XPROG), 1) if t.strip().startswith("r->draw();"))
bc, cat, out = f"{work}/x.bc", f"{work}/x.facet", f"{work}/xreport"
if run("clang++-22", "-g", "-O0", "-c", "-emit-llvm", XPROG, "-o", bc).returncode or \
        run(FACET, "build", bc, "-o", cat).returncode:
    print("cannot build", XPROG, file=sys.stderr)
    sys.exit(2)
r = run(FACET, "report", cat, "-o", out)
if check(r.returncode == 0, "running.cpp: facet report", r.stderr):
    sid = [x["id"] for x in json.loads(run(FACET, "query", "at", f"running.cpp:{xline}", "--catalog", cat,
                                           "--format", "json").stdout)["sites"] if x["kind"] == "indirect"]
    idx = open(f"{out}/index.html", encoding="utf-8").read()
    table = idx[idx.index('id="site-table"'):idx.index("</table>", idx.index('id="site-table"'))]
    check(len(sid) == 1 and f'site-{sid[0]}.html">{sid[0]}</a></td><td class="mono">report(int)</td>' in table
          and "_Z" not in table, "running.cpp: the site table names the caller report(int), nothing mangled",
          table[:400])
    index = json.loads(re.search(r'<script type="application/json" id="index">(.*?)</script>', idx, re.S).group(1))
    fn = [e for e in index if e["t"] == "function" and e["l"] == "report(int)"]
    check(len(fn) == 1 and "_Z6reporti" in fn[0]["k"], "running.cpp: search shows report(int), finds it by "
          "either name", fn)
    if sid:
        page = parse(f"{out}/site-{sid[0]}.html")
        ptext = " ".join(" ".join(page.text).split())
        # (a vslot warrant's evidence names the vtable symbol, _ZTV5Shape+24: data, not a function)
        check("indirect call in report(int)" in ptext and "Shape::draw()" in ptext
              and not re.search(r"_Z(N\d|\d)", ptext),
              "running.cpp: the site page (and its drawing) names report(int) and Shape::draw(), no mangled "
              "function", ptext[:300])

# Damaged collapsed-object rows: the report refuses naming the file, the
# table and the row, and writes no page; so do queries whose labels read them.
import sqlite3
cat0 = f"{work}/c-O0.facet"
edits = [
    ("set_sites.member_set dangling", "UPDATE collapsed_set_sites SET member_set = 99", "collapsed_set_sites",
     "member_set has no rows"),
    ("set_sites.site direct", "UPDATE collapsed_set_sites SET site = (SELECT min(id) FROM sites WHERE kind = "
     "'direct')", "collapsed_set_sites", "not an indirect site"),
    ("set_sites.held 0", "UPDATE collapsed_set_sites SET held = 0", "collapsed_set_sites", "held 0 is out of range"),
    ("objects.width wrong", "UPDATE collapsed_objects SET width = 3 WHERE width = 4", "collapsed_objects",
     "width is not"),
    ("objects.kind unknown", "UPDATE collapsed_objects SET kind = 'weird'", "collapsed_objects", "kind is not"),
    ("objects.line text", "UPDATE collapsed_objects SET line = 'x'", "collapsed_objects", "line is not an integer"),
    ("objects.name NULL", "PRAGMA legacy_alter_table=ON; ALTER TABLE collapsed_objects RENAME TO old_objects; "
     "CREATE TABLE collapsed_objects AS SELECT * FROM old_objects; DROP TABLE old_objects; "
     "UPDATE collapsed_objects SET name = NULL", "collapsed_objects", "name is not text"),
    ("members.function dangling", "UPDATE collapsed_members SET function = 99999", "collapsed_members",
     "function 99999 is out of range"),
    ("members of a set no object holds", "INSERT INTO collapsed_members VALUES(7, 0)", "collapsed_members",
     "no collapsed object holds"),
    ("table collapsed_set_sites dropped", "DROP TABLE collapsed_set_sites", "collapsed_set_sites", "no such table"),
]
for what, sql, table, says in edits:
    bad = f"{work}/damaged-{len(what)}-{abs(hash(what)) % 10000}.facet"
    shutil.copy(cat0, bad)
    db = sqlite3.connect(bad)
    db.executescript(sql)
    db.commit()
    db.close()
    out = f"{work}/damaged-report"
    shutil.rmtree(out, ignore_errors=True)
    r = run(FACET, "report", bad, "-o", out)
    check(r.returncode == 1 and bad in r.stderr and f"table {table}" in r.stderr and says in r.stderr
          and "damaged catalog" in r.stderr, f"damaged ({what}): facet report refuses naming {table}", r.stderr)
    check(not os.path.exists(f"{out}/index.html"), f"damaged ({what}): no index.html written")
    if what == "set_sites.member_set dangling":
        r = run(FACET, "query", "callees", "main", "--catalog", bad, "--format", "json")
        check(r.returncode == 1 and "damaged catalog" in r.stderr and "collapsed_set_sites" in r.stderr,
              f"damaged ({what}): a query whose labels read it refuses", r.stderr)
# Tables the report reads itself (not through the query layer): a missing
# one fails the report naming the table, before any page is written; the
# report never draws a page from part of the rows.
for table in ("inputs", "questions", "decisions"):
    bad = f"{work}/no-{table}.facet"
    shutil.copy(cat0, bad)
    db = sqlite3.connect(bad)
    db.execute(f"DROP TABLE {table}")
    db.commit()
    db.close()
    out = f"{work}/no-{table}-report"
    shutil.rmtree(out, ignore_errors=True)
    r = run(FACET, "report", bad, "-o", out)
    check(r.returncode == 1 and bad in r.stderr and "damaged catalog" in r.stderr
          and f"no such table: {table}" in r.stderr, f"table {table} dropped: facet report refuses naming it", r.stderr)
    check(not os.path.exists(f"{out}/index.html"), f"table {table} dropped: no index.html written")
old = f"{work}/schema4.facet"
shutil.copy(cat0, old)
db = sqlite3.connect(old)
db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
db.commit()
db.close()
r = run(FACET, "report", old, "-o", f"{work}/old-report")
check(r.returncode == 1 and old in r.stderr and "schema version 4" in r.stderr and "facet build" in r.stderr,
      "a schema-4 catalog (before collapsed objects) is refused: rebuild it", r.stderr)

HARNESS = """<!DOCTYPE html><html><body><pre id="result">RUNNING</pre>
<iframe id="f" src="index.html" width="1200" height="900"></iframe>
<script>
var out = document.getElementById('result'), f = document.getElementById('f'), step = 0;
function done(m) { out.textContent = m; }
f.onload = function () {
  try {
    var w = f.contentWindow, d = f.contentDocument;
    if (step === 0) {
      step = 1;
      var box = d.getElementById('search');
      box.value = 'slow_r';
      box.dispatchEvent(new w.Event('input'));
      var hits = [].map.call(d.querySelectorAll('#results li'), function (li) { return li.textContent; });
      if (!hits.some(function (h) { return h.indexOf('slow_run') === 0; }))
        return done('FAIL search slow_r found ' + JSON.stringify(hits));
      box.value = 'site SITEID';
      box.dispatchEvent(new w.Event('input'));
      var a = d.querySelector('#results a[href="site-SITEID.html"]');
      if (!a) return done('FAIL search "site SITEID" gives no link: ' + d.getElementById('results').innerHTML);
      f.src = a.getAttribute('href');
    } else if (step === 1) {
      step = 2;
      var t = d.querySelector('table.targets');
      var txt = t ? t.textContent : '';
      var want = ['fast_run', 'slow_run', 'Add-Witness', 'Add-Store', 'pi_bind', 'premised'];
      var miss = want.filter(function (x) { return txt.indexOf(x) < 0; });
      if (miss.length) return done('FAIL the site page lacks ' + miss.join(', ') + ': ' + txt);
      var ctl = document.createElement('iframe');
      ctl.src = 'control.html';
      document.body.appendChild(ctl);
      done('PASS search and warrants');
    }
  } catch (e) { done('FAIL exception ' + e); }
};
</script></body></html>
"""
browser = shutil.which("chromium")
if not browser:
    print("SKIP: chromium is not installed (scripts/install-deps.sh installs Debian's chromium when it can); "
          "the browser check of facet report did not run")
elif "-O0" in reports:
    cat, out = reports["-O0"]
    sid = json.loads(run(FACET, "query", "at", f"proofs.c:{run_line}", "--catalog", cat, "--format",
                         "json").stdout)["sites"]
    sid = [s["id"] for s in sid if s["kind"] == "indirect"][0]
    open(f"{out}/check.html", "w").write(HARNESS.replace("SITEID", str(sid)))
    open(f"{out}/control.html", "w").write("<!DOCTYPE html><script>throw new Error('facet-control-error')</script>")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--allow-file-access-from-files", "--enable-logging=stderr", "--v=0", f"--user-data-dir={work}/chrome"]
    r = run(browser, *flags, "--virtual-time-budget=10000", "--dump-dom", f"file://{out}/check.html", timeout=240)
    m = re.search(r'<pre id="result">(.*?)</pre>', r.stdout, re.S)
    result = m.group(1) if m else "(no result: " + r.stdout[-300:] + r.stderr[-300:] + ")"
    check(result.startswith("PASS"), "browser: search finds slow_run, site page shows its warrants", result)
    errors = [ln for ln in r.stderr.splitlines() if "Uncaught" in ln or "SyntaxError" in ln]
    check(any("facet-control-error" in ln for ln in errors), "browser: the console check sees a JS error",
          r.stderr[-800:])
    real = [ln for ln in errors if "facet-control-error" not in ln]
    check(not real, "browser: no JavaScript error on the report's pages", real)
    png = shot or f"{work}/report.png"
    r = run(browser, *flags, "--hide-scrollbars", "--window-size=1280,1400", f"--screenshot={png}",
            f"file://{out}/index.html", timeout=240)
    check(r.returncode == 0 and os.path.getsize(png) > 10000 and open(png, "rb").read(4) == b"\x89PNG",
          "browser: a screenshot of the index", r.stderr[-300:])
checks.summary()
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if checks.failed else 77 if not browser else 0)
