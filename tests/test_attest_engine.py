"""Attestations end to end against the real engine: `fcv run --sign --attest` on an example
task, then `fcv attest verify` accepts the file and rejects a tampered copy."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

from isolation.engine import Engine
from isolation.errors import EXIT_FAIL, EXIT_PASS
from verifier import attest, attest_seams
from verifier.cli import main
from verifier.verdict import TrialResult

pytestmark = pytest.mark.engine
TASK = Path(__file__).resolve().parent.parent / "examples" / "tasks" / "word-count-sh"


def stand_in_digest_of_export(path: str) -> str:
    """STAND-IN for the seam isolation.manifest.digest_of_export (branch provenance): the
    SHA-256 of the whole file. At merge, export the trial's real snapshot instead."""
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_run_sign_verify_and_tamper(engine: Engine, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A signed split verdict verifies (with its snapshot); a tampered copy is rejected with
    exit 1 and a message naming the failed check."""
    # SEAM(provenance): until the trial records its snapshot root digest, stand in a snapshot
    # export file and its digest.
    snapshot = tmp_path / "snapshot.tar.gz"
    snapshot.write_bytes(b"stand-in snapshot export")
    captured: list[TrialResult] = []

    def root_digest(result: TrialResult) -> str:
        captured.append(result)
        return stand_in_digest_of_export(str(snapshot))

    monkeypatch.setattr(attest_seams, "snapshot_root_digest", root_digest)
    monkeypatch.setattr(attest_seams, "digest_of_export", stand_in_digest_of_export)

    assert main(["keygen", str(tmp_path / "signer")]) == EXIT_PASS
    envelope = tmp_path / "verdict.intoto.json"
    code = main(["run", str(TASK), "--agent", "oracle", "--sign", str(tmp_path / "signer.key"),
                 "--attest", str(envelope)])
    err = capsys.readouterr().err
    assert code == EXIT_PASS, err
    assert "attestation written to" in err and len(captured) == 1

    pub = str(tmp_path / "signer.pub")
    assert main(["attest", "verify", str(envelope), "--pubkey", pub, "--snapshot",
                 str(snapshot), "--json"]) == EXIT_PASS
    doc = json.loads(capsys.readouterr().out)
    p = doc["predicate"]
    assert doc["valid"] is True and doc["snapshot_checked"] is True
    assert (p["task"]["name"], p["verdict"], p["reward"]) == ("fcv-examples/word-count-sh",
                                                              "pass", 1.0)
    assert "sha256:" + p["task"]["digest"]["sha256"] == attest.task_digest(str(TASK))
    assert "sha256:" + p["task"]["test_sh_digest"]["sha256"] == \
        attest.file_digest(str(TASK / "tests" / "test.sh"))
    assert p["image"]["id"] == captured[0].task_image
    assert p["trial"]["id"] == captured[0].trial_id

    # Tampered: the verdict rewritten inside the payload, everything else kept.
    tampered = tmp_path / "tampered.intoto.json"
    outer = json.loads(envelope.read_bytes())
    payload = base64.b64decode(outer["payload"]).replace(b'"reward":1.0', b'"reward":0.5')
    outer["payload"] = base64.b64encode(payload).decode()
    tampered.write_text(json.dumps(outer, indent=2, sort_keys=True) + "\n")
    assert main(["attest", "verify", str(tampered), "--pubkey", pub]) == EXIT_FAIL
    err = capsys.readouterr().err
    assert "attestation rejected (signature)" in err and "altered" in err

    # The right file against another snapshot: the subject check names both digests.
    other = tmp_path / "other.tar.gz"
    other.write_bytes(b"another snapshot")
    assert main(["attest", "verify", str(envelope), "--pubkey", pub, "--snapshot",
                 str(other)]) == EXIT_FAIL
    err = capsys.readouterr().err
    assert "(subject)" in err and stand_in_digest_of_export(str(other)) in err
