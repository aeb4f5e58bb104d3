import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from slugkit import slugify  # noqa: E402


def test_simple_words():
    assert slugify("hello") == "hello"


def test_lower_case():
    assert slugify("Hello") == "hello"


def test_spaces_become_separators():
    assert slugify("hello big world") == "hello-big-world"


def test_accents_are_dropped():
    assert slugify("café") == "cafe"


def test_punctuation_runs_collapse():
    assert slugify("Hello,  World!") == "hello-world"
