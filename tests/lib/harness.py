"""harness.py — what the Python check scripts share (tests/lib): a counter
of checks that prints each failure, and running a command with its output
captured. A script puts this directory on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from harness import Checks, run
"""
import subprocess


class Checks:
    """Counts checks; prints "FAIL what" for each failed one (and "ok   what"
    for each passed one when verbose)."""

    def __init__(self, verbose=False):
        self.passed = self.failed = 0
        self.verbose = verbose

    def check(self, ok, what, detail=None):
        if ok:
            self.passed += 1
            if self.verbose:
                print("ok   " + what)
        else:
            self.failed += 1
            print("FAIL " + what + ("" if detail is None else " " + str(detail)[:500]))
        return ok

    def summary(self):
        """Prints "N passed, N failed"; returns the exit status (1 on a failure)."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def run(cmd, stdin=None, env=None, timeout=None):
    """Runs cmd (a list); returns (exit code, stdout, stderr) as text."""
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr
