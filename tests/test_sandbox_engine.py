"""The agent sandbox and snapshots against the real engine, checked from inside the containers."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator

import pytest

from isolation import labels as L
from isolation import snapshot
from isolation.agent import Sandbox
from isolation.engine import Engine
from isolation.hardening import MINIMAL_CAP_ADD, Hardening

pytestmark = pytest.mark.engine

CAP_BITS = {"CHOWN": 0, "DAC_OVERRIDE": 1, "FOWNER": 3, "SETGID": 6, "SETUID": 7}


@pytest.fixture
def box(engine: Engine) -> Iterator[Sandbox]:
    trial = L.new_trial_id()
    image = engine.image_id("fcv/python:bookworm")
    assert image is not None
    sandbox = Sandbox.start(engine, trial_id=trial, image_id=image, workdir="/app")
    try:
        yield sandbox
    finally:
        engine.remove_labelled(trial)


def sh(box: Sandbox, script: str, **kw: object) -> tuple[int | None, str]:
    r = box.exec(["sh", "-c", script], timeout_s=60, **kw)  # type: ignore[arg-type]
    return r.exit_code, r.output.decode()


class TestHardeningFromInside:
    def test_capabilities_exactly_minimal_set(self, box: Sandbox) -> None:
        """The agent's effective capabilities are exactly the documented minimal set."""
        _, out = sh(box, "grep CapEff /proc/self/status")
        eff = int(out.split()[1], 16)
        expected = sum(1 << CAP_BITS[c] for c in MINIMAL_CAP_ADD)
        assert eff == expected

    def test_no_new_privs_and_seccomp(self, box: Sandbox) -> None:
        """NoNewPrivs is set and the default seccomp filter is active (mode 2)."""
        _, out = sh(box, "grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status")
        fields = dict(line.split(":\t") for line in out.strip().splitlines())
        assert fields == {"NoNewPrivs": "1", "Seccomp": "2"}

    def test_no_network_but_loopback(self, box: Sandbox) -> None:
        """The only network interface is lo."""
        _, out = sh(box, "ls /sys/class/net")
        assert out.split() == ["lo"]

    def test_tmp_is_nosuid_nodev_tmpfs(self, box: Sandbox) -> None:
        """/tmp is a tmpfs mounted nosuid,nodev."""
        _, out = sh(box, "grep ' /tmp ' /proc/mounts")
        fstype, options = out.split()[2], out.split()[3].split(",")
        assert fstype == "tmpfs" and "nosuid" in options and "nodev" in options

    def test_limits_applied(self, engine: Engine, box: Sandbox) -> None:
        """pids, memory and CPU limits are set on the container."""
        hc = engine.inspect_container(box.container_id)["HostConfig"]
        assert hc["PidsLimit"] == 512
        assert hc["Memory"] == 2048 * 1024 * 1024 == hc["MemorySwap"]
        assert hc["NanoCpus"] == 1_000_000_000
        assert hc["CapDrop"] == ["ALL"] and not hc.get("Privileged")

    def test_log_dirs_world_writable(self, box: Sandbox) -> None:
        """/logs/agent, /logs/verifier and /logs/artifacts exist with mode 777, as in Harbor."""
        _, out = sh(box, "stat -c '%a %n' /logs/agent /logs/verifier /logs/artifacts")
        assert [line.split()[0] for line in out.strip().splitlines()] == ["777"] * 3

    def test_workspace_prefilled_from_image(self, engine: Engine) -> None:
        """The workspace volume starts with the image's files at the workdir."""
        trial = L.new_trial_id()
        image = engine.image_id("fcv/python:bookworm")
        assert image is not None
        with Sandbox.start(engine, trial_id=trial, image_id=image, workdir="/etc") as b:
            code, out = sh(b, "cat /etc/debian_version")
            assert code == 0 and out.strip().startswith("12")
        assert not any(engine.list_labelled(trial).values())

    def test_package_work_succeeds(self, box: Sandbox) -> None:
        """With the minimal caps, root can chown/chmod other users' files, switch users (as
        apt does) and install a package with dpkg and with apt."""
        script = r"""
set -e
mkdir -p /tmp/pkg/DEBIAN /tmp/pkg/usr/share/fcvdemo
printf 'Package: fcvdemo\nVersion: 1.0\nArchitecture: all\nMaintainer: fcv <fcv@example.invalid>\nDescription: demo\n' > /tmp/pkg/DEBIAN/control
echo hello > /tmp/pkg/usr/share/fcvdemo/hello
dpkg-deb --build /tmp/pkg /var/tmp/fcvdemo.deb >/dev/null
dpkg -i /var/tmp/fcvdemo.deb >/dev/null
apt-get remove -y -qq fcvdemo >/dev/null
apt-get install -y -qq /var/tmp/fcvdemo.deb >/dev/null 2>&1
test -f /usr/share/fcvdemo/hello
touch /app/f && chown 1000:1000 /app/f && chmod 600 /app/f
setpriv --reuid 1000 --regid 1000 --clear-groups sh -c 'echo mine > /app/f'
chmod 644 /app/f && cat /app/f
echo ok
"""
        code, out = sh(box, script)
        assert code == 0, out
        assert out.strip().endswith("mine\nok")

    def test_without_caps_package_work_fails(self, engine: Engine) -> None:
        """Control: with no capabilities at all, the same chown fails (the caps matter)."""
        trial = L.new_trial_id()
        image = engine.image_id("fcv/python:bookworm")
        assert image is not None
        with Sandbox.start(engine, trial_id=trial, image_id=image, workdir="/app",
                           hardening=Hardening(cap_add=())) as b:
            code, out = sh(b, "touch /app/f && chown 1000 /app/f")
            assert code != 0 and "Operation not permitted" in out

    def test_exec_timeout(self, box: Sandbox) -> None:
        """exec stops waiting at its timeout and reports it."""
        r = box.exec(["sleep", "30"], timeout_s=1)
        assert r.timed_out and r.exit_code is None and r.duration_s < 10

    def test_upload_and_user(self, box: Sandbox) -> None:
        """upload_bytes writes a file; exec runs as the given user in the workdir."""
        box.upload_bytes("/app/hello.txt", b"hi\n")
        code, out = sh(box, "pwd; id -u; cat hello.txt", user="1000")
        assert code == 0 and out.split() == ["/app", "1000", "hi"]


class TestFreezeAndSnapshot:
    def test_freeze_stops_background_processes(self, engine: Engine, box: Sandbox) -> None:
        """After freeze, a background writer makes no more progress and is reported."""
        sh(box, "nohup sh -c 'while :; do date +%s%N >> /app/ticks; sleep 0.05; done' "
                ">/dev/null 2>&1 &")
        import time
        time.sleep(0.5)
        processes = box.freeze()
        assert any("ticks" in p.command for p in processes)
        snap = snapshot.take(engine, box, method="volume", receiver_image=box.image_id)
        first = _listing(engine, box, snap)["app/ticks"].size
        time.sleep(0.5)
        assert _listing(engine, box, snap)["app/ticks"].size == first > 0

    @pytest.mark.parametrize("method", ["volume", "commit"])
    def test_snapshot_preserves_entries(self, engine: Engine, box: Sandbox,
                                        method: str) -> None:
        """The snapshot holds the workspace with modes, owners, symlinks, FIFOs and deletions
        as the agent left them."""
        code, out = sh(box, "set -e; mkdir -p sub/empty; echo x > sub/f; chmod 751 sub/f; "
                            "chown 1000:1000 sub/f; ln -s ../sub/f link; ln -s /etc/shadow abs;"
                            " mkfifo pipe; rm -f /usr/bin/python3")
        assert code == 0, out
        box.freeze()
        snap = snapshot.take(engine, box, method=method, receiver_image=box.image_id)
        entries = _listing(engine, box, snap)
        assert {"app/sub/empty", "app/sub/f", "app/link", "app/abs", "app/pipe"} <= set(entries)
        f = entries["app/sub/f"]
        assert (f.mode & 0o7777, f.uid, f.gid) == (0o751, 1000, 1000)
        assert entries["app/link"].issym() and entries["app/link"].linkname == "../sub/f"
        assert entries["app/abs"].linkname == "/etc/shadow"
        assert entries["app/pipe"].isfifo()
        if method == "commit":
            assert snap.commit_image and snap.volume != box.workspace_volume
            assert ("D", "/usr/bin/python3") in {(d.kind, d.path) for d in snap.diff}
            labels = engine.inspect_image(snap.commit_image)["Config"]["Labels"]
            assert labels[L.TRIAL] == box.trial_id
        else:
            assert snap.volume == box.workspace_volume


def _listing(engine: Engine, box: Sandbox, snap: snapshot.Snapshot) -> dict[str, tarfile.TarInfo]:
    from isolation.engine import VolumeMount
    c = engine.create_container(box.image_id, ["true"], entrypoint=[],
                                name=L.resource_name(box.trial_id, "probe") + "-list",
                                labels=L.trial_labels(box.trial_id, "probe"),
                                host_config=Hardening().host_config(),
                                mounts=[VolumeMount(volume=snap.volume, target="/app",
                                                    read_only=True)])
    try:
        stream, _ = engine.get_archive(c, "/app")
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
            return {m.name: m for m in tar.getmembers()}
    finally:
        engine.remove_container(c)


class TestLimitsHold:
    def test_fork_bomb_stops_at_pids_limit(self, box: Sandbox) -> None:
        """A fork bomb gets EAGAIN before the pids limit; the container keeps answering."""
        script = ("import os, time\nn = 0\ntry:\n    while n < 2000:\n        pid = os.fork()\n"
                  "        if pid == 0:\n            time.sleep(20); os._exit(0)\n        n += 1\n"
                  "except OSError as e:\n    print(n, e.errno)\n")
        box.upload_bytes("/app/bomb.py", script.encode())
        r = box.exec(["python3", "/app/bomb.py"], timeout_s=60)
        forked, errno = (int(x) for x in r.output.split())
        assert errno == 11 and 100 < forked < 512
        _, out = sh(box, "echo still-alive")
        assert out.strip() == "still-alive"
