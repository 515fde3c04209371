#!/usr/bin/env python3
"""mcp_protocol.py - `facet mcp` as a subprocess: the protocol without a catalog.

Usage: mcp_protocol.py FACET

The lifecycle (initialize, version negotiation, initialized, ping,
tools/list), requests before initialize, malformed JSON, unknown methods,
oversized messages, every tool with invalid arguments and without a catalog,
a client closing stdin mid-session, and the CLI's own refusals. Every line the
server writes to stdout must be a JSON-RPC message (mcpclient checks).
Prints one line per failed check and a closing "N passed, N failed"."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcpclient import LATEST, Session, tool_text  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402

FACET = sys.argv[1]
checks = Checks()
check = checks.named   # check(name, cond, detail)

EXPECTED_TOOLS = {
    "load_catalog", "unload_catalog", "inventory", "defs", "at", "callers", "callees", "uses", "reach",
    "closure", "slice", "dominators", "graph", "externals", "indirect_targets", "resolution_candidates", "explain",
    "record_edges", "list_overlay", "save_overlay", "load_overlay",
}


def error_code(reply):
    return reply.get("error", {}).get("code") if isinstance(reply, dict) else None


def finish(name, s, expect_rc=0):
    rc = s.close()
    check(f"{name}: exit status", rc == expect_rc, f"{rc} (stderr: {s.stderr.decode(errors='replace')[-500:]})")
    check(f"{name}: stdout holds protocol messages only", not s.stray, repr(s.stray[:3]))


# ---- lifecycle -------------------------------------------------------------

def test_lifecycle():
    s = Session(FACET)
    r = s.initialize()
    res = r.get("result", {})
    check("initialize: version echoed", res.get("protocolVersion") == LATEST, r)
    check("initialize: tools capability", "tools" in res.get("capabilities", {}), r)
    check("initialize: serverInfo", res.get("serverInfo", {}).get("name") == "facet", r)
    check("initialize: instructions mention load_catalog", "load_catalog" in res.get("instructions", ""), r)
    r = s.request("ping")
    check("ping", r.get("result") == {}, r)
    r = s.request("tools/list")
    tools = r.get("result", {}).get("tools", [])
    names = {t.get("name") for t in tools}
    check("tools/list: every tool", names == EXPECTED_TOOLS, sorted(names ^ EXPECTED_TOOLS))
    for t in tools:
        sch = t.get("inputSchema", {})
        check(f"tools/list: {t.get('name')} schema is an object schema",
              sch.get("type") == "object" and isinstance(sch.get("properties"), dict), sch)
        check(f"tools/list: {t.get('name')} has a description", len(t.get("description", "")) > 20)
        for req in sch.get("required", []):
            check(f"tools/list: {t.get('name')}.{req} required and described",
                  req in sch["properties"] and sch["properties"][req].get("description"))
    check("tools/list: no cursor", "nextCursor" not in r.get("result", {}))
    check_function_arguments(tools)
    finish("lifecycle", s)
    # --verbose logs every request, on stderr only.
    s = Session(FACET, ["--verbose"])
    s.initialize()
    s.request("tools/list")
    s.call("inventory", {})
    finish("verbose", s)
    check("--verbose: requests logged on stderr", b"tools/list" in s.stderr and b"tools/call inventory" in s.stderr,
          s.stderr)


FUNCTION_ARGS = {("callers", "name"), ("callees", "name"), ("uses", "name"), ("closure", "name"),
                 ("reach", "from"), ("reach", "to"), ("slice", "from"), ("slice", "to"),
                 ("dominators", "from"), ("dominators", "to")}


def check_function_arguments(tools):
    """Every argument naming a function is a non-empty name or
    {module_id, symbol} (issue 7: a static defined in several modules), each
    form described for the model; defs takes a name only."""
    by_name = {t.get("name"): t.get("inputSchema", {}) for t in tools}
    props = {(t, a): p for t, sch in by_name.items() for a, p in sch.get("properties", {}).items()}
    check("function arguments: every one is known here",
          {k for k in props if k[1] in ("name", "from", "to") and k[0] not in ("defs", "load_catalog")} ==
          FUNCTION_ARGS, sorted(props))
    items = by_name.get("record_edges", {}).get("properties", {}).get("records", {}).get("items", {})
    targets = [((t, a), props.get((t, a), {})) for t, a in sorted(FUNCTION_ARGS)]
    targets.append((("record_edges", "records[].to"), items.get("properties", {}).get("to", {})))
    targets.append((("record_edges", "records[].edge.to"),
                    items.get("properties", {}).get("edge", {}).get("properties", {}).get("to", {})))
    for where, p in targets:
        branches = p.get("anyOf", [])
        types = [b.get("type") for b in branches]
        obj = branches[1] if len(branches) == 2 else {}
        check(f"{where}: a name or an object", types == ["string", "object"], p)
        check(f"{where}: the name is non-empty", branches[:1] and branches[0].get("minLength") == 1, p)
        check(f"{where}: the object is {{module_id, symbol}}, both strings, nothing else",
              obj.get("required") == ["module_id", "symbol"] and obj.get("additionalProperties") is False and
              {k: v.get("type") for k, v in obj.get("properties", {}).items()} ==
              {"module_id": "string", "symbol": "string"}, obj)
        check(f"{where}: each form says when to use it",
              all("ambiguous" in b.get("description", "") or "several modules" in b.get("description", "")
                  for b in branches), branches)
    defs_name = by_name.get("defs", {}).get("properties", {}).get("name", {})
    check("defs.name: a name only", defs_name.get("type") == "string" and "anyOf" not in defs_name, defs_name)


def test_versions():
    for asked, answered in [("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"),
                            ("2024-11-05", "2024-11-05"), ("2023-01-01", LATEST)]:
        s = Session(FACET)
        r = s.initialize(asked)
        check(f"negotiation: {asked} -> {answered}", r.get("result", {}).get("protocolVersion") == answered, r)
        # A tool result: structuredContent only from 2025-06-18 on.
        res = s.call("inventory", {})
        check(f"negotiation {asked}: tool error without catalog", res.get("isError") is True, res)
        finish(f"negotiation {asked}", s)
    s = Session(FACET)
    r = s.request("initialize", {"capabilities": {}})
    check("initialize without protocolVersion: invalid params", error_code(r) == -32602, r)
    finish("initialize without version", s)


def test_before_initialize():
    s = Session(FACET)
    r = s.request("tools/list")
    check("tools/list before initialize: refused", error_code(r) == -32600, r)
    check("refusal names the cause", "initialize" in r.get("error", {}).get("message", ""), r)
    r = s.request("tools/call", {"name": "defs", "arguments": {"name": "main"}})
    check("tools/call before initialize: refused", error_code(r) == -32600, r)
    r = s.request("ping")
    check("ping before initialize: answered", r.get("result") == {}, r)
    r = s.initialize()
    check("initialize after refusals", r.get("result", {}).get("protocolVersion") == LATEST, r)
    r = s.request("initialize", {"protocolVersion": LATEST})
    check("second initialize: refused", error_code(r) == -32600, r)
    finish("before initialize", s)


# ---- malformed input ---------------------------------------------------------

def test_malformed():
    s = Session(FACET)
    s.initialize()
    cases = [
        ("truncated JSON", b'{"jsonrpc":"2.0","id":5,"method":\n', -32700),
        ("not JSON", b"hello\n", -32700),
        ("invalid UTF-8", b'{"jsonrpc":"2.0","id":5,"method":"\xff"}\n', -32700),
        ("bare number", b"17\n", -32600),
        ("no jsonrpc member", b'{"id":5,"method":"ping"}\n', -32600),
        ("null id", b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n', -32600),
        ("method not a string", b'{"jsonrpc":"2.0","id":5,"method":3}\n', -32600),
        ("params an array", b'{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}\n', -32602),
        ("batch outside 2025-03-26", b'[{"jsonrpc":"2.0","id":5,"method":"ping"}]\n', -32600),
        ("unknown method", b'{"jsonrpc":"2.0","id":5,"method":"resources/list"}\n', -32601),
        ("unknown tool", b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"rm_rf"}}\n', -32602),
        ("arguments an array",
         b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"defs","arguments":[1]}}\n', -32602),
    ]
    for name, line, code in cases:
        s.send_raw(line)
        r = s.read(30)
        check(f"malformed: {name} -> {code}", error_code(r) == code, r)
    # Notifications (known or not) and stray responses are never answered:
    # the next reply must be the ping's.
    s.notify("notifications/cancelled", {"requestId": 99})
    s.notify("notifications/whatever")
    s.send({"jsonrpc": "2.0", "id": 4242, "result": {}})
    r = s.request("ping")
    check("notifications and responses get no reply", r.get("result") == {}, r)
    # Blank lines and CRLF line ends are tolerated.
    s.send_raw(b"\n  \r\n")
    s.send_raw(b'{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n')
    r = s.read(30)
    check("CRLF line end", r is not None and r.get("id") == "crlf" and r.get("result") == {}, r)
    finish("malformed", s)


def test_oversized():
    s = Session(FACET, ["--max-message-bytes", "4096"])
    s.initialize()
    big = {"jsonrpc": "2.0", "id": 77, "method": "tools/call",
           "params": {"name": "defs", "arguments": {"name": "x" * 10000}}}
    s.send(big)
    r = s.read(30)
    check("oversized: refused with invalid request", error_code(r) == -32600, r)
    check("oversized: message names the limit", "4096" in r.get("error", {}).get("message", ""), r)
    check("oversized: id unknown, so null", r.get("id", "absent") is None, r)
    r = s.request("ping")
    check("oversized: server goes on", r.get("result") == {}, r)
    finish("oversized", s)
    # The default cap (4 MiB) with a 5 MiB message, streamed.
    s = Session(FACET)
    s.initialize()
    s.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"y" * (5 << 20) + b'"}}\n')
    r = s.read(60)
    check("oversized default cap: refused", error_code(r) == -32600 and "4194304" in r["error"]["message"], r)
    r = s.request("ping")
    check("oversized default cap: server goes on", r.get("result") == {}, r)
    finish("oversized default", s)


# ---- tools without a catalog -------------------------------------------------

VALID_ARGS = {
    "inventory": {}, "defs": {"name": "main"}, "at": {"file": "a.c", "line": 3},
    "callers": {"name": "main"}, "callees": {"name": "main"}, "uses": {"name": "main"},
    "reach": {"from": "main", "to": "f"}, "closure": {"name": "main", "direction": "out"},
    "slice": {"from": "main", "to": "f"}, "dominators": {"from": "main", "to": "f"}, "externals": {}, "indirect_targets": {"file": "a.c", "line": 3},
    "resolution_candidates": {}, "explain": {"site": 0},
    "record_edges": {"records": [{"op": "add", "via_field": {"record": "ops", "offset": 8}, "to": "h",
                                  "confidence": "high", "provenance": ["a.c:3: o->cb = h"]}]},
    "list_overlay": {}, "save_overlay": {}, "load_overlay": {}, "unload_catalog": {},
}

INVALID_ARGS = {
    "load_catalog": ({}, "missing required 'path'"),
    "unload_catalog": ({"discard_pending": "yes"}, "discard_pending: must be of type boolean"),
    "inventory": ({"verbose": True}, "unknown argument 'verbose'"),
    "defs": ({"name": ""}, "name: must not be empty"),
    "at": ({"file": "a.c", "line": "12"}, "line: must be of type integer"),
    "callers": ({"name": "f", "graph": "nosuch"}, "graph: must be one of"),
    "callees": ({"name": "f", "min_confidence": "certain"}, "min_confidence: must be one of high, medium, low"),
    "uses": ({}, "missing required 'name'"),
    "reach": ({"from": "main"}, "missing required 'to'"),
    "closure": ({"name": "f", "direction": "sideways"}, "direction: must be one of in, out"),
    "slice": ({"from": "a", "to": "b", "emit_module": 3}, "emit_module: must be of type string"),
    "dominators": ({"from": "a", "to": "b", "max_depth": 0}, "max_depth: must be at least 1"),
    "externals": ({"limit": -1}, "limit: must be at least 0"),
    "indirect_targets": ({"file": "a.c"}, "missing required 'line'"),
    "resolution_candidates": ({"candidate_limit": 0}, "candidate_limit: must be at least 1"),
    "explain": ({"site": "12"}, "site: must be of type integer"),
    "graph": ({"depth": -1}, "depth: must be at least 0"),
    "record_edges": ({"records": [{"op": "guess"}]}, "records[0].op: must be one of add, verify, retract"),
    "list_overlay": ({"all": True}, "unknown argument 'all'"),
    "save_overlay": ({"path": ""}, "path: must not be empty"),
    "load_overlay": ({"discard_pending": 1}, "discard_pending: must be of type boolean"),
}


def test_tools_without_catalog():
    s = Session(FACET)
    s.initialize()
    for tool, args in VALID_ARGS.items():
        res = s.call(tool, args)
        check(f"{tool} without a catalog: tool error", res.get("isError") is True, res)
        check(f"{tool} without a catalog: says to load one", "load_catalog" in tool_text(res), tool_text(res))
    # {module_id, symbol} passes the schema (the missing catalog is the
    # error); malformed ones are tool errors naming the place.
    fn = {"module_id": "src/a.c", "symbol": "report"}
    for tool, args in [("callers", {"name": fn}), ("reach", {"from": fn, "to": "main"}),
                       ("slice", {"from": "main", "to": fn}), ("closure", {"name": fn, "direction": "in"}),
                       ("record_edges", {"records": [{**VALID_ARGS["record_edges"]["records"][0], "to": fn}]})]:
        res = s.call(tool, args)
        check(f"{tool} with {{module_id, symbol}}: accepted, then no catalog", res.get("isError") is True and
              "load_catalog" in tool_text(res) and "invalid arguments" not in tool_text(res), res)
    for tool, args, why in [
            ("callers", {"name": {"module_id": "src/a.c"}}, "callers: invalid arguments: name: missing required 'symbol'"),
            ("uses", {"name": {"module_id": None, "symbol": "report"}},
             "uses: invalid arguments: name.module_id: must be of type string, not null"),
            ("reach", {"from": "main", "to": 12}, "reach: invalid arguments: to: must be of type string or object, not an integer"),
            ("closure", {"name": {"module_id": "a.c", "symbol": "f", "graph": "r0"}},
             "closure: invalid arguments: name: unknown argument 'graph' (accepted: module_id, symbol)"),
            ("defs", {"name": fn}, "defs: invalid arguments: name: must be of type string, not an object")]:
        res = s.call(tool, args)
        check(f"{tool} {json.dumps(args)}: tool error", res.get("isError") is True, res)
        check(f"{tool} {json.dumps(args)}: message", tool_text(res) == why, f"{tool_text(res)!r}, expected {why!r}")
    check("every tool covered by invalid-argument cases", set(INVALID_ARGS) == EXPECTED_TOOLS,
          sorted(EXPECTED_TOOLS - set(INVALID_ARGS)))
    for tool, (args, why) in INVALID_ARGS.items():
        res = s.call(tool, args)
        check(f"{tool} with invalid arguments: tool error, not protocol error", res.get("isError") is True, res)
        check(f"{tool} with invalid arguments: names the argument", why in tool_text(res),
              f"{tool_text(res)!r} lacks {why!r}")
    res = s.call("load_catalog", {"path": "/nonexistent/prog.facet"})
    check("load_catalog of a missing file: tool error naming it",
          res.get("isError") is True and "/nonexistent/prog.facet" in tool_text(res), res)
    with tempfile.NamedTemporaryFile(suffix=".facet") as junk:
        junk.write(b"this is not a catalog\n")
        junk.flush()
        res = s.call("load_catalog", {"path": junk.name})
        check("load_catalog of a non-catalog: tool error naming it",
              res.get("isError") is True and junk.name in tool_text(res), res)
    res = s.call("inventory")   # no arguments member at all
    check("arguments omitted: treated as {}", res.get("isError") is True and "load_catalog" in tool_text(res), res)
    finish("tools without catalog", s)


# ---- shutdown ---------------------------------------------------------------

def test_close_mid_session():
    # Closing stdin right after a request: the reply still comes, then exit 0.
    s = Session(FACET)
    s.initialize()
    s.send({"jsonrpc": "2.0", "id": 50, "method": "tools/list"})
    rc = s.close()
    check("close after a request: exit 0", rc == 0, rc)
    check("close after a request: reply delivered",
          any(m.get("id") == 50 and "result" in m for m in s.leftover), s.leftover)
    check("close after a request: stdout clean", not s.stray, s.stray)
    # Closing stdin in the middle of a message: a parse error for the half
    # line, then exit 0.
    s = Session(FACET)
    s.initialize()
    s.send_raw(b'{"jsonrpc":"2.0","id":51,"method":"tools/ca')
    rc = s.close()
    check("close mid-message: exit 0", rc == 0, rc)
    check("close mid-message: parse error for the half line",
          [error_code(m) for m in s.leftover] == [-32700], s.leftover)
    check("close mid-message: stdout clean", not s.stray, s.stray)
    # Closing before initialize: nothing written at all.
    s = Session(FACET)
    rc = s.close()
    check("close before initialize: exit 0, no output", rc == 0 and not s.leftover and not s.stray, (rc, s.leftover))
    # The client stops reading and goes away: the server must not hang or crash.
    p = subprocess.Popen([FACET, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    try:
        p.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n')
        p.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        p.stdin.close()
    except BrokenPipeError:
        pass
    try:
        rc = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "hung"
    check("client gone: exits with 1, not a signal", rc == 1, rc)
    p.stderr.close()


# ---- the CLI ----------------------------------------------------------------

def test_cli():
    r = subprocess.run([FACET, "mcp", "--help"], capture_output=True, text=True)
    check("--help: exit 0", r.returncode == 0, r.returncode)
    check("--help: names the tools and stdio", "record_edges" in r.stdout and "stdin" in r.stdout, r.stdout)
    r = subprocess.run([FACET, "--help"], capture_output=True, text=True)
    check("facet --help lists mcp", "\n  mcp " in r.stdout, r.stdout)
    for args, code in [(["--bogus"], 2), (["--catalog"], 2), (["--overlay", "x"], 2),
                       (["--max-message-bytes", "0"], 2), (["--max-message-bytes", "12k"], 2)]:
        r = subprocess.run([FACET, "mcp", *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        check(f"facet mcp {' '.join(args)}: usage error", r.returncode == code and r.stdout == "",
              (r.returncode, r.stdout, r.stderr))
    r = subprocess.run([FACET, "mcp", "--catalog", "/nonexistent/x.facet"], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    check("--catalog missing file: exit 1, names it, stdout empty",
          r.returncode == 1 and "/nonexistent/x.facet" in r.stderr and r.stdout == "", (r.returncode, r.stderr))


def main():
    for t in [test_cli, test_lifecycle, test_versions, test_before_initialize, test_malformed, test_oversized,
              test_tools_without_catalog, test_close_mid_session]:
        try:
            t()
        except Exception as e:  # a crash of the harness is a failure, named
            check(t.__name__, False, f"{type(e).__name__}: {e}")
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
