"""Tests for conftest-rebuild-tool: run the freshly rebuilt zipapp."""

import os
import subprocess
import sys
import time
import zipfile

sys.dont_write_bytecode = True

TOOL = "/app/build/wc.pyz"


def run(*args, stdin=b""):
    return subprocess.run([TOOL, *args], input=stdin, capture_output=True, timeout=30)


def test_tool_was_rebuilt_just_now():
    assert time.time() - os.stat(TOOL).st_mtime < 120
    with zipfile.ZipFile(TOOL) as z:
        assert "wc/cli.py" in z.namelist()
        assert "__main__.py" in z.namelist()


def test_counts():
    out = run(stdin=b"the cat\nsat on\n  the mat\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout == b"3 6 25\n"


def test_counts_without_final_newline():
    out = run(stdin=b"a b c")
    assert out.stdout == b"0 3 5\n"


def test_top_words():
    out = run("--top", "2", stdin=b"b a B c a b\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout == b"3 b\n2 a\n"
