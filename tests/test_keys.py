"""Unit tests for verifier.keys (key generation, loading, keyids)."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from isolation.errors import UsageError
from verifier import keys


class TestGenerate:
    def test_files_and_modes(self, tmp_path: Path) -> None:
        """PREFIX.key is PKCS#8 PEM with mode 0600, PREFIX.pub SPKI PEM; both load."""
        old = os.umask(0)  # the mode must not depend on the umask
        try:
            key_path, pub_path, keyid = keys.generate(str(tmp_path / "k"))
        finally:
            os.umask(old)
        assert stat.S_IMODE(os.stat(key_path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(pub_path).st_mode) == 0o644
        assert Path(key_path).read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
        assert Path(pub_path).read_bytes().startswith(b"-----BEGIN PUBLIC KEY-----")
        private, public = keys.load_private_key(key_path), keys.load_public_key(pub_path)
        assert keys.keyid(private.public_key()) == keys.keyid(public) == keyid

    @pytest.mark.parametrize("existing", [".key", ".pub"])
    def test_never_overwrites(self, tmp_path: Path, existing: str) -> None:
        """Either half existing refuses the whole pair and changes nothing."""
        (tmp_path / f"k{existing}").write_bytes(b"old")
        with pytest.raises(UsageError, match="already exists"):
            keys.generate(str(tmp_path / "k"))
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"k{existing}"]
        assert (tmp_path / f"k{existing}").read_bytes() == b"old"

    def test_refuses_symlink_in_the_way(self, tmp_path: Path) -> None:
        """A dangling symlink at PREFIX.key is not followed to create a file elsewhere."""
        (tmp_path / "k.key").symlink_to(tmp_path / "elsewhere")
        with pytest.raises(UsageError, match="already exists"):
            keys.generate(str(tmp_path / "k"))
        assert not (tmp_path / "elsewhere").exists()

    def test_missing_directory(self, tmp_path: Path) -> None:
        """A PREFIX in a directory that does not exist is a usage error."""
        with pytest.raises(UsageError, match="cannot create"):
            keys.generate(str(tmp_path / "no" / "k"))


class TestKeyid:
    def test_sha256_of_raw_public_key(self, tmp_path: Path) -> None:
        """keyid is the hex SHA-256 of the 32 raw public-key bytes (documented)."""
        _, pub_path, keyid = keys.generate(str(tmp_path / "k"))
        raw = keys.load_public_key(pub_path).public_bytes(serialization.Encoding.Raw,
                                                          serialization.PublicFormat.Raw)
        assert len(raw) == 32 and keyid == hashlib.sha256(raw).hexdigest()


class TestLoad:
    def test_missing(self, tmp_path: Path) -> None:
        """A missing key file is a usage error naming it."""
        with pytest.raises(UsageError, match="does not exist"):
            keys.load_private_key(str(tmp_path / "none.key"))

    def test_not_pem(self, tmp_path: Path) -> None:
        """Garbage is not a key."""
        (tmp_path / "k.key").write_bytes(b"hello")
        with pytest.raises(UsageError, match="not a PEM private key"):
            keys.load_private_key(str(tmp_path / "k.key"))
        with pytest.raises(UsageError, match="not a PEM public key"):
            keys.load_public_key(str(tmp_path / "k.key"))

    def test_public_key_as_private(self, tmp_path: Path) -> None:
        """Passing PREFIX.pub to --sign is caught."""
        _, pub_path, _ = keys.generate(str(tmp_path / "k"))
        with pytest.raises(UsageError, match="not a PEM private key"):
            keys.load_private_key(pub_path)

    def test_other_algorithm(self, tmp_path: Path) -> None:
        """A non-Ed25519 key names the type it got."""
        other = X25519PrivateKey.generate()
        (tmp_path / "x.key").write_bytes(other.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
        with pytest.raises(UsageError, match="expected an Ed25519 private key"):
            keys.load_private_key(str(tmp_path / "x.key"))

    def test_encrypted(self, tmp_path: Path) -> None:
        """An encrypted key says fcv needs an unencrypted one."""
        key_path, _, _ = keys.generate(str(tmp_path / "k"))
        key = keys.load_private_key(key_path)
        (tmp_path / "e.key").write_bytes(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"pw")))
        with pytest.raises(UsageError, match="encrypted"):
            keys.load_private_key(str(tmp_path / "e.key"))


class TestExposure:
    @pytest.mark.parametrize(("mode", "exposed"), [(0o600, False), (0o400, False),
                                                    (0o640, True), (0o604, True),
                                                    (0o620, True), (0o644, True)])
    def test_group_or_other_access(self, tmp_path: Path, mode: int, exposed: bool) -> None:
        """Any group or other permission bit on the private key is reported, with the mode
        and the fix."""
        key_path, _, _ = keys.generate(str(tmp_path / "k"))
        os.chmod(key_path, mode)
        warning = keys.exposure(key_path)
        assert (warning is not None) == exposed
        if exposed:
            assert f"mode {mode:04o}" in warning and f"chmod 600 {key_path}" in warning  # type: ignore[operator]

    def test_missing_file_left_to_loading(self, tmp_path: Path) -> None:
        """A missing key is not an exposure; loading it reports it."""
        assert keys.exposure(str(tmp_path / "none.key")) is None
