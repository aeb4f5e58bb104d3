"""Tests for verifier-user-nobody: everything is read as the unprivileged user nobody."""

import importlib.util
import json
import os
import pwd
import subprocess
import sys

sys.dont_write_bytecode = True


def test_running_as_nobody():
    assert os.geteuid() == pwd.getpwnam("nobody").pw_uid != 0


def test_module_imports_for_nobody():
    spec = importlib.util.spec_from_file_location("agent_textstats", "/app/lib/textstats.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.stats("a b\nc\n") == {"lines": 2, "words": 3, "chars": 6}
    assert module.stats("") == {"lines": 0, "words": 0, "chars": 0}


def test_script_on_sample():
    with open("/app/data/sample.txt") as f:
        out = subprocess.run(["/app/bin/textstats"], stdin=f, capture_output=True, text=True,
                             timeout=30)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"chars": 28, "lines": 3, "words": 6}
    assert out.stdout.strip() == '{"chars": 28, "lines": 3, "words": 6}'


def test_cannot_write_workspace():
    # nobody owns nothing in /app, so the grader itself cannot alter the agent's work.
    assert not os.access("/app", os.W_OK)
