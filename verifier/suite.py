"""``fcv suite``: run a corpus of attack and honest cases and check every expectation.

Each case runs with ``compare`` (one agent run, both verdicts). Cases load and validate before
anything runs; trials run in parallel threads, one engine connection per thread. The reports
(JSON, JUnit XML, Markdown) are pure functions of the outcomes, so they can be tested without an
engine, and the Markdown table is deterministic (no timings) so the README can embed it.
"""

from __future__ import annotations

import os
import re
import threading
import time
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

import attrs

from isolation import labels as L
from isolation.engine import Engine
from isolation.errors import FcvError, UsageError
from verifier.catalogue import SUITE_SCHEMA as SCHEMA
from verifier.catalogue import THREAT_CLASSES
from verifier.policy import DEFAULT_POLICY, Policy
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, cleanup, run_trial
from verifier.verdict import VERDICTS, Comparison

CASE_FILE = "case.toml"
KINDS = ("attack", "honest")
EXPECTATIONS = (*VERDICTS, "any")
_KEYS = {"title", "kind", "threat", "row", "reference", "expect_same", "expect_split",
         "residual", "task", "agent", "workspace", "snapshot", "findings",
         "split_incompatible", "policy"}
#: What a ``[policy.NAME]`` table may change, and the reason it must give.
_OVERRIDE_KEYS = {"expect_same", "expect_split", "findings", "reason"}
_POLICY_NAME = re.compile(r"[a-z0-9][a-z0-9._-]*")


def _expectation(source: str, key: str, value: object) -> frozenset[str]:
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not values or not all(
            isinstance(v, str) and v in EXPECTATIONS for v in values):
        raise UsageError(f"{source}: {key}: expected one of {list(EXPECTATIONS)} or a list of "
                         f"them, got {value!r}")
    return frozenset(values)


@attrs.frozen(kw_only=True)
class Override:
    """A case's expectations under one named policy (a ``[policy.NAME]`` table), where that
    policy changes an outcome on purpose or by a known limit; ``reason`` says which."""

    reason: str
    expect_same: frozenset[str] | None = None
    expect_split: frozenset[str] | None = None
    findings: tuple[str, ...] | None = None


def _findings(source: str, key: str, codes: object) -> tuple[str, ...]:
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise UsageError(f"{source}: {key}: expected a list of finding codes")
    from verifier.findings import CODES
    bad = sorted(set(codes) - set(CODES))
    if bad:
        raise UsageError(f"{source}: {key}: unknown codes {bad}; known: {sorted(CODES)}")
    return tuple(codes)


def _overrides(source: str, tables: object) -> tuple[tuple[str, Override], ...]:
    if not isinstance(tables, dict):
        raise UsageError(f"{source}: policy: expected tables [policy.NAME]")
    out: dict[str, Override] = {}
    for name, table in tables.items():
        where = f"policy.{name}"
        if not _POLICY_NAME.fullmatch(name) or not isinstance(table, dict):
            raise UsageError(f"{source}: {where}: expected a table named after a policy "
                             "(lowercase letters, digits, '.', '_', '-')")
        unknown = sorted(set(table) - _OVERRIDE_KEYS)
        if unknown:
            raise UsageError(f"{source}: {where}: unknown keys {unknown}; allowed: "
                             f"{sorted(_OVERRIDE_KEYS)}")
        reason = table.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise UsageError(f"{source}: {where}.reason: required: why this policy changes "
                             "the outcome")
        if set(table) == {"reason"}:
            raise UsageError(f"{source}: {where}: changes nothing (give expect_same, "
                             "expect_split or findings)")
        out[name] = Override(
            reason=reason.strip(),
            expect_same=(_expectation(source, f"{where}.expect_same", table["expect_same"])
                         if "expect_same" in table else None),
            expect_split=(_expectation(source, f"{where}.expect_split", table["expect_split"])
                          if "expect_split" in table else None),
            findings=(_findings(source, f"{where}.findings", table["findings"])
                      if "findings" in table else None))
    return tuple(sorted(out.items()))


@attrs.frozen(kw_only=True)
class Case:
    """One corpus case: a task, an agent, and what each verdict must be."""

    path: str
    name: str
    kind: str
    title: str
    task_dir: str
    agent: AgentSpec
    expect_same: frozenset[str]
    expect_split: frozenset[str]
    residual: bool = False
    threat: str | None = None
    row: int | None = None
    reference: str | None = None
    workspace: str = "ro"
    snapshot: str = "volume"
    findings: tuple[str, ...] = ()
    split_incompatible: bool = False
    #: (policy name, expectations under it), where they differ from the default policy's.
    overrides: tuple[tuple[str, Override], ...] = ()
    #: The reason of the override in effect (see :meth:`under`), None for the base case.
    override_reason: str | None = None

    def under(self, policy: str) -> Case:
        """This case with the expectations of ``policy`` (the base ones when it has no
        ``[policy.NAME]`` table)."""
        o = dict(self.overrides).get(policy)
        if o is None:
            return self
        return attrs.evolve(
            self, override_reason=o.reason,
            expect_same=o.expect_same if o.expect_same is not None else self.expect_same,
            expect_split=o.expect_split if o.expect_split is not None else self.expect_split,
            findings=o.findings if o.findings is not None else self.findings)

    @classmethod
    def from_dir(cls, path: str, *, root: str | None = None) -> Case:
        """Load ``case.toml`` in ``path``.

        Raises:
            UsageError: the file is missing or a field is malformed (file and field named).
        """
        source = os.path.join(path, CASE_FILE)
        try:
            with open(source, "rb") as f:
                data = tomllib.load(f)
        except FileNotFoundError:
            raise UsageError(f"{source}: no case file") from None
        except tomllib.TOMLDecodeError as e:
            raise UsageError(f"{source}: not valid TOML: {e}") from None
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise UsageError(f"{source}: unknown keys {unknown}; allowed: {sorted(_KEYS)}")

        def text(key: str, default: str | None = None) -> str | None:
            value = data.get(key, default)
            if value is not None and not isinstance(value, str):
                raise UsageError(f"{source}: {key}: expected a string, got {value!r}")
            return value

        def flag(key: str) -> bool:
            value = data.get(key, False)
            if not isinstance(value, bool):
                raise UsageError(f"{source}: {key}: expected true or false, got {value!r}")
            return value

        parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
        kind = text("kind") or ("honest" if "honest" in parts else
                                "attack" if "attacks" in parts else None)
        if kind not in KINDS:
            raise UsageError(f"{source}: kind: expected one of {list(KINDS)} (or put the case "
                             f"under attacks/ or honest/), got {kind!r}")
        for key in ("title", "expect_same", "expect_split"):
            if key not in data:
                raise UsageError(f"{source}: {key}: required")
        title = text("title") or ""
        task_dir = os.path.normpath(os.path.join(path, text("task", "task") or "task"))
        if not os.path.isdir(task_dir):
            raise UsageError(f"{source}: task: {task_dir} is not a directory")
        agent_name = text("agent", "agent.sh" if kind == "attack" else "oracle") or "oracle"
        if agent_name in ("oracle", "none"):
            agent = AgentSpec(kind=agent_name)
        else:
            script = os.path.normpath(os.path.join(path, agent_name))
            if not os.path.isfile(script):
                raise UsageError(f"{source}: agent: {script} does not exist")
            agent = AgentSpec(kind="script", script=script)
        row = data.get("row")
        if row is not None and (not isinstance(row, int) or isinstance(row, bool) or row < 1):
            raise UsageError(f"{source}: row: expected a positive integer, got {row!r}")
        threat = text("threat")
        if threat is not None and threat not in THREAT_CLASSES:
            raise UsageError(f"{source}: threat: expected one of {sorted(THREAT_CLASSES)}, "
                             f"got {threat!r}")
        if kind == "attack" and (threat is None or row is None):
            raise UsageError(f"{source}: threat and row: required for an attack case")
        workspace = text("workspace", "ro") or "ro"
        snapshot = text("snapshot", "volume") or "volume"
        if workspace not in ("ro", "scratch"):
            raise UsageError(f"{source}: workspace: expected ro or scratch, got {workspace!r}")
        if snapshot not in ("volume", "commit"):
            raise UsageError(f"{source}: snapshot: expected volume or commit, got {snapshot!r}")
        codes = _findings(source, "findings", data.get("findings", []))
        overrides = _overrides(source, data.get("policy", {}))
        name = os.path.relpath(path, root) if root else os.path.basename(path)
        return cls(path=os.path.abspath(path), name=name, kind=kind, title=title,
                   task_dir=task_dir, agent=agent,
                   expect_same=_expectation(source, "expect_same", data["expect_same"]),
                   expect_split=_expectation(source, "expect_split", data["expect_split"]),
                   residual=flag("residual"), threat=threat, row=row,
                   reference=text("reference"), workspace=workspace, snapshot=snapshot,
                   findings=codes, split_incompatible=flag("split_incompatible"),
                   overrides=overrides)


def discover(paths: Iterable[str]) -> list[Case]:
    """Every case under ``paths`` (a directory holding ``case.toml`` is a case), sorted.

    Raises:
        UsageError: a path does not exist, holds no case, or a case does not load.
    """
    cases: list[Case] = []
    for top in paths:
        if not os.path.isdir(top):
            raise UsageError(f"{top}: not a directory")
        root = os.path.dirname(os.path.abspath(top).rstrip(os.sep))
        found = []
        for dirpath, dirnames, filenames in os.walk(top):
            if CASE_FILE in filenames:
                found.append(Case.from_dir(dirpath, root=root))
                dirnames[:] = []  # a case's own task/ is not a case
            dirnames.sort()
        if not found:
            raise UsageError(f"{top}: no {CASE_FILE} found below it")
        cases.extend(found)
    return sorted(cases, key=lambda c: c.name)


@attrs.frozen(kw_only=True)
class Outcome:
    """What one case produced, and which expectations it broke."""

    case: Case
    comparison: Comparison | None
    error: str | None
    violations: tuple[str, ...]
    duration_s: float

    @property
    def same(self) -> str:
        return self.comparison.same.verdict if self.comparison else "error"

    @property
    def split(self) -> str:
        return self.comparison.split.verdict if self.comparison else "error"


def check(case: Case, comparison: Comparison | None, error: str | None = None) -> list[str]:
    """The expectations a case's verdicts break (empty when all hold)."""
    if comparison is None:
        return [f"the case could not run: {error}"]
    violations = []
    for mode, expected, got in (("same", case.expect_same, comparison.same),
                                ("split", case.expect_split, comparison.split)):
        if "any" not in expected and got.verdict not in expected:
            reason = f" ({got.error})" if got.error else ""
            violations.append(f"{mode} verdict {got.verdict}{reason}, expected "
                              f"{' or '.join(sorted(expected))}")
    codes = {f.code for f in comparison.split.findings}
    for code in case.findings:
        if code not in codes:
            violations.append(f"finding {code} expected but not reported")
    if case.split_incompatible:
        outside = {"outside-workspace-change", "agent-process-at-freeze"} & codes
        if comparison.split.verdict == "pass":
            violations.append("split-incompatible case passed the split verdict")
        if not outside:
            violations.append("split-incompatible case: no finding names the change outside "
                              "the workspace")
    return violations


def run_case(engine: Engine, case: Case, *, trial_id: str,
             mitigations: Sequence[str] = (), policy: Policy | None = None) -> Outcome:
    """Run one case under ``policy`` and check it against that policy's expectations."""
    started = time.monotonic()
    policy = policy or Policy.load(DEFAULT_POLICY)
    case = case.under(policy.name)
    comparison: Comparison | None = None
    error: str | None = None
    try:
        task = Task.from_dir(case.task_dir)
        options = TrialOptions.from_policy(
            policy, agent=case.agent, modes=("split", "same"),
            snapshot_method=case.snapshot, workspace=case.workspace, mitigations=mitigations)
        trial = run_trial(engine, task, options, trial_id=trial_id)
        comparison = Comparison(same=trial.results["same"], split=trial.results["split"])
    except FcvError as e:
        error = e.diagnostics()
    return Outcome(case=case, comparison=comparison, error=error,
                   violations=tuple(check(case, comparison, error)),
                   duration_s=time.monotonic() - started)


def run_suite(cases: Sequence[Case], *, jobs: int = 1, mitigations: Sequence[str] = (),
              on_done: Callable[[Outcome, int, int], None] = lambda *_: None,
              connect: Callable[[], Engine] = Engine.connect,
              policy: Policy | None = None,
              trial_ids: Sequence[str] | None = None) -> list[Outcome]:
    """Run every case, ``jobs`` at a time; outcomes in case order. A case may appear more
    than once (a soak repeats them). ``trial_ids``, one per case, name each run's resources
    (minted when not given).

    On Ctrl-C/SIGTERM no new case starts, and the resources of the cases in flight are removed
    before the interrupt propagates.
    """
    local = threading.local()
    engines: list[Engine] = []
    lock = threading.Lock()
    ids = list(trial_ids) if trial_ids is not None else [L.new_trial_id() for _ in cases]
    if len(ids) != len(cases):
        raise ValueError(f"{len(ids)} trial ids for {len(cases)} cases")
    policy = policy or Policy.load(DEFAULT_POLICY)

    def engine() -> Engine:
        if not hasattr(local, "engine"):
            local.engine = connect()
            with lock:
                engines.append(local.engine)
        return local.engine  # type: ignore[no-any-return]

    def work(index: int) -> tuple[int, Outcome]:
        return index, run_case(engine(), cases[index], trial_id=ids[index],
                               mitigations=mitigations, policy=policy)

    outcomes: dict[int, Outcome] = {}
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="fcv-suite")
    try:
        pending: set[Future[tuple[int, Outcome]]] = {pool.submit(work, i)
                                                     for i in range(len(cases))}
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                index, outcome = future.result()
                outcomes[index] = outcome
                on_done(outcome, len(outcomes), len(cases))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        sweeper = connect()
        try:
            for index, trial_id in enumerate(ids):
                if index not in outcomes:
                    cleanup(sweeper, trial_id)
        finally:
            sweeper.close()
        raise
    finally:
        pool.shutdown(wait=True)
        for e in engines:
            e.close()
    return [outcomes[i] for i in range(len(cases))]


# -- reports (pure) ----------------------------------------------------------------------------

def summary(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The suite's figures. ``split_fooled`` counts non-residual attacks whose split verdict
    was pass; residual ones are counted apart."""
    attacks = [o for o in outcomes if o.case.kind == "attack"]
    honest = [o for o in outcomes if o.case.kind == "honest"]
    compatible = [o for o in honest if not o.case.split_incompatible]
    return {
        "cases": len(outcomes),
        "attacks": len(attacks),
        "honest": len(honest),
        "same_fooled": sum(o.same == "pass" for o in attacks),
        "split_fooled": sum(o.split == "pass" for o in attacks if not o.case.residual),
        "residual_split_fooled": sum(o.split == "pass" for o in attacks if o.case.residual),
        "honest_split_failed": sum(o.split != "pass" for o in compatible),
        "honest_same_failed": sum(o.same != "pass" for o in compatible),
        "split_incompatible": sum(o.case.split_incompatible for o in honest),
        "errors": sum("error" in (o.same, o.split) for o in outcomes),
        "expectation_violations": sum(bool(o.violations) for o in outcomes),
    }


def to_json(outcomes: Sequence[Outcome], *, mitigations: Sequence[str] = ()) -> dict[str, Any]:
    doc: dict[str, Any] = {"schema": SCHEMA, "mitigations": list(mitigations)}
    doc.update(summary(outcomes))
    doc["results"] = [{
        "case": o.case.name, "kind": o.case.kind, "title": o.case.title,
        "threat": o.case.threat, "row": o.case.row, "residual": o.case.residual,
        "expect_same": sorted(o.case.expect_same), "expect_split": sorted(o.case.expect_split),
        "expect_reason": o.case.override_reason, "same": o.same, "split": o.split, "violations": list(o.violations),
        "error": o.error, "duration_s": round(o.duration_s, 2),
        "comparison": o.comparison.to_json() if o.comparison else None,
    } for o in outcomes]
    return doc


def to_junit(outcomes: Sequence[Outcome]) -> bytes:
    """One test case per corpus case, failing when an expectation is violated."""
    figures = summary(outcomes)
    suite = ET.Element("testsuite", name="fcv-suite", tests=str(len(outcomes)),
                       failures=str(figures["expectation_violations"]), errors="0",
                       time=f"{sum(o.duration_s for o in outcomes):.2f}")
    for o in outcomes:
        case = ET.SubElement(suite, "testcase", classname=f"fcv.{o.case.kind}",
                             name=o.case.name, time=f"{o.duration_s:.2f}")
        if o.violations:
            failure = ET.SubElement(case, "failure", message="; ".join(o.violations))
            failure.text = "\n".join(o.violations)
        out = ET.SubElement(case, "system-out")
        out.text = (f"{o.case.title}\nsame={o.same} split={o.split}"
                    + (f"\nexpectations of this policy: {o.case.override_reason}"
                       if o.case.override_reason else "")
                    + (f"\n{o.comparison.explanation()}" if o.comparison else ""))
    return bytes(ET.tostring(suite, encoding="utf-8", xml_declaration=True))


def to_markdown(outcomes: Sequence[Outcome]) -> str:
    """A summary a person can read; deterministic (no timings), so documents can embed it."""
    figures = summary(outcomes)
    attacks = [o for o in outcomes if o.case.kind == "attack"]
    lines = [("| threat class | attack cases | fooled same-container | fooled fcv (split) "
             "| of which residual |"), "|---|---:|---:|---:|---:|"]
    for letter in sorted({o.case.threat for o in attacks if o.case.threat}):
        group = [o for o in attacks if o.case.threat == letter]
        fooled = [o for o in group if o.split == "pass"]
        lines.append(f"| {letter}. {THREAT_CLASSES[letter]} | {len(group)} | "
                     f"{sum(o.same == 'pass' for o in group)} | {len(fooled)} | "
                     f"{sum(o.case.residual for o in fooled)} |")
    lines.append(f"| **all attacks** | **{len(attacks)}** | **{figures['same_fooled']}** | "
                 f"**{figures['split_fooled'] + figures['residual_split_fooled']}** | "
                 f"**{figures['residual_split_fooled']}** |")
    honest = [o for o in outcomes if o.case.kind == "honest"]
    compatible = [o for o in honest if not o.case.split_incompatible]
    if honest:
        lines += ["", ("| honest cases | passed same-container | passed fcv (split) "
                      "| split-incompatible, reported |"), "|---:|---:|---:|---:|"]
        reported = sum(o.case.split_incompatible and not o.violations for o in honest)
        lines.append(f"| {len(honest)} | {sum(o.same == 'pass' for o in compatible)}"
                     f"/{len(compatible)} | {sum(o.split == 'pass' for o in compatible)}"
                     f"/{len(compatible)} | {reported}/{figures['split_incompatible']} |")
    lines += ["", (f"Expectations violated: {figures['expectation_violations']} of "
                  f"{figures['cases']} cases.")]
    return "\n".join(lines) + "\n"


def describe(outcome: Outcome) -> str:
    """One progress line for a finished case."""
    status = "VIOLATED" if outcome.violations else "ok"
    line = (f"{status:8} {outcome.case.name}  same={outcome.same} split={outcome.split}  "
            f"{outcome.duration_s:.1f}s")
    for v in outcome.violations:
        line += f"\n           - {v}"
    return line

