"""Unit tests for isolation.archive and the streaming reader (pure)."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from isolation import archive
from isolation.engine import ChunkReader


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
