"""A strict, streaming tar reader and writer for snapshots (pure: bytes in, bytes out).

:mod:`tarfile` in stream mode silently ends an archive at a damaged or truncated header and
reads extended headers of any size into memory; a snapshot archive is agent output (and an
imported one may be hostile), so fcv reads it with this reader instead, which

* parses each 512-byte header with :meth:`tarfile.TarInfo.frombuf` (checksum verified),
* applies POSIX (pax) ``x`` and GNU ``L``/``K`` extended headers, each at most
  :data:`MAX_EXTENDED_HEADER` bytes, and refuses global (``g``) headers,
* raises :class:`TarFormatError` on anything else unexpected: a truncated member, a damaged
  header, an archive without its end-of-archive block,
* hands each member's data out in bounded chunks, never whole, and where the stream has
  ``readinto`` (:meth:`Member.views`) without copying it.

The writer side (:func:`header`, :func:`padding`, :data:`END`) emits pax headers, so every
name, link target and size that was read can be written again unchanged.
"""

from __future__ import annotations

import re
import tarfile
from collections.abc import Iterator
from typing import Protocol

BLOCK = 512
#: One pax or GNU long-name header at most this large (a path is at most 4 KiB on Linux).
MAX_EXTENDED_HEADER = 1 << 20
#: Data is handed out in pieces of at most this many bytes.
CHUNK = 1 << 20
#: The end-of-archive marker: two zero blocks.
END = b"\0" * (2 * BLOCK)

_ENCODING = "utf-8"
_ERRORS = "surrogateescape"
_PAX_RECORD = re.compile(rb"(\d+) ([^=]+)=")


class Readable(Protocol):
    """Anything with ``read(n)`` returning at most ``n`` bytes, ``b""`` at the end."""

    def read(self, size: int, /) -> bytes: ...


class Writable(Protocol):
    def write(self, data: bytes | memoryview, /) -> int: ...


class TarFormatError(ValueError):
    """The byte stream is not a well-formed tar archive (the message says where)."""


class Member:
    """One member as it is read: its header (a :class:`tarfile.TarInfo` with the extended
    headers applied) and, for regular files, its data, readable once, in order."""

    def __init__(self, info: tarfile.TarInfo, reader: TarReader) -> None:
        self.info = info
        self._reader = reader
        self._left = info.size if info.type in tarfile.REGULAR_TYPES else 0

    def chunks(self, size: int = CHUNK) -> Iterator[bytes]:
        """The member's data in pieces of at most ``size`` bytes.

        Raises:
            TarFormatError: the archive ends inside the data.
        """
        while self._left > 0:
            data = self._reader._read_some(min(size, self._left))
            if not data:
                raise TarFormatError(f"{self.info.name}: archive truncated inside the data")
            self._left -= len(data)
            yield data

    def views(self) -> Iterator[bytes | memoryview]:
        """The member's data in pieces of at most :data:`CHUNK` bytes, without copying where
        the stream has ``readinto``: each piece is then a view of one buffer that the next
        read overwrites, so use it (hash it, write it) before asking for the next.

        Raises:
            TarFormatError: the archive ends inside the data.
        """
        if self._reader._readinto is None:
            yield from self.chunks()
            return
        buffer = self._reader._scratch()
        while self._left > 0:
            n = self._reader._readinto_some(buffer[:min(len(buffer), self._left)])
            if not n:
                raise TarFormatError(f"{self.info.name}: archive truncated inside the data")
            self._left -= n
            yield buffer[:n]

    def _finish(self) -> None:
        for _ in self.views():
            pass
        self._reader._read_exact(-self.info.size % BLOCK if self.info.type in
                                 tarfile.REGULAR_TYPES else 0, self.info.name)


class TarReader:
    """Iterate the members of a tar stream; read each member's data before the next one
    (whatever is left unread is skipped)."""

    def __init__(self, raw: Readable, *, max_extended_header: int = MAX_EXTENDED_HEADER) -> None:
        self._raw = raw
        self._readinto = getattr(raw, "readinto", None)
        self._buffer: memoryview | None = None
        self._max_ext = max_extended_header
        self.offset = 0

    def _read_some(self, n: int) -> bytes:
        data = self._raw.read(n)
        self.offset += len(data)
        return data

    def _readinto_some(self, view: memoryview) -> int:
        n = int(self._readinto(view) or 0)  # type: ignore[misc]
        self.offset += n
        return n

    def _scratch(self) -> memoryview:
        if self._buffer is None:
            self._buffer = memoryview(bytearray(CHUNK))
        return self._buffer

    def _read_upto(self, n: int) -> bytes:
        parts: list[bytes] = []
        left = n
        while left > 0:
            data = self._read_some(left)
            if not data:
                break
            parts.append(data)
            left -= len(data)
        return b"".join(parts)

    def _read_exact(self, n: int, where: str) -> bytes:
        parts: list[bytes] = []
        left = n
        while left > 0:
            data = self._read_some(left)
            if not data:
                raise TarFormatError(f"{where}: archive truncated at byte {self.offset}")
            parts.append(data)
            left -= len(data)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def _extended(self, info: tarfile.TarInfo) -> bytes:
        if info.size > self._max_ext:
            raise TarFormatError(f"extended header of {info.size} bytes at byte {self.offset} "
                                 f"(at most {self._max_ext})")
        data = self._read_exact(info.size, "extended header")
        self._read_exact(-info.size % BLOCK, "extended header")
        return data

    def __iter__(self) -> Iterator[Member]:
        pax: dict[str, str] = {}
        long_name: str | None = None
        long_link: str | None = None
        while True:
            block = self._read_upto(BLOCK)
            if not block:
                raise TarFormatError(f"archive ends at byte {self.offset} without its "
                                     "end-of-archive block (truncated?)")
            if len(block) < BLOCK:
                raise TarFormatError(f"archive truncated inside a header at byte {self.offset}")
            if block == b"\0" * BLOCK:
                if pax or long_name is not None or long_link is not None:
                    raise TarFormatError("an extended header is followed by the end of archive")
                return  # trailing blocks (the second zero block, record padding) are ignored
            try:
                info = tarfile.TarInfo.frombuf(block, _ENCODING, _ERRORS)
            except tarfile.HeaderError as e:
                raise TarFormatError(f"damaged header at byte {self.offset - BLOCK}: {e}") from e
            if info.type == tarfile.XHDTYPE:
                pax.update(_pax_records(self._extended(info)))
                continue
            if info.type == tarfile.GNUTYPE_LONGNAME:
                long_name = _c_string(self._extended(info))
                continue
            if info.type == tarfile.GNUTYPE_LONGLINK:
                long_link = _c_string(self._extended(info))
                continue
            if info.type in (tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE):
                raise TarFormatError(f"{info.name}: global or Solaris extended headers are "
                                     "not accepted")
            _apply(info, pax, long_name, long_link)
            pax, long_name, long_link = {}, None, None
            member = Member(info, self)
            yield member
            member._finish()


def _c_string(data: bytes) -> str:
    return data.split(b"\0", 1)[0].decode(_ENCODING, _ERRORS)


def _pax_records(data: bytes) -> dict[str, str]:
    records: dict[str, str] = {}
    pos = 0
    while pos < len(data):
        match = _PAX_RECORD.match(data, pos)
        if match is None:
            raise TarFormatError(f"malformed pax record at offset {pos} of an extended header")
        length = int(match.group(1))
        end = pos + length
        if length < len(match.group(0)) + 1 or end > len(data) or data[end - 1:end] != b"\n":
            raise TarFormatError(f"malformed pax record at offset {pos} of an extended header")
        key = match.group(2).decode(_ENCODING, _ERRORS)
        records[key] = data[match.end():end - 1].decode(_ENCODING, _ERRORS)
        pos = end
    return records


def _apply(info: tarfile.TarInfo, pax: dict[str, str], long_name: str | None,
           long_link: str | None) -> None:
    if long_name is not None:
        info.name = long_name
    if long_link is not None:
        info.linkname = long_link
    if "path" in pax:
        info.name = pax["path"]
    if "linkpath" in pax:
        info.linkname = pax["linkpath"]
    for key in ("size", "uid", "gid"):
        if key in pax:
            text = pax[key]
            if not text.isascii() or not text.isdigit():
                raise TarFormatError(f"{info.name}: pax {key}={text!r} is not a number")
            setattr(info, key, int(text))
    if info.type == tarfile.DIRTYPE:
        info.name = info.name.rstrip("/")


def header(info: tarfile.TarInfo) -> bytes:
    """The header block(s) of ``info`` (pax where ustar cannot hold a field)."""
    return info.tobuf(tarfile.PAX_FORMAT, _ENCODING, _ERRORS)


def padding(size: int) -> bytes:
    """Zero bytes that complete a member's data of ``size`` bytes to a whole block."""
    return b"\0" * (-size % BLOCK)
