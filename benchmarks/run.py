"""fcv benchmarks (issue 6, part 1): one command, one run, every figure next to its target.

    python3 -m benchmarks.run [--quick] [--json FILE]

Sections, measured side by side in one process against the local engine:

1. overhead   - per-trial wall time of ``run_trial`` with mode ``same`` vs ``split`` on a
                trivial busybox task (median of N), plus a per-phase breakdown obtained by
                wrapping fcv's own phase functions with timers (no fcv file is modified).
2. snapshot   - hand-over cost against workspace size for ``volume``, ``commit`` and the
                host round-trip Harbor's separate mode uses (archive to a host file, then into
                a never-started container with a fresh volume); also the snapshot scan, which
                every split trial runs whatever the hand-over method.
3. memory     - peak RSS of this process during the commit hand-over (and the host round-trip)
                of the largest workspace, sampled from /proc/self/status every 5 ms.
4. throughput - trivial split trials run ``jobs`` at a time (one Engine per thread).

Every engine resource carries ``fcv.trial=<id>`` and is removed by label in ``finally``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from isolation import labels as L
from isolation import manifest, scan
from isolation import snapshot as snapshots
from isolation.agent import Sandbox
from isolation.engine import Engine, VolumeMount
from isolation.hardening import Hardening
from verifier import trial as trial_mod
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, run_trial

BUSYBOX = "fcv/busybox:latest"
PYTHON = "fcv/python:bookworm"
MB = 1 << 20

TARGET_SPLIT_OVERHEAD_S = 0.3
TARGET_VOLUME_SPEEDUP = 20.0
TARGET_RSS_MB = 150.0
TARGET_JOBS4_RATIO = 1.6
TARGET_MANIFEST_MBPS = 300.0

TASK_TOML = """\
schema_version = "1.0"

[task]
name = "fcv-bench/trivial"

[agent]
timeout_sec = 60

[verifier]
timeout_sec = 60

[environment]
docker_image = "fcv/busybox:latest"
workdir = "/workspace"
"""
SOLVE_SH = "#!/bin/sh\necho done > /workspace/out.txt\n"
TEST_SH = "#!/bin/sh\nmkdir -p /logs/verifier\necho 1 > /logs/verifier/reward.txt\n"


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def write_trivial_task(root: str) -> str:
    task = os.path.join(root, "trivial")
    for sub in ("tests", "solution", "environment"):
        os.makedirs(os.path.join(task, sub), exist_ok=True)
    files = {"task.toml": TASK_TOML, "instruction.md": "Write /workspace/out.txt.\n",
             "solution/solve.sh": SOLVE_SH, "tests/test.sh": TEST_SH}
    for rel, text in files.items():
        path = os.path.join(task, rel)
        with open(path, "w") as f:
            f.write(text)
        if rel.endswith(".sh"):
            os.chmod(path, 0o755)
    return task


# -- phase timers (benchmark-only instrumentation, by wrapping module attributes) -------------

class PhaseTimer:
    """Wraps fcv's phase functions so that each call's duration is recorded per thread."""

    PHASES = {
        # name in the report: (module object, attribute)
        "build/lookup image": (trial_mod, "build_task_image"),
        "detect shell (probe)": (trial_mod, "detect_shell"),
        "sandbox start": (Sandbox, "start"),
        "agent (oracle)": (trial_mod, "run_agent"),
        "freeze": (Sandbox, "freeze"),
        "snapshot take": (snapshots, "take"),
        "findings total": (trial_mod, "collect_findings"),
        "  of which scan_volume": (scan, "scan_volume"),
        "  of which resolve_links": (scan, "resolve_links"),
        "verify_split": (trial_mod, "verify_split"),
        "verify_same": (trial_mod, "verify_same"),
        "cleanup (remove_labelled)": (trial_mod, "cleanup"),
        "snapshot manifest (x2)": (trial_mod, "snapshot_manifest"),
    }

    def __init__(self) -> None:
        self.local = threading.local()
        self.saved: list[tuple[Any, str, Any]] = []

    def current(self) -> dict[str, float]:
        if not hasattr(self.local, "record"):
            self.local.record = defaultdict(float)
        return self.local.record  # type: ignore[no-any-return]

    def reset(self) -> None:
        self.local.record = defaultdict(float)

    def install(self) -> None:
        for name, (owner, attr) in self.PHASES.items():
            raw = owner.__dict__[attr]
            is_classmethod = isinstance(raw, classmethod)
            fn = raw.__func__ if is_classmethod else raw

            def make(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
                @functools.wraps(fn)
                def timed(*args: Any, **kwargs: Any) -> Any:
                    start = time.perf_counter()
                    try:
                        return fn(*args, **kwargs)
                    finally:
                        self.current()[name] += time.perf_counter() - start
                return timed

            wrapped = make(fn, name)
            setattr(owner, attr, classmethod(wrapped) if is_classmethod else wrapped)
            self.saved.append((owner, attr, raw))

    def uninstall(self) -> None:
        for owner, attr, raw in reversed(self.saved):
            setattr(owner, attr, raw)
        self.saved.clear()


# -- 1. verification overhead -----------------------------------------------------------------

def bench_overhead(task_dir: str, n: int) -> dict[str, Any]:
    task = Task.from_dir(task_dir)
    engine = Engine.connect()
    timer = PhaseTimer()
    timer.install()
    runs: dict[str, list[float]] = {"same": [], "split": []}
    phases: dict[str, dict[str, list[float]]] = {"same": defaultdict(list),
                                                 "split": defaultdict(list)}
    verdicts: dict[str, list[str]] = {"same": [], "split": []}
    try:
        for mode in ("same", "split"):  # warm-up, not counted
            run_trial(engine, task, TrialOptions(agent=AgentSpec(kind="oracle"), modes=(mode,)))
        for i in range(n):
            # Interleaved, alternating which goes first, so drift hits both modes alike.
            order = ("same", "split") if i % 2 == 0 else ("split", "same")
            for mode in order:
                timer.reset()
                t0 = time.perf_counter()
                trial = run_trial(engine, task,
                                  TrialOptions(agent=AgentSpec(kind="oracle"), modes=(mode,)))
                runs[mode].append(time.perf_counter() - t0)
                verdicts[mode].append(trial.results[mode].verdict)
                for k, v in timer.current().items():
                    phases[mode][k].append(v)
            log(f"overhead {i + 1}/{n}: same {runs['same'][-1]:.2f}s split {runs['split'][-1]:.2f}s")
    finally:
        timer.uninstall()
        engine.close()
    med = {m: median(v) for m, v in runs.items()}
    phase_med = {m: {k: median(v) for k, v in p.items()} for m, p in phases.items()}
    split_p, same_p = phase_med["split"], phase_med["same"]
    # What a Harbor same-container run does not do at all: freeze, snapshot, findings (diff +
    # scan + link resolution), plus the fresh verifier container instead of an exec.
    harbor_extra = (split_p.get("freeze", 0) + split_p.get("snapshot take", 0)
                    + split_p.get("findings total", 0)
                    + split_p.get("verify_split", 0) - same_p.get("verify_same", 0))
    return {
        "n": n,
        "trial_s": {m: {"median": med[m], "min": min(v), "max": max(v), "all": v}
                    for m, v in runs.items()},
        "split_minus_same_s": med["split"] - med["same"],
        "split_over_same_ratio": med["split"] / med["same"],
        "split_minus_harbor_same_estimate_s": harbor_extra,
        "phases_median_s": phase_med,
        "verdicts": verdicts,
    }


# -- 2./3. snapshot hand-over and memory --------------------------------------------------------

class RssSampler:
    """Peak resident set size of this process, sampled from /proc/self/status."""

    def __init__(self, interval_s: float = 0.005) -> None:
        self.interval_s = interval_s
        self.peak_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def rss_kb() -> int:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak_kb = max(self.peak_kb, self.rss_kb())
            time.sleep(self.interval_s)

    def __enter__(self) -> RssSampler:
        self.peak_kb = self.rss_kb()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak_kb = max(self.peak_kb, self.rss_kb())


def fill_command(kind: str, size_mb: int, files: int, workdir: str) -> list[str]:
    if kind == "files":
        code = ("import os\n"
                f"d = {workdir!r}\n"
                f"for i in range({files}):\n"
                "    sub = os.path.join(d, 'd%03d' % (i // 500))\n"
                "    if i % 500 == 0: os.makedirs(sub, exist_ok=True)\n"
                "    with open(os.path.join(sub, 'f%05d.txt' % i), 'w') as f: f.write('x' * 100)\n")
        return ["python3", "-c", code]
    return ["dd", "if=/dev/urandom", f"of={workdir}/blob.bin", "bs=1M", f"count={size_mb}",
            "status=none"]


def host_round_trip(engine: Engine, box: Sandbox, *, trial_id: str, image: str,
                    tag: str) -> dict[str, float]:
    """Harbor's separate mode: archive the workspace out to a file on the host, then into a
    never-started container whose workdir is a fresh volume."""
    timings: dict[str, float] = {}
    with tempfile.NamedTemporaryFile(prefix="fcv-bench-", suffix=".tar") as tmp:
        t0 = time.perf_counter()
        stream, _ = engine.get_archive(box.container_id, box.workdir)
        for chunk in stream:
            tmp.write(chunk)
        tmp.flush()
        timings["out_s"] = time.perf_counter() - t0
        timings["tar_bytes"] = float(os.path.getsize(tmp.name))
        t1 = time.perf_counter()
        volume = engine.create_volume(L.resource_name(trial_id, "snapshot") + f"-host{tag}",
                                      labels=L.trial_labels(trial_id, "snapshot"))
        receiver = engine.create_container(
            image, ["true"], entrypoint=[],
            name=L.resource_name(trial_id, "receiver") + f"-host{tag}",
            labels=L.trial_labels(trial_id, "receiver"),
            host_config=Hardening().host_config(),
            mounts=[VolumeMount(volume=volume, target=box.workdir, no_copy=True)])
        try:
            tmp.seek(0)

            def chunks() -> Iterator[bytes]:
                while True:
                    block = tmp.read(MB)
                    if not block:
                        return
                    yield block

            engine.put_archive(receiver, os.path.dirname(box.workdir), chunks())
        finally:
            engine.remove_container(receiver)
        timings["in_s"] = time.perf_counter() - t1
    timings["total_s"] = timings["out_s"] + timings["in_s"]
    engine.remove_volume(volume)
    return timings


def bench_snapshot(sizes: list[tuple[str, str, int, int]], repeats_small: int) -> dict[str, Any]:
    engine = Engine.connect()
    image = engine.image_id(PYTHON)
    assert image, f"{PYTHON} missing: run `fcv images bootstrap`"
    results: list[dict[str, Any]] = []
    try:
        for label, kind, size_mb, files in sizes:
            trial_id = L.new_trial_id()
            log(f"snapshot {label}: trial {trial_id}, filling workspace")
            row: dict[str, Any] = {"workspace": label, "kind": kind, "size_mb": size_mb,
                                   "files": files, "trial_id": trial_id}
            try:
                box = Sandbox.start(engine, trial_id=trial_id, image_id=image,
                                    workdir="/bench", hardening=Hardening().with_limits(
                                        memory_mb=2048, cpus=2))
                t0 = time.perf_counter()
                res = box.exec(fill_command(kind, size_mb, files, "/bench"), user="root",
                               timeout_s=600)
                row["fill_s"] = time.perf_counter() - t0
                if res.exit_code != 0:
                    raise RuntimeError(f"fill failed: {res.output[-500:]!r}")
                box.freeze()
                repeats = repeats_small if (kind == "bytes" and size_mb <= 100) else 1
                vol, com, host, scans = [], [], [], []
                diff_s: list[float] = []
                commit_only_s: list[float] = []
                peaks = {"commit": 0, "host": 0}
                for r in range(repeats):
                    t = time.perf_counter()
                    snapshots.take(engine, box, method="volume", receiver_image=image)
                    vol.append(time.perf_counter() - t)

                    with RssSampler() as s:
                        t = time.perf_counter()
                        snap = snapshots.take(engine, box, method="commit", receiver_image=image)
                        com.append(time.perf_counter() - t)
                    peaks["commit"] = max(peaks["commit"], s.peak_kb)
                    # the commit snapshot's volume and image have fixed names: drop them
                    # before the next repeat (they are labelled anyway)
                    engine.remove_volume(snap.volume)
                    if snap.commit_image:
                        engine.remove_image(snap.commit_image)

                    # commit's parts, separately: docker diff and docker commit alone
                    t = time.perf_counter()
                    engine.diff(box.container_id)
                    diff_s.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    extra = engine.commit(box.container_id,
                                          labels=L.trial_labels(trial_id, "commit"))
                    commit_only_s.append(time.perf_counter() - t)
                    engine.remove_image(extra)

                    with RssSampler() as s:
                        h = host_round_trip(engine, box, trial_id=trial_id, image=image,
                                            tag=str(r))
                    peaks["host"] = max(peaks["host"], s.peak_kb)
                    host.append(h["total_s"])
                    row["tar_mb"] = h["tar_bytes"] / MB
                    row.setdefault("host_out_s", []).append(h["out_s"])
                    row.setdefault("host_in_s", []).append(h["in_s"])

                    t = time.perf_counter()
                    scan.scan_volume(engine, box.workspace_volume, trial_id=trial_id)
                    scans.append(time.perf_counter() - t)
                row.update({
                    "repeats": repeats,
                    "volume_s": median(vol), "commit_s": median(com), "host_s": median(host),
                    "scan_s": median(scans),
                    "commit_diff_s": median(diff_s), "commit_image_s": median(commit_only_s),
                    "host_out_s": median(row["host_out_s"]), "host_in_s": median(row["host_in_s"]),
                    "peak_rss_commit_mb": peaks["commit"] / 1024,
                    "peak_rss_host_mb": peaks["host"] / 1024,
                    "ru_maxrss_mb_after": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                })
                row["host_over_volume"] = row["host_s"] / row["volume_s"]
                log(f"snapshot {label}: volume {row['volume_s'] * 1000:.1f} ms, commit "
                    f"{row['commit_s']:.2f} s, host {row['host_s']:.2f} s, scan {row['scan_s']:.2f} s, "
                    f"peak RSS commit {row['peak_rss_commit_mb']:.0f} MB")
            finally:
                engine.remove_labelled(trial_id)
            results.append(row)
    finally:
        engine.close()
    return {"rows": results}


# -- 5. manifest throughput ---------------------------------------------------------------------

def bench_manifest(sizes: list[tuple[str, str, int, int]], repeats: int) -> dict[str, Any]:
    """``manifest.of_volume`` over filled workspaces: MB/s of file data hashed (and files/s),
    peak RSS of this process while it runs."""
    engine = Engine.connect()
    image = engine.image_id(PYTHON)
    assert image, f"{PYTHON} missing: run `fcv images bootstrap`"
    rows: list[dict[str, Any]] = []
    try:
        for label, kind, size_mb, files in sizes:
            trial_id = L.new_trial_id()
            log(f"manifest {label}: trial {trial_id}, filling workspace")
            try:
                box = Sandbox.start(engine, trial_id=trial_id, image_id=image,
                                    workdir="/bench", hardening=Hardening().with_limits(
                                        memory_mb=2048, cpus=2))
                res = box.exec(fill_command(kind, size_mb, files, "/bench"), user="root",
                               timeout_s=600)
                if res.exit_code != 0:
                    raise RuntimeError(f"fill failed: {res.output[-500:]!r}")
                box.freeze()
                times: list[float] = []
                peak = 0
                m = None
                for _ in range(repeats):
                    with RssSampler() as s:
                        t = time.perf_counter()
                        m = manifest.of_volume(engine, box.workspace_volume, trial_id=trial_id)
                        times.append(time.perf_counter() - t)
                    peak = max(peak, s.peak_kb)
                assert m is not None
                sec = median(times)
                row = {"workspace": label, "entries": m.files, "bytes": m.bytes,
                       "seconds": sec, "all_s": times, "mb_per_s": m.bytes / MB / sec,
                       "files_per_s": m.files / sec, "peak_rss_mb": peak / 1024}
                log(f"manifest {label}: {sec:.2f} s, {row['mb_per_s']:.0f} MB/s, "
                    f"{row['files_per_s']:.0f} entries/s, peak RSS {row['peak_rss_mb']:.0f} MB")
                rows.append(row)
            finally:
                engine.remove_labelled(trial_id)
    finally:
        engine.close()
    return {"rows": rows}


def manifest_table(doc: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    out = []
    for r in doc["rows"]:
        big = r["entries"] < 100
        out.append((f"manifest {r['workspace']} ({r['entries']} entries)",
                    (f"{r['mb_per_s']:.0f} MB/s, {r['files_per_s']:,.0f} entries/s, "
                     f"{r['seconds']:.2f} s"),
                    f">= {TARGET_MANIFEST_MBPS:.0f} MB/s" if big else "-",
                    verdict(r["mb_per_s"] >= TARGET_MANIFEST_MBPS) if big else ""))
        out.append((f"peak RSS, manifest of {r['workspace']}", f"{r['peak_rss_mb']:.0f} MB",
                    f"< {TARGET_RSS_MB:.0f} MB", verdict(r["peak_rss_mb"] < TARGET_RSS_MB)))
    return out


def format_rows(rows: list[tuple[str, str, str, str]]) -> list[str]:
    head = ("figure", "measured", "target", "")
    w = [max([len(r[i]) for r in rows] + [len(head[i])]) for i in range(4)]
    fmt = f"{{:<{w[0]}}}  {{:>{w[1]}}}  {{:<{w[2]}}}  {{}}"
    return [fmt.format(*head).rstrip(), fmt.format(*("-" * x for x in w)).rstrip(),
            *[fmt.format(*r).rstrip() for r in rows]]


# -- 4. throughput ------------------------------------------------------------------------------

def bench_throughput(task_dir: str, levels: list[int], trials: int) -> dict[str, Any]:
    task = Task.from_dir(task_dir)
    out: dict[str, Any] = {"trials_per_level": trials, "levels": {}}
    for jobs in levels:
        local = threading.local()
        engines: list[Engine] = []
        lock = threading.Lock()
        ids = [L.new_trial_id() for _ in range(trials)]

        def engine() -> Engine:
            if not hasattr(local, "engine"):
                local.engine = Engine.connect()
                with lock:
                    engines.append(local.engine)
            return local.engine  # type: ignore[no-any-return]

        def one(tid: str) -> str:
            t = run_trial(engine(), task, TrialOptions(agent=AgentSpec(kind="oracle"),
                                                       modes=("split",)), trial_id=tid)
            return t.results["split"].verdict

        sweeper = Engine.connect()
        try:
            t0 = time.perf_counter()
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                verdicts = list(pool.map(one, ids))
            wall = time.perf_counter() - t0
        finally:
            for tid in ids:
                sweeper.remove_labelled(tid)
            sweeper.close()
            for e in engines:
                e.close()
        out["levels"][str(jobs)] = {"wall_s": wall, "trials_per_min": trials / wall * 60,
                                    "verdicts": {v: verdicts.count(v) for v in set(verdicts)}}
        log(f"throughput jobs={jobs}: {trials} trials in {wall:.1f}s "
            f"({trials / wall * 60:.1f}/min)")
    l1 = out["levels"].get("1", {}).get("trials_per_min")
    l4 = out["levels"].get("4", {}).get("trials_per_min")
    out["jobs4_over_jobs1"] = (l4 / l1) if l1 and l4 else None
    return out


# -- report -------------------------------------------------------------------------------------

def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def table(doc: dict[str, Any]) -> str:
    lines: list[str] = []
    rows: list[tuple[str, str, str, str]] = []
    ov = doc["overhead"]
    t = ov["trial_s"]
    rows.append((f"trial wall, --mode same (median of {ov['n']})",
                 f"{t['same']['median']:.2f} s", "-", ""))
    rows.append((f"trial wall, --mode split (median of {ov['n']})",
                 f"{t['split']['median']:.2f} s", "-", ""))
    d = ov["split_minus_same_s"]
    rows.append(("split - same, per trial", f"{d:+.2f} s (x{ov['split_over_same_ratio']:.2f})",
                 f"<= {TARGET_SPLIT_OVERHEAD_S} s", verdict(d <= TARGET_SPLIT_OVERHEAD_S)))
    h = ov["split_minus_harbor_same_estimate_s"]
    rows.append(("split - Harbor same (no freeze/snapshot/scan), est.", f"{h:+.2f} s",
                 f"<= {TARGET_SPLIT_OVERHEAD_S} s", verdict(h <= TARGET_SPLIT_OVERHEAD_S)))
    snap_rows = doc["snapshot"]["rows"]
    largest = max((r for r in snap_rows if r["kind"] == "bytes"), key=lambda r: r["size_mb"])
    for r in snap_rows:
        rows.append((f"hand-over {r['workspace']}: volume / commit / host",
                     f"{r['volume_s'] * 1e6:.0f} us / {r['commit_s']:.2f} s / {r['host_s']:.2f} s",
                     "-", ""))
    sp = largest["host_over_volume"]
    rows.append((f"host round-trip / volume at {largest['workspace']}", f"x{sp:,.0f}",
                 f">= x{TARGET_VOLUME_SPEEDUP:.0f}" + ("" if largest["size_mb"] >= 1024
                                                       else " (at 1 GB)"),
                 verdict(sp >= TARGET_VOLUME_SPEEDUP)))
    vs = largest["host_s"] / (largest["volume_s"] + largest["scan_s"])
    rows.append((f"host round-trip / (volume + scan) at {largest['workspace']}", f"x{vs:.1f}",
                 f">= x{TARGET_VOLUME_SPEEDUP:.0f} (stricter)", verdict(vs >= TARGET_VOLUME_SPEEDUP)))
    vols = [r["volume_s"] for r in snap_rows]
    flat = max(vols) <= 3 * min(vols) + 0.005
    rows.append(("volume hand-over flat in size (max/min)",
                 f"{min(vols) * 1e6:.0f}-{max(vols) * 1e6:.0f} us", "flat", verdict(flat)))
    rss = largest["peak_rss_commit_mb"]
    rows.append((f"peak RSS, commit hand-over of {largest['workspace']}", f"{rss:.0f} MB",
                 f"< {TARGET_RSS_MB:.0f} MB", verdict(rss < TARGET_RSS_MB)))
    rows.append((f"peak RSS, host round-trip of {largest['workspace']}",
                 f"{largest['peak_rss_host_mb']:.0f} MB", f"< {TARGET_RSS_MB:.0f} MB",
                 verdict(largest["peak_rss_host_mb"] < TARGET_RSS_MB)))
    tp = doc["throughput"]
    for jobs, lv in tp["levels"].items():
        rows.append((f"throughput --jobs {jobs} ({tp['trials_per_level']} split trials)",
                     f"{lv['trials_per_min']:.1f} trials/min", "-", ""))
    ratio = tp["jobs4_over_jobs1"]
    rows.append(("throughput jobs 4 / jobs 1", f"x{ratio:.2f}" if ratio else "n/a",
                 f">= x{TARGET_JOBS4_RATIO}", verdict(bool(ratio and ratio >= TARGET_JOBS4_RATIO))))
    if "manifest" in doc:
        rows += manifest_table(doc["manifest"])

    w = [max(len(r[i]) for r in rows) for i in range(4)]
    head = ("figure", "measured", "target", "")
    w = [max(w[i], len(head[i])) for i in range(4)]
    fmt = f"{{:<{w[0]}}}  {{:>{w[1]}}}  {{:<{w[2]}}}  {{}}"
    lines.append(fmt.format(*head).rstrip())
    lines.append(fmt.format(*("-" * x for x in w)).rstrip())
    lines += [fmt.format(*r).rstrip() for r in rows]

    lines.append("")
    lines.append("split-trial breakdown (median s per phase; same-mode value in brackets):")
    ps, pm = ov["phases_median_s"]["split"], ov["phases_median_s"]["same"]
    for name in PhaseTimer.PHASES:
        if name in ps or name in pm:
            lines.append(f"  {name:<28} {ps.get(name, 0):6.3f}  [{pm.get(name, 0):6.3f}]")
    lines.append("")
    lines.append("snapshot detail (s): workspace, tar MB, volume, commit (of which docker diff / "
                 "docker commit), host (out + in), scan, peak RSS commit/host MB")
    for r in snap_rows:
        lines.append(f"  {r['workspace']:<10} {r['tar_mb']:7.1f}  {r['volume_s']:.5f}  "
                     f"{r['commit_s']:6.2f} ({r['commit_diff_s']:.2f}/{r['commit_image_s']:.2f})  "
                     f"{r['host_s']:6.2f} ({r['host_out_s']:.2f}+"
                     f"{r['host_in_s']:.2f})  {r['scan_s']:5.2f}  "
                     f"{r['peak_rss_commit_mb']:.0f}/{r['peak_rss_host_mb']:.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m benchmarks.run", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="N=5, 256 MB instead of 1 GB, throughput at jobs 1/2/4 only")
    p.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    p.add_argument("--manifest-only", action="store_true",
                   help="only the manifest throughput section (1 GB or 256 MB, 50k files)")
    args = p.parse_args(argv)

    n = 5 if args.quick else 15
    big = ("256 MB", "bytes", 256, 0) if args.quick else ("1 GB", "bytes", 1024, 0)
    sizes = [("1 MB", "bytes", 1, 0), ("100 MB", "bytes", 100, 0), big,
             ("50k files", "files", 0, 50_000)]
    levels = [1, 2, 4] if args.quick else [1, 2, 4, 8]
    trials = 8 if args.quick else 16

    started = time.time()
    manifest_sizes = [big, ("50k files", "files", 0, 50_000)]
    if args.manifest_only:
        result = bench_manifest(manifest_sizes, repeats=1 if args.quick else 3)
        print("\n".join(format_rows(manifest_table(result))))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"schema": "fcv.bench/v1", "manifest": result}, f, indent=2)
        return 0
    with tempfile.TemporaryDirectory(prefix="fcv-bench-") as root:
        task_dir = write_trivial_task(root)
        doc: dict[str, Any] = {
            "schema": "fcv.bench/v1",
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "quick": args.quick,
            "host": {"cpus": os.cpu_count(), "python": platform.python_version(),
                     "kernel": platform.release()},
        }
        log(f"1/3 overhead: {n} same + {n} split trials")
        doc["overhead"] = bench_overhead(task_dir, n)
        log("2/3 snapshot hand-over: " + ", ".join(s[0] for s in sizes))
        doc["snapshot"] = bench_snapshot(sizes, repeats_small=1 if args.quick else 3)
        log(f"3/4 throughput at jobs {levels}")
        doc["throughput"] = bench_throughput(task_dir, levels, trials)
        log("4/4 manifest throughput: " + ", ".join(s[0] for s in manifest_sizes))
        doc["manifest"] = bench_manifest(manifest_sizes, repeats=1 if args.quick else 3)
    doc["duration_s"] = time.time() - started
    doc["targets"] = {"split_overhead_s": TARGET_SPLIT_OVERHEAD_S,
                      "volume_speedup_at_1gb": TARGET_VOLUME_SPEEDUP,
                      "peak_rss_mb": TARGET_RSS_MB, "jobs4_over_jobs1": TARGET_JOBS4_RATIO,
                      "manifest_mb_per_s": TARGET_MANIFEST_MBPS}
    print(table(doc))
    print(f"\n(total {doc['duration_s']:.0f} s, {'quick' if args.quick else 'full'} run, "
          f"{doc['date']})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=2, default=str)
        log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
