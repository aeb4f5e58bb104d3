"""Tests for verifier-env: everything the test needs to know comes from the environment."""

import os
import subprocess
import sys

sys.dont_write_bytecode = True


def test_literal_values():
    assert os.environ["GREETING_STYLE"] == "formal"
    assert os.environ["EXPECTED_COUNT"] == "3"
    assert os.environ["NAMES_SEPARATOR"] == ", "


def test_template_default_was_used():
    assert os.environ["NAMES_FILE"] == "/app/data/names.txt"
    assert "FCV_CORPUS_NAMES_FILE_UNSET" not in os.environ


def test_environment_and_image_env():
    assert os.environ.get("APP_LOCALE") == "en_GB"
    assert os.environ.get("GREETER_HOME") == "/app"


def test_greetings_from_env():
    out = subprocess.run([sys.executable, os.path.join(os.environ["GREETER_HOME"], "greet.py"),
                          os.environ["GREETING_STYLE"], os.environ["NAMES_FILE"]],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == int(os.environ["EXPECTED_COUNT"])
    assert os.environ["NAMES_SEPARATOR"].join(lines) == \
        "Good day, Ada., Good day, Grace., Good day, Linus."


def test_unknown_style():
    out = subprocess.run([sys.executable, "/app/greet.py", "shouty", os.environ["NAMES_FILE"]],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 1 and out.stderr.strip() == "unknown style"
