"""Pure: isolation policies, loaded from ``policies/*.toml`` and failing closed.

A policy says how the agent and the verifier containers are confined, how the workspace is
handed over and within which limits, which paths the findings protect, which verifier
environment defaults apply, and the pass threshold. It is chosen with ``--policy NAME|PATH``
and recorded with every verdict by name and digest (SHA-256 of the file's exact bytes, so
changing one byte of a policy changes the digest).

Loading fails closed: unknown keys, wrong types, empty lists where something must be listed,
and contradictions are errors naming the file, the key and what is allowed. Anything that
weakens isolation below fcv's defaults can only be switched on by a key named ``unsafe_*``,
and every such key that is on is listed in :attr:`Policy.unsafe` (the CLI warns).
"""

from __future__ import annotations

import hashlib
import math
import os
import posixpath
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from isolation.errors import UsageError
from isolation.hardening import _CAPABILITIES, MINIMAL_CAP_ADD, Hardening
from verifier import environment
from verifier import findings as F

SCHEMA = "fcv.policy/v1"
DEFAULT_POLICY = "default"
RUNTIMES = ("runc", "runsc")
SNAPSHOT_METHODS = ("volume", "commit")
WORKSPACE_MODES = ("ro", "scratch")
#: Paths no policy may stop protecting: the verifier's own inputs and outputs.
REQUIRED_PROTECTED = ("/tests", "/logs")
#: Docker's default capability set: what a container keeps when nothing is dropped (Harbor).
DOCKER_DEFAULT_CAPS = ("CHOWN", "DAC_OVERRIDE", "FSETID", "FOWNER", "MKNOD", "NET_RAW",
                       "SETGID", "SETUID", "SETFCAP", "SETPCAP", "NET_BIND_SERVICE",
                       "SYS_CHROOT", "KILL", "AUDIT_WRITE")


class PolicyError(UsageError):
    """A policy file that cannot be used as written (exit code 2, like any usage error)."""


def policy_dir() -> str:
    """Where named policies live: ``$FCV_POLICY_DIR`` or the ``policies/`` folder beside the
    packages."""
    return os.environ.get("FCV_POLICY_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "policies")


def available() -> list[str]:
    """The names of the policies in :func:`policy_dir`."""
    try:
        return sorted(n[:-5] for n in os.listdir(policy_dir()) if n.endswith(".toml"))
    except OSError:
        return []


@attrs.frozen(kw_only=True)
class Policy:
    """One loaded policy. Build it with :meth:`load` or :meth:`from_bytes`."""

    name: str
    description: str
    source: str
    #: ``sha256:<hex>`` of the file's bytes.
    digest: str
    agent: Hardening
    verifier: Hardening
    snapshot_method: str
    max_bytes: int
    max_files: int
    workspace_mode: str
    #: Paths outside the workspace carried from the frozen agent into the verifier, read-only.
    carry: tuple[str, ...]
    protected_paths: tuple[str, ...]
    findings: F.Policy
    safe_defaults: bool
    mitigations: tuple[str, ...]
    threshold: float
    #: The ``unsafe_*`` keys that are on, as ``section.key``.
    unsafe: tuple[str, ...]

    @classmethod
    def load(cls, name_or_path: str) -> Policy:
        """A named policy from :func:`policy_dir`, or a policy file by path.

        Raises:
            PolicyError: the policy does not exist, is not TOML, or does not validate.
        """
        if os.sep in name_or_path or name_or_path.endswith(".toml"):
            path = name_or_path
        else:
            path = os.path.join(policy_dir(), f"{name_or_path}.toml")
            if not os.path.isfile(path):
                known = ", ".join(available()) or f"none found in {policy_dir()}"
                raise PolicyError(f"--policy: no policy named {name_or_path!r}; "
                                  f"known: {known} (or give a path to a .toml file)")
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise PolicyError(f"{path}: cannot read policy: {e.strerror}") from None
        return cls.from_bytes(data, source=path)

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str) -> Policy:
        """Parse and validate a policy document.

        Raises:
            PolicyError: naming ``source``, the key and the allowed values.
        """
        try:
            doc = tomllib.loads(data.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise PolicyError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
        except tomllib.TOMLDecodeError as e:
            raise PolicyError(f"{source}: not valid TOML: {e}") from None
        return _Parser(source).policy(doc, digest="sha256:" + hashlib.sha256(data).hexdigest())

    def to_json(self) -> dict[str, Any]:
        """The effective policy, every default filled in."""
        return {
            "schema": SCHEMA,
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "digest": self.digest,
            "agent": _hardening_json(self.agent),
            "verifier": _hardening_json(self.verifier),
            "snapshot": {"method": self.snapshot_method, "max_bytes": self.max_bytes,
                         "max_files": self.max_files},
            "workspace": {"mode": self.workspace_mode, "carry": list(self.carry)},
            "findings": {"protected_paths": list(self.protected_paths),
                         "fail_on": sorted(self.findings.fail_on)},
            "environment": {"safe_defaults": self.safe_defaults,
                            "mitigations": list(self.mitigations)},
            "verdict": {"threshold": self.threshold},
            "unsafe": list(self.unsafe),
        }

    def reference(self) -> dict[str, str]:
        """What a verdict records about its policy."""
        return {"name": self.name, "digest": self.digest}


def _hardening_json(h: Hardening) -> dict[str, Any]:
    return {"runtime": h.runtime or "runc", "cap_drop": list(h.cap_drop),
            "cap_add": list(h.cap_add), "no_new_privileges": h.no_new_privileges,
            "pids_limit": h.pids_limit, "memory_mb": h.memory_mb, "cpus": h.cpus,
            "tmp_size_mb": h.tmp_size_mb, "read_only_rootfs": h.read_only_rootfs,
            "network_mode": h.network_mode}


_TOP = {"schema", "name", "description", "agent", "verifier", "snapshot", "workspace",
        "findings", "environment", "verdict"}
_CONTAINER = {"runtime", "cap_add", "unsafe_cap_add", "unsafe_default_capabilities",
              "unsafe_allow_new_privileges", "pids_limit", "memory_mb", "cpus", "tmp_size_mb"}
_SECTIONS: Mapping[str, set[str]] = {
    "agent": _CONTAINER,
    "verifier": _CONTAINER | {"read_only_rootfs"},
    "snapshot": {"method", "max_bytes", "max_files"},
    "workspace": {"mode", "carry"},
    "findings": {"protected_paths", "fail_on", "unsafe_ignore_findings"},
    "environment": {"safe_defaults", "unsafe_no_safe_defaults", "mitigations"},
    "verdict": {"threshold"},
}


class _Parser:
    """Reads one document; every error names the file and the dotted key."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.unsafe: list[str] = []

    def fail(self, key: str, message: str) -> PolicyError:
        return PolicyError(f"{self.source}: {key}: {message}")

    def keys(self, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            at = f"{where}." if where else ""
            raise self.fail(at + unknown[0], f"unknown key; allowed in "
                            f"{'[' + where + ']' if where else 'the top level'}: "
                            f"{', '.join(sorted(allowed))}")

    def get(self, table: Mapping[str, Any], where: str, key: str, kind: type | tuple[type, ...],
            default: Any, *, expected: str) -> Any:
        if key not in table:
            return default
        value = table[key]
        # TOML booleans are not numbers, whatever Python thinks.
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self.fail(f"{where}.{key}", f"expected {expected}, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail(f"{where}.{key}", f"expected {expected}, got {value!r}")
        return value

    def positive(self, table: Mapping[str, Any], where: str, key: str, default: float, *,
                 integer: bool = True) -> Any:
        kind: tuple[type, ...] = (int,) if integer else (int, float)
        what = "a positive integer" if integer else "a positive number"
        value = self.get(table, where, key, kind, default, expected=what)
        if not (value > 0 and math.isfinite(value)):
            raise self.fail(f"{where}.{key}", f"expected {what}, got {value!r}")
        return value

    def choice(self, table: Mapping[str, Any], where: str, key: str, choices: Sequence[str],
               default: str) -> str:
        value = self.get(table, where, key, str, default, expected=f"one of {list(choices)}")
        if value not in choices:
            raise self.fail(f"{where}.{key}", f"expected one of {list(choices)}, got {value!r}")
        return str(value)

    def strings(self, table: Mapping[str, Any], where: str, key: str, default: Sequence[str], *,
                allowed: Sequence[str] | None = None, nonempty: bool = False,
                check: Callable[[str], str | None] | None = None) -> tuple[str, ...]:
        value = self.get(table, where, key, list, list(default), expected="a list of strings")
        out: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise self.fail(f"{where}.{key}", f"expected a list of strings, got {item!r}")
            if allowed is not None and item not in allowed:
                raise self.fail(f"{where}.{key}", f"unknown value {item!r}; allowed: "
                                f"{', '.join(allowed)}")
            problem = check(item) if check else None
            if problem:
                raise self.fail(f"{where}.{key}", f"{item!r}: {problem}")
            if item in out:
                raise self.fail(f"{where}.{key}", f"{item!r} is listed twice")
            out.append(item)
        if nonempty and not out:
            raise self.fail(f"{where}.{key}", "must not be empty")
        return tuple(out)

    def flag(self, table: Mapping[str, Any], where: str, key: str, default: bool) -> bool:
        value = bool(self.get(table, where, key, bool, default, expected="true or false"))
        if key.startswith("unsafe_") and value:
            self.unsafe.append(f"{where}.{key}")
        return value

    def table(self, doc: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        value = doc.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(name, f"expected a table [{name}], got {value!r}")
        self.keys(value, _SECTIONS[name], name)
        return value

    def container(self, table: Mapping[str, Any], where: str, *,
                  defaults: Hardening) -> Hardening:
        runtime = self.choice(table, where, "runtime", RUNTIMES, defaults.runtime or "runc")
        minimal = set(MINIMAL_CAP_ADD)
        cap_add = self.strings(table, where, "cap_add", defaults.cap_add,
                               allowed=MINIMAL_CAP_ADD)
        extra = self.strings(table, where, "unsafe_cap_add", (),
                             allowed=sorted(_CAPABILITIES - {"ALL"}))
        if extra:
            self.unsafe.append(f"{where}.unsafe_cap_add")
        overlap = sorted(set(extra) & minimal)
        if overlap:
            raise self.fail(f"{where}.unsafe_cap_add", f"{overlap} are not unsafe; list them "
                            f"in {where}.cap_add")
        keep_defaults = self.flag(table, where, "unsafe_default_capabilities", False)
        if keep_defaults and ("cap_add" in table or extra):
            raise self.fail(f"{where}.unsafe_default_capabilities",
                            "contradicts cap_add/unsafe_cap_add: with Docker's default "
                            "capabilities nothing is dropped, so nothing needs adding")
        new_privileges = self.flag(table, where, "unsafe_allow_new_privileges", False)
        read_only = False
        if "read_only_rootfs" in _SECTIONS[where]:
            read_only = self.flag(table, where, "read_only_rootfs", defaults.read_only_rootfs)
        try:
            return Hardening(
                cap_drop=() if keep_defaults else ("ALL",),
                cap_add=() if keep_defaults else (*cap_add, *extra),
                no_new_privileges=not new_privileges,
                pids_limit=self.positive(table, where, "pids_limit", defaults.pids_limit),
                memory_mb=self.positive(table, where, "memory_mb", defaults.memory_mb),
                cpus=float(self.positive(table, where, "cpus", defaults.cpus, integer=False)),
                tmp_size_mb=self.positive(table, where, "tmp_size_mb", defaults.tmp_size_mb),
                runtime=None if runtime == "runc" else runtime,
                read_only_rootfs=read_only,
            )
        except ValueError as e:  # pragma: no cover - every field is checked above
            raise self.fail(where, str(e)) from None

    def policy(self, doc: Mapping[str, Any], *, digest: str) -> Policy:
        self.keys(doc, _TOP, "")
        schema = doc.get("schema")
        if schema != SCHEMA:
            raise self.fail("schema", f"expected {SCHEMA!r}, got {schema!r}")
        name = self.get(doc, "", "name", str, None, expected="a string")
        if not name:
            raise self.fail("name", "required: a non-empty string")
        description = self.get(doc, "", "description", str, "", expected="a string")

        agent = self.container(self.table(doc, "agent"), "agent", defaults=Hardening())
        verifier = self.container(self.table(doc, "verifier"), "verifier", defaults=Hardening())

        snap = self.table(doc, "snapshot")
        method = self.choice(snap, "snapshot", "method", SNAPSHOT_METHODS, "volume")
        max_bytes = self.positive(snap, "snapshot", "max_bytes", 10 * 1024**3)
        max_files = self.positive(snap, "snapshot", "max_files", 1_000_000)

        ws = self.table(doc, "workspace")
        mode = self.choice(ws, "workspace", "mode", WORKSPACE_MODES, "ro")
        carry = self.strings(ws, "workspace", "carry", (), check=_carriable)
        nested = [(a, b) for a in carry for b in carry if a != b and _inside(b, a)]
        if nested:
            raise self.fail("workspace.carry", f"{nested[0][1]!r} is inside {nested[0][0]!r}; "
                            "list each tree once")

        fnd = self.table(doc, "findings")
        protected = self.strings(fnd, "findings", "protected_paths", F.PRIVATE_PATHS,
                                 nonempty=True, check=_absolute)
        missing = [p for p in REQUIRED_PROTECTED if p not in protected]
        if missing:
            raise self.fail("findings.protected_paths", f"must include {missing}: they are "
                            "the verifier's own inputs and outputs")
        ignore = self.flag(fnd, "findings", "unsafe_ignore_findings", False)
        fail_on = self.strings(fnd, "findings", "fail_on",
                               () if ignore else sorted(F.Policy().fail_on),
                               allowed=sorted(F.CODES))
        if ignore and fail_on:
            raise self.fail("findings.unsafe_ignore_findings",
                            f"contradicts findings.fail_on = {list(fail_on)}")
        if not ignore and not fail_on:
            raise self.fail("findings.fail_on", "must not be empty; a policy that fails on no "
                            "finding says so with findings.unsafe_ignore_findings = true")

        env = self.table(doc, "environment")
        no_defaults = self.flag(env, "environment", "unsafe_no_safe_defaults", False)
        if "safe_defaults" in env:
            safe = self.flag(env, "environment", "safe_defaults", True)
            if not safe:
                raise self.fail("environment.safe_defaults", "turning the safe defaults off "
                                "weakens isolation; write unsafe_no_safe_defaults = true")
        mitigations = self.strings(env, "environment", "mitigations", (),
                                   allowed=sorted(environment.OPT_IN))

        verdict = self.table(doc, "verdict")
        threshold = float(self.positive(verdict, "verdict", "threshold", 1.0, integer=False))

        return Policy(name=name, description=description, source=self.source, digest=digest,
                      agent=agent, verifier=verifier, snapshot_method=method,
                      max_bytes=max_bytes, max_files=max_files, workspace_mode=mode,
                      carry=carry,
                      protected_paths=protected,
                      findings=F.Policy(fail_on=fail_on),
                      safe_defaults=not no_defaults, mitigations=mitigations,
                      threshold=threshold, unsafe=tuple(self.unsafe))


#: What a carried path may not be or overlap: the verifier's own inputs and outputs, the
#: kernel's views, and the system trees a verifier runs its tools from.
_NOT_CARRIABLE = ("/tests", "/logs", "/solution", "/proc", "/sys", "/dev", "/tmp", "/etc",
                  "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/run",
                  "/var/run", "/.fcv-tools", "/fcv-agent")


def _inside(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


def _carriable(path: str) -> str | None:
    problem = _absolute(path)
    if problem:
        return problem
    for private in _NOT_CARRIABLE:
        if _inside(path, private) or _inside(private, path):
            return (f"overlaps {private}: only data trees may be carried (the verifier's "
                    "inputs, outputs and tools come from the pristine image)")
    return None


def _absolute(path: str) -> str | None:
    if path == "/" or path != "/" + posixpath.normpath(path).lstrip("/"):
        return "expected an absolute, normalised path below /"
    return None
