"""Unit tests for verifier.dsse (pure: PAE, envelopes, strict parsing and verification)."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings

from isolation.errors import ATTESTATION_CHECKS, EXIT_FAIL, AttestationInvalid
from tests.strategies import byte_flips
from verifier import dsse, keys

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
TYPE = "application/vnd.in-toto+json"
PAYLOAD = b'{"_type":"https://in-toto.io/Statement/v1","hello":"world"}'
ENVELOPE = dsse.sign(TYPE, PAYLOAD, KEY)
FILE = ENVELOPE.to_bytes()


def check(data: bytes, key: Ed25519PrivateKey = KEY) -> bytes:
    """parse + verify + canonical form, as verify_attestation runs them."""
    envelope = dsse.parse(data)
    payload = dsse.verify(envelope, key.public_key(), payload_type=TYPE)
    dsse.check_canonical(data, envelope)
    return payload


def rejected(data: bytes, key: Ed25519PrivateKey = KEY) -> AttestationInvalid:
    with pytest.raises(AttestationInvalid) as info:
        check(data, key)
    return info.value


def with_doc(**changes: object) -> bytes:
    doc = ENVELOPE.to_json()
    doc.update(changes)
    return (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()


class TestPae:
    def test_spec_vector(self) -> None:
        """The test vector printed in the DSSE protocol."""
        assert dsse.pae("http://example.com/HelloWorld", b"hello world") == \
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"

    def test_lengths_are_bytes(self) -> None:
        """LEN counts UTF-8 bytes, not characters."""
        assert dsse.pae("é", b"\x00\xff") == b"DSSEv1 2 \xc3\xa9 2 \x00\xff"


class TestRoundTrip:
    def test_sign_parse_verify(self) -> None:
        """A signed envelope's file parses back to itself and verifies to its payload."""
        assert dsse.parse(FILE) == ENVELOPE
        assert check(FILE) == PAYLOAD

    def test_file_shape(self) -> None:
        """The file is the DSSE JSON envelope, keyid = sha256 of the raw public key."""
        doc = json.loads(FILE)
        assert doc["payloadType"] == TYPE
        assert base64.b64decode(doc["payload"]) == PAYLOAD
        assert doc["signatures"][0]["keyid"] == keys.keyid(KEY.public_key())
        assert len(base64.b64decode(doc["signatures"][0]["sig"])) == 64


class TestTampering:
    @settings(max_examples=400)
    @given(flip=byte_flips(FILE))
    def test_any_byte_of_the_file(self, flip: tuple[int, bytes]) -> None:
        """Flipping any single byte of the envelope file is rejected, naming the check."""
        _, data = flip
        error = rejected(data)
        assert error.check in ATTESTATION_CHECKS and error.exit_code == EXIT_FAIL
        assert error.check in str(error)

    @settings(max_examples=200)
    @given(flip=byte_flips(PAYLOAD))
    def test_any_byte_of_the_payload(self, flip: tuple[int, bytes]) -> None:
        """An altered decoded payload under the original signature fails the signature."""
        _, payload = flip
        data = with_doc(payload=base64.b64encode(payload).decode())
        assert rejected(data).check == "signature"

    @settings(max_examples=200)
    @given(flip=byte_flips(ENVELOPE.signature))
    def test_any_byte_of_the_signature(self, flip: tuple[int, bytes]) -> None:
        """An altered signature fails the signature check."""
        _, sig = flip
        doc = ENVELOPE.to_json()
        doc["signatures"][0]["sig"] = base64.b64encode(sig).decode()
        data = (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()
        error = rejected(data)
        assert error.check == "signature" and "does not verify" in str(error)

    def test_wrong_key(self) -> None:
        """Another key's public half is rejected, naming both keyids."""
        error = rejected(FILE, OTHER)
        assert error.check == "signature"
        assert keys.keyid(OTHER.public_key()) in str(error)
        assert ENVELOPE.keyid in str(error)

    def test_keyid_altered(self) -> None:
        """A keyid edited while the signature still verifies is its own check."""
        doc = ENVELOPE.to_json()
        doc["signatures"][0]["keyid"] = "0" * 64
        error = rejected((json.dumps(doc, indent=2, sort_keys=True) + "\n").encode())
        assert error.check == "keyid" and "0" * 64 in str(error)

    def test_whitespace_outside_payload(self) -> None:
        """Reformatted JSON is the canonical-form check, with the first differing byte."""
        data = FILE.replace(b'  "payloadType"', b'\t"payloadType"')
        error = rejected(data)
        assert error.check == "canonical-form"
        offset = FILE.index(b'  "payloadType"')
        assert f"byte {offset} (line 3, column 1)" in str(error)

    def test_payload_type(self) -> None:
        """A different payloadType is reported as such."""
        error = rejected(with_doc(payloadType="text/plain"))
        assert error.check == "payload-type" and "text/plain" in str(error)

    def test_bad_json_position(self) -> None:
        """Broken JSON names line and column."""
        error = rejected(FILE[:-3])
        assert error.check == "json" and "line" in str(error) and "column" in str(error)

    def test_not_utf8(self) -> None:
        """Non-UTF-8 bytes name their offset."""
        error = rejected(b'{"a":"\xff"}')
        assert error.check == "json" and "byte 6" in str(error)

    def test_duplicate_key(self) -> None:
        """A duplicate key is refused (two readers could disagree on it)."""
        data = FILE.replace(b'{\n  "payload"', b'{\n  "payload": "", "payload"', 1)
        error = rejected(data)
        assert error.check == "json" and "duplicate key 'payload'" in str(error)

    @pytest.mark.parametrize("signatures", [[], "x", [{"keyid": "a", "sig": "b"}] * 2])
    def test_signature_count(self, signatures: object) -> None:
        """Exactly one signature."""
        assert rejected(with_doc(signatures=signatures)).check == "envelope"

    def test_extra_field(self) -> None:
        """Unknown envelope fields are refused, by name."""
        error = rejected(with_doc(extra=1))
        assert error.check == "envelope" and "'extra'" in str(error)

    def test_payload_not_base64(self) -> None:
        """A payload that is not base64 says so."""
        error = rejected(with_doc(payload="not base64!"))
        assert error.check == "encoding" and "payload is not base64" in str(error)

    def test_non_canonical_base64(self) -> None:
        """Unused trailing bits altered: same bytes, different text, refused."""
        text = base64.b64encode(b"ab").decode()  # 'YWI=': 'I' carries 2 unused bits
        altered = text[:2] + "J="
        assert base64.b64decode(altered) == b"ab"
        with pytest.raises(AttestationInvalid, match="not canonical base64"):
            dsse.b64decode(altered, what="payload")
