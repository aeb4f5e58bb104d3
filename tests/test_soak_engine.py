"""The soak script (benchmarks/soak.py): its pure parts, and a short soak on the real engine.

The full 200-trial soak takes about ten minutes and is not part of the suite; this short one
(12 trials, ``--jobs 4``) keeps the script working and checks the same three figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import soak
from isolation.engine import Engine
from verifier import suite
from verifier.suite import Case, Outcome

ROOT = Path(__file__).resolve().parent.parent


def outcome(case: Case, same: str, split: str) -> Outcome:
    class Fake:  # only the verdicts matter to classify()
        def __init__(self, verdict: str) -> None:
            self.verdict = verdict

    class Comparison:
        def __init__(self) -> None:
            self.same, self.split = Fake(same), Fake(split)

    return Outcome(case=case, comparison=Comparison(), error=None,  # type: ignore[arg-type]
                   violations=(), duration_s=0.0)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return suite.discover([str(ROOT / "corpus" / "honest"), str(ROOT / "corpus" / "attacks")])


class TestClassify:
    def test_attack_passing_split_is_false_pass(self, cases: list[Case]) -> None:
        """A non-residual attack whose split verdict is pass is a false pass."""
        attack = next(c for c in cases if c.kind == "attack" and not c.residual)
        assert soak.classify(outcome(attack, "pass", "pass")) == "false-pass"
        assert soak.classify(outcome(attack, "pass", "fail")) == "ok"

    def test_residual_attack_is_counted_apart(self, cases: list[Case]) -> None:
        """A documented residual attack passing split is not a false pass."""
        residual = next(c for c in cases if c.kind == "attack" and c.residual)
        assert soak.classify(outcome(residual, "pass", "pass")) == "residual-pass"

    def test_honest_not_passing_is_counted(self, cases: list[Case]) -> None:
        """An honest split-compatible case must pass split; an error counts as a failure."""
        honest = next(c for c in cases if c.kind == "honest" and not c.split_incompatible)
        assert soak.classify(outcome(honest, "pass", "error")) == "honest-failed"
        assert soak.classify(outcome(honest, "pass", "pass")) == "ok"


def test_schedule_mixes_and_repeats(cases: list[Case]) -> None:
    """The schedule covers every case before repeating any, and is the same for a seed."""
    order = soak.schedule(cases, len(cases) + 5, seed=6)
    assert {c.name for c in order[:len(cases)]} == {c.name for c in cases}
    assert [c.name for c in order] == [c.name for c in soak.schedule(cases, len(cases) + 5,
                                                                      seed=6)]
    assert {c.kind for c in order[:40]} == {"attack", "honest"}


@pytest.mark.engine
@pytest.mark.slow
def test_short_soak(engine: Engine) -> None:
    """12 mixed trials at --jobs 4: no false pass, no honest failure, nothing leaked."""
    doc = soak.soak([str(ROOT / "corpus" / "honest"), str(ROOT / "corpus" / "attacks")],
                    trials=12, jobs=4, seed=6)
    assert doc["trials"] == 12 and doc["attack_trials"] and doc["honest_trials"]
    assert (doc["false_passes"], doc["honest_failed"]) == (0, 0), doc["results"]
    assert doc["leaked"] == {"containers": 0, "volumes": 0, "images": 0}, doc["leaked_ids"]
    assert doc["rss"]["peak_mb"] < 150
