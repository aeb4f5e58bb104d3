"""Manifests of snapshots: every entry of a workspace and one root digest over them.

A manifest is computed in fcv's own process from the Engine archive API's tar stream of the
snapshot (:func:`of_volume`), taken from a container that is created but never started, so
nothing from the agent's image runs, no link is followed and no FIFO or device is opened.
Regular files are hashed chunk by chunk as the stream passes; nothing is extracted or buffered.

The pure core is :func:`build_manifest` (a tar stream in, a :class:`Manifest` out) and the
canonical serialisation behind :attr:`Manifest.root_digest`, documented in docs/formats.md so
that anyone can recompute it:

    root_digest = "sha256:" + hex(sha256(b"fcv.manifest/v1\\n" + line(e1) + line(e2) + ...))

with the entries sorted by the UTF-8 bytes of their paths and ``line(e)`` the entry's JSON
object with keys sorted, no whitespace, ASCII only, and a newline.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import tarfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import attrs

from isolation import labels as L
from isolation import tarstream
from isolation.engine import ArchiveStream, ChunkReader, Engine, VolumeMount
from isolation.errors import FcvError
from isolation.hardening import Hardening

SCHEMA = "fcv.manifest/v1"
#: Entry types, by tar member type.
TYPES = ("dir", "file", "symlink", "hardlink", "fifo", "chr", "blk")
_BY_TARTYPE = {
    tarfile.DIRTYPE: "dir",
    tarfile.REGTYPE: "file",
    tarfile.AREGTYPE: "file",
    tarfile.SYMTYPE: "symlink",
    tarfile.LNKTYPE: "hardlink",
    tarfile.FIFOTYPE: "fifo",
    tarfile.CHRTYPE: "chr",
    tarfile.BLKTYPE: "blk",
}
TARTYPE = {"dir": tarfile.DIRTYPE, "file": tarfile.REGTYPE, "symlink": tarfile.SYMTYPE,
           "hardlink": tarfile.LNKTYPE, "fifo": tarfile.FIFOTYPE, "chr": tarfile.CHRTYPE,
           "blk": tarfile.BLKTYPE}
ROOT = "."
#: The image whose never-started container lends its mount point to the archive API.
STREAM_IMAGE = "fcv/python:bookworm"
#: The volume is mounted at ``/ARCHIVE_ROOT``, so the archive's top member is this name.
ARCHIVE_ROOT = "fcv-snapshot"
_SHA256_HEX = frozenset("0123456789abcdef")


class ManifestError(FcvError):
    """A manifest could not be computed or does not parse; the message names the path."""


def path_key(path: str) -> bytes:
    """The canonical sort key of a manifest path: its UTF-8 bytes (undecodable bytes of the
    original name come back as themselves)."""
    return path.encode("utf-8", "surrogateescape")


def _opt_int(data: Mapping[str, Any], key: str, source: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ManifestError(f"{source}: {key}: expected a non-negative integer, got {value!r}")
    return value


@attrs.frozen(kw_only=True)
class Entry:
    """One entry of a workspace. ``path`` is relative to the workspace root (``.`` is the
    root itself); ``mode`` holds the permission bits including set-id and sticky; ``size`` and
    ``sha256`` are those of a regular file's data (0 and None otherwise); ``target`` is a
    symlink's target as stored (never followed) or the path a hard link shares its file with.
    """

    path: str
    type: str = attrs.field(validator=attrs.validators.in_(TYPES))
    mode: int
    uid: int
    gid: int
    size: int = 0
    sha256: str | None = None
    target: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.type == "file") != (self.sha256 is not None):
            raise ValueError(f"{self.path}: a sha256 is given exactly for regular files")
        if (self.type in ("symlink", "hardlink")) != (self.target is not None):
            raise ValueError(f"{self.path}: a target is given exactly for links")
        if self.type != "file" and self.size:
            raise ValueError(f"{self.path}: only regular files have a size")

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "type": self.type, "mode": self.mode, "uid": self.uid,
                "gid": self.gid, "size": self.size, "sha256": self.sha256,
                "target": self.target}

    def canonical(self) -> bytes:
        """This entry's line in the root digest's input."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=True).encode("ascii") + b"\n"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str) -> Entry:
        """Parse one manifest entry.

        Raises:
            ManifestError: a field is missing, of the wrong type, or inconsistent.
        """
        if not isinstance(data, Mapping):
            raise ManifestError(f"{source}: expected an object, got {type(data).__name__}")
        extra = set(data) - {"path", "type", "mode", "uid", "gid", "size", "sha256", "target"}
        if extra:
            raise ManifestError(f"{source}: unknown fields {sorted(extra)}")
        path, kind = data.get("path"), data.get("type")
        if not isinstance(path, str) or not path:
            raise ManifestError(f"{source}: path: expected a non-empty string, got {path!r}")
        if kind not in TYPES:
            raise ManifestError(f"{source} ({path}): type: expected one of {TYPES}, "
                                f"got {kind!r}")
        digest, target = data.get("sha256"), data.get("target")
        if digest is not None and (not isinstance(digest, str) or len(digest) != 64
                                   or not set(digest) <= _SHA256_HEX):
            raise ManifestError(f"{source} ({path}): sha256: expected 64 lowercase hex digits")
        if target is not None and not isinstance(target, str):
            raise ManifestError(f"{source} ({path}): target: expected a string or null")
        mode = _opt_int(data, "mode", f"{source} ({path})")
        if mode > 0o7777:
            raise ManifestError(f"{source} ({path}): mode: {mode:o} has bits beyond 7777")
        try:
            return cls(path=path, type=str(kind), mode=mode,
                       uid=_opt_int(data, "uid", f"{source} ({path})"),
                       gid=_opt_int(data, "gid", f"{source} ({path})"),
                       size=_opt_int(data, "size", f"{source} ({path})"),
                       sha256=digest, target=target)
        except ValueError as e:
            raise ManifestError(f"{source}: {e}") from None


def _root_digest(entries: Iterable[Entry]) -> str:
    h = hashlib.sha256(SCHEMA.encode("ascii") + b"\n")
    for entry in entries:
        h.update(entry.canonical())
    return "sha256:" + h.hexdigest()


@attrs.frozen(kw_only=True)
class Manifest:
    """Every entry of a snapshot, in canonical order, and the root digest over them."""

    entries: tuple[Entry, ...]
    root_digest: str
    _index: Mapping[str, Entry] = attrs.field(alias="_index", eq=False, repr=False)

    @classmethod
    def from_entries(cls, entries: Iterable[Entry]) -> Manifest:
        """Sort the entries and compute the root digest.

        Raises:
            ManifestError: two entries have the same path.
        """
        ordered = tuple(sorted(entries, key=lambda e: path_key(e.path)))
        index: dict[str, Entry] = {}
        for entry in ordered:
            if entry.path in index:
                raise ManifestError(f"{entry.path}: listed twice")
            index[entry.path] = entry
        return cls(entries=ordered, root_digest=_root_digest(ordered), _index=index)

    @property
    def files(self) -> int:
        return len(self.entries)

    @property
    def bytes(self) -> int:
        """Total size of the regular files' data."""
        return sum(e.size for e in self.entries)

    def get(self, path: str) -> Entry | None:
        return self._index.get(path)

    def summary(self) -> dict[str, Any]:
        """What a trial result records: ``{"root_digest", "entries", "bytes"}``."""
        return {"root_digest": self.root_digest, "entries": self.files, "bytes": self.bytes}

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "root_digest": self.root_digest, "count": self.files,
                "bytes": self.bytes, "entries": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, doc: Any, *, source: str) -> Manifest:
        """Parse a manifest document and check its root digest against its entries.

        Raises:
            ManifestError: the document is malformed, lists a path twice, or its root digest
                or counts do not match its entries.
        """
        if not isinstance(doc, Mapping) or doc.get("schema") != SCHEMA:
            got = doc.get("schema") if isinstance(doc, Mapping) else type(doc).__name__
            raise ManifestError(f"{source}: schema: expected {SCHEMA!r}, got {got!r}")
        raw = doc.get("entries")
        if not isinstance(raw, list):
            raise ManifestError(f"{source}: entries: expected a list")
        manifest = cls.from_entries(Entry.from_mapping(item, source=f"{source}: entries[{i}]")
                                    for i, item in enumerate(raw))
        if doc.get("root_digest") != manifest.root_digest:
            raise ManifestError(f"{source}: root_digest {doc.get('root_digest')!r} does not "
                                f"match its entries ({manifest.root_digest})")
        if doc.get("count") != manifest.files or doc.get("bytes") != manifest.bytes:
            raise ManifestError(f"{source}: count/bytes do not match its entries")
        if manifest.get(ROOT) is None or manifest.get(ROOT).type != "dir":  # type: ignore[union-attr]
            raise ManifestError(f"{source}: no directory entry for the root {ROOT!r}")
        return manifest

    def differences(self, other: Manifest, *, limit: int = 5) -> list[str]:
        """The first paths (canonical order) that differ, each with how:
        ``"added x"``, ``"removed x"``, ``"changed x (sha256)"``."""
        out: list[str] = []
        for path in sorted(set(self._index) | set(other._index), key=path_key):
            a, b = self._index.get(path), other._index.get(path)
            if a == b:
                continue
            if a is None:
                out.append(f"added {path}")
            elif b is None:
                out.append(f"removed {path}")
            else:
                fields = [k for k, v in a.to_json().items() if b.to_json()[k] != v]
                out.append(f"changed {path} ({', '.join(fields)})")
            if len(out) >= limit:
                break
        return out


def relative(name: str, root: str) -> str | None:
    """A member name from the archive as a manifest path: ``root`` itself is ``.``,
    ``root/x`` is ``x``; None for a name outside ``root``."""
    if name == root:
        return ROOT
    if name.startswith(root + "/") and len(name) > len(root) + 1:
        return name[len(root) + 1:]
    return None


def entry_for(info: tarfile.TarInfo, path: str, *, sha256: str | None,
              target: str | None) -> Entry:
    """The manifest entry of one tar member (``target`` already made relative for hard links).

    Raises:
        ManifestError: the member's type is not one a workspace can hold (sparse, contiguous,
            ...).
    """
    kind = _BY_TARTYPE.get(info.type)
    if kind is None:
        raise ManifestError(f"{path}: tar member type {info.type!r} is not supported")
    return Entry(path=path, type=kind, mode=info.mode & 0o7777, uid=info.uid, gid=info.gid,
                 size=info.size if kind == "file" else 0, sha256=sha256, target=target)


class TooManyEntries(ManifestError):
    """The archive holds more entries than the caller's limit (counting stopped there)."""


def build_manifest(tar_stream: tarstream.Readable | Iterable[bytes], *,
                   root: str, max_entries: int | None = None) -> Manifest:
    """The manifest of a tar stream as the Engine archive API sends it: the top member is the
    directory ``root`` (the archived path's basename), every other member lies below it.

    Nothing is extracted or followed; regular files are hashed as their data streams past.

    Raises:
        TooManyEntries: more than ``max_entries`` entries below the root (memory grows with
            the number of entries, so a hostile snapshot is cut off here).
        ManifestError: the stream is not a well-formed tar, a member lies outside ``root``,
            has an unsupported type, or appears twice.
    """
    raw = (cast(tarstream.Readable, tar_stream) if hasattr(tar_stream, "read")
           else ChunkReader(tar_stream))
    entries: list[Entry] = []
    try:
        for member in tarstream.TarReader(raw):
            if max_entries is not None and len(entries) - 1 > max_entries:
                raise TooManyEntries(f"more than {max_entries} entries")
            info = member.info
            path = relative(info.name, root)
            if path is None or (not entries and path != ROOT):
                raise ManifestError(f"{info.name}: archive member outside the top directory "
                                    f"{root!r}")
            digest: str | None = None
            target: str | None = None
            if info.type in (tarfile.REGTYPE, tarfile.AREGTYPE):
                h = hashlib.sha256()
                for piece in member.views():
                    h.update(piece)
                digest = h.hexdigest()
            elif info.type == tarfile.SYMTYPE:
                target = info.linkname
            elif info.type == tarfile.LNKTYPE:
                target = relative(info.linkname, root)
                if target is None:
                    raise ManifestError(f"{path}: hard link to {info.linkname!r} outside "
                                        f"{root!r}")
            entries.append(entry_for(info, path, sha256=digest, target=target))
    except tarstream.TarFormatError as e:
        raise ManifestError(f"snapshot archive: {e}") from None
    if not entries:
        raise ManifestError(f"snapshot archive is empty (no {root!r} directory)")
    return Manifest.from_entries(entries)


@contextmanager
def volume_archive(engine: Engine, volume: str, *, trial_id: str,
                   image: str = STREAM_IMAGE) -> Iterator[ArchiveStream]:
    """The archive stream of a volume's whole tree (top member :data:`ARCHIVE_ROOT`), from a
    never-started container of ``image`` that mounts the volume read-only (labelled for
    ``trial_id``, removed on exit).

    Raises:
        EngineError: the engine refused a step.
    """
    container = engine.create_container(
        image, ["true"], entrypoint=[],
        name=f"{L.resource_name(trial_id, 'probe')}-manifest-{secrets.token_hex(3)}",
        labels=L.trial_labels(trial_id, "probe"), host_config=Hardening().host_config(),
        mounts=[VolumeMount(volume=volume, target="/" + ARCHIVE_ROOT, read_only=True)])
    try:
        stream, _ = engine.get_archive(container, "/" + ARCHIVE_ROOT)
        with stream:  # closed before the removal, which would wait on the engine's lock
            yield stream
    finally:
        engine.remove_container(container)


def of_volume(engine: Engine, volume: str, *, trial_id: str,
              image: str = STREAM_IMAGE, max_entries: int | None = None) -> Manifest:
    """The manifest of a snapshot volume, streamed through the Engine archive API from a
    container that is created but never started (labelled for ``trial_id``).

    Raises:
        EngineError: the engine refused a step.
        ManifestError: the stream was not a well-formed archive of the volume.
    """
    with volume_archive(engine, volume, trial_id=trial_id, image=image) as stream:
        return build_manifest(stream.as_file(), root=ARCHIVE_ROOT, max_entries=max_entries)


def check_unchanged(before: Manifest, after: Manifest) -> str | None:
    """None when both manifests are equal; otherwise the reason a verdict must be ``error``:
    ``snapshot modified during verification: changed x (sha256), ...``."""
    if before.root_digest == after.root_digest:
        return None
    diffs = before.differences(after)
    return ("snapshot modified during verification: "
            + (", ".join(diffs) if diffs else "root digest differs")
            + f" (root digest {before.root_digest} before, {after.root_digest} after)")
