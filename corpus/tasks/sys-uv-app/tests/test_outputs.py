"""Tests for the agent's /app/rle.py (loaded by path)."""

import importlib.util
import random
import sys
from pathlib import Path

import pytest

MODULE_PATH = Path("/app/rle.py")
sys.dont_write_bytecode = True


@pytest.fixture(scope="module")
def rle():
    assert MODULE_PATH.is_file(), f"{MODULE_PATH} does not exist"
    spec = importlib.util.spec_from_file_location("agent_rle", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("plain,coded", [("", ""), ("WWWWBBBW", "4W3B1W"), ("a" * 12, "12a"),
                                         ("ab", "1a1b"), ("  \n\n", "2 2\n"), ("ééé", "3é")])
def test_examples(rle, plain, coded):
    assert rle.encode(plain) == coded
    assert rle.decode(coded) == plain


def test_random_round_trip(rle):
    rng = random.Random(1234)
    for _ in range(300):
        s = "".join(rng.choice("ab c\t-") * rng.randint(1, 14) for _ in range(rng.randint(0, 9)))
        assert rle.decode(rle.encode(s)) == s


@pytest.mark.parametrize("bad", ["W", "3", "0A", "02A", "3A4"])
def test_decode_rejects(rle, bad):
    with pytest.raises(ValueError):
        rle.decode(bad)


def test_encode_rejects_digits(rle):
    with pytest.raises(ValueError):
        rle.encode("aa7")
