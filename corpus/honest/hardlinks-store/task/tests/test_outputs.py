"""Tests for hardlinks-store: inode identity and link counts, not just equal bytes."""

import hashlib
import os
import sys

sys.dont_write_bytecode = True

FILES = {
    "LICENSE": b"shared licence text\n",
    "docs/LICENSE.copy": b"shared licence text\n",
    "docs/README": b"readme\n",
    "assets/logo.txt": b"logo-bytes\n",
    "assets/logo-old.txt": b"logo-bytes\n",
    "assets/logo-older.txt": b"logo-bytes\n",
}


def obj(data):
    digest = hashlib.sha256(data).hexdigest()
    return os.path.join("/app/store", digest[:2], digest[2:])


def test_store_has_one_object_per_content():
    found = []
    for dirpath, _dirs, files in os.walk("/app/store"):
        found += [os.path.join(dirpath, f) for f in files]
    assert sorted(found) == sorted({obj(d) for d in FILES.values()})


def test_checkout_files_are_hard_links_to_objects():
    for rel, data in FILES.items():
        path = os.path.join("/app/checkout", rel)
        assert not os.path.islink(path), rel
        st, so = os.stat(path), os.stat(obj(data))
        assert (st.st_dev, st.st_ino) == (so.st_dev, so.st_ino), rel
        with open(path, "rb") as f:
            assert f.read() == data


def test_link_counts():
    users = {}
    for data in FILES.values():
        users[obj(data)] = users.get(obj(data), 0) + 1
    for path, n in users.items():
        assert os.stat(path).st_nlink == n + 1, path


def test_incoming_untouched():
    for rel, data in FILES.items():
        path = os.path.join("/app/incoming", rel)
        with open(path, "rb") as f:
            assert f.read() == data
        assert os.stat(path).st_nlink == 1
