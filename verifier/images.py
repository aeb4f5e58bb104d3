"""``fcv images bootstrap``: the two local base images, built without any registry.

* ``fcv/busybox:latest`` - the host's static busybox and its applet links, ``docker import``-ed.
* ``fcv/python:bookworm`` - a Debian bookworm ``debootstrap --variant=minbase`` with python3
  and python3-pytest (Debian's default mirror, found by debootstrap itself).

The names are part of fcv's public interface: example tasks and users' tasks build ``FROM``
them. Base images carry the label ``fcv.base`` (not ``fcv.trial``): they outlive trials, and
``fcv gc`` leaves them alone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable

import attrs

from isolation import labels as L
from isolation.engine import Engine
from isolation.errors import FcvError

BUSYBOX = "fcv/busybox:latest"
PYTHON = "fcv/python:bookworm"
BASE_IMAGES = (BUSYBOX, PYTHON)

_PATH = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class BootstrapError(FcvError):
    """A base image could not be built."""


@attrs.frozen(kw_only=True)
class BaseImageStatus:
    name: str
    image_id: str | None
    built: bool = False


def _split(ref: str) -> tuple[str, str]:
    repo, _, tag = ref.rpartition(":")
    return repo, tag


def _find_busybox() -> str:
    for candidate in (shutil.which("busybox"), "/bin/busybox", "/usr/bin/busybox"):
        if candidate and os.path.exists(candidate):
            ldd = subprocess.run(["ldd", candidate], capture_output=True, text=True, check=False)
            if ldd.returncode != 0 or "not a dynamic" in (ldd.stdout + ldd.stderr):
                return candidate
    raise BootstrapError(
        "no statically linked busybox on this machine; install Debian's busybox-static "
        "(`bash scripts/engine.sh` does)")


def _busybox_rootfs(root: str) -> None:
    binary = _find_busybox()
    applets = subprocess.run([binary, "--list"], capture_output=True, text=True,
                             check=True).stdout.split()
    for d in ("bin", "etc", "tmp", "root", "home", "var", "usr/bin", "proc", "sys", "dev"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.chmod(os.path.join(root, "tmp"), 0o1777)
    shutil.copy2(binary, os.path.join(root, "bin", "busybox"))
    for applet in applets:
        link = os.path.join(root, "bin", applet)
        if applet != "busybox" and not os.path.lexists(link):
            os.symlink("busybox", link)
    with open(os.path.join(root, "etc", "passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/sh\n"
                "nobody:x:65534:65534:nobody:/home:/bin/false\n"
                "tester:x:1000:1000:tester:/home/tester:/bin/sh\n")
    with open(os.path.join(root, "etc", "group"), "w") as f:
        f.write("root:x:0:\nnogroup:x:65534:\ntester:x:1000:\n")
    os.makedirs(os.path.join(root, "home", "tester"), exist_ok=True)
    os.chown(os.path.join(root, "home", "tester"), 1000, 1000)


def _python_rootfs(root: str, progress: Callable[[str], None]) -> None:
    debootstrap = shutil.which("debootstrap")
    if debootstrap is None:
        raise BootstrapError("debootstrap is not installed; `bash scripts/engine.sh` installs it")
    progress(f"debootstrap bookworm into {root} (about a minute)")
    proc = subprocess.run(
        [debootstrap, "--variant=minbase", "--include=python3,python3-pytest", "bookworm",
         root],
        capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise BootstrapError(f"debootstrap failed (exit {proc.returncode}):\n{tail}")
    # Package caches and lists are dead weight in every task image built from this one.
    for sub in ("var/cache/apt/archives", "var/lib/apt/lists"):
        path = os.path.join(root, sub)
        for entry in os.listdir(path) if os.path.isdir(path) else []:
            full = os.path.join(path, entry)
            if os.path.isfile(full):
                os.unlink(full)


def _import(engine: Engine, root: str, ref: str, changes: list[str]) -> str:
    repo, tag = _split(ref)
    with tempfile.NamedTemporaryFile(suffix=".tar", delete=False) as tmp:
        path = tmp.name
    try:
        with tarfile.open(path, "w") as tar:
            for entry in sorted(os.listdir(root)):
                tar.add(os.path.join(root, entry), arcname=entry)
        return engine.import_image(path, repository=repo, tag=tag, changes=changes)
    finally:
        os.unlink(path)


def bootstrap(engine: Engine, *, force: bool = False,
              progress: Callable[[str], None] = lambda _: None,
              only: tuple[str, ...] = BASE_IMAGES) -> list[BaseImageStatus]:
    """Build the base images that are missing (all of ``only`` with ``force``).

    Raises:
        BootstrapError: if a tool is missing or a build step fails.
    """
    results = []
    for ref in only:
        existing = engine.image_id(ref)
        if existing is not None and not force:
            progress(f"{ref} present ({existing[:19]}), skipped")
            results.append(BaseImageStatus(name=ref, image_id=existing))
            continue
        progress(f"building {ref}")
        label = f"LABEL {L.BASE}=\"{ref}\""
        with tempfile.TemporaryDirectory(prefix="fcv-rootfs-") as root:
            if ref == BUSYBOX:
                _busybox_rootfs(root)
                changes = [f"ENV {_PATH}", 'CMD ["sh"]', label]
            elif ref == PYTHON:
                _python_rootfs(root, progress)
                changes = [f"ENV {_PATH}", "ENV LANG=C.UTF-8", 'CMD ["bash"]', label]
            else:
                raise BootstrapError(f"unknown base image {ref}; fcv builds {BASE_IMAGES}")
            image_id = _import(engine, root, ref, changes)
        if existing is not None and existing != image_id:
            # The old image may still back task images; leave it untagged rather than fail.
            try:
                engine.remove_image(existing)
            except FcvError:
                pass
        progress(f"{ref} built ({image_id[:19]})")
        results.append(BaseImageStatus(name=ref, image_id=image_id, built=True))
    return results


def status(engine: Engine) -> list[BaseImageStatus]:
    return [BaseImageStatus(name=ref, image_id=engine.image_id(ref)) for ref in BASE_IMAGES]
