"""The CLI end to end against the real engine: timeouts, bad inputs, reward files, JSON
documents, exit codes, --keep and gc. Faults (interruption, OOM, a killed verifier or engine)
are in test_faults_engine.py."""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import docker.errors
import pytest

from isolation.engine import Engine
from isolation.errors import EXIT_ERROR, EXIT_FAIL, EXIT_PASS, EXIT_USAGE
from tests.tasktools import PYTHON_DOCKERFILE, make_task, write_agent
from verifier.cli import main
from verifier.policy import Policy

pytestmark = pytest.mark.engine
ROOT = Path(__file__).resolve().parent.parent


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err



def built_from(engine: Engine, token: str) -> list[str]:
    """Images on the engine made by a build step whose command holds ``token``: this test's
    own steps (every later step of that build is a child of the first, and an image with
    children cannot be removed), whatever else builds on the same engine meanwhile."""
    found = []
    for image in engine.api.images(all=True):
        try:
            info = engine.api.inspect_image(image["Id"])
        except docker.errors.ImageNotFound:
            continue  # removed meanwhile
        if token in " ".join((info.get("ContainerConfig") or {}).get("Cmd") or []):
            found.append(image["Id"])
    return found

class TestRun:
    def test_logs_dir_keeps_agent_and_verifier_output(self, engine: Engine, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
        """`fcv compare --logs DIR` keeps the agent's output, each verifier's files and each
        verdict document: nothing a reviewer needs is lost with the containers."""
        task = make_task(tmp_path, test_sh="#!/bin/sh\necho checking the answer\n"
                         "echo 1 > /logs/verifier/reward.txt\n")
        agent = write_agent(tmp_path, "echo agent was here\necho done > /app/done.txt\n")
        logs = tmp_path / "logs"
        code = main(["compare", str(task), "--agent-script", str(agent), "--logs", str(logs)])
        capsys.readouterr()
        assert code == EXIT_PASS
        assert b"agent was here" in (logs / "agent-output.txt").read_bytes()
        for mode in ("split", "same"):
            assert (logs / mode / "test-stdout.txt").read_text() == "checking the answer\n"
            assert (logs / mode / "reward.txt").read_text() == "1\n"
            assert json.loads((logs / f"{mode}.json").read_text())["mode"] == mode

    def test_logs_dir_must_be_writable(self, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
        """An unusable --logs DIR is a usage error before anything runs."""
        task = make_task(tmp_path)
        blocker = tmp_path / "file"
        blocker.write_text("x")
        code = main(["run", str(task), "--agent", "oracle", "--logs", str(blocker / "sub")])
        assert code == EXIT_USAGE and "--logs" in capsys.readouterr().err

    def test_json_document_schema(self, engine: Engine, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
        """`fcv run --json` prints exactly one fcv.trial/v1 document with every field."""
        task = make_task(tmp_path)
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle")
        assert code == EXIT_PASS
        assert doc["schema"] == "fcv.trial/v1"
        assert set(doc) == {"schema", "trial_id", "task", "mode", "snapshot_method", "verdict",
                            "reward", "rewards", "error", "agent", "verifier", "images",
                            "findings", "policy", "snapshot"}
        assert (doc["mode"], doc["verdict"], doc["reward"]) == ("split", "pass", 1.0)
        default = Policy.load("default")
        assert doc["policy"] == {"name": "default", "digest": default.digest, "overrides": {}}
        assert doc["images"]["task"].startswith("sha256:")
        assert set(doc["agent"]) == {"exit_code", "timed_out", "duration_s"}
        assert doc["agent"]["exit_code"] == 0 and doc["verifier"]["exit_code"] == 0

    def test_fail_exit_code(self, engine: Engine, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
        """An agent that does nothing gets verdict fail and exit code 1."""
        code, doc, _ = run_json(capsys, "run", str(make_task(tmp_path)), "--agent", "none")
        assert (code, doc["verdict"], doc["reward"]) == (EXIT_FAIL, "fail", 0.0)

    def test_same_mode_flag(self, engine: Engine, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
        """--mode same verifies in the agent's container and says so."""
        code, doc, _ = run_json(capsys, "run", str(make_task(tmp_path)), "--agent", "oracle",
                                "--mode", "same", "--snapshot", "commit")
        assert (code, doc["mode"], doc["snapshot_method"]) == (EXIT_PASS, "same", "commit")


class TestAgentUser:
    def test_agent_runs_as_agent_user_in_workdir(self, engine: Engine, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
        """The agent script runs as [agent].user with the workspace as its directory."""
        task = make_task(tmp_path, toml='[agent]\nuser = "1000"\n',
                         dockerfile="FROM fcv/busybox:latest\nWORKDIR /app\n"
                                    "RUN chown 1000:1000 /app\n",
                         test_sh='#!/bin/sh\n[ "$(cat /app/who)" = "1000 /app" ] && '
                                 'echo 1 > /logs/verifier/reward.txt || '
                                 'echo 0 > /logs/verifier/reward.txt\n')
        agent = write_agent(tmp_path, 'echo "$(id -u) $(pwd)" > who\n')
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent-script", str(agent))
        assert doc["split"]["verdict"] == doc["same"]["verdict"] == "pass"
        assert code == EXIT_PASS


class TestTimeouts:
    def test_agent_timeout_recorded_and_verified(self, engine: Engine, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
        """A timed-out agent is recorded and its work is still verified (here: it passes)."""
        task = make_task(tmp_path, toml="[agent]\ntimeout_sec = 2\n[verifier]\ntimeout_sec = 30\n")
        agent = write_agent(tmp_path, "echo done > /app/done.txt\nsleep 60\n")
        started = time.monotonic()
        code, doc, _ = run_json(capsys, "run", str(task), "--agent-script", str(agent))
        assert doc["agent"]["timed_out"] is True and doc["agent"]["exit_code"] is None
        assert (code, doc["verdict"]) == (EXIT_PASS, "pass")
        assert time.monotonic() - started < 50


class TestBadTasks:
    def test_unknown_field(self, engine: Engine, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown task.toml field is a usage error naming the file and the field."""
        task = make_task(tmp_path, toml="[verifier]\ntimeout_sec = 5\nbogus_field = 1\n")
        assert main(["run", str(task), "--agent", "oracle"]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert "task.toml" in err and "bogus_field" in err

    def test_malformed_field(self, engine: Engine, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
        """A malformed field value names the file and the field."""
        task = make_task(tmp_path, toml='[verifier]\ntimeout_sec = "soon"\n')
        assert main(["run", str(task), "--agent", "oracle"]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert "task.toml" in err and "timeout_sec" in err

    def test_missing_test_sh(self, engine: Engine, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
        """A task without tests/test.sh is a usage error naming that path."""
        task = make_task(tmp_path)
        (task / "tests" / "test.sh").unlink()
        assert main(["run", str(task), "--agent", "oracle"]) == EXIT_USAGE
        assert os.path.join("tests", "test.sh") in capsys.readouterr().err

    def test_missing_task_dir(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A task directory that does not exist is a usage error."""
        assert main(["run", "/nonexistent/task", "--agent", "oracle"]) == EXIT_USAGE
        assert "/nonexistent/task" in capsys.readouterr().err

    def test_missing_agent_script(self, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
        """An agent script that does not exist is a usage error naming it."""
        task = make_task(tmp_path)
        assert main(["run", str(task), "--agent-script", "/no/such/agent.sh"]) == EXIT_USAGE
        assert "/no/such/agent.sh" in capsys.readouterr().err

    def test_bad_arguments(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Bad arguments exit 2: both agent options, or neither."""
        assert main(["run", "x", "--agent", "oracle", "--agent-script", "y"]) == EXIT_USAGE
        assert main(["run", "x"]) == EXIT_USAGE
        assert main(["run", "x", "--mode", "weird", "--agent", "none"]) == EXIT_USAGE

    def test_build_failure_names_step(self, engine: Engine, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
        """A Dockerfile that fails to build is an error (exit 3) naming the failing step."""
        token = uuid.uuid4().hex
        task = make_task(tmp_path, dockerfile=f"FROM fcv/busybox:latest\nRUN echo {token}\n"
                                              "WORKDIR /app\nRUN exit 7\nRUN echo never\n")
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle")
        # The steps that succeeded leave no unlabelled intermediate images behind.
        assert built_from(engine, token) == []
        assert code == EXIT_ERROR and doc["verdict"] == "error"
        assert "environment/Dockerfile: build failed at line 4 `RUN exit 7`" in doc["error"]
        assert "non-zero code: 7" in doc["error"]

    def test_missing_prebuilt_image(self, engine: Engine, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
        """[environment].docker_image naming an image the engine lacks is an error (no pulls)."""
        task = make_task(tmp_path, dockerfile=None,
                         toml='[environment]\ndocker_image = "fcv/does-not-exist:1"\n')
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "none")
        assert code == EXIT_ERROR
        assert "docker_image" in doc["error"] and "fcv/does-not-exist:1" in doc["error"]

    def test_no_workdir(self, engine: Engine, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
        """A task with neither [environment].workdir nor a WORKDIR is a usage error."""
        task = make_task(tmp_path, dockerfile="FROM fcv/busybox:latest\n")
        assert main(["run", str(task), "--agent", "none"]) == EXIT_USAGE
        assert "workdir" in capsys.readouterr().err

    def test_prebuilt_image_and_workdir(self, engine: Engine, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
        """A prebuilt image from [environment].docker_image with [environment].workdir works."""
        task = make_task(tmp_path, dockerfile=None,
                         toml='[environment]\ndocker_image = "fcv/busybox:latest"\n'
                              'workdir = "/app"\n')
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle")
        assert (code, doc["verdict"]) == (EXIT_PASS, "pass")
        assert doc["images"]["task"] == engine.image_id("fcv/busybox:latest")


LOGS = "/logs/verifier"
REWARD_CASES = {
    "missing": ("true", "no reward file"),
    "empty": ("printf '' > /logs/verifier/reward.txt", "empty"),
    "nan": ("echo nan > /logs/verifier/reward.txt", "reward.txt"),
    "infinite": ("echo 1e999 > /logs/verifier/reward.txt", "reward.txt"),
    "garbage": ("echo yes > /logs/verifier/reward.txt", "reward.txt"),
    "bool-json": ("echo '{\"reward\": true}' > /logs/verifier/reward.json", "reward.json"),
    "nan-json": ("echo '{\"reward\": NaN}' > /logs/verifier/reward.json", "reward.json"),
    "nested-json": ("echo '{\"reward\": [1]}' > /logs/verifier/reward.json", "reward.json"),
    "oversized": ("yes 1 | head -c 200000 > /logs/verifier/reward.txt", "65536"),
    "symlink": ("echo 1 > /tmp/r; ln -s /tmp/r /logs/verifier/reward.txt", "reward.txt"),
    "fifo": ("mkfifo /logs/verifier/reward.txt", "reward.txt"),
    "bad-json-hides-good-txt": (f"echo 1 > {LOGS}/reward.txt; echo '{{' > {LOGS}/reward.json",
                                "reward.json"),
}


class TestRewardFiles:
    @pytest.mark.parametrize("case", sorted(REWARD_CASES))
    def test_bad_reward_is_error(self, engine: Engine, tmp_path: Path, case: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
        """Every malformed, missing or non-regular reward file gives verdict error, exit 3,
        in both modes, with a reason."""
        command, reason = REWARD_CASES[case]
        task = make_task(tmp_path, test_sh=f"#!/bin/sh\n{command}\n")
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent", "oracle")
        assert code == EXIT_ERROR
        for mode in ("split", "same"):
            assert doc[mode]["verdict"] == "error", doc[mode]
            assert reason in doc[mode]["error"], doc[mode]["error"]
            assert doc[mode]["reward"] is None

    def test_threshold(self, engine: Engine, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
        """--threshold decides pass: 0.5 passes at 0.5 and fails at the default 1.0."""
        task = make_task(tmp_path, test_sh="#!/bin/sh\necho 0.5 > /logs/verifier/reward.txt\n")
        assert main(["run", str(task), "--agent", "none"]) == EXIT_FAIL
        assert main(["run", str(task), "--agent", "none", "--threshold", "0.5"]) == EXIT_PASS
        capsys.readouterr()


class TestWorkspace:
    WRITE_TEST = ("#!/bin/sh\nif echo x > /app/written; then "
                  "echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n")

    def test_read_only_by_default(self, engine: Engine, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
        """The split verifier cannot write into the snapshot (as root, even)."""
        task = make_task(tmp_path, test_sh=self.WRITE_TEST)
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle")
        assert (code, doc["verdict"]) == (EXIT_FAIL, "fail")
        [hint] = [f for f in doc["findings"] if f["code"] == "verifier-wrote-workspace"]
        assert "--workspace scratch" in hint["message"] and hint["path"] == "/app"

    @pytest.mark.parametrize("method", ["volume", "commit"])
    def test_scratch_is_writable_and_snapshot_untouched(
            self, engine: Engine, tmp_path: Path, method: str,
            capsys: pytest.CaptureFixture[str]) -> None:
        """--workspace scratch lets the tests write; the snapshot volume stays unchanged."""
        task = make_task(tmp_path, test_sh=self.WRITE_TEST)
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle", "--workspace",
                                "scratch", "--snapshot", method, "--keep")
        try:
            assert (code, doc["verdict"]) == (EXIT_PASS, "pass")
            role = "workspace" if method == "volume" else "snapshot"
            volumes = engine.api.volumes(filters={"label": [f"fcv.trial={doc['trial_id']}",
                                                            f"fcv.role={role}"]})["Volumes"]
            assert len(volumes) == 1
            names = _volume_listing(engine, volumes[0]["Name"])
            assert "app/done.txt" in names and "app/written" not in names
        finally:
            assert main(["gc", "--trial", doc["trial_id"]]) == EXIT_PASS
            capsys.readouterr()


def _volume_listing(engine: Engine, volume: str) -> set[str]:
    import io
    import tarfile

    from isolation.engine import VolumeMount
    from isolation.hardening import Hardening

    c = engine.create_container("fcv/busybox:latest", ["true"], entrypoint=[],
                                name=f"fcv-listing-{volume[-12:]}", labels={"fcv.trial": "listing",
                                                                         "fcv.role": "probe"},
                                host_config=Hardening().host_config(),
                                mounts=[VolumeMount(volume=volume, target="/app",
                                                    read_only=True)])
    try:
        stream, _ = engine.get_archive(c, "/app")
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
            return set(tar.getnames())
    finally:
        engine.remove_container(c)


class TestKeepAndGc:
    def test_keep_then_gc(self, engine: Engine, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
        """--keep leaves labelled resources (only volumes and containers, no binds); gc
        removes them all."""
        task = make_task(tmp_path, toml="[environment]\nmemory_mb = 256\ncpus = 0.5\n")
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle", "--snapshot",
                                "commit", "--keep")
        assert code == EXIT_PASS
        left = engine.list_labelled(doc["trial_id"])
        assert left["containers"] and left["volumes"] and left["images"]
        for cid in left["containers"]:
            info = engine.inspect_container(cid)
            assert not info["HostConfig"].get("Binds")
            assert {m["Type"] for m in info["Mounts"]} <= {"volume", "tmpfs"}
            assert info["HostConfig"]["NetworkMode"] == "none"
            # The task's own limits, for the agent and the verifier alike.
            assert info["HostConfig"]["Memory"] == 256 * 1024 * 1024
            assert info["HostConfig"]["NanoCpus"] == 500_000_000
        assert main(["gc", "--dry-run", "--trial", doc["trial_id"]]) == EXIT_PASS
        assert "would remove 2 containers, 3 volumes, 2 images" in capsys.readouterr().err
        assert any(engine.list_labelled(doc["trial_id"]).values())
        assert main(["gc"]) == EXIT_PASS
        assert not any(engine.list_labelled(doc["trial_id"]).values())


class TestDoctorAndImages:
    def test_doctor_all_ok(self, engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
        """doctor reports the engine, runsc, seccomp and both base images as present."""
        assert main(["doctor", "--json"]) == EXIT_PASS
        doc = json.loads(capsys.readouterr().out)
        names = {c["name"]: c["ok"] for c in doc["checks"]}
        assert names == {"engine": True, "runsc": True, "seccomp": True,
                         "fcv/busybox:latest": True, "fcv/python:bookworm": True}

    def test_bootstrap_skips_existing(self, engine: Engine,
                                      capsys: pytest.CaptureFixture[str]) -> None:
        """bootstrap without --force leaves existing base images untouched."""
        before = engine.image_id("fcv/busybox:latest")
        assert main(["images", "bootstrap"]) == EXIT_PASS
        assert "skipped" in capsys.readouterr().err
        assert engine.image_id("fcv/busybox:latest") == before


def test_python_task_uses_bash(engine: Engine, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """On an image with bash, test.sh runs under bash as in Harbor (bashisms work)."""
    task = make_task(tmp_path, dockerfile=PYTHON_DOCKERFILE,
                     test_sh="#!/bin/bash\n[[ -n \"$BASH_VERSION\" ]] && echo 1 > "
                             "/logs/verifier/reward.txt\n")
    code, doc, _ = run_json(capsys, "compare", str(task), "--agent", "none")
    assert doc["split"]["verdict"] == doc["same"]["verdict"] == "pass"
    assert code == EXIT_PASS


def test_bootstrap_force_rebuilds(engine: Engine) -> None:
    """bootstrap --force rebuilds an existing base image and drops the old one."""
    from verifier import images

    before = engine.image_id(images.BUSYBOX)
    [status] = images.bootstrap(engine, force=True, only=(images.BUSYBOX,))
    assert status.built and status.image_id == engine.image_id(images.BUSYBOX) != before
    # The old image is dropped, or at least untagged where something still builds on it.
    assert before is not None
    assert engine.image_id(before) is None or not engine.inspect_image(before)["RepoTags"]
    labels = engine.inspect_image(images.BUSYBOX)["Config"]["Labels"]
    assert labels == {"fcv.base": images.BUSYBOX}


class TestReviewFindings:
    """Regressions for problems a review found."""

    def test_build_timeout_is_error_and_cleaned(self, engine: Engine, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
        """A build past [environment].build_timeout_sec is an error naming the timeout, and
        the finished steps' images are removed."""
        token = uuid.uuid4().hex
        task = make_task(tmp_path, toml="[environment]\nbuild_timeout_sec = 2\n",
                         dockerfile=f"FROM fcv/busybox:latest\nRUN echo {token}\n"
                                    "WORKDIR /app\nRUN sleep 8\n")
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "none")
        assert (code, doc["verdict"]) == (EXIT_ERROR, "error")
        assert "timed out" in doc["error"] and "build_timeout_sec" in doc["error"]
        assert built_from(engine, token) == []
        time.sleep(8)  # the cancelled step cannot come back and commit an image later
        assert built_from(engine, token) == []

    def test_agent_cannot_stop_its_container(self, engine: Engine, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
        """Signalling PID 1 does not stop the sandbox, so the trial is judged normally."""
        task = make_task(tmp_path)
        agent = write_agent(tmp_path, "echo done > /app/done.txt\nkill -TERM 1; kill -INT 1;"
                                      " kill -KILL 1; sleep 1; true\n")
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent-script", str(agent))
        assert doc["split"]["verdict"] == doc["same"]["verdict"] == "pass"
        assert code == EXIT_PASS

    def test_same_mode_runs_as_image_user(self, engine: Engine, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
        """With [agent].user set, the same-container tests still run as the image's user."""
        task = make_task(tmp_path, toml='[agent]\nuser = "1000"\n',
                         test_sh='#!/bin/sh\n[ "$(id -u)" = 0 ] && echo 1 > '
                                 '/logs/verifier/reward.txt || echo 0 > '
                                 '/logs/verifier/reward.txt\n')
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent", "none")
        assert doc["same"]["verdict"] == doc["split"]["verdict"] == "pass"
        assert code == EXIT_PASS

    def test_image_volumes_do_not_leak(self, engine: Engine, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
        """A task image with VOLUME leaves no anonymous volume behind, in any mode."""
        task = make_task(tmp_path, dockerfile="FROM fcv/busybox:latest\nWORKDIR /app\n"
                                              "VOLUME /data\n")
        before = {v["Name"] for v in engine.api.volumes()["Volumes"] or []}
        for method in ("volume", "commit"):
            code, _, _ = run_json(capsys, "compare", str(task), "--agent", "oracle",
                                  "--snapshot", method)
            assert code == EXIT_PASS
        after = {v["Name"] for v in engine.api.volumes()["Volumes"] or []}
        assert after <= before

    def test_script_path_with_space(self, engine: Engine, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
        """An agent script whose name has a space still runs."""
        agent = write_agent(tmp_path, "echo done > /app/done.txt\n", name="my agent.sh")
        code, doc, _ = run_json(capsys, "run", str(make_task(tmp_path)), "--agent-script",
                                str(agent))
        assert (code, doc["agent"]["exit_code"]) == (EXIT_PASS, 0)

    def test_non_finite_threshold(self, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
        """--threshold nan is a usage error before anything runs."""
        assert main(["run", str(make_task(tmp_path)), "--agent", "none",
                     "--threshold", "nan"]) == EXIT_USAGE
        assert "finite" in capsys.readouterr().err

    def test_workdir_overlapping_private_paths(self, engine: Engine, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
        """A workspace at or above /logs or /tests is refused, naming the field."""
        for workdir in ("/logs", "/tests/x"):
            task = make_task(tmp_path / workdir.strip("/").replace("/", "-"),
                             toml=f'[environment]\nworkdir = "{workdir}"\n')
            assert main(["run", str(task), "--agent", "none"]) == EXIT_USAGE
            assert "[environment].workdir" in capsys.readouterr().err
