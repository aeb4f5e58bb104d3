"""One trial: build the task image, run the agent, freeze, snapshot, verify, clean up.

``run_trial`` produces the verdicts asked for (split, same, or both) from ONE agent run. The
split verdict is always computed first, on a snapshot taken while the agent is frozen, so
nothing the same-container run does (it thaws the agent) can reach it.

Every resource carries ``fcv.trial=<id>`` and is removed by label in ``finally`` (also on
errors, Ctrl-C and SIGTERM) unless ``keep`` is set.
"""

from __future__ import annotations

import os
import posixpath
import shlex
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import attrs

from isolation import disk, manifest, scan
from isolation import labels as L
from isolation import snapshot as snapshots
from isolation.agent import Process, Sandbox
from isolation.engine import Engine, ExecResult
from isolation.errors import (
    AgentOutOfMemory,
    BuildError,
    EngineError,
    FcvError,
    ImageMissing,
    TaskError,
    UsageError,
)
from isolation.hardening import Hardening
from verifier import environment
from verifier import findings as F
from verifier.fresh import Verification, detect_shell, verify_split
from verifier.policy import Policy
from verifier.rewards import VerifierLogs
from verifier.same import verify_same
from verifier.task import Task, resolve_env
from verifier.verdict import CarriedRecord, Finding, PhaseRecord, SnapshotRecord, TrialResult

AGENT_KINDS = ("oracle", "none", "script")
WORKSPACE_MODES = ("ro", "scratch")
#: When a task sets no [agent].timeout_sec.
DEFAULT_AGENT_TIMEOUT_S = 600.0
AGENT_SCRIPT_DIR = "/fcv-agent"
#: How long cleanup waits for an engine that stopped answering (a restarting daemon) before
#: leaving the trial's resources to `fcv gc`.
CLEANUP_ENGINE_WAIT_S = 30.0

Progress = Callable[[str], None]
#: Called with the engine and the snapshot between the split verification and the re-check of
#: the snapshot's manifest. Tests only (``run_trial(_after_split=...)``), to simulate a
#: snapshot modified during verification; nothing in the CLI reaches it.
AfterSplitHook = Callable[[Engine, snapshots.Snapshot], None]


@attrs.frozen(kw_only=True)
class AgentSpec:
    """Which agent acts in the sandbox."""

    kind: str = attrs.field(validator=attrs.validators.in_(AGENT_KINDS))
    script: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.kind == "script") != (self.script is not None):
            raise ValueError("an agent script is given exactly when kind is 'script'")

    @classmethod
    def parse(cls, agent: str | None, script: str | None) -> AgentSpec:
        """From the CLI's ``--agent`` / ``--agent-script``.

        Raises:
            UsageError: both or neither given, an unknown agent, or a script that is not a file.
        """
        if (agent is None) == (script is None):
            raise UsageError("give exactly one of --agent (oracle|none) or --agent-script PATH")
        if script is not None:
            if not os.path.isfile(script):
                raise UsageError(f"{script}: agent script does not exist or is not a file")
            return cls(kind="script", script=os.path.abspath(script))
        if agent not in ("oracle", "none"):
            raise UsageError(f"--agent: expected oracle or none, got {agent!r}")
        return cls(kind=str(agent))

    def describe(self) -> str:
        return self.script if self.kind == "script" and self.script else self.kind


def _to_tuple(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen(kw_only=True)
class TrialOptions:
    agent: AgentSpec
    modes: tuple[str, ...] = ("split",)
    snapshot_method: str = attrs.field(default="volume",
                                       validator=attrs.validators.in_(snapshots.METHODS))
    workspace: str = attrs.field(default="ro", validator=attrs.validators.in_(WORKSPACE_MODES))
    keep: bool = False
    threshold: float = 1.0
    hardening: Hardening = attrs.field(factory=Hardening)
    verifier_hardening: Hardening = attrs.field(factory=Hardening)
    policy: F.Policy = attrs.field(factory=F.Policy)
    #: Opt-in verifier mitigations (names from verifier.environment.OPT_IN).
    mitigations: tuple[str, ...] = attrs.field(
        default=(), converter=_to_tuple,
        validator=attrs.validators.deep_iterable(attrs.validators.in_(tuple(environment.OPT_IN))))
    #: Paths a workspace symlink must not lead to (the policy's findings.protected_paths).
    protected_paths: tuple[str, ...] = attrs.field(default=F.PRIVATE_PATHS, converter=_to_tuple)
    #: fcv's verifier environment defaults (off only under an unsafe_* policy key).
    safe_defaults: bool = True
    #: Directories outside the workspace carried to the verifier read-only (workspace.carry).
    carry: tuple[str, ...] = attrs.field(default=(), converter=_to_tuple)
    #: Disk limits on what the agent leaves: workspace plus writable layer, and files.
    max_bytes: int | None = None
    max_files: int | None = None
    #: What the verdict records about the policy: name, digest, and CLI overrides.
    policy_ref: Mapping[str, Any] | None = None

    @classmethod
    def from_policy(cls, policy: Policy, *, agent: AgentSpec, modes: tuple[str, ...] = ("split",),
                    keep: bool = False, snapshot_method: str | None = None,
                    workspace: str | None = None, threshold: float | None = None,
                    mitigations: Iterable[str] = ()) -> TrialOptions:
        """Options from a policy; a value given here overrides the policy's and is recorded
        with the verdict as an override."""
        overrides: dict[str, Any] = {}
        if snapshot_method is not None and snapshot_method != policy.snapshot_method:
            overrides["snapshot.method"] = snapshot_method
        if workspace is not None and workspace != policy.workspace_mode:
            overrides["workspace.mode"] = workspace
        if threshold is not None and threshold != policy.threshold:
            overrides["verdict.threshold"] = threshold
        extra = [m for m in mitigations if m not in policy.mitigations]
        if extra:
            overrides["environment.mitigations"] = [*policy.mitigations, *extra]
        return cls(agent=agent, modes=modes, keep=keep,
                   snapshot_method=snapshot_method or policy.snapshot_method,
                   workspace=workspace or policy.workspace_mode,
                   threshold=policy.threshold if threshold is None else threshold,
                   hardening=policy.agent, verifier_hardening=policy.verifier,
                   policy=policy.findings, mitigations=(*policy.mitigations, *extra),
                   protected_paths=policy.protected_paths, safe_defaults=policy.safe_defaults,
                   max_bytes=policy.max_bytes, max_files=policy.max_files, carry=policy.carry,
                   policy_ref={**policy.reference(), "overrides": overrides})


@attrs.frozen(kw_only=True)
class AgentOutcome:
    phase: PhaseRecord
    output: bytes
    #: Set when the disk watch froze the agent over the policy's limit.
    limit: Finding | None = None
    #: The processes seen when the watch froze the agent.
    processes: tuple[Process, ...] = ()


@attrs.frozen(kw_only=True)
class Trial:
    """The verdicts of one trial, by mode, and what the agent and the verifiers printed."""

    trial_id: str
    results: Mapping[str, TrialResult]
    #: The agent's combined output (its last MiB).
    agent_output: bytes = b""
    #: What each verifier left in /logs/verifier (test-stdout.txt, reward files, ...).
    verifier_logs: Mapping[str, VerifierLogs] = attrs.field(factory=dict)


def build_task_image(engine: Engine, task: Task, *, trial_id: str,
                     progress: Progress) -> str:
    """The task image's ID: the prebuilt ``[environment].docker_image`` or a fresh build of
    ``environment/Dockerfile`` with no network. The image is never modified afterwards.

    Raises:
        ImageMissing: the named prebuilt image is not in the engine (no registry to pull from).
        BuildError: the Dockerfile failed; the message names the failing step.
    """
    env = task.environment
    if env.docker_image:
        image_id = engine.image_id(env.docker_image)
        if image_id is None:
            raise ImageMissing(
                f"{task.toml_path}: [environment].docker_image: image {env.docker_image!r} is "
                "not in the engine and fcv never pulls from a registry; build or load it first")
        return image_id
    assert task.dockerfile is not None
    context = os.path.dirname(task.dockerfile)
    progress(f"building task image from {task.dockerfile}")
    try:
        return engine.build(context, dockerfile=os.path.basename(task.dockerfile),
                            labels=L.trial_labels(trial_id, "task-image"),
                            timeout_s=env.build_timeout_sec)
    except BuildError as e:
        raise BuildError(_describe_build_failure(task.dockerfile, e)) from None


def _describe_build_failure(dockerfile: str, error: BuildError) -> str:
    """Name the failing instruction by its line in the task's Dockerfile (the engine's own
    step numbers count steps fcv adds, so they would mislead)."""
    instruction: str | None = None
    output: list[str] = []
    for entry in error.build_log or []:
        text = str(entry.get("stream", "")).strip()
        if text.startswith("Step ") and " : " in text:
            instruction, output = text.split(" : ", 1)[1].strip(), []
        elif text and not text.startswith(("--->", "Removing intermediate container")):
            output.append(text)
    where = ""
    if instruction:
        where = f" at `{instruction}`"
        try:
            with open(dockerfile, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, start=1):
                    if " ".join(line.split()).lower() == " ".join(instruction.split()).lower():
                        where = f" at line {number} `{instruction}`"
                        break
        except OSError:
            pass
    tail = "\n    ".join(output[-5:])
    message = f"{dockerfile}: build failed{where}: {error}"
    return message + (f"\n    {tail}" if tail else "")


def resolve_workdir(engine: Engine, task: Task, image_id: str) -> str:
    """``[environment].workdir``, else the image's WorkingDir.

    Raises:
        TaskError: neither is set.
    """
    if task.environment.workdir:
        workdir = posixpath.normpath(task.environment.workdir)
    else:
        workdir = posixpath.normpath(
            (engine.inspect_image(image_id).get("Config") or {}).get("WorkingDir") or "/")
    if workdir == "/":
        raise TaskError(task.toml_path, "no workspace: set [environment].workdir or WORKDIR in "
                        "environment/Dockerfile (fcv snapshots that directory)",
                        field="[environment].workdir")
    for private in ("/tests", "/logs", "/solution", AGENT_SCRIPT_DIR):
        if workdir == private or workdir.startswith(private + "/") or \
                private.startswith(workdir + "/"):
            raise TaskError(task.toml_path, f"workspace {workdir} overlaps {private}, which "
                            "only fcv and the verifier may write", field="[environment].workdir")
    return workdir


def run_agent(box: Sandbox, task: Task, agent: AgentSpec, *, progress: Progress,
              max_bytes: int | None = None) -> AgentOutcome:
    """Run the agent as ``[agent].user`` in the workdir, stopping at ``[agent].timeout_sec``,
    or freezing it at once when its writes cross ``max_bytes`` (watched while it runs).

    A timed-out agent is recorded, not fatal: verification still runs on what it left."""
    timeout = task.agent.timeout_sec or DEFAULT_AGENT_TIMEOUT_S
    if agent.kind == "none":
        return AgentOutcome(phase=PhaseRecord(exit_code=None, timed_out=False, duration_s=0.0),
                            output=b"")
    if agent.kind == "oracle":
        if task.solution_dir is None or task.solve_sh is None:
            raise TaskError(os.path.join(task.path, "solution", "solve.sh"),
                            "--agent oracle needs solution/solve.sh")
        box.upload_dir(task.solution_dir, "/solution", executable=("solve.sh",))
        command = "/solution/solve.sh"
    else:
        assert agent.script is not None
        name = os.path.basename(agent.script)
        with open(agent.script, "rb") as f:
            box.upload_bytes(f"{AGENT_SCRIPT_DIR}/{name}", f.read(), mode=0o755)
        command = shlex.quote(f"{AGENT_SCRIPT_DIR}/{name}")
    progress(f"agent {agent.describe()} running (timeout {timeout:g}s)")
    stop = threading.Event()
    frozen: list[Process] = []

    def exceeded(usage: disk.Usage) -> None:
        frozen.extend(box.freeze())
        stop.set()

    watch = None if max_bytes is None else disk.DiskWatch(
        box.engine, container=box.container_id, volume=box.workspace_volume,
        trial_id=box.trial_id, max_bytes=max_bytes, on_exceeded=exceeded)
    if watch is None:
        result: ExecResult = box.exec(["sh", "-c", command], timeout_s=timeout)
    else:
        with watch:
            result = box.exec(["sh", "-c", command], timeout_s=timeout, stop=stop)
    limit = None
    if watch is not None and watch.exceeded is not None:
        usage = watch.exceeded
        limit = F.finding("disk-limit-exceeded", box.workdir,
                          f"the agent wrote {usage.total} bytes (workspace {usage.workspace}, "
                          f"writable layer {usage.writable_layer}) > snapshot.max_bytes "
                          f"{max_bytes}; it was frozen and the snapshot is not verified")
        progress(f"agent stopped: {limit.message}")
    elif result.timed_out:
        progress(f"agent timed out after {timeout:g}s; verifying what it left")
    return AgentOutcome(phase=PhaseRecord(exit_code=result.exit_code,
                                          timed_out=result.timed_out,
                                          duration_s=result.duration_s,
                                          oom_killed=result.oom_killed),
                        output=result.output, limit=limit, processes=tuple(frozen))


def check_agent(phase: PhaseRecord, task: Task) -> None:
    """Refuse to judge the work of an agent the OOM killer cut short.

    Raises:
        AgentOutOfMemory: an OOM kill happened in the agent's container during its run.
    """
    if phase.oom_killed:
        limit = task.environment.memory_mb
        where = (f"its memory limit ([environment].memory_mb = {limit})" if limit
                 else "its memory limit")
        status = "" if phase.exit_code is None else f", exit {phase.exit_code}"
        raise AgentOutOfMemory(f"agent was OOM-killed: a process of the agent exceeded {where}"
                               f"{status}; its work is not judged")


def _env(task: Task) -> tuple[dict[str, str], dict[str, str]]:
    """(container env, verifier env): [environment].env, then + [verifier].env."""
    base = resolve_env(task.environment.env, source=task.toml_path, field="[environment].env")
    extra = resolve_env(task.verifier.env, source=task.toml_path, field="[verifier].env")
    return base, {**base, **extra}


def _result(trial_id: str, task: Task, mode: str, options: TrialOptions, *,
            agent: PhaseRecord | None, verification: Verification | None, image: str | None,
            findings: tuple[Finding, ...], error: str | None = None) -> TrialResult:
    if verification is not None and error is None:
        j = verification.judgement
        return TrialResult(trial_id=trial_id, task=task.name, mode=mode,
                           snapshot_method=options.snapshot_method, verdict=j.verdict,
                           reward=j.reward, rewards=j.rewards, error=j.error, agent=agent,
                           verifier=verification.phase, task_image=image, findings=findings,
                           policy=options.policy_ref)
    return TrialResult(trial_id=trial_id, task=task.name, mode=mode,
                       snapshot_method=options.snapshot_method, verdict="error",
                       error=error or "verification did not run", agent=agent,
                       verifier=verification.phase if verification else None,
                       task_image=image, findings=findings, policy=options.policy_ref)


SCAN_FAILED = "workspace scan failed, so the policy could not be applied: "


def scan_tree(engine: Engine, volume: str, *, path: str, image: str, trial_id: str,
              protected: Sequence[str] = F.PRIVATE_PATHS,
              max_files: int | None = None) -> list[Finding]:
    """The findings of one tree the verifier will see at ``path`` (the workspace or a carried
    directory): the snapshot scan, with each symlink resolved by the engine in a never-started
    container of ``image``. Over ``max_files`` entries the scan stops, links are not resolved,
    and a ``file-limit-exceeded`` finding comes first.

    Raises:
        EngineError: the scan did not complete.
    """
    report = scan.scan_volume(engine, volume, trial_id=trial_id, max_entries=max_files)
    if report.summary.get("truncated"):
        limit = F.finding("file-limit-exceeded", path,
                          f"more than {max_files} entries (snapshot.max_files); the snapshot "
                          "is not verified")
        return [limit, *F.from_scan(report.entries, workdir=path, protected=protected)]
    resolved = scan.resolve_links(engine, report.entries, trial_id=trial_id, image=image,
                                  volume=volume, workdir=path)
    return F.from_scan(report.entries, workdir=path, resolved=resolved, protected=protected)


def collect_findings(engine: Engine, box: Sandbox, snap: snapshots.Snapshot,
                     processes: list[Process], *, trial_id: str,
                     protected: tuple[str, ...] = F.PRIVATE_PATHS,
                     max_files: int | None = None,
                     carried: Iterable[snapshots.Carried] = ()) -> tuple[tuple[Finding, ...],
                                                                        str | None]:
    """Findings from the diff, the scans of the snapshot and of each carried tree (judged
    alike: both reach the verifier), and the processes at freeze time; and the reason the scan
    failed (None when it completed). Over ``max_files`` entries is a limit finding
    (``max_bytes`` is checked with the manifest: :func:`snapshot_manifest_within`)."""
    carried = list(carried)
    diff = snap.diff if snap.method == "commit" else tuple(engine.diff(box.container_id))
    scan_error = None
    scanned: list[Finding] = []
    try:
        for volume, path in [(snap.volume, box.workdir), *((t.volume, t.path) for t in carried)]:
            scanned.extend(scan_tree(engine, volume, path=path, image=box.image_id,
                                     trial_id=trial_id, protected=protected,
                                     max_files=max_files))
    except EngineError as e:
        scan_error = SCAN_FAILED + str(e)
    limits = over_limits(scanned)
    found = [*F.from_diff(diff, workdir=box.workdir, carried=[t.path for t in carried]),
             *(f for f in scanned if f.code not in F.LIMIT_CODES),
             *F.from_processes([(p.pid, p.command) for p in box.leftover(processes)])]
    return (*limits, *F.cap(found)), scan_error


def verifier_setup(engine: Engine, task: Task, image: str, options: TrialOptions, *,
                   trial_id: str, verifier_env: Mapping[str, str]
                   ) -> tuple[dict[str, str], dict[str, str], list[str], Hardening]:
    """What the split verifier of ``image`` runs with: the image's ENV, the verifier's
    environment under the policy, the shell (decided on a never-started container of the
    pristine image) and its hardening with the task's own limits."""
    image_env = environment.image_env(engine.inspect_image(image)["Config"].get("Env"))
    split_env = environment.split_environment(image_env, verifier_env,
                                              opt_in=options.mitigations,
                                              safe_defaults=options.safe_defaults)
    shell = detect_shell(engine, image, trial_id=trial_id)
    hardening = options.verifier_hardening.with_limits(memory_mb=task.environment.memory_mb,
                                                       cpus=task.environment.cpus)
    return image_env, split_env, shell, hardening


def over_limits(findings: Iterable[Finding]) -> list[Finding]:
    """The findings that put a snapshot over the policy's limits."""
    return [f for f in findings if f.code in F.LIMIT_CODES]


def apply_policy(result: TrialResult, policy: F.Policy, *, scan_error: str | None) -> TrialResult:
    """The split verdict after the policy: a finding it fails on turns pass into fail; a scan
    that did not complete makes the verdict error (the policy could not be checked)."""
    if result.verdict == "error":
        return result
    if scan_error is not None:
        return attrs.evolve(result, verdict="error", error=scan_error)
    violations = set(policy.violations(result.findings))
    if not violations:
        return result
    marked = tuple(attrs.evolve(f, fails_verdict=True) if f in violations else f
                   for f in result.findings)
    return attrs.evolve(result, verdict="fail", findings=marked)


def hint_read_only(result: TrialResult, verification: Verification, *,
                   workdir: str) -> TrialResult:
    """A split verdict that is not a pass, from tests that tried to write into the read-only
    snapshot, says so: such a task needs ``--workspace scratch``."""
    stdout = verification.logs.files.get("test-stdout.txt", b"")
    if result.verdict == "pass" or b"Read-only file system" not in stdout:
        return result
    hint = F.finding("verifier-wrote-workspace", workdir,
                     "the tests tried to write into the read-only snapshot (see "
                     "test-stdout.txt); if the task needs that, run with --workspace scratch")
    return attrs.evolve(result, findings=(*result.findings, hint))


class _Scan:
    """``collect_findings`` in a background thread; :meth:`result` joins it."""

    def __init__(self, work: Callable[[], tuple[tuple[Finding, ...], str | None]]) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fcv-scan")
        self._future = self._pool.submit(work)
        self._pool.shutdown(wait=False)

    def result(self) -> tuple[tuple[Finding, ...], str | None]:
        try:
            return self._future.result()
        except FcvError as e:
            return (), SCAN_FAILED + str(e)


def _over_limits(trial_id: str, task: Task, options: TrialOptions, agent: PhaseRecord | None,
                 image: str | None, findings: tuple[Finding, ...]) -> TrialResult:
    """The split verdict of a snapshot over the policy's limits: fail, the limits marked."""
    marked = tuple(attrs.evolve(f, fails_verdict=True) if f.code in F.LIMIT_CODES else f
                   for f in findings)
    return TrialResult(trial_id=trial_id, task=task.name, mode="split",
                       snapshot_method=options.snapshot_method, verdict="fail", agent=agent,
                       task_image=image, findings=marked, policy=options.policy_ref)


def _manifest_within_files(engine: Engine, volume: str, *, trial_id: str,
                           max_files: int | None, path: str, where: str = "",
                           what: str = "the snapshot manifest"
                           ) -> tuple[manifest.Manifest | None, str | None, list[Finding]]:
    """The manifest of one tree (or why it could not be computed), counting no further than
    ``max_files`` entries (so a hostile snapshot cannot exhaust memory): past that, a
    ``file-limit-exceeded`` finding at ``path``. ``where``/``what`` name the tree in
    messages."""
    try:
        return manifest.of_volume(engine, volume, trial_id=trial_id,
                                  max_entries=max_files), None, []
    except manifest.TooManyEntries:
        return None, None, [F.finding("file-limit-exceeded", path,
                                      f"more than {max_files} entries{where} "
                                      "(snapshot.max_files); the snapshot is not verified")]
    except FcvError as e:
        return None, f"could not compute {what}: {e.diagnostics()}", []


def snapshot_manifest_within(engine: Engine, box: Sandbox, volume: str, *, trial_id: str,
                             max_files: int | None, max_bytes: int | None
                             ) -> tuple[manifest.Manifest | None, str | None, list[Finding]]:
    """The snapshot's manifest (or why it could not be computed), and the limit findings it
    shows: more than ``max_files`` entries, or more than ``max_bytes`` in files plus the
    writable layer."""
    m, error, limit = _manifest_within_files(engine, volume, trial_id=trial_id,
                                             max_files=max_files, path=box.workdir)
    if m is not None and max_bytes is not None:
        layer = engine.writable_layer_bytes(box.container_id)
        if m.bytes + layer > max_bytes:
            return m, None, [F.finding(
                "disk-limit-exceeded", box.workdir,
                f"{m.bytes + layer} bytes written (workspace files {m.bytes}, writable layer "
                f"{layer}) > snapshot.max_bytes {max_bytes}; the snapshot is not verified")]
    return m, error, limit


def snapshot_manifest(engine: Engine, volume: str, *,
                      trial_id: str) -> tuple[manifest.Manifest | None, str | None]:
    """The snapshot's manifest, or the reason it could not be computed."""
    try:
        return manifest.of_volume(engine, volume, trial_id=trial_id), None
    except FcvError as e:
        return None, f"could not compute the snapshot manifest: {e.diagnostics()}"


@attrs.frozen(kw_only=True)
class CarriedManifest:
    """A carried directory's volume and its manifest, taken before verification."""

    path: str
    volume: str
    manifest: manifest.Manifest


def carried_manifests(engine: Engine, carried: Iterable[snapshots.Carried], *, trial_id: str,
                      max_files: int | None
                      ) -> tuple[list[CarriedManifest], str | None, list[Finding]]:
    """The manifest of each carried directory (like the workspace's: streamed from a
    never-started container, stopping past ``max_files``), or why one could not be computed,
    and a ``file-limit-exceeded`` finding for a tree past the limit; on any failure no
    manifest at all, so a verdict never records (or signs) a partial list."""
    out: list[CarriedManifest] = []
    for tree in carried:
        m, error, limit = _manifest_within_files(
            engine, tree.volume, trial_id=trial_id, max_files=max_files, path=tree.path,
            where=f" in the carried directory {tree.path}",
            what=f"the manifest of the carried directory {tree.path}")
        if m is None:
            return [], error, limit
        out.append(CarriedManifest(path=tree.path, volume=tree.volume, manifest=m))
    return out, None, []


def record(m: manifest.Manifest, carried: Iterable[CarriedManifest] = ()) -> SnapshotRecord:
    return SnapshotRecord(root_digest=m.root_digest, entries=m.files, bytes=m.bytes,
                          carried=tuple(CarriedRecord(path=c.path,
                                                      root_digest=c.manifest.root_digest,
                                                      entries=c.manifest.files,
                                                      bytes=c.manifest.bytes)
                                        for c in carried))


def recheck_snapshot(engine: Engine, result: TrialResult, before: manifest.Manifest | None,
                     *, volume: str, trial_id: str, manifest_error: str | None,
                     carried: Iterable[CarriedManifest] = ()) -> TrialResult:
    """The split verdict after re-reading the snapshot's manifest, and each carried
    directory's: ``error`` when one differs from the one taken before verification (naming
    the first differing paths), or when a manifest could not be computed. Fail closed: an
    unverifiable snapshot never keeps a pass."""
    reason = manifest_error
    if before is not None and reason is None:
        trees = [("", volume, before), *((f"carried directory {t.path}: ", t.volume,
                                          t.manifest) for t in carried)]
        for label, tree_volume, tree_before in trees:
            after, reason = snapshot_manifest(engine, tree_volume, trial_id=trial_id)
            if after is not None:
                changed = manifest.check_unchanged(tree_before, after)
                reason = None if changed is None else label + changed
            if reason is not None:
                break
    if reason is None:
        return result
    return attrs.evolve(result, verdict="error", error=reason, reward=None, rewards=None)


def run_trial(engine: Engine, task: Task, options: TrialOptions, *,
              progress: Progress = lambda _: None, trial_id: str | None = None,
              _after_split: AfterSplitHook | None = None) -> Trial:
    """Run the agent once and produce a verdict per requested mode.

    Usage errors (a task that does not parse, a missing solution) raise :class:`UsageError`;
    anything that stops the verification itself becomes verdict ``error`` with its reason.
    ``_after_split`` is for tests only (see :data:`AfterSplitHook`).
    """
    trial_id = trial_id or L.new_trial_id()
    container_env, verifier_env = _env(task)  # validated before the first side effect
    results: dict[str, TrialResult] = {}
    image: str | None = None
    agent_phase: PhaseRecord | None = None
    agent_output = b""
    logs: dict[str, VerifierLogs] = {}
    findings: tuple[Finding, ...] = ()
    scanning: _Scan | None = None
    scan_error: str | None = None
    progress(f"trial {trial_id}: task {task.name}, agent {options.agent.describe()}")
    try:
        with signals_as_interrupts():
            try:
                image = build_task_image(engine, task, trial_id=trial_id, progress=progress)
                workdir = resolve_workdir(engine, task, image)
                for path in options.carry:
                    if path == workdir or path.startswith(workdir.rstrip("/") + "/") or \
                            workdir.startswith(path.rstrip("/") + "/"):
                        raise UsageError(f"policy workspace.carry: {path} overlaps the "
                                         f"workspace {workdir}, which is snapshotted anyway")
                image_env, split_env, shell, verifier_hardening = verifier_setup(
                    engine, task, image, options, trial_id=trial_id, verifier_env=verifier_env)
                hardening = options.hardening.with_limits(
                    memory_mb=task.environment.memory_mb, cpus=task.environment.cpus)
                if options.max_bytes is not None:
                    quota = disk.storage_quota(engine.info(), options.max_bytes)
                    if quota is not None:
                        hardening = attrs.evolve(hardening,
                                                 storage_quota_bytes=options.max_bytes)
                box = Sandbox.start(engine, trial_id=trial_id, image_id=image, workdir=workdir,
                                    hardening=hardening, user=task.agent.user,
                                    environment=container_env)
                agent = run_agent(box, task, options.agent, progress=progress,
                                  max_bytes=options.max_bytes)
                agent_phase, agent_output = agent.phase, agent.output
                check_agent(agent_phase, task)
                processes = [*agent.processes, *box.freeze()]
                progress(f"agent frozen; snapshot by {options.snapshot_method}")
                snap = snapshots.take(engine, box, method=options.snapshot_method,
                                      receiver_image=image)
                carried: list[snapshots.Carried] = []
                skipped: list[tuple[str, str]] = []
                if options.carry and agent.limit is None:
                    carried, skipped = snapshots.carry(engine, box, options.carry,
                                                       receiver_image=image)
                    progress(f"carried {len(carried)} path(s) to the verifier: "
                             + ", ".join(c.path for c in carried))
                extra = (*(F.finding("carry-skipped", path, f"{path} {reason}")
                           for path, reason in skipped),
                         *F.from_environment({**image_env, **split_env}, workdir=workdir))
                before: manifest.Manifest | None = None
                carried_before: list[CarriedManifest] = []
                manifest_error: str | None = None
                if agent.limit is not None:
                    # Over the limit already: scanning the oversized workspace is not needed
                    # to refuse it.
                    findings = (agent.limit, *extra)
                else:
                    # The scan (a container start, the slowest step here) runs alongside the
                    # manifest and the split verifier; its findings are joined before any
                    # verdict is formed and before the agent is thawed for the same mode.
                    scanning = _Scan(lambda: collect_findings(
                        engine, box, snap, processes, trial_id=trial_id,
                        protected=options.protected_paths, max_files=options.max_files,
                        carried=carried))
                    before, manifest_error, limit = snapshot_manifest_within(
                        engine, box, snap.volume, trial_id=trial_id,
                        max_files=options.max_files, max_bytes=options.max_bytes)
                    if carried and not limit and manifest_error is None:
                        carried_before, manifest_error, limit = carried_manifests(
                            engine, carried, trial_id=trial_id, max_files=options.max_files)
                    findings = (*limit, *extra)
            except UsageError:
                raise
            except FcvError as e:
                for mode in options.modes:
                    results[mode] = _result(trial_id, task, mode, options, agent=agent_phase,
                                            verification=None, image=image, findings=findings,
                                            error=e.diagnostics())
                return Trial(trial_id=trial_id, results=results, agent_output=agent_output)

            def settle() -> tuple[Finding, ...]:
                """Join the scan: every finding, limits first, each limit code once."""
                nonlocal findings, scan_error, scanning
                if scanning is not None:
                    found, scan_error = scanning.result()
                    scanning = None
                    seen = {f.code for f in over_limits(findings)}
                    findings = (*findings, *(f for f in found
                                             if f.code not in seen or
                                             f.code not in F.LIMIT_CODES))
                return findings

            for mode in sorted(options.modes, key=lambda m: m != "split"):
                try:
                    if mode == "split" and over_limits(findings):
                        results[mode] = _over_limits(trial_id, task, options, agent_phase,
                                                     image, settle())
                        progress(f"{mode}: fail (over the policy's limits, not verified)")
                        continue
                    if mode == "split":
                        progress("verifying in a pristine container (split)")
                        volume, read_only = snap.volume, True
                        if options.workspace == "scratch":
                            volume = snapshots.scratch_view(engine, snap, trial_id=trial_id,
                                                            helper_image=image)
                            read_only = False
                        verification = verify_split(
                            engine, trial_id=trial_id, image_id=image, workspace_volume=volume,
                            workdir=workdir, tests_dir=task.tests_dir,
                            hardening=verifier_hardening, user=task.verifier.user,
                            environment=split_env, timeout_s=task.verifier.timeout_sec,
                            threshold=options.threshold, read_only=read_only, shell=shell,
                            carried=[(c.volume, c.path) for c in carried])
                        if _after_split is not None:
                            _after_split(engine, snap)
                        if over_limits(settle()):
                            # A carried tree over the limit shows only in the scan.
                            results[mode] = _over_limits(trial_id, task, options, agent_phase,
                                                         image, findings)
                            progress(f"{mode}: fail (over the policy's limits)")
                            continue
                    else:
                        settle()  # before the agent is thawed: the scan reads its workspace
                        progress("verifying inside the agent's own container (same)")
                        verification = verify_same(
                            box, tests_dir=task.tests_dir, user=task.verifier.user,
                            environment=verifier_env, timeout_s=task.verifier.timeout_sec,
                            threshold=options.threshold, shell=shell)
                    logs[mode] = verification.logs
                    results[mode] = _result(trial_id, task, mode, options, agent=agent_phase,
                                            verification=verification, image=image,
                                            findings=findings)
                    if mode == "split":
                        results[mode] = apply_policy(results[mode], options.policy,
                                                     scan_error=scan_error)
                        if options.workspace == "ro":
                            results[mode] = hint_read_only(results[mode], verification,
                                                           workdir=workdir)
                        results[mode] = recheck_snapshot(
                            engine, results[mode], before, volume=snap.volume,
                            trial_id=trial_id, manifest_error=manifest_error,
                            carried=carried_before)
                except EngineError as e:
                    results[mode] = _result(trial_id, task, mode, options, agent=agent_phase,
                                            verification=None, image=image, findings=settle(),
                                            error=e.diagnostics())
                progress(f"{mode}: {results[mode].verdict}")
            if before is not None:
                results = {m: attrs.evolve(r, snapshot=record(before, carried_before))
                           for m, r in results.items()}
            return Trial(trial_id=trial_id, results=results, agent_output=agent_output,
                         verifier_logs=logs)
    finally:
        if options.keep:
            progress(f"--keep: resources labelled fcv.trial={trial_id} left in the engine; "
                     f"`fcv gc --trial {trial_id}` removes them")
        else:
            try:
                cleanup(engine, trial_id)
            except FcvError as e:
                # The verdict stands; what could not be removed is `fcv gc`'s to sweep.
                progress(f"could not remove every resource of trial {trial_id} ({e}); "
                         "`fcv gc` will")


def cleanup(engine: Engine, trial_id: str) -> None:
    """Remove every resource of a trial, ignoring further Ctrl-C/SIGTERM meanwhile, and
    waiting a while for an engine that stopped answering."""
    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    in_main = _in_main_thread()
    try:
        if in_main:
            for s in previous:
                signal.signal(s, signal.SIG_IGN)
        engine.remove_labelled(trial_id, engine_wait_s=CLEANUP_ENGINE_WAIT_S)
    finally:
        if in_main:
            for s, handler in previous.items():
                signal.signal(s, handler)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def signals_as_interrupts() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt so ``finally`` blocks clean up on both."""
    if not _in_main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)

