"""Tests for edit-image-files: edits of image files, a rename and deletions in the workspace."""

import os

from calc import helpers, ops


def test_mean_fixed():
    assert ops.mean([1, 2]) == 1.5
    assert isinstance(ops.mean([2, 2]), float)
    assert ops.mean([]) == 0.0
    assert ops.mean(x for x in (1, 2, 3, 4)) == 2.5


def test_add_unchanged():
    assert ops.add(2, 3) == 5
    assert "def add(a, b):\n    return a + b\n" in open("/app/calc/ops.py").read()


def test_renamed():
    assert not os.path.exists("/app/calc/helpers_old.py")
    assert helpers.clamp(5, 0, 3) == 3
    assert helpers.__file__ == "/app/calc/helpers.py"


def test_legacy_deleted():
    assert not os.path.lexists("/app/legacy")


def test_version():
    assert open("/app/VERSION").read() == "1.0.0\n"


def test_nothing_else_in_app():
    assert sorted(e for e in os.listdir("/app") if e != "__pycache__") == ["VERSION", "calc"]
