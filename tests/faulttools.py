"""Helpers for the engine-fault tests: a private Docker Engine that may be killed, and an
``fcv`` subprocess whose progress can be waited for.

The shared engine at /var/run/docker.sock is never stopped: other test runs use it. Tests that
kill a daemon start their own, with its own socket, data root, exec root, pidfile and managed
containerd, no bridge and no iptables, and the same runtime configuration as
``scripts/engine.sh``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import docker

from isolation.engine import API_TIMEOUT, Engine

ROOT = Path(__file__).resolve().parent.parent
#: Where private daemons live (socket, pidfile, exec root; and, on disk rather than a possible
#: tmpfs, their data roots); one subdirectory per test process, so two test runs on the same
#: machine never share one.
PRIVATE_BASE = Path("/run/fcv-fault")
PRIVATE_DATA_BASE = Path("/var/lib/fcv-fault")
RUNTIME_CONFIG = '{"runtimes": {"runsc": {"path": "%s", "runtimeArgs": ["--network=none"]}}}\n'
IMAGES = ("fcv/busybox:latest", "fcv/python:bookworm")


class DaemonUnavailable(Exception):
    """A private daemon cannot be started here (no dockerd, not root, ...)."""


class PrivateDaemon:
    """A dockerd of our own, started and killed at will."""

    def __init__(self, base: Path = PRIVATE_BASE, data_base: Path = PRIVATE_DATA_BASE) -> None:
        self.root = base / str(os.getpid())
        self.data_root = data_base / str(os.getpid())
        self.socket = self.root / "docker.sock"
        self.host = f"unix://{self.socket}"
        self.log_path = self.root / "dockerd.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        return ["dockerd", "-H", self.host, "--data-root", str(self.data_root),
                "--exec-root", str(self.root / "exec"), "--pidfile", str(self.root / "docker.pid"),
                "--config-file", str(self.root / "daemon.json"), "--bridge=none",
                "--iptables=false", "--ip6tables=false"]

    def start(self, wait_s: float = 60) -> None:
        """Start dockerd (and, through it, its own containerd) and wait until it answers.

        Raises:
            DaemonUnavailable: it cannot be started or does not answer in time.
        """
        dockerd = shutil.which("dockerd")
        if dockerd is None or os.geteuid() != 0:
            raise DaemonUnavailable("a private dockerd needs the dockerd binary and root")
        self.root.mkdir(parents=True, exist_ok=True)
        self.data_root.mkdir(parents=True, exist_ok=True)
        runsc = shutil.which("runsc") or "/usr/bin/runsc"
        (self.root / "daemon.json").write_text(RUNTIME_CONFIG % runsc)
        log = open(self.log_path, "ab")  # noqa: SIM115 - kept open for the daemon's lifetime
        try:
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise DaemonUnavailable(f"dockerd exited: {self.log_tail()}")
            if self.answers():
                return
            time.sleep(0.2)
        raise DaemonUnavailable(f"dockerd did not answer in {wait_s:g}s: {self.log_tail()}")

    def answers(self) -> bool:
        try:
            client = docker.DockerClient(base_url=self.host, timeout=5)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:  # noqa: BLE001 - any failure means "not yet"
            return False

    def kill(self) -> None:
        """SIGKILL dockerd, as a crash would. Its containerd follows it (dockerd starts it
        with a parent-death signal); the containers' shims stay until the restart."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        # containerd dies of its parent-death signal, but nobody may reap it here (this
        # machine's init does not): a zombie still "runs" for the restarted dockerd, which
        # would wait for it forever. What an init that reaps leaves is no process at all, so
        # its stale pidfile goes, as it would be stale there.
        pidfile = self.root / "exec" / "containerd" / "containerd.pid"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                pid = int(pidfile.read_text().strip())
            except (OSError, ValueError):
                return
            state = _process_state(pid)
            if state in (None, "Z", "X"):
                pidfile.unlink(missing_ok=True)
                return
            time.sleep(0.1)

    def restart(self) -> None:
        self.kill()
        self.start()

    def engine(self) -> Engine:
        return Engine(docker.DockerClient(base_url=self.host, timeout=API_TIMEOUT))

    def load_images(self, source: Engine, refs: tuple[str, ...] = IMAGES) -> None:
        """Copy images from the shared engine through the API (``docker save | load``)."""
        target = self.engine()
        try:
            for ref in refs:
                target.api.load_image(source.api.get_image(ref))
        finally:
            target.close()

    def env(self) -> dict[str, str]:
        """The environment of an ``fcv`` subprocess that should use this daemon."""
        return {**os.environ, "DOCKER_HOST": self.host}

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def own_processes(self) -> list[int]:
        """PIDs of processes that belong to this daemon (dockerd, containerd, shims): their
        command lines name its private directory."""
        pids = []
        markers = (str(self.root).encode(), str(self.data_root).encode())
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if any(marker in cmdline for marker in markers):
                pids.append(int(entry))
        return pids

    def stop(self) -> None:
        """Stop the daemon, end whatever of it is left, unmount and remove its directory."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait(10)
        deadline = time.monotonic() + 10
        while (pids := self.own_processes()) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.2)
        mounts = []
        with open("/proc/self/mounts", encoding="utf-8") as f:
            for line in f:
                point = line.split()[1].encode().decode("unicode_escape")
                if point.startswith((f"{self.root}/", f"{self.data_root}/")) or \
                        point in (str(self.root), str(self.data_root)):
                    mounts.append(point)
        for point in sorted(mounts, key=len, reverse=True):
            subprocess.run(["umount", "-l", point], check=False, capture_output=True)
        for directory in (self.data_root, self.root):
            shutil.rmtree(directory, ignore_errors=True)
            try:
                directory.parent.rmdir()
            except OSError:
                pass  # another test process's daemon is still there

    def exists(self) -> bool:
        return self.root.exists() or self.data_root.exists()


def _process_state(pid: int) -> str | None:
    """The state letter of a process (R, S, Z, ...), None if there is none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[0]


class FcvProcess:
    """``python -m verifier.cli ...`` in a subprocess, its stderr read line by line."""

    def __init__(self, *argv: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "verifier.cli", *argv], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env)
        self.lines: list[str] = []
        self._stdout: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._out_reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._out_reader.start()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        self._stdout.append(self.proc.stdout.read())

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    @property
    def stderr(self) -> str:
        with self._changed:
            return "".join(self.lines)

    def wait_for(self, text: str, timeout_s: float = 90) -> None:
        """Block until a stderr line contains ``text``; fail if fcv ends or time runs out."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while not any(text in line for line in self.lines):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.proc.poll() is not None
                                      and not self._reader.is_alive()):
                    self.proc.kill()
                    raise AssertionError(f"fcv never printed {text!r}:\n{''.join(self.lines)}")
                self._changed.wait(min(remaining, 0.5))

    @property
    def trial_id(self) -> str:
        match = re.search(r"trial ([0-9a-f]{12}): task", self.stderr)
        assert match, self.stderr
        return match.group(1)

    def finish(self, timeout_s: float = 120) -> tuple[int, str, str]:
        """Wait for fcv to exit: (exit code, stdout, stderr)."""
        try:
            self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        self._reader.join(10)
        self._out_reader.join(10)
        return self.proc.returncode, "".join(self._stdout), self.stderr

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)
