"""Unit tests for isolation.archive and the streaming reader (pure)."""

from __future__ import annotations

import http.client
import io
import os
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isolation import archive
from isolation.engine import ArchiveStream, ChunkReader
from isolation.errors import EngineUnavailable


class TestDirectoryTar:
    def test_root_owned_modes_and_exec(self, tmp_path: Path) -> None:
        """Files are root-owned, keep their modes, test.sh gets +x, symlinks stay symlinks."""
        (tmp_path / "test.sh").write_text("#!/bin/sh\n")
        os.chmod(tmp_path / "test.sh", 0o644)
        (tmp_path / "data.txt").write_text("x")
        os.symlink("data.txt", tmp_path / "link")
        data = archive.directory_tar(str(tmp_path), "tests", executable=("test.sh",))
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            members = {m.name: m for m in tar.getmembers()}
        assert members["tests/test.sh"].mode & 0o111 == 0o111
        assert members["tests/data.txt"].mode & 0o111 == 0
        assert members["tests/link"].issym() and members["tests/link"].linkname == "data.txt"
        assert all(m.uid == 0 and m.gid == 0 for m in members.values())

    def test_dirs_tar(self) -> None:
        """Directory entries carry their modes."""
        with tarfile.open(fileobj=io.BytesIO(archive.dirs_tar({"logs": 0o755,
                                                               "logs/v": 0o777}))) as tar:
            assert [(m.name, m.mode, m.isdir()) for m in tar.getmembers()] == [
                ("logs", 0o755, True), ("logs/v", 0o777, True)]


class TestChunkReader:
    @given(st.lists(st.binary(max_size=300), max_size=30), st.integers(1, 512))
    def test_reads_back_concatenation(self, chunks: list[bytes], size: int) -> None:
        """Reading in any block size yields exactly the concatenated chunks."""
        reader = io.BufferedReader(ChunkReader(chunks), buffer_size=size)
        assert reader.read() == b"".join(chunks)

    def test_streams_tar(self) -> None:
        """tarfile can stream an archive from chunks."""
        data = archive.file_tar("a/b.txt", b"hello")
        chunks = [data[i:i + 7] for i in range(0, len(data), 7)]
        with tarfile.open(fileobj=ChunkReader(chunks), mode="r|") as tar:
            member = next(iter(tar))
            f = tar.extractfile(member)
            assert member.name == "a/b.txt" and f is not None and f.read() == b"hello"


class _FakeFp:
    """The http.client response under an archive stream: readinto from bytes, then an error."""

    def __init__(self, data: bytes, error: BaseException | None = None) -> None:
        self._data = io.BytesIO(data)
        self._error = error

    def readinto(self, b: Any) -> int:
        n = self._data.readinto(b)
        if not n and self._error is not None:
            raise self._error
        return n


class _FakeResponse:
    def __init__(self, fp: _FakeFp, headers: dict[str, str] | None = None,
                 chunks: list[bytes] | None = None) -> None:
        self.raw = type("Raw", (), {"_fp": fp})()
        self.headers = headers or {}
        self._chunks = chunks or []
        self.closed = False

    def iter_content(self, size: int, decode: bool) -> Iterator[bytes]:
        return iter(self._chunks)

    def close(self) -> None:
        self.closed = True


class TestArchiveStreamFile:
    def test_reads_the_response_directly(self) -> None:
        """Without a content encoding, reads go to the HTTP response (not to iteration)."""
        res = _FakeResponse(_FakeFp(b"abc" * 100_000), chunks=[b"wrong"])
        f = ArchiveStream(res, "/x").as_file()  # type: ignore[arg-type]
        assert f.read() == b"abc" * 100_000

    def test_encoded_response_falls_back_to_chunks(self) -> None:
        """A content-encoded response is read through iteration (decoded by requests)."""
        res = _FakeResponse(_FakeFp(b"raw"), headers={"Content-Encoding": "gzip"},
                            chunks=[b"de", b"coded"])
        assert ArchiveStream(res, "/x").as_file().read() == b"decoded"  # type: ignore[arg-type]

    def test_lost_connection_is_engine_unavailable(self) -> None:
        """A connection cut mid-stream is the engine lost, and the stream is closed."""
        res = _FakeResponse(_FakeFp(b"x" * 1000, ConnectionResetError(104, "reset")))
        f = ArchiveStream(res, "/fcv-snapshot").as_file()  # type: ignore[arg-type]
        with pytest.raises(EngineUnavailable, match="lost the Docker Engine.*fcv-snapshot"):
            f.read()
        assert res.closed

    def test_incomplete_chunk_is_engine_unavailable(self) -> None:
        """http.client's IncompleteRead (the daemon died inside a chunk) maps the same way."""
        res = _FakeResponse(_FakeFp(b"", http.client.IncompleteRead(b"", 10)))
        with pytest.raises(EngineUnavailable):
            ArchiveStream(res, "/x").as_file().read(10)  # type: ignore[arg-type]

    def test_one_reader_only(self) -> None:
        """Iteration and as_file() keep separate chunk-decoding state, so mixing them (or
        taking two files) is refused rather than silently losing bytes."""
        res = _FakeResponse(_FakeFp(b"abc"), chunks=[b"abc"])
        stream = ArchiveStream(res, "/x")  # type: ignore[arg-type]
        f = stream.as_file()
        with pytest.raises(ValueError, match="already being read"):
            stream.as_file()
        with pytest.raises(ValueError, match="already read as file"):
            next(stream)
        assert f.read() == b"abc"
        iterated = ArchiveStream(_FakeResponse(_FakeFp(b"abc"), chunks=[b"a", b"bc"]),  # type: ignore[arg-type]
                                 "/x")
        assert next(iterated) == b"a"
        with pytest.raises(ValueError, match="already being read"):
            iterated.as_file()

    def test_closing_the_file_ends_the_transfer(self) -> None:
        """Closing the file closes the response (the engine's container lock is freed)."""
        res = _FakeResponse(_FakeFp(b"x" * 10))
        with ArchiveStream(res, "/x").as_file():  # type: ignore[arg-type]
            pass
        assert res.closed
