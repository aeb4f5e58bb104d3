"""Attestations end to end against the real engine: `fcv run --sign --attest` on an example
task, the trial's real snapshot exported, then `fcv attest verify --snapshot` accepts the pair
and rejects a tampered attestation and a tampered snapshot file."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from isolation.engine import Engine
from isolation.errors import EXIT_FAIL, EXIT_PASS
from verifier import attest
from verifier.cli import main
from verifier.policy import Policy

pytestmark = pytest.mark.engine
TASK = Path(__file__).resolve().parent.parent / "examples" / "tasks" / "word-count-sh"


def kept_snapshot(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                  *run_args: str) -> tuple[dict[str, Any], Path]:
    """`fcv run --keep` of the oracle on TASK (passing), its snapshot exported to a file, the
    trial removed: (the trial document, the snapshot file)."""
    code = main(["run", str(TASK), "--agent", "oracle", "--keep", "--json", *run_args])
    out, err = capsys.readouterr()
    assert code == EXIT_PASS, err
    result = json.loads(out)
    snapshot = tmp_path / "snapshot.tar.gz"
    try:
        assert main(["snapshot", "export", result["trial_id"], "-o", str(snapshot)]) == \
            EXIT_PASS
    finally:
        assert main(["gc", "--trial", result["trial_id"], "--all"]) == EXIT_PASS
    capsys.readouterr()
    return result, snapshot


def test_run_sign_export_verify_and_tamper(engine: Engine, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A signed split verdict verifies against its exported snapshot; an altered payload, and
    an altered snapshot file, are each rejected with a non-zero exit naming what failed."""
    assert main(["keygen", str(tmp_path / "signer")]) == EXIT_PASS
    envelope = tmp_path / "verdict.intoto.json"
    result, snapshot = kept_snapshot(capsys, tmp_path, "--sign", str(tmp_path / "signer.key"),
                                     "--attest", str(envelope))

    pub = str(tmp_path / "signer.pub")
    assert main(["attest", "verify", str(envelope), "--pubkey", pub, "--snapshot",
                 str(snapshot), "--json"]) == EXIT_PASS
    doc = json.loads(capsys.readouterr().out)
    p = doc["predicate"]
    assert doc["valid"] is True and doc["snapshot_checked"] is True
    assert doc["subject"]["digest"] == result["snapshot"]["root_digest"]
    assert (p["task"]["name"], p["verdict"], p["reward"]) == ("fcv-examples/word-count-sh",
                                                              "pass", 1.0)
    assert "sha256:" + p["task"]["digest"]["sha256"] == attest.task_digest(str(TASK))
    assert p["image"]["id"] == result["images"]["task"]
    default = Policy.load("default")
    assert (p["policy"]["name"], "sha256:" + p["policy"]["digest"]["sha256"]) == \
        ("default", default.digest)

    # Tampered attestation: the reward rewritten inside the payload, everything else kept.
    tampered = tmp_path / "tampered.intoto.json"
    outer = json.loads(envelope.read_bytes())
    payload = base64.b64decode(outer["payload"]).replace(b'"reward":1.0', b'"reward":0.5')
    outer["payload"] = base64.b64encode(payload).decode()
    tampered.write_text(json.dumps(outer, indent=2, sort_keys=True) + "\n")
    assert main(["attest", "verify", str(tampered), "--pubkey", pub]) == EXIT_FAIL
    err = capsys.readouterr().err
    assert "attestation rejected (signature)" in err

    # Tampered snapshot: one workspace file's content changed inside the archive.
    raw = gzip.decompress(snapshot.read_bytes())
    altered = tmp_path / "altered.tar.gz"
    index = raw.rindex(b"\n", 0, len(raw) - 1024)
    altered.write_bytes(gzip.compress(raw[:index] + b"X" + raw[index + 1:]))
    code = main(["attest", "verify", str(envelope), "--pubkey", pub, "--snapshot",
                 str(altered)])
    err = capsys.readouterr().err
    assert code != EXIT_PASS, err
    assert "refused" in err or "(subject)" in err


def test_compare_attests_the_split_verdict(engine: Engine, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`compare --sign --attest` signs the split verdict, not the same-container one: a
    planted reward passes the same-container run, and the attestation says fail."""
    assert main(["keygen", str(tmp_path / "signer")]) == EXIT_PASS
    envelope = tmp_path / "compare.intoto.json"
    cheat = TASK.parent.parent / "agents" / "cheat-planted-reward.sh"
    main(["compare", str(TASK), "--agent-script", str(cheat), "--json",
          "--sign", str(tmp_path / "signer.key"), "--attest", str(envelope)])
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert (doc["same"]["verdict"], doc["split"]["verdict"]) == ("pass", "fail"), err
    assert main(["attest", "verify", str(envelope), "--pubkey", str(tmp_path / "signer.pub"),
                 "--json"]) == EXIT_PASS
    verified = json.loads(capsys.readouterr().out)
    p = verified["predicate"]
    assert (p["verdict"], p["trial"]["mode"], p["trial"]["id"]) == \
        ("fail", "split", doc["split"]["trial_id"])
    assert verified["subject"]["digest"] == doc["split"]["snapshot"]["root_digest"]


def test_regrade_attests_the_new_verdict(engine: Engine, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`regrade --sign --attest` signs the new verdict over the imported snapshot: it
    verifies against the snapshot file it regraded, and records the import."""
    assert main(["keygen", str(tmp_path / "signer")]) == EXIT_PASS
    _, snapshot = kept_snapshot(capsys, tmp_path)
    envelope = tmp_path / "regrade.intoto.json"
    code = main(["regrade", str(snapshot), str(TASK), "--json", "--sign",
                 str(tmp_path / "signer.key"), "--attest", str(envelope)])
    out, err = capsys.readouterr()
    assert code == EXIT_PASS, err
    regraded = json.loads(out)
    assert main(["attest", "verify", str(envelope), "--pubkey", str(tmp_path / "signer.pub"),
                 "--snapshot", str(snapshot), "--json"]) == EXIT_PASS
    verified = json.loads(capsys.readouterr().out)
    p = verified["predicate"]
    assert verified["snapshot_checked"] is True
    assert verified["subject"]["digest"] == regraded["root_digest"]
    assert (p["verdict"], p["trial"]["snapshot_method"], p["trial"]["id"]) == \
        ("pass", "import", regraded["new"]["trial_id"])
