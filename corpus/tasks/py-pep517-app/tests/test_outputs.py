"""Hidden tests for rlecodec, imported from site-packages after the install."""

import random

import pytest

import rlecodec


def test_installed_in_site_packages():
    assert "-packages/rlecodec/" in rlecodec.__file__


@pytest.mark.parametrize("text,encoded", [
    ("", ""), ("a", "1a"), ("aaabcc", "3a1b2c"), ("xxxxxxxxxxxxy", "12x1y"), ("abab", "1a1b1a1b"),
    ("  !!", "2 2!"),
])
def test_encode_decode(text, encoded):
    assert rlecodec.encode(text) == encoded
    assert rlecodec.decode(encoded) == text


@pytest.mark.parametrize("bad", ["a", "3", "3a2", "0a", "a3b", "3a b"])
def test_decode_rejects_malformed(bad):
    with pytest.raises(ValueError):
        rlecodec.decode(bad)


def test_round_trip_random():
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(rng.choice("ab c") * rng.randrange(1, 15) for _ in range(rng.randrange(6)))
        assert rlecodec.decode(rlecodec.encode(text)) == text
