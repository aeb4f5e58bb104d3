"""Unit tests for verifier.verdict (pure)."""

from __future__ import annotations

import math

import pytest

from verifier.verdict import Comparison, PhaseRecord, TrialResult, format_table


def trial(mode: str, verdict: str, **kw: object) -> TrialResult:
    defaults: dict[str, object] = {"reward": 1.0 if verdict == "pass" else None,
                                   "error": "boom" if verdict == "error" else None}
    defaults.update(kw)
    return TrialResult(trial_id="t1", task="demo", mode=mode, snapshot_method="volume",
                       verdict=verdict, **defaults)  # type: ignore[arg-type]


class TestTrialResult:
    def test_pass_needs_finite_reward(self) -> None:
        """A pass without a finite reward cannot even be constructed."""
        for reward in (None, math.nan, math.inf):
            with pytest.raises(ValueError):
                trial("split", "pass", reward=reward)

    def test_error_needs_reason(self) -> None:
        """An error verdict always carries its reason; other verdicts never carry one."""
        with pytest.raises(ValueError):
            trial("split", "error", error=None)
        with pytest.raises(ValueError):
            trial("split", "fail", error="x")

    def test_exit_codes(self) -> None:
        """pass 0, fail 1, error 3."""
        assert [trial("split", v).exit_code for v in ("pass", "fail", "error")] == [0, 1, 3]

    def test_json_document(self) -> None:
        """The JSON document has the fcv.trial/v1 fields and phase records."""
        doc = trial("split", "pass", agent=PhaseRecord(exit_code=0, timed_out=False,
                                                       duration_s=1.23456)).to_json()
        assert doc["schema"] == "fcv.trial/v1"
        assert doc["agent"] == {"exit_code": 0, "timed_out": False, "duration_s": 1.235}
        assert doc["verifier"] == {"exit_code": None, "timed_out": False, "duration_s": None}
        assert doc["images"] == {"task": None} and doc["findings"] == []


class TestComparison:
    def test_divergent_and_exit(self) -> None:
        """Divergence is verdict inequality; exit is 3 only when a verdict is error."""
        c = Comparison(same=trial("same", "pass"), split=trial("split", "fail"))
        assert c.divergent and c.exit_code == 0
        assert c.to_json()["divergent"] is True and c.to_json()["schema"] == "fcv.compare/v1"
        assert "gamed" in c.explanation()
        e = Comparison(same=trial("same", "pass"), split=trial("split", "error"))
        assert e.exit_code == 3

    def test_table(self) -> None:
        """The table shows both verdicts and the one-line explanation."""
        text = format_table(Comparison(same=trial("same", "pass"), split=trial("split", "fail")))
        assert "PASS" in text and "FAIL" in text and text.splitlines()[-1].startswith("DIVERGENT")
