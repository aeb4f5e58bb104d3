"""The regression corpus: its shape (pure), and the whole suite against the real engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isolation.engine import Engine
from isolation.errors import EXIT_FAIL, EXIT_PASS
from tests.tasktools import make_task
from verifier import readme, suite
from verifier.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
#: Rows of threats.md sections A-D and F, which the corpus must cover.
REQUIRED_ROWS = set(range(1, 23)) | set(range(26, 33))


def cases() -> list[suite.Case]:
    return suite.discover([str(CORPUS)])


class TestCorpusShape:
    def test_sizes(self) -> None:
        """At least 40 attack cases and 15 honest cases."""
        kinds = [c.kind for c in cases()]
        assert kinds.count("attack") >= 40 and kinds.count("honest") >= 15

    def test_every_row_covered(self) -> None:
        """Every row of threat sections A-D and F has at least one attack case."""
        rows = {c.row for c in cases() if c.kind == "attack"}
        assert REQUIRED_ROWS - rows == set()

    def test_non_residual_attacks_expect_no_split_pass(self) -> None:
        """No non-residual attack may expect (or tolerate) a split pass."""
        lax = [c.name for c in cases() if c.kind == "attack" and not c.residual
               and ({"pass", "any"} & c.expect_split)]
        assert lax == []

    def test_honest_cases_expect_split_pass(self) -> None:
        """Honest cases expect a split pass unless they are split-incompatible."""
        wrong = [c.name for c in cases() if c.kind == "honest"
                 and (c.expect_split != {"pass"}) != c.split_incompatible]
        assert wrong == []


    def test_policy_overrides_name_shipped_policies(self) -> None:
        """Every [policy.NAME] table names a shipped policy (a typo would never apply)."""
        shipped = {p.stem for p in (ROOT / "policies").glob("*.toml")}
        named = {(c.name, name) for c in cases() for name, _ in c.overrides}
        assert {n for _, n in named} <= shipped - {"default"}, named

    def test_strict_expects_no_new_split_pass(self) -> None:
        """strict is at least as strong as default: under it, too, no non-residual attack
        may expect a split pass."""
        lax = [c.name for c in cases() if c.kind == "attack" and not c.residual
               and ({"pass", "any"} & c.under("strict").expect_split)]
        assert lax == []


@pytest.mark.engine
def test_suite_checks_the_policy_expectations(engine: Engine, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`fcv suite --policy P` checks each case against its [policy.P] table when it has one:
    an honest case that a stricter threshold fails is a violation without the table and
    holds with it, its reason reported."""
    policy = tmp_path / "high-bar.toml"
    policy.write_text('schema = "fcv.policy/v1"\nname = "high-bar"\n[verdict]\n'
                      "threshold = 2.0\n")
    case = tmp_path / "honest" / "h"
    case.mkdir(parents=True)
    make_task(case, "task", dockerfile=None, toml=(
        '[environment]\ndocker_image = "fcv/busybox:latest"\nworkdir = "/app"\n'
        "[verifier]\ntimeout_sec = 60\n[agent]\ntimeout_sec = 60\n"))
    base = 'title = "h"\nexpect_same = "pass"\nexpect_split = "pass"\n'
    (case / "case.toml").write_text(base)
    report = tmp_path / "report.json"
    assert main(["suite", str(tmp_path / "honest"), "--policy", str(policy),
                 "--json", str(report)]) == EXIT_FAIL
    assert "split verdict fail" in capsys.readouterr().err
    (case / "case.toml").write_text(base + '[policy.high-bar]\nexpect_same = "fail"\n'
                                           'expect_split = "fail"\n'
                                           'reason = "reward 1 is below threshold 2"\n')
    assert main(["suite", str(tmp_path / "honest"), "--policy", str(policy),
                 "--json", str(report)]) == EXIT_PASS
    [result] = json.loads(report.read_text())["results"]
    assert (result["split"], result["expect_reason"]) == ("fail",
                                                          "reward 1 is below threshold 2")


@pytest.mark.engine
@pytest.mark.slow
def test_suite_passes(engine: Engine, tmp_path: Path) -> None:
    """`fcv suite corpus/`: every expectation holds, no non-residual attack fools the split
    verdict, every honest case passes split, and the README shows this very summary."""
    outcomes = suite.run_suite(cases(), jobs=2)
    violations = {o.case.name: o.violations for o in outcomes if o.violations}
    assert violations == {}
    figures = suite.summary(outcomes)
    assert figures["split_fooled"] == 0
    assert figures["honest_split_failed"] == 0
    table = suite.to_markdown(outcomes)
    (tmp_path / "suite.md").write_text(table)
    shown = readme.embedded((ROOT / "README.md").read_text(), "suite-summary")
    assert shown == table, "README summary is stale: run `bash scripts/suite-summary.sh`"
