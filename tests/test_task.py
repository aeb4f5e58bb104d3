"""Tests for verifier.task: reading and checking Harbor task directories."""

from __future__ import annotations

import math
import os
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isolation.errors import EXIT_USAGE, TaskError
from verifier.task import (
    AgentConfig,
    EnvironmentConfig,
    Task,
    VerifierConfig,
    resolve_env,
)

FULL_TOML = """
schema_version = "1.1"
source = "terminal-bench"
multi_step_reward_strategy = "mean"
artifacts = ["/app/out.txt", { source = "/app/logs", destination = "logs", exclude = ["*.tmp"] }]

[task]
name = "acme/full-task"
version = "2.0"
description = "every section"
keywords = ["demo"]
authors = [{ name = "Ada", email = "ada@example.com" }]

[metadata]
difficulty = "hard"
tags = ["x", "y"]
anything = { nested = 1 }

[agent]
timeout_sec = 900
user = 1000
network_mode = "public"

[verifier]
timeout_sec = 120.5
user = "tester"
environment_mode = "shared"
network_mode = "allowlist"
allowed_hosts = ["pypi.org"]
collect = []

[verifier.env]
API = "${HOST_API}"
MODE = "strict"

[solution.env]
HINT = "none"

[environment]
build_timeout_sec = 300
cpus = 2
memory_mb = 4096
storage_mb = 10240
network_mode = "no-network"
os = "Linux"
gpus = 0
gpu_types = ["H100"]
mcp_servers = []
skills_dir = "/skills"
workdir = "/app"

[environment.env]
LANG = "C.UTF-8"

[environment.healthcheck]
command = "true"
interval_sec = 1
retries = 2
"""


def make_task(
    root: Path,
    toml: str = "",
    *,
    name: str = "my-task",
    dockerfile: bool = True,
    instruction: str | None = "Do the thing.\n",
    test_sh: bool = True,
    solution: bool = False,
) -> Path:
    """Write a small Harbor task directory under ``root`` and return it."""
    task = root / name
    task.mkdir()
    (task / "task.toml").write_text(textwrap.dedent(toml))
    if instruction is not None:
        (task / "instruction.md").write_text(instruction)
    (task / "environment").mkdir()
    if dockerfile:
        (task / "environment" / "Dockerfile").write_text("FROM fcv/busybox:latest\n")
    (task / "tests").mkdir()
    if test_sh:
        (task / "tests" / "test.sh").write_text("#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n")
    if solution:
        (task / "solution").mkdir()
        (task / "solution" / "solve.sh").write_text("#!/bin/sh\n")
    return task


def load_error(task: Path | str) -> TaskError:
    """The TaskError Task.from_dir raises for ``task``."""
    with pytest.raises(TaskError) as info:
        Task.from_dir(task)
    return info.value


class TestTaskFromDir:
    def test_full_task(self, tmp_path: Path) -> None:
        """A task using every section loads with every field converted."""
        path = make_task(tmp_path, FULL_TOML, solution=True)
        task = Task.from_dir(path)

        assert task.path == str(path)
        assert task.name == "acme/full-task"
        assert task.schema_version == "1.1"
        assert task.instruction == "Do the thing.\n"
        assert task.metadata == {"difficulty": "hard", "tags": ["x", "y"],
                                 "anything": {"nested": 1}}
        assert task.agent == AgentConfig(timeout_sec=900.0, user="1000", network_mode="public")
        assert task.verifier == VerifierConfig(
            timeout_sec=120.5, user="tester", environment_mode="shared",
            env={"API": "${HOST_API}", "MODE": "strict"}, network_mode="allowlist",
            allowed_hosts=("pypi.org",))
        assert task.environment == EnvironmentConfig(
            build_timeout_sec=300.0, cpus=2.0, memory_mb=4096, storage_mb=10240,
            network_mode="no-network", env={"LANG": "C.UTF-8"}, workdir="/app")
        assert task.dockerfile == str(path / "environment" / "Dockerfile")
        assert task.tests_dir == str(path / "tests")
        assert task.test_sh == str(path / "tests" / "test.sh")
        assert task.solution_dir == str(path / "solution")
        assert task.solve_sh == str(path / "solution" / "solve.sh")
        assert task.toml_path == str(path / "task.toml")

    def test_minimal_task_defaults(self, tmp_path: Path) -> None:
        """An empty task.toml gives Harbor's defaults and no solution."""
        task = Task.from_dir(make_task(tmp_path))

        assert task.schema_version == "1.0"
        assert task.metadata == {}
        assert task.agent == AgentConfig()
        assert task.verifier.timeout_sec == 600.0
        assert task.verifier.env == {}
        assert task.environment.build_timeout_sec == 600.0
        assert task.environment.docker_image is None
        assert task.solution_dir is None
        assert task.solve_sh is None

    def test_name_defaults_to_basename(self, tmp_path: Path) -> None:
        """Without [task].name the task is named after its directory."""
        task = Task.from_dir(make_task(tmp_path, "[metadata]\nx = 1\n", name="hello-world"))

        assert task.name == "hello-world"

    def test_relative_path_made_absolute(self, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
        """A relative task path is resolved against the working directory."""
        make_task(tmp_path, name="rel")
        monkeypatch.chdir(tmp_path)

        task = Task.from_dir("rel")

        assert os.path.isabs(task.path)
        assert task.path == str(tmp_path / "rel")
        assert task.test_sh == str(tmp_path / "rel" / "tests" / "test.sh")

    def test_legacy_version(self, tmp_path: Path) -> None:
        """The legacy top-level `version` becomes schema_version."""
        task = Task.from_dir(make_task(tmp_path, 'version = "1.0"\n'))

        assert task.schema_version == "1.0"

    def test_schema_version_wins_over_version(self, tmp_path: Path) -> None:
        """When both are present, schema_version is used, as in Harbor."""
        task = Task.from_dir(make_task(tmp_path, 'version = "0.9"\nschema_version = "1.2"\n'))

        assert task.schema_version == "1.2"

    def test_docker_image_without_dockerfile(self, tmp_path: Path) -> None:
        """A prebuilt [environment].docker_image replaces environment/Dockerfile."""
        path = make_task(tmp_path, '[environment]\ndocker_image = "alpine:3"\n',
                         dockerfile=False)
        task = Task.from_dir(path)

        assert task.environment.docker_image == "alpine:3"
        assert task.dockerfile is None

    def test_docker_image_and_dockerfile_both_kept(self, tmp_path: Path) -> None:
        """With both, the image and the Dockerfile path are both recorded."""
        task = Task.from_dir(make_task(tmp_path, '[environment]\ndocker_image = "alpine:3"\n'))

        assert task.environment.docker_image == "alpine:3"
        assert task.dockerfile is not None and task.dockerfile.endswith("Dockerfile")

    def test_compose_with_dockerfile_accepted(self, tmp_path: Path) -> None:
        """A docker-compose.yaml next to a Dockerfile does not stop the task loading."""
        path = make_task(tmp_path)
        (path / "environment" / "docker-compose.yaml").write_text("services: {}\n")

        assert Task.from_dir(path).dockerfile == str(path / "environment" / "Dockerfile")

    def test_metadata_free_form(self, tmp_path: Path) -> None:
        """Any key and value is allowed inside [metadata]."""
        task = Task.from_dir(make_task(tmp_path, "[metadata]\nunheard_of = [1, 2]\n"))

        assert task.metadata["unheard_of"] == [1, 2]

    def test_solution_without_solve_sh(self, tmp_path: Path) -> None:
        """A solution/ directory without solve.sh is recorded, solve_sh is None."""
        path = make_task(tmp_path)
        (path / "solution").mkdir()

        task = Task.from_dir(path)

        assert task.solution_dir == str(path / "solution")
        assert task.solve_sh is None

    def test_test_sh_symlink_inside_tests(self, tmp_path: Path) -> None:
        """A test.sh symlink to a file inside tests/ is accepted."""
        path = make_task(tmp_path, test_sh=False)
        (path / "tests" / "run.sh").write_text("#!/bin/sh\n")
        (path / "tests" / "test.sh").symlink_to("run.sh")

        assert Task.from_dir(path).test_sh == str(path / "tests" / "test.sh")

    def test_env_templates_kept_raw(self, tmp_path: Path) -> None:
        """`${VAR}` templates in env tables are kept, not resolved at load time."""
        path = make_task(tmp_path, '[environment.env]\nTOKEN = "${NOT_SET_ANYWHERE_XYZ}"\n')

        assert Task.from_dir(path).environment.env == {"TOKEN": "${NOT_SET_ANYWHERE_XYZ}"}

    def test_task_is_immutable(self, tmp_path: Path) -> None:
        """Task and its env tables cannot be changed after loading."""
        task = Task.from_dir(make_task(tmp_path, '[verifier.env]\nA = "1"\n'))

        with pytest.raises(AttributeError):
            task.name = "other"  # type: ignore[misc]
        with pytest.raises(TypeError):
            task.verifier.env["A"] = "2"  # type: ignore[index]


class TestTaskFromDirFiles:
    def test_missing_directory(self, tmp_path: Path) -> None:
        """A path that does not exist is a TaskError naming it."""
        error = load_error(tmp_path / "nope")

        assert str(tmp_path / "nope") in str(error)
        assert "does not exist" in str(error)
        assert error.exit_code == EXIT_USAGE

    def test_not_a_directory(self, tmp_path: Path) -> None:
        """A file instead of a directory is a TaskError naming it."""
        (tmp_path / "file").write_text("x")

        error = load_error(tmp_path / "file")

        assert str(tmp_path / "file") in str(error)
        assert "not a directory" in str(error)

    def test_missing_task_toml(self, tmp_path: Path) -> None:
        """A directory without task.toml is a TaskError naming task.toml."""
        path = make_task(tmp_path)
        (path / "task.toml").unlink()

        error = load_error(path)

        assert error.path == str(path / "task.toml")
        assert str(path / "task.toml") in str(error)

    def test_toml_syntax_error(self, tmp_path: Path) -> None:
        """A TOML syntax error names task.toml and the line."""
        path = make_task(tmp_path, '[verifier]\ntimeout_sec = = 3\n')

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert "invalid TOML" in str(error)
        assert "line 2" in str(error)

    def test_missing_instruction(self, tmp_path: Path) -> None:
        """A task without instruction.md is a TaskError naming it."""
        path = make_task(tmp_path, instruction=None)

        error = load_error(path)

        assert str(path / "instruction.md") in str(error)

    def test_missing_test_sh(self, tmp_path: Path) -> None:
        """A task without tests/test.sh is a TaskError naming that path."""
        path = make_task(tmp_path, test_sh=False)

        error = load_error(path)

        assert str(path / "tests" / "test.sh") in str(error)
        assert "missing" in str(error)

    def test_missing_tests_dir(self, tmp_path: Path) -> None:
        """A task without tests/ is a TaskError naming tests/test.sh."""
        path = make_task(tmp_path, test_sh=False)
        (path / "tests").rmdir()

        error = load_error(path)

        assert str(path / "tests" / "test.sh") in str(error)

    def test_test_sh_is_directory(self, tmp_path: Path) -> None:
        """tests/test.sh being a directory is a TaskError naming it."""
        path = make_task(tmp_path, test_sh=False)
        (path / "tests" / "test.sh").mkdir()

        error = load_error(path)

        assert str(path / "tests" / "test.sh") in str(error)
        assert "regular file" in str(error)

    def test_test_sh_symlink_outside(self, tmp_path: Path) -> None:
        """A tests/test.sh symlink leading out of the task is a TaskError naming it."""
        outside = tmp_path / "elsewhere.sh"
        outside.write_text("#!/bin/sh\n")
        path = make_task(tmp_path, test_sh=False)
        (path / "tests" / "test.sh").symlink_to(outside)

        error = load_error(path)

        assert str(path / "tests" / "test.sh") in str(error)
        assert "outside" in str(error)

    def test_test_sh_dangling_symlink(self, tmp_path: Path) -> None:
        """A dangling tests/test.sh symlink is a TaskError naming it."""
        path = make_task(tmp_path, test_sh=False)
        (path / "tests" / "test.sh").symlink_to("gone.sh")

        error = load_error(path)

        assert str(path / "tests" / "test.sh") in str(error)

    def test_no_dockerfile_no_image(self, tmp_path: Path) -> None:
        """Neither environment/Dockerfile nor docker_image is a TaskError naming both."""
        path = make_task(tmp_path, dockerfile=False)

        error = load_error(path)

        assert str(path / "environment" / "Dockerfile") in str(error)
        assert "docker_image" in str(error)

    def test_dockerfile_is_directory(self, tmp_path: Path) -> None:
        """environment/Dockerfile that is a directory is a TaskError naming it."""
        path = make_task(tmp_path, dockerfile=False)
        (path / "environment" / "Dockerfile").mkdir()

        error = load_error(path)

        assert str(path / "environment" / "Dockerfile") in str(error)

    def test_compose_only(self, tmp_path: Path) -> None:
        """A docker-compose.yaml without Dockerfile or image is not supported."""
        path = make_task(tmp_path, dockerfile=False)
        (path / "environment" / "docker-compose.yaml").write_text("services: {}\n")

        error = load_error(path)

        assert str(path / "environment" / "docker-compose.yaml") in str(error)
        assert "docker-compose environments are not supported by fcv" in str(error)


class TestTaskTomlErrors:
    @pytest.mark.parametrize(("toml", "field"), [
        ('bogus = 1\n', "bogus"),
        ('[verifier]\ntimeout = 5\n', "[verifier].timeout"),
        ('[environment]\nmemory_gb = 5\n', "[environment].memory_gb"),
        ('[agent]\nnetwork = "public"\n', "[agent].network"),
        ('[task]\nname = "a/b"\nlicense = "MIT"\n', "[task].license"),
        ('[solution]\nenv = {}\nscript = "x"\n', "[solution].script"),
        ('[environment.healthcheck]\ncommand = "true"\nevery = 1\n',
         "[environment.healthcheck].every"),
        ('artifacts = [{ source = "/a", dest = "b" }]\n', "artifacts[0].dest"),
    ])
    def test_unknown_key(self, tmp_path: Path, toml: str, field: str) -> None:
        """An unknown key names task.toml, the key and the allowed keys."""
        path = make_task(tmp_path, toml)

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert field in str(error)
        assert "unknown" in str(error) and "allowed" in str(error)
        assert error.field == field

    def test_unknown_verifier_key_lists_allowed(self, tmp_path: Path) -> None:
        """The unknown-key message lists what [verifier] allows."""
        error = load_error(make_task(tmp_path, '[verifier]\ntimeout = 5\n'))

        assert "timeout_sec" in str(error) and "environment_mode" in str(error)

    @pytest.mark.parametrize(("toml", "field", "shown"), [
        ('[verifier]\ntimeout_sec = "abc"\n', "[verifier].timeout_sec", "'abc'"),
        ('[verifier]\ntimeout_sec = true\n', "[verifier].timeout_sec", "true"),
        ('[verifier]\ntimeout_sec = 0\n', "[verifier].timeout_sec", "0"),
        ('[agent]\ntimeout_sec = -1.5\n', "[agent].timeout_sec", "-1.5"),
        ('[environment]\nbuild_timeout_sec = nan\n', "[environment].build_timeout_sec", "nan"),
        ('[environment]\ncpus = 0\n', "[environment].cpus", "0"),
        ('[environment]\nmemory_mb = 1.5\n', "[environment].memory_mb", "1.5"),
        ('[environment]\nstorage_mb = "10G"\n', "[environment].storage_mb", "'10G'"),
        ('[verifier.env]\nFOO = 1\n', "[verifier].env.FOO", "1"),
        ('[environment.env]\nBAR = true\n', "[environment].env.BAR", "true"),
        ('[verifier]\nenv = "x"\n', "[verifier].env", "'x'"),
        ('[environment]\nworkdir = "app"\n', "[environment].workdir", "'app'"),
        ('[verifier]\nuser = true\n', "[verifier].user", "true"),
        ('[agent]\nuser = 1.5\n', "[agent].user", "1.5"),
        ('[environment]\nnetwork_mode = "bridge"\n', "[environment].network_mode", "'bridge'"),
        ('[verifier]\nenvironment_mode = "both"\n', "[verifier].environment_mode", "'both'"),
        ('[environment]\nallow_internet = "yes"\n', "[environment].allow_internet", "'yes'"),
        ('schema_version = 1.0\n', "schema_version", "1.0"),
        ('[environment]\nos = "macos"\n', "[environment].os", "'macos'"),
        ('metadata = 3\n', "metadata", "3"),
    ])
    def test_wrong_type(self, tmp_path: Path, toml: str, field: str, shown: str) -> None:
        """A value of the wrong type names task.toml, the field and the value."""
        path = make_task(tmp_path, toml)

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert field in str(error)
        assert f"got {shown}" in str(error)

    def test_message_format(self, tmp_path: Path) -> None:
        """The message reads `file: [section].key: expected ..., got ...`."""
        path = make_task(tmp_path, '[verifier]\ntimeout_sec = "abc"\n')

        error = load_error(path)

        assert str(error) == (f"{path / 'task.toml'}: [verifier].timeout_sec: "
                              "expected a positive number, got 'abc'")

    def test_allowed_hosts_needs_allowlist(self, tmp_path: Path) -> None:
        """allowed_hosts without network_mode = 'allowlist' is an error naming it."""
        path = make_task(tmp_path, '[agent]\nallowed_hosts = ["pypi.org"]\n')

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert "[agent].allowed_hosts" in str(error)

    def test_task_section_needs_name(self, tmp_path: Path) -> None:
        """A [task] table without name is an error naming [task].name."""
        path = make_task(tmp_path, '[task]\ndescription = "x"\n')

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert "[task].name" in str(error)

    @pytest.mark.parametrize(("toml", "field"), [
        ('[[steps]]\nname = "one"\n', "steps"),
        ('[environment]\ngpus = 1\n', "[environment].gpus"),
        ('[environment.tpu]\ntype = "v6e"\ntopology = "2x4"\n', "[environment].tpu"),
        ('[environment]\nos = "windows"\n', "[environment].os"),
        ('[[environment.mcp_servers]]\nname = "m"\nurl = "http://x"\n',
         "[environment].mcp_servers"),
        ('[verifier.environment]\ndocker_image = "x"\n', "[verifier].environment"),
        ('[verifier]\nenvironment_mode = "separate"\n[verifier.environment]\ncpus = 1\n',
         "[verifier].environment"),
        ('[[verifier.collect]]\ncommand = "true"\n', "[verifier].collect"),
    ])
    def test_unsupported_feature(self, tmp_path: Path, toml: str, field: str) -> None:
        """A Harbor feature fcv cannot honour is an error saying so and naming the field."""
        path = make_task(tmp_path, toml)

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert field in str(error)
        assert "not supported by fcv" in str(error)

    def test_empty_steps_accepted(self, tmp_path: Path) -> None:
        """An empty steps array is a single-step task."""
        assert Task.from_dir(make_task(tmp_path, "steps = []\n")).name == "my-task"

    def test_separate_mode_without_table_accepted(self, tmp_path: Path) -> None:
        """environment_mode = 'separate' alone is kept for the caller to act on."""
        path = make_task(tmp_path, '[verifier]\nenvironment_mode = "separate"\n')

        assert Task.from_dir(path).verifier.environment_mode == "separate"


class TestAgentConfig:
    def test_int_user_becomes_text(self) -> None:
        """A UID written as an integer is kept as its decimal text."""
        config = AgentConfig.from_mapping({"user": 1000}, source="t.toml")

        assert config.user == "1000"

    def test_unknown_key(self) -> None:
        """An unknown [agent] key names the source and [agent].key."""
        with pytest.raises(TaskError) as info:
            AgentConfig.from_mapping({"cpus": 1}, source="t.toml")

        assert str(info.value).startswith("t.toml: [agent].cpus: unknown key")


class TestVerifierConfig:
    def test_defaults(self) -> None:
        """An empty [verifier] has a 600 s timeout and no env, user or mode."""
        config = VerifierConfig.from_mapping({}, source="t.toml")

        assert config == VerifierConfig(timeout_sec=600.0)
        assert config.env == {} and config.user is None and config.environment_mode is None

    @given(st.one_of(st.integers(min_value=1, max_value=10**9),
                     st.floats(min_value=1e-6, max_value=1e9, allow_nan=False)))
    def test_positive_timeouts_round_trip(self, timeout: float) -> None:
        """Every positive finite timeout is kept as that float."""
        config = VerifierConfig.from_mapping({"timeout_sec": timeout}, source="t.toml")

        assert config.timeout_sec == float(timeout)
        assert isinstance(config.timeout_sec, float)

    @given(st.one_of(st.integers(max_value=0), st.floats(max_value=0.0), st.booleans(),
                     st.just(math.inf), st.just(math.nan), st.text(),
                     st.lists(st.integers(min_value=1), max_size=2),
                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
    def test_bad_timeouts_rejected(self, timeout: object) -> None:
        """Non-positive, infinite, NaN, boolean and non-numeric timeouts are refused."""
        with pytest.raises(TaskError) as info:
            VerifierConfig.from_mapping({"timeout_sec": timeout}, source="t.toml")

        assert "[verifier].timeout_sec" in str(info.value)
        assert info.value.field == "[verifier].timeout_sec"

    @given(st.text(min_size=1, max_size=20).filter(
        lambda k: k not in {"timeout_sec", "env", "user", "environment_mode", "environment",
                            "collect", "network_mode", "allowed_hosts"}))
    def test_any_unknown_key_rejected(self, key: str) -> None:
        """Every key [verifier] does not know is refused and named."""
        with pytest.raises(TaskError) as info:
            VerifierConfig.from_mapping({key: "x"}, source="t.toml")

        assert repr(key) in str(info.value)
        assert "t.toml" in str(info.value)


class TestEnvironmentConfig:
    @pytest.mark.parametrize(("memory", "mb"), [
        ("2G", 2048), ("512M", 512), ("1024K", 1), ("1.5g", 1536), (" 3G ", 3072),
    ])
    def test_legacy_memory(self, memory: str, mb: int) -> None:
        """The legacy memory size converts to memory_mb as Harbor does."""
        config = EnvironmentConfig.from_mapping({"memory": memory}, source="t.toml")

        assert config.memory_mb == mb

    def test_legacy_storage(self) -> None:
        """The legacy storage = '10G' converts to storage_mb = 10240."""
        config = EnvironmentConfig.from_mapping({"storage": "10G"}, source="t.toml")

        assert config.storage_mb == 10240

    def test_legacy_in_task(self, tmp_path: Path) -> None:
        """Legacy memory, storage and allow_internet load from a task.toml."""
        path = make_task(tmp_path, '[environment]\nmemory = "2G"\nstorage = "10G"\n'
                                   'allow_internet = false\n')
        environment = Task.from_dir(path).environment

        assert environment.memory_mb == 2048
        assert environment.storage_mb == 10240
        assert environment.allow_internet is False
        assert environment.network_mode == "no-network"

    def test_memory_equal_to_memory_mb(self) -> None:
        """memory and memory_mb that agree are accepted."""
        config = EnvironmentConfig.from_mapping({"memory": "2G", "memory_mb": 2048},
                                                source="t.toml")

        assert config.memory_mb == 2048

    def test_conflicting_memory(self, tmp_path: Path) -> None:
        """memory and memory_mb that disagree are an error naming both."""
        path = make_task(tmp_path, '[environment]\nmemory = "2G"\nmemory_mb = 1024\n')

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert "[environment].memory" in str(error)
        assert "memory_mb" in str(error) and "2048" in str(error)

    def test_conflicting_storage(self) -> None:
        """storage and storage_mb that disagree are an error naming both."""
        with pytest.raises(TaskError) as info:
            EnvironmentConfig.from_mapping({"storage": "1G", "storage_mb": 5}, source="t.toml")

        assert "[environment].storage" in str(info.value) and "storage_mb" in str(info.value)

    @pytest.mark.parametrize("memory", ["lots", "2T", "G", "", 2048, "0M", "512K", "infG"])
    def test_bad_legacy_memory(self, memory: object) -> None:
        """A legacy memory that is not a positive size is an error naming it."""
        with pytest.raises(TaskError) as info:
            EnvironmentConfig.from_mapping({"memory": memory}, source="t.toml")

        assert str(info.value).startswith("t.toml: [environment].memory: expected a size")

    @pytest.mark.parametrize(("allow", "mode"), [(True, "public"), (False, "no-network")])
    def test_allow_internet_sets_network_mode(self, allow: bool, mode: str) -> None:
        """The legacy allow_internet decides network_mode when it is unset, and is kept."""
        config = EnvironmentConfig.from_mapping({"allow_internet": allow}, source="t.toml")

        assert config.allow_internet is allow
        assert config.network_mode == mode

    def test_network_mode_wins_over_allow_internet(self) -> None:
        """An explicit network_mode is not overridden by allow_internet."""
        config = EnvironmentConfig.from_mapping(
            {"allow_internet": False, "network_mode": "public"}, source="t.toml")

        assert config.network_mode == "public"
        assert config.allow_internet is False

    def test_workdir_absolute(self) -> None:
        """An absolute workdir is kept as written."""
        config = EnvironmentConfig.from_mapping({"workdir": "/srv/app"}, source="t.toml")

        assert config.workdir == "/srv/app"

    def test_relative_workdir(self, tmp_path: Path) -> None:
        """A relative workdir is an error naming [environment].workdir."""
        path = make_task(tmp_path, '[environment]\nworkdir = "app/src"\n')

        error = load_error(path)

        assert str(path / "task.toml") in str(error)
        assert "[environment].workdir" in str(error) and "absolute" in str(error)


class TestResolveEnv:
    def test_template(self) -> None:
        """${VAR} takes the value from environ."""
        resolved = resolve_env({"K": "${HOST}"}, source="t.toml", field="[verifier].env",
                               environ={"HOST": "value"})

        assert resolved == {"K": "value"}

    def test_default_when_unset(self) -> None:
        """${VAR:-default} gives the default when VAR is unset."""
        resolved = resolve_env({"K": "${HOST:-fallback}", "E": "${HOST:-}"}, source="t.toml",
                               field="[verifier].env", environ={})

        assert resolved == {"K": "fallback", "E": ""}

    def test_set_variable_wins_over_default(self) -> None:
        """A set variable, even an empty one, wins over the default."""
        resolved = resolve_env({"K": "${HOST:-fallback}", "E": "${EMPTY:-fallback}"},
                               source="t.toml", field="[verifier].env",
                               environ={"HOST": "real", "EMPTY": ""})

        assert resolved == {"K": "real", "E": ""}

    def test_missing_variable(self) -> None:
        """An unset variable without default is an error naming file, field and variable."""
        with pytest.raises(TaskError) as info:
            resolve_env({"TOKEN": "${API_TOKEN}"}, source="/t/task.toml",
                        field="[verifier].env", environ={})

        message = str(info.value)
        assert message.startswith("/t/task.toml: [verifier].env.TOKEN: ")
        assert "'API_TOKEN'" in message
        assert info.value.field == "[verifier].env.TOKEN"

    def test_literals_pass_through(self) -> None:
        """Values that are not one whole template are literals, as in Harbor."""
        env = {"A": "plain", "B": "prefix-${HOST}", "C": "$HOST", "D": ""}

        assert resolve_env(env, source="t", field="[verifier].env", environ={"HOST": "x"}) == env

    def test_default_environ(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without environ, os.environ is used."""
        monkeypatch.setenv("FCV_TEST_RESOLVE", "from-os")

        resolved = resolve_env({"K": "${FCV_TEST_RESOLVE}"}, source="t", field="[verifier].env")

        assert resolved == {"K": "from-os"}

    def test_input_not_changed(self) -> None:
        """resolve_env returns a new dict and leaves the task's raw table alone."""
        env = {"K": "${HOST}"}

        resolve_env(env, source="t", field="[verifier].env", environ={"HOST": "v"})

        assert env == {"K": "${HOST}"}

    @given(st.dictionaries(st.text(max_size=10),
                           st.text().filter(lambda v: "${" not in v)))
    def test_strings_without_template_unchanged(self, env: dict[str, str]) -> None:
        """Any value without `${` comes back unchanged, whatever the environment."""
        assert resolve_env(env, source="t", field="[verifier].env", environ={}) == env

    @given(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,15}", fullmatch=True), st.text())
    def test_variable_value_round_trips(self, name: str, value: str) -> None:
        """${NAME} resolves to exactly the value NAME has."""
        resolved = resolve_env({"K": f"${{{name}}}"}, source="t", field="[verifier].env",
                               environ={name: value})

        assert resolved == {"K": value}
