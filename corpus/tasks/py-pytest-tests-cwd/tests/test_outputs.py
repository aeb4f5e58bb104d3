"""Hidden tests for /app/roman.py (imported as `roman` with /app first on sys.path, the way
many Terminal-Bench 2 tests import the agent's module)."""

import sys

sys.path.insert(0, "/app")

import pytest  # noqa: E402

import roman  # noqa: E402

CASES = [
    (1, "I"), (3, "III"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (90, "XC"),
    (400, "CD"), (944, "CMXLIV"), (1994, "MCMXCIV"), (2024, "MMXXIV"), (3999, "MMMCMXCIX"),
]


def _reference_to_roman(n):
    out = ""
    for value, symbol in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                          (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                          (4, "IV"), (1, "I")):
        while n >= value:
            out += symbol
            n -= value
    return out


@pytest.mark.parametrize("n,expected", CASES)
def test_to_roman(n, expected):
    assert roman.to_roman(n) == expected


@pytest.mark.parametrize("n,expected", CASES)
def test_from_roman(n, expected):
    assert roman.from_roman(expected) == n


def test_matches_reference():
    for n in range(1, 4000, 7):
        want = _reference_to_roman(n)
        assert roman.to_roman(n) == want


def test_round_trip():
    for n in range(1, 4000):
        assert roman.from_roman(roman.to_roman(n)) == n
