#!/bin/sh
# Oracle solution for sys-posix-app. Runs as root in the workdir (/app).
set -eu

cat > /app/semver.py <<'PY'
import re

_NUM = r"0|[1-9]\d*"
_ID = r"(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
_RE = re.compile(rf"^({_NUM})\.({_NUM})\.({_NUM})(?:-({_ID}(?:\.{_ID})*))?"
                 r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$")


def _parse(v):
    m = _RE.match(v) if isinstance(v, str) else None
    if not m:
        raise ValueError(f"invalid version: {v!r}")
    core = tuple(int(x) for x in m.group(1, 2, 3))
    pre = m.group(4).split(".") if m.group(4) else []
    return core, pre


def _key_pre(pre):
    # A release (no pre-release) sorts after every pre-release.
    if not pre:
        return (1,)
    return (0, [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre])


def compare(a, b):
    (ca, pa), (cb, pb) = _parse(a), _parse(b)
    ka, kb = (ca, _key_pre(pa)), (cb, _key_pre(pb))
    return (ka > kb) - (ka < kb)
PY
