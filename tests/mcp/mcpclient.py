"""mcpclient.py - drive `facet mcp` as a subprocess over pipes, for tests.

A deliberately small client: it writes raw lines (so tests can send broken
ones), reads replies with a timeout, and checks every line the server ever
writes to stdout is a JSON-RPC 2.0 message; anything else is recorded in
`stray` and fails the test that owns the session."""

import json
import os
import select
import subprocess
import time

LATEST = "2025-11-25"


class Session:
    def __init__(self, facet, args=(), env=None, cwd=None):
        self.proc = subprocess.Popen(
            [facet, "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        self.next_id = 1
        self.stray = []       # stdout lines that are not JSON-RPC messages
        self.buf = b""
        self.stderr = b""

    # -- raw I/O --------------------------------------------------------

    def send_raw(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        self.send_raw(json.dumps(msg) + "\n")

    def _drain_stderr(self):
        fd = self.proc.stderr.fileno()
        while select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.stderr += chunk

    def read(self, timeout=60):
        """The next message from stdout (parsed), or None at EOF/timeout."""
        fd = self.proc.stdout.fileno()
        deadline = time.time() + timeout
        while b"\n" not in self.buf:
            self._drain_stderr()
            left = deadline - time.time()
            if left <= 0:
                return None
            if not select.select([fd], [], [], min(left, 0.2))[0]:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                if self.buf:
                    self.stray.append(self.buf.decode(errors="replace"))
                    self.buf = b""
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            msg = json.loads(line)
        except ValueError:
            self.stray.append(line.decode(errors="replace"))
            return self.read(max(deadline - time.time(), 0.1))
        if not valid_message(msg):
            self.stray.append(line.decode(errors="replace"))
        return msg

    # -- JSON-RPC ---------------------------------------------------------

    def request(self, method, params=None, timeout=60):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        reply = self.read(timeout)
        if reply is None:
            raise RuntimeError(f"no reply to {method} (id {rid}); stderr: {self.stderr.decode(errors='replace')}")
        if reply.get("id") != rid:
            raise RuntimeError(f"reply to {method} has id {reply.get('id')!r}, expected {rid}: {reply}")
        return reply

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def initialize(self, version=LATEST):
        r = self.request("initialize", {"protocolVersion": version, "capabilities": {},
                                        "clientInfo": {"name": "facet-tests", "version": "1"}})
        self.notify("notifications/initialized")
        return r

    def call(self, tool, args=None, timeout=120):
        """tools/call; returns the result object (raises on a protocol error)."""
        params = {"name": tool}
        if args is not None:
            params["arguments"] = args
        r = self.request("tools/call", params, timeout)
        if "result" not in r:
            raise RuntimeError(f"tools/call {tool} got a protocol error: {r}")
        return r["result"]

    def close(self, timeout=30):
        """Closes stdin and waits; returns the exit status, and reads what is
        left on stdout (it must still be protocol messages only)."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        rest = []
        while True:
            m = self.read(timeout)
            if m is None:
                break
            rest.append(m)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = "hung"
        self.stderr += self.proc.stderr.read()
        self.leftover = rest
        return rc


def valid_message(msg):
    """A JSON-RPC 2.0 response (the server sends no requests or batches
    unless a 2025-03-26 client sent a batch)."""
    if isinstance(msg, list):
        return len(msg) > 0 and all(valid_message(m) for m in msg)
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        return False
    if "id" not in msg:
        return False
    if ("result" in msg) == ("error" in msg):
        return False
    if "error" in msg:
        e = msg["error"]
        return isinstance(e, dict) and isinstance(e.get("code"), int) and isinstance(e.get("message"), str)
    return isinstance(msg["result"], dict)


def tool_text(result):
    return "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")


def tool_data(result):
    """The structured answer of a successful tool result; the text block
    must hold the same JSON."""
    sc = result.get("structuredContent")
    text = json.loads(tool_text(result))
    if sc is not None and sc != text:
        raise AssertionError("structuredContent and the text block differ")
    return sc if sc is not None else text
