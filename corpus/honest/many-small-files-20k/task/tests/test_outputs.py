"""Tests for many-small-files-20k: every one of the 20,000 files, and nothing more."""

import hashlib
import os
import sys

sys.dont_write_bytecode = True

ROOT = "/app/shards"
N = 20000


def expected():
    return {f"shards/{i % 100:02d}/record-{i:05d}.txt": f"{i} {i * i}\n".encode()
            for i in range(N)}


def test_exact_tree():
    found = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        for name in filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), "/app"))
    assert sorted(os.listdir(ROOT)) == [f"{d:02d}" for d in range(100)]
    assert len(found) == N
    assert found == set(expected())


def test_every_file_content():
    bad = []
    for rel, data in expected().items():
        with open(os.path.join("/app", rel), "rb") as f:
            if f.read() != data:
                bad.append(rel)
    assert not bad, f"{len(bad)} files differ, e.g. {bad[:5]}"


def test_manifest():
    want = sorted(expected().items(), key=lambda kv: kv[0].encode())
    lines = [f"{hashlib.sha256(data).hexdigest()}  {rel}\n" for rel, data in want]
    with open("/app/manifest.txt") as f:
        assert f.read() == "".join(lines)
