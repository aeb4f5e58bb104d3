"""Scanning a snapshot for findings, without running anything from the agent's image.

The scanner is :mod:`isolation.scan_payload`, run by ``python3 -I`` in a container of fcv's own
base image ``fcv/python:bookworm`` (never the task's or the agent's), with the snapshot mounted
read-only, no network, and one capability (DAC_READ_SEARCH, to list directories the agent made
private). It reads metadata only: links are never followed, FIFOs and devices never opened.
"""

from __future__ import annotations

import json
import logging
import os
import posixpath
from collections.abc import Mapping
from typing import Any

import attrs

from isolation import archive
from isolation import labels as L
from isolation.engine import Engine, VolumeMount
from isolation.errors import EngineError
from isolation.hardening import Hardening

log = logging.getLogger(__name__)

SCANNER_IMAGE = "fcv/python:bookworm"
_MOUNT = "/fcv-snapshot"
_PAYLOAD = os.path.join(os.path.dirname(__file__), "scan_payload.py")
SCAN_TIMEOUT_S = 300.0
MAX_LINKS = 20_000


@attrs.frozen(kw_only=True)
class ScanEntry:
    """One notable entry of a snapshot (path relative to the workspace root)."""

    path: str
    kind: str
    mode: int
    uid: int
    gid: int
    nlink: int
    size: int
    reasons: tuple[str, ...]
    target: str | None = None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ScanEntry:
        return cls(path=str(data["path"]), kind=str(data["kind"]), mode=int(data["mode"]),
                   uid=int(data["uid"]), gid=int(data["gid"]), nlink=int(data["nlink"]),
                   size=int(data["size"]), reasons=tuple(data["reasons"]),
                   target=data.get("target"))


@attrs.frozen(kw_only=True)
class ScanReport:
    entries: tuple[ScanEntry, ...]
    summary: Mapping[str, int]


def parse_output(text: str) -> ScanReport:
    """Parse the scanner's JSON lines.

    Raises:
        EngineError: the output is incomplete (no summary line) or malformed.
    """
    entries: list[ScanEntry] = []
    summary: Mapping[str, int] | None = None
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if "entry" in record:
                entries.append(ScanEntry.from_mapping(record["entry"]))
            elif "summary" in record:
                summary = {str(k): int(v) for k, v in record["summary"].items()}
        except (ValueError, KeyError, TypeError) as e:
            raise EngineError(f"workspace scanner printed a malformed line: {line[:200]!r}") from e
    if summary is None:
        raise EngineError("workspace scanner ended without its summary: " + text[-500:])
    return ScanReport(entries=tuple(entries), summary=summary)


@attrs.frozen(kw_only=True)
class ProbeRun:
    exit_code: int | None
    timed_out: bool
    stdout: str
    #: Read only when the run failed (exit code not 0, or timed out).
    stderr: str


def run_over_volume(engine: Engine, image: str, command: list[str], *, volume: str,
                    mount: str, trial_id: str, name: str, hardening: Hardening,
                    timeout_s: float, files: bytes | None = None) -> ProbeRun:
    """Run one of fcv's own tools (never anything from the agent's image) as root in a
    container of ``image`` with ``volume`` mounted read-only at ``mount``; ``files`` is a tar
    put in place before it starts. The container is removed however the run ends.

    Raises:
        EngineError: the engine refused a step.
    """
    container = engine.create_container(
        image, command, entrypoint=[], name=L.resource_name(trial_id, "probe") + name,
        labels=L.trial_labels(trial_id, "probe"), host_config=hardening.host_config(),
        mounts=[VolumeMount(volume=volume, target=mount, read_only=True)],
        user="0", working_dir="/")
    try:
        if files is not None:
            engine.put_archive(container, "/", files)
        engine.start(container)
        waited = engine.wait(container, timeout_s=timeout_s)
        failed = waited.timed_out or waited.exit_code != 0
        return ProbeRun(exit_code=waited.exit_code, timed_out=waited.timed_out,
                        stdout=engine.logs(container, stdout=True, stderr=False),
                        stderr=engine.logs(container, stdout=False, stderr=True)
                        if failed else "")
    finally:
        engine.remove_container(container)


def scan_volume(engine: Engine, volume: str, *, trial_id: str,
                image: str = SCANNER_IMAGE, max_entries: int | None = None) -> ScanReport:
    """Scan a snapshot volume and return its notable entries. With ``max_entries`` the scan
    stops soon after that many entries and its summary says ``truncated``.

    Raises:
        EngineError: the scanner image is missing, or the scan did not complete.
    """
    if engine.image_id(image) is None:
        raise EngineError(f"the workspace scanner needs {image}; run `fcv images bootstrap`")
    with open(_PAYLOAD, "rb") as f:
        payload = f.read()
    run = run_over_volume(
        engine, image, ["python3", "-I", "/fcv-scan/scan.py", _MOUNT,
                        *([str(max_entries)] if max_entries is not None else [])],
        volume=volume, mount=_MOUNT, trial_id=trial_id, name="-scan",
        hardening=Hardening(cap_add=("DAC_READ_SEARCH",), pids_limit=64, memory_mb=512),
        timeout_s=SCAN_TIMEOUT_S, files=archive.file_tar("fcv-scan/scan.py", payload))
    if run.timed_out or run.exit_code != 0:
        raise EngineError(f"workspace scan failed (exit {run.exit_code}, timed out: "
                          f"{run.timed_out}): {run.stderr[-500:]}")
    report = parse_output(run.stdout)
    if report.summary.get("unreadable_dirs", 0):
        raise EngineError(f"the scanner could not read {report.summary['unreadable_dirs']} "
                          "directories of the workspace (too deep or unreadable)")
    return report


def resolve_links(engine: Engine, entries: tuple[ScanEntry, ...], *, trial_id: str,
                  image: str, volume: str, workdir: str) -> dict[str, str]:
    """Where each workspace symlink leads in the verifier: the daemon resolves it inside a
    never-started container of the pristine task image with the snapshot at the workspace,
    so the image's own links (``/var/run -> /run``) count as they will at run time.

    Raises:
        EngineError: more symlinks than can be checked, or the engine refused.
    """
    links = [e for e in entries if e.kind == "symlink"]
    if len(links) > MAX_LINKS:
        raise EngineError(f"the workspace holds {len(links)} symlinks; at most {MAX_LINKS} "
                          "are checked against the policy")
    if not links:
        return {}
    probe = engine.create_container(
        image, ["true"], entrypoint=[], name=L.resource_name(trial_id, "probe") + "-links",
        labels=L.trial_labels(trial_id, "probe"), host_config=Hardening().host_config(),
        mounts=[VolumeMount(volume=volume, target=workdir, read_only=True)])
    resolved = {}
    try:
        for link in links:
            try:
                stat = engine.stat_path(probe, posixpath.join(workdir, link.path))
            except EngineError as e:
                # A loop, or a chain too long to follow: it leads nowhere in the verifier
                # either; the lexical resolution still judges it.
                log.info("cannot resolve %s: %s", link.path, e)
                continue
            target = (stat or {}).get("linkTarget")
            if target:
                resolved[link.path] = str(target)
    finally:
        engine.remove_container(probe)
    return resolved
