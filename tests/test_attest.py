"""Unit tests for verifier.attest (statement, task digest, verification) and the CLI commands
``keygen``, ``run --sign/--attest`` (argument checks only) and ``attest verify``, in-process."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

import attrs
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings

from isolation.engine import Engine
from isolation.errors import (
    ATTESTATION_CHECKS,
    EXIT_FAIL,
    EXIT_PASS,
    EXIT_USAGE,
    AttestationInvalid,
    UsageError,
)
from tests.strategies import byte_flips
from tests.tasktools import make_task
from verifier import attest, attest_inputs, dsse, keys
from verifier.cli import main
from verifier.verdict import Finding, PhaseRecord, TrialResult

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
SNAPSHOT = "sha256:" + "ab" * 32
RESULT = TrialResult(
    trial_id="0123456789ab", task="fcv-examples/t", mode="split", snapshot_method="volume",
    verdict="pass", reward=1.0, rewards={"reward": 1.0},
    agent=PhaseRecord(exit_code=0, timed_out=False, duration_s=0.5),
    verifier=PhaseRecord(exit_code=0, timed_out=False, duration_s=0.25),
    task_image="sha256:" + "cd" * 32,
    findings=(Finding(code="hardlink", severity="low", path="/app/x", message="2 links"),))
INPUTS = attest.AttestInputs(
    snapshot_digest=SNAPSHOT, task_digest="sha256:" + "01" * 32,
    test_sh_digest="sha256:" + "02" * 32, image_id="sha256:" + "cd" * 32,
    policy_name="default", policy_digest="03" * 32,
    options={"threshold": 1.0, "workspace": "ro", "mitigations": []},
    fcv_version="0.1.0", attested_at="2026-01-01T00:00:00Z")
FILE = attest.sign_result(RESULT, INPUTS, KEY)


def stand_in_digest_of_export(path: str) -> str:
    """Stands in for reading a real snapshot file (tests/test_attest_engine.py uses real ones):
    the SHA-256 of the whole file, so these CLI tests need no engine."""
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def resign(statement: dict[str, object]) -> bytes:
    return dsse.sign(attest.PAYLOAD_TYPE, attest.canonical_json(statement), KEY).to_bytes()


class TestStatement:
    def test_shape(self) -> None:
        """in-toto Statement v1, one subject (the snapshot), fcv's predicate type."""
        statement = attest.build_statement(RESULT, INPUTS)
        assert statement["_type"] == "https://in-toto.io/Statement/v1"
        assert statement["subject"] == [{"name": "workspace-snapshot",
                                         "digest": {"sha256": "ab" * 32}}]
        assert statement["predicateType"] == "https://fcv.dev/verdict/v1"
        p = statement["predicate"]
        assert p["task"] == {"name": "fcv-examples/t", "digest": {"sha256": "01" * 32},
                             "test_sh_digest": {"sha256": "02" * 32}}
        assert p["policy"] == {"name": "default", "digest": {"sha256": "03" * 32}}
        assert (p["verdict"], p["reward"], p["rewards"]) == ("pass", 1.0, {"reward": 1.0})
        assert p["timings"]["verifier"]["duration_s"] == 0.25
        assert p["findings"][0]["code"] == "hardlink"
        assert p["trial"]["options"]["workspace"] == "ro"

    def test_payload_is_canonical_json(self) -> None:
        """The signed payload is sorted, compact JSON of the statement."""
        envelope = dsse.parse(FILE)
        assert envelope.payload == attest.canonical_json(attest.build_statement(RESULT, INPUTS))

    def test_same_mode_refused(self) -> None:
        """Only split verdicts are attested."""
        same = TrialResult(trial_id="x", task="t", mode="same", snapshot_method="volume",
                           verdict="fail", reward=0.0)
        with pytest.raises(ValueError, match="only split"):
            attest.build_statement(same, INPUTS)

    def test_bad_digest_input(self) -> None:
        """Inputs are validated, naming the field."""
        with pytest.raises(ValueError, match="snapshot_digest"):
            attest.AttestInputs(snapshot_digest="md5:x", task_digest=SNAPSHOT,
                                test_sh_digest=SNAPSHOT, image_id="i", policy_name="p",
                                policy_digest=SNAPSHOT)


CARRIED = attrs.evolve(INPUTS, carried=(("/srv/output", "sha256:" + "0e" * 32),
                                        ("/opt/out", "sha256:" + "0f" * 32)))


class TestCarried:
    """A policy's carried directories are further subjects: the verdict covers them too."""

    def test_subjects(self) -> None:
        statement = attest.build_statement(RESULT, CARRIED)
        assert [x["name"] for x in statement["subject"]] == [
            "workspace-snapshot", "carried:/srv/output", "carried:/opt/out"]
        assert statement["subject"][1]["digest"] == {"sha256": "0e" * 32}

    def test_round_trip(self) -> None:
        verified = attest.verify_attestation(attest.sign_result(RESULT, CARRIED, KEY),
                                             KEY.public_key(), snapshot_digest=SNAPSHOT)
        assert verified.carried == CARRIED.carried and verified.subject_digest == SNAPSHOT
        assert "carried   /srv/output sha256:" + "0e" * 32 in verified.summary()
        assert verified.to_json()["carried"][1] == {"path": "/opt/out",
                                                    "digest": "sha256:" + "0f" * 32}

    @pytest.mark.parametrize(("subjects", "message"), [
        ([], "non-empty list"),
        ([{"name": "carried:/x", "digest": {"sha256": "ab" * 32}}], "subject[0].name"),
        ([{"name": "workspace-snapshot", "digest": {"sha256": "ab" * 32}},
          {"name": "/srv/output", "digest": {"sha256": "0e" * 32}}], "subject[1].name"),
        ([{"name": "workspace-snapshot", "digest": {"sha256": "ab" * 32}},
          {"name": "carried:relative", "digest": {"sha256": "0e" * 32}}], "subject[1].name"),
        ([{"name": "workspace-snapshot", "digest": {"sha256": "ab" * 32}},
          {"name": "carried:/a", "digest": {"sha256": "0e" * 32}},
          {"name": "carried:/a", "digest": {"sha256": "0f" * 32}}], "subject[2].name"),
        ([{"name": "workspace-snapshot", "digest": {"sha256": "ab" * 32}},
          {"name": "carried:/a", "digest": {"sha256": "0e"}}], "subject[1].digest"),
        *(([{"name": "workspace-snapshot", "digest": {"sha256": "ab" * 32}},
            {"name": f"carried:{path}", "digest": {"sha256": "0e" * 32}}], "subject[1].name")
          for path in ("/a/", "//a", "/a/../b", "/a/./b", "/a\n  verdict   PASS")),
    ])
    def test_subject_schema(self, subjects: list[object], message: str) -> None:
        """Subjects other than the snapshot and distinct carried paths are rejected."""
        statement = attest.build_statement(RESULT, INPUTS)
        statement["subject"] = subjects
        with pytest.raises(AttestationInvalid) as info:
            attest.verify_attestation(resign(statement), KEY.public_key())
        assert info.value.check == "statement" and message in str(info.value)


class TestVerify:
    def test_round_trip(self) -> None:
        """A signed verdict verifies, with its predicate readable."""
        verified = attest.verify_attestation(FILE, KEY.public_key())
        assert (verified.task, verified.verdict, verified.reward) == ("fcv-examples/t", "pass",
                                                                      1.0)
        assert verified.policy == ("default", "sha256:" + "03" * 32)
        assert verified.subject_digest == SNAPSHOT and not verified.snapshot_checked
        assert verified.keyid == keys.keyid(KEY.public_key())

    def test_subject_match_and_mismatch(self) -> None:
        """Given the snapshot's digest, a match is recorded, a mismatch names both."""
        assert attest.verify_attestation(FILE, KEY.public_key(),
                                         snapshot_digest=SNAPSHOT).snapshot_checked
        other = "sha256:" + "ef" * 32
        with pytest.raises(AttestationInvalid) as info:
            attest.verify_attestation(FILE, KEY.public_key(), snapshot_digest=other)
        assert info.value.check == "subject"
        assert SNAPSHOT in str(info.value) and other in str(info.value)

    @settings(max_examples=300)
    @given(flip=byte_flips(FILE))
    def test_any_flipped_byte(self, flip: tuple[int, bytes]) -> None:
        """Every single-byte alteration of an attestation file is rejected."""
        _, data = flip
        with pytest.raises(AttestationInvalid) as info:
            attest.verify_attestation(data, KEY.public_key())
        assert info.value.check in ATTESTATION_CHECKS

    @pytest.mark.parametrize(("path", "value", "message"), [
        (("predicateType",), "https://example.org/other", "predicateType"),
        (("_type",), "https://in-toto.io/Statement/v0.1", "_type"),
        (("predicate", "verdict"), "maybe", "predicate.verdict"),
        (("predicate", "reward"), True, "predicate.reward"),
        (("predicate", "policy", "digest"), {"sha256": "xyz"}, "predicate.policy.digest"),
        (("predicate", "trial", "mode"), "same", "predicate.trial.mode"),
    ])
    def test_statement_schema(self, path: tuple[str, ...], value: object, message: str) -> None:
        """A validly signed statement of the wrong shape is rejected, naming the field."""
        statement = attest.build_statement(RESULT, INPUTS)
        target = statement
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(AttestationInvalid) as info:
            attest.verify_attestation(resign(statement), KEY.public_key())
        assert info.value.check == "statement" and message in str(info.value)

    def test_payload_not_json(self) -> None:
        """A signed payload that is not JSON is a statement failure with its position."""
        data = dsse.sign(attest.PAYLOAD_TYPE, b"{nope", KEY).to_bytes()
        with pytest.raises(AttestationInvalid, match="payload is not valid JSON.*column"):
            attest.verify_attestation(data, KEY.public_key())


class TestTaskDigest:
    def test_documented_algorithm(self, tmp_path: Path) -> None:
        """The digest is recomputable from the documented line format."""
        (tmp_path / "tests").mkdir()
        (tmp_path / "tests" / "test.sh").write_bytes(b"#!/bin/sh\n")
        os.chmod(tmp_path / "tests" / "test.sh", 0o755)
        (tmp_path / "task.toml").write_bytes(b"x")
        (tmp_path / "link").symlink_to("task.toml")
        link, toml, test_sh = (hashlib.sha256(b).hexdigest()
                               for b in (b"task.toml", b"x", b"#!/bin/sh\n"))
        expected = (f"l {link} link\nf {toml} task.toml\nx {test_sh} tests/test.sh\n").encode()
        assert b"".join(attest.task_digest_lines(str(tmp_path))) == expected
        assert attest.task_digest(str(tmp_path)) == "sha256:" + hashlib.sha256(expected).hexdigest()

    def test_sensitive_to_content_mode_and_links(self, tmp_path: Path) -> None:
        """Content, the execute bit and a link's target change it; a link's target content
        does not (links are not followed)."""
        (tmp_path / "a").write_bytes(b"1")
        (tmp_path / "b").write_bytes(b"2")
        (tmp_path / "l").symlink_to("a")
        seen = {attest.task_digest(str(tmp_path))}
        (tmp_path / "b").write_bytes(b"3")
        seen.add(attest.task_digest(str(tmp_path)))
        os.chmod(tmp_path / "b", 0o744)
        seen.add(attest.task_digest(str(tmp_path)))
        (tmp_path / "l").unlink()
        (tmp_path / "l").symlink_to("b")
        seen.add(attest.task_digest(str(tmp_path)))
        assert len(seen) == 4
        (tmp_path / "b").write_bytes(b"4")
        before = attest.task_digest(str(tmp_path))
        os.utime(tmp_path / "a", (0, 0))
        assert attest.task_digest(str(tmp_path)) == before

    def test_fifo_refused(self, tmp_path: Path) -> None:
        """Special files cannot be attested."""
        os.mkfifo(tmp_path / "p")
        with pytest.raises(UsageError, match="not a regular file"):
            attest.task_digest(str(tmp_path))


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    key_path, pub_path, _ = keys.generate(str(tmp_path / "signer"))
    return key_path, pub_path


@pytest.fixture
def signed(tmp_path: Path, pair: tuple[str, str]) -> Path:
    path = tmp_path / "verdict.intoto.json"
    path.write_bytes(attest.sign_result(RESULT, INPUTS, keys.load_private_key(pair[0])))
    return path


def no_engine(*_: object, **__: object) -> Engine:
    raise AssertionError("the engine was contacted before the arguments were checked")


class TestCliKeygen:
    def test_keygen_then_refuse(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """fcv keygen writes both files and prints the keyid; a second run refuses (2)."""
        assert main(["keygen", str(tmp_path / "k")]) == EXIT_PASS
        assert "keyid" in capsys.readouterr().err
        assert main(["keygen", str(tmp_path / "k")]) == EXIT_USAGE
        assert "already exists" in capsys.readouterr().err


class TestCliVerify:
    def test_valid(self, signed: Path, pair: tuple[str, str],
                   capsys: pytest.CaptureFixture[str]) -> None:
        """A valid attestation exits 0 and summarises task, verdict, reward, policy."""
        assert main(["attest", "verify", str(signed), "--pubkey", pair[1]]) == EXIT_PASS
        err = capsys.readouterr().err
        assert "attestation valid" in err and "PASS (reward 1)" in err
        assert "fcv-examples/t" in err and "default" in err

    def test_json(self, signed: Path, pair: tuple[str, str],
                  capsys: pytest.CaptureFixture[str]) -> None:
        """--json prints one document with the predicate."""
        assert main(["attest", "verify", str(signed), "--pubkey", pair[1], "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["schema"] == "fcv.attest-verify/v1" and doc["valid"] is True
        assert doc["predicate"]["verdict"] == "pass"

    def test_tampered(self, signed: Path, pair: tuple[str, str],
                      capsys: pytest.CaptureFixture[str]) -> None:
        """An edited verdict inside the payload is rejected with exit 1 and a clear message."""
        doc = json.loads(signed.read_bytes())
        payload = base64.b64decode(doc["payload"]).replace(b'"verdict":"pass"',
                                                            b'"verdict":"fail"')
        doc["payload"] = base64.b64encode(payload).decode()
        signed.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
        code = main(["attest", "verify", str(signed), "--pubkey", pair[1], "--json"])
        out, err = capsys.readouterr()
        assert code == EXIT_FAIL
        assert "attestation rejected (signature)" in err
        assert json.loads(out) == {"schema": "fcv.attest-verify/v1", "valid": False,
                                   "check": "signature", "message": err.split("error: ")[1]
                                   .strip()}

    def test_wrong_pubkey(self, tmp_path: Path, signed: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
        """Another key's .pub is rejected (1)."""
        _, other, _ = keys.generate(str(tmp_path / "other"))
        assert main(["attest", "verify", str(signed), "--pubkey", other]) == EXIT_FAIL
        assert "another key" in capsys.readouterr().err

    def test_missing_files(self, tmp_path: Path, signed: Path, pair: tuple[str, str],
                           capsys: pytest.CaptureFixture[str]) -> None:
        """Missing attestation, key or snapshot files are usage errors (2)."""
        assert main(["attest", "verify", str(tmp_path / "no"), "--pubkey", pair[1]]) == 2
        assert main(["attest", "verify", str(signed), "--pubkey", str(tmp_path / "no")]) == 2
        assert main(["attest", "verify", str(signed), "--pubkey", pair[1],
                     "--snapshot", str(tmp_path / "no")]) == 2
        assert capsys.readouterr().err.count("does not exist") == 3

    def test_snapshot_seam(self, tmp_path: Path, pair: tuple[str, str],
                           monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
        """--snapshot recomputes the digest through the seam: match 0, altered byte 1."""
        monkeypatch.setattr(attest_inputs, "digest_of_export", stand_in_digest_of_export)
        snapshot = tmp_path / "snap.tar.gz"
        snapshot.write_bytes(b"snapshot bytes")
        inputs = attrs.evolve(INPUTS, snapshot_digest=stand_in_digest_of_export(str(snapshot)))
        envelope = tmp_path / "a.json"
        envelope.write_bytes(attest.sign_result(RESULT, inputs, keys.load_private_key(pair[0])))
        argv = ["attest", "verify", str(envelope), "--pubkey", pair[1], "--snapshot",
                str(snapshot)]
        assert main(argv) == EXIT_PASS
        assert "matches the given snapshot" in capsys.readouterr().err
        snapshot.write_bytes(b"snapshot bytez")
        assert main(argv) == EXIT_FAIL
        err = capsys.readouterr().err
        assert "(subject)" in err and stand_in_digest_of_export(str(snapshot)) in err


class TestCliRunArguments:
    def test_attest_refused_in_same_mode(self, tmp_path: Path, pair: tuple[str, str],
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
        """--attest with --mode same is a usage error naming the flags, before the engine."""
        monkeypatch.setattr(Engine, "connect", no_engine)
        code = main(["run", str(make_task(tmp_path)), "--agent", "oracle", "--mode", "same",
                     "--sign", pair[0], "--attest", str(tmp_path / "a.json")])
        assert code == EXIT_USAGE
        err = capsys.readouterr().err
        assert "--sign/--attest" in err and "--mode split" in err

    @pytest.mark.parametrize("command", ["run", "compare", "regrade"])
    @pytest.mark.parametrize("which", ["--sign", "--attest"])
    def test_flags_go_together(self, tmp_path: Path, which: str, command: str,
                               pair: tuple[str, str], monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
        """One of --sign/--attest without the other is a usage error, for every command
        that attests."""
        monkeypatch.setattr(Engine, "connect", no_engine)
        value = pair[0] if which == "--sign" else str(tmp_path / "a.json")
        assert main([*self._command(command, tmp_path), which, value]) == 2
        assert "go together" in capsys.readouterr().err

    @staticmethod
    def _command(command: str, tmp_path: Path) -> list[str]:
        task = str(make_task(tmp_path))
        if command == "regrade":
            return ["regrade", str(tmp_path / "snap.tar.gz"), task]
        return [command, task, "--agent", "oracle"]

    @pytest.mark.parametrize("command", ["run", "compare", "regrade"])
    def test_bad_key_fails_before_running(self, tmp_path: Path, command: str,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
        """A key that does not load stops fcv before the engine is contacted."""
        monkeypatch.setattr(Engine, "connect", no_engine)
        (tmp_path / "bad.key").write_bytes(b"nope")
        code = main([*self._command(command, tmp_path), "--sign", str(tmp_path / "bad.key"),
                     "--attest", str(tmp_path / "a.json")])
        assert code == EXIT_USAGE
        assert "not a PEM private key" in capsys.readouterr().err
        assert not (tmp_path / "a.json").exists()

    def test_exposed_key_warns(self, tmp_path: Path, pair: tuple[str, str],
                               monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
        """A group-readable signing key is named in a warning before anything runs."""
        os.chmod(pair[0], 0o640)
        monkeypatch.setattr(Engine, "connect", no_engine)
        main(["run", str(make_task(tmp_path)), "--agent", "oracle", "--sign", pair[0],
              "--attest", str(tmp_path / "a.json")])
        err = capsys.readouterr().err
        warning = (f"warning: {pair[0]}: the signing key is accessible to group or others "
                   "(mode 0640)")
        assert warning in err and "engine was contacted" in err
        assert err.index(warning) < err.index("engine was contacted")

    def test_regrade_under_carry_policy_refused(self, tmp_path: Path,
                                                pair: tuple[str, str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
        """A regrade cannot be signed under a policy that carries directories: snapshot files
        hold the workspace only, so the verdict would not be that policy's."""
        monkeypatch.setattr(Engine, "connect", no_engine)
        policy = tmp_path / "carry.toml"
        policy.write_text('schema = "fcv.policy/v1"\nname = "carry"\n[workspace]\n'
                          'carry = ["/srv/output"]\n')
        code = main(["regrade", str(tmp_path / "snap.tar.gz"), str(make_task(tmp_path)),
                     "--policy", str(policy), "--sign", pair[0], "--attest",
                     str(tmp_path / "a.json")])
        assert code == EXIT_USAGE
        assert "carries /srv/output" in capsys.readouterr().err

    def test_attest_directory_missing(self, tmp_path: Path, pair: tuple[str, str],
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
        """An --attest FILE in a missing directory is refused before running."""
        monkeypatch.setattr(Engine, "connect", no_engine)
        code = main(["run", str(make_task(tmp_path)), "--agent", "oracle", "--sign", pair[0],
                     "--attest", str(tmp_path / "no" / "a.json")])
        assert code == EXIT_USAGE and "does not exist" in capsys.readouterr().err
