"""Pure: findings about what the agent did, and the policy that acts on them.

Three sources, each already collected without running the agent's code:

* ``docker diff`` of the frozen agent container (its root filesystem outside the workspace);
* a scan of the snapshot (:mod:`isolation.scan`): links, special files, setuid bits, hooks;
* the processes still running when the agent was frozen.

A :class:`Policy` decides which finding codes turn the split verdict into ``fail``; by default
only workspace symlinks into verifier-private paths (``/tests``, ``/logs``, ``/solution``),
which a test could otherwise read or write through.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Iterable, Mapping, Sequence

import attrs

from isolation.engine import DiffEntry
from isolation.scan import ScanEntry
from verifier.verdict import Finding

#: Every finding code, its severity, and what it means (documented in the README).
CODES: Mapping[str, tuple[str, str]] = {
    "toolchain-modified": ("medium", "a program or library outside the workspace was changed"),
    "preload-configured": ("high", "/etc/ld.so.preload was written: every program loads it"),
    "python-startup-hook": ("high", "a Python start-up hook was placed in site-packages"),
    "profile-modified": ("medium", "a shell profile or /etc/environment was changed"),
    "tests-planted": ("high", "the agent created /tests before the tests were copied in"),
    "logs-planted": ("high", "the agent wrote into /logs/verifier before verification"),
    "outside-workspace-change": ("low", "a path outside the workspace was changed"),
    "symlink-to-private": ("high", "a workspace symlink points at a verifier-private path"),
    "symlink-escape": ("medium", "a workspace symlink points outside the workspace"),
    "setuid-file": ("high", "a setuid file is in the workspace"),
    "setgid-file": ("medium", "a setgid file is in the workspace"),
    "file-capability": ("high", "a file in the workspace carries file capabilities"),
    "fifo": ("medium", "a FIFO is in the workspace"),
    "socket": ("medium", "a socket is in the workspace"),
    "device-node": ("high", "a device node is in the workspace"),
    "hardlink": ("low", "a file in the workspace has several hard links"),
    "pytest-config": ("medium", "pytest configuration in the workspace can steer the tests"),
    "python-shadow-module": ("medium", "a module in the workspace can shadow a real one"),
    "python-bytecode": ("low", "bytecode in the workspace may be imported instead of source"),
    "agent-process-at-freeze": ("medium", "a process was still running when the agent stopped"),
    "verifier-wrote-workspace": ("info", "the tests tried to write into the read-only snapshot"),
    "pythonpath-into-workspace": ("medium", "the verifier's PYTHONPATH includes the workspace"),
    "carry-skipped": ("info", "a path the policy carries was missing or not a directory"),
    "disk-limit-exceeded": ("high", "the agent wrote more than the policy's snapshot.max_bytes"),
    "file-limit-exceeded": ("high", "the workspace holds more than snapshot.max_files entries"),
}
#: Findings that fail the split verdict under every policy: the snapshot is over the policy's
#: limits, so it is not verified at all.
LIMIT_CODES = ("disk-limit-exceeded", "file-limit-exceeded")

#: Where a workspace symlink must never lead: the verifier's inputs and outputs, and the
#: /proc and /dev/fd doors back to the whole filesystem (/proc/self/root/logs/...).
PRIVATE_PATHS = ("/tests", "/logs", "/solution", "/proc", "/dev/fd", "/dev/stdin",
                 "/dev/stdout", "/dev/stderr")
SENSITIVE_PATHS = ("/etc/shadow", "/etc/gshadow", "/proc", "/sys", "/dev", "/root",
                   "/var/run/docker.sock", "/run/docker.sock")
TOOLCHAIN_PREFIXES = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
PROFILE_PATTERNS = ("/etc/profile", "/etc/profile.d/*", "/etc/bash.bashrc", "/etc/environment",
                    "/etc/bashrc", "/root/.bashrc", "/root/.profile", "/root/.bash_profile",
                    "/home/*/.bashrc", "/home/*/.profile", "/home/*/.bash_profile",
                    "/etc/zsh/*", "/etc/security/pam_env.conf", "/root/.local/bin/env",
                    "/home/*/.local/bin/env", "/root/.bash_login", "/root/.zshrc")
#: Paths fcv itself creates in the agent container, and scratch space nobody verifies.
IGNORED_PREFIXES = ("/fcv-agent", "/.fcv-tools", "/solution", "/tmp", "/logs/agent", "/logs/artifacts",
                    "/proc", "/sys", "/dev", "/run", "/var/tmp", "/root/.cache")
FCV_DIRS = ("/logs", "/logs/agent", "/logs/verifier", "/logs/artifacts")
#: At most this many findings of one code are listed; one more says how many were left out.
PER_CODE_LIMIT = 20


def _norm(path: str) -> str:
    # POSIX lets "//x" mean something else; Linux does not, and neither may we.
    return "/" + posixpath.normpath(path).lstrip("/")


def _under(path: str, prefixes: Iterable[str]) -> bool:
    path = _norm(path)
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def finding(code: str, path: str, message: str) -> Finding:
    severity, _ = CODES[code]
    return Finding(code=code, severity=severity, path=path, message=message)


def from_diff(diff: Sequence[DiffEntry], *, workdir: str,
              carried: Sequence[str] = ()) -> list[Finding]:
    """Findings from the agent container's ``docker diff``. Changes in the workspace and in
    the paths the policy carries to the verifier are the agent's work, not findings."""
    paths = {d.path for d in diff}
    out: list[Finding] = []
    for entry in sorted(diff, key=lambda d: d.path):
        path = entry.path
        verb = {"A": "added", "C": "changed", "D": "deleted"}.get(entry.kind, "changed")
        # A changed directory is listed for every change below it; report the leaves.
        if entry.kind == "C" and any(p.startswith(path.rstrip("/") + "/") for p in paths):
            continue
        if _under(path, [workdir, *carried]) or path in FCV_DIRS or \
                _under(path, IGNORED_PREFIXES):
            continue
        if entry.kind != "D" and any(_under(c, [path]) for c in carried):
            continue  # a directory made to hold a carried path
        if _under(path, ["/tests"]):
            out.append(finding("tests-planted", path, f"/tests content {verb} by the agent"))
        elif _under(path, ["/logs/verifier"]):
            out.append(finding("logs-planted", path, f"{path} {verb} before verification"))
        elif path == "/etc/ld.so.preload":
            out.append(finding("preload-configured", path, f"{path} {verb}"))
        elif posixpath.basename(path) in ("sitecustomize.py", "usercustomize.py") or (
                ("site-packages/" in path or "dist-packages/" in path)
                and path.endswith(".pth")):
            out.append(finding("python-startup-hook", path, f"start-up hook {verb}: {path}"))
        elif any(fnmatch.fnmatch(path, p) for p in PROFILE_PATTERNS):
            out.append(finding("profile-modified", path, f"{path} {verb}"))
        elif _under(path, TOOLCHAIN_PREFIXES):
            out.append(finding("toolchain-modified", path, f"{path} {verb}"))
        else:
            out.append(finding("outside-workspace-change", path,
                               f"{path} {verb} outside the workspace ({workdir})"))
    return out


def resolve_link(rel_path: str, links: Mapping[str, str], *, workdir: str) -> str:
    """Where a workspace symlink leads, as an absolute path in the verifier, following further
    workspace symlinks lexically (the snapshot is never touched). ``links`` maps workspace-
    relative paths of symlinks to their targets."""
    current = _norm(posixpath.join(workdir, rel_path))
    for _ in range(40):
        rel = posixpath.relpath(current, workdir)
        parts = rel.split("/")
        if rel.startswith(".."):
            return current
        # Find the first component (prefix) that is itself a symlink, and substitute it.
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            if prefix in links:
                base = posixpath.dirname(posixpath.join(workdir, prefix))
                target = links[prefix]
                replaced = _norm(posixpath.join(base, target))
                current = _norm(posixpath.join(replaced, *parts[i:]))
                break
        else:
            return current
    return current  # a loop: reported as whatever it reached


def from_scan(entries: Sequence[ScanEntry], *, workdir: str,
              resolved: Mapping[str, str] | None = None,
              protected: Sequence[str] = PRIVATE_PATHS) -> list[Finding]:
    """Findings from the snapshot scan. ``resolved`` maps symlink paths to where the engine
    says they lead in the verifier; a link is judged by both that and its lexical resolution,
    and the worse of the two counts. ``protected`` are the paths a link must not reach (the
    policy's ``findings.protected_paths``)."""
    links = {e.path: e.target for e in entries if e.kind == "symlink" and e.target is not None}
    out: list[Finding] = []
    for e in sorted(entries, key=lambda e: e.path):
        shown = posixpath.join(workdir, e.path)
        if e.kind == "symlink" and e.target is not None:
            lexical = resolve_link(e.path, links, workdir=workdir)
            engine_view = (resolved or {}).get(e.path, lexical)
            where = next((w for w in (engine_view, lexical) if _under(w, protected)),
                         engine_view if not _under(engine_view, [workdir]) else lexical)
            if _under(where, [workdir]):
                pass
            elif _under(where, protected):
                out.append(finding("symlink-to-private", shown,
                                   f"symlink to {e.target} leads to {where}, which only the "
                                   "verifier writes or reads"))
            else:
                sensitive = " (a sensitive host path)" if _under(where, SENSITIVE_PATHS) else ""
                out.append(finding("symlink-escape", shown,
                                   f"symlink to {e.target} leaves the workspace{sensitive}"))
        kinds = {"fifo": "fifo", "socket": "socket", "char-device": "device-node",
                 "block-device": "device-node"}
        if e.kind in kinds:
            out.append(finding(kinds[e.kind], shown, f"{e.kind} in the workspace"))
        if "setuid" in e.reasons:
            out.append(finding("setuid-file", shown, f"setuid file (mode {e.mode:o}, uid {e.uid})"))
        if "setgid" in e.reasons:
            out.append(finding("setgid-file", shown, f"setgid file (mode {e.mode:o}, gid {e.gid})"))
        if "file-capability" in e.reasons:
            out.append(finding("file-capability", shown,
                               "file capabilities set (security.capability): executing it "
                               "grants them wherever no-new-privileges is off"))
        if "hardlink" in e.reasons:
            out.append(finding("hardlink", shown, f"file with {e.nlink} hard links"))
        if "pytest-config" in e.reasons or (
                "python-hook" in e.reasons and posixpath.basename(e.path) in
                ("conftest.py", "pytest.ini")):
            out.append(finding("pytest-config", shown,
                               "pytest reads this when it runs from the workspace"))
        elif "python-hook" in e.reasons or "stdlib-shadow" in e.reasons:
            out.append(finding("python-shadow-module", shown,
                               "Python may import this instead of the real module"))
        if "bytecode" in e.reasons:
            out.append(finding("python-bytecode", shown,
                               "imported instead of its source when its header matches"))
    return out


def from_environment(env: Mapping[str, str], *, workdir: str) -> list[Finding]:
    """Findings about the split verifier's effective environment: a PYTHONPATH entry in the
    workspace lets any module the agent put there shadow an installed one (a grader helper,
    pytest itself), read-only mount or not."""
    entries = [e for e in env.get("PYTHONPATH", "").split(":") if e]
    inside = [e for e in entries if _under(e, [workdir])]
    if not inside:
        return []
    return [finding("pythonpath-into-workspace", inside[0],
                    f"PYTHONPATH={env['PYTHONPATH']} (image or task) puts the workspace on "
                    "sys.path for the tests: a module there can shadow an installed one")]


def from_processes(commands: Sequence[tuple[str, str]]) -> list[Finding]:
    """Findings for processes (pid, command) the agent left running at freeze time."""
    def short(text: str) -> str:
        text = " ".join(text.split())
        return text if len(text) <= 120 else text[:117] + "..."

    return [finding("agent-process-at-freeze", f"pid:{pid}",
                    f"process still running when the agent was frozen: {short(command)}")
            for pid, command in commands]


def cap(findings: Sequence[Finding], *, limit: int = PER_CODE_LIMIT) -> tuple[Finding, ...]:
    """At most ``limit`` findings per code, plus one saying how many more there were."""
    seen: dict[str, int] = {}
    out: list[Finding] = []
    for f in findings:
        seen[f.code] = seen.get(f.code, 0) + 1
        if seen[f.code] <= limit:
            out.append(f)
    for code, n in seen.items():
        if n > limit:
            out.append(finding(code, "...", f"{n - limit} more {code} findings not listed"))
    return tuple(out)


def _frozen(codes: Iterable[str]) -> frozenset[str]:
    return frozenset(codes)


@attrs.frozen(kw_only=True)
class Policy:
    """Which findings make the split verdict ``fail`` whatever the tests said."""

    fail_on: frozenset[str] = attrs.field(
        default=frozenset({"symlink-to-private"}), converter=_frozen,
        validator=attrs.validators.deep_iterable(attrs.validators.in_(tuple(CODES))))

    def violations(self, findings: Iterable[Finding]) -> list[Finding]:
        return [f for f in findings if f.code in self.fail_on]
