"""The agent sandbox: one hardened container with a writable root filesystem.

The workspace (the task's workdir) lives on a fresh named volume that the engine pre-fills
from the image on first mount. ``/logs/agent``, ``/logs/verifier`` and ``/logs/artifacts``
exist and are world-writable, as in Harbor, so agents see the environment they would see there.

This is also the small Python API an external agent driver (an LLM loop) uses::

    with Sandbox.start(engine, trial_id=..., image_id=..., workdir="/app") as box:
        result = box.exec(["sh", "-c", "ls -la"], timeout_s=30)
        box.upload_bytes("/app/notes.txt", b"hello")
"""

from __future__ import annotations

import os
import posixpath
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Self

import attrs

from isolation import archive
from isolation import labels as L
from isolation.engine import Engine, ExecResult, VolumeMount
from isolation.errors import EngineError, UsageError
from isolation.hardening import Hardening

#: Keeps the container alive between execs; ``sh`` is the one program every task image has.
#: It ignores the signals an agent could send it (the kernel already shields a namespace's
#: init from SIGKILL sent inside it), so the agent cannot stop the container before the freeze.
IDLE_COMMAND = "trap '' TERM INT HUP QUIT USR1 USR2; while :; do sleep 3600 & wait $!; done"

LOG_DIRS = {"logs": 0o755, "logs/agent": 0o777, "logs/verifier": 0o777, "logs/artifacts": 0o777}

#: Under gVisor the engine's ``top`` lists the machine's processes, not the sandbox's, so fcv
#: lists them from inside with its own static busybox, mounted read-only here from a volume
#: the agent cannot change (no capability to unmount or remount it).
TOOLS_DIR = "/.fcv-tools"
TOOLS_IMAGE = "fcv/busybox:latest"
_PS = [f"{TOOLS_DIR}/busybox", "ps", "-o", "pid,user,args"]


def _idle_processes(engine: Engine, container: str, *, inside: bool,
                    wait_s: float = 10.0) -> frozenset[str]:
    """The PIDs of the idle loop and its ``sleep``, once both run (before any agent code)."""
    deadline = time.monotonic() + wait_s
    while True:
        rows = _list_inside(engine, container) if inside else _list_top(engine, container)
        if len(rows) >= 2 or time.monotonic() > deadline:
            return frozenset(p.pid for p in rows)
        time.sleep(0.02)


def _list_top(engine: Engine, container: str) -> list[Process]:
    return [Process(pid=r.get("PID", "?"), user=r.get("UID", "?"), command=r.get("CMD", "?"))
            for r in engine.top(container)]


def _list_inside(engine: Engine, container: str) -> list[Process]:
    """The sandbox's processes as its own kernel (gVisor's) sees them, by fcv's busybox."""
    result = engine.exec(container, _PS, user="0", workdir="/", environment={"PATH": ""},
                         timeout_s=30)
    if result.exit_code != 0:
        raise EngineError(f"could not list the sandbox's processes (exit {result.exit_code}): "
                          f"{result.output[-300:].decode('utf-8', 'replace')}")
    rows = []
    for line in result.output.decode("utf-8", "replace").splitlines()[1:]:
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0].isdigit() and not parts[2].startswith(" ".join(_PS)):
            rows.append(Process(pid=parts[0], user=parts[1], command=parts[2]))
    return rows


def _tools_volume(engine: Engine, trial_id: str) -> str:
    """A volume holding fcv's static busybox, copied through the archive API."""
    volume = engine.create_volume(L.resource_name(trial_id, "tools"),
                                  labels=L.trial_labels(trial_id, "tools"))
    try:
        filler = engine.create_container(
            TOOLS_IMAGE, ["true"], entrypoint=[], name=L.resource_name(trial_id, "probe") + "-tools",
            labels=L.trial_labels(trial_id, "probe"), host_config=Hardening().host_config(),
            mounts=[VolumeMount(volume=volume, target="/fcv-tools", no_copy=True)])
        try:
            # Drained before the copy goes back in: the engine holds the container while an
            # archive is being read, and a put into the same container would wait on it.
            stream, _ = engine.get_archive(filler, "/bin/busybox")
            with stream:
                binary = b"".join(stream)
            engine.put_archive(filler, "/fcv-tools", binary)
        finally:
            engine.remove_container(filler)
    except BaseException:
        engine.remove_volume(volume)
        raise
    return volume


@attrs.frozen(kw_only=True)
class Process:
    """A process seen in the agent container when it was frozen."""

    pid: str
    user: str
    command: str


@attrs.define(kw_only=True)
class Sandbox:
    """A running (or frozen) agent container and its workspace volume."""

    engine: Engine
    trial_id: str
    container_id: str
    workspace_volume: str
    workdir: str
    image_id: str
    user: str | None = None
    environment: Mapping[str, str] = attrs.field(factory=dict)
    frozen: bool = False
    #: PIDs of fcv's own idle processes, seen before any agent code ran (host PIDs under
    #: runc, the sandbox's own under gVisor).
    idle_pids: frozenset[str] = frozenset()
    #: The volume with fcv's busybox (gVisor only), and the container runtime.
    tools_volume: str | None = None
    runtime: str | None = None

    @classmethod
    def start(
        cls,
        engine: Engine,
        *,
        trial_id: str,
        image_id: str,
        workdir: str,
        hardening: Hardening | None = None,
        user: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> Sandbox:
        """Create the workspace volume and start the hardened agent container. The container
        runs as the image's user; ``user`` is the default for :meth:`exec` (Harbor likewise
        switches user per command, so same-container verification runs as the image's user).

        Raises:
            UsageError: if ``workdir`` is not an absolute path below ``/``.
            EngineError: if the engine refuses.
        """
        workdir = posixpath.normpath(workdir)
        if not workdir.startswith("/") or workdir == "/":
            raise UsageError(f"workspace must be an absolute directory below /, got {workdir!r}")
        hardening = hardening or Hardening()
        inside = hardening.runtime == "runsc"
        volume = engine.create_volume(L.resource_name(trial_id, "workspace"),
                                      labels=L.trial_labels(trial_id, "workspace"))
        container: str | None = None
        tools: str | None = None
        try:
            mounts = [VolumeMount(volume=volume, target=workdir, no_copy=False)]
            if inside:
                tools = _tools_volume(engine, trial_id)
                mounts.append(VolumeMount(volume=tools, target=TOOLS_DIR, read_only=True,
                                          no_copy=True))
            container = engine.create_container(
                image_id,
                [IDLE_COMMAND],
                entrypoint=["sh", "-c"],
                name=L.resource_name(trial_id, "agent"),
                labels=L.trial_labels(trial_id, "agent"),
                host_config=hardening.host_config(),
                # no_copy=False: the engine fills the fresh volume with the image's workdir.
                mounts=mounts,
                working_dir=workdir,
                environment=environment,
            )
            engine.put_archive(container, "/", archive.dirs_tar(LOG_DIRS))
            engine.start(container)
            idle = _idle_processes(engine, container, inside=inside)
        except BaseException:
            if container is not None:
                engine.remove_container(container)
            engine.remove_volume(volume)
            if tools is not None:
                engine.remove_volume(tools)
            raise
        return cls(engine=engine, trial_id=trial_id, container_id=container,
                   workspace_volume=volume, workdir=workdir, image_id=image_id, user=user,
                   environment=dict(environment or {}), idle_pids=idle, tools_volume=tools,
                   runtime=hardening.runtime)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def exec(
        self,
        command: Sequence[str],
        *,
        user: str | None = None,
        workdir: str | None = None,
        environment: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> ExecResult:
        """Run a command in the sandbox as the agent user (unless ``user`` is given), in the
        workdir, and stop waiting for it at ``timeout_s`` or when ``stop`` is set."""
        env = {**self.environment, **(environment or {})}
        return self.engine.exec(self.container_id, command, user=user or self.user,
                                workdir=workdir or self.workdir, environment=env,
                                timeout_s=timeout_s, stop=stop)

    def upload_bytes(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        """Write one root-owned file at an absolute ``path`` in the sandbox.

        The engine's archive API writes to the container's filesystem and volumes, not to
        tmpfs mounts: a path under ``/tmp`` would land beneath the tmpfs, unseen."""
        # Extracted at / so that missing parent directories are created on the way.
        self.engine.put_archive(self.container_id, "/",
                                archive.file_tar(posixpath.normpath(path).lstrip("/"), data,
                                                 mode=mode))

    def upload_dir(self, local_dir: str, path: str, *, executable: tuple[str, ...] = ()) -> None:
        """Copy a local directory to an absolute ``path`` in the sandbox (merging)."""
        if not os.path.isdir(local_dir):
            raise UsageError(f"{local_dir}: not a directory")
        self.engine.put_archive(self.container_id, "/", archive.directory_tar(
            local_dir, posixpath.normpath(path).lstrip("/"), executable=executable))

    def freeze(self) -> list[Process]:
        """Pause every process in the sandbox (cgroup freezer), so nothing the agent left
        running can act after this point; return the processes that were still there."""
        if self.frozen:
            return []
        state = self.engine.inspect_container(self.container_id)["State"]
        if not state.get("Running"):
            # Stopped already (it cannot be stopped from inside, but an OOM kill can): nothing
            # runs, which is all the freeze is for; the workspace is still there to snapshot.
            self.frozen = True
            return []
        if self.runtime == "runsc":
            # A paused sandbox runs no command, so the list is taken just before the pause;
            # a process started in between is the one gap, and it is frozen too.
            rows = _list_inside(self.engine, self.container_id)
            self.engine.pause(self.container_id)
            self.frozen = True
            return rows
        self.engine.pause(self.container_id)
        self.frozen = True
        return _list_top(self.engine, self.container_id)

    def leftover(self, processes: list[Process]) -> list[Process]:
        """The processes the agent left running (fcv's own idle processes excluded)."""
        return [p for p in processes if p.pid not in self.idle_pids]

    def thaw(self) -> None:
        if self.frozen:
            if self.engine.inspect_container(self.container_id)["State"].get("Paused"):
                self.engine.unpause(self.container_id)
            self.frozen = False

    def stop(self) -> None:
        """Remove the container and its workspace volume."""
        self.engine.remove_container(self.container_id)
        self.engine.remove_volume(self.workspace_volume)
        if self.tools_volume is not None:
            self.engine.remove_volume(self.tools_volume)
