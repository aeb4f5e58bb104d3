"""Unit tests for verifier.findings (pure): each code is produced by what it describes, and the
honest look-alike does not produce it."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isolation import scan_payload
from isolation.engine import DiffEntry
from isolation.scan import ScanEntry, parse_output
from verifier import findings as F
from verifier.verdict import Finding

W = "/app"


def diff(*entries: str) -> list[DiffEntry]:
    return [DiffEntry(kind=e[0], path=e[2:]) for e in entries]


def entry(path: str, kind: str = "file", *, reasons: tuple[str, ...] = (), mode: int = 0o644,
          nlink: int = 1, target: str | None = None) -> ScanEntry:
    return ScanEntry(path=path, kind=kind, mode=mode, uid=0, gid=0, nlink=nlink, size=1,
                     reasons=reasons, target=target)


def codes(found: list[Finding]) -> set[str]:
    return {f.code for f in found}


DIFF_CASES = {
    "toolchain-modified": (["C /usr", "C /usr/bin", "C /usr/bin/python3"],
                           ["A /app/bin/python3"]),
    "preload-configured": (["A /etc/ld.so.preload"], ["C /etc/ld.so.conf.d"]),
    "python-startup-hook": (["A /usr/lib/python3/dist-packages/sitecustomize.py",
                             "C /etc/python3.11/sitecustomize.py"],
                            ["A /app/lib/site-packages/sitecustomize.py"]),
    "profile-modified": (["C /etc/profile", "A /etc/profile.d/x.sh", "A /root/.local/bin/env"],
                         ["A /app/.profile"]),
    "tests-planted": (["A /tests", "A /tests/test.sh"], ["A /logs/agent/tests.txt"]),
    "logs-planted": (["A /logs/verifier/reward.json"], ["A /logs/verifier"]),
    "outside-workspace-change": (["A /etc/myapp.conf"], ["A /tmp/scratch", "A /app/out.txt"]),
}


class TestFromDiff:
    @pytest.mark.parametrize("code", sorted(DIFF_CASES))
    def test_code_produced(self, code: str) -> None:
        """Each diff-based code comes from the change it describes."""
        positive, _ = DIFF_CASES[code]
        assert code in codes(F.from_diff(diff(*positive), workdir=W))

    @pytest.mark.parametrize("code", sorted(DIFF_CASES))
    def test_honest_lookalike_not_flagged(self, code: str) -> None:
        """The honest look-alike (inside the workspace, fcv's own dirs, scratch) is not."""
        _, negative = DIFF_CASES[code]
        assert code not in codes(F.from_diff(diff(*negative), workdir=W))

    def test_parent_dirs_not_reported(self) -> None:
        """Changed parent directories are implied by their leaves, not listed."""
        found = F.from_diff(diff("C /usr", "C /usr/bin", "D /usr/bin/python3"), workdir=W)
        assert [f.path for f in found] == ["/usr/bin/python3"]
        assert "deleted" in found[0].message

    def test_fcv_own_paths_ignored(self) -> None:
        """The dirs fcv creates and the uploads it makes are never findings."""
        found = F.from_diff(diff("A /logs", "A /logs/agent", "A /logs/verifier",
                                 "A /logs/artifacts", "A /fcv-agent", "A /fcv-agent/a.sh",
                                 "A /solution/solve.sh", "A /tmp"), workdir=W)
        assert found == []


SCAN_CASES = {
    "symlink-to-private": ([entry("r.txt", "symlink", target="/logs/verifier/reward.txt")],
                           [entry("r.txt", "symlink", target="data/r.txt")]),
    "symlink-escape": ([entry("py", "symlink", target="/usr/bin/python3")],
                       [entry("lib64", "symlink", target="lib")]),
    "setuid-file": ([entry("s", reasons=("setuid",), mode=0o4755)], [entry("s", mode=0o755)]),
    "setgid-file": ([entry("g", reasons=("setgid",), mode=0o2755)], [entry("g", mode=0o755)]),
    "file-capability": ([entry("c", reasons=("file-capability",))], [entry("c")]),
    "fifo": ([entry("p", "fifo", reasons=("fifo",))], [entry("p")]),
    "socket": ([entry("s", "socket", reasons=("socket",))], [entry("s")]),
    "device-node": ([entry("d", "char-device", reasons=("char-device",))], [entry("d")]),
    "hardlink": ([entry("h", reasons=("hardlink",), nlink=2)], [entry("h")]),
    "pytest-config": ([entry("conftest.py", reasons=("python-hook",))],
                      [entry("tests_helper.py")]),
    "python-shadow-module": ([entry("pytest.py", reasons=("python-hook",)),
                              entry("random.py", reasons=("stdlib-shadow",))],
                             [entry("mytool.py")]),
    "python-bytecode": ([entry("__pycache__/m.cpython-311.pyc", reasons=("bytecode",))],
                        [entry("m.py")]),
}


class TestFromScan:
    @pytest.mark.parametrize("code", sorted(SCAN_CASES))
    def test_code_produced(self, code: str) -> None:
        """Each scan-based code comes from the entry it describes."""
        positive, _ = SCAN_CASES[code]
        assert code in codes(F.from_scan(positive, workdir=W))

    @pytest.mark.parametrize("code", sorted(SCAN_CASES))
    def test_honest_lookalike_not_flagged(self, code: str) -> None:
        """The honest look-alike entry produces no finding of that code."""
        _, negative = SCAN_CASES[code]
        assert code not in codes(F.from_scan(negative, workdir=W))

    def test_symlink_chain_into_tests(self) -> None:
        """A chain of workspace symlinks that ends in /tests is caught."""
        found = F.from_scan([entry("a", "symlink", target="b/expected.txt"),
                             entry("b", "symlink", target="sub/../c"),
                             entry("c", "symlink", target="/tests")], workdir=W)
        private = {f.path for f in found if f.code == "symlink-to-private"}
        assert private == {"/app/a", "/app/b", "/app/c"}

    def test_relative_escape_into_logs(self) -> None:
        """A relative symlink climbing out of the workspace into /logs is private."""
        found = F.from_scan([entry("x/r", "symlink", target="../../logs/verifier/r")],
                            workdir=W)
        assert codes(found) == {"symlink-to-private"}

    def test_sensitive_host_path_named(self) -> None:
        """A symlink to /etc/shadow is an escape that says it is sensitive."""
        [f] = F.from_scan([entry("s", "symlink", target="/etc/shadow")], workdir=W)
        assert f.code == "symlink-escape" and "sensitive" in f.message

    @given(st.lists(st.sampled_from(["a", "b", "..", ".", "c"]), min_size=1, max_size=8))
    def test_resolution_stays_absolute(self, parts: list[str]) -> None:
        """Lexical resolution always yields a normalised absolute path, even for loops."""
        links = {"a": "/".join(parts), "b": "a", "c": "b"}
        where = F.resolve_link("a", links, workdir=W)
        assert where.startswith("/") and "/../" not in where and not where.endswith("/..")


class TestProcessesAndPolicy:
    def test_processes(self) -> None:
        """Each process left running is one finding, with its command shortened."""
        [f] = F.from_processes([("42", "sh -c " + "x" * 500)])
        assert f.code == "agent-process-at-freeze" and f.path == "pid:42"
        assert len(f.message) < 200

    def test_cap(self) -> None:
        """More than the limit of one code collapses into a count."""
        many = [F.finding("hardlink", f"/app/{i}", "x") for i in range(30)]
        capped = F.cap(many, limit=5)
        assert len(capped) == 6 and "25 more" in capped[-1].message

    def test_default_policy(self) -> None:
        """By default only symlinks into private paths fail the verdict."""
        policy = F.Policy()
        hits = policy.violations([F.finding(c, "/x", "m") for c in F.CODES])
        assert [f.code for f in hits] == ["symlink-to-private"]

    def test_unknown_code_refused(self) -> None:
        """A policy naming an unknown code is an error."""
        with pytest.raises(ValueError):
            F.Policy(fail_on={"no-such-code"})


class TestScanOutput:
    def test_parse(self) -> None:
        """Scanner lines parse into entries and a summary."""
        report = parse_output('{"entry": {"path": "p", "kind": "fifo", "mode": 420, "uid": 0, '
                              '"gid": 0, "nlink": 1, "size": 0, "reasons": ["fifo"]}}\n'
                              '{"summary": {"files": 1}}\n')
        assert report.entries[0].kind == "fifo" and report.summary == {"files": 1}

    def test_incomplete_output_is_error(self) -> None:
        """Output without the summary line (a killed scanner) is refused."""
        from isolation.errors import EngineError
        with pytest.raises(EngineError):
            parse_output('{"entry": {"path": "p"}}\n')


class TestPrivateSpellings:
    @pytest.mark.parametrize("target", ["//logs/verifier", "/proc/self/root/logs",
                                        "/dev/fd/3", "/./tests/../tests/x", "///solution"])
    def test_lexical_spellings(self, target: str) -> None:
        """Odd spellings of private paths are still private."""
        [f] = F.from_scan([entry("t", "symlink", target=target)], workdir=W)
        assert f.code == "symlink-to-private"

    def test_engine_resolution_wins_when_worse(self) -> None:
        """If the engine says a harmless-looking link leads into /logs, it is private."""
        found = F.from_scan([entry("t", "symlink", target="/var/run/../logs/verifier")],
                            workdir=W, resolved={"t": "/logs/verifier"})
        assert codes(found) == {"symlink-to-private"}


class TestFromEnvironment:
    def test_pythonpath_into_workspace(self) -> None:
        """PYTHONPATH naming the workspace (or below it) is reported."""
        [f] = F.from_environment({"PYTHONPATH": "/opt/lib:/app/src"}, workdir=W)
        assert f.code == "pythonpath-into-workspace" and f.path == "/app/src"

    def test_pythonpath_elsewhere(self) -> None:
        """PYTHONPATH outside the workspace, or none, is not."""
        assert F.from_environment({"PYTHONPATH": "/opt/lib:/application"}, workdir=W) == []
        assert F.from_environment({}, workdir=W) == []


#: A VFS_CAP_REVISION_2 security.capability value: effective, permitted CAP_NET_RAW (13).
CAP_NET_RAW_EP = struct.pack("<IIIII", 0x02000001, 1 << 13, 0, 0, 0)


class TestScanPayloadCapabilities:
    """The scanner's own check, on this machine's filesystem (what runs inside the scanner
    container): file capabilities are seen on regular files, never through a link."""

    def test_capable_file_plain_file_and_link(self, tmp_path: Path) -> None:
        capable, plain, link = tmp_path / "ping", tmp_path / "plain", tmp_path / "link"
        capable.write_bytes(b"\x7fELF")
        plain.write_bytes(b"\x7fELF")
        os.symlink(capable, link)
        os.setxattr(capable, "security.capability", CAP_NET_RAW_EP)  # needs root
        assert os.getxattr(capable, "security.capability") == CAP_NET_RAW_EP

        def reasons(path: Path) -> list[str]:
            return scan_payload.notable(path.name, os.lstat(path), str(path))[1]

        assert "file-capability" in reasons(capable)
        assert "file-capability" not in reasons(plain)
        assert reasons(link) == ["symlink"]
