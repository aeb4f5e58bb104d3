"""Pure: trial results and their JSON documents (``fcv.trial/v1``, ``fcv.compare/v1``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from isolation.errors import EXIT_ERROR, EXIT_FAIL, EXIT_PASS

TRIAL_SCHEMA = "fcv.trial/v1"
COMPARE_SCHEMA = "fcv.compare/v1"
VERDICTS = ("pass", "fail", "error")
MODES = ("split", "same")
TABLE_FINDINGS = 8


@attrs.frozen(kw_only=True)
class PhaseRecord:
    """How the agent or the verifier phase ended."""

    exit_code: int | None
    timed_out: bool
    duration_s: float
    oom_killed: bool = False
    #: The signal of a kill fcv did not send (see :meth:`isolation.engine.Engine.run`).
    killed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"exit_code": self.exit_code, "timed_out": self.timed_out,
                "duration_s": round(self.duration_s, 3)}


@attrs.frozen(kw_only=True)
class Finding:
    """Something fcv noticed about the agent's behaviour or its workspace."""

    code: str
    severity: str
    path: str
    message: str
    #: Set when the policy turned the split verdict into ``fail`` because of this finding.
    fails_verdict: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "path": self.path,
                "message": self.message, "fails_verdict": self.fails_verdict}


@attrs.frozen(kw_only=True)
class CarriedRecord:
    """A directory the policy carried to the verifier beside the workspace
    (``workspace.carry``): its absolute path and its tree's manifest summary."""

    path: str
    root_digest: str
    entries: int
    bytes: int

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "root_digest": self.root_digest, "entries": self.entries,
                "bytes": self.bytes}


@attrs.frozen(kw_only=True)
class SnapshotRecord:
    """The snapshot a verdict was computed on: its manifest's root digest (see
    :mod:`isolation.manifest`), how many entries and how many bytes of file data, and the
    same for each carried directory."""

    root_digest: str
    entries: int
    bytes: int
    carried: tuple[CarriedRecord, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"root_digest": self.root_digest, "entries": self.entries, "bytes": self.bytes,
                "carried": [c.to_json() for c in self.carried]}


@attrs.frozen(kw_only=True)
class TrialResult:
    """One verdict on one agent state."""

    trial_id: str
    task: str
    mode: str = attrs.field(validator=attrs.validators.in_(MODES))
    snapshot_method: str
    verdict: str = attrs.field(validator=attrs.validators.in_(VERDICTS))
    reward: float | None = None
    rewards: Mapping[str, float] | None = None
    error: str | None = None
    agent: PhaseRecord | None = None
    verifier: PhaseRecord | None = None
    task_image: str | None = None
    findings: Sequence[Finding] = ()
    #: The policy the verdict was reached under: name, digest, and any CLI overrides.
    policy: Mapping[str, Any] | None = None
    #: The snapshot's manifest summary; None when it could not be computed.
    snapshot: SnapshotRecord | None = None

    def __attrs_post_init__(self) -> None:
        # Fail closed by construction: an error verdict has a reason, a pass has a finite reward.
        if self.verdict == "error" and not self.error:
            raise ValueError("an error verdict needs a reason")
        if self.verdict == "pass" and (self.reward is None or not math.isfinite(self.reward)):
            raise ValueError("a pass verdict needs a finite reward")
        if self.verdict != "error" and self.error is not None:
            raise ValueError(f"a {self.verdict} verdict cannot carry an error")

    @property
    def exit_code(self) -> int:
        return {"pass": EXIT_PASS, "fail": EXIT_FAIL}.get(self.verdict, EXIT_ERROR)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": TRIAL_SCHEMA,
            "trial_id": self.trial_id,
            "task": self.task,
            "mode": self.mode,
            "snapshot_method": self.snapshot_method,
            "verdict": self.verdict,
            "reward": self.reward,
            "rewards": dict(self.rewards) if self.rewards is not None else None,
            "error": self.error,
            "agent": _phase(self.agent),
            "verifier": _phase(self.verifier),
            "images": {"task": self.task_image},
            "findings": [f.to_json() for f in self.findings],
            "policy": dict(self.policy) if self.policy is not None else None,
            "snapshot": self.snapshot.to_json() if self.snapshot is not None else None,
        }


def _phase(record: PhaseRecord | None) -> dict[str, Any]:
    if record is None:
        return {"exit_code": None, "timed_out": False, "duration_s": None}
    return record.to_json()


@attrs.frozen(kw_only=True)
class Comparison:
    """The same-container and the split verdict on one frozen agent state."""

    same: TrialResult
    split: TrialResult

    @property
    def divergent(self) -> bool:
        return self.same.verdict != self.split.verdict

    @property
    def exit_code(self) -> int:
        if "error" in (self.same.verdict, self.split.verdict):
            return EXIT_ERROR
        return EXIT_PASS

    def explanation(self) -> str:
        """One line saying why the verdicts differ (or that they agree)."""
        same, split = self.same, self.split
        if not self.divergent:
            return f"both verdicts agree: {same.verdict}"
        if same.verdict == "pass" and split.verdict != "pass":
            enforced = [f for f in split.findings if f.fails_verdict]
            if enforced:
                f = enforced[0]
                return (f"the policy fails the split verdict on {f.code} at {f.path}: "
                        f"{f.message}")
            lead = ("the agent's own container passed what a pristine verifier "
                    f"{'failed' if split.verdict == 'fail' else 'could not verify'}")
            for severity in ("high", "medium", "low"):
                hits = [f for f in split.findings if f.severity == severity]
                if hits:
                    f = hits[0]
                    return (f"{lead}; it depends on state outside the workspace: {f.code} "
                            f"{f.path} ({f.message}): gamed, or the task is split-incompatible")
            return f"{lead}: the same-container verdict was gamed"
        if split.verdict == "pass":
            return ("only the pristine verifier passed: the agent's container broke its own "
                    "verification")
        return f"same={same.verdict}, split={split.verdict}"

    def to_json(self) -> dict[str, Any]:
        return {"schema": COMPARE_SCHEMA, "same": self.same.to_json(),
                "split": self.split.to_json(), "divergent": self.divergent}


def format_table(comparison: Comparison) -> str:
    """A side-by-side table for people (printed to stderr)."""
    rows = [("", "same-container", "split (fcv)")]

    def cell(t: TrialResult, what: str) -> str:
        if what == "verdict":
            return t.verdict.upper()
        if what == "reward":
            return "-" if t.reward is None else f"{t.reward:g}"
        if what == "verifier":
            if t.verifier is None:
                return "-"
            extra = " (timed out)" if t.verifier.timed_out else ""
            return f"exit {t.verifier.exit_code}, {t.verifier.duration_s:.2f}s{extra}"
        if what == "error":
            return t.error or "-"
        return "-"

    for what in ("verdict", "reward", "verifier", "error"):
        rows.append((what, cell(comparison.same, what), cell(comparison.split, what)))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    shown = comparison.split.findings[:TABLE_FINDINGS]
    for f in shown:
        mark = " (fails the split verdict)" if f.fails_verdict else ""
        lines.append(f"finding [{f.severity}] {f.code} {f.path}: {f.message}{mark}")
    if len(comparison.split.findings) > len(shown):
        lines.append(f"... {len(comparison.split.findings) - len(shown)} more findings in --json")
    lines.append(("DIVERGENT: " if comparison.divergent else "") + comparison.explanation())
    return "\n".join(lines)
