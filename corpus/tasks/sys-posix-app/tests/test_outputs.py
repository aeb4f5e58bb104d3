"""Tests for the agent's /app/semver.py (loaded by path)."""

import importlib.util
import sys
from pathlib import Path

import pytest

MODULE_PATH = Path("/app/semver.py")
sys.dont_write_bytecode = True

ORDERED = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
           "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.9.0", "1.10.0", "2.0.0"]


@pytest.fixture(scope="module")
def semver():
    assert MODULE_PATH.is_file(), f"{MODULE_PATH} does not exist"
    spec = importlib.util.spec_from_file_location("agent_semver", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_total_order(semver):
    for i, a in enumerate(ORDERED):
        for j, b in enumerate(ORDERED):
            assert semver.compare(a, b) == (i > j) - (i < j), (a, b)


def test_build_metadata_ignored(semver):
    assert semver.compare("1.0.0+build.1", "1.0.0+zzz") == 0
    assert semver.compare("1.0.0-rc.1+b", "1.0.0") == -1


@pytest.mark.parametrize("bad", ["", "1.0", "01.0.0", "1.0.0-", "1.0.0-01", "v1.0.0", "1.0.0+"])
def test_invalid(semver, bad):
    with pytest.raises(ValueError):
        semver.compare(bad, "1.0.0")
