#!/usr/bin/env python3
"""fake_oracle.py — a scripted oracle for the `command` backend's tests.

Usage: fake_oracle.py MODE [TRUTH.json]

Reads the question JSON (docs/oracle.md) on stdin and answers on stdout:
  correct   yes for the candidates TRUTH lists at the site, no for the rest
            (TRUTH: {"FILE:LINE": [names]}, FILE the basename; a site it
            does not list gets no for every candidate)
  yes       yes to every candidate          no   no to every candidate
  invent    correct, plus a yes for a name outside the list
  invent-only  answers only names outside the list
  malformed prose without any JSON object
  fenced    correct, inside prose and a ```json fence
  exit1     a correct answer, then exit status 1
  slow      sleeps 5 s before answering
Every answer reports usage {"prompt_tokens": 100, "completion_tokens": 10}.
With $FAKE_ORACLE_LOG set, appends each question (one JSON per line) there.
"""
import json
import os
import sys
import time


def main():
    mode = sys.argv[1]
    truth = {}
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            truth = json.load(f)
    q = json.load(sys.stdin)
    log = os.environ.get("FAKE_ORACLE_LOG")
    if log:
        with open(log, "a") as f:
            f.write(json.dumps(q) + "\n")
    names = [c["name"] for c in q["candidates"]]
    site = q["site"]
    key = f"{os.path.basename(site['file'] or '?')}:{site['line']}"
    want = set(truth.get(key, []))
    usage = {"prompt_tokens": 100, "completion_tokens": 10}
    if mode in ("correct", "invent", "fenced", "exit1"):
        answers = {n: "yes" if n in want else "no" for n in names}
    elif mode == "yes":
        answers = {n: "yes" for n in names}
    elif mode == "no":
        answers = {n: "no" for n in names}
    elif mode == "invent-only":
        answers = {"invented_" + n: "yes" for n in names}
    elif mode == "malformed":
        print("I believe the first candidate is probably the one, but it is hard to say.")
        return 0
    elif mode == "slow":
        time.sleep(5)
        answers = {n: "no" for n in names}
    else:
        print(f"fake_oracle.py: unknown mode {mode}", file=sys.stderr)
        return 2
    if mode == "invent":
        answers["system"] = "yes"
    out = json.dumps({"answers": answers, "usage": usage})
    if mode == "fenced":
        out = "Here is my answer:\n```json\n" + out + "\n```\nI hope this helps {really}."
    print(out)
    return 1 if mode == "exit1" else 0


if __name__ == "__main__":
    sys.exit(main())
