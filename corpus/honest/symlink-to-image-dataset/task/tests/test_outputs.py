"""Tests for symlink-to-image-dataset: the link leaves the workspace into pristine image data."""

import os
import sys

sys.dont_write_bytecode = True


def test_data_is_absolute_link_to_dataset():
    assert os.path.islink("/app/data")
    assert os.readlink("/app/data") == "/opt/dataset"


def test_read_through_link():
    names = sorted(n for n in os.listdir("/app/data") if n.endswith(".txt"))
    assert names == ["part-0001.txt", "part-0002.txt", "part-0003.txt"]
    with open("/app/data/part-0002.txt") as f:
        assert f.read() == "x\ny\n"


def test_counts():
    with open("/app/counts.tsv") as f:
        assert f.read() == "part-0001.txt\t3\npart-0002.txt\t2\npart-0003.txt\t1\n"
