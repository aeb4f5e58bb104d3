"""A policy's snapshot limits on the real engine (overlay2 on ext4 has no quota, so fcv
watches): an agent that writes past snapshot.max_bytes is frozen while it runs, one that
leaves more than snapshot.max_files entries is refused, and either way the split verdict is
``fail`` with the limit finding, never a verdict on a partial workspace."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from isolation import disk
from isolation import labels as L
from isolation import manifest as M
from isolation import snapshot as snapshots
from isolation.engine import Engine
from isolation.errors import EXIT_FAIL, EXIT_PASS
from tests.tasktools import make_task, put_file, write_agent
from verifier.cli import main
from verifier.policy import Policy
from verifier.task import Task
from verifier.trial import AfterSplitHook, AgentSpec, TrialOptions, run_trial

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

    def run(self, engine: Engine, tmp_path: Path, policy: Policy, body: str,  # type: ignore[no-untyped-def]
            after_split: AfterSplitHook | None = None):
        tmp_path.mkdir(parents=True, exist_ok=True)
        agent = write_agent(tmp_path, body)
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        return run_trial(engine, self.task(tmp_path), options,
                         _after_split=after_split).results["split"]

    def test_carried_tree_is_recorded(self, engine: Engine, tmp_path: Path) -> None:
        """The verdict records each carried directory's manifest digest beside the
        workspace's (what an attestation then covers)."""
        body = "mkdir -p /srv/output && echo 42 > /srv/output/result.txt\n"
        result = self.run(engine, tmp_path, self.carry_policy(tmp_path), body)
        assert result.verdict == "pass" and result.snapshot is not None, result
        [tree] = result.snapshot.carried
        assert (tree.path, tree.entries, tree.bytes) == ("/srv/output", 2, 3)
        expected = M.Manifest.from_entries([
            M.Entry(path=".", type="dir", mode=0o755, uid=0, gid=0),
            M.Entry(path="result.txt", type="file", mode=0o644, uid=0, gid=0, size=3,
                    sha256=hashlib.sha256(b"42\n").hexdigest())])
        assert tree.root_digest == expected.root_digest
        assert result.to_json()["snapshot"]["carried"][0]["path"] == "/srv/output"

    def test_attestation_covers_carried_tree(self, engine: Engine, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
        """A signed verdict under a carrying policy names each carried directory as a further
        subject, with the digest the verdict recorded."""
        self.carry_policy(tmp_path)
        agent = write_agent(tmp_path, "mkdir -p /srv/output && echo 42 > /srv/output/r.txt\n")
        task = self.task(tmp_path)
        assert main(["keygen", str(tmp_path / "signer")]) == EXIT_PASS
        envelope = tmp_path / "verdict.intoto.json"
        main(["run", task.path, "--agent-script", str(agent), "--policy",
              str(tmp_path / "carry.toml"), "--json", "--sign", str(tmp_path / "signer.key"),
              "--attest", str(envelope)])
        result = json.loads(capsys.readouterr().out)
        assert main(["attest", "verify", str(envelope), "--pubkey",
                     str(tmp_path / "signer.pub"), "--json"]) == EXIT_PASS
        verified = json.loads(capsys.readouterr().out)
        [tree] = result["snapshot"]["carried"]
        assert verified["carried"] == [{"path": "/srv/output", "digest": tree["root_digest"]}]
        assert verified["subject"]["digest"] == result["snapshot"]["root_digest"]

    def test_export_and_regrade_warn_carried_trees_are_left_out(
            self, engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Snapshot files hold the workspace only: exporting a kept trial that carried a
        directory warns, and so does regrading it, whose verdict then lacks the directory."""
        self.carry_policy(tmp_path)
        agent = write_agent(tmp_path, "mkdir -p /srv/output && echo 42 > "
                                      "/srv/output/result.txt\n")
        task = self.task(tmp_path)
        policy = str(tmp_path / "carry.toml")
        code = main(["run", task.path, "--agent-script", str(agent), "--policy", policy,
                     "--json", "--keep"])
        out, err = capsys.readouterr()
        trial_id = json.loads(out)["trial_id"]
        snapshot = tmp_path / "snap.tar.gz"
        try:
            assert code == EXIT_PASS, err
            assert main(["snapshot", "export", trial_id, "-o", str(snapshot)]) == EXIT_PASS
            err = capsys.readouterr().err
            assert "warning: the trial also carried directories outside its workspace" in err
        finally:
            assert main(["gc", "--trial", trial_id, "--all"]) == EXIT_PASS
        capsys.readouterr()
        code = main(["regrade", str(snapshot), task.path, "--policy", policy])
        err = capsys.readouterr().err
        assert "warning: carried directories (/srv/output) are not part of snapshot files" in err
        assert code == EXIT_FAIL, err  # the test finds no /srv/output/result.txt

    def test_carried_tree_modified_during_verification_is_error(self, engine: Engine,
                                                                 tmp_path: Path) -> None:
        """A carried directory that changes between verification and the re-check makes the
        verdict `error`, naming the directory and the path (test-only hook)."""
        def tamper(eng: Engine, snap: snapshots.Snapshot) -> None:
            trial_id = snap.volume.split("-")[1]
            put_file(eng, L.resource_name(trial_id, "carry") + "-0", trial_id, "result.txt",
                     b"43\n", suffix="-tamper")

        body = "mkdir -p /srv/output && echo 42 > /srv/output/result.txt\n"
        result = self.run(engine, tmp_path, self.carry_policy(tmp_path), body,
                          after_split=tamper)
        assert result.verdict == "error" and result.reward is None, result
        assert result.error is not None
        assert result.error.startswith("carried directory /srv/output: snapshot modified "
                                       "during verification: changed result.txt")

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
