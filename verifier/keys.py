"""Ed25519 signing keys for attestations: generate, load, and name them by keyid.

Key handling is ``cryptography``'s: PKCS#8 PEM for the private key (unencrypted, mode 0600),
SubjectPublicKeyInfo PEM for the public key. A key's *keyid* is the lowercase hex SHA-256 of
its 32 raw public-key bytes (RFC 8032 encoding), so anyone holding the ``.pub`` file can
recompute it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from isolation.errors import UsageError

PRIVATE_SUFFIX = ".key"
PUBLIC_SUFFIX = ".pub"
PRIVATE_MODE = 0o600
PUBLIC_MODE = 0o644


def keyid(public_key: Ed25519PublicKey) -> str:
    """Lowercase hex SHA-256 of the key's raw 32 public bytes."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()


def generate(prefix: str) -> tuple[str, str, str]:
    """Write a new key pair to ``PREFIX.key`` (PKCS#8 PEM, mode 0600) and ``PREFIX.pub``.

    Each file is created exclusively (``O_CREAT|O_EXCL``, which also refuses a symlink in
    the way), so an existing key is never overwritten and the private key is never readable
    by others, not even for a moment. Returns (key path, public key path, keyid).

    Raises:
        UsageError: either file already exists, or its directory is missing or not writable.
    """
    key_path, pub_path = prefix + PRIVATE_SUFFIX, prefix + PUBLIC_SUFFIX
    for path in (key_path, pub_path):
        if os.path.lexists(path):
            raise UsageError(f"{path}: already exists; fcv keygen never overwrites a key "
                             "(choose another PREFIX or remove the old pair)")
    private = Ed25519PrivateKey.generate()
    private_pem = private.private_bytes(serialization.Encoding.PEM,
                                        serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption())
    public_pem = private.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo)
    _create(key_path, private_pem, PRIVATE_MODE)
    try:
        _create(pub_path, public_pem, PUBLIC_MODE)
    except BaseException:
        # Never leave half a pair: a private key without its public half is useless and unsafe.
        with contextlib.suppress(OSError):
            os.unlink(key_path)
        raise
    return key_path, pub_path, keyid(private.public_key())


def _create(path: str, data: bytes, mode: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    except FileExistsError as e:
        raise UsageError(f"{path}: already exists; fcv keygen never overwrites a key") from e
    except OSError as e:
        raise UsageError(f"{path}: cannot create: {e.strerror}") from e
    try:
        os.fchmod(fd, mode)  # exactly this mode, whatever the umask
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def load_private_key(path: str) -> Ed25519PrivateKey:
    """The Ed25519 private key in the PEM file at ``path``.

    Raises:
        UsageError: the file is missing or unreadable, not PEM, encrypted, or not Ed25519.
    """
    data = _read(path, what="signing key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError as e:  # encrypted, and no password given
        raise UsageError(f"{path}: the signing key is encrypted; fcv needs an unencrypted "
                         "PKCS#8 PEM key (fcv keygen writes one)") from e
    except (ValueError, UnsupportedAlgorithm) as e:
        raise UsageError(f"{path}: not a PEM private key (fcv keygen writes one)") from e
    if not isinstance(key, Ed25519PrivateKey):
        raise UsageError(f"{path}: expected an Ed25519 private key, got "
                         f"{type(key).__name__.lstrip('_')}")
    return key


def exposure(path: str) -> str | None:
    """Why the private key file at ``path`` may be exposed (readable or writable beyond its
    owner, as ``ssh`` would complain), or None. Signing goes on: the key may already be out,
    and refusing would not bring it back, but the operator should know."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        return None  # loading the key reports a missing or unreadable file
    if mode & 0o077:
        return (f"{path}: the signing key is accessible to group or others (mode {mode:04o}); "
                f"anyone who can read it can sign verdicts: chmod 600 {path}")
    return None


def load_public_key(path: str) -> Ed25519PublicKey:
    """The Ed25519 public key in the PEM file at ``path``.

    Raises:
        UsageError: the file is missing or unreadable, not a PEM public key, or not Ed25519.
    """
    data = _read(path, what="public key")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, UnsupportedAlgorithm) as e:
        raise UsageError(f"{path}: not a PEM public key (SubjectPublicKeyInfo, as fcv keygen "
                         "writes in PREFIX.pub)") from e
    if not isinstance(key, Ed25519PublicKey):
        raise UsageError(f"{path}: expected an Ed25519 public key, got "
                         f"{type(key).__name__.lstrip('_')}")
    return key


def _read(path: str, *, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(1 << 16)
    except FileNotFoundError as e:
        raise UsageError(f"{path}: {what} file does not exist") from e
    except OSError as e:
        raise UsageError(f"{path}: cannot read the {what}: {e.strerror}") from e
