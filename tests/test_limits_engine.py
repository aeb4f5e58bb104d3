"""A policy's snapshot limits on the real engine (overlay2 on ext4 has no quota, so fcv
watches): an agent that writes past snapshot.max_bytes is frozen while it runs, one that
leaves more than snapshot.max_files entries is refused, and either way the split verdict is
``fail`` with the limit finding, never a verdict on a partial workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from isolation import disk
from isolation.engine import Engine
from tests.tasktools import make_task, write_agent
from verifier.policy import Policy
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, run_trial

pytestmark = [pytest.mark.engine, pytest.mark.slow]

ALWAYS_PASS = "#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n"


def small_policy(tmp_path: Path, *, max_bytes: int, max_files: int) -> Policy:
    path = tmp_path / "small.toml"
    path.write_text(f'schema = "fcv.policy/v1"\nname = "small"\n[snapshot]\n'
                    f"max_bytes = {max_bytes}\nmax_files = {max_files}\n")
    return Policy.load(str(path))


def task_dir(tmp_path: Path) -> Task:
    return Task.from_dir(str(make_task(tmp_path, test_sh=ALWAYS_PASS, dockerfile=None, toml=(
        '[environment]\ndocker_image = "fcv/busybox:latest"\nworkdir = "/app"\n'
        "[verifier]\ntimeout_sec = 60\n[agent]\ntimeout_sec = 120\n"))))


class TestDiskLimit:
    def test_agent_frozen_while_writing_past_max_bytes(self, engine: Engine,
                                                       tmp_path: Path) -> None:
        """An agent writing 1 MB every 0.2 s past a 8 MB limit is frozen by the watch long
        before it would finish, and the split verdict is fail with disk-limit-exceeded."""
        policy = small_policy(tmp_path, max_bytes=8 * 1024 * 1024, max_files=10_000)
        agent = write_agent(tmp_path, """\
            i=0
            while [ $i -lt 200 ]; do
              dd if=/dev/zero of=/app/blob$i bs=1M count=1 2>/dev/null; i=$((i+1)); sleep 0.2
            done
            echo finished > /app/finished
            """)
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)),
                                           modes=("split", "same"))
        trial = run_trial(engine, task_dir(tmp_path), options)
        split, same = trial.results["split"], trial.results["same"]
        limit = [f for f in split.findings if f.code == "disk-limit-exceeded"]
        assert split.verdict == "fail" and limit and limit[0].fails_verdict, split
        assert "frozen" in limit[0].message
        assert split.verifier is None  # not verified at all
        assert split.agent is not None and split.agent.duration_s < 30  # 200 x 0.2 s = 40 s
        assert same.verdict == "pass"  # the shared mode has no such limit: the baseline

    def test_fast_writer_caught_at_the_snapshot(self, engine: Engine, tmp_path: Path) -> None:
        """An agent that writes past the limit and exits before the first measurement is
        caught by the snapshot scan: fail with disk-limit-exceeded."""
        assert disk.FIRST_CHECK_S >= 1
        policy = small_policy(tmp_path, max_bytes=4 * 1024 * 1024, max_files=10_000)
        agent = write_agent(tmp_path, "dd if=/dev/zero of=/app/blob bs=1M count=6 2>/dev/null\n")
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        split = run_trial(engine, task_dir(tmp_path), options).results["split"]
        assert split.verdict == "fail", split
        assert [f.code for f in split.findings if f.fails_verdict] == ["disk-limit-exceeded"]

    def test_within_limits_passes(self, engine: Engine, tmp_path: Path) -> None:
        """The same agent under a limit it stays within is verified as usual."""
        policy = small_policy(tmp_path, max_bytes=64 * 1024 * 1024, max_files=10_000)
        agent = write_agent(tmp_path, "dd if=/dev/zero of=/app/blob bs=1M count=6 2>/dev/null\n")
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        split = run_trial(engine, task_dir(tmp_path), options).results["split"]
        assert split.verdict == "pass", split


class TestFileLimit:
    def test_too_many_entries_fail_not_error(self, engine: Engine, tmp_path: Path) -> None:
        """More workspace entries than snapshot.max_files: the scan stops early and the
        split verdict is fail with file-limit-exceeded (not an error from a scan timeout)."""
        policy = small_policy(tmp_path, max_bytes=1024**3, max_files=300)
        agent = write_agent(tmp_path, """\
            mkdir -p /app/many && cd /app/many
            i=0; while [ $i -lt 1000 ]; do : > f$i; i=$((i+1)); done
            """)
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        split = run_trial(engine, task_dir(tmp_path), options).results["split"]
        assert split.verdict == "fail", split
        limit = [f for f in split.findings if f.code == "file-limit-exceeded"]
        assert limit and limit[0].fails_verdict and "300" in limit[0].message


class TestCarry:
    """workspace.carry: directories outside the workspace reach the verifier read-only, and
    are judged like the workspace."""

    CHECK = ("#!/bin/sh\n"
             "if [ \"$(cat /srv/output/result.txt 2>/dev/null)\" = 42 ]; then r=1; else r=0; fi\n"
             "if touch /srv/output/x 2>/dev/null; then r=0; fi\n"  # must be read-only
             "echo $r > /logs/verifier/reward.txt\n")

    def carry_policy(self, tmp_path: Path, paths: str = '["/srv/output"]') -> Policy:
        path = tmp_path / "carry.toml"
        path.write_text(f'schema = "fcv.policy/v1"\nname = "carry"\n[workspace]\n'
                        f"carry = {paths}\n")
        return Policy.load(str(path))

    def task(self, tmp_path: Path) -> Task:
        return Task.from_dir(str(make_task(tmp_path, test_sh=self.CHECK, dockerfile=None, toml=(
            '[environment]\ndocker_image = "fcv/busybox:latest"\nworkdir = "/app"\n'
            "[verifier]\ntimeout_sec = 60\n[agent]\ntimeout_sec = 60\n"))))

    def run(self, engine: Engine, tmp_path: Path, policy: Policy, body: str):  # type: ignore[no-untyped-def]
        tmp_path.mkdir(parents=True, exist_ok=True)
        agent = write_agent(tmp_path, body)
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        return run_trial(engine, self.task(tmp_path), options).results["split"]

    def test_carried_output_is_verified_read_only(self, engine: Engine,
                                                  tmp_path: Path) -> None:
        """Output in /srv/output passes when the policy carries it (read-only in the verifier)
        and is not an outside-workspace finding; without carry the same agent fails."""
        body = "mkdir -p /srv/output && echo 42 > /srv/output/result.txt\n"
        carried = self.run(engine, tmp_path / "a", self.carry_policy(tmp_path), body)
        assert carried.verdict == "pass", carried
        assert "outside-workspace-change" not in {f.code for f in carried.findings}
        plain = self.run(engine, tmp_path / "b", Policy.load("default"), body)
        assert plain.verdict == "fail"
        assert "outside-workspace-change" in {f.code for f in plain.findings}

    def test_symlink_in_carried_tree_is_judged(self, engine: Engine, tmp_path: Path) -> None:
        """A symlink into /logs in a carried tree fails the split verdict like one in the
        workspace would."""
        body = ("mkdir -p /srv/output && echo 42 > /srv/output/result.txt\n"
                "ln -s /logs/verifier/reward.txt /srv/output/reward-link\n")
        result = self.run(engine, tmp_path, self.carry_policy(tmp_path), body)
        assert result.verdict == "fail", result
        marked = [f for f in result.findings if f.fails_verdict]
        assert [(f.code, f.path) for f in marked] == \
            [("symlink-to-private", "/srv/output/reward-link")]

    def test_symlinked_carry_path_is_not_followed(self, engine: Engine, tmp_path: Path) -> None:
        """A carried path the agent turned into a symlink is skipped (carry-skipped), never
        followed."""
        body = "mkdir -p /srv && ln -s /tests /srv/output\n"
        result = self.run(engine, tmp_path, self.carry_policy(tmp_path), body)
        assert result.verdict == "fail"
        skipped = [f for f in result.findings if f.code == "carry-skipped"]
        assert skipped and "symlink" in skipped[0].message
