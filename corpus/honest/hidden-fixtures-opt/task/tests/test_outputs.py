"""Tests for hidden-fixtures-opt: the expected values come from the image, not from /tests."""

import json
import math
import os
import pwd
import stat
import sys

sys.dont_write_bytecode = True

FIXTURE = "/opt/fixtures/expected.json"


def test_fixture_is_hidden_from_the_agent():
    st = os.stat("/opt/fixtures")
    assert st.st_uid == 0 and stat.S_IMODE(st.st_mode) == 0o700


def test_summary_written_by_the_agent_user():
    st = os.stat("/app/summary.json")
    assert st.st_uid == pwd.getpwnam("worker").pw_uid


def test_summary_matches_fixture():
    with open(FIXTURE) as f:
        expected = json.load(f)
    with open("/app/summary.json") as f:
        got = json.load(f)
    assert set(got) == set(expected)
    for sensor, want in expected.items():
        have = got[sensor]
        assert set(have) == {"count", "min", "max", "mean"}, sensor
        assert have["count"] == want["count"], sensor
        for key in ("min", "max", "mean"):
            assert math.isclose(have[key], want[key], abs_tol=1e-9), (sensor, key)
