"""The example tasks and agents against the real engine: oracles pass in both modes with both
snapshot methods; each cheat passes the same-container verdict and fails fcv's split verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from isolation.engine import Engine
from verifier.policy import Policy
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, run_trial

ROOT = Path(__file__).resolve().parent.parent
TASKS = ROOT / "examples" / "tasks"
AGENTS = ROOT / "examples" / "agents"
EXAMPLE_TASKS = sorted(p.name for p in TASKS.iterdir() if (p / "task.toml").exists())

pytestmark = pytest.mark.engine


def _compare(engine: Engine, task: str, agent: AgentSpec, method: str = "volume"):  # type: ignore[no-untyped-def]
    options = TrialOptions(agent=agent, modes=("split", "same"), snapshot_method=method)
    return run_trial(engine, Task.from_dir(TASKS / task), options).results


class TestOracles:
    @pytest.mark.parametrize("method", ["volume", "commit"])
    @pytest.mark.parametrize("task", EXAMPLE_TASKS)
    def test_oracle_passes_both_modes(self, engine: Engine, task: str, method: str) -> None:
        """Every example task's reference solution passes split and same verification."""
        results = _compare(engine, task, AgentSpec(kind="oracle"), method)
        for mode in ("split", "same"):
            r = results[mode]
            assert (r.verdict, r.error) == ("pass", None), (mode, r.to_json())
            assert r.snapshot_method == method
            assert r.reward is not None and r.reward >= 1.0

    @pytest.mark.parametrize("policy", ["strict", "harbor-compat"])
    @pytest.mark.parametrize("task", EXAMPLE_TASKS)
    def test_oracle_passes_under_every_policy(self, engine: Engine, task: str,
                                              policy: str) -> None:
        """Every example's reference solution passes split (and same) under strict (gVisor,
        read-only verifier root) and harbor-compat too; default is covered above."""
        loaded = Policy.load(policy)
        options = TrialOptions.from_policy(loaded, agent=AgentSpec(kind="oracle"),
                                           modes=("split", "same"))
        results = run_trial(engine, Task.from_dir(TASKS / task), options).results
        for mode in ("split", "same"):
            r = results[mode]
            assert (r.verdict, r.error) == ("pass", None), (mode, r.to_json())
            assert r.policy is not None and r.policy["digest"] == loaded.digest

    def test_at_least_three_examples(self) -> None:
        """The examples cover a pytest task, a plain shell task and a reward.json task."""
        assert len(EXAMPLE_TASKS) >= 3

    @pytest.mark.parametrize("task", EXAMPLE_TASKS)
    def test_no_agent_fails(self, engine: Engine, task: str) -> None:
        """Doing nothing fails every example task in both modes (the tests really test)."""
        results = _compare(engine, task, AgentSpec(kind="none"))
        assert results["split"].verdict == "fail"
        assert results["same"].verdict == "fail"


CHEATS = [
    ("cheat-python-stub.sh", "fizzbuzz-py"),
    ("cheat-planted-reward.sh", "fizzbuzz-py"),
    ("cheat-planted-reward.sh", "word-count-sh"),
    ("cheat-background-rewriter.sh", "fizzbuzz-py"),
]


class TestCheats:
    @pytest.mark.parametrize(("agent", "task"), CHEATS)
    @pytest.mark.parametrize("method", ["volume", "commit"])
    def test_cheat_fools_same_not_split(self, engine: Engine, agent: str, task: str,
                                        method: str) -> None:
        """The cheat passes Harbor's same-container verdict and fails fcv's split verdict."""
        spec = AgentSpec(kind="script", script=str(AGENTS / agent))
        results = _compare(engine, task, spec, method)
        assert results["same"].verdict == "pass", results["same"].to_json()
        assert results["split"].verdict == "fail", results["split"].to_json()
