"""Tests for /app/wrap.py (loaded by path)."""

import importlib.util
import random
import sys
import textwrap

import pytest

sys.dont_write_bytecode = True


@pytest.fixture(scope="module")
def wrap():
    spec = importlib.util.spec_from_file_location("agent_wrap", "/app/wrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.wrap


@pytest.mark.parametrize("text,width,want", [
    ("", 10, []),
    ("a b c", 1, ["a", "b", "c"]),
    ("the quick brown fox", 9, ["the quick", "brown fox"]),
    ("  spaced \n\t out  ", 20, ["spaced out"]),
    ("supercalifragilistic is long", 5, ["supercalifragilistic", "is", "long"]),
])
def test_examples(wrap, text, width, want):
    assert wrap(text, width) == want


def test_matches_reference(wrap):
    rng = random.Random(3)
    words = ["a", "to", "the", "word", "wraps", "quickly", "extraordinary"]
    for _ in range(200):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 30)))
        width = rng.randint(1, 25)
        want = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
        assert wrap(text, width) == want


def test_bad_width(wrap):
    with pytest.raises(ValueError):
        wrap("x", 0)


def test_no_textwrap():
    assert "textwrap" not in open("/app/wrap.py").read()
