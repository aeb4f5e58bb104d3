"""The only module that imports the Docker SDK.

It owns the client, maps SDK and transport errors to :class:`~isolation.errors.EngineError`,
and retries a few named transient engine errors. Nothing here computes a verdict or runs tests
under a retry: retries wrap only idempotent bookkeeping calls (inspect, remove, list).

Files move between fcv and containers only through named volumes and the Engine archive API,
never through bind mounts of this machine's paths, so the same code works against a remote
engine (``DOCKER_HOST``) and from inside a container that reaches the engine through a socket.
"""

from __future__ import annotations

import base64
import datetime as dt
import http.client
import io
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Self, TypeVar

import attrs
import docker
import docker.errors
import requests.exceptions
import tenacity
import urllib3.exceptions
from docker.types import Mount

from isolation import labels as L
from isolation.errors import BuildError, EngineError, EngineUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Default timeout (seconds) of one Engine API request that is not a wait or a stream.
API_TIMEOUT = 120

#: Held while an image is built or removed. Removing a trial's image also removes its untagged
#: parents, which a concurrent build in this process may be reusing from the build cache
#: ("unknown parent image ID"); builds and removals therefore never overlap in one process.
IMAGE_LOCK = threading.RLock()


#: The connection to the daemon failed or was cut off mid-reply (a restarting daemon).
_CONNECTION_LOST = (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError)


def _is_transient(exc: BaseException) -> bool:
    """Transient engine errors worth one more try: a reset connection, a removal already in
    progress (409), or a busy device (5xx) while the daemon tears down a mount."""
    if isinstance(exc, _CONNECTION_LOST) and not _is_read_timeout(exc):
        return True
    if isinstance(exc, docker.errors.APIError):
        text = str(exc.explanation or exc).lower()
        status = exc.status_code or 0
        if status == 409 and "in progress" in text:
            return True
        if status >= 500 and ("device or resource busy" in text or "is being used" in text
                              or "unable to freeze" in text):
            return True
    return False


_retry = tenacity.retry(
    retry=tenacity.retry_if_exception(_is_transient),
    stop=tenacity.stop_after_attempt(5),
    wait=tenacity.wait_exponential(multiplier=0.2, max=3),
    before_sleep=tenacity.before_sleep_log(log, logging.WARNING),
    reraise=True,
)


def _wrap(operation: str, exc: BaseException) -> EngineError:
    if isinstance(exc, docker.errors.APIError):
        detail = exc.explanation or str(exc)
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        return EngineError(f"engine refused to {operation}: {detail}")
    if isinstance(exc, _CONNECTION_LOST):
        return EngineUnavailable(f"lost the Docker Engine while trying to {operation}: {exc}")
    return EngineError(f"could not {operation}: {exc}")


def _call(operation: str, fn: Callable[[], T], *, retry: bool = False) -> T:
    """Run one engine call, mapping its errors; retry transient ones if asked."""
    try:
        if retry:
            return _retry(fn)()
        return fn()
    except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
        raise _wrap(operation, e) from e


def _is_cache_race(message: str) -> bool:
    """Whether a build failed because a cached layer it was using vanished: another process
    removed its own image, and the layers under it, while this build had matched them in the
    engine-wide build cache. :data:`IMAGE_LOCK` only orders builds and removals within one
    process, so such a build is simply tried again (it then builds what is missing)."""
    return "failed to get digest" in message.lower()


#: Builds in all when a cached layer vanishes mid-build (:func:`_is_cache_race`).
BUILD_TRIES = 3


@attrs.frozen(kw_only=True)
class ExecResult:
    """What one command run in a container did."""

    exit_code: int | None
    timed_out: bool
    duration_s: float
    output: bytes = b""
    #: fcv stopped waiting because ``stop`` was set (the caller froze the container).
    stopped: bool = False
    #: The kernel's OOM killer acted in the container while the command ran (the engine's
    #: ``oom`` event); the victim may be the command or any other process there.
    oom_killed: bool = False


@attrs.frozen(kw_only=True)
class WaitResult:
    """How a container's main process ended."""

    exit_code: int | None
    timed_out: bool
    duration_s: float
    oom_killed: bool = False
    #: The signal of a kill request fcv did not make (someone else's ``docker kill``,
    #: ``docker stop`` or ``docker rm -f``), from the engine's ``kill`` event; None if none.
    killed_by: str | None = None


class Watch:
    """The engine's events of one container while a phase runs (see :meth:`Engine.watch`).

    A streaming subscription catches events however busy the engine is; a final query of the
    engine's recent events on stop catches any the stream had not delivered yet."""

    def __init__(self, engine: Engine, container: str, actions: Sequence[str]) -> None:
        self._engine = engine
        self._filters = {"type": ["container"], "container": [container],
                         "event": list(actions)}
        # A second back, so an event between subscribing and the stream's start is replayed.
        self._since = engine.now() - 1.0
        self._events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._stream: Any = None
        self._thread: threading.Thread | None = None
        self._closing = False
        #: The subscription ended before :meth:`stop`: the engine went away (or restarted)
        #: during the phase, so what the phase reports cannot be trusted.
        self.broken = False

    def start(self) -> None:
        try:
            self._stream = self._engine.api.events(since=self._since, filters=self._filters,
                                                   decode=True)
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise _wrap("watch a container's events", e) from e
        self._thread = threading.Thread(target=self._pump, name="fcv-events", daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        try:
            for event in self._stream:
                self._add(event)
        except Exception as e:  # noqa: BLE001 - a closed stream ends the pump; stop() catches up
            log.debug("event stream closed: %s", e)
        if not self._closing:
            self.broken = True

    def _add(self, event: Mapping[str, Any]) -> None:
        key = (event.get("timeNano"), event.get("Action") or event.get("status"))
        with self._lock:
            if all((e.get("timeNano"), e.get("Action") or e.get("status")) != key
                   for e in self._events):
                self._events.append(dict(event))

    def stop(self) -> None:
        """End the subscription, after reading what the engine logged meanwhile. An engine
        that is gone by now leaves what the stream delivered."""
        self._closing = True
        try:
            for event in self._engine.api.events(since=self._since, until=self._engine.now(),
                                                 filters=self._filters, decode=True):
                self._add(event)
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            log.debug("could not read the engine's recent events: %s", e)
        if self._stream is not None:
            self._stream.close()
        if self._thread is not None:
            self._thread.join(5)

    def actions(self) -> list[tuple[str, Mapping[str, str]]]:
        """Each event seen, as (action, attributes)."""
        with self._lock:
            return [(str(e.get("Action") or e.get("status")),
                     dict((e.get("Actor") or {}).get("Attributes") or {})) for e in self._events]

    def seen(self, action: str) -> bool:
        return any(a == action for a, _ in self.actions())

    def check(self, operation: str) -> None:
        """Raise if the engine went away while the phase ran: a daemon that restarts stops
        every container, so an agent or verifier that seemed to end was in fact cut off.

        Raises:
            EngineUnavailable: the event subscription was cut before the phase ended.
        """
        if self.broken:
            raise EngineUnavailable(f"lost the Docker Engine while trying to {operation}: it "
                                    "went away (or restarted) meanwhile")


@attrs.frozen(kw_only=True)
class DiffEntry:
    """One path of a container's writable layer that differs from its image."""

    kind: str  # "A" added, "C" changed, "D" deleted
    path: str


@attrs.frozen(kw_only=True)
class VolumeMount:
    """A named volume to mount into a container."""

    volume: str
    target: str
    read_only: bool = False
    # Docker copies the image's files at ``target`` into an empty volume on first mount unless
    # told not to; snapshots and log volumes must start exactly as fcv made them.
    no_copy: bool = True


class ChunkReader(io.RawIOBase):
    """A read-only file over an iterator of byte chunks, so :mod:`tarfile` can stream an
    archive from the engine without ever holding it whole.

    The current chunk is consumed by offset, never re-sliced, so reading a 1 MiB chunk in
    small pieces costs linear time (manifests hash whole workspaces through this)."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._buffer = b""
        self._pos = 0

    def readable(self) -> bool:
        return True

    def _fill(self) -> bool:
        while self._pos >= len(self._buffer):
            try:
                self._buffer = next(self._chunks)
            except StopIteration:
                self._buffer, self._pos = b"", 0
                return False
            self._pos = 0
        return True

    def readinto(self, b: Any) -> int:
        if not self._fill():
            return 0
        n = min(len(b), len(self._buffer) - self._pos)
        b[:n] = memoryview(self._buffer)[self._pos:self._pos + n]
        self._pos += n
        return n

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        if size == 0 or not self._fill():
            return b""
        if self._pos == 0 and size >= len(self._buffer):
            out = self._buffer
        else:
            out = self._buffer[self._pos:self._pos + size]
        self._pos += len(out)
        return out


class _ResponseRaw(io.RawIOBase):
    """``readinto`` on the :class:`http.client.HTTPResponse` under an archive stream."""

    def __init__(self, fp: Any, stream: ArchiveStream) -> None:
        self._fp = fp
        self._stream = stream

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        # Closing the file ends the transfer, as closing the stream does (the engine holds
        # the container's lock until then).
        self._stream.close()
        super().close()

    def readinto(self, b: Any) -> int:
        try:
            return int(self._fp.readinto(b))
        except (http.client.HTTPException, OSError) as e:
            self._stream.close()
            raise EngineUnavailable(f"lost the Docker Engine while trying to copy "
                                    f"{self._stream._path} out of the container: {e!r}") from e


class ArchiveStream:
    """The chunks of a tar stream out of a container, as they arrive; ``close()`` ends the
    transfer at once. Until the stream is read to its end or closed the engine holds the
    container's lock (every inspect, kill or removal of it waits), so whoever opens one closes
    it in ``finally``: an interrupted snapshot must not leave its cleanup waiting forever."""

    def __init__(self, response: requests.Response, path: str) -> None:
        self._response = response
        self._chunks = response.iter_content(1 << 20, False)
        self._path = path
        #: How the body is being read: None (not yet), "iter" or "file". urllib3's chunk
        #: decoding and http.client's keep separate state, so the two must never be mixed.
        self._reading: str | None = None

    def __iter__(self) -> Self:
        return self

    def __next__(self) -> bytes:
        if self._reading == "file":
            raise ValueError(f"archive stream of {self._path} is already read as file; it "
                             "cannot also be read as iter")
        self._reading = "iter"
        return self._next_chunk()

    def _next_chunk(self) -> bytes:
        try:
            return bytes(next(self._chunks))
        except StopIteration:
            self.close()
            raise
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            self.close()
            raise _wrap(f"copy {self._path} out of the container", e) from e

    def as_file(self, buffer_size: int = 1 << 16) -> io.BufferedReader:
        """The stream as a buffered binary file, for readers that use ``readinto``.

        Where the engine sent the archive without a content encoding (fcv asks for
        ``identity``), ``readinto`` goes straight to the HTTP response's chunked decoding
        (:mod:`http.client`), so a large read lands in the caller's buffer with no copy in
        between; that is what lets a manifest hash a 1 GB workspace at the speed the engine
        sends it. Otherwise the chunks are read as iteration reads them. Read errors are
        :class:`~isolation.errors.EngineError` as they are from iteration. The file must be
        the stream's only reader."""
        if self._reading is not None:
            raise ValueError(f"archive stream of {self._path} is already being read; "
                             "as_file() must be the only reader")
        self._reading = "file"
        raw: io.RawIOBase
        fp = getattr(self._response.raw, "_fp", None)
        if (fp is not None and hasattr(fp, "readinto")
                and not self._response.headers.get("Content-Encoding")):
            raw = _ResponseRaw(fp, self)
        else:
            raw = ChunkReader(iter(self._next_chunk, None))
        return io.BufferedReader(raw, buffer_size=buffer_size)

    def close(self) -> None:
        self._response.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Engine:
    """A connection to one Docker Engine."""

    def __init__(self, client: docker.DockerClient) -> None:
        self._client = client
        self.api = client.api
        self._clock_offset: float | None = None

    def now(self) -> float:
        """The engine's clock (Unix seconds), for event queries: a remote engine's clock may
        differ from ours, and an ``until`` in its future would make it wait."""
        if self._clock_offset is None:
            text = str(self.info().get("SystemTime") or "")
            match = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)",
                                 text)
            if match is None:
                self._clock_offset = 0.0  # unknown: assume a local engine, sharing our clock
            else:
                zone = "+00:00" if match[3] == "Z" else match[3]
                stamp = dt.datetime.fromisoformat(match[1] + zone).timestamp()
                self._clock_offset = stamp + float("0" + (match[2] or "")) - time.time()
        return time.time() + self._clock_offset

    @classmethod
    def connect(cls) -> Engine:
        """Connect to the engine named by the environment (``DOCKER_HOST`` or the local socket).

        Raises:
            EngineUnavailable: if no engine answers.
        """
        try:
            client = docker.from_env(timeout=API_TIMEOUT)
            client.ping()
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise EngineUnavailable(f"no Docker Engine answers: {e}") from e
        return cls(client)

    def close(self) -> None:
        self._client.close()

    # -- the engine itself ------------------------------------------------------------------

    def version(self) -> dict[str, Any]:
        return _call("read the engine version", self.api.version, retry=True)

    def info(self) -> dict[str, Any]:
        return _call("read engine info", self.api.info, retry=True)

    # -- images -----------------------------------------------------------------------------

    def image_id(self, ref: str) -> str | None:
        """The ``sha256:`` ID of an image, or None if the engine does not have it."""
        try:
            return str(_retry(self.api.inspect_image)(ref)["Id"])
        except docker.errors.ImageNotFound:
            return None
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise _wrap(f"inspect image {ref}", e) from e

    def inspect_image(self, ref: str) -> dict[str, Any]:
        return _call(f"inspect image {ref}", lambda: self.api.inspect_image(ref), retry=True)

    def build(
        self,
        context_dir: str,
        *,
        dockerfile: str,
        labels: Mapping[str, str],
        timeout_s: float,
        on_log: Callable[[str], None] | None = None,
    ) -> str:
        """Build an image with no network; return its ID.

        The whole build must finish within ``timeout_s``. On any failure, timeout or interrupt
        the images of the steps that did finish (unlabelled) are removed again.

        Raises:
            BuildError: the Dockerfile failed or timed out; ``build_log`` holds the engine's
                build output (the caller names the failing step).
        """
        deadline = time.monotonic() + timeout_s
        with IMAGE_LOCK:
            for attempt in range(1, BUILD_TRIES + 1):
                try:
                    return self._build(context_dir, dockerfile=dockerfile, labels=labels,
                                       timeout_s=max(1.0, deadline - time.monotonic()),
                                       on_log=on_log)
                except BuildError as e:
                    if (attempt == BUILD_TRIES or not _is_cache_race(str(e))
                            or time.monotonic() >= deadline):
                        raise
                    log.warning("build: a cached layer was removed during the build (%s); "
                                "building again (try %d of %d)", e, attempt + 1, BUILD_TRIES)
        raise AssertionError("unreachable")  # pragma: no cover

    def _build(self, context_dir: str, *, dockerfile: str, labels: Mapping[str, str],
               timeout_s: float, on_log: Callable[[str], None] | None) -> str:
        deadline = time.monotonic() + timeout_s
        build_log: list[dict[str, Any]] = []
        image_id: str | None = None
        try:
            stream = self.api.build(
                path=context_dir, dockerfile=dockerfile, network_mode="none",
                labels=dict(labels), rm=True, forcerm=True, decode=True, pull=False,
                timeout=max(1, int(timeout_s) + 1))
            for chunk in stream:
                build_log.append(chunk)
                if "error" in chunk:
                    raise BuildError(str(chunk["error"]).strip(), build_log=build_log)
                aux = chunk.get("aux")
                if isinstance(aux, dict) and aux.get("ID"):
                    image_id = str(aux["ID"])
                text = str(chunk.get("stream", ""))
                if text.startswith("Successfully built "):
                    image_id = image_id or text.split()[-1]
                if on_log is not None and text:
                    on_log(text)
                if time.monotonic() > deadline:
                    raise BuildError(f"build timed out after {timeout_s:g}s "
                                     "([environment].build_timeout_sec)", build_log=build_log)
        except BuildError:
            self._remove_build_leftovers(build_log)
            raise
        except (docker.errors.DockerException, requests.exceptions.RequestException,
                urllib3.exceptions.HTTPError) as e:
            self._remove_build_leftovers(build_log)
            if "timed out" in str(e).lower():
                raise BuildError(f"build timed out after {timeout_s:g}s "
                                 "([environment].build_timeout_sec)",
                                 build_log=build_log) from None
            raise _wrap("build the task image", e) from e
        except BaseException:
            self._remove_build_leftovers(build_log)
            raise
        if image_id is None:
            self._remove_build_leftovers(build_log)
            raise BuildError("the engine finished the build without naming an image",
                             build_log=build_log)
        resolved = self.image_id(image_id)
        if resolved is None:
            raise EngineError(f"built image {image_id} is not in the engine")
        return resolved

    def _remove_build_leftovers(self, build_log: Iterable[Mapping[str, Any]]) -> None:
        """A failed classic build keeps the images of the steps that succeeded, unlabelled.
        Remove those this build created (not cached ones), children first."""
        created: list[str] = []
        step_containers: list[str] = []
        ran = False
        for entry in build_log or []:
            text = str(entry.get("stream", "")).strip()
            if text.startswith("---> Running in"):
                ran = True
                step_containers.append(text.split()[-1])
            elif text.startswith("---> ") and " " not in text[5:].strip():
                if ran:
                    created.append(text[5:].strip())
                ran = False
        # A build cut off mid-step leaves that step's container (it may still be running).
        for container in step_containers:
            try:
                self.api.remove_container(container, force=True, v=True)
            except docker.errors.NotFound:
                pass
            except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
                log.warning("could not remove build container %s: %s", container, e)
        for image in reversed(created):
            try:
                self.api.remove_image(image, noprune=True)
            except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
                log.warning("could not remove build leftover %s: %s", image, e)

    def import_image(self, tar_path: str, *, repository: str, tag: str,
                     changes: Sequence[str]) -> str:
        """Import a root filesystem tarball as an image (``docker import``); return its ID."""
        def run() -> Any:
            return self.api.import_image_from_file(
                tar_path, repository=repository, tag=tag, changes=list(changes))
        _call(f"import {repository}:{tag}", run)
        image_id = self.image_id(f"{repository}:{tag}")
        if image_id is None:
            raise EngineError(f"imported {repository}:{tag} but the engine does not list it")
        return image_id

    def remove_image(self, ref: str) -> None:
        try:
            with IMAGE_LOCK:
                _retry(self.api.remove_image)(ref, force=True)
        except docker.errors.ImageNotFound:
            pass
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise _wrap(f"remove image {ref}", e) from e

    def commit(self, container: str, *, labels: Mapping[str, str]) -> str:
        """``docker commit`` a container (pausing it if it runs); the image carries ``labels``."""
        changes = "LABEL " + " ".join(f'"{k}"="{v}"' for k, v in labels.items())
        result = _call("commit the agent container",
                       lambda: self.api.commit(container, changes=changes, pause=True))
        return str(result["Id"])

    def diff(self, container: str) -> list[DiffEntry]:
        """``docker diff``: the paths of the writable layer (volumes excluded)."""
        kinds = {0: "C", 1: "A", 2: "D"}
        raw = _call("diff the agent container", lambda: self.api.diff(container), retry=True)
        return [DiffEntry(kind=kinds.get(int(d["Kind"]), "?"), path=str(d["Path"]))
                for d in raw or []]

    # -- volumes ----------------------------------------------------------------------------

    def create_volume(self, name: str, *, labels: Mapping[str, str],
                      driver_opts: Mapping[str, str] | None = None) -> str:
        result = _call(f"create volume {name}", lambda: self.api.create_volume(
            name=name, driver="local", driver_opts=dict(driver_opts or {}), labels=dict(labels)))
        return str(result["Name"])

    def volume_mountpoint(self, name: str) -> str:
        """The volume's directory as the daemon sees it (its own filesystem, not ours)."""
        result = _call(f"inspect volume {name}", lambda: self.api.inspect_volume(name),
                       retry=True)
        return str(result["Mountpoint"])

    def inspect_volume(self, name: str) -> dict[str, Any] | None:
        """The engine's description of a volume (``Name``, ``Labels``, ...), or None."""
        try:
            return dict(_retry(self.api.inspect_volume)(name))
        except docker.errors.NotFound:
            return None
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise _wrap(f"inspect volume {name}", e) from e

    def remove_volume(self, name: str) -> None:
        try:
            _retry(self.api.remove_volume)(name, force=True)
        except docker.errors.NotFound:
            pass
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise _wrap(f"remove volume {name}", e) from e

    # -- containers -------------------------------------------------------------------------

    def create_container(
        self,
        image: str,
        command: Sequence[str],
        *,
        name: str,
        labels: Mapping[str, str],
        host_config: Mapping[str, Any],
        mounts: Sequence[VolumeMount] = (),
        user: str | None = None,
        working_dir: str | None = None,
        environment: Mapping[str, str] | None = None,
        entrypoint: Sequence[str] | None = None,
    ) -> str:
        """Create (not start) a container; return its ID.

        ``host_config`` comes from :meth:`isolation.hardening.Hardening.host_config`; mounts are
        named volumes only.
        """
        config = dict(host_config)
        config["mounts"] = [
            Mount(target=m.target, source=m.volume, type="volume", read_only=m.read_only,
                  no_copy=m.no_copy)
            for m in mounts
        ]
        if config.get("binds") or config.get("Binds"):
            raise EngineError("fcv never bind-mounts host paths into containers")

        def run() -> Any:
            hc = self.api.create_host_config(**config)
            return self.api.create_container(
                image=image,
                command=list(command),
                name=name,
                labels=dict(labels),
                host_config=hc,
                user=user or "",
                working_dir=working_dir,
                environment=dict(environment or {}),
                entrypoint=list(entrypoint) if entrypoint is not None else None,
                network_disabled=False,
                detach=True,
            )

        result = _call(f"create container {name}", run)
        return str(result["Id"])

    def start(self, container: str) -> None:
        _call("start a container", lambda: self.api.start(container))

    def pause(self, container: str) -> None:
        # The cgroup freezer can fail transiently while processes are mid-fork; retried.
        _call("pause the agent container", lambda: self.api.pause(container), retry=True)

    def unpause(self, container: str) -> None:
        _call("unpause the agent container", lambda: self.api.unpause(container))

    def kill(self, container: str) -> None:
        try:
            self.api.kill(container)
        except docker.errors.APIError as e:
            # Already stopped is what we wanted.
            if e.status_code not in (404, 409):
                raise _wrap("kill a container", e) from e
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            raise _wrap("kill a container", e) from e

    def inspect_container(self, container: str) -> dict[str, Any]:
        return _call("inspect a container", lambda: self.api.inspect_container(container),
                     retry=True)

    def writable_layer_bytes(self, container: str) -> int:
        """The size of a container's writable layer (``SizeRw``), which the engine computes by
        walking it: call it sparingly."""
        def inspect() -> Any:
            return self.api._result(self.api._get(
                self.api._url("/containers/{0}/json", container), params={"size": 1}), True)
        return int(_call("measure a container's writable layer", inspect, retry=True)
                   .get("SizeRw") or 0)

    def logs(self, container: str, *, stdout: bool = True, stderr: bool = True) -> str:
        """A finished container's output, decoded (invalid UTF-8 replaced)."""
        raw = _call("read a container's output",
                    lambda: self.api.logs(container, stdout=stdout, stderr=stderr))
        return bytes(raw).decode("utf-8", "replace")

    def top(self, container: str) -> list[dict[str, str]]:
        """The processes of a running or paused container (``docker top``)."""
        result = _call("list the agent's processes", lambda: self.api.top(container, "-ef"))
        titles = result.get("Titles") or []
        return [dict(zip(titles, row, strict=False)) for row in result.get("Processes") or []]

    @contextmanager
    def watch(self, container: str, actions: Sequence[str]) -> Iterator[Watch]:
        """Collect the engine's ``actions`` events (``oom``, ``kill``, ...) of ``container``
        for the duration of the block.

        Raises:
            EngineError: the engine refused the subscription.
        """
        watch = Watch(self, container, actions)
        watch.start()
        try:
            yield watch
        finally:
            watch.stop()

    def run(self, container: str, *, timeout_s: float) -> WaitResult:
        """Start a created container and wait for it to exit, killing it at ``timeout_s``.

        The result says whether the OOM killer acted in it and whether anyone else asked the
        engine to kill it meanwhile: both are invisible in the exit code alone (137 is also
        what a script that ends with ``exit 137`` returns).

        Raises:
            EngineError: the engine refused to start it, or went away while it ran.
        """
        with self.watch(container, ("oom", "kill")) as watch:
            self.start(container)
            waited = self.wait(container, timeout_s=timeout_s)
        watch.check("wait for a container")
        killed_by = None
        if not waited.timed_out:  # at the timeout, fcv itself sent the kill
            signals = [attributes.get("signal", "?") for action, attributes in watch.actions()
                       if action == "kill"]
            killed_by = signals[0] if signals else None
        return attrs.evolve(waited, oom_killed=waited.oom_killed or watch.seen("oom"),
                            killed_by=killed_by)

    def wait(self, container: str, *, timeout_s: float) -> WaitResult:
        """Wait for a started container to exit; kill it at ``timeout_s``."""
        started = time.monotonic()
        timed_out = False
        exit_code: int | None = None
        try:
            result = self.api.wait(container, timeout=max(timeout_s, 0.001))
            exit_code = int(result["StatusCode"])
        except (docker.errors.DockerException, requests.exceptions.RequestException) as e:
            # A read timeout is how the SDK reports "still running"; a reset connection or a
            # reply cut short is the daemon itself going away: an EngineError, never a verdict.
            if not _is_read_timeout(e):
                raise _wrap("wait for a container", e) from e
            timed_out = True
            self.kill(container)
        duration = time.monotonic() - started
        state = self.inspect_container(container)["State"]
        return WaitResult(exit_code=exit_code, timed_out=timed_out, duration_s=duration,
                          oom_killed=bool(state.get("OOMKilled")))

    def exec(
        self,
        container: str,
        command: Sequence[str],
        *,
        user: str | None = None,
        workdir: str | None = None,
        environment: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
        output_limit: int = 1 << 20,
        stop: threading.Event | None = None,
    ) -> ExecResult:
        """Run a command in a running container, keeping the last ``output_limit`` bytes of
        its combined output. At ``timeout_s`` fcv stops waiting and reports ``timed_out``; the
        process is left to whoever owns the container (the agent's is frozen next). When
        ``stop`` is set, fcv stops waiting too and reports ``stopped``."""
        def create() -> Any:
            return self.api.exec_create(
                container, list(command), stdout=True, stderr=True, user=user or "",
                workdir=workdir, environment=dict(environment or {}))

        with self.watch(container, ("oom",)) as watch:
            exec_id = _call("start a command in a container", create)["Id"]
            result = self._run_exec(container, exec_id, timeout_s=timeout_s,
                                    output_limit=output_limit, stop=stop)
        watch.check("run a command in a container")
        return attrs.evolve(result, oom_killed=watch.seen("oom"))

    def _run_exec(self, container: str, exec_id: str, *, timeout_s: float | None,
                  output_limit: int, stop: threading.Event | None) -> ExecResult:
        started = time.monotonic()
        stream = _call("start a command in a container",
                       lambda: self.api.exec_start(exec_id, stream=True))
        output = bytearray()
        done = threading.Event()

        def pump() -> None:
            try:
                for chunk in stream:
                    output.extend(chunk)
                    if len(output) > 2 * output_limit:
                        del output[:-output_limit]
            except Exception as e:  # noqa: BLE001 - a closed stream ends the pump, nothing more
                log.debug("exec output stream closed: %s", e)
            finally:
                done.set()

        reader = threading.Thread(target=pump, name="fcv-exec-output", daemon=True)
        reader.start()
        deadline = None if timeout_s is None else started + timeout_s
        finished = stopped = False
        try:
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                step = left if stop is None else min(left if left is not None else 0.2, 0.2)
                if done.wait(step):
                    finished = True
                    break
                if stop is not None and stop.is_set():
                    stopped = True
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
        except BaseException:
            stream.close()  # interrupted: do not leave the attach open behind the cleanup
            raise
        duration = time.monotonic() - started
        if not finished:
            stream.close()
            reader.join(5)
        try:
            info = _call("inspect a command", lambda: self.api.exec_inspect(exec_id),
                         retry=True)
        except EngineError:
            # The engine forgets a command whose container died under it (a gVisor sandbox
            # killed at its pids or memory limit): no exit code to report, and not an error
            # of the engine's; anything else wrong with the container is found next.
            if self.inspect_container(container)["State"].get("Running"):
                raise
            info = {"Running": False, "ExitCode": None}
        exit_code = None if info.get("Running") else info.get("ExitCode")
        return ExecResult(exit_code=exit_code, timed_out=not finished and not stopped,
                          duration_s=duration, output=bytes(output[-output_limit:]),
                          stopped=stopped)

    def put_archive(self, container: str, path: str, data: bytes | Iterable[bytes]) -> None:
        """Extract a tar stream into a container (created, running or stopped)."""
        _call(f"copy files into the container at {path}",
              lambda: self.api.put_archive(container, path, data))

    def get_archive(self, container: str, path: str) -> tuple[ArchiveStream, dict[str, Any]]:
        """A tar stream of ``path`` in a container, and the engine's stat of that path.

        Close the stream (or read it to the end) before anything else touches the container:
        the engine holds the container's lock until then.

        Raises:
            EngineError: the engine refused (the path does not exist, ...).
        """
        def run() -> Any:
            res = self.api._get(self.api._url("/containers/{0}/archive", container),
                                params={"path": path}, stream=True,
                                headers={"Accept-Encoding": "identity"})
            try:
                self.api._raise_for_status(res)
            except BaseException:
                res.close()
                raise
            return res

        res = _call(f"copy {path} out of the container", run)
        header = res.headers.get("X-Docker-Container-Path-Stat")
        stat = dict(json.loads(base64.b64decode(header))) if header else {}
        return ArchiveStream(res, path), stat

    def stat_path(self, container: str, path: str) -> dict[str, Any] | None:
        """The engine's stat of ``path`` in a (possibly never started) container, without
        transferring anything: ``linkTarget`` of a symlink is where it leads in that
        container, every link on the way resolved by the daemon within the container's root.
        None when the path does not exist."""
        url = self.api._url("/containers/{0}/archive", container)
        try:
            res = self.api.head(url, params={"path": path})
        except requests.exceptions.RequestException as e:
            raise _wrap(f"stat {path}", e) from e
        if res.status_code == 404:
            return None
        if res.status_code != 200:
            raise EngineError(f"engine refused to stat {path}: HTTP {res.status_code}")
        header = res.headers.get("X-Docker-Container-Path-Stat")
        if not header:
            raise EngineError(f"engine sent no stat for {path}")
        return dict(json.loads(base64.b64decode(header)))

    def path_exists(self, container: str, path: str) -> bool:
        """Whether ``path`` exists in a (possibly never started) container."""
        return self.stat_path(container, path) is not None

    def remove_container(self, container: str) -> None:
        def run() -> None:
            try:
                state = self.api.inspect_container(container)["State"]
                if state.get("Paused"):
                    self.api.unpause(container)
            except docker.errors.NotFound:
                return
            except docker.errors.APIError as e:
                # Unpaused or being removed meanwhile: the forced removal below settles it.
                log.debug("unpause before removal: %s", e)
            try:
                # v=True removes the container's anonymous volumes (a task image's VOLUME);
                # named volumes are fcv's and are removed by label.
                self.api.remove_container(container, force=True, v=True)
            except docker.errors.NotFound:
                pass

        _call("remove a container", run, retry=True)

    # -- cleanup by label -------------------------------------------------------------------

    def list_labelled(self, trial_id: str | None = None, *,
                      spare_live: bool = False) -> dict[str, list[str]]:
        """IDs of fcv trial resources: containers, volumes, images (one trial's, or all).

        With ``spare_live``, resources whose owner (``fcv.owner``) is another fcv process still
        running on this host are left out: they belong to a trial in progress."""
        filters = L.trial_filter(trial_id)

        def keep(labels: Mapping[str, str] | None) -> bool:
            return not (spare_live and L.owner_alive((labels or {}).get(L.OWNER)))

        def run() -> dict[str, list[str]]:
            containers = [c["Id"] for c in self.api.containers(all=True, filters=filters)
                          if keep(c.get("Labels"))]
            volumes = [v["Name"] for v in (self.api.volumes(filters=filters) or {})
                       .get("Volumes") or [] if keep(v.get("Labels"))]
            images = [i["Id"] for i in self.api.images(all=True, filters=filters)
                      if keep(i.get("Labels"))]
            return {"containers": containers, "volumes": volumes, "images": images}

        return _call("list fcv resources", run, retry=True)

    def remove_labelled(self, trial_id: str | None = None, *, spare_live: bool = False,
                        engine_wait_s: float = 0) -> dict[str, int]:
        """Remove every container, then volume, then image labelled for ``trial_id`` (or for
        any trial; see :meth:`list_labelled` for ``spare_live``). Returns how many of each
        were removed; the first failure is raised after everything else was tried.

        With ``engine_wait_s``, an engine that does not answer (a daemon restarting, which
        restores its containers before it listens again) is waited for that long, retrying
        every second, before giving up.

        Raises:
            EngineError: something could not be removed (EngineUnavailable: no engine).
        """
        if engine_wait_s > 0:
            patient = tenacity.retry(
                retry=tenacity.retry_if_exception_type(EngineUnavailable),
                stop=tenacity.stop_after_delay(engine_wait_s), wait=tenacity.wait_fixed(1),
                before_sleep=tenacity.before_sleep_log(log, logging.WARNING), reraise=True)
            return patient(self.remove_labelled)(trial_id, spare_live=spare_live)
        found = self.list_labelled(trial_id, spare_live=spare_live)
        first_error: EngineError | None = None
        removed = {"containers": 0, "volumes": 0, "images": 0}
        steps: list[tuple[str, Callable[[str], None]]] = [
            ("containers", self.remove_container),
            ("volumes", self.remove_volume),
            ("images", self.remove_image),
        ]
        for kind, remove in steps:
            pending = list(found[kind])
            # Images may depend on each other (a commit is a child of the task image): keep
            # going round while a pass removes something.
            while pending:
                failed: list[tuple[str, EngineError]] = []
                for ident in pending:
                    try:
                        remove(ident)
                        removed[kind] += 1
                    except EngineError as e:
                        failed.append((ident, e))
                if len(failed) == len(pending):
                    for ident, failure in failed:
                        log.warning("could not remove %s %s: %s", kind[:-1], ident[:12], failure)
                    first_error = first_error or failed[0][1]
                    break
                pending = [ident for ident, _ in failed]
        if first_error is not None:
            raise first_error
        return removed


def _is_read_timeout(exc: BaseException) -> bool:
    if isinstance(exc, requests.exceptions.ReadTimeout):
        return True
    return isinstance(exc, requests.exceptions.ConnectionError) and \
        "read timed out" in str(exc).lower()
