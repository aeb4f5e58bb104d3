"""Regrading: the pristine verifier of a task (possibly with newer tests) run again on a
snapshot file, with the old verdict and the new one in one document (``fcv.regrade/v1``).

The snapshot is imported (validated member by member) into a labelled volume, the task image
is built afresh, and the split verifier runs exactly as in a trial: read-only snapshot, empty
``/logs/verifier``, the scan's findings and the policy, and the snapshot's manifest checked
unchanged afterwards. No agent runs, so there are no ``docker diff`` or process findings.
Everything created is removed by label in ``finally``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from isolation import labels as L
from isolation import snapshot as snapshots
from isolation import snapshot_file as SF
from isolation.engine import Engine
from isolation.errors import FcvError, UsageError
from verifier import findings as F
from verifier import trial as T
from verifier.fresh import verify_split
from verifier.task import Task
from verifier.verdict import Finding, TrialResult

SCHEMA = "fcv.regrade/v1"
SNAPSHOT_METHOD = "import"


@attrs.frozen(kw_only=True)
class Regrade:
    """The old verdict (as recorded, if known) and the new one on the same snapshot."""

    source: str
    root_digest: str
    old: Mapping[str, Any] | None
    new: TrialResult

    @property
    def verdict_changed(self) -> bool | None:
        if self.old is None:
            return None
        return self.old.get("verdict") != self.new.verdict

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "snapshot_file": self.source, "root_digest": self.root_digest,
                "old": dict(self.old) if self.old is not None else None,
                "new": self.new.to_json(), "verdict_changed": self.verdict_changed}


def regrade(engine: Engine, source: str, task: Task, *, old: Mapping[str, Any] | None = None,
            options: T.TrialOptions | None = None, limits: SF.ImportLimits | None = None,
            progress: T.Progress = lambda _: None) -> Regrade:
    """Import ``source`` and verify it with ``task``'s pristine verifier, under the policy
    ``options`` were made from (``TrialOptions.from_policy``; the agent is not used).

    ``old`` is the previous trial document; without it, the one embedded in the snapshot
    file (``result.json``) is used, if any. ``limits`` default to the policy's snapshot
    limits.

    Raises:
        ArchiveRefused: the snapshot file failed validation.
        UsageError: the task does not parse.
    Anything that stops the verification itself becomes verdict ``error``.
    """
    options = options or T.TrialOptions(agent=T.AgentSpec(kind="none"))
    workspace, threshold, policy = options.workspace, options.threshold, options.policy
    if limits is None:
        limits = SF.ImportLimits(max_files=options.max_files or SF.DEFAULT_LIMITS.max_files,
                                 max_bytes=options.max_bytes or SF.DEFAULT_LIMITS.max_bytes)
    _, verifier_env = T._env(task)  # validated before the first side effect
    trial_id = L.new_trial_id()
    image: str | None = None
    findings: tuple[Finding, ...] = ()
    try:
        with T.signals_as_interrupts():
            progress(f"regrade {trial_id}: importing {source}")
            imported = SF.import_file(
                engine, source, trial_id=trial_id, limits=limits,
                progress=lambda done, total: progress(SF.progress_line("importing", done,
                                                                       total)))
            before = imported.manifest
            old = old if old is not None else imported.result
            try:
                image = T.build_task_image(engine, task, trial_id=trial_id, progress=progress)
                workdir = T.resolve_workdir(engine, task, image)
                image_env, split_env, shell, hardening = T.verifier_setup(
                    engine, task, image, options, trial_id=trial_id, verifier_env=verifier_env)
                scan_error = None
                scanned: list[Finding] = []
                try:
                    scanned = T.scan_tree(engine, imported.volume, path=workdir, image=image,
                                          trial_id=trial_id, protected=options.protected_paths)
                except FcvError as e:
                    scan_error = T.SCAN_FAILED + str(e)
                findings = F.cap([*scanned, *F.from_environment({**image_env, **split_env},
                                                                workdir=workdir)])
                volume, read_only = imported.volume, True
                if workspace == "scratch":
                    snap = snapshots.Snapshot(method="volume", volume=imported.volume,
                                              workdir=workdir)
                    volume = snapshots.scratch_view(engine, snap, trial_id=trial_id,
                                                    helper_image=image)
                    read_only = False
                progress("verifying in a pristine container (split)")
                verification = verify_split(
                    engine, trial_id=trial_id, image_id=image, workspace_volume=volume,
                    workdir=workdir, tests_dir=task.tests_dir, hardening=hardening,
                    user=task.verifier.user, environment=split_env,
                    timeout_s=task.verifier.timeout_sec, threshold=threshold,
                    read_only=read_only, shell=shell)
                j = verification.judgement
                result = TrialResult(trial_id=trial_id, task=task.name, mode="split",
                                     snapshot_method=SNAPSHOT_METHOD, verdict=j.verdict,
                                     reward=j.reward, rewards=j.rewards, error=j.error,
                                     verifier=verification.phase, task_image=image,
                                     findings=findings, policy=options.policy_ref)
                result = T.apply_policy(result, policy, scan_error=scan_error)
                if workspace == "ro":
                    result = T.hint_read_only(result, verification, workdir=workdir)
                result = T.recheck_snapshot(engine, result, before, volume=imported.volume,
                                            trial_id=trial_id, manifest_error=None)
            except UsageError:
                raise
            except FcvError as e:
                result = TrialResult(trial_id=trial_id, task=task.name, mode="split",
                                     snapshot_method=SNAPSHOT_METHOD, verdict="error",
                                     error=e.diagnostics(), task_image=image, findings=findings,
                                     policy=options.policy_ref)
            result = attrs.evolve(result, snapshot=T.record(before))
            progress(f"regrade: {result.verdict}")
            return Regrade(source=source, root_digest=before.root_digest, old=old, new=result)
    finally:
        try:
            T.cleanup(engine, trial_id)
        except FcvError as e:
            progress(f"could not remove every resource of {trial_id} ({e}); `fcv gc` will")
