#!/usr/bin/env python3
"""fake_openai.py — a loopback chat-completions server for the oracle tests.

Usage: fake_openai.py TRUTH.json PORTFILE

Listens on 127.0.0.1 at a free port, writes the port to PORTFILE, and serves
POST /v1/chat/completions with the behaviour the request's "model" names:
  correct       yes for the candidates TRUTH lists at the site ("FILE:LINE"
                from the prompt's "Call site:" line), no for the rest
  invent        correct plus a yes for a name outside the list
  malformed     200 with a body that is not JSON
  prose         200, well-formed envelope, content without any JSON object
  429once       429 (Retry-After: 0) on a prompt's first request, then correct
  500           500 on every request
  slow          waits 3 s, then correct
  noschema      400 naming response_format when the request has one, else correct
Every 200 reports usage {"prompt_tokens": 100, "completion_tokens": 10}.
GET /stats returns {"requests": N, "requests_by_model": {...},
"with_schema": N, "temperatures": [...], "authorization": [...],
"prompts": [user messages]}. The process runs until killed.
"""
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATS = {"requests": 0, "requests_by_model": {}, "with_schema": 0, "temperatures": [], "authorization": [],
         "prompts": []}
SEEN = set()
TRUTH = {}


def candidates(user):
    return re.findall(r"^Candidate \d+: (\S+) \(", user, re.M)


def site_key(user):
    m = re.search(r"^Call site: (\S+):(\d+) in function", user, re.M)
    return f"{os.path.basename(m.group(1))}:{m.group(2)}" if m else "?"


def correct(user):
    want = set(TRUTH.get(site_key(user), []))
    return {n: "yes" if n in want else "no" for n in candidates(user)}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path == "/stats":
            with LOCK:
                self.send(200, json.dumps(STATS))
        else:
            self.send(404, "{}")

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        req = json.loads(self.rfile.read(n))
        model = req.get("model", "")
        user = next((m["content"] for m in req["messages"] if m["role"] == "user"), "")
        with LOCK:
            STATS["requests"] += 1
            STATS["requests_by_model"][model] = STATS["requests_by_model"].get(model, 0) + 1
            STATS["with_schema"] += "response_format" in req
            STATS["temperatures"].append(req.get("temperature"))
            STATS["authorization"].append(self.headers.get("Authorization"))
            STATS["prompts"].append(user)
            first = (model, user) not in SEEN
            SEEN.add((model, user))
        if not self.path.endswith("/chat/completions"):
            return self.send(404, '{"error": "no such path"}')
        answers = correct(user)
        if model == "malformed":
            return self.send(200, '{"choices": [{"message": {"content": "{\\"answers\\"')
        if model == "prose":
            return self.reply("The second one, most likely.")
        if model == "429once" and first:
            return self.send(429, '{"error": "rate limited"}', [("Retry-After", "0")])
        if model == "500":
            return self.send(500, '{"error": "internal"}')
        if model == "slow":
            time.sleep(3)
        if model == "noschema" and "response_format" in req:
            return self.send(400, '{"error": {"message": "response_format json_schema is not supported"}}')
        if model == "invent":
            answers["system"] = "yes"
        self.reply(json.dumps({"answers": answers}))

    def reply(self, content):
        self.send(200, json.dumps({"id": "x", "object": "chat.completion",
                                   "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                                "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}}))


def main():
    global TRUTH
    with open(sys.argv[1]) as f:
        TRUTH = json.load(f)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    srv.serve_forever()


if __name__ == "__main__":
    main()
