"""Tests for the agent's /app/fizzbuzz.py (loaded by path, never from the current directory)."""

import importlib.util
import sys
from pathlib import Path

import pytest

MODULE_PATH = Path("/app/fizzbuzz.py")

# Do not leave __pycache__ behind in the agent's workspace (it may also be read-only).
sys.dont_write_bytecode = True


def _reference(n):
    out = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out


@pytest.fixture(scope="module")
def fizzbuzz():
    assert MODULE_PATH.is_file(), f"{MODULE_PATH} does not exist"
    spec = importlib.util.spec_from_file_location("agent_fizzbuzz", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "fizzbuzz", None)), "fizzbuzz() is not defined"
    return module.fizzbuzz


def _check(result, expected):
    assert type(result) is list, f"expected a list, got {type(result).__name__}"
    assert all(type(x) is str for x in result), "every element must be a str"
    assert len(result) == len(expected)
    assert [str(x) for x in result] == expected


def test_zero_is_empty(fizzbuzz):
    _check(fizzbuzz(0), [])


def test_first_fifteen_literal(fizzbuzz):
    _check(fizzbuzz(15), ["1", "2", "Fizz", "4", "Buzz", "Fizz", "7", "8", "Fizz", "Buzz",
                          "11", "Fizz", "13", "14", "FizzBuzz"])


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 30, 31, 97, 100])
def test_matches_reference(fizzbuzz, n):
    _check(fizzbuzz(n), _reference(n))


def test_large_input_spot_checks(fizzbuzz):
    result = fizzbuzz(3000)
    _check(result, _reference(3000))
    assert result[2999] == "FizzBuzz"
    assert result[2998] == "2999"
    assert result[1999] == "Buzz"
