"""Rebuild the agent's tool from its sources before any test runs, so a stale or hand-made
/app/build/wc.pyz is never what gets graded. Writes into the workspace (/app/build)."""

import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True

SRC = "/app/src"
BUILD = "/app/build"
TOOL = os.path.join(BUILD, "wc.pyz")


def pytest_sessionstart(session):
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(BUILD)
    # -B: compiling the sources must not leave __pycache__ behind in /app/src.
    subprocess.run([sys.executable, "-B", "-m", "zipapp", SRC, "-o", TOOL, "-m", "wc.cli:main",
                    "-p", "/usr/bin/env python3"], check=True, timeout=60)
