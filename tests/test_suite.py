"""Unit tests for verifier.suite (pure parts: cases, expectations, reports)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from isolation.errors import UsageError
from tests.tasktools import make_task
from verifier import suite
from verifier.trial import AgentSpec
from verifier.verdict import Comparison, Finding, TrialResult


def write_case(root: Path, name: str, toml: str, *, agent: bool = True) -> Path:
    case = root / name
    case.mkdir(parents=True)
    make_task(case, "task")
    (case / "case.toml").write_text(toml)
    if agent:
        (case / "agent.sh").write_text("#!/bin/sh\n")
    return case


ATTACK = '''title = "t"
threat = "A"
row = 4
expect_same = "pass"
expect_split = "fail"
'''


def verdicts(same: str, split: str, *, codes: tuple[str, ...] = ()) -> Comparison:
    def t(mode: str, v: str) -> TrialResult:
        return TrialResult(trial_id="x", task="t", mode=mode, snapshot_method="volume",
                           verdict=v, reward=1.0 if v == "pass" else None,
                           error="e" if v == "error" else None,
                           findings=tuple(Finding(code=c, severity="low", path="/p",
                                                  message="m") for c in codes))
    return Comparison(same=t("same", same), split=t("split", split))


class TestCase:
    def test_attack_defaults(self, tmp_path: Path) -> None:
        """An attack case under attacks/ runs agent.sh against ./task."""
        case = suite.Case.from_dir(str(write_case(tmp_path / "attacks", "a04", ATTACK)))
        assert case.kind == "attack" and case.agent.kind == "script"
        assert case.expect_split == frozenset({"fail"}) and case.task_dir.endswith("a04/task")

    def test_honest_defaults_to_oracle(self, tmp_path: Path) -> None:
        """An honest case runs the task's own solution."""
        path = write_case(tmp_path / "honest", "h", 'title = "h"\nexpect_same = "pass"\n'
                          'expect_split = ["pass"]\nworkspace = "scratch"\n', agent=False)
        case = suite.Case.from_dir(str(path))
        assert case.kind == "honest" and case.agent == AgentSpec(kind="oracle")
        assert case.workspace == "scratch"

    @pytest.mark.parametrize(("extra", "field"), [
        ('bogus = 1\n', "bogus"),
        ('workspace = "rw"\n', "workspace"),
        ('findings = ["nope"]\n', "findings"),
        ('residual = "yes"\n', "residual"),
    ])
    def test_bad_field_named(self, tmp_path: Path, extra: str, field: str) -> None:
        """A malformed case names the file and the field."""
        path = write_case(tmp_path / "attacks", "bad", ATTACK + extra)
        with pytest.raises(UsageError, match=rf"case\.toml: .*{field}"):
            suite.Case.from_dir(str(path))

    def test_policy_override(self, tmp_path: Path) -> None:
        """A [policy.NAME] table changes the expectations under that policy only, with its
        reason; fields it leaves out keep the base value."""
        path = write_case(tmp_path / "attacks", "o", ATTACK + (
            '[policy.strict]\nexpect_same = "error"\nfindings = ["fifo"]\n'
            'reason = "gVisor kills the sandbox"\n'))
        case = suite.Case.from_dir(str(path))
        assert case.under("default") is case and case.override_reason is None
        strict = case.under("strict")
        assert strict.expect_same == frozenset({"error"})
        assert strict.expect_split == frozenset({"fail"}) and strict.findings == ("fifo",)
        assert strict.override_reason == "gVisor kills the sandbox"
        assert suite.check(strict, verdicts("error", "fail", codes=("fifo",))) == []
        assert suite.check(case, verdicts("error", "fail")) == [
            "same verdict error (e), expected pass"]

    @pytest.mark.parametrize(("table", "message"), [
        ('[policy.strict]\nexpect_split = "pass"\n', r"policy\.strict\.reason: required"),
        ('[policy.strict]\nreason = "r"\n', "changes nothing"),
        ('[policy.strict]\nexpect_split = "maybe"\nreason = "r"\n',
         r"policy\.strict\.expect_split"),
        ('[policy.strict]\nresidual = true\nreason = "r"\n', r"unknown keys \['residual'\]"),
        ('[policy.strict]\nfindings = ["nope"]\nreason = "r"\n', r"policy\.strict\.findings"),
        ('[policy.Strict]\nexpect_split = "pass"\nreason = "r"\n', r"policy\.Strict"),
        ('policy = "strict"\n', "expected tables"),
    ])
    def test_bad_override_named(self, tmp_path: Path, table: str, message: str) -> None:
        """A malformed override names the file and the dotted field."""
        path = write_case(tmp_path / "attacks", "bad", ATTACK + table)
        with pytest.raises(UsageError, match=rf"case\.toml: .*{message}"):
            suite.Case.from_dir(str(path))

    def test_unknown_policy_table_warned(self, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
        """`fcv suite` warns, before anything runs, about a [policy.NAME] table that names no
        policy it knows (a misspelt name would silently never apply)."""
        from verifier.cli import main

        ran: list[int] = []
        monkeypatch.setattr(suite, "run_suite", lambda cases, **_: ran.append(len(cases)) or [])
        write_case(tmp_path / "attacks", "typo", ATTACK + (
            '[policy.stirct]\nexpect_split = "error"\nreason = "r"\n'))
        main(["suite", str(tmp_path / "attacks")])
        err = capsys.readouterr().err
        assert ran == [1]  # the warning came before the (stand-in) run
        assert "typo/case.toml: [policy.stirct] names no policy here" in err
        assert "strict" in err.split("[policy.stirct]")[1]  # the known names are listed

    def test_bad_expectation(self, tmp_path: Path) -> None:
        """An expectation outside pass/fail/error/any is refused."""
        path = write_case(tmp_path / "attacks", "bad", ATTACK.replace('"fail"', '"maybe"'))
        with pytest.raises(UsageError, match="expect_split"):
            suite.Case.from_dir(str(path))

    def test_attack_needs_threat(self, tmp_path: Path) -> None:
        """An attack case must name its threat class and row."""
        path = write_case(tmp_path / "attacks", "bad", ATTACK.replace("row = 4\n", ""))
        with pytest.raises(UsageError, match="threat and row"):
            suite.Case.from_dir(str(path))

    def test_discover(self, tmp_path: Path) -> None:
        """discover finds cases, not their tasks, sorted; an empty dir is an error."""
        write_case(tmp_path / "c" / "attacks", "b", ATTACK)
        write_case(tmp_path / "c" / "attacks", "a", ATTACK)
        names = [c.name for c in suite.discover([str(tmp_path / "c")])]
        assert names == ["c/attacks/a", "c/attacks/b"]
        (tmp_path / "empty").mkdir()
        with pytest.raises(UsageError, match="no case.toml"):
            suite.discover([str(tmp_path / "empty")])


class TestCheck:
    def case(self, tmp_path: Path, toml: str = ATTACK) -> suite.Case:
        name = f"x{len(list(tmp_path.glob('attacks/*')))}"
        return suite.Case.from_dir(str(write_case(tmp_path / "attacks", name, toml)))

    def test_expected_verdicts_hold(self, tmp_path: Path) -> None:
        """Matching verdicts violate nothing."""
        assert suite.check(self.case(tmp_path), verdicts("pass", "fail")) == []

    def test_split_pass_is_violation(self, tmp_path: Path) -> None:
        """An attack that fools the split verdict breaks its expectation."""
        [v] = suite.check(self.case(tmp_path), verdicts("pass", "pass"))
        assert v.startswith("split verdict pass")

    def test_error_is_not_fail(self, tmp_path: Path) -> None:
        """"fail" means exactly fail: an error is a violation unless listed."""
        assert suite.check(self.case(tmp_path), verdicts("pass", "error"))
        listed = ATTACK.replace('expect_split = "fail"', 'expect_split = ["fail", "error"]')
        assert suite.check(self.case(tmp_path, listed), verdicts("pass", "error")) == []

    def test_missing_finding(self, tmp_path: Path) -> None:
        """A listed finding that is not reported is a violation."""
        case = self.case(tmp_path, ATTACK + 'findings = ["fifo"]\n')
        assert suite.check(case, verdicts("pass", "fail", codes=("fifo",))) == []
        assert suite.check(case, verdicts("pass", "fail")) == [
            "finding fifo expected but not reported"]

    def test_split_incompatible(self, tmp_path: Path) -> None:
        """A split-incompatible case must not pass split and must name the outside change."""
        path = write_case(tmp_path / "honest", "h", 'title = "h"\nexpect_same = "pass"\n'
                          'expect_split = "fail"\nsplit_incompatible = true\n', agent=False)
        case = suite.Case.from_dir(str(path))
        assert suite.check(case, verdicts("pass", "fail",
                                          codes=("outside-workspace-change",))) == []
        assert suite.check(case, verdicts("pass", "fail"))

    def test_not_run(self, tmp_path: Path) -> None:
        """A case that could not run is a violation carrying the reason."""
        assert suite.check(self.case(tmp_path), None, "boom") == [
            "the case could not run: boom"]


class TestReports:
    def outcomes(self, tmp_path: Path) -> list[suite.Outcome]:
        attack = suite.Case.from_dir(str(write_case(tmp_path / "attacks", "a", ATTACK)))
        residual = suite.Case.from_dir(str(write_case(
            tmp_path / "attacks", "r", ATTACK.replace('threat = "A"', 'threat = "B"')
            .replace('"fail"', '"pass"') + "residual = true\n")))
        honest = suite.Case.from_dir(str(write_case(
            tmp_path / "honest", "h", 'title = "h"\nexpect_same = "pass"\n'
            'expect_split = "pass"\n', agent=False)))
        out = []
        for case, cmp in ((attack, verdicts("pass", "fail")), (residual, verdicts("pass", "pass")),
                          (honest, verdicts("pass", "fail"))):
            out.append(suite.Outcome(case=case, comparison=cmp, error=None,
                                     violations=tuple(suite.check(case, cmp)), duration_s=1.0))
        return out

    def test_summary(self, tmp_path: Path) -> None:
        """The summary counts fooled verdicts, residuals, honest failures and violations."""
        figures = suite.summary(self.outcomes(tmp_path))
        assert {k: figures[k] for k in ("cases", "attacks", "honest", "same_fooled",
                                        "split_fooled", "residual_split_fooled",
                                        "honest_split_failed", "expectation_violations")} == {
            "cases": 3, "attacks": 2, "honest": 1, "same_fooled": 2, "split_fooled": 0,
            "residual_split_fooled": 1, "honest_split_failed": 1, "expectation_violations": 1}

    def test_junit(self, tmp_path: Path) -> None:
        """JUnit has one test case per corpus case; violations are failures."""
        root = ET.fromstring(suite.to_junit(self.outcomes(tmp_path)))
        assert root.get("tests") == "3" and root.get("failures") == "1"
        failed = [c.get("name") for c in root.iter("testcase") if c.find("failure") is not None]
        assert failed == ["h"]

    def test_markdown_is_deterministic(self, tmp_path: Path) -> None:
        """The Markdown table has a row per threat class and no timings."""
        text = suite.to_markdown(self.outcomes(tmp_path))
        assert "| A. Tampering with tests, graders and results | 1 | 1 | 0 | 0 |" in text
        assert "| B. pytest and the test process | 1 | 1 | 1 | 1 |" in text
        assert "| 1 | 1/1 | 0/1 | 0/0 |" in text
        assert "Expectations violated: 1 of 3 cases." in text
        assert "1.0" not in text
