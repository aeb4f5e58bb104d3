"""Snapshot provenance against the real engine: the manifest in every trial, a snapshot
modified during verification, export -> import -> regrade, and tampered snapshot files."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest

from isolation import labels as L
from isolation import snapshot as snapshots
from isolation import snapshot_file as SF
from isolation.engine import Engine
from isolation.errors import EXIT_PASS, EXIT_USAGE
from tests.tasktools import make_task, put_file, write_agent
from verifier.cli import main
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, run_trial

pytestmark = pytest.mark.engine

AGENT = """\
cd /app
echo done > done.txt
mkdir -p sub/deeper && printf 'x%.0s' 1 2 3 > sub/deeper/three
ln -s /etc/hostname link-out
ln done.txt hard
mkfifo pipe
chmod 4755 done.txt
"""


#: A prebuilt image: nothing to build or remove, so the tests do not depend on build timing.
PREBUILT: dict[str, Any] = {
    "dockerfile": None,
    "toml": '[environment]\ndocker_image = "fcv/busybox:latest"\nworkdir = "/app"\n'
            "[verifier]\ntimeout_sec = 60\n[agent]\ntimeout_sec = 60\n",
}


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main([*argv, "--json"])
    out, _ = capsys.readouterr()
    return code, json.loads(out) if out.strip() else {}


class TestTrialManifest:
    def test_trial_records_root_digest(self, engine: Engine, tmp_path: Path) -> None:
        """Every verdict carries the snapshot's root digest, entry count and bytes."""
        task = make_task(tmp_path, **PREBUILT)
        trial = run_trial(engine, Task.from_dir(str(task)),
                          TrialOptions(agent=AgentSpec(kind="oracle"), modes=("split", "same")))
        split, same = trial.results["split"], trial.results["same"]
        assert split.verdict == "pass" and split.snapshot is not None
        assert split.snapshot == same.snapshot
        assert split.snapshot.root_digest.startswith("sha256:")
        assert (split.snapshot.entries, split.snapshot.bytes) == (2, 5)  # . and done.txt
        assert split.to_json()["snapshot"]["root_digest"] == split.snapshot.root_digest

    @pytest.mark.parametrize("method", ["volume", "commit"])
    def test_modified_during_verification_is_error(self, engine: Engine, tmp_path: Path,
                                                   method: str) -> None:
        """A snapshot that changes between verification and the re-check gives `error`,
        naming the changed path (the change is made by a test-only hook)."""
        task = make_task(tmp_path, **PREBUILT)

        def tamper(eng: Engine, snap: snapshots.Snapshot) -> None:
            put_file(eng, snap.volume, snap.volume.split("-")[1], "done.txt", b"forged\n",
                     suffix="-tamper")

        trial = run_trial(engine, Task.from_dir(str(task)),
                          TrialOptions(agent=AgentSpec(kind="oracle"), snapshot_method=method),
                          _after_split=tamper)
        result = trial.results["split"]
        assert result.verdict == "error" and result.reward is None
        assert result.error is not None
        assert "snapshot modified during verification" in result.error
        assert "changed done.txt" in result.error


class TestExportImportRegrade:
    def test_round_trip_same_verdict_and_digest(self, engine: Engine, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
        """run --keep -> snapshot export -> snapshot import -> regrade: the same verdict and
        root digest, the old verdict taken from the embedded result."""
        task = make_task(tmp_path, **PREBUILT)
        agent = write_agent(tmp_path, AGENT)
        code, doc = _json(capsys, "run", str(task), "--agent-script", str(agent), "--keep")
        try:
            assert code == EXIT_PASS, doc
            result_file = tmp_path / "result.json"
            result_file.write_text(json.dumps(doc))
            out = tmp_path / "snap.tar.gz"
            code, exported = _json(capsys, "snapshot", "export", doc["trial_id"], "-o", str(out),
                                   "--result", str(result_file))
            assert code == EXIT_PASS
            assert exported["root_digest"] == doc["snapshot"]["root_digest"]
        finally:
            assert main(["gc", "--trial", doc["trial_id"]]) == EXIT_PASS
            capsys.readouterr()

        code, imported = _json(capsys, "snapshot", "import", str(out))
        try:
            assert code == EXIT_PASS
            assert imported["root_digest"] == doc["snapshot"]["root_digest"]
            vols = engine.list_labelled(imported["trial_id"])["volumes"]
            assert vols == [imported["volume"]]
        finally:
            assert main(["gc", "--trial", imported["trial_id"]]) == EXIT_PASS
            capsys.readouterr()

        code, regraded = _json(capsys, "regrade", str(out), str(task))
        assert code == EXIT_PASS
        assert regraded["schema"] == "fcv.regrade/v1"
        assert regraded["old"]["verdict"] == regraded["new"]["verdict"] == "pass"
        assert regraded["verdict_changed"] is False
        assert regraded["new"]["snapshot"]["root_digest"] == doc["snapshot"]["root_digest"]
        assert regraded["new"]["snapshot_method"] == "import"

    def test_regrade_with_newer_tests(self, engine: Engine, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
        """Newer, stricter tests change the verdict; both verdicts are recorded."""
        task = make_task(tmp_path, **PREBUILT)
        code, doc = _json(capsys, "run", str(task), "--agent", "oracle", "--keep")
        try:
            out = tmp_path / "snap.tar.gz"
            assert main(["snapshot", "export", doc["trial_id"], "-o", str(out)]) == EXIT_PASS
        finally:
            assert main(["gc", "--trial", doc["trial_id"]]) == EXIT_PASS
        (tmp_path / "old.json").write_text(json.dumps(doc))
        strict = make_task(tmp_path, "strict", **PREBUILT, test_sh="#!/bin/sh\n"
                           "[ -f /app/report.md ] && r=1 || r=0; echo $r > "
                           "/logs/verifier/reward.txt\n")
        capsys.readouterr()
        code, regraded = _json(capsys, "regrade", str(out), str(strict),
                               "--old-result", str(tmp_path / "old.json"))
        assert code == 1
        assert (regraded["old"]["verdict"], regraded["new"]["verdict"]) == ("pass", "fail")
        assert regraded["verdict_changed"] is True


def _rewrite(src: Path, dst: Path, change: object) -> None:
    """Copy a snapshot file member by member, letting ``change(info, data)`` edit each."""
    with tarfile.open(src, "r:gz") as tin, gzip.open(dst, "wb") as gz, \
            tarfile.open(fileobj=gz, mode="w|", format=tarfile.PAX_FORMAT) as tout:
        for info in tin.getmembers():
            f = tin.extractfile(info)
            data = f.read() if f else b""
            info, data = change(info, data)  # type: ignore[operator]
            info.size = len(data) if info.isfile() else 0
            tout.addfile(info, io.BytesIO(data) if info.isfile() else None)


class TestTampered:
    @pytest.fixture(scope="class")
    def snapshot_file(self, engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Path:
        trial_id = L.new_trial_id()
        volume = engine.create_volume(L.resource_name(trial_id, "snapshot"),
                                      labels=L.trial_labels(trial_id, "snapshot"))
        out = tmp_path_factory.mktemp("snap") / "snap.tar.gz"
        try:
            put_file(engine, volume, trial_id, "answer.txt", b"42\n")
            SF.export_volume(engine, volume, str(out), trial_id=trial_id)
        finally:
            engine.remove_labelled(trial_id)
        return out

    def test_tampered_content_refused(self, engine: Engine, snapshot_file: Path,
                                      tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
        """A file whose content no longer matches the manifest is refused, naming the member;
        no volume is left behind."""
        bad = tmp_path / "bad.tar.gz"
        _rewrite(snapshot_file, bad, lambda i, d: (i, b"43\n" if i.name.endswith("answer.txt")
                                                   else d))
        before = set(engine.list_labelled()["volumes"])
        code = main(["snapshot", "import", str(bad)])
        err = capsys.readouterr().err
        assert code == EXIT_USAGE
        assert "member 'workspace/answer.txt'" in err and "sha256" in err and "refused" in err
        assert set(engine.list_labelled()["volumes"]) <= before

    def test_extra_member_refused_offline(self, snapshot_file: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
        """--check validates without the engine; a member missing from the manifest is
        refused."""
        bad = tmp_path / "bad.tar.gz"
        _rewrite(snapshot_file, bad, lambda i, d: (i, d) if not i.name.endswith("answer.txt")
                 else (_renamed(i, "workspace/other.txt"), d))
        assert main(["snapshot", "import", "--check", str(snapshot_file)]) == EXIT_PASS
        assert main(["snapshot", "import", "--check", str(bad)]) == EXIT_USAGE
        assert "'workspace/other.txt': not listed in the manifest" in capsys.readouterr().err

    def test_regrade_refuses_tampered(self, engine: Engine, snapshot_file: Path,
                                      tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
        """regrade refuses a tampered file before building anything."""
        bad = tmp_path / "bad.tar.gz"
        _rewrite(snapshot_file, bad, lambda i, d: (i, b"1\n" if i.name.endswith("answer.txt")
                                                   else d))
        assert main(["regrade", str(bad), str(make_task(tmp_path, **PREBUILT))]) == EXIT_USAGE
        assert "tampered" in capsys.readouterr().err


def _renamed(info: tarfile.TarInfo, name: str) -> tarfile.TarInfo:
    info.name = name
    return info


def test_export_and_import_report_progress(engine: Engine, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`snapshot export` and `snapshot import` report how much of the data has streamed
    (every PROGRESS_EVERY_S; here every piece), ending at 100% of the manifest's bytes."""
    monkeypatch.setattr(SF, "PROGRESS_EVERY_S", 0.0)
    trial_id = L.new_trial_id()
    volume = engine.create_volume(L.resource_name(trial_id, "snapshot"),
                                  labels=L.trial_labels(trial_id, "snapshot"))
    out = tmp_path / "snap.tar.gz"
    imported: dict[str, str] = {}
    try:
        put_file(engine, volume, trial_id, "big.bin", b"z" * (3 << 20))
        assert main(["snapshot", "export", volume, "-o", str(out)]) == EXIT_PASS
        err = capsys.readouterr().err
        assert "exporting: 100% (3 of 3 MiB)" in err, err
        code = main(["snapshot", "import", str(out), "--json"])
        captured = capsys.readouterr()
        imported = json.loads(captured.out) if captured.out.strip() else {}
        assert code == EXIT_PASS, captured.err
        assert "importing: 100% (3 of 3 MiB)" in captured.err, captured.err
    finally:
        engine.remove_labelled(trial_id)
        if imported:
            engine.remove_labelled(imported["trial_id"])
