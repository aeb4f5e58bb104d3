"""Tests for split-incompatible-service: a live HTTP server and a fresh heartbeat."""

import sys
import time
import urllib.request

sys.dont_write_bytecode = True

BASE = "http://127.0.0.1:8765"


def get(path):
    with urllib.request.urlopen(BASE + path, timeout=5) as r:
        return r.status, r.read().decode()


def test_index():
    assert get("/") == (200, "<h1>status: ok</h1>\n")


def test_version():
    assert get("/version.txt") == (200, "statusd 1.4\n")


def test_heartbeat_is_fresh():
    # The agent was paused while the workspace was snapshotted: give the heartbeat a moment.
    deadline = time.time() + 5
    while True:
        try:
            with open("/run/statusd/heartbeat") as f:
                beat = int(f.read().strip())
        except FileNotFoundError:
            raise AssertionError("no heartbeat file: the service is not running") from None
        except (OSError, ValueError):
            beat = 0
        if time.time() - beat <= 3 or time.time() > deadline:
            break
        time.sleep(0.2)
    assert time.time() - beat <= 3, f"stale heartbeat {beat}"
