"""The pristine verifier: a new container from the untouched task image.

The snapshot is mounted read-only at the workspace path (or, with ``--workspace scratch``, a
writable overlay over it). Only now do the tests enter, through the archive API, into a
container that was created but not yet started; ``/logs/verifier`` is a fresh empty volume.
The container's one process is the test command, so nothing else runs there and nothing
outlives it; at ``[verifier].timeout_sec`` it is killed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from isolation import archive
from isolation import labels as L
from isolation.engine import ChunkReader, Engine, VolumeMount
from isolation.errors import EngineError
from isolation.hardening import Hardening
from verifier import rewards
from verifier.verdict import PhaseRecord

#: Harbor's verifier command, unchanged.
TEST_COMMAND = "(/tests/test.sh) > /logs/verifier/test-stdout.txt 2>&1"
TESTS_PATH = "/tests"
VERIFIER_LOGS = "/logs/verifier"


@attrs.frozen(kw_only=True)
class Verification:
    """What one verifier run produced: how it ended, what it left, and the judgement."""

    phase: PhaseRecord
    logs: rewards.VerifierLogs
    judgement: rewards.Judgement


def detect_shell(engine: Engine, image_id: str, *, trial_id: str) -> list[str]:
    """Harbor runs commands with ``bash -c``; images without bash (busybox) get ``sh -c``.

    Decided on a never-started container of the pristine image, never on the agent's."""
    probe = engine.create_container(
        image_id, ["true"], entrypoint=[], name=L.resource_name(trial_id, "probe") + "-shell",
        labels=L.trial_labels(trial_id, "probe"), host_config=Hardening().host_config())
    try:
        return ["bash", "-c"] if engine.path_exists(probe, "/bin/bash") else ["sh", "-c"]
    finally:
        engine.remove_container(probe)


def _fill_tests_and_logs(engine: Engine, *, trial_id: str, image_id: str, tests_dir: str,
                         logs_volume: str) -> str:
    """A volume holding the tests, and ``logs_volume`` made world-writable; returns the
    tests volume's name."""
    tests_volume = engine.create_volume(L.resource_name(trial_id, "tests"),
                                        labels=L.trial_labels(trial_id, "tests"))
    filler = engine.create_container(
        image_id, ["true"], entrypoint=[], name=L.resource_name(trial_id, "probe") + "-tests",
        labels=L.trial_labels(trial_id, "probe"), host_config=Hardening().host_config(),
        mounts=[VolumeMount(volume=tests_volume, target=TESTS_PATH, no_copy=True),
                VolumeMount(volume=logs_volume, target=VERIFIER_LOGS, no_copy=True)])
    try:
        engine.put_archive(filler, "/", archive.directory_tar(tests_dir, "tests",
                                                              executable=("test.sh",)))
        engine.put_archive(filler, "/logs", archive.dirs_tar({"verifier": 0o777}))
    finally:
        engine.remove_container(filler)
    return tests_volume


def collect(engine: Engine, container: str, phase: PhaseRecord, *,
            threshold: float) -> Verification:
    """Copy ``/logs/verifier`` out through the archive API (regular files only, capped) and
    judge it. A timed-out, OOM-killed or externally killed verifier is an ``error``, whatever
    it left behind."""
    try:
        stream, _ = engine.get_archive(container, VERIFIER_LOGS)
        with stream:
            logs = rewards.read_verifier_tar(ChunkReader(stream), root="verifier")
    except (EngineError, rewards.RewardError) as e:
        empty = rewards.VerifierLogs(files={}, truncated=frozenset(), skipped={})
        return Verification(phase=phase, logs=empty, judgement=rewards.error_judgement(
            f"could not read {VERIFIER_LOGS}: {e}"))
    if phase.timed_out:
        judgement = rewards.error_judgement(
            f"verifier timed out after {phase.duration_s:.1f}s ([verifier].timeout_sec)")
    elif phase.oom_killed:
        judgement = rewards.error_judgement("verifier was killed for exceeding its memory limit")
    elif phase.killed_by is not None:
        # Harbor counts the reward file whatever test.sh's exit code, and so does fcv: an exit
        # status of 128+N alone may be test.sh's own (`exit 137`, or its last command killed
        # by a signal) and must not turn an honest fail or pass into an error. What marks a
        # run cut short from outside is the engine's record of a kill request fcv did not
        # make (its `kill` event); a reward written before such a kill is not trusted.
        judgement = rewards.error_judgement(
            f"verifier container was killed from outside fcv (signal {phase.killed_by}) "
            "before test.sh finished; its reward is not trusted")
    else:
        judgement = rewards.judge(logs, threshold=threshold)
    return Verification(phase=phase, logs=logs, judgement=judgement)


def verify_split(
    engine: Engine,
    *,
    trial_id: str,
    image_id: str,
    workspace_volume: str,
    workdir: str,
    tests_dir: str,
    hardening: Hardening,
    user: str | None,
    environment: Mapping[str, str],
    timeout_s: float,
    threshold: float,
    read_only: bool = True,
    shell: Sequence[str],
    carried: Sequence[tuple[str, str]] = (),
) -> Verification:
    """Run ``tests/test.sh`` in a pristine container over the frozen workspace.

    ``workspace_volume`` is the snapshot (mounted read-only) or a scratch view of it (mounted
    writable with ``read_only=False``); ``carried`` are (volume, path) pairs mounted read-only.

    Raises:
        EngineError: if the engine refuses to create or start the verifier.
    """
    logs_volume = engine.create_volume(L.resource_name(trial_id, "verifier-logs"),
                                       labels=L.trial_labels(trial_id, "verifier-logs"))
    mounts = [VolumeMount(volume=workspace_volume, target=workdir, read_only=read_only),
              VolumeMount(volume=logs_volume, target=VERIFIER_LOGS),
              # Paths the policy carries from the agent (volume, path): always read-only.
              *(VolumeMount(volume=v, target=p, read_only=True) for v, p in carried)]
    if hardening.read_only_rootfs:
        # The engine refuses archive writes into a read-only root filesystem, so the tests
        # arrive on their own volume (mounted read-only) and /logs/verifier is prepared on
        # its volume, both through a container that is created and never started.
        mounts.append(VolumeMount(volume=_fill_tests_and_logs(
            engine, trial_id=trial_id, image_id=image_id, tests_dir=tests_dir,
            logs_volume=logs_volume), target=TESTS_PATH, read_only=True))
    container = engine.create_container(
        image_id,
        [*shell, TEST_COMMAND],
        entrypoint=[],
        name=L.resource_name(trial_id, "verifier"),
        labels=L.trial_labels(trial_id, "verifier"),
        host_config=hardening.host_config(),
        mounts=mounts,
        user=user,
        working_dir=workdir,
        environment=environment,
    )
    if not hardening.read_only_rootfs:
        engine.put_archive(container, "/", archive.directory_tar(tests_dir, "tests",
                                                                 executable=("test.sh",)))
        engine.put_archive(container, "/logs", archive.dirs_tar({"verifier": 0o777}))
    waited = engine.run(container, timeout_s=timeout_s)
    phase = PhaseRecord(exit_code=waited.exit_code, timed_out=waited.timed_out,
                        duration_s=waited.duration_s, oom_killed=waited.oom_killed,
                        killed_by=waited.killed_by)
    return collect(engine, container, phase, threshold=threshold)
