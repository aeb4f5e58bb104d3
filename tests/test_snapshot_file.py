"""Unit tests for isolation.tarstream, isolation.manifest and isolation.snapshot_file (pure:
no engine). Hostile snapshot files are generated; none may be accepted, and every valid one
must validate to the root digest it was written with."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isolation import manifest as M
from isolation import snapshot_file as SF
from isolation import tarstream
from isolation.engine import ChunkReader
from tests.strategies import (
    HOSTILE_EDITS,
    Member,
    build_tar,
    directory,
    hardlink,
    regular,
    special,
    symlink,
    workspace_trees,
)


def manifest_of(members: list[Member]) -> M.Manifest:
    """The manifest of a workspace member list, as fcv would compute it from the engine."""
    renamed = [Member(name="fcv-snapshot" + m.name[len("workspace"):], kind=m.kind, data=m.data,
                      linkname=("fcv-snapshot" + m.linkname[len("workspace"):]
                                if m.kind == "hardlink" else m.linkname)) for m in members]
    return M.build_manifest(io.BytesIO(build_tar(renamed)), root="fcv-snapshot")


def snapshot_file(members: list[Member], manifest: M.Manifest | None = None) -> bytes:
    """A gzip-compressed snapshot file: manifest.json, then the members."""
    manifest = manifest or manifest_of([m for m in members if m.name.startswith("workspace")
                                        and ".." not in m.name])
    doc = json.dumps(manifest.to_json()).encode()
    return gzip.compress(build_tar([regular("manifest.json", doc), *members]))


def check(data: bytes, tmp_path: Path, limits: SF.ImportLimits = SF.DEFAULT_LIMITS
          ) -> M.Manifest:
    path = tmp_path / "snap.tar.gz"
    path.write_bytes(data)
    return SF.verify_file(str(path), limits=limits)


class TestTarStream:
    def test_truncated_archive(self) -> None:
        """A stream cut anywhere is an error, never a shorter archive."""
        data = build_tar([directory("w"), regular("w/a", b"x" * 1000)])
        for cut in (100, 512, 700, 1536, 2048):
            with pytest.raises(tarstream.TarFormatError):
                for member in tarstream.TarReader(io.BytesIO(data[:cut])):
                    list(member.chunks())

    def test_damaged_header(self) -> None:
        """A header with a bad checksum is an error, not the end of the archive."""
        data = bytearray(build_tar([directory("w"), regular("w/a", b"x")]))
        data[512 + 10] ^= 0xFF
        with pytest.raises(tarstream.TarFormatError, match="damaged header"):
            list(tarstream.TarReader(io.BytesIO(bytes(data))))

    def test_oversized_extended_header(self) -> None:
        """A pax header larger than the cap is refused before it is read."""
        data = build_tar([regular("w/" + "x" * 5000, b"")])
        with pytest.raises(tarstream.TarFormatError, match="extended header"):
            list(tarstream.TarReader(io.BytesIO(data), max_extended_header=1024))

    def test_long_names_round_trip(self) -> None:
        """Long and non-ASCII names survive the pax header."""
        name = "w/" + "é" * 200
        [member] = list(tarstream.TarReader(io.BytesIO(build_tar([regular(name, b"hi")]))))
        assert member.info.name == name


class _ReadOnly:
    """A stream with ``read`` but no ``readinto`` (the reader's copying path)."""

    def __init__(self, data: bytes) -> None:
        self._f = io.BytesIO(data)

    def read(self, size: int, /) -> bytes:
        return self._f.read(size)


class TestZeroCopyReads:
    """Member.views reads into one reused buffer where the stream has readinto; it must give
    the same bytes as the copying path, whatever the sizes and however the stream is cut."""

    @given(st.lists(st.integers(0, 3 * tarstream.CHUNK), min_size=1, max_size=3),
           st.integers(1, 70_000))
    @settings(max_examples=15, deadline=None)
    def test_views_equal_copies(self, sizes: list[int], piece: int) -> None:
        members = [directory("w")] + [regular(f"w/f{i}", bytes([i + 1]) * n)
                                      for i, n in enumerate(sizes)]
        data = build_tar(members)
        pieces = [data[i:i + piece] for i in range(0, len(data), piece)]
        fast = M.build_manifest(io.BufferedReader(ChunkReader(pieces), buffer_size=4096),
                                root="w")
        slow = M.build_manifest(_ReadOnly(data), root="w")
        assert fast == slow
        assert [e.sha256 for e in fast.entries if e.type == "file"] == [
            hashlib.sha256(bytes([i + 1]) * n).hexdigest() for i, n in enumerate(sizes)]

    def test_views_reuse_one_buffer(self) -> None:
        """No piece is copied: every piece of a large member is a view of the same buffer."""
        data = build_tar([regular("w/a", b"y" * (2 * tarstream.CHUNK + 5))])
        reader = tarstream.TarReader(io.BytesIO(data))
        member = next(iter(reader))
        bases = set()
        total = 0
        for piece in member.views():
            assert isinstance(piece, memoryview)
            bases.add(id(piece.obj))
            total += len(piece)
        assert total == 2 * tarstream.CHUNK + 5 and len(bases) == 1

    def test_truncated_inside_data(self) -> None:
        """A stream cut inside a member's data is an error on the zero-copy path too."""
        data = build_tar([directory("w"), regular("w/a", b"x" * 100_000)])
        with pytest.raises(M.ManifestError, match="truncated inside the data"):
            M.build_manifest(io.BytesIO(data[:50_000]), root="w")


class TestManifest:
    def test_entries_and_digest(self) -> None:
        """Paths are relative, sorted, hashed; hard links and symlinks keep their targets."""
        m = manifest_of([directory("workspace"), regular("workspace/b", b"hi"),
                         symlink("workspace/a", "/etc/passwd"), hardlink("workspace/c",
                                                                          "workspace/b")])
        assert [e.path for e in m.entries] == [".", "a", "b", "c"]
        b = m.get("b")
        assert b is not None and b.sha256 == hashlib.sha256(b"hi").hexdigest() and b.size == 2
        assert m.get("a").target == "/etc/passwd"  # type: ignore[union-attr]
        assert m.get("c").target == "b"  # type: ignore[union-attr]
        line = b"".join(e.canonical() for e in m.entries)
        assert m.root_digest == "sha256:" + hashlib.sha256(b"fcv.manifest/v1\n" + line).hexdigest()

    @given(workspace_trees())
    def test_json_round_trip(self, members: list[Member]) -> None:
        """to_json/from_json round-trips to the same root digest."""
        m = manifest_of(members)
        assert M.Manifest.from_json(json.loads(json.dumps(m.to_json())), source="t") == m

    def test_forged_root_digest(self) -> None:
        """A manifest whose root digest does not match its entries is refused."""
        doc = manifest_of([directory("workspace"), regular("workspace/a", b"1")]).to_json()
        doc["entries"][1]["sha256"] = hashlib.sha256(b"2").hexdigest()
        with pytest.raises(M.ManifestError, match="does not match"):
            M.Manifest.from_json(doc, source="t")

    def test_outside_root_refused(self) -> None:
        """A member outside the archived directory is an error."""
        with pytest.raises(M.ManifestError, match="outside"):
            M.build_manifest(io.BytesIO(build_tar([directory("w"), regular("x", b"")])),
                             root="w")

    def test_differences(self) -> None:
        """differences() names added, removed and changed paths."""
        a = manifest_of([directory("workspace"), regular("workspace/a", b"1"),
                         regular("workspace/b", b"1")])
        b = manifest_of([directory("workspace"), regular("workspace/a", b"2"),
                         regular("workspace/c", b"1")])
        assert a.differences(b) == ["changed a (size, sha256)" if False else
                                    "changed a (sha256)", "removed b", "added c"]
        assert M.check_unchanged(a, a) is None
        assert "snapshot modified during verification" in (M.check_unchanged(a, b) or "")


def _hostile(members: list[Member], edit: str, draw_index: int) -> tuple[list[Member],
                                                                          M.Manifest | None]:
    """Apply one hostile edit; return the members and the manifest to embed (None: the
    manifest of the unedited members)."""
    good = manifest_of(members)
    files = [m for m in members if m.kind == "file"]
    out = list(members)
    if edit == "absolute":
        out.append(regular("/workspace/x", b""))
    elif edit == "dotdot":
        out.append(regular("workspace/../x", b""))
    elif edit == "outside":
        out.append(regular("elsewhere/x", b""))
    elif edit == "empty-component":
        out.append(regular("workspace//x", b""))
    elif edit == "device":
        out.append(special("workspace/zz-dev", draw_index % 2 and "chr" or "blk"))
    elif edit == "hardlink-later":
        out.insert(1, hardlink("workspace/zz-link", "workspace/zz-later"))
        out.append(regular("workspace/zz-later", b"x"))
        return out, manifest_of([members[0], regular("workspace/zz-later", b"x"),
                                 hardlink("workspace/zz-link", "workspace/zz-later"),
                                 *members[1:]])
    elif edit == "hardlink-missing":
        out.append(hardlink("workspace/zz-link", "workspace/nothing"))
    elif edit == "hardlink-to-dir":
        out.append(hardlink("workspace/zz-link", "workspace"))
    elif edit == "behind-symlink":
        link = [symlink("workspace/zz-s", "/etc"), regular("workspace/zz-s/passwd", b"x")]
        out += link
        return out, manifest_of(members + link)
    elif edit == "no-parent":
        out.append(regular("workspace/zz-none/x", b""))
    elif edit == "duplicate":
        out.append(out[draw_index % len(out)])
    elif edit == "extra":
        out.append(regular("workspace/zz-extra", b""))
    elif edit == "missing":
        extra = regular("workspace/zz-gone", b"")
        return out, manifest_of(members + [extra])
    elif edit == "content":
        if not files:
            out.append(regular("workspace/zz-c", b"a"))
            return [*members, regular("workspace/zz-c", b"b")], manifest_of(out)
        victim = files[draw_index % len(files)]
        out[out.index(victim)] = regular(victim.name, victim.data + b"!")
    elif edit == "mode":
        out.append(regular("workspace/zz-m", b""))
        return out, manifest_of([*members, directory("workspace/zz-m")])
    return out, good


class TestImportValidation:
    @settings(max_examples=60, deadline=None)
    @given(workspace_trees())
    def test_valid_round_trips(self, members: list[Member]) -> None:
        """Every valid snapshot file validates, to the root digest it was written with."""
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            m = check(snapshot_file(members), Path(d))
        assert m.root_digest == manifest_of(members).root_digest

    @settings(max_examples=150, deadline=None)
    @given(workspace_trees(), st.sampled_from(HOSTILE_EDITS), st.integers(0, 100))
    def test_hostile_refused(self, members: list[Member], edit: str, index: int) -> None:
        """No hostile snapshot file is accepted; the refusal names a member or the file."""
        import tempfile
        bad, manifest = _hostile(members, edit, index)
        try:
            data = snapshot_file(bad, manifest)
        except M.ManifestError:
            return  # the edit cannot even be described by a manifest: nothing to import
        with tempfile.TemporaryDirectory() as d, pytest.raises(SF.ArchiveRefused) as info:
            check(data, Path(d))
        assert "refused" in str(info.value)

    def test_limits(self, tmp_path: Path) -> None:
        """Counts and sizes over the limits are refused before anything is imported."""
        members = [directory("workspace"), regular("workspace/a", b"x" * 100),
                   regular("workspace/b", b"")]
        data = snapshot_file(members)
        with pytest.raises(SF.ArchiveRefused, match="more than the limit of 2"):
            check(data, tmp_path, SF.ImportLimits(max_files=2))
        with pytest.raises(SF.ArchiveRefused, match="more than the limit of 99"):
            check(data, tmp_path, SF.ImportLimits(max_bytes=99))
        assert check(data, tmp_path, SF.ImportLimits(max_files=3, max_bytes=100)).files == 3

    def test_messages(self, tmp_path: Path) -> None:
        """Refusals name the member and the reason."""
        members = [directory("workspace"), symlink("workspace/s", "/etc")]
        bad = [*members, regular("workspace/s/passwd", b"")]
        data = snapshot_file(bad, manifest_of(bad))
        with pytest.raises(SF.ArchiveRefused,
                           match="member 'workspace/s/passwd': lies behind the symlink"):
            check(data, tmp_path)
        dev = [directory("workspace"), special("workspace/null", "chr")]
        with pytest.raises(SF.ArchiveRefused, match="device node"):
            check(snapshot_file(dev, manifest_of(dev)), tmp_path)

    def test_not_gzip_or_truncated(self, tmp_path: Path) -> None:
        """Garbage and truncated files are refused, not half-read."""
        good = snapshot_file([directory("workspace"), regular("workspace/a", b"x" * 4000)])
        with pytest.raises(SF.ArchiveRefused):
            check(b"not a snapshot", tmp_path)
        with pytest.raises(SF.ArchiveRefused):
            check(good[: len(good) // 2], tmp_path)
        raw = gzip.decompress(good)
        with pytest.raises(SF.ArchiveRefused):
            check(gzip.compress(raw.rstrip(b"\0")[:-10]), tmp_path)

    def test_manifest_must_come_first(self, tmp_path: Path) -> None:
        """A file that does not start with manifest.json is refused."""
        data = gzip.compress(build_tar([directory("workspace")]))
        with pytest.raises(SF.ArchiveRefused, match="manifest.json"):
            check(data, tmp_path)

    def test_tarfile_agrees(self) -> None:
        """The writer's output is a standard tar (tarfile reads what fcv writes)."""
        info = tarfile.TarInfo("w/" + "x" * 300)
        info.size = 3
        raw = tarstream.header(info) + b"abc" + tarstream.padding(3) + tarstream.END
        with tarfile.open(fileobj=io.BytesIO(raw)) as t:
            [m] = t.getmembers()
            assert m.name == info.name and t.extractfile(m).read() == b"abc"  # type: ignore[union-attr]


class TestProgress:
    def test_meter_throttles_and_finishes(self) -> None:
        """Progress is reported at most every PROGRESS_EVERY_S, then at the end unless that
        was the last report; a transfer quicker than that reports nothing."""
        now = [0.0]
        calls: list[tuple[int, int]] = []
        meter = SF._Meter(lambda d, t: calls.append((d, t)), 100, clock=lambda: now[0])
        meter.add(10)          # t=0: too early
        now[0] = 2.5
        meter.add(10)          # reported
        meter.add(10)          # too soon after
        now[0] = 5.0
        meter.add(70)          # reported
        meter.done()           # 100 was already reported: not again
        assert calls == [(20, 100), (100, 100)]
        tail: list[tuple[int, int]] = []
        meter = SF._Meter(lambda d, t: tail.append((d, t)), 10, clock=lambda: now[0])
        now[0] = 10.0
        meter.add(4)           # reported
        meter.add(6)           # too soon
        meter.done()           # the end, not reported yet
        assert tail == [(4, 10), (10, 10)]
        quiet: list[tuple[int, int]] = []
        fast = SF._Meter(lambda d, t: quiet.append((d, t)), 5, clock=lambda: 0.0)
        fast.add(5)
        fast.done()
        assert quiet == []

    def test_line(self) -> None:
        assert SF.progress_line("exporting", 198 << 20, 536 << 20) == \
            "exporting: 36% (198 of 536 MiB)"
        assert SF.progress_line("importing", 0, 0) == "importing: 100% (0 of 0 MiB)"

    def test_import_stream_reports_every_byte(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wired into the import stream: the counts add up to the manifest's bytes."""
        monkeypatch.setattr(SF, "PROGRESS_EVERY_S", 0.0)
        members = [directory("workspace"), regular("workspace/a", b"x" * 3000),
                   regular("workspace/b", b"y" * 5)]
        data = gzip.decompress(snapshot_file(members))
        calls: list[tuple[int, int]] = []
        manifest, _, stream = SF.validated_stream("f", io.BytesIO(data),
                                                  limits=SF.DEFAULT_LIMITS,
                                                  progress=lambda d, t: calls.append((d, t)))
        for _ in stream:
            pass
        assert calls and calls[-1] == (3005, 3005) == (manifest.bytes, manifest.bytes)
        assert [d for d, _ in calls] == sorted(d for d, _ in calls)
