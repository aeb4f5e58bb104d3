"""Tests for the agent's /app/isbn.py (loaded by path)."""

import importlib.util
import sys
from pathlib import Path

import pytest

MODULE_PATH = Path("/app/isbn.py")
sys.dont_write_bytecode = True


@pytest.fixture(scope="module")
def isbn():
    assert MODULE_PATH.is_file(), f"{MODULE_PATH} does not exist"
    spec = importlib.util.spec_from_file_location("agent_isbn", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("good", ["0-306-40615-2", "0306406152", "080442957X", "0 8044 2957 X",
                                  "978-0-306-40615-7", "9780306406157", "9781861972712"])
def test_valid(isbn, good):
    assert isbn.is_valid(good) is True


@pytest.mark.parametrize("bad", ["", "0306406153", "080442957x", "030640615", "97803064061570",
                                 "9780306406158", "X306406152", "03064O6152", "١٢٣٤٥٦٧٨٩٠"])
def test_invalid(isbn, bad):
    assert isbn.is_valid(bad) is False


@pytest.mark.parametrize("ten,thirteen", [("0-306-40615-2", "9780306406157"),
                                          ("080442957X", "9780804429573"),
                                          ("1861972717", "9781861972712")])
def test_to_isbn13(isbn, ten, thirteen):
    assert isbn.to_isbn13(ten) == thirteen


def test_to_isbn13_rejects(isbn):
    with pytest.raises(ValueError):
        isbn.to_isbn13("0306406153")
