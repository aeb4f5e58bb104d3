"""fcv soak (issue 6, part 3): many trials back to back, honest and attacking agents mixed.

    python3 -m benchmarks.soak [--trials 200] [--jobs 4] [--seed 6] [--json FILE] [CORPUS...]

The corpus cases (default ``corpus/honest`` and ``corpus/attacks``) are shuffled with a fixed
seed and repeated until ``--trials`` are scheduled; each trial is one ``compare`` of a case
(one agent run, the split and the same-container verdict), run ``--jobs`` at a time with one
``Engine`` per thread, exactly as ``fcv suite`` runs them. Counted:

* false passes: a split verdict ``pass`` on an attack whose case does not allow it (a residual
  attack, documented as fooling the split, is counted apart);
* honest failures: an honest, split-compatible case whose split verdict is not ``pass``;
* errors and any other expectation a case states;
* leaked resources: anything labelled with one of the soak's trial ids, or owned by this
  process (``fcv.owner``), left in the engine after the run;
* fcv's memory: this process's VmRSS from /proc/self/status, sampled every 0.5 s, at the start,
  at the middle trial and at the end.

A table goes to stdout, progress to stderr, everything to ``--json``. Exit 1 if any false pass,
honest failure or leak was seen.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import sys
import threading
import time
from typing import Any

from isolation import labels as L
from isolation.engine import Engine
from verifier import suite
from verifier.suite import Case, Outcome

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CORPUS = (os.path.join(ROOT, "corpus", "honest"), os.path.join(ROOT, "corpus", "attacks"))


def log(message: str) -> None:
    print(f"soak: {message}", file=sys.stderr, flush=True)


def rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class RssSampler:
    """This process's resident memory, sampled in a thread, with the trial count at each
    sample."""

    def __init__(self, interval_s: float = 0.5) -> None:
        self.interval_s = interval_s
        self.samples: list[tuple[float, int, int]] = []  # (seconds, done, kB)
        self.done = 0
        self._stop = threading.Event()
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="soak-rss", daemon=True)

    def sample(self) -> None:
        self.samples.append((time.monotonic() - self._started, self.done, rss_kb()))

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.sample()

    def start(self) -> None:
        self.sample()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sample()

    def at(self, done: int) -> int:
        """kB at the first sample taken once ``done`` trials had finished."""
        return next((kb for _, d, kb in self.samples if d >= done), self.samples[-1][2])


def schedule(cases: list[Case], trials: int, seed: int) -> list[Case]:
    """``trials`` cases: the corpus shuffled, then repeated (each pass shuffled anew)."""
    rng = random.Random(seed)
    order: list[Case] = []
    while len(order) < trials:
        batch = list(cases)
        rng.shuffle(batch)
        order.extend(batch)
    return order[:trials]


def classify(outcome: Outcome) -> str:
    """One word per trial: false-pass, residual-pass, honest-failed, error, violation, ok."""
    case = outcome.case
    if case.kind == "attack" and outcome.split == "pass":
        return "residual-pass" if case.residual or "pass" in case.expect_split else "false-pass"
    if case.kind == "honest" and not case.split_incompatible and outcome.split != "pass":
        return "honest-failed"
    if "error" in (outcome.split, outcome.same):
        return "error"
    return "violation" if outcome.violations else "ok"


def leaked(engine: Engine, trial_ids: list[str]) -> dict[str, list[str]]:
    """Resources of the soak's trials, or owned by this process, still in the engine."""
    found: dict[str, set[str]] = {"containers": set(), "volumes": set(), "images": set()}
    for trial_id in trial_ids:
        for kind, ids in engine.list_labelled(trial_id).items():
            found[kind].update(ids)
    mine = {"label": [f"{L.OWNER}={L.owner()}"]}
    found["containers"].update(c["Id"] for c in engine.api.containers(all=True, filters=mine))
    found["volumes"].update(v["Name"] for v in engine.api.volumes(filters=mine).get("Volumes")
                            or [])
    found["images"].update(i["Id"] for i in engine.api.images(all=True, filters=mine))
    return {k: sorted(v) for k, v in found.items()}


def run(cases: list[Case], *, jobs: int, sampler: RssSampler) -> tuple[list[Outcome], list[str]]:
    """Run the scheduled cases through the suite runner; outcomes, and every trial id minted
    (the leak check looks for exactly these)."""
    trial_ids = [L.new_trial_id() for _ in cases]
    started = time.monotonic()

    def on_done(outcome: Outcome, done: int, total: int) -> None:
        sampler.done = done
        kind = classify(outcome)
        if kind != "ok" or done % 10 == 0:
            log(f"[{done:>3}/{total}] {time.monotonic() - started:6.0f}s "
                f"rss {rss_kb() / 1024:.0f} MB  {kind:<13} {outcome.case.name} "
                f"same={outcome.same} split={outcome.split}")

    outcomes = suite.run_suite(cases, jobs=jobs, on_done=on_done, trial_ids=trial_ids)
    return outcomes, trial_ids


def soak(paths: list[str], *, trials: int, jobs: int, seed: int) -> dict[str, Any]:
    cases = schedule(suite.discover(paths), trials, seed)
    sampler = RssSampler()
    sampler.start()
    log(f"{trials} trials of {len({c.name for c in cases})} distinct cases "
        f"({sum(c.kind == 'attack' for c in cases)} attacking, "
        f"{sum(c.kind == 'honest' for c in cases)} honest), --jobs {jobs}")
    started = time.monotonic()
    outcomes, trial_ids = run(cases, jobs=jobs, sampler=sampler)
    wall = time.monotonic() - started
    sampler.stop()
    engine = Engine.connect()
    try:
        left = leaked(engine, trial_ids)
    finally:
        engine.close()
    kinds = [classify(o) for o in outcomes]
    rss = {"start_mb": sampler.at(0) / 1024, "middle_mb": sampler.at(trials // 2) / 1024,
           "end_mb": sampler.samples[-1][2] / 1024,
           "peak_mb": max(kb for _, _, kb in sampler.samples) / 1024}
    return {
        "schema": "fcv.soak/v1",
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "trials": len(outcomes), "jobs": jobs, "seed": seed,
        "attack_trials": sum(o.case.kind == "attack" for o in outcomes),
        "honest_trials": sum(o.case.kind == "honest" for o in outcomes),
        "false_passes": kinds.count("false-pass"),
        "residual_passes": kinds.count("residual-pass"),
        "honest_failed": kinds.count("honest-failed"),
        "errors": kinds.count("error"),
        "expectation_violations": sum(bool(o.violations) for o in outcomes),
        "leaked": {k: len(v) for k, v in left.items()},
        "leaked_ids": left,
        "rss": {k: round(v, 1) for k, v in rss.items()},
        "wall_s": round(wall, 1),
        "trials_per_min": round(len(outcomes) / wall * 60, 1) if wall else None,
        "rss_samples": [(round(t, 1), d, kb) for t, d, kb in sampler.samples[::4]],
        "results": [{"case": o.case.name, "kind": o.case.kind, "class": k, "same": o.same,
                     "split": o.split, "violations": list(o.violations),
                     "duration_s": round(o.duration_s, 2)} for o, k in zip(outcomes, kinds)],
    }


def table(doc: dict[str, Any]) -> str:
    rss = doc["rss"]
    rows = [
        ("trials (attacking / honest)",
         f"{doc['trials']} ({doc['attack_trials']} / {doc['honest_trials']})", "-"),
        ("--jobs", str(doc["jobs"]), "-"),
        ("wall time", f"{doc['wall_s']:.0f} s ({doc['trials_per_min']} trials/min)", "-"),
        ("false passes (split)", str(doc["false_passes"]), "0"),
        ("honest split failures", str(doc["honest_failed"]), "0"),
        ("residual attacks passing split (documented)", str(doc["residual_passes"]), "-"),
        ("errors", str(doc["errors"]), "-"),
        ("expectation violations", str(doc["expectation_violations"]), "-"),
        ("leaked containers / volumes / images",
         " / ".join(str(doc["leaked"][k]) for k in ("containers", "volumes", "images")),
         "0 / 0 / 0"),
        ("fcv RSS start / middle / end (peak)",
         (f"{rss['start_mb']:.0f} / {rss['middle_mb']:.0f} / {rss['end_mb']:.0f} MB "
         f"({rss['peak_mb']:.0f})"), "flat"),
    ]
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    lines = [f"{'figure':<{width}}  {'measured':>{value_width}}  target",
             f"{'-' * width}  {'-' * value_width}  ------"]
    lines += [f"{name:<{width}}  {value:>{value_width}}  {target}" for name, value, target in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m benchmarks.soak",
                                description=(__doc__ or "").split("\n")[0])
    p.add_argument("corpus", nargs="*", help="case directories (default: corpus/honest and "
                                             "corpus/attacks)")
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--jobs", type=int, default=4)
    p.add_argument("--seed", type=int, default=6)
    p.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    args = p.parse_args(argv)
    if args.trials < 1 or args.jobs < 1:
        p.error("--trials and --jobs must be positive")
    doc = soak(args.corpus or list(DEFAULT_CORPUS), trials=args.trials, jobs=args.jobs,
               seed=args.seed)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        log(f"wrote {args.json}")
    print(table(doc))
    bad = doc["false_passes"] or doc["honest_failed"] or any(doc["leaked"].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
