"""Tests for tb2-opt-testenv (TB2 style: plain functions, absolute paths under /app)."""

import json
import sys
from pathlib import Path

REPORT = Path("/app/report.json")


def test_runs_in_the_baked_venv():
    assert sys.prefix == "/opt/testenv"
    assert sys.prefix != sys.base_prefix


def test_report_exists():
    assert REPORT.exists(), "report.json was not written"


def test_report_values():
    report = json.loads(REPORT.read_text())
    assert report["requests"] == 7
    assert report["unique_clients"] == 4
    assert report["status_counts"] == {"200": 4, "404": 1, "500": 1, "304": 1}
    assert report["bytes_total"] == 3264
    assert report["top_path"] == "/index.html"
