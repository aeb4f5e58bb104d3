"""Snapshot files: a snapshot exported to one file, and imported again into a volume.

The file is a gzip-compressed tar (docs/formats.md): ``manifest.json`` (an
``fcv.manifest/v1`` document) first, optionally ``result.json`` (the ``fcv.trial/v1`` document
of the trial that produced it), then the directory ``workspace`` and everything below it.

Export streams the volume out of a never-started container twice (once for the manifest,
once to copy, checking every member against the manifest as it passes). Import never touches
this machine's filesystem beyond reading the file: it validates the manifest before the first
side effect, then validates every member while streaming it into a new labelled volume through
the Engine archive API, and finally recomputes the volume's manifest from the engine. Memory is
bounded by a few chunks whatever the archive's size.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import secrets
import tarfile
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any, BinaryIO

import attrs

from isolation import labels as L
from isolation import manifest as M
from isolation import tarstream
from isolation.engine import Engine, VolumeMount
from isolation.errors import FcvError, UsageError
from isolation.hardening import Hardening

MANIFEST_MEMBER = "manifest.json"
RESULT_MEMBER = "result.json"
WORKSPACE = "workspace"
#: Where a never-started receiver mounts the new volume during an import.
_IMPORT_ROOT = "fcv-import"
_ALLOWED = frozenset({"dir", "file", "symlink", "hardlink", "fifo"})


class ArchiveRefused(UsageError):
    """A snapshot file failed validation; the message names the file, the member and why."""

    def __init__(self, source: str, member: str | None, reason: str) -> None:
        self.source, self.member, self.reason = source, member, reason
        where = f"{source}: member {member!r}" if member is not None else source
        super().__init__(f"{where}: {reason}; the snapshot file is refused")


class ImportMismatch(FcvError):
    """The imported volume's manifest differs from the archive's (exit 3)."""


@attrs.frozen(kw_only=True)
class ImportLimits:
    """What an imported snapshot may hold (to be fed from the policy's snapshot limits)."""

    max_files: int = attrs.field(default=1_000_000, validator=attrs.validators.gt(0))
    max_bytes: int = attrs.field(default=16 << 30, validator=attrs.validators.ge(0))
    max_manifest_bytes: int = attrs.field(default=256 << 20, validator=attrs.validators.gt(0))
    max_result_bytes: int = attrs.field(default=1 << 20, validator=attrs.validators.gt(0))
    max_path_bytes: int = attrs.field(default=4096, validator=attrs.validators.gt(0))


#: The limits when the caller names none (until the policy supplies them).
DEFAULT_LIMITS = ImportLimits()


@attrs.frozen(kw_only=True)
class Imported:
    """A snapshot file loaded into a volume."""

    volume: str
    trial_id: str
    manifest: M.Manifest
    result: Mapping[str, Any] | None


# -- export ------------------------------------------------------------------------------------

def find_volume(engine: Engine, ref: str) -> str:
    """The snapshot volume of a kept trial (role ``snapshot``, else ``workspace``) or the
    volume named ``ref``.

    Raises:
        UsageError: neither exists.
    """
    found = engine.list_labelled(ref)["volumes"]
    roles: dict[str, str] = {}
    for name in found:
        info = engine.inspect_volume(name) or {}
        roles[str((info.get("Labels") or {}).get(L.ROLE))] = name
    for role in ("snapshot", "workspace"):
        if role in roles:
            return roles[role]
    if engine.inspect_volume(ref) is not None:
        return ref
    raise UsageError(f"{ref}: no kept trial (fcv run --keep) or volume of that name")


#: ``progress(done, total)``: bytes of file data streamed so far, of the manifest's total.
Progress = Callable[[int, int], None]


#: Seconds between two progress calls while a snapshot file streams.
PROGRESS_EVERY_S = 2.0


class _Meter:
    """Counts streamed bytes and calls ``progress`` at most every :data:`PROGRESS_EVERY_S`
    seconds, and once at the end (:meth:`done`) if it was called at all before: a quick
    transfer prints nothing."""

    def __init__(self, progress: Progress | None, total: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._progress, self._total, self._clock = progress, total, clock
        self._every = PROGRESS_EVERY_S
        self._done = 0
        self._next = clock() + self._every
        self._reported: int | None = None

    def add(self, n: int) -> None:
        self._done += n
        if self._progress is not None and self._clock() >= self._next:
            self._progress(self._done, self._total)
            self._reported = self._done
            self._next = self._clock() + self._every

    def done(self) -> None:
        if self._progress is not None and self._reported not in (None, self._done):
            self._progress(self._done, self._total)


def progress_line(verb: str, done: int, total: int) -> str:
    """``"exporting: 37% (198 of 536 MiB)"``."""
    pct = 100 * done // total if total else 100
    return f"{verb}: {pct}% ({done >> 20} of {total >> 20} MiB)"


def _file_member(name: str, data: bytes) -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), 0o644
    return tarstream.header(info) + data + tarstream.padding(len(data))


def export_volume(engine: Engine, volume: str, out_path: str, *, trial_id: str,
                  result: Mapping[str, Any] | None = None,
                  progress: Progress | None = None) -> M.Manifest:
    """Write ``volume`` to ``out_path`` as a snapshot file; return its manifest.

    The file appears only when complete (written beside it, then renamed). ``progress`` is
    called every few seconds while the data streams (see :data:`Progress`).

    Raises:
        EngineError: the engine refused a step.
        ManifestError: the volume changed between the two passes.
    """
    manifest = M.of_volume(engine, volume, trial_id=trial_id)
    tmp = f"{out_path}.tmp-{secrets.token_hex(4)}"
    try:
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                   compresslevel=6, mtime=0) as gz:
            doc = json.dumps(manifest.to_json(), sort_keys=True, indent=1).encode()
            gz.write(_file_member(MANIFEST_MEMBER, doc))
            if result is not None:
                gz.write(_file_member(RESULT_MEMBER, json.dumps(result, indent=2).encode()))
            meter = _Meter(progress, manifest.bytes)
            with M.volume_archive(engine, volume, trial_id=trial_id) as stream:
                _copy_members(stream.as_file(), gz, manifest, meter)
            meter.done()
            gz.write(tarstream.END)
        os.replace(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return manifest


def _copy_members(raw: tarstream.Readable, out: tarstream.Writable, manifest: M.Manifest,
                  meter: _Meter | None = None) -> None:
    seen: list[M.Entry] = []
    for member in tarstream.TarReader(raw):
        info = member.info
        path = M.relative(info.name, M.ARCHIVE_ROOT)
        if path is None:
            raise M.ManifestError(f"{info.name}: archive member outside the snapshot")
        target = info.linkname if info.type == tarfile.SYMTYPE else None
        if info.type == tarfile.LNKTYPE:
            target = M.relative(info.linkname, M.ARCHIVE_ROOT)
            info.linkname = _archive_name(target or "")
        info.name = _archive_name(path)
        is_file = info.type in (tarfile.REGTYPE, tarfile.AREGTYPE)
        if not is_file:
            info.size = 0
        out.write(tarstream.header(info))
        h = hashlib.sha256()
        for piece in member.views():
            h.update(piece)
            out.write(piece)
            if meter is not None:
                meter.add(len(piece))
        out.write(tarstream.padding(info.size))
        entry = M.entry_for(info, path, sha256=h.hexdigest() if is_file else None,
                            target=target)
        if manifest.get(path) != entry:
            raise M.ManifestError(f"{path}: the snapshot changed during the export")
        seen.append(entry)
    if len(seen) != manifest.files:
        raise M.ManifestError("the snapshot changed during the export (entry count)")


def _archive_name(path: str) -> str:
    return WORKSPACE if path == M.ROOT else f"{WORKSPACE}/{path}"


# -- import ------------------------------------------------------------------------------------

def _check_path(source: str, name: str, limits: ImportLimits) -> str:
    """The manifest path of a workspace member name, or refuse it."""
    if len(name.encode("utf-8", "surrogateescape")) > limits.max_path_bytes:
        raise ArchiveRefused(source, name[:80] + "...", f"path longer than "
                             f"{limits.max_path_bytes} bytes")
    if name.startswith("/"):
        raise ArchiveRefused(source, name, "absolute path")
    parts = name.split("/")
    if ".." in parts:
        raise ArchiveRefused(source, name, "'..' in the path")
    if any(p in ("", ".") for p in parts):
        raise ArchiveRefused(source, name, "non-canonical path (empty or '.' component)")
    if parts[0] != WORKSPACE:
        raise ArchiveRefused(source, name, f"member outside {WORKSPACE}/")
    return M.ROOT if len(parts) == 1 else "/".join(parts[1:])


def _check_manifest(source: str, manifest: M.Manifest, limits: ImportLimits) -> None:
    if manifest.files > limits.max_files:
        raise ArchiveRefused(source, MANIFEST_MEMBER, f"{manifest.files} entries, more than "
                             f"the limit of {limits.max_files}")
    if manifest.bytes > limits.max_bytes:
        raise ArchiveRefused(source, MANIFEST_MEMBER, f"{manifest.bytes} bytes of files, more "
                             f"than the limit of {limits.max_bytes}")
    for entry in manifest.entries:
        if entry.path != M.ROOT:
            _check_path(source, f"{WORKSPACE}/{entry.path}", limits)
        if entry.type not in _ALLOWED:
            raise ArchiveRefused(source, _archive_name(entry.path),
                                 f"{entry.type} device node (never imported)")


def _read_small(source: str, member: tarstream.Member, name: str, limit: int) -> bytes:
    info = member.info
    if info.name != name or info.type not in (tarfile.REGTYPE,
                                              tarfile.AREGTYPE):
        raise ArchiveRefused(source, info.name, f"expected the regular file {name}")
    if info.size > limit:
        raise ArchiveRefused(source, name, f"{info.size} bytes, more than {limit}")
    return b"".join(member.chunks())


class _Validator:
    """Checks the workspace members one by one against the manifest and the limits."""

    def __init__(self, source: str, manifest: M.Manifest, limits: ImportLimits) -> None:
        self.source, self.manifest, self.limits = source, manifest, limits
        self.kinds: dict[str, str] = {}
        self.total = 0

    def before_data(self, info: tarfile.TarInfo) -> tuple[str, str | None]:
        """Validate a member's header; return its manifest path and link target."""
        name = info.name
        path = _check_path(self.source, name, self.limits)
        if path in self.kinds:
            raise ArchiveRefused(self.source, name, "duplicate member")
        if not self.kinds and path != M.ROOT:
            raise ArchiveRefused(self.source, name, f"the first member must be {WORKSPACE}/")
        kind = {tarfile.DIRTYPE: "dir", tarfile.REGTYPE: "file",
                tarfile.AREGTYPE: "file", tarfile.SYMTYPE: "symlink",
                tarfile.LNKTYPE: "hardlink", tarfile.FIFOTYPE: "fifo",
                tarfile.CHRTYPE: "chr", tarfile.BLKTYPE: "blk"
                }.get(info.type)
        if kind in ("chr", "blk"):
            raise ArchiveRefused(self.source, name, "device node")
        if kind is None:
            raise ArchiveRefused(self.source, name, f"unsupported member type {info.type!r}")
        if kind != "file" and info.size:
            raise ArchiveRefused(self.source, name, f"a {kind} with {info.size} bytes of data")
        if path != M.ROOT:
            parent = path.rpartition("/")[0] or M.ROOT
            parent_kind = self.kinds.get(parent)
            if parent_kind == "symlink":
                raise ArchiveRefused(self.source, name,
                                     f"lies behind the symlink {_archive_name(parent)}")
            if parent_kind != "dir":
                raise ArchiveRefused(self.source, name, f"its directory {_archive_name(parent)} "
                                     "is not an earlier member")
        target: str | None = None
        if kind == "symlink":
            target = info.linkname
        elif kind == "hardlink":
            target = _check_path(self.source, info.linkname, self.limits)
            if self.kinds.get(target) != "file":
                raise ArchiveRefused(self.source, name, f"hard link to {info.linkname!r}, which "
                                     "is not an earlier regular file member")
        if len(self.kinds) + 1 > self.limits.max_files:
            raise ArchiveRefused(self.source, name, f"more than {self.limits.max_files} members")
        self.total += info.size if kind == "file" else 0
        if self.total > self.limits.max_bytes:
            raise ArchiveRefused(self.source, name,
                                 f"files exceed the limit of {self.limits.max_bytes} bytes")
        expected = self.manifest.get(path)
        if expected is None:
            raise ArchiveRefused(self.source, name, "not listed in the manifest")
        got = {"type": kind, "mode": info.mode & 0o7777, "uid": info.uid, "gid": info.gid,
               "size": info.size if kind == "file" else 0, "target": target}
        want = expected.to_json()
        fields = [k for k, v in got.items() if want[k] != v]
        if fields:
            raise ArchiveRefused(self.source, name,
                                 f"differs from the manifest ({', '.join(fields)})")
        self.kinds[path] = kind
        return path, target

    def after_data(self, name: str, path: str, digest: str) -> None:
        entry = self.manifest.get(path)
        if entry is None or entry.sha256 != digest:
            raise ArchiveRefused(self.source, name, "content does not match the manifest's "
                                 "sha256 (tampered)")

    def finish(self) -> None:
        missing = [e.path for e in self.manifest.entries if e.path not in self.kinds]
        if missing:
            raise ArchiveRefused(self.source, _archive_name(missing[0]),
                                 f"listed in the manifest but missing from the archive "
                                 f"({len(missing)} missing)")


def _open(source: str) -> BinaryIO:
    try:
        return open(source, "rb")
    except OSError as e:
        raise UsageError(f"{source}: cannot read the snapshot file: {e.strerror}") from None


def read_header(source: str, reader: Iterator[tarstream.Member],
                limits: ImportLimits) -> tuple[M.Manifest, Mapping[str, Any] | None,
                                               tarstream.Member | None]:
    """Read and validate ``manifest.json`` and the optional ``result.json``; return them and
    the first workspace member (already read from the stream)."""
    try:
        first = next(reader)
    except StopIteration:
        raise ArchiveRefused(source, None, "empty archive") from None
    data = _read_small(source, first, MANIFEST_MEMBER, limits.max_manifest_bytes)
    try:
        manifest = M.Manifest.from_json(json.loads(data), source=f"{source}: {MANIFEST_MEMBER}")
    except (ValueError, M.ManifestError) as e:
        raise ArchiveRefused(source, MANIFEST_MEMBER, f"invalid manifest: {e}") from None
    _check_manifest(source, manifest, limits)
    result: Mapping[str, Any] | None = None
    nxt = next(reader, None)
    if nxt is not None and nxt.info.name == RESULT_MEMBER:
        raw = _read_small(source, nxt, RESULT_MEMBER, limits.max_result_bytes)
        try:
            parsed = json.loads(raw)
        except ValueError as e:
            raise ArchiveRefused(source, RESULT_MEMBER, f"not JSON: {e}") from None
        if not isinstance(parsed, dict):
            raise ArchiveRefused(source, RESULT_MEMBER, "not a JSON object")
        result = parsed
        nxt = next(reader, None)
    return manifest, result, nxt


def validated_stream(source: str, raw: tarstream.Readable, *, limits: ImportLimits,
                     root: str = _IMPORT_ROOT, progress: Progress | None = None
                     ) -> tuple[M.Manifest, Mapping[str, Any] | None, Iterator[bytes]]:
    """Parse a snapshot file's header, then return a generator of the workspace re-written
    as a tar whose top member is ``root``; it raises :class:`ArchiveRefused` at the first
    member that fails validation (before passing that member on, or, for content that does
    not match its digest, before the archive's end), so a consumer never sees a complete
    archive that is not valid."""
    reader = iter(tarstream.TarReader(raw))
    try:
        manifest, result, first = read_header(source, reader, limits)
    except tarstream.TarFormatError as e:
        raise ArchiveRefused(source, None, f"not a valid archive: {e}") from None

    def generate() -> Iterator[bytes]:
        validator = _Validator(source, manifest, limits)
        meter = _Meter(progress, manifest.bytes)
        member = first
        try:
            while member is not None:
                info = member.info
                name = info.name
                path, target = validator.before_data(info)
                info.name = root if path == M.ROOT else f"{root}/{path}"
                if target is not None and info.type == tarfile.LNKTYPE:
                    info.linkname = f"{root}/{target}"
                yield tarstream.header(info)
                if info.type in (tarfile.REGTYPE, tarfile.AREGTYPE):
                    h = hashlib.sha256()
                    for chunk in member.chunks():
                        h.update(chunk)
                        meter.add(len(chunk))
                        yield chunk
                    yield tarstream.padding(info.size)
                    validator.after_data(name, path, h.hexdigest())
                member = next(reader, None)
            validator.finish()
            meter.done()
        except tarstream.TarFormatError as e:
            raise ArchiveRefused(source, None, f"not a valid archive: {e}") from None
        except (EOFError, OSError, zlib.error) as e:
            raise ArchiveRefused(source, None, f"corrupt compressed data: {e}") from None
        yield tarstream.END

    return manifest, result, generate()


def verify_file(source: str, *, limits: ImportLimits = DEFAULT_LIMITS) -> M.Manifest:
    """Validate a snapshot file completely without any engine (dry run of an import).

    Raises:
        ArchiveRefused: the file is not a valid snapshot file.
    """
    with _open(source) as f:
        try:
            gz = gzip.GzipFile(fileobj=f, mode="rb")
            manifest, _, stream = validated_stream(source, gz, limits=limits)
            for _ in stream:
                pass
        except (EOFError, OSError, zlib.error) as e:
            raise ArchiveRefused(source, None, f"corrupt compressed data: {e}") from None
    return manifest


def import_file(engine: Engine, source: str, *, trial_id: str,
                limits: ImportLimits = DEFAULT_LIMITS,
                image: str = M.STREAM_IMAGE, progress: Progress | None = None) -> Imported:
    """Load a snapshot file into a new volume labelled for ``trial_id`` (role ``snapshot``);
    ``progress`` is called every few seconds while the data streams (see :data:`Progress`).

    Nothing is extracted on this machine: validated members stream through the Engine
    archive API into a container that is created but never started. On any failure the
    volume is removed again.

    Raises:
        ArchiveRefused: the file failed validation (names the member and the reason).
        ImportMismatch: the volume's manifest, recomputed from the engine, differs.
        EngineError: the engine refused a step.
    """
    with _open(source) as f:
        try:
            gz = gzip.GzipFile(fileobj=f, mode="rb")
            manifest, result, stream = validated_stream(source, gz, limits=limits,
                                                        progress=progress)
        except (EOFError, OSError, zlib.error) as e:
            raise ArchiveRefused(source, None, f"corrupt compressed data: {e}") from None
        name = f"{L.resource_name(trial_id, 'snapshot')}-import-{secrets.token_hex(3)}"
        volume = engine.create_volume(name, labels=L.trial_labels(trial_id, "snapshot"))
        try:
            receiver = engine.create_container(
                image, ["true"], entrypoint=[], name=f"{name}-receiver",
                labels=L.trial_labels(trial_id, "receiver"),
                host_config=Hardening().host_config(),
                mounts=[VolumeMount(volume=volume, target="/" + _IMPORT_ROOT)])
            try:
                engine.put_archive(receiver, "/", stream)
            finally:
                engine.remove_container(receiver)
            loaded = M.of_volume(engine, volume, trial_id=trial_id, image=image)
            if loaded.root_digest != manifest.root_digest:
                raise ImportMismatch(
                    f"{source}: the imported volume differs from the archive's manifest: "
                    + ", ".join(manifest.differences(loaded)))
        except BaseException:
            engine.remove_volume(volume)
            raise
    return Imported(volume=volume, trial_id=trial_id, manifest=manifest, result=result)
