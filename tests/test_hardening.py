"""Unit tests for isolation.hardening and isolation.labels (pure, no engine)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isolation import labels as L
from isolation.hardening import MINIMAL_CAP_ADD, Hardening


class TestHardening:
    def test_defaults_are_locked_down(self) -> None:
        """The default profile drops all caps, adds the minimal set, and isolates the network."""
        hc = Hardening().host_config()
        assert hc["cap_drop"] == ["ALL"]
        assert hc["cap_add"] == list(MINIMAL_CAP_ADD)
        assert hc["security_opt"] == ["no-new-privileges:true"]
        assert hc["network_mode"] == "none"
        assert hc["privileged"] is False
        assert "nosuid" in hc["tmpfs"]["/tmp"] and "nodev" in hc["tmpfs"]["/tmp"]
        assert "seccomp=unconfined" not in hc["security_opt"]

    def test_no_binds_ever(self) -> None:
        """The host config never carries bind mounts or the Docker socket."""
        hc = Hardening().host_config()
        assert "binds" not in hc and "mounts" not in hc
        assert "docker.sock" not in repr(hc)

    def test_task_limits_override(self) -> None:
        """A task's memory and CPU limits replace the defaults; unset ones keep them."""
        h = Hardening().with_limits(memory_mb=1024, cpus=None)
        assert h.memory_mb == 1024 and h.cpus == Hardening().cpus
        hc = h.host_config()
        assert hc["mem_limit"] == hc["memswap_limit"] == 1024 * 1024 * 1024

    def test_network_must_be_none(self) -> None:
        """Any network mode but none is refused."""
        with pytest.raises(ValueError):
            Hardening(network_mode="bridge")

    def test_unknown_capability(self) -> None:
        """A misspelt capability is an error naming the field."""
        with pytest.raises(ValueError, match="cap_add"):
            Hardening(cap_add=("CAP_CHOWN",))

    def test_from_mapping_unknown_key(self) -> None:
        """Unknown keys in a policy table are errors naming the source and key."""
        with pytest.raises(ValueError, match=r"policy.toml.*privileged"):
            Hardening.from_mapping({"privileged": True}, source="policy.toml")

    @given(st.integers(min_value=1, max_value=1 << 20), st.floats(min_value=0.01, max_value=64))
    def test_limits_round_trip(self, memory: int, cpus: float) -> None:
        """Positive limits always produce matching engine values."""
        hc = Hardening(memory_mb=memory, cpus=cpus).host_config()
        assert hc["mem_limit"] == memory * 1024 * 1024
        assert hc["nano_cpus"] == int(cpus * 1e9)

    @pytest.mark.parametrize("bad", [0, -1, True])
    def test_non_positive_limits(self, bad: int) -> None:
        """Zero, negative or boolean limits are refused."""
        with pytest.raises(ValueError, match="pids_limit"):
            Hardening(pids_limit=bad)


class TestLabels:
    def test_trial_labels(self) -> None:
        """Every resource gets the trial id and its role in the fcv namespace."""
        labels = L.trial_labels("abc", "agent")
        assert labels == {"fcv.trial": "abc", "fcv.role": "agent", "fcv.owner": L.owner()}

    def test_unknown_role(self) -> None:
        """An unknown role is refused, so cleanup filters stay meaningful."""
        with pytest.raises(ValueError, match="role"):
            L.trial_labels("abc", "mystery")

    def test_filters(self) -> None:
        """Filters select one trial or every trial."""
        assert L.trial_filter("abc") == {"label": ["fcv.trial=abc"]}
        assert L.trial_filter() == {"label": ["fcv.trial"]}

    def test_ids_unique(self) -> None:
        """Trial ids do not repeat."""
        assert len({L.new_trial_id() for _ in range(1000)}) == 1000


class TestSplitEnvironment:
    def test_defaults_then_task(self) -> None:
        """Safe defaults, the image's PATH, then the task's values, which win."""
        from verifier.environment import split_environment
        env = split_environment({"PATH": "/img/bin"}, {"A": "1"})
        assert env == {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": "/tmp/fcv-pycache",
                       "PATH": "/img/bin", "A": "1"}
        assert split_environment({"PATH": "/img"}, {"PATH": "/task"})["PATH"] == "/task"
        assert "PYTHONSAFEPATH" not in env

    def test_opt_in(self) -> None:
        """Opt-in mitigations add their variables; unknown names are refused."""
        from verifier.environment import split_environment
        env = split_environment({}, {}, opt_in=["safe-path", "no-plugin-autoload"])
        assert env["PYTHONSAFEPATH"] == "1" and env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] == "1"
        with pytest.raises(ValueError, match="unknown"):
            split_environment({}, {}, opt_in=["nope"])


class TestOwner:
    def test_this_process_is_not_a_live_owner(self) -> None:
        """gc may sweep this very process's leftovers (a test, or `fcv run --keep`)."""
        assert not L.owner_alive(L.owner())

    def test_other_live_process(self) -> None:
        """Another running process on this host owns its trials; a dead pid does not."""
        import os
        import socket
        import subprocess
        proc = subprocess.Popen(["sleep", "30"])
        try:
            assert L.owner_alive(f"{socket.gethostname()}:{proc.pid}")
        finally:
            proc.kill()
            proc.wait()
        assert not L.owner_alive(f"{socket.gethostname()}:{proc.pid}")
        assert not L.owner_alive("elsewhere:1") and not L.owner_alive(None)
        assert os.getpid() != proc.pid
