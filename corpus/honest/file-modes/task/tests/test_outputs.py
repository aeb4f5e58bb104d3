"""Tests for file-modes: exact permission bits, and the executables really execute."""

import os
import stat
import subprocess
import sys

import pytest

sys.dont_write_bytecode = True

MODES = {
    "/app/bin": 0o755,
    "/app/bin/hello": 0o755,
    "/app/bin/sum": 0o755,
    "/app/bin/rotate-logs": 0o700,
    "/app/etc": 0o750,
    "/app/etc/app.conf": 0o640,
    "/app/spool": 0o1777,
    "/app/README": 0o444,
}


@pytest.mark.parametrize("path,mode", sorted(MODES.items()))
def test_mode(path, mode):
    st = os.lstat(path)
    assert not stat.S_ISLNK(st.st_mode), f"{path} is a symlink"
    got = stat.S_IMODE(st.st_mode)
    assert got == mode, f"{path}: mode {got:04o}, expected {mode:04o}"


def test_directories_and_files():
    for path in ("/app/bin", "/app/etc", "/app/spool"):
        assert os.path.isdir(path)
    assert os.listdir("/app/spool") == []
    for path in ("/app/bin/hello", "/app/bin/sum", "/app/bin/rotate-logs", "/app/etc/app.conf"):
        assert os.path.isfile(path)


def test_hello_runs():
    out = subprocess.run(["/app/bin/hello", "verifier"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0 and out.stdout == "hello from verifier\n"


def test_sum_runs():
    out = subprocess.run(["/app/bin/sum", "1", "2", "39"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0 and out.stdout == "42\n"


def test_owner_only_script_runs_for_its_owner():
    assert os.stat("/app/bin/rotate-logs").st_uid == os.geteuid() == 0
    out = subprocess.run(["/app/bin/rotate-logs"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout == "rotated\n"


def test_config_content():
    with open("/app/etc/app.conf") as f:
        assert f.read().splitlines() == ["listen = 127.0.0.1:8080", "workers = 4"]
