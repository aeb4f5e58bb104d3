"""Pure: DSSE v1 envelopes (Dead Simple Signing Envelope) with one Ed25519 signature.

The signature covers the pre-authentication encoding of the DSSE protocol::

    PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body

where LEN is the byte length in ASCII decimal without leading zeros and SP one space, so the
payload type is signed together with the payload. The JSON envelope is
``{"payload": b64(body), "payloadType": type, "signatures": [{"keyid": ..., "sig": b64(sig)}]}``
with standard base64 (RFC 4648 section 4, padded).

fcv writes envelopes in one canonical form (:func:`Envelope.to_bytes`: keys sorted, two-space
indent, ASCII, one trailing newline) and :func:`parse` accepts only that form, with canonical
base64. Every byte of an envelope file is then determined by the signed content, the keyid and
the signature, so any altered byte is detected, and :func:`parse` / :func:`verify` say which
part failed (:class:`~isolation.errors.AttestationInvalid` ``.check``).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

import attrs
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from isolation.errors import AttestationInvalid
from verifier import keys

#: Ed25519 signatures are exactly this long (RFC 8032).
SIGNATURE_BYTES = 64
#: Refuse envelope files larger than this before parsing them.
MAX_ENVELOPE_BYTES = 16 << 20


def pae(payload_type: str, payload: bytes) -> bytes:
    """The DSSE v1 pre-authentication encoding: what the signature covers."""
    kind = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


@attrs.frozen(kw_only=True)
class Envelope:
    """A DSSE envelope with exactly one signature (decoded: raw payload and signature bytes)."""

    payload_type: str
    payload: bytes
    keyid: str
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {"payload": base64.b64encode(self.payload).decode("ascii"),
                "payloadType": self.payload_type,
                "signatures": [{"keyid": self.keyid,
                                "sig": base64.b64encode(self.signature).decode("ascii")}]}

    def to_bytes(self) -> bytes:
        """The canonical file form, the only one :func:`parse` accepts."""
        return (json.dumps(self.to_json(), indent=2, sort_keys=True) + "\n").encode("ascii")


def sign(payload_type: str, payload: bytes, key: Ed25519PrivateKey) -> Envelope:
    """Sign ``PAE(payload_type, payload)`` with ``key``."""
    return Envelope(payload_type=payload_type, payload=payload,
                    keyid=keys.keyid(key.public_key()),
                    signature=key.sign(pae(payload_type, payload)))


def parse(data: bytes) -> Envelope:
    """An envelope from the bytes of its file, checked for shape but not yet for signature.

    Raises:
        AttestationInvalid: check ``json`` (not UTF-8, not JSON, duplicate keys; with the
            position), ``envelope`` (missing, extra or mistyped fields, not one signature) or
            ``encoding`` (payload or sig not canonical base64).
    """
    if len(data) > MAX_ENVELOPE_BYTES:
        raise AttestationInvalid("json", f"{len(data)} bytes, more than the "
                                 f"{MAX_ENVELOPE_BYTES} an envelope may have")
    doc = strict_json(data, what="the envelope file")
    if not isinstance(doc, dict):
        raise AttestationInvalid("envelope", f"expected a JSON object, got {kind(doc)}")
    exact_keys(doc, {"payload", "payloadType", "signatures"}, where="the envelope")
    payload_type = _string(doc, "payloadType", where="the envelope")
    payload_b64 = _string(doc, "payload", where="the envelope")
    signatures = doc["signatures"]
    if not isinstance(signatures, list) or len(signatures) != 1:
        got = f"{len(signatures)} entries" if isinstance(signatures, list) else kind(signatures)
        raise AttestationInvalid("envelope", f"signatures: expected a list of exactly one "
                                 f"signature, got {got}")
    entry = signatures[0]
    if not isinstance(entry, dict):
        raise AttestationInvalid("envelope", f"signatures[0]: expected an object, got "
                                 f"{kind(entry)}")
    exact_keys(entry, {"keyid", "sig"}, where="signatures[0]")
    keyid = _string(entry, "keyid", where="signatures[0]")
    sig_b64 = _string(entry, "sig", where="signatures[0]")
    return Envelope(payload_type=payload_type, payload=b64decode(payload_b64, what="payload"),
                    keyid=keyid, signature=b64decode(sig_b64, what="signatures[0].sig"))


def verify(envelope: Envelope, public_key: Ed25519PublicKey, *, payload_type: str) -> bytes:
    """The payload, once its type is ``payload_type`` and its signature verifies with
    ``public_key`` under the keyid it names.

    Raises:
        AttestationInvalid: check ``payload-type``, ``signature`` or ``keyid``.
    """
    if envelope.payload_type != payload_type:
        raise AttestationInvalid("payload-type", f"payloadType is {envelope.payload_type!r}, "
                                 f"expected {payload_type!r}")
    expected = keys.keyid(public_key)
    named = envelope.keyid
    if len(envelope.signature) != SIGNATURE_BYTES:
        raise AttestationInvalid("signature", f"signatures[0].sig has {len(envelope.signature)} "
                                 f"bytes; an Ed25519 signature has {SIGNATURE_BYTES}")
    try:
        public_key.verify(envelope.signature, pae(envelope.payload_type, envelope.payload))
    except InvalidSignature:
        other = "" if named == expected else (
            f"; the envelope names keyid {named}, the given public key is {expected}: was it "
            "signed with another key?")
        raise AttestationInvalid(
            "signature", "the Ed25519 signature does not verify over PAE(payloadType, payload): "
            f"the payload or the signature was altered{other}") from None
    if named != expected:
        raise AttestationInvalid("keyid", f"signatures[0].keyid was altered: the signature "
                                 f"verifies with the given key, whose keyid is {expected}, "
                                 f"but the envelope names {named}")
    return envelope.payload


def check_canonical(data: bytes, envelope: Envelope) -> None:
    """Reject bytes of the file outside what :func:`verify` covers (whitespace, key order,
    escapes) that differ from the canonical form.

    Raises:
        AttestationInvalid: check ``canonical-form``, naming the first differing byte.
    """
    canonical = envelope.to_bytes()
    if data == canonical:
        return
    offset = next((i for i, (a, b) in enumerate(zip(data, canonical, strict=False)) if a != b),
                  min(len(data), len(canonical)))
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    raise AttestationInvalid(
        "canonical-form", f"byte {offset} (line {line}, column {column}) differs from the "
        f"canonical form fcv writes: the file was altered outside the signed payload "
        f"(found {data[offset:offset + 1]!r}, expected {canonical[offset:offset + 1]!r})")


def b64decode(text: str, *, what: str) -> bytes:
    """Standard, padded base64 that re-encodes to the very same text.

    Raises:
        AttestationInvalid: check ``encoding``.
    """
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError) as e:
        raise AttestationInvalid("encoding", f"{what} is not base64: {e}") from None
    if base64.b64encode(raw).decode("ascii") != text:
        raise AttestationInvalid("encoding", f"{what} is not canonical base64 (padding or "
                                 "unused trailing bits altered)")
    return raw


def strict_json(data: bytes, *, what: str, check: str = "json") -> Any:
    """JSON from UTF-8 bytes, refusing duplicate keys and NaN/Infinity.

    Raises:
        AttestationInvalid: ``check`` (``json`` by default), with the position where it failed.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise AttestationInvalid(check, f"{what} is not UTF-8: byte {e.start} "
                                 f"({data[e.start:e.start + 1]!r})") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise AttestationInvalid(check, f"{what} is not valid JSON: {e.msg} at line "
                                 f"{e.lineno} column {e.colno} (char {e.pos})") from None
    except ValueError as e:
        raise AttestationInvalid(check, f"{what}: {e}") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def exact_keys(doc: dict[str, Any], expected: set[str], *, where: str,
               check: str = "envelope") -> None:
    """Raises AttestationInvalid (``check``) unless ``doc`` has exactly the ``expected`` keys."""
    missing, extra = expected - doc.keys(), doc.keys() - expected
    if missing or extra:
        parts = [f"missing {sorted(missing)}"] if missing else []
        parts += [f"unexpected {sorted(extra)}"] if extra else []
        raise AttestationInvalid(check, f"{where}: {', '.join(parts)} (expected exactly "
                                 f"{sorted(expected)})")


def _string(doc: dict[str, Any], key: str, *, where: str) -> str:
    value = doc[key]
    if not isinstance(value, str):
        raise AttestationInvalid("envelope", f"{where}: {key}: expected a string, got "
                                 f"{kind(value)}")
    return value


def kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), type(value).__name__)
