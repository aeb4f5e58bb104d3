"""Pure: a hardening profile, and the engine arguments it turns into.

The agent and the verifier are both created from a :class:`Hardening`. Nothing here talks to
the engine, so every promise can be unit-tested; the integration tests then check from inside
the containers that the engine kept them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

#: Capabilities the agent keeps after ``cap_drop=ALL``. This is the smallest set with which
#: root inside the container can still do package-manager style work (proven by
#: tests/test_hardening_engine.py, which installs a .deb with dpkg and apt and chowns/chmods
#: files of other users):
#:
#: * CHOWN         - ``chown`` (dpkg unpacks files owned by other users)
#: * DAC_OVERRIDE  - root reads/writes files it does not own (apt lists, /var/lib/dpkg)
#: * FOWNER        - ``chmod``/utime on files owned by another user
#: * SETUID/SETGID - apt drops to the ``_apt`` user; ``su``/``runuser`` style user switching
#:
#: Left out on purpose: NET_RAW (no network anyway), MKNOD (no device nodes in a workspace),
#: FSETID (setgid bits on files of a foreign group are cleared), SETFCAP, KILL (root cannot
#: signal processes of other users), SYS_CHROOT, AUDIT_WRITE, NET_BIND_SERVICE.
MINIMAL_CAP_ADD: tuple[str, ...] = ("CHOWN", "DAC_OVERRIDE", "FOWNER", "SETUID", "SETGID")

_CAPABILITIES = frozenset({
    "AUDIT_CONTROL", "AUDIT_READ", "AUDIT_WRITE", "BLOCK_SUSPEND", "BPF", "CHECKPOINT_RESTORE",
    "CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "IPC_LOCK", "IPC_OWNER",
    "KILL", "LEASE", "LINUX_IMMUTABLE", "MAC_ADMIN", "MAC_OVERRIDE", "MKNOD", "NET_ADMIN",
    "NET_BIND_SERVICE", "NET_BROADCAST", "NET_RAW", "PERFMON", "SETFCAP", "SETGID", "SETPCAP",
    "SETUID", "SYSLOG", "SYS_ADMIN", "SYS_BOOT", "SYS_CHROOT", "SYS_MODULE", "SYS_NICE",
    "SYS_PACCT", "SYS_PTRACE", "SYS_RAWIO", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG",
    "WAKE_ALARM", "ALL",
})

DEFAULT_MEMORY_MB = 2048
DEFAULT_CPUS = 1.0
DEFAULT_PIDS_LIMIT = 512
DEFAULT_TMP_SIZE_MB = 512


def _capabilities(_: Any, attribute: attrs.Attribute[Any], value: tuple[str, ...]) -> None:
    unknown = sorted(set(value) - _CAPABILITIES)
    if unknown:
        raise ValueError(f"{attribute.name}: unknown capabilities {unknown}; "
                         f"expected names like CHOWN or SETUID (no CAP_ prefix)")


def _to_tuple(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _positive(_: Any, attribute: attrs.Attribute[Any], value: float) -> None:
    if isinstance(value, bool) or not value > 0:
        raise ValueError(f"{attribute.name}: expected a positive number, got {value!r}")


@attrs.frozen(kw_only=True)
class Hardening:
    """How one container is confined."""

    cap_drop: tuple[str, ...] = attrs.field(default=("ALL",), converter=_to_tuple,
                                            validator=_capabilities)
    cap_add: tuple[str, ...] = attrs.field(default=MINIMAL_CAP_ADD, converter=_to_tuple,
                                           validator=_capabilities)
    no_new_privileges: bool = True
    pids_limit: int = attrs.field(default=DEFAULT_PIDS_LIMIT, validator=_positive)
    memory_mb: int = attrs.field(default=DEFAULT_MEMORY_MB, validator=_positive)
    cpus: float = attrs.field(default=DEFAULT_CPUS, validator=_positive)
    tmp_size_mb: int = attrs.field(default=DEFAULT_TMP_SIZE_MB, validator=_positive)
    network_mode: str = attrs.field(default="none", validator=attrs.validators.in_(("none",)))
    runtime: str | None = None
    read_only_rootfs: bool = False
    #: A hard quota on the writable layer, where the storage driver has one (not ext4).
    storage_quota_bytes: int | None = None

    def with_limits(self, *, memory_mb: int | None, cpus: float | None) -> Hardening:
        """The same profile with a task's own memory and CPU limits, where it sets them."""
        return attrs.evolve(
            self,
            memory_mb=memory_mb if memory_mb is not None else self.memory_mb,
            cpus=cpus if cpus is not None else self.cpus,
        )

    def host_config(self) -> dict[str, Any]:
        """Keyword arguments for the engine's host config (no mounts: those are added by
        :meth:`isolation.engine.Engine.create_container`, named volumes only)."""
        memory = self.memory_mb * 1024 * 1024
        config: dict[str, Any] = {
            "cap_drop": list(self.cap_drop),
            "cap_add": list(self.cap_add),
            "security_opt": ["no-new-privileges:true"] if self.no_new_privileges else [],
            "pids_limit": self.pids_limit,
            "mem_limit": memory,
            # Equal to the memory limit: no swap, so a memory hog is OOM-killed, not slowed.
            "memswap_limit": memory,
            "nano_cpus": int(self.cpus * 1e9),
            # exec spelled out: the engine's tmpfs default is noexec, which breaks honest work
            # (building and running a program in /tmp); nosuid and nodev are the promise.
            "tmpfs": {"/tmp": f"rw,exec,nosuid,nodev,mode=1777,size={self.tmp_size_mb}m"},
            "network_mode": self.network_mode,
            "read_only": self.read_only_rootfs,
            "privileged": False,
        }
        if self.runtime is not None:
            config["runtime"] = self.runtime
        if self.storage_quota_bytes is not None:
            config["storage_opt"] = {"size": str(self.storage_quota_bytes)}
        return config

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str) -> Hardening:
        """Build from a policy table; errors name ``source`` and the key.

        Raises:
            ValueError: on unknown keys or values of the wrong type.
        """
        fields = {a.name for a in attrs.fields(cls)}
        unknown = sorted(set(data) - fields)
        if unknown:
            raise ValueError(f"{source}: unknown keys {unknown}; allowed: {sorted(fields)}")
        try:
            return cls(**dict(data))
        except (TypeError, ValueError) as e:
            raise ValueError(f"{source}: {e}") from e
