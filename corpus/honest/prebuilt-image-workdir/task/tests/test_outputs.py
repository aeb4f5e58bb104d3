"""Tests for prebuilt-image-workdir."""

import os
import subprocess
import sys

import pytest

sys.dont_write_bytecode = True


def primes(n):
    return [p for p in range(2, n) if all(p % d for d in range(2, int(p ** 0.5) + 1))]


def run(n):
    out = subprocess.run([sys.executable, "/srv/job/primes.py", str(n)], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return [int(x) for x in out.stdout.split()]


def test_runs_in_the_workdir():
    assert os.getcwd() == "/srv/job"


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 10, 11, 100, 7919, 7920])
def test_small(n):
    assert run(n) == primes(n)


def test_million():
    got = run(1_000_000)
    assert len(got) == 78498 and got[-1] == 999983
