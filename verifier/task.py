"""Loading a Harbor task directory: ``task.toml``, ``instruction.md``, the image, the tests.

:meth:`Task.from_dir` reads and checks everything before anything else happens, and raises
:class:`~isolation.errors.TaskError` naming the file and, where there is one, the field
(``/t/task.toml: [verifier].timeout_sec: expected a positive number, got 'abc'``).

Every key Harbor 0.26 knows is accepted; any other key (outside ``[metadata]``) is an error,
so a typo never silently changes what is verified. Harbor features fcv cannot honour
(multi-step tasks, a dedicated verifier environment, GPUs, TPUs, Windows, MCP servers,
collect hooks, docker-compose-only environments) are errors saying "not supported by fcv".
Nothing from the task is executed or imported here.
"""

from __future__ import annotations

import math
import os
import re
import stat
import tomllib
import types
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from isolation.errors import TaskError

__all__ = ["AgentConfig", "EnvironmentConfig", "Task", "VerifierConfig", "resolve_env"]

DEFAULT_SCHEMA_VERSION = "1.0"
NETWORK_MODES = ("no-network", "public", "allowlist")
ENVIRONMENT_MODES = ("shared", "separate")

_TOP_KEYS = frozenset({
    "schema_version", "version", "task", "metadata", "verifier", "agent", "environment",
    "solution", "source", "multi_step_reward_strategy", "steps", "artifacts",
})
_PACKAGE_KEYS = frozenset({"name", "version", "description", "authors", "keywords"})
_AUTHOR_KEYS = frozenset({"name", "email"})
_SOLUTION_KEYS = frozenset({"env"})
_ARTIFACT_KEYS = frozenset({"source", "destination", "exclude", "service"})
_AGENT_KEYS = frozenset({"timeout_sec", "user", "network_mode", "allowed_hosts"})
_VERIFIER_KEYS = frozenset({
    "timeout_sec", "env", "user", "environment_mode", "environment", "collect",
    "network_mode", "allowed_hosts",
})
_ENVIRONMENT_KEYS = frozenset({
    "build_timeout_sec", "docker_image", "os", "cpus", "memory_mb", "storage_mb", "gpus",
    "gpu_types", "tpu", "mcp_servers", "env", "skills_dir", "healthcheck", "workdir",
    "network_mode", "allowed_hosts", "allow_internet",
    # Legacy spellings Harbor migrates: memory -> memory_mb, storage -> storage_mb.
    "memory", "storage",
})
_HEALTHCHECK_KEYS = frozenset({
    "command", "interval_sec", "timeout_sec", "start_period_sec", "start_interval_sec",
    "retries",
})

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
# Harbor's own rule: only a value that is one whole template is resolved; anything else,
# including "prefix-${VAR}", is a literal.
_TEMPLATE = re.compile(r"\$\{([^}:]+)(?::-(.*))?\}")


def _render_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else f'"{key}"'


def _show(value: object) -> str:
    """A value as the person wrote it in TOML, for error messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return repr(value)


def _error(source: str, loc: str, message: str) -> TaskError:
    """A TaskError for ``loc`` (``[verifier].timeout_sec`` or a top-level ``schema_version``).

    TaskError writes ``field`` as ``[field]`` unless it already starts with ``[``, which would
    make a top-level key look like a table; those go into the message instead.
    """
    if loc.startswith("["):
        return TaskError(source, message, field=loc)
    error = TaskError(source, f"{loc}: {message}")
    error.field = loc
    return error


def _freeze_env(env: Mapping[str, str]) -> Mapping[str, str]:
    return types.MappingProxyType(dict(env))


def _freeze_any(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return types.MappingProxyType(dict(data))


@attrs.frozen
class _Table:
    """One TOML table being read, with what is needed to name its keys in errors."""

    source: str
    prefix: str  # rendered before a key: "" (top level), "[verifier].", "artifacts[0]."
    title: str  # the table in messages: "the top level", "[verifier]"
    data: Mapping[str, object]

    def loc(self, key: str) -> str:
        return self.prefix + _render_key(key)

    def fail(self, key: str, message: str) -> TaskError:
        return _error(self.source, self.loc(key), message)

    def unsupported(self, key: str, what: str) -> TaskError:
        return self.fail(key, f"{what} not supported by fcv")

    def check_keys(self, allowed: Iterable[str]) -> None:
        allowed = sorted(allowed)
        for key in self.data:
            if key not in allowed:
                raise self.fail(
                    key, f"unknown key {key!r} in {self.title}; allowed keys: "
                    + ", ".join(allowed))

    def has(self, key: str) -> bool:
        return key in self.data

    def string(self, key: str, *, nonempty: bool = False) -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or (nonempty and not value):
            kind = "a non-empty string" if nonempty else "a string"
            raise self.fail(key, f"expected {kind}, got {_show(value)}")
        return value

    def boolean(self, key: str) -> bool | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {_show(value)}")
        return value

    def positive_number(self, key: str) -> float | None:
        value = self.data.get(key)
        if value is None:
            return None
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value <= 0):
            raise self.fail(key, f"expected a positive number, got {_show(value)}")
        return float(value)

    def nonnegative_int(self, key: str, *, positive: bool = False) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if (isinstance(value, bool) or not isinstance(value, int)
                or value < (1 if positive else 0)):
            kind = "a positive integer" if positive else "a non-negative integer"
            raise self.fail(key, f"expected {kind}, got {_show(value)}")
        return value

    def choice(self, key: str, choices: tuple[str, ...]) -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if value not in choices:
            raise self.fail(
                key, f"expected one of {', '.join(map(repr, choices))}, got {_show(value)}")
        assert isinstance(value, str)
        return value

    def user(self, key: str) -> str | None:
        """A user name or UID; Harbor accepts both, and a UID is kept as its text."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
            raise self.fail(key, f"expected a user name or a UID, got {_show(value)}")
        return str(value)

    def strings(self, key: str) -> list[str] | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise self.fail(key, f"expected an array of strings, got {_show(value)}")
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item:
                raise _error(self.source, f"{self.loc(key)}[{index}]",
                             f"expected a non-empty string, got {_show(item)}")
        return list(value)

    def array(self, key: str) -> list[object]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(key, f"expected an array, got {_show(value)}")
        return list(value)

    def table(self, key: str) -> _Table | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected a table, got {_show(value)}")
        loc = self.loc(key)
        if not self.prefix:
            prefix, title = f"[{key}].", f"[{key}]"
        elif self.prefix.startswith("[") and self.prefix.endswith("]."):
            inner = f"{self.prefix[1:-2]}.{_render_key(key)}"
            prefix, title = f"[{inner}].", f"[{inner}]"
        else:
            prefix, title = f"{loc}.", loc
        return _Table(self.source, prefix, title, value)

    def item(self, key: str, index: int, value: object) -> _Table:
        """Entry ``index`` of the array of tables ``key``."""
        loc = f"{self.loc(key)}[{index}]"
        if not isinstance(value, Mapping):
            raise _error(self.source, loc, f"expected a table, got {_show(value)}")
        return _Table(self.source, f"{loc}.", loc, value)

    def env(self, key: str) -> Mapping[str, str]:
        """A table of environment variables, string to string; templates are kept raw."""
        value = self.data.get(key)
        if value is None:
            return _freeze_env({})
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected a table of strings, got {_show(value)}")
        for name, item in value.items():
            if not isinstance(item, str):
                raise _error(self.source, f"{self.loc(key)}.{_render_key(name)}",
                             f"expected a string, got {_show(item)}")
        return _freeze_env(value)

    def network(self, *, default_mode: str | None = None) -> tuple[str | None, tuple[str, ...]]:
        """``network_mode`` and ``allowed_hosts``, with Harbor's rule tying them together."""
        mode = self.choice("network_mode", NETWORK_MODES)
        hosts = tuple(self.strings("allowed_hosts") or ())
        if hosts and (mode or default_mode) != "allowlist":
            raise self.fail("allowed_hosts", "is only valid with network_mode = 'allowlist'")
        return mode, hosts


def _size_to_mb(table: _Table, key: str) -> int | None:
    """Harbor's legacy ``memory = "2G"`` / ``storage = "512M"``, in MiB (G=1024, K=1/1024)."""
    value = table.data.get(key)
    if value is None:
        return None
    problem = f"expected a size like '2G', '512M' or '1024K', got {_show(value)}"
    if not isinstance(value, str):
        raise table.fail(key, problem)
    text = value.strip().upper()
    factor = {"G": 1024.0, "M": 1.0, "K": 1 / 1024}.get(text[-1:])
    try:
        number = float(text[:-1])
    except ValueError:
        number = math.nan
    if factor is None or not math.isfinite(number) or int(number * factor) <= 0:
        raise table.fail(key, problem)
    return int(number * factor)


def _legacy_size(table: _Table, legacy: str, current: str) -> int | None:
    converted = _size_to_mb(table, legacy)
    value = table.nonnegative_int(current, positive=True)
    if converted is not None and value is not None and converted != value:
        raise table.fail(
            legacy, f"conflicts with {current}: {legacy} = {table.data[legacy]!r} is "
            f"{converted} MB but {current} = {value}; remove the legacy {legacy}")
    return value if value is not None else converted


@attrs.frozen(kw_only=True)
class AgentConfig:
    """``[agent]``: how the agent phase runs."""

    timeout_sec: float | None = None
    user: str | None = None
    network_mode: str | None = None
    allowed_hosts: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str) -> AgentConfig:
        """Parse an ``[agent]`` table; raises TaskError naming ``source`` and the field."""
        return cls._from_table(_Table(source, "[agent].", "[agent]", data))

    @classmethod
    def _from_table(cls, table: _Table) -> AgentConfig:
        table.check_keys(_AGENT_KEYS)
        mode, hosts = table.network()
        return cls(timeout_sec=table.positive_number("timeout_sec"), user=table.user("user"),
                   network_mode=mode, allowed_hosts=hosts)


@attrs.frozen(kw_only=True)
class VerifierConfig:
    """``[verifier]``: how tests/test.sh runs."""

    timeout_sec: float = 600.0
    env: Mapping[str, str] = attrs.field(factory=dict, converter=_freeze_env)
    user: str | None = None
    environment_mode: str | None = None
    network_mode: str | None = None
    allowed_hosts: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str) -> VerifierConfig:
        """Parse a ``[verifier]`` table; raises TaskError naming ``source`` and the field."""
        return cls._from_table(_Table(source, "[verifier].", "[verifier]", data))

    @classmethod
    def _from_table(cls, table: _Table) -> VerifierConfig:
        table.check_keys(_VERIFIER_KEYS)
        if table.table("environment") is not None:
            raise table.unsupported(
                "environment", "a dedicated verifier environment ([verifier.environment]) is")
        if table.array("collect"):
            raise table.unsupported("collect", "verifier collect hooks ([[verifier.collect]]) are")
        mode, hosts = table.network()
        timeout = table.positive_number("timeout_sec")
        return cls(
            timeout_sec=600.0 if timeout is None else timeout,
            env=table.env("env"),
            user=table.user("user"),
            environment_mode=table.choice("environment_mode", ENVIRONMENT_MODES),
            network_mode=mode,
            allowed_hosts=hosts,
        )


@attrs.frozen(kw_only=True)
class EnvironmentConfig:
    """``[environment]``: the task image and the resources of its containers.

    ``network_mode`` is what the task wrote or, when only the legacy ``allow_internet`` is
    set, what Harbor derives from it (``public`` / ``no-network``); ``None`` means unset,
    which Harbor treats as ``public``.
    """

    build_timeout_sec: float = 600.0
    docker_image: str | None = None
    cpus: float | None = None
    memory_mb: int | None = None
    storage_mb: int | None = None
    network_mode: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    allow_internet: bool | None = None
    env: Mapping[str, str] = attrs.field(factory=dict, converter=_freeze_env)
    workdir: str | None = None

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str) -> EnvironmentConfig:
        """Parse an ``[environment]`` table; raises TaskError naming ``source`` and the field."""
        return cls._from_table(_Table(source, "[environment].", "[environment]", data))

    @classmethod
    def _from_table(cls, table: _Table) -> EnvironmentConfig:
        table.check_keys(_ENVIRONMENT_KEYS)
        os_name = table.string("os")
        if os_name is not None and os_name.lower() != "linux":
            if os_name.lower() == "windows":
                raise table.unsupported("os", "Windows containers (os = 'windows') are")
            raise table.fail("os", f"expected 'linux' or 'windows', got {os_name!r}")
        gpus = table.nonnegative_int("gpus")
        if gpus:
            raise table.unsupported("gpus", f"GPUs (gpus = {gpus}) are")
        table.strings("gpu_types")
        if table.has("tpu"):
            raise table.unsupported("tpu", "TPUs are")
        if table.array("mcp_servers"):
            raise table.unsupported("mcp_servers", "MCP servers are")
        table.string("skills_dir")
        healthcheck = table.table("healthcheck")
        if healthcheck is not None:
            _check_healthcheck(healthcheck)

        workdir = table.string("workdir")
        if workdir is not None and not workdir.startswith("/"):
            raise table.fail("workdir", f"expected an absolute path, got {workdir!r}")
        allow_internet = table.boolean("allow_internet")
        mode, hosts = table.network(default_mode="public")
        if mode is None and allow_internet is not None:
            # Harbor's migration: the legacy flag decides only when network_mode is unset.
            mode = "public" if allow_internet else "no-network"
        build_timeout = table.positive_number("build_timeout_sec")
        return cls(
            build_timeout_sec=600.0 if build_timeout is None else build_timeout,
            docker_image=table.string("docker_image", nonempty=True),
            cpus=table.positive_number("cpus"),
            memory_mb=_legacy_size(table, "memory", "memory_mb"),
            storage_mb=_legacy_size(table, "storage", "storage_mb"),
            network_mode=mode,
            allowed_hosts=hosts,
            allow_internet=allow_internet,
            env=table.env("env"),
            workdir=workdir,
        )


def _check_healthcheck(table: _Table) -> None:
    table.check_keys(_HEALTHCHECK_KEYS)
    if table.string("command", nonempty=True) is None:
        raise table.fail("command", "is required")
    for key in ("interval_sec", "timeout_sec", "start_interval_sec"):
        table.positive_number(key)
    value = table.data.get("start_period_sec")
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or not math.isfinite(value) or value < 0):
        raise table.fail("start_period_sec", f"expected a number >= 0, got {_show(value)}")
    table.nonnegative_int("retries")


def _check_package(table: _Table) -> str:
    """``[task]`` (Harbor's PackageInfo); returns the task name."""
    table.check_keys(_PACKAGE_KEYS)
    name = table.string("name", nonempty=True)
    if name is None:
        raise table.fail("name", "is required when [task] is present")
    table.string("version", nonempty=True)
    table.string("description")
    table.strings("keywords")
    for index, entry in enumerate(table.array("authors")):
        author = table.item("authors", index, entry)
        author.check_keys(_AUTHOR_KEYS)
        if author.string("name") is None:
            raise author.fail("name", "is required")
        author.string("email")
    return name


def _check_artifacts(top: _Table) -> None:
    for index, entry in enumerate(top.array("artifacts")):
        if isinstance(entry, str):
            continue
        artifact = top.item("artifacts", index, entry)
        artifact.check_keys(_ARTIFACT_KEYS)
        if artifact.string("source", nonempty=True) is None:
            raise artifact.fail("source", "is required")
        artifact.string("destination")
        artifact.string("service")
        artifact.strings("exclude")


@attrs.frozen(kw_only=True)
class _Config:
    """What task.toml says, before the directory around it is looked at."""

    name: str | None
    schema_version: str
    metadata: Mapping[str, Any]
    agent: AgentConfig
    verifier: VerifierConfig
    environment: EnvironmentConfig

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str) -> _Config:
        top = _Table(source, "", "the top level", data)
        for key in data:
            if key not in _TOP_KEYS:
                raise _error(source, key, f"unknown top-level key {key!r}; allowed top-level "
                             f"keys: {', '.join(sorted(_TOP_KEYS))}")
        # Harbor renames the legacy `version` only when `schema_version` is absent.
        version = top.string("schema_version", nonempty=True)
        legacy = top.string("version", nonempty=True)
        package = top.table("task")
        metadata = top.table("metadata")
        steps = top.array("steps")
        if steps:
            raise top.unsupported("steps", "multi-step tasks ([[steps]]) are")
        top.choice("multi_step_reward_strategy", ("mean", "final"))
        top.string("source")
        _check_artifacts(top)
        solution = top.table("solution")
        if solution is not None:
            solution.check_keys(_SOLUTION_KEYS)
            solution.env("env")

        def section(key: str) -> _Table:
            return top.table(key) or _Table(source, f"[{key}].", f"[{key}]", {})

        return cls(
            name=_check_package(package) if package is not None else None,
            schema_version=version or legacy or DEFAULT_SCHEMA_VERSION,
            metadata=_freeze_any(metadata.data if metadata is not None else {}),
            agent=AgentConfig._from_table(section("agent")),
            verifier=VerifierConfig._from_table(section("verifier")),
            environment=EnvironmentConfig._from_table(section("environment")),
        )


def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([path, root]) == root


def _regular_file(path: str, root: str, *, what: str) -> str | None:
    """``path`` if it is a regular file whose real location is inside ``root``; None if absent.

    Anything else at ``path`` (a directory, a device, a dangling symlink or one leading
    out of ``root``) is a TaskError: it would not reach the container as a file.
    """
    if not os.path.lexists(path):
        return None
    real = os.path.realpath(path)
    if not _inside(real, root):
        raise TaskError(path, f"{what} is a symlink leading outside {root} (to {real})")
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        raise TaskError(path, f"{what} cannot be read: {exc.strerror}") from exc
    if not stat.S_ISREG(mode):
        raise TaskError(path, f"{what} must be a regular file")
    return path


def _directory(path: str, root: str, *, what: str) -> str | None:
    """The real path of directory ``path`` if it exists and stays inside ``root``."""
    if not os.path.lexists(path):
        return None
    real = os.path.realpath(path)
    if not _inside(real, root):
        raise TaskError(path, f"{what} is a symlink leading outside {root} (to {real})")
    if not os.path.isdir(real):
        raise TaskError(path, f"{what} must be a directory")
    return real


def _read_toml(path: str) -> Mapping[str, object]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(path, f"invalid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise TaskError(path, f"invalid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") \
            from exc
    except OSError as exc:
        raise TaskError(path, f"cannot read task.toml: {exc.strerror}") from exc


def _read_text(path: str, *, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        raise TaskError(path, f"{what} is not UTF-8 text") from exc
    except OSError as exc:
        raise TaskError(path, f"cannot read {what}: {exc.strerror}") from exc


@attrs.frozen(kw_only=True)
class Task:
    """A Harbor task directory, read and checked. All paths are absolute.

    ``path`` is the task directory with symlinks resolved; ``tests_dir`` and
    ``solution_dir`` are real directories inside it. When both ``environment/Dockerfile``
    and ``[environment].docker_image`` exist, Harbor uses the prebuilt image; both are kept
    here and :attr:`environment` ``.docker_image`` takes precedence.
    """

    path: str
    name: str
    schema_version: str
    instruction: str
    metadata: Mapping[str, Any] = attrs.field(converter=_freeze_any)
    agent: AgentConfig
    verifier: VerifierConfig
    environment: EnvironmentConfig
    dockerfile: str | None
    tests_dir: str
    test_sh: str
    solution_dir: str | None
    solve_sh: str | None

    @property
    def toml_path(self) -> str:
        return os.path.join(self.path, "task.toml")

    @classmethod
    def from_dir(cls, path: str | os.PathLike[str]) -> Task:
        """Read the task directory at ``path``.

        Raises TaskError (naming the file and field) when the directory, task.toml,
        instruction.md, tests/test.sh or the image definition is missing or malformed, or
        when the task needs a Harbor feature fcv does not support.
        """
        given = os.path.abspath(os.fspath(path))
        if not os.path.exists(given):
            raise TaskError(given, "task directory does not exist")
        if not os.path.isdir(given):
            raise TaskError(given, "is not a directory (expected a Harbor task directory)")
        root = os.path.realpath(given)

        toml_path = os.path.join(root, "task.toml")
        if _regular_file(toml_path, root, what="task.toml") is None:
            raise TaskError(toml_path, "task.toml is missing; this is not a Harbor task")
        config = _Config.from_mapping(_read_toml(toml_path), source=toml_path)

        instruction_path = os.path.join(root, "instruction.md")
        if _regular_file(instruction_path, root, what="instruction.md") is None:
            raise TaskError(instruction_path, "instruction.md is missing")
        instruction = _read_text(instruction_path, what="instruction.md")

        env_dir = os.path.join(root, "environment")
        real_env_dir = _directory(env_dir, root, what="environment/") or env_dir
        dockerfile = _regular_file(os.path.join(real_env_dir, "Dockerfile"), root,
                                   what="environment/Dockerfile")
        if dockerfile is None and config.environment.docker_image is None:
            for compose_name in ("docker-compose.yaml", "docker-compose.yml"):
                compose = os.path.join(real_env_dir, compose_name)
                if os.path.lexists(compose):
                    raise TaskError(
                        compose, "docker-compose environments are not supported by fcv; "
                        "add environment/Dockerfile or set [environment].docker_image")
            raise TaskError(
                os.path.join(env_dir, "Dockerfile"),
                "missing: add environment/Dockerfile or set [environment].docker_image "
                f"in {toml_path}")

        tests_dir = _directory(os.path.join(root, "tests"), root, what="tests/")
        if tests_dir is None:
            raise TaskError(os.path.join(root, "tests", "test.sh"),
                            "missing: the tests/ directory does not exist")
        test_sh = os.path.join(tests_dir, "test.sh")
        # The tests are copied into the container as they are; test.sh must be a file
        # there, so a symlink must stay inside tests/ itself.
        if _regular_file(test_sh, tests_dir, what="tests/test.sh") is None:
            raise TaskError(test_sh, "missing: tests/test.sh is the verifier's entry point")

        solution_dir = _directory(os.path.join(root, "solution"), root, what="solution/")
        solve_sh = None
        if solution_dir is not None:
            solve_sh = _regular_file(os.path.join(solution_dir, "solve.sh"), solution_dir,
                                     what="solution/solve.sh")

        return cls(
            path=root,
            name=config.name or os.path.basename(root),
            schema_version=config.schema_version,
            instruction=instruction,
            metadata=config.metadata,
            agent=config.agent,
            verifier=config.verifier,
            environment=config.environment,
            dockerfile=dockerfile,
            tests_dir=tests_dir,
            test_sh=test_sh,
            solution_dir=solution_dir,
            solve_sh=solve_sh,
        )


def resolve_env(env: Mapping[str, str], *, source: str, field: str,
                environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Resolve Harbor's ``${VAR}`` and ``${VAR:-default}`` from ``environ`` (``os.environ``).

    As in Harbor, only a value that is one whole template is resolved, a variable that is
    set (even to "") wins over the default, and every other value is a literal. ``field``
    names the table in errors, e.g. ``[verifier].env``.

    Raises TaskError naming ``source``, ``field``'s key and the variable when a referenced
    variable is unset and has no default.
    """
    lookup: Mapping[str, str] = os.environ if environ is None else environ
    resolved: dict[str, str] = {}
    for key, value in env.items():
        match = _TEMPLATE.fullmatch(value)
        if match is None:
            resolved[key] = value
            continue
        name, default = match.group(1), match.group(2)
        if name in lookup:
            resolved[key] = lookup[name]
        elif default is not None:
            resolved[key] = default
        else:
            raise _error(source, f"{field}.{_render_key(key)}",
                         f"host environment variable {name!r} is not set (write "
                         f"${{{name}:-default}} to give a default)")
    return resolved
