"""Runs INSIDE the scanner container (stdlib only, ``python3 -I``): list what in a snapshot is
worth a finding, without following links, opening FIFOs or devices, or executing anything.

Prints JSON lines: one ``{"entry": {...}}`` per notable entry (at most ``LIMIT``), then one
``{"summary": {...}}``. Paths are relative to the scanned root.
"""

from __future__ import annotations

import json
import os
import stat
import sys

LIMIT = 2000
READ_CAP = 64 * 1024
HOOK_NAMES = {"conftest.py", "pytest.ini", "pytest.py", "sitecustomize.py", "usercustomize.py",
              "_pytest", "py.py", "pytest", "pluggy"}
CONFIG_NAMES = {"pyproject.toml", "setup.cfg", "tox.ini", "entry_points.txt"}
CONFIG_MARKERS = (b"[tool.pytest", b"[pytest]", b"[tool:pytest]", b"addopts", b"pytest_plugins",
                  b"pytest11")
#: Standard-library names an agent's file may shadow; a few names honest work uses all the time
#: ("test.py", "types.py" in a package) would only add noise.
STDLIB = set(getattr(sys, "stdlib_module_names", ())) - {"test", "this", "antigravity",
                                                          "__future__", "types", "token"}


def kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "symlink"), (stat.S_ISDIR, "dir"), (stat.S_ISREG, "file"),
                       (stat.S_ISFIFO, "fifo"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "char-device"), (stat.S_ISBLK, "block-device")):
        if test(mode):
            return name
    return "unknown"


def has_pytest_config(path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        data = os.read(fd, READ_CAP)
    finally:
        os.close(fd)
    return any(marker in data for marker in CONFIG_MARKERS)


def has_file_capabilities(path: str) -> bool:
    """Whether a regular file carries file capabilities (the ``security.capability`` extended
    attribute, what ``setcap`` writes): executing it grants them wherever no_new_privs is off,
    like a setuid bit. Read without following links; readable by any user."""
    try:
        return bool(os.getxattr(path, "security.capability", follow_symlinks=False))
    except OSError:
        return False  # none set (ENODATA), or a filesystem without extended attributes


def notable(name: str, st: os.stat_result, full: str) -> tuple[str, list[str]]:
    kind = kind_of(st.st_mode)
    reasons: list[str] = []
    if kind not in ("file", "dir"):
        reasons.append(kind)
    if st.st_mode & stat.S_ISUID:
        reasons.append("setuid")
    if st.st_mode & stat.S_ISGID and kind != "dir":
        reasons.append("setgid")
    if kind == "file" and st.st_nlink > 1:
        reasons.append("hardlink")
    if kind == "file" and has_file_capabilities(full):
        reasons.append("file-capability")
    if name in HOOK_NAMES or name.endswith(".pth"):
        reasons.append("python-hook")
    elif kind in ("file", "dir") and (name[:-3] if name.endswith(".py") else
                                      name if kind == "dir" else "") in STDLIB:
        reasons.append("stdlib-shadow")
    if kind == "file" and name.endswith(".pyc"):
        reasons.append("bytecode")
    if kind == "file" and name in CONFIG_NAMES and has_pytest_config(full):
        reasons.append("pytest-config")
    return kind, reasons


def main(root: str, max_entries: int | None = None) -> None:
    counts = {"files": 0, "dirs": 0, "symlinks": 0, "other": 0, "bytes": 0, "reported": 0,
              "unreported": 0, "unreadable_dirs": 0, "truncated": 0}
    out = sys.stdout

    def report(entry: dict[str, object]) -> None:
        # Symlinks are always reported: the policy must see every one of them.
        if counts["reported"] >= LIMIT and entry["kind"] != "symlink":
            counts["unreported"] += 1
            return
        counts["reported"] += 1
        out.write(json.dumps({"entry": entry}) + "\n")

    def over() -> bool:
        # Over the policy's limit: the snapshot is refused, so counting on is wasted work
        # (and an agent's million files must not buy a scan timeout instead of a fail).
        total = counts["files"] + counts["dirs"] + counts["symlinks"] + counts["other"]
        if max_entries is not None and total > max_entries:
            counts["truncated"] = 1
        return bool(counts["truncated"])

    stack = [root]
    while stack and not over():
        directory = stack.pop()
        try:
            names = os.listdir(directory)
        except OSError:
            counts["unreadable_dirs"] += 1
            continue
        for name in names:
            if over():
                break
            full = os.path.join(directory, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            kind, reasons = notable(name, st, full)
            if kind == "dir":
                counts["dirs"] += 1
                stack.append(full)
            elif kind == "file":
                counts["files"] += 1
                counts["bytes"] += st.st_size
            elif kind == "symlink":
                counts["symlinks"] += 1
            else:
                counts["other"] += 1
            if reasons:
                entry = {"path": os.path.relpath(full, root), "kind": kind,
                         "mode": st.st_mode & 0o7777, "uid": st.st_uid, "gid": st.st_gid,
                         "nlink": st.st_nlink, "size": st.st_size, "reasons": reasons}
                if kind == "symlink":
                    try:
                        entry["target"] = os.readlink(full)
                    except OSError:
                        entry["target"] = None
                report(entry)
    out.write(json.dumps({"summary": counts}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
