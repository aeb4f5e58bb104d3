"""Hidden tests for slugkit.slugify (the repository in /app)."""

import sys

sys.path.insert(0, "/app")

import pytest  # noqa: E402

from slugkit import slugify  # noqa: E402


@pytest.mark.parametrize("text,expected", [
    ("Hello, World!", "hello-world"),
    ("  leading and trailing  ", "leading-and-trailing"),
    ("--already--slugged--", "already-slugged"),
    ("C'est déjà l'été", "c-est-deja-l-ete"),
    ("Ünïcödé & Friends", "unicode-friends"),
    ("100% pure", "100-pure"),
    ("!!!", ""),
    ("", ""),
])
def test_slugify(text, expected):
    assert slugify(text) == expected


def test_custom_separator():
    assert slugify("Hello, big World", sep="_") == "hello_big_world"


def test_max_length_never_ends_with_separator():
    assert slugify("hello big world", max_length=10) == "hello-big"
    assert slugify("hello big world", max_length=9) == "hello-big"
    assert slugify("hello big world", max_length=5) == "hello"
