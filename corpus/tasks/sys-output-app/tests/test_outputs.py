"""Tests for /app/summary.tsv."""

from pathlib import Path

OUTPUT = Path("/app/summary.tsv")
EXPECTED = Path(__file__).with_name("expected_summary.tsv")


def test_output_exists():
    assert OUTPUT.is_file(), f"{OUTPUT} is missing"


def test_output_matches():
    assert OUTPUT.read_text() == EXPECTED.read_text()


def test_total_line():
    last = OUTPUT.read_text().splitlines()[-1].split("\t")
    assert last[0] == "TOTAL" and len(last) == 3
