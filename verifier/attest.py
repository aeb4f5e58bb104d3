"""Signed verdict attestations: an in-toto Statement v1 in a DSSE envelope, signed with Ed25519.

The subject is the snapshot the split verdict was computed on (its root digest); the predicate
(type :data:`PREDICATE_TYPE`) says which task, image, tests and policy judged it and what the
verdict was. The format is documented in docs/attestation.md; :func:`task_digest` is the
algorithm a third party can recompute.

Building the statement and checking it are pure; file I/O is limited to reading the task
directory (:func:`task_digest`) and :meth:`Signing.write`.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import json
import math
import os
import posixpath
import re
import stat
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from isolation.errors import AttestationInvalid, UsageError, VerificationError
from verifier import dsse, keys
from verifier.task import Task
from verifier.verdict import VERDICTS, TrialResult

PAYLOAD_TYPE = "application/vnd.in-toto+json"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://fcv.dev/verdict/v1"
SUBJECT_NAME = "workspace-snapshot"
#: Further subjects, one per directory the policy carried to the verifier (workspace.carry):
#: this prefix, then the directory's absolute path.
CARRIED_PREFIX = "carried:"
VERIFY_SCHEMA = "fcv.attest-verify/v1"

_DIGEST = re.compile(r"(?:sha256:)?([0-9a-f]{64})")
_HEX = re.compile(r"[0-9a-f]{64}")


def _digest(value: str) -> str:
    """"sha256:<hex>" from "sha256:<hex>" or a bare lowercase hex SHA-256."""
    match = _DIGEST.fullmatch(value)
    if match is None:
        raise ValueError(f"expected a SHA-256 digest (sha256:<64 hex>), got {value!r}")
    return "sha256:" + match.group(1)


def _digest_validator(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    try:
        _digest(value)
    except ValueError as e:
        raise ValueError(f"{attribute.name}: {e}") from None


def fcv_version() -> str:
    try:
        return importlib.metadata.version("fcv")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


# --- digests of the task --------------------------------------------------------------------


def file_digest(path: str) -> str:
    """"sha256:<hex>" of the file's bytes (``test.sh``: as uploaded, no normalisation).

    Raises:
        UsageError: the file cannot be read.
    """
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError as e:
        raise UsageError(f"{path}: cannot read to digest it: {e.strerror}") from e
    return "sha256:" + h.hexdigest()


def task_digest_lines(root: str) -> list[bytes]:
    """One line per file or symlink under ``root`` (directories are implied by paths):

    ``<kind> SP <sha256 hex> SP <relative path> LF`` where kind is ``f`` (regular file, no
    execute bit), ``x`` (regular file with any execute bit) or ``l`` (symlink, NOT followed;
    the digest is of its target string), the path is POSIX-style UTF-8 relative to ``root``,
    and lines are sorted by path bytes.

    Raises:
        UsageError: a special file (FIFO, socket, device) or a name with a newline in it.
    """
    entries: list[tuple[bytes, bytes]] = []
    def fail(error: OSError) -> None:
        raise UsageError(f"{error.filename}: cannot read to digest the task: {error.strerror}")

    for directory, subdirs, files in os.walk(root, onerror=fail, followlinks=False):
        subdirs.sort()
        for name in [*files, *(d for d in subdirs if os.path.islink(os.path.join(directory, d)))]:
            path = os.path.join(directory, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if "\n" in rel:
                raise UsageError(f"{path}: a file name with a newline cannot be digested")
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                kind, digest = b"l", hashlib.sha256(os.fsencode(os.readlink(path))).hexdigest()
            elif stat.S_ISREG(st.st_mode):
                kind = b"x" if st.st_mode & 0o111 else b"f"
                digest = file_digest(path).removeprefix("sha256:")
            else:
                raise UsageError(f"{path}: not a regular file, directory or symlink; a task "
                                 "directory with special files cannot be attested")
            entries.append((os.fsencode(rel), b"%s %s %s\n" % (kind, digest.encode(),
                                                               os.fsencode(rel))))
    return [line for _, line in sorted(entries)]


def task_digest(root: str) -> str:
    """"sha256:<hex>" of the concatenated :func:`task_digest_lines` of the task directory.

    Raises:
        UsageError: see :func:`task_digest_lines`.
    """
    return "sha256:" + hashlib.sha256(b"".join(task_digest_lines(root))).hexdigest()


# --- the statement ----------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class AttestInputs:
    """What the predicate needs beyond the :class:`TrialResult` (digests as "sha256:<hex>")."""

    snapshot_digest: str = attrs.field(validator=_digest_validator)
    task_digest: str = attrs.field(validator=_digest_validator)
    test_sh_digest: str = attrs.field(validator=_digest_validator)
    image_id: str = attrs.field(validator=attrs.validators.min_len(1))
    policy_name: str = attrs.field(validator=attrs.validators.min_len(1))
    policy_digest: str = attrs.field(validator=_digest_validator)
    #: Options that change a verdict: threshold, workspace (ro|scratch), mitigations.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: (absolute path, root digest) of each directory carried to the verifier.
    carried: tuple[tuple[str, str], ...] = ()
    fcv_version: str = attrs.field(factory=fcv_version)
    #: RFC 3339 UTC time of signing.
    attested_at: str = attrs.field(factory=lambda: datetime.datetime.now(datetime.UTC)
                                   .strftime("%Y-%m-%dT%H:%M:%SZ"))


def build_statement(result: TrialResult, inputs: AttestInputs) -> dict[str, Any]:
    """The in-toto Statement v1 for a split verdict.

    Raises:
        ValueError: ``result`` is not a split verdict.
    """
    if result.mode != "split":
        raise ValueError(f"only split verdicts are attested, got mode {result.mode!r}")
    predicate = {
        "task": {"name": result.task, "digest": _digest_set(inputs.task_digest),
                 "test_sh_digest": _digest_set(inputs.test_sh_digest)},
        "image": {"id": inputs.image_id},
        "policy": {"name": inputs.policy_name, "digest": _digest_set(inputs.policy_digest)},
        "trial": {"id": result.trial_id, "mode": result.mode,
                  "snapshot_method": result.snapshot_method, "options": dict(inputs.options)},
        "verdict": result.verdict,
        "reward": result.reward,
        "rewards": dict(result.rewards) if result.rewards is not None else None,
        "error": result.error,
        "findings": [f.to_json() for f in result.findings],
        "timings": {"agent": result.agent.to_json() if result.agent else None,
                    "verifier": result.verifier.to_json() if result.verifier else None},
        "fcv": {"version": inputs.fcv_version},
        "attested_at": inputs.attested_at,
    }
    subjects = [{"name": SUBJECT_NAME, "digest": _digest_set(inputs.snapshot_digest)}]
    subjects += [{"name": CARRIED_PREFIX + path, "digest": _digest_set(digest)}
                 for path, digest in inputs.carried]
    return {"_type": STATEMENT_TYPE,
            "subject": subjects,
            "predicateType": PREDICATE_TYPE,
            "predicate": predicate}


def _digest_set(value: str) -> dict[str, str]:
    return {"sha256": _digest(value).removeprefix("sha256:")}


def canonical_json(doc: object) -> bytes:
    """Sorted keys, no whitespace, ASCII: the signed payload bytes."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def sign_result(result: TrialResult, inputs: AttestInputs, key: Ed25519PrivateKey) -> bytes:
    """The envelope file (canonical form) attesting ``result``.

    Raises:
        ValueError: ``result`` is not a split verdict.
    """
    payload = canonical_json(build_statement(result, inputs))
    return dsse.sign(PAYLOAD_TYPE, payload, key).to_bytes()


# --- verification -----------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Attestation:
    """A verified attestation: the signer's keyid, the subject, and the predicate."""

    keyid: str
    subject_digest: str
    #: Whether a snapshot was given and its recomputed root digest matched the subject.
    snapshot_checked: bool
    predicate: Mapping[str, Any]
    #: (absolute path, "sha256:<hex>") of each carried directory the verdict also covers;
    #: snapshot files hold the workspace only, so these are never checked against one.
    carried: tuple[tuple[str, str], ...] = ()

    @property
    def task(self) -> str:
        return str(self.predicate["task"]["name"])

    @property
    def verdict(self) -> str:
        return str(self.predicate["verdict"])

    @property
    def reward(self) -> float | None:
        value = self.predicate["reward"]
        return None if value is None else float(value)

    @property
    def policy(self) -> tuple[str, str]:
        policy = self.predicate["policy"]
        return str(policy["name"]), "sha256:" + str(policy["digest"]["sha256"])

    def to_json(self) -> dict[str, Any]:
        return {"schema": VERIFY_SCHEMA, "valid": True, "keyid": self.keyid,
                "subject": {"name": SUBJECT_NAME, "digest": self.subject_digest},
                "carried": [{"path": path, "digest": digest} for path, digest in self.carried],
                "snapshot_checked": self.snapshot_checked,
                "predicate_type": PREDICATE_TYPE, "predicate": dict(self.predicate)}

    def summary(self) -> str:
        reward = "" if self.reward is None else f" (reward {self.reward:g})"
        error = f": {self.predicate['error']}" if self.predicate.get("error") else ""
        name, digest = self.policy
        snapshot = ("matches the given snapshot" if self.snapshot_checked
                    else "not checked (no --snapshot)")
        return "\n".join([
            f"attestation valid, signed by keyid {self.keyid}",
            f"  task      {self.task} ({'sha256:' + self.predicate['task']['digest']['sha256']})",
            f"  verdict   {self.verdict.upper()}{reward}{error}",
            f"  policy    {name} ({digest})",
            f"  image     {self.predicate['image']['id']}",
            f"  snapshot  {self.subject_digest}: {snapshot}",
            *(f"  carried   {path} {digest}: not checked (snapshot files hold the "
              "workspace only)" for path, digest in self.carried),
            f"  signed    {self.predicate['attested_at']} by fcv {self.predicate['fcv']['version']}",
        ])


def verify_attestation(data: bytes, public_key: Ed25519PublicKey, *,
                       snapshot_digest: str | None = None) -> Attestation:
    """Check an envelope file completely: JSON, envelope, payload type, signature, keyid,
    canonical form, statement and predicate, and - given the snapshot's recomputed root
    digest - the subject.

    Raises:
        AttestationInvalid: its ``check`` names the first check that failed.
    """
    envelope = dsse.parse(data)
    payload = dsse.verify(envelope, public_key, payload_type=PAYLOAD_TYPE)
    dsse.check_canonical(data, envelope)
    statement = dsse.strict_json(payload, what="the payload", check="statement")
    subject, carried, predicate = _check_statement(statement)
    if snapshot_digest is not None and _digest(snapshot_digest) != subject:
        raise AttestationInvalid("subject", f"the attestation is for snapshot {subject}, but "
                                 f"the given snapshot's root digest is "
                                 f"{_digest(snapshot_digest)}")
    return Attestation(keyid=envelope.keyid, subject_digest=subject,
                       snapshot_checked=snapshot_digest is not None, predicate=predicate,
                       carried=carried)


def _check_statement(statement: Any) -> tuple[str, tuple[tuple[str, str], ...],
                                               dict[str, Any]]:
    """(subject digest, carried directories, predicate) of a statement, or
    AttestationInvalid ``statement``."""
    doc = _object(statement, "statement")
    dsse.exact_keys(doc, {"_type", "subject", "predicateType", "predicate"},
                    where="statement", check="statement")
    if doc["_type"] != STATEMENT_TYPE:
        _bad("_type", f"expected {STATEMENT_TYPE!r}, got {doc['_type']!r}")
    if doc["predicateType"] != PREDICATE_TYPE:
        _bad("predicateType", f"expected {PREDICATE_TYPE!r}, got {doc['predicateType']!r}")
    subjects = doc["subject"]
    if not isinstance(subjects, list) or not subjects:
        _bad("subject", "expected a non-empty list of subjects")
    digests: list[tuple[str, str]] = []
    for i, item in enumerate(subjects):
        subject = _object(item, f"subject[{i}]")
        dsse.exact_keys(subject, {"name", "digest"}, where=f"subject[{i}]", check="statement")
        name = _string(subject["name"], f"subject[{i}].name")
        if i == 0 and name != SUBJECT_NAME:
            _bad("subject[0].name", f"expected {SUBJECT_NAME!r}, got {name!r}")
        if i > 0:
            path = name.removeprefix(CARRIED_PREFIX)
            if (name == path or not path.startswith("/") or posixpath.normpath(path) != path
                    or path.startswith("//") or not path.isprintable()
                    or any(p == path for p, _ in digests[1:])):
                _bad(f"subject[{i}].name", f"expected a distinct '{CARRIED_PREFIX}/absolute/"
                                           f"path' (normalised, printable), got {name!r}")
            name = path
        digests.append((name, "sha256:" + _sha256(subject["digest"], f"subject[{i}].digest")))
    predicate = _object(doc["predicate"], "predicate")
    _check_predicate(predicate)
    return digests[0][1], tuple(digests[1:]), predicate


_PREDICATE_KEYS = {"task", "image", "policy", "trial", "verdict", "reward", "rewards", "error",
                   "findings", "timings", "fcv", "attested_at"}


def _check_predicate(p: dict[str, Any]) -> None:
    dsse.exact_keys(p, _PREDICATE_KEYS, where="predicate", check="statement")
    task = _object(p["task"], "predicate.task")
    _string(task.get("name"), "predicate.task.name")
    _sha256(task.get("digest"), "predicate.task.digest")
    _sha256(task.get("test_sh_digest"), "predicate.task.test_sh_digest")
    _string(_object(p["image"], "predicate.image").get("id"), "predicate.image.id")
    policy = _object(p["policy"], "predicate.policy")
    _string(policy.get("name"), "predicate.policy.name")
    _sha256(policy.get("digest"), "predicate.policy.digest")
    trial = _object(p["trial"], "predicate.trial")
    if trial.get("mode") != "split":
        _bad("predicate.trial.mode", f"expected 'split', got {trial.get('mode')!r}")
    if p["verdict"] not in VERDICTS:
        _bad("predicate.verdict", f"expected one of {VERDICTS}, got {p['verdict']!r}")
    reward = p["reward"]
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, int | float)
                               or not math.isfinite(reward)):
        _bad("predicate.reward", f"expected a finite number or null, got {reward!r}")
    if p["verdict"] == "pass" and reward is None:
        _bad("predicate.reward", "a pass verdict needs a reward")
    if not isinstance(p["findings"], list):
        _bad("predicate.findings", "expected a list")
    _string(_object(p["fcv"], "predicate.fcv").get("version"), "predicate.fcv.version")
    _string(p["attested_at"], "predicate.attested_at")


def _bad(where: str, message: str) -> Any:
    raise AttestationInvalid("statement", f"{where}: {message}")


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _bad(where, f"expected an object, got {dsse.kind(value)}")
    return dict(value)


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        _bad(where, f"expected a non-empty string, got {value!r}")
    return str(value)


def _sha256(value: Any, where: str) -> str:
    doc = _object(value, where)
    hexdigest = doc.get("sha256")
    if set(doc) != {"sha256"} or not isinstance(hexdigest, str) or not _HEX.fullmatch(hexdigest):
        _bad(where, f"expected {{\"sha256\": <64 lowercase hex>}}, got {value!r}")
    return str(hexdigest)


# --- signing from the CLI -----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Signing:
    """Everything ``fcv run --sign KEY --attest FILE`` checks before running anything."""

    key: Ed25519PrivateKey
    out: str
    task_digest: str
    test_sh_digest: str

    @classmethod
    def prepare(cls, *, key_path: str, out: str, task: Task) -> Signing:
        """Load the key, digest the task, and check FILE can be written - before any side
        effect.

        Raises:
            UsageError: the key does not load, the task has special files, or FILE's directory
                does not exist.
        """
        key = keys.load_private_key(key_path)
        parent = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(parent):
            raise UsageError(f"--attest {out}: directory {parent} does not exist")
        if os.path.isdir(out):
            raise UsageError(f"--attest {out}: is a directory")
        return cls(key=key, out=out, task_digest=task_digest(task.path),
                   test_sh_digest=file_digest(task.test_sh))

    def inputs(self, result: TrialResult, *, snapshot_digest: str | None, policy_name: str,
               policy_digest: str, options: Mapping[str, Any]) -> AttestInputs:
        """The predicate's inputs for ``result``.

        Raises:
            VerificationError: no snapshot digest or no task image (the trial ended before its
                snapshot), so there is nothing to attest.
        """
        if snapshot_digest is None or result.task_image is None:
            raise VerificationError("nothing to attest: the trial recorded no snapshot root digest"
                             + ("" if result.task_image else " (it ended before the snapshot)"))
        carried = result.snapshot.carried if result.snapshot is not None else ()
        return AttestInputs(snapshot_digest=snapshot_digest, task_digest=self.task_digest,
                            test_sh_digest=self.test_sh_digest, image_id=result.task_image,
                            policy_name=policy_name, policy_digest=policy_digest,
                            options=options,
                            carried=tuple((c.path, c.root_digest) for c in carried))

    def write(self, result: TrialResult, inputs: AttestInputs) -> str:
        """Sign and write the envelope to FILE atomically; returns the keyid."""
        data = sign_result(result, inputs, self.key)
        tmp = f"{self.out}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self.out)
        return keys.keyid(self.key.public_key())


def verdict_options(*, threshold: float, workspace: str,
                       mitigations: Sequence[str]) -> dict[str, Any]:
    """The trial options that change a split verdict, as recorded in ``predicate.trial``."""
    return {"threshold": threshold, "workspace": workspace, "mitigations": sorted(mitigations)}
