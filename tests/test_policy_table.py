"""Unit tests for verifier.policy_table and the policy table embedded in SECURITY.md.

Pure: no engine. The SECURITY.md check reads the block `scripts/policy-table.sh` wrote; it does
not rerun the suites.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest

from verifier import policy_table as PT
from verifier import readme
from verifier.policy_table import SCHEMA

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICIES = ["default", "strict", "harbor-compat"]


def result(case: str, kind: str, same: str, split: str, *, threat: str | None = None,
           row: int | None = None, residual: bool = False, policy: str = "default",
           error: str | None = None, reward: float | None = 0.0,
           expect_split: list[str] | None = None, failing: str | None = None) -> dict[str, Any]:
    findings = [{"code": failing, "fails_verdict": True}] if failing else []
    return {"case": case, "kind": kind, "threat": threat, "row": row, "residual": residual,
            "expect_split": expect_split or (["pass"] if kind == "honest" else ["fail"]),
            "same": same, "split": split, "error": None,
            "comparison": {"split": {"verdict": split, "error": error, "findings": findings,
                                     "reward": None if split == "error" else reward,
                                     "policy": {"name": policy, "digest": "sha256:0"}}}}


def doc(results: list[dict[str, Any]], policy: str) -> dict[str, Any]:
    results = copy.deepcopy(results)
    for r in results:
        r["comparison"]["split"]["policy"]["name"] = policy
    return {"schema": SCHEMA, "results": results}


BASE = [
    result("attacks/a04-one", "attack", "pass", "fail", threat="A", row=4),
    result("attacks/a04-two", "attack", "fail", "fail", threat="A", row=4),
    result("attacks/b07-ini", "attack", "pass", "pass", threat="B", row=7, residual=True),
    result("attacks/f28-fifo", "attack", "pass", "error", threat="F", row=28,
           error="verifier timed out after 15.1s"),
    result("honest/ls-task", "honest", "pass", "pass", reward=1.0),
    result("honest/outside", "honest", "fail", "fail", expect_split=["fail", "error"]),
]


def three() -> list[tuple[str, dict[str, Any]]]:
    strict = copy.deepcopy(BASE)
    strict[2].update(split="fail")  # the pinned pytest config stops B7
    strict[4].update(split="fail")
    strict[4]["comparison"]["split"].update(verdict="fail", reward=0.0)
    compat = copy.deepcopy(BASE)
    compat[1].update(same="pass")
    return [("default", doc(BASE, "default")), ("strict", doc(strict, "strict")),
            ("harbor-compat", doc(compat, "harbor-compat"))]


def test_constants_match_the_suite() -> None:
    """The schema and class names repeated in policy_table are the suite's."""
    from verifier import suite
    assert (PT.SCHEMA, dict(PT.THREAT_CLASSES)) == (suite.SCHEMA, suite.THREAT_CLASSES)


class TestRender:
    def test_rows_cells_and_baseline(self) -> None:
        """One row per threats.md row, fooled/cases per policy, errors counted apart, and the
        same-container baseline from harbor-compat's run."""
        text = PT.render(three(), date="2026-01-02", machine="2-core", commit="abc1234")
        lines = text.splitlines()
        assert lines[0] == ("| attack class (threats.md row) | cases | residual | "
                            "same-container (harbor-compat) | split: default | split: strict "
                            "| split: harbor-compat |")
        assert "| A4 reward file written in advance | 2 | - | 2/2 | 0/2 | 0/2 | 0/2 |" in lines
        assert ("| B7 pytest.ini / pyproject / setup.cfg / tox.ini | 1 | 1 | 1/1 | 1/1 | 0/1 "
                "| 1/1 |") in lines
        assert ("| F28 FIFOs, sockets, device nodes | 1 | - | 1/1 | 0/1 (1 error) "
                "| 0/1 (1 error) | 0/1 (1 error) |") in lines
        assert "| **all attacks** | **4** | **1** | **4/4** | **1/4 (1 error)** |" \
            " **0/4 (1 error)** | **1/4 (1 error)** |" in lines
        assert "Measured 2026-01-02, on 2-core, fcv commit abc1234" in text
        assert "default 3/4, strict 3/4, harbor-compat 4/4" in text

    def test_honest_rows_and_reasons(self) -> None:
        """Honest cases that should pass are counted per policy; each one that did not is
        named with its policy, verdict and reason; split-incompatible ones are apart."""
        text = PT.render(three())
        assert "| passed (of 1 that should pass) | 1/1 | 0/1 | 1/1 |" in text
        assert "| split-incompatible, not passed (of 1) | 1/1 | 1/1 | 1/1 |" in text
        assert "- strict: `ls-task` fail: reward 0" in text
        assert "- default: `f28-fifo`: verifier timed out after 15.1s" in text

    def test_reason_prefers_error_then_failing_finding(self) -> None:
        r = result("honest/x", "honest", "pass", "fail", failing="symlink-to-private")
        assert PT._reason(r) == "failed by finding symlink-to-private"
        r = result("honest/x", "honest", "pass", "error", error="a | b\n" + "x" * 300)
        assert PT._reason(r).startswith("a \\| b x") and len(PT._reason(r)) == 110

    def test_deterministic(self) -> None:
        assert PT.render(three()) == PT.render(three())

    @pytest.mark.parametrize("docs, message", [
        ([], "no suite documents"),
        ([("default", {"schema": "other", "results": []})], "expected a fcv.suite/v1"),
        ([("default", {"schema": SCHEMA, "results": []})], "no results"),
        ([("strict", doc(BASE, "default"))], "was run under policy 'default'"),
        ([("default", doc(BASE, "default")), ("default", doc(BASE, "default"))],
         "named twice"),
        ([("default", doc(BASE, "default")), ("strict", doc(BASE[:-1], "strict"))],
         "not the same cases"),
    ])
    def test_refuses(self, docs: list[tuple[str, dict[str, Any]]], message: str) -> None:
        with pytest.raises(PT.TableError, match=message):
            PT.render(docs)


class TestParse:
    def test_round_trip(self) -> None:
        parsed = PT.parse(PT.render(three()))
        assert parsed["policies"] == POLICIES
        assert parsed["rows"]["F28 FIFOs, sockets, device nodes"]["split: strict"] == (0, 1, 1)
        assert parsed["rows"]["all attacks"]["same-container (harbor-compat)"] == (4, 4, 0)
        assert parsed["honest"]["passed (of 1 that should pass)"]["strict"] == (0, 1)

    @pytest.mark.parametrize("edit, message", [
        (lambda t: "nothing", "no attack table"),
        (lambda t: t.replace("| 0/2 | 0/2 | 0/2 |", "| 0/2 | x/2 | 0/2 |"), "is not N/M"),
        (lambda t: t.replace("| 0/2 | 0/2 | 0/2 |", "| 0/2 | 0/3 | 0/2 |"), "does not fit"),
        (lambda t: t.replace("| 0/2 | 0/2 | 0/2 |", "| 0/2 | 0/2 |"), "cells, header"),
        (lambda t: t.replace("split: strict |", "strict |", 1), "one split column"),
        (lambda t: t.replace("| honest cases | split: default | split: strict |",
                             "| honest cases | split: strict | split: default |"),
         "are not the policies"),
    ])
    def test_malformed(self, edit: Any, message: str) -> None:
        with pytest.raises(PT.TableError, match=message):
            PT.parse(edit(PT.render(three())))


class TestSecurityMd:
    """The block scripts/policy-table.sh wrote into SECURITY.md is there and well formed."""

    @pytest.fixture(scope="class")
    def block(self) -> str:
        with open(os.path.join(ROOT, "SECURITY.md"), encoding="utf-8") as f:
            return readme.embedded(f.read(), "policy-table")

    def test_one_column_per_policy(self, block: str) -> None:
        parsed = PT.parse(block)
        assert parsed["policies"] == POLICIES
        assert parsed["honest"], "no honest table"
        for counts in parsed["honest"].values():
            assert list(counts) == POLICIES

    def test_rows_add_up(self, block: str) -> None:
        """Every column's total is the sum of its rows, and a row for every attack class."""
        rows = PT.parse(block)["rows"]
        total = rows.pop("all attacks")
        assert len(rows) >= 20
        for column, (fooled, cases, errors) in total.items():
            assert sum(r[column][0] for r in rows.values()) == fooled
            assert sum(r[column][1] for r in rows.values()) == cases
            assert sum(r[column][2] for r in rows.values()) == errors

    def test_provenance_note(self, block: str) -> None:
        assert "Measured 2" in block and "fcv commit" in block
