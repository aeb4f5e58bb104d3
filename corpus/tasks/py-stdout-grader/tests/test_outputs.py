"""Hidden tests for /app/textstats.py."""

import sys

sys.path.insert(0, "/app")

import pytest  # noqa: E402

import textstats  # noqa: E402

TEXT = ("The quick brown fox jumps over the lazy dog. The dog sleeps; the fox does not. "
        "Don't count 42 or e-mail as one word.")


@pytest.mark.parametrize("text,expected", [
    ("", 0),
    ("hello", 1),
    ("Hello, World!", 2),
    ("don't", 2),
    ("e-mail 2024 x", 3),
    (TEXT, 25),
], ids=["empty", "one", "punctuation", "apostrophe", "digits", "paragraph"])
def test_word_count(text, expected):
    assert textstats.word_count(text) == expected


def test_top_words_example():
    assert textstats.top_words("b a B c b a", 2) == [("b", 3), ("a", 2)]


def test_top_words_ties_alphabetical():
    assert textstats.top_words("z y x y z", 3) == [("y", 2), ("z", 2), ("x", 1)]


def test_top_words_paragraph():
    assert textstats.top_words(TEXT, 3) == [("the", 4), ("dog", 2), ("fox", 2)]


def test_top_words_fewer_than_k():
    assert textstats.top_words("one two", 5) == [("one", 1), ("two", 1)]
