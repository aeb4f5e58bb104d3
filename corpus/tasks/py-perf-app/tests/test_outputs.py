"""Hidden tests for /app/primes.py: correctness, then speed measured in-process."""

import sys
import time

sys.path.insert(0, "/app")

import pytest  # noqa: E402

import primes  # noqa: E402

LIMIT_S = 0.5


@pytest.mark.parametrize("n,expected", [
    (-5, 0), (0, 0), (1, 0), (2, 1), (3, 2), (10, 4), (100, 25), (1000, 168), (7919, 1000),
    (10_000, 1229), (100_000, 9592),
])
def test_small(n, expected):
    assert primes.count_primes(n) == expected


def test_two_million_is_fast():
    start = time.perf_counter()
    got = primes.count_primes(2_000_000)
    elapsed = time.perf_counter() - start
    assert got == 148_933
    assert elapsed < LIMIT_S, f"count_primes(2_000_000) took {elapsed:.3f}s (limit {LIMIT_S}s)"
