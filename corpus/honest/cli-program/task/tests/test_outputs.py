"""Tests for cli-program: run the agent's /app/bin/colstat as a subprocess."""

import os
import subprocess
import sys

import pytest

sys.dont_write_bytecode = True

TOOL = "/app/bin/colstat"
DATA = "/tests/data"


def run(*args, stdin=None):
    return subprocess.run([TOOL, *args], input=stdin, capture_output=True, text=True,
                          timeout=30)


def test_is_executable():
    assert os.path.isfile(TOOL) and os.access(TOOL, os.X_OK)


def test_first_column_is_default_and_not_numeric():
    out = run(f"{DATA}/prices.csv")
    assert out.returncode == 3 and out.stderr.strip() == "colstat: bad value at line 2"


@pytest.mark.parametrize("column,line", [
    ("price", "count=4 min=0.50 max=2.00 mean=1.12"),
    ("qty", "count=4 min=1.00 max=10.00 mean=5.50"),
])
def test_columns(column, line):
    out = run("--column", column, f"{DATA}/prices.csv")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == line


def test_precision():
    out = run("--column", "price", "--precision", "4", f"{DATA}/prices.csv")
    assert out.stdout.strip() == "count=4 min=0.5000 max=2.0000 mean=1.1250"


def test_stdin():
    out = run("-", stdin="n\n3\n1\n2\n")
    assert out.returncode == 0 and out.stdout.strip() == "count=3 min=1.00 max=3.00 mean=2.00"


def test_missing_column():
    out = run("--column", "nope", f"{DATA}/prices.csv")
    assert out.returncode == 2 and out.stderr.strip() == "colstat: no column nope"


def test_bad_value_line_number():
    out = run("--column", "y", f"{DATA}/bad.csv")
    assert out.returncode == 3 and out.stderr.strip() == "colstat: bad value at line 3"


def test_no_values(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("a,b\n,\n,\n")
    out = run("--column", "b", str(path))
    assert out.returncode == 0 and out.stdout.strip() == "count=0"


def test_generated_input(tmp_path):
    path = tmp_path / "big.csv"
    values = [(i * 37) % 101 - 50 for i in range(1000)]
    path.write_text("v\n" + "".join(f"{v}\n" for v in values))
    out = run("--precision", "3", str(path))
    mean = sum(values) / len(values)
    assert out.stdout.strip() == (f"count=1000 min={min(values):.3f} max={max(values):.3f} "
                                  f"mean={mean:.3f}")
