"""Every policy's promises, checked from INSIDE the agent and verifier containers it makes, on
the real engine: capabilities, no-new-privileges, seccomp, network, gVisor, /tmp, the pids and
memory limits, the read-only workspace and root, and a setuid binary planted in the workspace.

The verifier probes go through the whole trial path (``run_trial``): the task's test.sh reports
what it sees as extra keys of reward.json, so what is checked is exactly what a real verifier
got under that policy.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from tasktools import make_task, write_agent

from isolation import labels as L
from isolation.agent import Sandbox
from isolation.engine import Engine
from verifier.policy import DOCKER_DEFAULT_CAPS, Policy
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, run_trial

pytestmark = pytest.mark.engine

POLICIES = ("default", "strict", "harbor-compat")
PYTHON_IMAGE = "fcv/python:bookworm"
NOBODY = 65534

#: Capability numbers (linux/capability.h).
CAP_NUMBERS = {
    "CHOWN": 0, "DAC_OVERRIDE": 1, "DAC_READ_SEARCH": 2, "FOWNER": 3, "FSETID": 4, "KILL": 5,
    "SETGID": 6, "SETUID": 7, "SETPCAP": 8, "LINUX_IMMUTABLE": 9, "NET_BIND_SERVICE": 10,
    "NET_BROADCAST": 11, "NET_ADMIN": 12, "NET_RAW": 13, "IPC_LOCK": 14, "IPC_OWNER": 15,
    "SYS_MODULE": 16, "SYS_RAWIO": 17, "SYS_CHROOT": 18, "SYS_PTRACE": 19, "SYS_PACCT": 20,
    "SYS_ADMIN": 21, "SYS_BOOT": 22, "SYS_NICE": 23, "SYS_RESOURCE": 24, "SYS_TIME": 25,
    "SYS_TTY_CONFIG": 26, "MKNOD": 27, "LEASE": 28, "AUDIT_WRITE": 29, "AUDIT_CONTROL": 30,
    "SETFCAP": 31,
}

#: Runs inside a container (stdlib only) and prints one JSON object of what it sees.
PROBE = r'''
import ctypes, json, os, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
status = dict(l.split(":\t", 1) for l in open("/proc/self/status").read().splitlines()
              if ":\t" in l)
mounts = {m.split()[1]: m.split()[3] for m in open("/proc/self/mounts")}
def writable(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        os.unlink(path)
        return 1
    except OSError:
        return 0
def run(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=20).stdout.strip()
    except OSError as e:
        return "error: " + str(e)
out = {
    "capbnd": int(status["CapBnd"], 16), "capeff": int(status["CapEff"], 16),
    "nnp": libc.prctl(39, 0, 0, 0, 0), "seccomp": int(status.get("Seccomp", "-1")),
    "uid": os.getuid(), "euid": os.geteuid(),
    "net": sorted(l.split(":")[0].strip() for l in open("/proc/net/dev").read().splitlines()[2:]),
    "release": os.uname().release, "mounts": mounts,
    "root_writable": writable("/fcv-probe-root"), "tmp_writable": writable("/tmp/fcv-probe"),
}
for arg in sys.argv[1:]:
    key, _, path = arg.partition("=")
    if key == "suid":
        out["suid_euid"] = run([path, "-u"])
    elif key == "write":
        out["write_" + path] = writable(path + "/fcv-probe")
print(json.dumps(out))
'''


def caps(names: tuple[str, ...]) -> int:
    return sum(1 << CAP_NUMBERS[n] for n in names)


def expected_bounding(policy_caps: tuple[str, ...], cap_drop: tuple[str, ...],
                      runtime: str | None) -> int:
    if cap_drop == ("ALL",):
        return caps(policy_caps)
    # Nothing dropped: the engine's default set (gVisor leaves out NET_RAW unless asked).
    default = caps(DOCKER_DEFAULT_CAPS)
    return default & ~caps(("NET_RAW",)) if runtime == "runsc" else default


@pytest.fixture(params=POLICIES)
def policy(request: pytest.FixtureRequest) -> Policy:
    return Policy.load(request.param)


@pytest.fixture
def box(engine: Engine, policy: Policy) -> object:
    trial_id = L.new_trial_id()
    sandbox = Sandbox.start(engine, trial_id=trial_id, image_id=PYTHON_IMAGE, workdir="/app",
                            hardening=policy.agent)
    try:
        yield sandbox
    finally:
        engine.remove_labelled(trial_id)


def probe(box: Sandbox, *args: str, user: str = "0") -> dict:  # type: ignore[type-arg]
    result = box.exec(["python3", "-I", "-c", PROBE, *args], user=user, timeout_s=60)
    assert result.exit_code == 0, result.output.decode(errors="replace")
    return json.loads(result.output.decode().strip().splitlines()[-1])  # type: ignore[no-any-return]


class TestAgentContainer:
    def test_confinement_seen_from_inside(self, engine: Engine, policy: Policy,
                                          box: Sandbox) -> None:
        """Capabilities, NoNewPrivs, seccomp, loopback only, the runtime, /tmp: as the policy
        says, read by root inside the agent container."""
        seen = probe(box)
        h = policy.agent
        assert seen["capbnd"] == expected_bounding(h.cap_add, h.cap_drop, h.runtime)
        assert seen["capeff"] == seen["capbnd"]  # root: effective = bounding
        assert seen["nnp"] == (1 if h.no_new_privileges else 0)
        # runc: the engine's default profile. gVisor (runsc 20221219) installs the OCI profile
        # (--oci-seccomp) for the container's own process only, not for commands started
        # with exec, which is how the agent runs: those meet gVisor's kernel unfiltered (the
        # sentry itself is seccomp-confined on the host). SECURITY.md records this.
        assert seen["seccomp"] == (0 if h.runtime == "runsc" else 2)
        assert seen["net"] == ["lo"]
        runtime = engine.inspect_container(box.container_id)["HostConfig"].get("Runtime")
        if h.runtime == "runsc":
            assert runtime == "runsc" and seen["release"] == "4.4.0"  # gVisor's kernel
        else:
            assert runtime == "runc" and seen["release"] != "4.4.0"
            # gVisor does not report mount flags; the behaviour is checked below for both.
            assert {"nosuid", "nodev"} <= set(seen["mounts"]["/tmp"].split(","))
        assert seen["root_writable"] == 1 and seen["tmp_writable"] == 1

    def test_setuid_in_tmp_gains_nothing_and_no_device_nodes(self, policy: Policy,
                                                              box: Sandbox) -> None:
        """A setuid-root copy of `id` in /tmp runs as the caller (nosuid), and a device node
        cannot be made there or, if the policy grants MKNOD, not opened (nodev)."""
        script = ("cp /usr/bin/id /tmp/suid-id && chmod 4755 /tmp/suid-id; "
                  "mknod /tmp/null c 1 3 2>&1; echo mknod=$?; cat /tmp/null 2>&1; echo open=$?")
        setup = box.exec(["sh", "-c", script], user="0", timeout_s=30)
        text = setup.output.decode(errors="replace")
        seen = probe(box, "suid=/tmp/suid-id", user=str(NOBODY))
        assert seen["suid_euid"] == str(NOBODY), seen
        if policy.agent.runtime == "runsc":
            # gVisor 20221219 lets root make a device node in its tmpfs without CAP_MKNOD and
            # open it; the node can only name one of gVisor's own emulated devices, never a
            # host device. Pinned here so that a runsc that changes this is noticed.
            assert "mknod=0" in text, text
        elif "MKNOD" in policy.agent.cap_add or policy.agent.cap_drop != ("ALL",):
            assert "open=0" not in text, text  # made, but nodev: it cannot be opened
        else:
            assert "mknod=0" not in text, text

    def test_fork_bomb_is_bounded_and_host_responsive(self, engine: Engine, policy: Policy,
                                                      box: Sandbox) -> None:
        """Forking until it fails stays under the pids limit; the engine answers meanwhile.
        Under gVisor the sentry's own threads count against the limit, so the sandbox is
        killed instead of a fork failing; either way nothing grows past the limit."""
        limit = policy.agent.pids_limit
        attempts = min(limit + 50, 700)
        bomb = (f"import os, time\nn = 0\nfor _ in range({attempts}):\n"
                "    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
                "    if pid == 0:\n        time.sleep(30)\n        os._exit(0)\n    n += 1\n"
                "print('forked', n, flush=True)\n")
        pings: list[float] = []
        done = threading.Event()

        def ping() -> None:
            while not done.is_set():
                started = time.monotonic()
                engine.api.ping()
                pings.append(time.monotonic() - started)
                time.sleep(0.2)

        pinger = threading.Thread(target=ping, daemon=True)
        pinger.start()
        try:
            result = box.exec(["python3", "-I", "-c", bomb], user="0", timeout_s=120)
        finally:
            done.set()
            pinger.join(10)
        text = result.output.decode(errors="replace")
        state = engine.inspect_container(box.container_id)["State"]
        assert engine.inspect_container(box.container_id)["HostConfig"]["PidsLimit"] == limit
        if "forked" in text:
            forked = int(text.split("forked", 1)[1].split()[0])
            assert forked < limit, text
            if attempts > limit:
                assert forked < attempts, "the limit never stopped a fork"
        else:
            assert policy.agent.runtime == "runsc" and not state["Running"], (text, state)
        assert pings, "the engine never answered during the fork bomb"


def probe_task(root: Path, *, memory_mb: int | None = None, test_sh: str | None = None) -> Path:
    probe_file = {"probe.py": PROBE}
    sh = test_sh or (
        "#!/bin/sh\n"
        "python3 -I /tests/probe.py suid=/app/suid-id write=/app write=/tests write=/etc "
        "> /tmp/probe.json 2>/tmp/probe.err || { cat /tmp/probe.err; exit 1; }\n"
        "python3 -I - <<'EOF'\n"
        "import json\n"
        "p = json.load(open('/tmp/probe.json'))\n"
        "r = {'reward': 1, 'capbnd': p['capbnd'], 'nnp': p['nnp'], 'seccomp': p['seccomp'],\n"
        "     'euid': p['euid'], 'suid_euid': int(p['suid_euid']),\n"
        "     'net_lo_only': int(p['net'] == ['lo']), 'gvisor': int(p['release'] == '4.4.0'),\n"
        "     'app_writable': p['write_/app'], 'tests_writable': p['write_/tests'],\n"
        "     'root_ro': int('ro' in p['mounts'].get('/', '').split(',')),\n"
        "     'tmp_writable': p['tmp_writable']}\n"
        "json.dump(r, open('/logs/verifier/reward.json', 'w'))\n"
        "EOF\n")
    memory = f"memory_mb = {memory_mb}\n" if memory_mb else ""
    return make_task(root, test_sh=sh, dockerfile=None, tests_extra=probe_file, toml=(
        f'[environment]\ndocker_image = "{PYTHON_IMAGE}"\nworkdir = "/app"\n{memory}'
        f'[verifier]\ntimeout_sec = 90\nuser = "{NOBODY}"\n[agent]\ntimeout_sec = 60\n'))


class TestVerifierContainer:
    def test_confinement_seen_by_the_tests(self, engine: Engine, policy: Policy,
                                           tmp_path: Path) -> None:
        """From test.sh in the split verifier: the policy's capabilities (bounding set), no new
        privileges, seccomp, loopback only, gVisor under strict, the workspace and the tests
        read-only, a read-only root under strict; and a setuid-root binary the agent planted
        in the workspace runs as the verifier's user unless no-new-privileges is off."""
        task = Task.from_dir(str(probe_task(tmp_path)))
        agent = write_agent(tmp_path, "cp /usr/bin/id /app/suid-id\nchmod 4755 /app/suid-id\n")
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        result = run_trial(engine, task, options).results["split"]
        assert result.rewards is not None, result
        r = result.rewards
        h = policy.verifier
        assert r["capbnd"] == expected_bounding(h.cap_add, h.cap_drop, h.runtime)
        assert r["euid"] == NOBODY
        assert r["nnp"] == (1 if h.no_new_privileges else 0)
        assert r["seccomp"] == 2
        assert r["net_lo_only"] == 1
        assert r["gvisor"] == (1 if h.runtime == "runsc" else 0)
        assert r["app_writable"] == 0  # the snapshot is read-only
        assert r["tmp_writable"] == 1
        assert r["root_ro"] == (1 if h.read_only_rootfs else 0)
        if h.read_only_rootfs:
            assert r["tests_writable"] == 0
        # Harbor's defaults (no no-new-privileges) let the planted setuid binary run as root:
        # the weakness harbor-compat exists to reproduce, and what fcv's policies close.
        assert r["suid_euid"] == (NOBODY if h.no_new_privileges else 0)
        codes = {f.code: f for f in result.findings}
        assert "setuid-file" in codes
        fails = "setuid-file" in policy.findings.fail_on
        assert result.verdict == ("fail" if fails else "pass")
        assert codes["setuid-file"].fails_verdict == fails
        assert result.policy is not None and result.policy["digest"] == policy.digest

    def test_file_capability_in_workspace(self, engine: Engine, policy: Policy,
                                          tmp_path: Path) -> None:
        """An agent holding SETFCAP (Docker's default set: harbor-compat) can give a workspace
        copy of python3 a file capability (cap_net_raw+ep); the scan reports it, and run by
        the verifier's unprivileged user it grants that capability unless no-new-privileges
        is on. Under the other policies the agent cannot set one at all."""
        agent = write_agent(tmp_path, (
            "python3 -I -c 'import os, shutil, struct\n"
            "shutil.copy(\"/usr/bin/python3\", \"/app/capable\")\n"
            "os.chmod(\"/app/capable\", 0o755)\n"
            "try:\n"
            "    os.setxattr(\"/app/capable\", \"security.capability\",\n"
            "                struct.pack(\"<IIIII\", 0x02000001, 1 << 13, 0, 0, 0))\n"
            "    print(\"capability set\")\n"
            "except OSError as e:\n"
            "    print(\"refused:\", e)'\n"))
        test_sh = ("#!/bin/sh\n"
                   "/app/capable -I -c 'import json\n"
                   "s = dict(l.split(\":\\t\", 1) for l in open(\"/proc/self/status\") "
                   "if \":\\t\" in l)\n"
                   "json.dump({\"reward\": 1, \"capeff\": int(s[\"CapEff\"], 16)}, "
                   "open(\"/logs/verifier/reward.json\", \"w\"))'\n")
        task = Task.from_dir(str(probe_task(tmp_path, test_sh=test_sh)))
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="script",
                                                                   script=str(agent)))
        trial = run_trial(engine, task, options)
        result = trial.results["split"]
        a = policy.agent
        can_set = bool(expected_bounding(a.cap_add, a.cap_drop, a.runtime) & caps(("SETFCAP",)))
        assert (b"capability set" in trial.agent_output) == can_set, trial.agent_output
        codes = {f.code: f for f in result.findings}
        assert ("file-capability" in codes) == can_set, result.findings
        assert result.rewards is not None, result
        gained = bool(int(result.rewards["capeff"]) & caps(("NET_RAW",)))
        h = policy.verifier
        raw_bound = bool(expected_bounding(h.cap_add, h.cap_drop, h.runtime) & caps(("NET_RAW",)))
        assert gained == (can_set and not h.no_new_privileges and raw_bound), result.rewards
        if can_set:
            fails = "file-capability" in policy.findings.fail_on
            assert codes["file-capability"].fails_verdict == fails
            assert result.verdict == ("fail" if fails else "pass")

    def test_memory_limit_is_an_error_never_a_pass(self, engine: Engine, policy: Policy,
                                                   tmp_path: Path) -> None:
        """Tests that write reward 1 and then exceed the memory limit give verdict error
        naming the memory limit, under every policy."""
        sh = ("#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n"
              "python3 -c 'x = bytearray(400 * 1024 * 1024); print(len(x))'\nexit 0\n")
        task = Task.from_dir(str(probe_task(tmp_path, memory_mb=128, test_sh=sh)))
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="none"))
        result = run_trial(engine, task, options).results["split"]
        assert result.verdict == "error", result
        assert result.error is not None and "memory" in result.error
