"""Tests for unicode-names: compare names as raw bytes, so no decoding can hide a change."""

import os
import sys

import pytest

sys.dont_write_bytecode = True

INBOX = b"/app/inbox"
NAMES = [
    b"caf\xc3\xa9 menu.txt",
    b"cafe\xcc\x81 menu.txt",
    b"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xe3\x83\x95\xe3\x82\xa1\xe3\x82\xa4\xe3\x83\xab.txt",
    b"party \xf0\x9f\x8e\x89.txt",
    b" leading and trailing space ",
    b"tab\there.txt",
    b"quote's \"double\" [brackets] (parens) & $dollar.txt",
    b"latin1-\xe9.txt",
]
FOLDER = "Mes documents/Résumé (final)".encode()


def test_exact_listing():
    assert sorted(os.listdir(INBOX)) == sorted(NAMES + [b"Mes documents"])


@pytest.mark.parametrize("name", NAMES, ids=[n.decode("utf-8", "backslashreplace") for n in NAMES])
def test_file_content_is_its_name(name):
    path = os.path.join(INBOX, name)
    assert os.path.isfile(path) and not os.path.islink(path)
    with open(path, "rb") as f:
        assert f.read() == name + b"\n"


def test_nfc_and_nfd_are_distinct_files():
    a = os.stat(os.path.join(INBOX, NAMES[0]))
    b = os.stat(os.path.join(INBOX, NAMES[1]))
    assert a.st_ino != b.st_ino


def test_nested_unicode_directory():
    assert os.listdir(os.path.join(INBOX, b"Mes documents")) == [b"R\xc3\xa9sum\xc3\xa9 (final)"]
    with open(os.path.join(INBOX, FOLDER, b"notes.md"), "rb") as f:
        assert f.read() == b"ok\n"


def test_str_api_round_trip():
    # The same files through the str API (surrogateescape for the non-UTF-8 byte).
    names = set(os.listdir("/app/inbox"))
    assert "latin1-\udce9.txt" in names
    assert "party 🎉.txt" in names
