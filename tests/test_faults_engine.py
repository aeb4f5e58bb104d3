"""Engine faults (issue 6, part 2), each case one test against a real engine.

In every case the verdict is ``error`` with a reason, or the run is aborted with a non-zero
exit and a reason; never ``pass``; and no ``fcv.trial`` resource is left after the run (or,
where fcv itself was killed, after ``fcv gc --trial``).

=====================================================  =========================================
fault                                                  test
=====================================================  =========================================
dockerd killed and restarted while the agent runs      TestDaemonRestart::test_during_agent
dockerd killed and restarted while the verifier runs   TestDaemonRestart::test_during_verification
the agent OOM-killed                                   TestOutOfMemory::test_agent_oom_killed
the verifier OOM-killed                                TestOutOfMemory::test_verifier_oom_killed
the verifier container killed from outside             TestVerifierKilled::test_killed_externally
  (and: test.sh's own exit 137 is no kill)             TestVerifierKilled::test_own_exit_137
test.sh that never exits                               TestVerifierKilled::test_never_exits
SIGINT / SIGTERM to fcv while building, the agent      TestInterrupted::test_signal[phase-signal]
  runs, the snapshot is taken, the verifier runs
SIGKILL to fcv, then ``fcv gc --trial``                TestInterrupted::test_sigkill_then_gc
retries: only named transient errors, bounded          TestRetries (no engine)
=====================================================  =========================================

The daemon-restart tests use a private dockerd (tests/faulttools.py); the shared engine is never
stopped. Subprocess runs of fcv use ``sys.executable -m verifier.cli`` from the repository root.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import docker.errors
import pytest
import requests.exceptions
import tenacity

from isolation import engine as engine_module
from isolation import labels as L
from isolation import manifest as M
from isolation.engine import Engine
from isolation.errors import EXIT_ERROR, EXIT_PASS, BuildError, EngineError, EngineUnavailable
from tests.conftest import SESSION_TRIALS, _engine_required
from tests.faulttools import DaemonUnavailable, FcvProcess, PrivateDaemon
from tests.tasktools import PASS_IF_DONE, make_task, put_file, write_agent
from verifier.cli import main

T = TypeVar("T")

#: Written by a test.sh before it is cut short: a reward that must never count.
REWARD_THEN_SLEEP = "#!/bin/sh\necho 1 > /logs/verifier/reward.txt\nsleep 60\n"
#: The agent did the task, then lingers: only the fault may stand between it and a pass.
WORK_THEN_SLEEP = "echo done > /app/done.txt\nsleep 60\n"
#: Allocates (and touches) a 256 MB buffer in one go: busybox dd, no Python needed.
ALLOCATE = "dd if=/dev/zero of=/dev/null bs=256M count=1\n"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def verdicts(doc: dict) -> list[dict]:  # type: ignore[type-arg]
    """The trial documents of a ``run`` or ``compare`` JSON document."""
    return [doc["split"], doc["same"]] if "split" in doc else [doc]


@pytest.fixture
def spawn() -> Iterator[Callable[..., FcvProcess]]:
    """Start ``fcv`` subprocesses; any still running at the end is killed, and the trials
    they minted join the leak check."""
    started: list[FcvProcess] = []

    def start(*argv: str, env: dict[str, str] | None = None) -> FcvProcess:
        started.append(FcvProcess(*argv, env=env))
        return started[-1]

    yield start
    for fcv in started:
        if fcv.proc.poll() is None:
            fcv.proc.kill()
            fcv.proc.wait(30)
        match = re.search(r"trial ([0-9a-f]{12}): task", fcv.stderr)
        if match:
            SESSION_TRIALS.add(match.group(1))


# -- a private engine for the daemon-restart cases ----------------------------------------------

@pytest.fixture(scope="session")
def private_daemon(engine: Engine) -> Iterator[PrivateDaemon]:
    """A dockerd of this test process only, with the base images copied in; stopped and
    removed completely (processes, mounts, data root) at the end of the session."""
    daemon = PrivateDaemon()
    try:
        daemon.start()
        daemon.load_images(engine)
    except (DaemonUnavailable, EngineError, docker.errors.DockerException) as e:
        daemon.stop()
        if _engine_required():
            pytest.fail(f"private dockerd required for the restart tests: {e}")
        pytest.skip(f"no private dockerd here: {e}")
    try:
        yield daemon
    finally:
        daemon.stop()
        assert not daemon.own_processes(), "the private daemon left processes behind"
        assert not daemon.exists()


def private_leftovers(daemon: PrivateDaemon, trial_id: str) -> dict[str, list[str]]:
    eng = daemon.engine()
    try:
        return eng.list_labelled(trial_id)
    finally:
        eng.close()


@pytest.mark.engine
@pytest.mark.slow
class TestDaemonRestart:
    """dockerd SIGKILLed mid-phase, then restarted: the trial is an error, and fcv's own
    cleanup (riding out the restart) leaves nothing on the engine."""

    def _kill_during(self, daemon: PrivateDaemon, tmp_path: Path, phase: str, *,
                     test_sh: str, spawn: Callable[..., FcvProcess]) -> None:
        task = make_task(tmp_path, toml="[agent]\ntimeout_sec = 60\n[verifier]\n"
                                        "timeout_sec = 60\n", test_sh=test_sh)
        agent = write_agent(tmp_path, WORK_THEN_SLEEP if phase == "agent" else
                            "echo done > /app/done.txt\n")
        fcv = spawn("compare", str(task), "--agent-script", str(agent), "--json",
                    env=daemon.env())
        fcv.wait_for("running (timeout" if phase == "agent" else "verifying in a pristine")
        time.sleep(1.0)
        daemon.restart()
        code, out, err = fcv.finish()
        assert code == EXIT_ERROR, err
        doc = json.loads(out)
        for trial in verdicts(doc):
            assert trial["verdict"] == "error", err
            assert "engine" in trial["error"].lower(), trial
        # The split verdict's reason is the lost engine itself (the same-container run
        # comes after the restart and finds the agent's container stopped).
        assert "lost the Docker Engine" in doc["split"]["error"], doc["split"]
        assert not any(private_leftovers(daemon, fcv.trial_id).values()), err

    def test_during_agent(self, private_daemon: PrivateDaemon, tmp_path: Path,
                          spawn: Callable[..., FcvProcess]) -> None:
        """dockerd killed while the agent runs (it already did the work): error, no leak."""
        self._kill_during(private_daemon, tmp_path, "agent", test_sh=PASS_IF_DONE,
                          spawn=spawn)

    def test_during_verification(self, private_daemon: PrivateDaemon, tmp_path: Path,
                                 spawn: Callable[..., FcvProcess]) -> None:
        """dockerd killed while test.sh runs (it already wrote reward 1): error, no leak."""
        self._kill_during(private_daemon, tmp_path, "verification", test_sh=REWARD_THEN_SLEEP,
                          spawn=spawn)

    def test_during_manifest(self, private_daemon: PrivateDaemon) -> None:
        """dockerd killed while a manifest streams a snapshot: the engine is reported lost
        (not a damaged archive, which would blame the snapshot), and after the restart the
        manifest's never-started container is gone."""
        eng = private_daemon.engine()
        trial_id = L.new_trial_id()
        try:
            volume = eng.create_volume(L.resource_name(trial_id, "snapshot"),
                                       labels=L.trial_labels(trial_id, "snapshot"))
            put_file(eng, volume, trial_id, "big.bin", os.urandom(48 << 20))
            with M.volume_archive(eng, volume, trial_id=trial_id) as stream:
                source = _KillAfter(stream.as_file(), 1 << 20, private_daemon.kill)
                with pytest.raises(EngineUnavailable, match="lost the Docker Engine while "
                                   "trying to copy /fcv-snapshot"):
                    M.build_manifest(source, root=M.ARCHIVE_ROOT)
                assert source.killed
                private_daemon.start()
            assert private_leftovers(private_daemon, trial_id)["containers"] == []
        finally:
            if not private_daemon.answers():
                private_daemon.start()
            eng.remove_labelled(trial_id)
            eng.close()


class _KillAfter:
    """A stream that calls ``kill`` once ``after`` bytes have been read from it."""

    def __init__(self, f: io.BufferedReader, after: int, kill: Callable[[], None]) -> None:
        self._f, self._after, self._kill = f, after, kill
        self.killed = False

    def _count(self, n: int) -> None:
        self._after -= n
        if self._after <= 0 and not self.killed:
            self.killed = True
            self._kill()

    def read(self, size: int, /) -> bytes:
        data = self._f.read(size)
        self._count(len(data))
        return data

    def readinto(self, b: memoryview) -> int:
        n = self._f.readinto(b)
        self._count(n)
        return n


# -- resource limits -----------------------------------------------------------------------------

@pytest.mark.engine
class TestOutOfMemory:
    def test_agent_oom_killed(self, engine: Engine, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
        """An agent that does the work, then exceeds [environment].memory_mb: both verdicts
        error ("agent was OOM-killed"), though the work would pass."""
        task = make_task(tmp_path, toml="[environment]\nmemory_mb = 64\n[agent]\n"
                                        "timeout_sec = 60\n[verifier]\ntimeout_sec = 60\n")
        agent = write_agent(tmp_path, "echo done > /app/done.txt\n" + ALLOCATE)
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent-script", str(agent))
        assert code == EXIT_ERROR
        for trial in verdicts(doc):
            assert trial["verdict"] == "error"
            assert "agent was OOM-killed" in trial["error"]
            assert trial["agent"]["exit_code"] == 137

    def test_verifier_oom_killed(self, engine: Engine, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
        """A test.sh that exceeds its memory limit and then writes reward 1: error in both
        modes."""
        task = make_task(tmp_path, toml="[environment]\nmemory_mb = 64\n[verifier]\n"
                                        "timeout_sec = 60\n",
                         test_sh="#!/bin/sh\n" + ALLOCATE + "echo 1 > /logs/verifier/reward.txt\n")
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent", "none")
        assert code == EXIT_ERROR
        for trial in verdicts(doc):
            assert trial["verdict"] == "error"
            assert "exceeding its memory limit" in trial["error"]


# -- the verifier cut short ----------------------------------------------------------------------

@pytest.mark.engine
class TestVerifierKilled:
    def test_killed_externally(self, engine: Engine, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
        """The verifier container killed through the API after test.sh wrote reward 1:
        error naming the kill, not pass."""
        task = make_task(tmp_path, test_sh=REWARD_THEN_SLEEP)
        known = set(SESSION_TRIALS)
        stop = threading.Event()
        killed: list[str] = []

        def killer() -> None:
            while not stop.is_set():
                for trial_id in set(SESSION_TRIALS) - known:
                    found = engine.api.containers(filters={"label": [
                        f"fcv.trial={trial_id}", "fcv.role=verifier"], "status": "running"})
                    if found:
                        time.sleep(1.0)  # test.sh has written its reward and sleeps
                        engine.kill(found[0]["Id"])
                        killed.append(found[0]["Id"])
                        return
                time.sleep(0.1)

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        try:
            code, doc, _ = run_json(capsys, "run", str(task), "--agent", "oracle")
        finally:
            stop.set()
            thread.join(10)
        assert killed
        assert (code, doc["verdict"]) == (EXIT_ERROR, "error")
        assert "killed from outside fcv" in doc["error"] and doc["verifier"]["exit_code"] == 137

    def test_own_exit_137(self, engine: Engine, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
        """A test.sh that writes reward 1 and exits 137 by itself was not killed: as in
        Harbor, the reward counts whatever the exit code (pass)."""
        task = make_task(tmp_path, test_sh="#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n"
                                           "exit 137\n")
        code, doc, _ = run_json(capsys, "run", str(task), "--agent", "none")
        assert doc["verifier"]["exit_code"] == 137
        assert (code, doc["verdict"]) == (EXIT_PASS, "pass")

    def test_never_exits(self, engine: Engine, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
        """A test.sh that outlives [verifier].timeout_sec is killed: verdict error, exit 3,
        even though it already wrote a passing reward."""
        task = make_task(tmp_path, toml="[verifier]\ntimeout_sec = 2\n",
                         test_sh=REWARD_THEN_SLEEP)
        code, doc, _ = run_json(capsys, "compare", str(task), "--agent", "oracle")
        assert code == EXIT_ERROR
        for trial in verdicts(doc):
            assert trial["verdict"] == "error"
            assert trial["verifier"]["timed_out"] is True
            assert "timed out" in trial["error"]


# -- fcv itself interrupted ----------------------------------------------------------------------

#: phase -> what fcv prints when it enters it
PHASES = {
    "building": "building task image",
    "agent": "running (timeout",
    "snapshot": "agent frozen; snapshot by commit",
    "verifying": "verifying in a pristine container",
}
#: phase -> what fcv prints once it has left it (the signal must land before that)
LEFT = {"building": "running (timeout", "agent": "agent frozen", "snapshot": "verifying in",
        "verifying": "split: "}


def phase_task(tmp_path: Path, phase: str) -> tuple[Path, Path]:
    """A task and agent that linger in ``phase`` for several seconds."""
    dockerfile = "FROM fcv/busybox:latest\nWORKDIR /app\n"
    if phase == "building":  # unique, so the build cache never skips the slow step
        dockerfile += f"RUN echo {uuid.uuid4().hex} && sleep 30\n"
    test_sh = REWARD_THEN_SLEEP if phase == "verifying" else \
        "#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n"
    body = {"agent": WORK_THEN_SLEEP,
            # 256 MB streamed out of the frozen container by --snapshot commit: ~2 s.
            "snapshot": "echo done > /app/done.txt\ndd if=/dev/zero of=/app/big bs=1M "
                        "count=256 2>/dev/null\n"}.get(phase, "echo done > /app/done.txt\n")
    task = make_task(tmp_path, dockerfile=dockerfile, test_sh=test_sh,
                     toml="[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n")
    return task, write_agent(tmp_path, body)


@pytest.mark.engine
@pytest.mark.slow
class TestInterrupted:
    @pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
    @pytest.mark.parametrize("phase", list(PHASES))
    def test_signal(self, engine: Engine, tmp_path: Path, phase: str, sig: signal.Signals,
                    spawn: Callable[..., FcvProcess]) -> None:
        """Ctrl-C or SIGTERM in each phase: fcv exits 130 saying it was interrupted, with no
        verdict on stdout, and removes every resource of the trial."""
        task, agent = phase_task(tmp_path, phase)
        fcv = spawn("run", str(task), "--agent-script", str(agent), "--snapshot", "commit",
                    "--json")
        fcv.wait_for(PHASES[phase])
        time.sleep(0.3 if phase == "snapshot" else 1.0)
        fcv.signal(sig)
        code, out, err = fcv.finish()
        assert code == 130, err
        assert out == "" and "interrupted" in err
        assert LEFT[phase] not in err, f"the signal landed after the {phase} phase:\n{err}"
        assert not any(engine.list_labelled(fcv.trial_id).values()), err

    @pytest.mark.parametrize("phase", ["agent", "verifying"])
    def test_sigkill_then_gc(self, engine: Engine, tmp_path: Path, phase: str,
                             spawn: Callable[..., FcvProcess],
                             capsys: pytest.CaptureFixture[str]) -> None:
        """fcv SIGKILLed mid-run leaves its resources; ``fcv gc --trial`` (its owner is gone)
        removes every one of them."""
        task, agent = phase_task(tmp_path, phase)
        fcv = spawn("run", str(task), "--agent-script", str(agent), "--json")
        fcv.wait_for(PHASES[phase])
        time.sleep(1.0)
        fcv.signal(signal.SIGKILL)
        code, out, err = fcv.finish()
        assert code == -signal.SIGKILL and out == ""
        assert LEFT[phase] not in err
        trial_id = fcv.trial_id
        assert any(engine.list_labelled(trial_id).values())
        assert main(["gc", "--trial", trial_id]) == EXIT_PASS
        assert "removed" in capsys.readouterr().err
        assert not any(engine.list_labelled(trial_id).values())


# -- retries (no engine) -------------------------------------------------------------------------

def _api_error(status: int, explanation: str) -> docker.errors.APIError:
    response = requests.Response()
    response.status_code = status
    return docker.errors.APIError(explanation, response=response, explanation=explanation)


TRANSIENT = {
    "connection reset": requests.exceptions.ConnectionError(
        "('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))"),
    "removal in progress": _api_error(409, "removal of container abc is already in progress"),
    "device busy": _api_error(500, "unlinkat /var/lib/docker/x: device or resource busy"),
}
PERMANENT = {
    "not found": _api_error(404, "No such container: abc"),
    "conflict": _api_error(409, "container abc is not running"),
    "server error": _api_error(500, "failed to create shim task: OCI runtime create failed"),
    "bad request": _api_error(400, "invalid reference format"),
    "read timeout": requests.exceptions.ReadTimeout("read timed out"),
}


@pytest.fixture
def fast_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine module's retry policy with its waits removed (stop and retry unchanged)."""
    monkeypatch.setattr(engine_module, "_retry", without_waits)


_RETRY = engine_module._retry


def without_waits(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` under the engine module's own retry policy, minus its waits."""
    return _RETRY(fn).retry_with(wait=tenacity.wait_none())  # type: ignore[no-any-return]


class FlakyApi:
    """Stands in for the SDK's low-level client: every method fails with ``error``."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.calls: dict[str, int] = {}

    def _url(self, template: str, *args: str) -> str:
        return template.format(*args)

    def __getattr__(self, name: str) -> object:
        def method(*args: object, **kwargs: object) -> object:
            self.calls[name] = self.calls.get(name, 0) + 1
            raise self.error
        return method


class TestRetries:
    @pytest.mark.parametrize("name", sorted(TRANSIENT))
    def test_transient_errors_are_named(self, name: str) -> None:
        """Connection reset, a removal already in progress and a busy device are transient."""
        assert engine_module._is_transient(TRANSIENT[name])

    @pytest.mark.parametrize("name", sorted(PERMANENT))
    def test_other_errors_are_not(self, name: str) -> None:
        """Anything else, including other 409s and 5xx, is not retried."""
        assert not engine_module._is_transient(PERMANENT[name])

    def test_bounded_reraised_and_logged(self, caplog: pytest.LogCaptureFixture) -> None:
        """A transient error is tried 5 times in all, each retry logged, then re-raised as
        itself (and mapped to EngineError by the caller)."""
        calls = []

        def flaky() -> None:
            calls.append(1)
            raise TRANSIENT["removal in progress"]

        with caplog.at_level(logging.WARNING, logger="isolation.engine"), \
                pytest.raises(docker.errors.APIError):
            without_waits(flaky)()
        assert len(calls) == 5
        assert len([r for r in caplog.records if "Retrying" in r.getMessage()]) == 4

    def test_recovers_after_transient(self) -> None:
        """A call that fails transiently twice then answers returns the answer."""
        outcomes = [TRANSIENT["connection reset"], TRANSIENT["device busy"], None]

        def flaky() -> str:
            error = outcomes.pop(0)
            if error is not None:
                raise error
            return "ok"

        assert without_waits(flaky)() == "ok"

    def test_verdict_path_is_never_retried(self, fast_retry: None) -> None:
        """Starting, waiting for and exec'ing in containers, copying files in and out: one
        try each even on a transient error. Only idempotent bookkeeping is retried."""
        api = FlakyApi(TRANSIENT["connection reset"])
        eng = Engine.__new__(Engine)
        eng.api = api
        eng._clock_offset = 0.0
        for call in (lambda: eng.start("c"), lambda: eng.wait("c", timeout_s=1),
                     lambda: eng.put_archive("c", "/", b""),
                     lambda: eng.get_archive("c", "/logs"),
                     lambda: eng.exec("c", ["true"]),
                     lambda: eng.create_container("i", ["true"], name="n", labels={},
                                                  host_config={}),
                     lambda: eng.commit("c", labels={}),
                     lambda: eng.inspect_container("c"),
                     lambda: eng.remove_volume("v")):
            with pytest.raises(EngineError):
                call()
        once = ("start", "wait", "put_archive", "_get", "events", "create_host_config",
                "commit")
        assert {name: api.calls.get(name) for name in once} == dict.fromkeys(once, 1)
        assert api.calls["inspect_container"] == 5 and api.calls["remove_volume"] == 5


class _BuildApi:
    """Stands in for the SDK's low-level client in a build: each build call streams the next
    of ``streams``; the images of steps a failed build made are recorded when removed."""

    def __init__(self, *streams: list[dict[str, object]]) -> None:
        self.streams = list(streams)
        self.builds = 0
        self.removed: list[str] = []

    def build(self, **_: object) -> Iterator[dict[str, object]]:
        self.builds += 1
        return iter(self.streams.pop(0))

    def inspect_image(self, ref: str) -> dict[str, str]:
        return {"Id": ref}

    def remove_image(self, image: str, **_: object) -> None:
        self.removed.append(image)

    def remove_container(self, *_: object, **__: object) -> None:
        pass


RACE = {"error": "failed to get digest sha256:5d2f: open /var/lib/docker/image/overlay2/"
                 "imagedb/content/sha256/5d2f: no such file or directory"}
BUILT = [{"stream": "Step 1/1 : FROM fcv/python:bookworm\n"},
         {"aux": {"ID": "sha256:built"}}, {"stream": "Successfully built built\n"}]
STEP_THEN_RACE = [{"stream": "Step 1/2 : RUN true\n"}, {"stream": " ---> Running in c1\n"},
                  {"stream": " ---> img1\n"}, RACE]


class TestBuildCacheRace:
    """Two fcv processes building the same Dockerfile share the engine's build cache; one's
    cleanup can remove a layer the other's build matched. That exact failure is built again
    (at most BUILD_TRIES in all); any other build failure is not."""

    def _engine(self, api: _BuildApi) -> Engine:
        return Engine(type("Client", (), {"api": api})())  # type: ignore[arg-type]

    def test_vanished_layer_is_built_again(self, caplog: pytest.LogCaptureFixture) -> None:
        api = _BuildApi(STEP_THEN_RACE, BUILT)
        image = self._engine(api).build("/ctx", dockerfile="Dockerfile", labels={},
                                        timeout_s=60)
        assert image == "sha256:built" and api.builds == 2
        assert api.removed == ["img1"]  # the failed try's own step image is not left behind
        assert "building again (try 2 of 3)" in caplog.text

    def test_bounded(self) -> None:
        api = _BuildApi(*([[RACE]] * engine_module.BUILD_TRIES))
        with pytest.raises(BuildError, match="failed to get digest"):
            self._engine(api).build("/ctx", dockerfile="Dockerfile", labels={}, timeout_s=60)
        assert api.builds == engine_module.BUILD_TRIES

    def test_other_failures_are_not_retried(self) -> None:
        api = _BuildApi([{"error": "The command '/bin/sh -c false' returned a non-zero code: 1"}],
                        BUILT)
        with pytest.raises(BuildError, match="non-zero code"):
            self._engine(api).build("/ctx", dockerfile="Dockerfile", labels={}, timeout_s=60)
        assert api.builds == 1
