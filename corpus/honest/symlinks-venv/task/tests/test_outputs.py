"""Tests for symlinks-venv: the links must survive as links, with their exact targets, and the
venv must work through them."""

import os
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True

VENV = Path("/app/venv")


def test_python_is_absolute_symlink_to_system_python():
    link = VENV / "bin" / "python3"
    assert link.is_symlink()
    assert os.readlink(link) == "/usr/bin/python3"
    assert link.resolve() == Path("/usr/bin/python3").resolve()


def test_python_alias_is_relative_symlink():
    link = VENV / "bin" / "python"
    assert link.is_symlink()
    assert os.readlink(link) == "python3"


def test_lib64_is_relative_symlink_to_lib():
    link = VENV / "lib64"
    assert link.is_symlink()
    assert os.readlink(link) == "lib"
    assert (link / "python3.11" / "site-packages" / "greet" / "__init__.py").is_file()


def test_venv_interpreter_sees_its_prefix():
    out = subprocess.run([str(VENV / "bin" / "python3"), "-c",
                          "import sys; print(sys.prefix)"],
                         capture_output=True, text=True, timeout=30, check=True)
    assert out.stdout.strip() == "/app/venv"


def test_console_script_runs_through_venv():
    script = VENV / "bin" / "greet"
    assert script.read_text().splitlines()[0] == "#!/app/venv/bin/python3"
    assert os.access(script, os.X_OK)
    out = subprocess.run([str(script), "fcv"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "hello, fcv!\n"


def test_release_links():
    current = Path("/app/current")
    latest = Path("/app/latest")
    assert current.is_symlink() and os.readlink(current) == "releases/v2"
    assert latest.is_symlink() and os.readlink(latest) == "/app/releases/v2"
    assert (current / "VERSION").read_text() == "2.0.0\n"
    assert (latest / "VERSION").read_text() == "2.0.0\n"
    assert Path("/app/releases/v1/VERSION").read_text() == "1.0.0\n"


def test_link_chain_into_system():
    link = Path("/app/releases/v2/python")
    assert link.is_symlink() and os.readlink(link) == "/app/venv/bin/python3"
    out = subprocess.run(["/app/current/python", "-c", "print(6 * 7)"],
                         capture_output=True, text=True, timeout=30)
    assert out.stdout == "42\n"
