"""Pure: small tar streams that fcv sends into containers (tests, solutions, empty dirs).

Everything fcv puts into a container goes through the Engine archive API as one of these;
nothing is bind-mounted from this machine.
"""

from __future__ import annotations

import io
import os
import tarfile
from collections.abc import Mapping


def _root_owned(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def directory_tar(local_dir: str, arcname: str, *,
                  executable: tuple[str, ...] = ()) -> bytes:
    """A tar of ``local_dir`` stored as ``arcname`` (no leading slash), owned by root.

    Modes are kept; paths in ``executable`` (relative to ``local_dir``) get +x, as Harbor's
    ``chmod +x /tests/test.sh`` would give. Symlinks are stored as symlinks, never followed.
    """
    wanted = {os.path.normpath(p) for p in executable}

    def fix(info: tarfile.TarInfo) -> tarfile.TarInfo:
        rel = os.path.relpath(info.name, arcname)
        if rel in wanted and info.isfile():
            info.mode |= 0o111
        return _root_owned(info)

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        tar.add(local_dir, arcname=arcname.strip("/"), recursive=True, filter=fix)
    return buf.getvalue()


def dirs_tar(dirs: Mapping[str, int]) -> bytes:
    """A tar of empty directories, ``{"logs/verifier": 0o777}``, owned by root.

    Parents must be listed before children when their mode matters.
    """
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, mode in dirs.items():
            info = _root_owned(tarfile.TarInfo(name.strip("/")))
            info.type = tarfile.DIRTYPE
            info.mode = mode
            tar.addfile(info)
    return buf.getvalue()


def file_tar(name: str, data: bytes, *, mode: int = 0o644) -> bytes:
    """A tar holding one root-owned regular file."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        info = _root_owned(tarfile.TarInfo(name.strip("/")))
        info.size = len(data)
        info.mode = mode
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()
