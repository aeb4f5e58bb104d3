"""Hidden tests for /app/anagrams.py."""

import sys

sys.path.insert(0, "/app")

import pytest  # noqa: E402

from anagrams import group_anagrams  # noqa: E402


@pytest.mark.parametrize("words,expected", [
    ([], []),
    (["a"], [["a"]]),
    (["tea", "eat", "tan", "ate", "nat", "bat"], [["ate", "eat", "tea"], ["bat"], ["nat", "tan"]]),
    (["ab", "ba", "ab"], [["ab", "ba"]]),
    (["Ab", "bA", "ab"], [["Ab", "bA"], ["ab"]]),
    (["listen", "silent", "enlist", "google", "gogole"], [["enlist", "listen", "silent"],
                                                         ["gogole", "google"]]),
])
def test_group_anagrams(words, expected):
    assert group_anagrams(words) == expected


def test_input_not_modified():
    words = ["b", "a"]
    group_anagrams(words)
    assert words == ["b", "a"]
