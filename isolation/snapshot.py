"""Freezing the agent's workspace and handing it to the verifier.

Two methods:

* ``volume`` - the workspace volume itself is the snapshot. Nothing is copied; the agent
  container is frozen, and the verifier mounts the volume read-only.
* ``commit`` - ``docker commit`` of the frozen agent container (kept, labelled, for forensics)
  plus its ``docker diff``; the workspace is streamed out of the frozen container through the
  Engine archive API into a fresh snapshot volume, by way of a receiver container that is
  created but never started (so no code from the agent's image ever runs to copy it).

Either way the snapshot can be shown to a writable throwaway view (:func:`scratch_view`), an
overlay whose upper layer takes the writes, so the snapshot itself never changes.
"""

from __future__ import annotations

import posixpath

import attrs

from isolation import archive
from isolation import labels as L
from isolation.agent import Sandbox
from isolation.engine import DiffEntry, Engine, VolumeMount
from isolation.hardening import Hardening

METHODS = ("volume", "commit")


@attrs.frozen(kw_only=True)
class Snapshot:
    """A frozen copy of the agent's workspace, ready to mount read-only."""

    method: str
    volume: str
    workdir: str
    commit_image: str | None = None
    diff: tuple[DiffEntry, ...] = ()


def take(engine: Engine, box: Sandbox, *, method: str, receiver_image: str) -> Snapshot:
    """Snapshot a frozen sandbox's workspace.

    ``receiver_image`` is the pristine task image; with ``commit`` a container of it is created
    (never started) only to receive the archive into the snapshot volume.

    Raises:
        ValueError: if the sandbox is not frozen or ``method`` is unknown.
        EngineError: if the engine refuses a step.
    """
    if method not in METHODS:
        raise ValueError(f"unknown snapshot method {method!r}; expected one of {METHODS}")
    if not box.frozen:
        raise ValueError("freeze the sandbox before taking its snapshot")
    if method == "volume":
        return Snapshot(method="volume", volume=box.workspace_volume, workdir=box.workdir)

    trial = box.trial_id
    diff = engine.diff(box.container_id)
    image = engine.commit(box.container_id, labels=L.trial_labels(trial, "commit"))
    volume = engine.create_volume(L.resource_name(trial, "snapshot"),
                                  labels=L.trial_labels(trial, "snapshot"))
    receiver = engine.create_container(
        receiver_image,
        ["true"],
        entrypoint=[],
        name=L.resource_name(trial, "receiver"),
        labels=L.trial_labels(trial, "receiver"),
        host_config=Hardening().host_config(),
        mounts=[VolumeMount(volume=volume, target=box.workdir, no_copy=True)],
    )
    try:
        # The archive's top entry is the workdir's own name, so extracting it into the parent
        # directory lands it on the snapshot volume's mount point.
        with engine.get_archive(box.container_id, box.workdir)[0] as stream:
            engine.put_archive(receiver, posixpath.dirname(box.workdir), stream)
    finally:
        engine.remove_container(receiver)
    return Snapshot(method="commit", volume=volume, workdir=box.workdir, commit_image=image,
                    diff=tuple(diff))


#: Go's os.ModeDir and os.ModeSymlink, as the engine reports a path's mode.
_GO_MODE_DIR = 1 << 31
_GO_MODE_SYMLINK = 1 << 27


@attrs.frozen(kw_only=True)
class Carried:
    """A directory carried from the frozen agent into the verifier, read-only."""

    path: str
    volume: str


def carry(engine: Engine, box: Sandbox, paths: tuple[str, ...], *,
          receiver_image: str) -> tuple[list[Carried], list[tuple[str, str]]]:
    """Copy each directory in ``paths`` out of the frozen agent container into its own
    labelled volume, through a receiver container of the pristine image that is never started.

    Returns what was carried, and (path, reason) for each path that was not: missing, or not
    a directory (a symlink is never followed: the agent could point it anywhere).

    Raises:
        EngineError: if the engine refuses a step.
    """
    if not box.frozen:
        raise ValueError("freeze the sandbox before carrying paths out of it")
    carried: list[Carried] = []
    skipped: list[tuple[str, str]] = []
    for index, path in enumerate(paths):
        stat = engine.stat_path(box.container_id, path)
        if stat is None:
            skipped.append((path, "does not exist in the agent's container"))
            continue
        mode = int(stat.get("mode", 0))
        if mode & _GO_MODE_SYMLINK or stat.get("linkTarget") not in (None, "", path):
            skipped.append((path, f"is a symlink (to {stat.get('linkTarget')}); not followed"))
            continue
        if not mode & _GO_MODE_DIR:
            skipped.append((path, "is not a directory"))
            continue
        volume = engine.create_volume(L.resource_name(box.trial_id, "carry") + f"-{index}",
                                      labels=L.trial_labels(box.trial_id, "carry"))
        receiver = engine.create_container(
            receiver_image, ["true"], entrypoint=[],
            name=L.resource_name(box.trial_id, "receiver") + f"-carry-{index}",
            labels=L.trial_labels(box.trial_id, "receiver"),
            host_config=Hardening().host_config(),
            mounts=[VolumeMount(volume=volume, target=path, no_copy=True)])
        try:
            with engine.get_archive(box.container_id, path)[0] as stream:
                engine.put_archive(receiver, posixpath.dirname(path), stream)
        finally:
            engine.remove_container(receiver)
        carried.append(Carried(path=path, volume=volume))
    return carried, skipped


def scratch_view(engine: Engine, snapshot: Snapshot, *, trial_id: str,
                 helper_image: str) -> str:
    """A writable overlay volume over the snapshot; return its name.

    Writes land in an upper directory on another fcv volume; the snapshot volume is the
    read-only lower layer and stays byte-identical. The paths are the daemon's own, so this
    works against a remote engine too.
    """
    upper = engine.create_volume(L.resource_name(trial_id, "scratch-upper"),
                                 labels=L.trial_labels(trial_id, "scratch-upper"))
    maker = engine.create_container(
        helper_image, ["true"], entrypoint=[],
        name=L.resource_name(trial_id, "probe"),
        labels=L.trial_labels(trial_id, "probe"),
        host_config=Hardening().host_config(),
        mounts=[VolumeMount(volume=upper, target="/fcv-upper", no_copy=True)],
    )
    try:
        engine.put_archive(maker, "/fcv-upper", archive.dirs_tar({"upper": 0o755,
                                                                  "work": 0o700}))
    finally:
        engine.remove_container(maker)
    lower = engine.volume_mountpoint(snapshot.volume)
    upper_dir = engine.volume_mountpoint(upper)
    options = f"lowerdir={lower},upperdir={upper_dir}/upper,workdir={upper_dir}/work"
    return engine.create_volume(
        L.resource_name(trial_id, "scratch"),
        labels=L.trial_labels(trial_id, "scratch"),
        driver_opts={"type": "overlay", "device": "overlay", "o": options},
    )
