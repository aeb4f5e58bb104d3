"""Watching how much the agent writes while it runs.

overlay2 on ext4 (these machines) has no per-container quota, so a policy's ``max_bytes`` is
enforced by watching: the container's writable layer (the engine's ``SizeRw``) plus the
workspace volume, measured by ``du`` in a container of fcv's own busybox image with the
workspace mounted read-only (nothing from the agent's image runs, so the agent cannot make the
measurement lie). When the sum crosses the limit the agent is frozen at once and the watch says
so; the trial then records a ``disk-limit-exceeded`` finding instead of a verdict on a partial
workspace. Where the engine's storage driver does support a quota, :func:`storage_quota` gives
the container a hard one as well.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Self

import attrs

from isolation.engine import Engine
from isolation.errors import EngineError
from isolation.hardening import Hardening
from isolation.scan import run_over_volume

log = logging.getLogger(__name__)

MEASURE_IMAGE = "fcv/busybox:latest"
_MOUNT = "/fcv-workspace"
#: The first measurement waits this long (short agents are never measured while running; the
#: snapshot scan still checks their final size); later ones are spaced so that measuring
#: costs at most about a third of the time, and at most MAX_INTERVAL_S apart.
FIRST_CHECK_S = 2.0
MIN_INTERVAL_S = 2.0
MAX_INTERVAL_S = 10.0


@attrs.frozen(kw_only=True)
class Usage:
    writable_layer: int
    workspace: int

    @property
    def total(self) -> int:
        return self.writable_layer + self.workspace


def storage_quota(engine_info: dict[str, Any], max_bytes: int) -> dict[str, str] | None:
    """``storage_opt`` for a hard quota on the writable layer, where the driver has one
    (overlay2 on xfs with project quotas); None otherwise (ext4 here)."""
    status = dict(engine_info.get("DriverStatus") or [])
    if engine_info.get("Driver") == "overlay2" and status.get("Backing Filesystem") == "xfs":
        return {"size": str(max_bytes)}
    return None


def workspace_bytes(engine: Engine, volume: str, *, trial_id: str,
                    timeout_s: float = 120.0) -> int:
    """Apparent size of a workspace volume, measured in fcv's own busybox container.

    Raises:
        EngineError: the measurement did not complete.
    """
    run = run_over_volume(
        engine, MEASURE_IMAGE, ["du", "-s", "-b", _MOUNT], volume=volume, mount=_MOUNT,
        trial_id=trial_id, name=f"-du-{time.monotonic_ns() % 10**9}",
        hardening=Hardening(cap_add=("DAC_READ_SEARCH",), pids_limit=16, memory_mb=128),
        timeout_s=timeout_s)
    output = run.stdout.split()
    # du exits 1 when it could not read something; the total it printed still counts what it
    # saw, and the snapshot scan refuses unreadable directories anyway.
    if run.timed_out or not output or not output[0].isdigit():
        raise EngineError(f"could not measure the workspace (exit {run.exit_code}, "
                          f"timed out: {run.timed_out})")
    return int(output[0])


class DiskWatch:
    """Measures the agent's disk use in a background thread until stopped; calls
    ``on_exceeded(usage)`` once, from that thread, when the usage crosses ``max_bytes``."""

    def __init__(self, engine: Engine, *, container: str, volume: str, trial_id: str,
                 max_bytes: int, on_exceeded: Callable[[Usage], None]) -> None:
        self.engine = engine
        self.container = container
        self.volume = volume
        self.trial_id = trial_id
        self.max_bytes = max_bytes
        self.on_exceeded = on_exceeded
        self.exceeded: Usage | None = None
        self.last: Usage | None = None
        self.checks = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fcv-disk-watch", daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(30)

    def measure(self) -> Usage:
        return Usage(writable_layer=self.engine.writable_layer_bytes(self.container),
                     workspace=workspace_bytes(self.engine, self.volume,
                                               trial_id=self.trial_id))

    def _run(self) -> None:
        wait = FIRST_CHECK_S
        while not self._done.wait(wait):
            started = time.monotonic()
            try:
                usage = self.measure()
            except EngineError as e:
                # The final scan still checks the limit; a watch that cannot measure only
                # loses the early stop.
                log.info("disk watch could not measure: %s", e)
                wait = MIN_INTERVAL_S
                continue
            self.checks += 1
            self.last = usage
            if usage.total > self.max_bytes and not self._done.is_set():
                self.exceeded = usage
                self.on_exceeded(usage)
                return
            wait = min(MAX_INTERVAL_S, max(MIN_INTERVAL_S, 3 * (time.monotonic() - started)))
