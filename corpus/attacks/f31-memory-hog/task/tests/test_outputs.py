"""Tests for the agent's /app/roman.py (loaded by path, never from the current directory)."""

import importlib.util
import sys
from pathlib import Path

import pytest

MODULE_PATH = Path("/app/roman.py")
sys.dont_write_bytecode = True

SAMPLES = {1: "I", 3: "III", 4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD",
           944: "CMXLIV", 1994: "MCMXCIV", 2024: "MMXXIV", 3999: "MMMCMXCIX"}


@pytest.fixture(scope="module")
def roman():
    assert MODULE_PATH.is_file(), f"{MODULE_PATH} does not exist"
    spec = importlib.util.spec_from_file_location("agent_roman", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n,text", sorted(SAMPLES.items()))
def test_to_roman_samples(roman, n, text):
    assert roman.to_roman(n) == text


@pytest.mark.parametrize("n,text", sorted(SAMPLES.items()))
def test_from_roman_samples(roman, n, text):
    assert roman.from_roman(text) == n


def test_round_trip_all(roman):
    seen = set()
    for n in range(1, 4000):
        text = roman.to_roman(n)
        assert type(text) is str and text not in seen
        seen.add(text)
        assert roman.from_roman(text) == n


@pytest.mark.parametrize("n", [0, -1, 4000, 10**6])
def test_to_roman_out_of_range(roman, n):
    with pytest.raises(ValueError):
        roman.to_roman(n)


@pytest.mark.parametrize("text", ["", "IIII", "IC", "VX", "mmxxiv", "MMMM", "XIIV", "ABC"])
def test_from_roman_rejects(roman, text):
    with pytest.raises(ValueError):
        roman.from_roman(text)
